"""Read, decode and parse one file into an IR module, reporting bad input as diagnostics."""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import replace
from pathlib import Path
from typing import Sequence

import libcst as cst

from dpsens import ir
from dpsens.diagnostics import Diagnostic
from dpsens.frontend.global_uses import named_values, scan as scan_globals
from dpsens.frontend.globals import GlobalFacts
from dpsens.frontend.syntax import (
    checked_syntax, import_names, imported_modules, relative_origin, unnormalized_identifier,
)
from dpsens.frontend.lower_stmt import StmtLowerer
from dpsens.frontend.positions import ModulePositions, statement_lines
from dpsens.frontend.trusted_nodes import trusted
from dpsens.text import line_and_column


def read_source(path: Path, display: str) -> tuple[str | None, list[Diagnostic]]:
    """The decoded text of a file, or diagnostics saying why there is none."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return None, [Diagnostic(display, 1, 1, "DPS002", f"cannot read file: {reason}")]
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        text = raw.decode(encoding)
    except (SyntaxError, LookupError) as error:
        return None, [Diagnostic(display, 1, 1, "DPS003", f"cannot decode file: {error}")]
    except UnicodeDecodeError as error:
        line, column = line_and_column(raw, error.start)
        message = f"file is not valid {error.encoding}: byte 0x{raw[error.start]:02x}"
        return None, [Diagnostic(display, line, column, "DPS003", message)]
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, []


def parse_module(text: str, display: str, name: str) -> tuple[ir.Module | None, list[Diagnostic]]:
    """Parse text with LibCST and lower it; a syntax error is a DPS004 finding."""
    checked = checked_syntax(text, display)
    if isinstance(checked, Diagnostic):
        return None, [checked]
    unnormalized = unnormalized_identifier(text, display)
    if unnormalized is not None:  # its imports and writes come from CPython's parser
        return None, [unnormalized]
    try:
        with trusted():
            tree = cst.parse_module(text)
        lowerer = _ModuleLowerer(ModulePositions(tree), name, display)
        lowerer.lines = statement_lines(tree, checked)
        lowerer.syntax = checked
        module = lowerer.module(tree, text)
        return replace(module, imported=imported_modules(
            checked, relative_origin(display, name), text)), []
    except cst.ParserSyntaxError as error:
        return None, [_syntax_error(text, display, error)]
    except RecursionError:
        return None, [Diagnostic(display, 1, 1, "DPS004", "file is nested too deeply to parse")]


def _syntax_error(text: str, display: str, error: cst.ParserSyntaxError) -> Diagnostic:
    """A DPS004 located by CPython's parser, whose positions and messages are precise."""
    try:
        ast.parse(text)
    except SyntaxError as precise:
        line, column = precise.lineno or 1, precise.offset or 1
        return Diagnostic(display, line, column, "DPS004", f"syntax error: {precise.msg}")
    except (RecursionError, MemoryError, ValueError):
        pass
    message = f"syntax error (not supported by the parser): {error.message}"
    return Diagnostic(display, error.raw_line, error.raw_column + 1, "DPS004", message)


class _ModuleLowerer(StmtLowerer):
    """Collects imports, constant globals and functions of a module."""

    def __init__(self, positions: ModulePositions, name: str, display: str) -> None:
        super().__init__(positions)
        self.name = name
        self.display = display
        self.syntax = ast.Module(body=[], type_ignores=[])  # CPython's tree of the same text

    def module(self, tree: cst.Module, text: str) -> ir.Module:
        # Only a module that says nonlocal or global can have functions rebinding names.
        self.may_rebind = "nonlocal" in text or "global" in text
        self.may_yield = "yield" in text
        imports: dict[str, str] = {}
        stars: list[str] = []
        constants: dict[str, ir.Expr] = {}
        functions: list[ir.Function] = []
        # Imports inside top-level blocks (`try: from pkg import cfg`) bind names too.
        imports.update(import_names(self.syntax, relative_origin(self.display, self.name)))
        for statement in tree.body:
            if isinstance(statement, cst.FunctionDef):
                line = self.current_line = self.lines.get(statement, 0)
                function = self.function(statement, "")
                functions.append(replace(function, line=line))
                continue
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar):
                    stars.append(self._from_base(small))
                elif isinstance(small, (cst.Import, cst.ImportFrom)):
                    imports.update(self._imports(small))
                elif isinstance(small, (cst.Assign, cst.AnnAssign)):
                    self._constant(small, constants)
        # A stub is never run: its names have the values it declares.
        facts = GlobalFacts() if self.display.endswith(".pyi") else \
            scan_globals(tree, self.syntax, text, imports, relative_origin(self.display, self.name))
        for name in facts.rebound:
            constants.pop(name, None)  # a rebound or changed global has no single value
        return ir.Module(
            self.display, self.name, imports, constants, tuple(functions),
            star_imports=tuple(stars), rebound=frozenset(facts.rebound),
            changed_in_functions=frozenset(facts.in_functions),
            foreign_changed=frozenset(facts.foreign), foreign_stored=frozenset(facts.foreign_stored),
            foreign_in_functions=frozenset(facts.foreign_in_functions), named=facts.named,
            values=frozenset(facts.values), patched=frozenset(facts.patched),
            held={name: frozenset(objects) for name, objects in facts.held.items()},
            unanalyzed=self._unanalyzed(tree, text),
        )

    def _unanalyzed(self, tree: cst.Module, text: str) -> tuple[ir.Unanalyzed, ...]:
        """Every def no analysis reaches: in a class body (at any depth, methods of nested
        classes and classes inside functions included), or under a module-level compound
        statement. Only statements are walked, never expressions: no def hides in one."""
        found: list[ir.Unanalyzed] = []
        # Inside an analyzed function only a class body holds defs no analysis reaches: a
        # module without the word walks no analyzed body (most of its statements).
        classes = "class" in text

        def walk(statements: Sequence[cst.CSTNode], prefix: str, where: str | None,
                 analyzed: bool) -> None:
            # where: "method"/"class" inside a class, a statement kind under a module-level
            # block, None at the top level or inside an analyzed function
            for statement in statements:
                # type() is: parser output has exact classes (a failing isinstance on
                # LibCST's abstract node classes costs 8x more), and mypy narrows on it.
                if type(statement) is cst.FunctionDef:
                    qualname = f"{prefix}.{statement.name.value}" if prefix else statement.name.value
                    if where is not None:
                        found.append(self._unanalyzed_def(statement, qualname, where))
                    inner = "class" if where in ("method", "class") else where
                    if inner is not None or classes:
                        walk(_statements(statement.body), f"{qualname}.<locals>", inner,
                             analyzed or (where is None and not prefix))
                elif type(statement) is cst.ClassDef:
                    name = f"{prefix}.{statement.name.value}" if prefix else statement.name.value
                    walk(_statements(statement.body), name, "method", analyzed)
                elif type(statement) is not cst.SimpleStatementLine:
                    kind = where if where is not None or analyzed else _block_kind(statement)
                    for suite in _suites(statement):
                        walk(_statements(suite), prefix, kind, analyzed)

        walk(tree.body, "", None, False)
        del walk  # a recursive closure is a cycle holding this lowerer and its CPython tree
        return tuple(found)

    def _unanalyzed_def(self, node: cst.FunctionDef, qualname: str, where: str) -> ir.Unanalyzed:
        params = node.params
        annotations = [p.annotation.annotation for p in (
            *params.posonly_params, *params.params, *params.kwonly_params,
            *(p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)))
            if p.annotation is not None]
        if node.returns is not None:
            annotations.append(node.returns.annotation)
        self.current_line = self.lines.get(node, self.current_line)
        return ir.Unanalyzed(self.span(node.name), qualname, where,
                             tuple(self.lower(a) for a in annotations))

    def _constant(self, node: cst.Assign | cst.AnnAssign, constants: dict[str, ir.Expr]) -> None:
        for name, value in named_values(node):
            constants[name] = self.lower(value)

    def _imports(self, node: cst.Import | cst.ImportFrom) -> dict[str, str]:
        if isinstance(node, cst.Import):
            out = {}
            for alias in node.names:
                full = _dotted(alias.name)
                if alias.asname is not None:
                    out[_dotted(alias.asname.name)] = full
                else:
                    top = full.split(".")[0]
                    out[top] = top
            return out
        base = self._from_base(node)
        if isinstance(node.names, cst.ImportStar):
            return {}
        return {
            _dotted(alias.asname.name) if alias.asname else _dotted(alias.name):
            f"{base}.{_dotted(alias.name)}" if base else _dotted(alias.name)
            for alias in node.names
        }


    def _from_base(self, node: cst.ImportFrom) -> str:
        """The absolute module name of ``from base import ...`` (relative ones resolved)."""
        base = _dotted(node.module) if node.module is not None else ""
        if node.relative:
            origin = relative_origin(self.display, self.name)
            package = origin.split(".")[: -len(node.relative)] if origin else []
            base = ".".join(p for p in (*package, base) if p)
        return base


_BLOCK_KINDS = {
    cst.If: "if statement", cst.For: "for loop", cst.While: "while loop", cst.Try: "try statement",
    cst.With: "with statement", cst.Match: "match statement",
}


def _block_kind(statement: cst.CSTNode) -> str:
    if isinstance(statement, cst.TryStar):
        return "try statement"
    return _BLOCK_KINDS.get(type(statement), "compound statement")


def _suites(node: cst.CSTNode) -> list[cst.BaseSuite]:
    """The statement blocks of a compound statement (``elif`` and ``else`` arms, handlers,
    ``finally``, match cases included)."""
    found: list[cst.BaseSuite] = []
    for name in ("body", "orelse", "handlers", "finalbody", "cases"):
        value = getattr(node, name, None)
        for part in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(part, cst.BaseSuite):
                found.append(part)
            elif isinstance(part, cst.CSTNode):  # If (elif), Else, ExceptHandler, Finally, MatchCase
                found.extend(_suites(part))
    return found


def _statements(suite: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    """The statements of a block; a one-line suite holds only simple statements."""
    return suite.body if isinstance(suite, cst.IndentedBlock) else ()


def _dotted(node: cst.CSTNode) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def parse_annotation_string(text: str) -> ir.Expr | None:
    """A type written as a string (``"MetricVector[L2, Real]"``) as an expression (positions
    inside the string are not tracked); see dpsens.frontend.strings, which remembers them."""
    try:
        node = cst.parse_expression(text)
    except (cst.ParserSyntaxError, RecursionError):
        return None
    return StmtLowerer(None).lower(node)
