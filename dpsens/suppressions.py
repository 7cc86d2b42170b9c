"""``# dpsens: ignore[DPSnnn]`` comments: on a statement, on a ``def``, and unused ones (DPS502)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import Iterable

from dpsens.diagnostics import Diagnostic
from dpsens.selection import ALWAYS, Selection

_COMMENT = re.compile(r"#\s*dpsens:\s*ignore(?:\[([^\]]*)\]|(?=\s|$))")


@dataclass
class Suppression:
    """One comment: the codes it names (None: every code) and the lines it covers."""

    line: int
    column: int  # 1-based, of the comment
    codes: frozenset[str] | None
    first: int
    last: int
    used: set[str] = field(default_factory=set)

    def covers(self, diagnostic: Diagnostic) -> bool:
        in_range = self.first <= diagnostic.line <= self.last
        return in_range and (self.codes is None or diagnostic.code in self.codes)


def apply(path: str, text: str, diagnostics: Iterable[Diagnostic],
          selection: Selection, judge_unused: bool = True) -> list[Diagnostic]:
    """The diagnostics no comment suppresses, plus DPS502 for comments that suppressed nothing.

    ``judge_unused`` False: the file was not (fully) analyzed, so a comment that suppressed
    nothing may well be needed; only unknown codes in comments are reported.
    """
    comments = find(text)
    kept = []
    for diagnostic in diagnostics:
        covering = [] if diagnostic.code in ALWAYS else [s for s in comments if s.covers(diagnostic)]
        for comment in covering:
            comment.used.add(diagnostic.code)
        if not covering:
            kept.append(diagnostic)
    if selection.enabled("DPS502"):
        kept.extend(d for comment in comments
                    for d in _unused(path, comment, selection, judge_unused))
    return kept


def _unused(path: str, comment: Suppression, selection: Selection,
            judge_unused: bool = True) -> list[Diagnostic]:
    from dpsens.codes import REGISTRY

    def at(message: str) -> Diagnostic:
        return Diagnostic(path, comment.line, comment.column, "DPS502", message, "warning")

    if comment.codes is None:
        if comment.used or not judge_unused:
            return []
        return [at("unused 'dpsens: ignore' comment: nothing is reported here")]
    unknown = sorted(c for c in comment.codes if c not in REGISTRY)
    idle = sorted(c for c in comment.codes - comment.used
                  if c in REGISTRY and selection.enabled(c))  # a deselected code cannot be judged
    out = [at(f"unknown code {code} in 'dpsens: ignore' comment") for code in unknown]
    if idle and judge_unused:
        out.append(at(f"unused suppression of {', '.join(idle)}: not reported here"))
    return out


def find(text: str) -> list[Suppression]:
    """Every suppression comment; one on a ``def`` line (or any line of a wrapped signature)
    covers the whole function, one on any line of a statement written over several lines
    covers what is reported on that statement."""
    if "dpsens:" not in text:
        return []
    ranges = _line_ranges(text)
    out = []
    for line, column, comment in _comments(text):
        match = _COMMENT.search(comment)
        if match is None:
            continue
        codes = None
        if match.group(1) is not None:
            codes = frozenset(c.strip().upper() for c in match.group(1).split(",") if c.strip())
        first, last = ranges.get(line, (line, line))
        out.append(Suppression(line, column + match.start() + 1, codes, first, last))
    return out


def _comments(text: str) -> list[tuple[int, int, str]]:
    """(line, 0-based column, text) of each comment; strings that look like comments are not."""
    try:
        return [(t.start[0], t.start[1], t.string)
                for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):  # fall back to lines for untokenizable text
        return [(n, line.index("#"), line[line.index("#"):])
                for n, line in enumerate(text.splitlines(), start=1) if "#" in line]


def _line_ranges(text: str) -> dict[int, tuple[int, int]]:
    """Line -> (first, last) lines a comment there covers: a function's (from its decorators
    to its end) for the lines of its signature, a statement's for its lines (only the
    header of an ``if``/``for``/...: its body's lines are statements of their own)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    ranges: dict[int, tuple[int, int]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        header_end = body[0].lineno - 1 if isinstance(body, list) and body else node.end_lineno
        header_end = max(node.lineno, header_end or node.lineno)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            covered = (first, node.end_lineno or node.lineno)
        else:
            covered = (node.lineno, header_end)
        for line in range(node.lineno, header_end + 1):
            ranges.setdefault(line, covered)  # ast.walk goes outside in: the outer statement wins
    return ranges


__all__ = ["Suppression", "apply", "find"]
