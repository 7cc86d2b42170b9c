"""Types written as strings (``x: "Real"``), parsed once per run, without LibCST when a
parse-ahead child (dpsens.parse_ahead) already parsed them."""

from __future__ import annotations

from dpsens import ir

# Parsed string texts: the IR expression, or None when the text is not an expression.
_PARSED: dict[str, ir.Expr | None] = {}


def parsed_string(text: str) -> ir.Expr | None:
    """The expression a string holds (positions inside it are not tracked)."""
    if text not in _PARSED:
        from dpsens.frontend.parse import parse_annotation_string  # LibCST

        _PARSED[text] = parse_annotation_string(text)
    return _PARSED[text]


def strings_of(module: ir.Module) -> set[str]:
    """The short one-line string constants of a module: what may be read as a type."""
    return {node.value for node in ir.nodes([module.functions, list(module.constants.values())])
            if isinstance(node, ir.Const) and isinstance(node.value, str)
            and 0 < len(node.value) <= 200 and "\n" not in node.value}


def remember(found: dict[str, ir.Expr | None]) -> None:
    """Take strings parsed elsewhere as parsed here."""
    _PARSED.update(found)


def forget() -> None:
    """Drop the parsed strings (a new run)."""
    _PARSED.clear()
