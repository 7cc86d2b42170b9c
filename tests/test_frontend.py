"""The frontend's speed-ups keep LibCST's behaviour: same trees, validation restored."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import warnings
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsens.frontend.parse import parse_module
from dpsens import fastinit
from dpsens.frontend import globals as globals_scan
from dpsens.frontend import lower_expr, syntax
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
    assert sum(c.__module__.startswith("libcst") for c in fastinit.replaced) > 200
    def parameters(init: object) -> list[tuple[str, object, bool]]:
        return [(p.name, p.kind, p.default is inspect.Parameter.empty)
                for p in inspect.signature(init).parameters.values()]  # type: ignore[arg-type]

    for cls, original in fastinit.replaced.items():
        assert parameters(cls.__init__) == parameters(original), cls
    seen = set()
    stack: list[cst.CSTNode] = [tree]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        cls = type(node)
        if cls not in fastinit.replaced:
            continue
        seen.add(cls)
        arguments = {f.name: getattr(node, f.name) for f in dataclasses.fields(cls)}
        by_libcst = cls.__new__(cls)
        fastinit.replaced[cls](by_libcst, **arguments)
        fast = cls(**arguments)
        assert all(getattr(fast, name) is getattr(by_libcst, name) for name in arguments), cls
    assert len(seen) > 40
    # Defaults and default factories: fresh values, equal to LibCST's.
    by_libcst = cst.Name.__new__(cst.Name)
    fastinit.replaced[cst.Name](by_libcst, "a")
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


def _exact_depth(node: ast.AST) -> int:
    """The deepest level under a node, by a full walk (the reference for the pruned one)."""
    deepest, stack = 0, [(node, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(item))
    return deepest


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_pruned_depth_check_finds_exactly_what_a_full_walk_finds(data: st.DataObject) -> None:
    # Short nested constructs, checked against small limits: the width bound of the pruned
    # walk (3w + 10 levels under a one-line node of w bytes) decides whether it looks inside.
    forms = ["({})", "[{}]", "-{}", "not {}", "{} + x", "x * {}", "f({})", "f(a={})", "{}.a",
             "{}[1:2]", "lambda: {}", "(lambda y=1: {})", "[{} for y in z if y]", "{{1: {}}}",
             "f'{{{}}}'", "f'{{x:{{{}}}}}'", "({},)", "{} if c else d", "(y := {})", "*{},",
             "await {}", "{{**{}}}", "x[{}]", "{} < y < z", "a and {} or b"]
    expr = "x"
    for form in data.draw(st.lists(st.sampled_from(forms), max_size=25)):
        expr = form.format(expr)
    indent = data.draw(st.integers(0, 3))
    source = "async def g():\n" + "".join(" " * (i + 1) + "if c:\n" for i in range(indent)) + \
        " " * (indent + 1) + f"y = {expr}\n"
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return  # a form that does not compose here (e.g. a walrus target)
    exact = _exact_depth(tree)
    for limit in range(max(0, exact - 12), exact + 3):
        found = syntax._node_deeper_than(tree, limit)
        assert (found is not None) == (exact > limit), (source, limit, exact)


@settings(max_examples=300, deadline=None)
@given(st.text(), st.sampled_from(["", "r", "b", "u", "R", "rb"]), st.sampled_from(["'", '"', "'''", '"""']))
def test_string_literals_keep_their_values(text: str, prefix: str, quote: str) -> None:
    # repr() writes any text as a valid literal; the other forms wrap the text as written.
    literals = [repr(text)]
    if "b" not in prefix or text.isascii():
        literals.append(prefix + quote + text + quote)
    for literal in literals:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # "\:" is not an escape
                expected = ast.literal_eval(literal)
        except (SyntaxError, ValueError):
            continue  # not a literal (a quote or backslash in the text ends it early)
        assert lower_expr._string_value(literal) == expected, literal


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab_.( \n=é1", max_size=40))
def test_mentions_are_whole_words_as_a_leading_word_boundary_finds_them(text: str) -> None:
    names = {"a", "ab", "b_"}
    pattern = r"\b(" + "|".join(sorted(names, key=len, reverse=True)) + r")\b(?:\s*\.\s*(\w+))?(\s*\()?"
    found = [(start, (name, method, call))
             for name, method, call, start in globals_scan.mentions(names, text)]
    expected = [(m.start(), m.groups()) for m in re.finditer(pattern, text)]
    assert found == expected


@pytest.mark.parametrize("definition", ["def g(): pass", "class G: pass", "async def g(): pass"])
def test_deep_decorators_of_one_line_definitions_are_found(definition: str) -> None:
    # A def's span starts at `def`: its decorators lie above it, outside the width bound.
    source = "@dec(" + "-" * 1000 + "1)\n" + definition + "\n"
    found = syntax.checked_syntax(source, "m.py")
    assert getattr(found, "code", None) == "DPS004", found


def test_a_name_python_reads_otherwise_refuses_the_file() -> None:
    # Python reads identifiers in NFKC form: ｘ (fullwidth) is x.
    module, problems = parse_module("x = 0.0\n\uff58 = 1.0\n", "m.py", "m")
    assert module is None
    assert [(d.code, d.line, d.column) for d in problems] == [("DPS007", 2, 1)]
    assert "'\uff58' as 'x'" in problems[0].message


def test_other_unnormalized_text_is_analyzed_as_usual() -> None:
    # A ligature in a string or a comment, a name already in NFKC form (é, a Devanagari
    # vowel sign): only names are normalized by Python.
    source = 'label = "\ufb01le"  # \uff21\ncaf\u00e9 = 1\nAR\u093e = 2\n'
    module, problems = parse_module(source, "m.py", "m")
    assert module is not None and problems == []


@pytest.mark.parametrize("write", ["ARB[0] = x", "\uff21RB[0] = x", "\uff21RB .fill(x)"])
def test_writes_to_imported_names_are_found_however_the_name_is_written(write: str) -> None:
    text = f"from pkg.cfg import ARB\n\n\ndef f(x):\n    {write}\n"
    writes = globals_scan.foreign_writes(text, ast.parse(text), {"ARB": "pkg.cfg.ARB"})
    assert writes in (("pkg.cfg.ARB",), ("pkg.cfg.*",)), writes


def test_a_name_ending_in_a_combining_mark_is_one_word() -> None:
    # \b after "ARा" fails (the vowel sign is not a word character by re's rules, though
    # it is part of the identifier): the text search finds the whole name.
    mentions = globals_scan.mentions({"AR\u093e"}, "AR\u093e[0] = x\n")
    assert [(name, start) for name, _, _, start in mentions] == [("AR\u093e", 0)]


def test_imports_are_found_in_every_statement_as_a_full_walk_finds_them() -> None:
    source = (
        "import a\n"
        "try:\n    import b\nexcept ImportError:\n    import c\nelse:\n    import d\n"
        "finally:\n    import e\n"
        "with x:\n    if y:\n        from . import f\n    else:\n        import g\n"
        "class K:\n    import h\n    def m(self):\n        for i in z:\n            import i2\n"
        "        while w:\n            import j\n"
        "def top():\n    async def inner():\n        async with q:\n            import k\n"
        "match v:\n    case 1:\n        import l\n"
        "try:\n    pass\nexcept* ValueError:\n    import m2\n"
    )
    tree = ast.parse(source)
    walked = {id(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))}
    assert {id(n) for n in syntax.module_level_imports(tree, in_definitions=True)} == walked
    top_level = [n.names[0].name for n in syntax.module_level_imports(tree)]
    assert top_level == ["a", "b", "c", "d", "e", "f", "g", "l", "m2"]  # not in K or top
