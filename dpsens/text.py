"""Helpers on the texts of reports: types and costs as printed."""

from __future__ import annotations


def top_level_items(text: str) -> list[str]:
    """The comma-separated items of a text outside brackets: ``a, b[c, d], f(e, g)`` ->
    ``["a", "b[c, d]", "f(e, g)"]`` (empty items dropped)."""
    items, depth, start = [], 0, 0
    for position, char in enumerate(text):
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(text[start:position].strip())
            start = position + 1
    items.append(text[start:].strip())
    return [item for item in items if item]
