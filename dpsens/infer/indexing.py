"""Typing rules of indexing: one entry, one row, one column, slices."""

from __future__ import annotations

from typing import Callable, Union

from dpsens import types as T
from dpsens.infer.values import UNKNOWN, Value, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

Part = Union[Value, tuple[Union[Value, None], ...]]  # an index or a (lower, upper, step) slice
Report = Callable[[str, str], None]


def subscript(base: Value, index: list[Part], report: Report) -> Value:
    """``base[index]``: 1-sensitive in the container, unbounded in a sensitive index."""
    index_ctx = C.blow_up(C.total(_ctx(p) for p in index))
    if base.type is UNKNOWN:
        return unknown(C.add(base.ctx, index_ctx))
    if isinstance(base.type, T.TupleType) and len(index) == 1 and isinstance(index[0], Value):
        return _tuple_item(base, index[0], index_ctx, report)
    result = _container_item(base.type, index)
    if result is None:
        report("DPS301", f"cannot index {base.type.show()} with {len(index)} indices")
        return unknown(C.add(base.ctx, index_ctx))
    return Value(result, C.add(base.ctx, index_ctx))


def _ctx(part: Part) -> C.Context:
    if isinstance(part, Value):
        return part.ctx
    return C.total(p.ctx for p in part if p is not None)


def _tuple_item(base: Value, index: Value, index_ctx: C.Context, report: Report) -> Value:
    position = index.exact
    if position is None or not position.is_Integer:
        report("DPS301", "a tuple index must be a known integer")
        return unknown(C.add(base.ctx, index_ctx))
    if base.parts is None:
        assert isinstance(base.type, T.TupleType)
        # Each component moves by at most the distance of the whole tuple.
        return Value(base.type.elts[int(position)], base.ctx)
    return base.parts[int(position)]


def _container_item(t: T.Type, index: list[Part]) -> T.Type | None:
    """The type of an indexed vector or matrix (the container distance bounds it)."""
    if isinstance(t, T.Vector) and len(index) == 1:
        if isinstance(index[0], Value):
            return T.Scalar(t.elem)
        return T.Vector(t.norm, t.elem, _slice_length(index[0], t.length), t.clip)
    if isinstance(t, T.Matrix) and len(index) in (1, 2):
        row, column = index[0], index[1] if len(index) == 2 else (None, None, None)
        if isinstance(row, Value) and isinstance(column, Value):
            return T.Scalar(t.elem)  # |entry| distance <= the row's distance in any norm
        if isinstance(row, Value):
            assert isinstance(column, tuple)
            cols = _slice_length(column, t.cols)
            return T.Vector(t.norm, t.elem, cols, t.clip)  # a part of a row is no longer in norm
        if isinstance(column, Value):
            # A column collects one entry of each row: entry distances sum to at
            # most the matrix distance, so it is an L1 vector.
            return T.Vector("L1", t.elem, _slice_length(row, t.rows))
        rows, cols = _slice_length(row, t.rows), _slice_length(column, t.cols)
        return T.Matrix(t.norm, t.elem, rows, cols, t.clip)
    return None


def _slice_length(part: Part, full: E.Expr) -> E.Expr:
    """The length of a slice when its bounds are known, else the full length (an upper bound)."""
    assert isinstance(part, tuple)
    lower, upper, step = (part + (None, None, None))[:3]
    if step is not None:
        return full
    start = E.ZERO if lower is None else lower.exact
    stop = full if upper is None else upper.exact
    if start is None or stop is None or not (start.is_nonnegative and stop.is_nonnegative):
        return full
    length = stop - start
    return length if length.is_positive and E.decide_le(length, full) else full
