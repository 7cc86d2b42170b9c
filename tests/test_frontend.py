"""The frontend's speed-ups keep LibCST's behaviour: same trees, validation restored."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from dpsens.frontend.parse import _parser_output_trusted, parse_module


def test_trusted_parse_builds_the_same_tree_as_a_validated_parse() -> None:
    for path in sorted(Path("examples").glob("*.py")):
        text = path.read_text()
        with _parser_output_trusted():
            trusted = cst.parse_module(text)
        assert trusted.deep_equals(cst.parse_module(text)), path
        assert trusted.code == text


def test_hand_built_nodes_are_validated_after_a_parse() -> None:
    module, problems = parse_module("x = 1\n", "m.py", "m")
    assert module is not None and not problems
    with pytest.raises(cst.CSTValidationError):
        cst.Comparison(left=cst.Name("a"), comparisons=())  # needs at least one comparison


def test_validation_is_restored_when_the_parser_raises() -> None:
    with pytest.raises(cst.ParserSyntaxError), _parser_output_trusted():
        cst.parse_module("def f(:\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Comparison(left=cst.Name("a"), comparisons=())


def test_numerals_keep_their_values() -> None:
    source = "A = 0x1F\nB = 1_000\nC = 0o17\nD = 0b11\nE = 1_0.5e1\nF = 'x'\nG = 7j\n"
    module, _ = parse_module(source, "n.py", "n")
    assert module is not None
    values = {name: getattr(expr, "value", None) for name, expr in module.constants.items()}
    assert values == {"A": 31, "B": 1000, "C": 15, "D": 3, "E": 105.0, "F": "x", "G": 7j}
    assert type(values["B"]) is int and type(values["E"]) is float
