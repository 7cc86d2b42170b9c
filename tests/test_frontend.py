"""The frontend's speed-ups keep LibCST's behaviour: same trees, validation restored."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import libcst as cst
import pytest

from dpsens.frontend.parse import parse_module
from dpsens.frontend import trusted_nodes
from dpsens.frontend.trusted_nodes import trusted


def test_trusted_parse_builds_the_same_tree_as_a_validated_parse() -> None:
    for path in sorted(Path("examples").glob("*.py")):
        text = path.read_text()
        with trusted():
            fast = cst.parse_module(text)
        assert fast.deep_equals(cst.parse_module(text)), path
        assert fast.code == text


def test_faster_constructors_take_the_same_arguments_and_build_the_same_nodes() -> None:
    with trusted():
        tree = cst.parse_module(Path("examples/column_stats.py").read_text() +
                                "x = [a for a in b if a]\n@d\nclass C(B, metaclass=M):\n  y: int = 1\n")
    assert len(trusted_nodes.replaced) > 200
    def parameters(init: object) -> list[tuple[str, object, bool]]:
        return [(p.name, p.kind, p.default is inspect.Parameter.empty)
                for p in inspect.signature(init).parameters.values()]  # type: ignore[arg-type]

    for cls, original in trusted_nodes.replaced.items():
        assert parameters(cls.__init__) == parameters(original), cls
    seen = set()
    stack: list[cst.CSTNode] = [tree]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        cls = type(node)
        if cls not in trusted_nodes.replaced:
            continue
        seen.add(cls)
        arguments = {f.name: getattr(node, f.name) for f in dataclasses.fields(cls)}
        by_libcst = cls.__new__(cls)
        trusted_nodes.replaced[cls](by_libcst, **arguments)
        fast = cls(**arguments)
        assert all(getattr(fast, name) is getattr(by_libcst, name) for name in arguments), cls
    assert len(seen) > 40
    # Defaults and default factories: fresh values, equal to LibCST's.
    by_libcst = cst.Name.__new__(cst.Name)
    trusted_nodes.replaced[cst.Name](by_libcst, "a")
    assert cst.Name("a").deep_equals(by_libcst) and cst.Name("a").lpar == by_libcst.lpar


def test_hand_built_nodes_are_validated_after_a_parse() -> None:
    module, problems = parse_module("x = 1\n", "m.py", "m")
    assert module is not None and not problems
    with pytest.raises(cst.CSTValidationError):
        cst.Comparison(left=cst.Name("a"), comparisons=())  # needs at least one comparison


def test_validation_is_restored_when_the_parser_raises() -> None:
    with pytest.raises(cst.ParserSyntaxError), trusted():
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


def _loop_body(source: str) -> tuple[object, ...]:
    module, problems = parse_module(source, "c.py", "c")
    assert module is not None and not problems
    [function] = module.functions
    loop = function.body[-1]
    assert type(loop).__name__ == "For"
    return loop.body  # type: ignore[attr-defined, no-any-return]


def test_continue_becomes_the_else_of_its_if() -> None:
    body = _loop_body("def f(x):\n    for i in range(3):\n        y = 1\n        if i:\n"
                      "            y = 2\n            continue\n        y = 3\n")
    assert [type(s).__name__ for s in body] == ["Assign", "If"]
    branch = body[1]
    assert [type(s).__name__ for s in branch.body] == ["Assign"]  # type: ignore[attr-defined]
    assert [type(s).__name__ for s in branch.orelse] == ["Assign"]  # type: ignore[attr-defined]


def test_continues_that_would_copy_too_much_stay_unsupported() -> None:
    # Each `if c: (if d: continue)` copies what follows into both of its paths.
    part = "        if x:\n            if i:\n                continue\n        x = x + 1\n"
    body = _loop_body("def f(x):\n    for i in range(3):\n" + part * 10)
    kinds = {getattr(s, "kind", None) for s in body[0].body[0].body}  # type: ignore[attr-defined]
    assert "continue" in kinds
