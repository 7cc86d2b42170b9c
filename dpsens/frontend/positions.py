"""Source positions computed only when a diagnostic needs one.

LibCST's PositionProvider regenerates the whole module's code to find node
positions, which costs more than parsing it.  Most modules produce no
diagnostic, so spans are lazy: a LazySpan remembers its node, and the first
one asked for a line resolves the positions of its whole module once.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from dpsens.diagnostics import NO_SPAN, SentSpan, Span


class ModulePositions:
    """Positions of every node of one parsed module, resolved on first use."""

    def __init__(self, tree: cst.Module) -> None:
        self.tree = tree
        self._spans: dict[cst.CSTNode, Span] | None = None

    def of(self, node: cst.CSTNode) -> Span:
        """The span of a node of this module (NO_SPAN for synthesized nodes)."""
        if self._spans is None:
            wrapper = MetadataWrapper(self.tree, unsafe_skip_copy=True)
            self._spans = {
                n: Span(r.start.line, r.start.column, r.end.line, r.end.column)
                for n, r in wrapper.resolve(PositionProvider).items()
            }
        return self._spans.get(node, NO_SPAN)


class LazySpan:
    """A Span whose numbers are looked up when first read."""

    __slots__ = ("_node", "_positions", "_span", "statement_line")

    def __init__(self, node: cst.CSTNode, positions: ModulePositions, statement_line: int) -> None:
        self._node = node
        self._positions = positions
        self._span: Span | None = None
        self.statement_line = statement_line  # known without resolving: for reports

    def __reduce__(self) -> tuple[type[SentSpan], tuple[int, int, int, int, int]]:
        """Pickled resolved: the receiver has no LibCST tree to look the node up in."""
        span = self.resolve()
        return SentSpan, (span.line, span.column, span.end_line, span.end_column,
                          self.statement_line)

    def resolve(self) -> Span:
        """The concrete span."""
        if self._span is None:
            self._span = self._positions.of(self._node)
        return self._span

    @property
    def line(self) -> int:
        return self.resolve().line

    @property
    def column(self) -> int:
        return self.resolve().column

    @property
    def end_line(self) -> int:
        return self.resolve().end_line

    @property
    def end_column(self) -> int:
        return self.resolve().end_column


def statement_lines(tree: cst.Module, module: ast.Module) -> dict[cst.CSTNode, int]:
    """The first line of every statement, from CPython's tree of the same text walked alongside.

    A simple line of LibCST (``a = 1; b = 2``) is several ``ast`` statements;
    compound statements correspond one to one, and so do their bodies.
    """
    lines: dict[cst.CSTNode, int] = {}
    _walk(list(tree.body), list(module.body), lines)
    return lines


def _walk(statements: list[cst.CSTNode], nodes: list[object], lines: dict[cst.CSTNode, int]) -> None:
    cursor = 0
    for statement in statements:
        if type(statement) is cst.SimpleStatementLine:  # exact parser classes: 8x faster
            for small in statement.body:
                if cursor < len(nodes):
                    lines[small] = nodes[cursor].lineno  # type: ignore[attr-defined]
                    cursor += 1
            continue
        if cursor >= len(nodes):
            return
        node = nodes[cursor]
        cursor += 1
        lines[statement] = node.lineno  # type: ignore[attr-defined]
        for cst_body, ast_body in _bodies(statement, node):
            _walk(cst_body, ast_body, lines)


def _bodies(statement: cst.CSTNode, node: object) -> list[tuple[list[cst.CSTNode], list[object]]]:
    """Pairs of corresponding statement lists inside a compound statement."""
    pairs: list[tuple[list[cst.CSTNode], list[object]]] = []
    body = getattr(statement, "body", None)
    if isinstance(body, cst.IndentedBlock) or isinstance(body, cst.SimpleStatementSuite):
        pairs.append((list(body.body), list(getattr(node, "body", []))))
    orelse = getattr(statement, "orelse", None)
    if orelse is None:
        return pairs  # most statements: no isinstance on LibCST's abstract classes (slow)
    if isinstance(orelse, cst.If):
        pairs.append(([orelse], list(getattr(node, "orelse", []))))
    elif isinstance(orelse, cst.Else) and isinstance(orelse.body, (cst.IndentedBlock, cst.SimpleStatementSuite)):
        pairs.append((list(orelse.body.body), list(getattr(node, "orelse", []))))
    return pairs
