"""Helpers on texts: the items of a printed type or cost, positions in a file."""

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


def line_and_column(data: str | bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column of an offset into a text (or into its bytes)."""
    if isinstance(data, bytes):
        return data.count(b"\n", 0, offset) + 1, offset - data.rfind(b"\n", 0, offset)
    return data.count("\n", 0, offset) + 1, offset - data.rfind("\n", 0, offset)
