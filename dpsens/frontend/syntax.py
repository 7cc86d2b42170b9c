"""CPython's view of a file: syntax errors, the nesting limit, the modules it imports.

The driver needs no more than this to plan parallel work, and CPython's parser
is 15 times faster than LibCST's (and needs no LibCST import).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import unicodedata

from dpsens.diagnostics import Diagnostic
from dpsens.text import line_and_column

MAX_DEPTH = 200  # deeper syntax trees crash LibCST's native parser or overflow recursion


def scan_imports(text: str, display: str, name: str) -> tuple[
        tuple[str, ...] | None, tuple[str, ...], list[Diagnostic], tuple[str, ...]]:
    """The modules a file imports, the other modules' objects it may change (R-global,
    over-approximated), its problems (None and the DPS004 when it does not parse), and
    the library functions it replaces (R-patched)."""
    from dpsens.frontend.globals import (
        foreign_writes, function_import_writes, patched_library_names,
    )

    checked = checked_syntax(text, display)
    if isinstance(checked, Diagnostic):
        return None, (), [checked], ()
    origin = relative_origin(display, name)
    imports = import_names(checked, origin)
    writes = {*foreign_writes(text, checked, imports),
              *function_import_writes(checked, text, origin)[0]}  # def f(): import ...
    return imported_modules(checked, origin, text), tuple(sorted(writes)), [], \
        tuple(sorted(patched_library_names(checked, text, imports)))


def module_level_imports(tree: ast.Module, in_definitions: bool = False
                         ) -> list[ast.Import | ast.ImportFrom]:
    """The imports that run with the module: at its top level, or inside its top-level
    if/try/with/for/while blocks (``try: from pkg import cfg``), in order; with
    ``in_definitions``, those in function and class bodies too. Only statements are
    visited (a walk of every node costs 0.4 ms a module of benchmark A)."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(reversed(tree.body))
    while pending:
        statement = pending.pop()
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            found.append(statement)
        elif in_definitions or not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                          ast.ClassDef)):
            pending.extend(reversed(_inner_statements(statement)))
    return found


def _inner_statements(statement: ast.stmt) -> list[ast.stmt]:
    """The statements directly inside a compound one, in the order they may run."""
    inner = [*getattr(statement, "body", ()),
             *(s for handler in getattr(statement, "handlers", ()) for s in handler.body),
             *(s for case in getattr(statement, "cases", ()) for s in case.body),
             *getattr(statement, "orelse", ()), *getattr(statement, "finalbody", ())]
    return [s for s in inner if isinstance(s, ast.stmt)]


def function_imports(tree: ast.Module, text: str, module: str
                     ) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, dict[str, str]]]:
    """Each function whose own body imports (``def f(): from pkg import cfg``), with the
    names those imports bind and what they stand for (``module`` as relative_origin)."""
    if _INDENTED_IMPORT.search(text) is None:
        return []
    found = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:  # statements only, as module_level_imports
        statement = pending.pop()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = import_names(ast.Module(body=statement.body, type_ignores=[]), module)
            if names:
                found.append((statement, names))
        pending.extend(_inner_statements(statement))
    return found


_INDENTED_IMPORT = re.compile(r"(?m)^[ \t]+(?:import|from)[ \t]")


def import_names(tree: ast.Module, module: str) -> dict[str, str]:
    """Each name an import of the module's level binds (module_level_imports) and the
    qualified name it stands for."""
    names: dict[str, str] = {}
    for statement in module_level_imports(tree):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                names[alias.asname or alias.name.split(".")[0]] = \
                    alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(statement, ast.ImportFrom):
            base = _absolute(statement, module)
            names.update((alias.asname or alias.name, f"{base}.{alias.name}" if base else alias.name)
                         for alias in statement.names if alias.name != "*")
    return names


def top_level_bindings(tree: ast.Module, module: str
                       ) -> tuple[dict[str, str], tuple[str, ...], frozenset[str]]:
    """What a module's top-level statements bind: imported names (with what they stand
    for), the modules it star-imports, and the names it binds otherwise (def, class,
    assignment), for finding the files that take dpsens's names from another module."""
    stars = tuple(_absolute(s, module) for s in tree.body if isinstance(s, ast.ImportFrom)
                  and any(alias.name == "*" for alias in s.names))
    defined: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                defined.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return import_names(tree, module), stars, frozenset(defined)


def checked_syntax(text: str, display: str) -> ast.Module | Diagnostic:
    """CPython's tree of the text, or a DPS004 when it is invalid or nested too deeply.

    LibCST's native parser can crash the interpreter (not raise) on deeply
    nested input, so nesting is measured first, iteratively, on the ast; the
    same tree then gives the statement lines and the imports.
    """
    where = text.find("\x00")
    if where >= 0:
        line, column = line_and_column(text, where)
        return Diagnostic(display, line, column, "DPS004", "file contains a NUL byte")
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        line, column = error.lineno or 1, error.offset or 1
        return Diagnostic(display, line, column, "DPS004", f"syntax error: {error.msg}")
    except (RecursionError, MemoryError, ValueError):
        return Diagnostic(display, 1, 1, "DPS004", "file is nested too deeply to parse")
    deep = _node_deeper_than(tree, MAX_DEPTH)
    if deep is not None:
        return Diagnostic(display, getattr(deep, "lineno", 1), 1, "DPS004",
                          f"code nested more than {MAX_DEPTH} levels deep is not analyzed")
    return tree


def searchable(text: str) -> bool:
    """Whether every identifier is written as Python reads it, so that a name can be
    found in the text as written: Python reads identifiers in NFKC form (``ｘ`` is
    ``x``), and a text in that form has its identifiers in it too (keywords are never
    normalized: ``ｇlobal`` is a syntax error)."""
    return text.isascii() or unicodedata.is_normalized("NFKC", text)


def unnormalized_identifier(text: str, display: str) -> Diagnostic | None:
    """A DPS007 at the first identifier Python reads differently from how it is written
    (``ｘ = 1`` binds ``x``): dpsens reads names as written, and would take ``ｘ`` and
    ``x`` for two variables. None for a text that parses and has none."""
    if searchable(text):
        return None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME:
                read = unicodedata.normalize("NFKC", token.string)
                if read != token.string:
                    line, column = token.start
                    return Diagnostic(display, line, column + 1, "DPS007",
                                      f"Python reads the name '{token.string}' as '{read}': "
                                      f"write it as '{read}' (this file is not analyzed)")
    except (tokenize.TokenError, SyntaxError):
        pass  # CPython's parser accepted the text; nothing more to learn here
    return None


# Their decorators lie above the line their span starts on: never pruned by width.
_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _node_deeper_than(tree: ast.AST, limit: int) -> ast.AST | None:
    """A node below ``limit`` levels, found iteratively (reading ``_fields`` directly is
    twice as fast as ``ast.iter_child_nodes``).

    A node on one line is not entered when its width already bounds its depth: below
    a node of w bytes (a def or class: with its decorators, which its span leaves out),
    every level down is a strictly smaller part of the source (or
    a position-less node between two such parts, as ``arguments`` in a lambda, or an
    f-string's value, which shares its string's span a bounded number of times), so
    nothing lies more than 3w + 10 levels under it. Most statements are short lines:
    this visits about a fifth of the nodes (benchmark A: 45 ms → 16 ms).
    """
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return node
        line = getattr(node, "lineno", None)
        if line is not None and line == getattr(node, "end_lineno", None) and \
                not isinstance(node, _DECORATED) and \
                depth + 3 * (node.end_col_offset - node.col_offset) + 10 <= limit:  # type: ignore[attr-defined]
            continue
        depth += 1
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                stack.append((value, depth))
            elif isinstance(value, list):
                stack.extend((item, depth) for item in value if isinstance(item, ast.AST))
    return None


def imported_modules(tree: ast.Module, module: str, text: str | None = None) -> tuple[str, ...]:
    """Every module an import may load, in order, without repeats: imports anywhere, as a
    function's run imports too (the text, when given, shows when there are none but at the
    top level: the walk of every statement costs 17 ms on benchmark A).

    ``import a.b.c`` needs a.b.c (it binds only ``a``); ``from m import n``
    may load m.n (a submodule) or only m; ``from m import *`` needs m.
    Relative imports count their dots from the module's own name.
    """
    found: list[str] = []
    nested = text is None or _INDENTED_IMPORT.search(text) is not None
    for statement in module_level_imports(tree, in_definitions=nested):
        if isinstance(statement, ast.Import):
            found.extend(alias.name for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom):
            base = _absolute(statement, module)
            for alias in statement.names:
                if alias.name == "*":
                    found.append(base)
                else:
                    found.append(f"{base}.{alias.name}" if base else alias.name)
    return tuple(dict.fromkeys(found))


def relative_origin(display: str, name: str) -> str:
    """The dotted name relative imports count their dots from: the module's own name,
    whose last part the first dot drops; in a package's ``__init__``, the first dot is
    the package itself (``from .b import f`` in pkg/sub/__init__.py is pkg.sub.b)."""
    return f"{name}.__init__" if display.rpartition("/")[2] in _INIT_FILES else name


_INIT_FILES = ("__init__.py", "__init__.pyi")


def _absolute(statement: ast.ImportFrom, module: str) -> str:
    """The absolute module of ``from base import ...`` (relative ones resolved; ``module``
    as relative_origin gives it)."""
    base = statement.module or ""
    if statement.level:
        package = module.split(".")[: -statement.level] if module else []
        base = ".".join(p for p in (*package, base) if p)
    return base


__all__ = ["MAX_DEPTH", "checked_syntax", "imported_modules", "relative_origin", "scan_imports",
           "top_level_bindings"]
