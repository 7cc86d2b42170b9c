"""Typing rules of indexing: one entry, one row, one column, slices."""

from __future__ import annotations

from typing import Callable, Union

import sympy as sp

from dpsens import types as T
from dpsens.infer.values import UNKNOWN, Value, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

Part = Union[Value, tuple[Union[Value, None], ...]]  # an index or a (lower, upper, step) slice
Report = Callable[[str, str], None]


def subscript(base: Value, index: list[Part], report: Report) -> Value:
    """``base[index]``: 1-sensitive in the container, unbounded in a sensitive index."""
    index_ctx = C.blow_up(C.total(_ctx(p) for p in index))
    if any(isinstance(p, Value) and not isinstance(p.type, T.Scalar) for p in index):
        # Masks, integer arrays and None (newaxis) select or repeat any entries.
        report("DPS202", "indexing with an array, a mask or None is not analyzed")
        return unknown(C.add(base.ctx, C.total(_ctx(p) for p in index)))
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
    assert isinstance(base.type, T.TupleType)
    size = len(base.type.elts)
    if not -size <= int(position) < size:
        report("DPS301", f"tuple index {position} is out of range for {size} items")
        return unknown(C.add(base.ctx, index_ctx))
    if base.parts is None:
        # Each component moves by at most the distance of the whole tuple.
        return Value(base.type.elts[int(position)], base.ctx)
    return base.parts[int(position)]


def _container_item(t: T.Type, index: list[Part]) -> T.Type | None:
    """The type of an indexed vector or matrix (the container distance bounds it)."""
    try:
        return _item(t, index)
    except _UnknownLength:
        return None


class _UnknownLength(Exception):
    """A slice whose length cannot be computed exactly."""


def _length(part: Part, full: E.Expr) -> E.Expr:
    length = _slice_length(part, full)
    if length is None:
        raise _UnknownLength
    return length


def _item(t: T.Type, index: list[Part]) -> T.Type | None:
    if isinstance(t, T.Vector) and len(index) == 1:
        if isinstance(index[0], Value):
            return T.Scalar(t.elem)
        return T.Vector(t.norm, t.elem, _length(index[0], t.length), t.clip)
    if isinstance(t, T.Matrix) and len(index) in (1, 2):
        row, column = index[0], index[1] if len(index) == 2 else (None, None, None)
        if isinstance(row, Value) and isinstance(column, Value):
            return T.Scalar(t.elem)  # |entry| distance <= the row's distance in any norm
        if isinstance(row, Value):
            assert isinstance(column, tuple)
            cols = _length(column, t.cols)
            return T.Vector(t.norm, t.elem, cols, t.clip)  # a part of a row is no longer in norm
        if isinstance(column, Value):
            # A column collects one entry of each row: entry distances sum to at
            # most the matrix distance, so it is an L1 vector.
            return T.Vector("L1", t.elem, _length(row, t.rows))
        rows, cols = _length(row, t.rows), _length(column, t.cols)
        return T.Matrix(t.norm, t.elem, rows, cols, t.clip)
    return None


def _slice_length(part: Part, full: E.Expr) -> E.Expr | None:
    """The exact length of a slice (Python's rules), or None when it is not known.

    Lengths must be exact, not upper bounds: a mean divides by them.
    """
    assert isinstance(part, tuple)
    lower, upper, step = (part + (None, None, None))[:3]
    stride = E.ONE if step is None else step.exact
    if stride is None or not (stride.is_Integer and stride.is_positive):
        return None
    if lower is None and upper is None and stride == 1:
        return full  # ``x[:]``, the common case; sympy's Min/Max/ceiling cost ~0.1 s to warm up
    start = E.ZERO if lower is None else _position(lower.exact, full)
    stop = full if upper is None else _position(upper.exact, full)
    if start is None or stop is None:
        return None
    # sp.Max, not E.smax: these are signed positions, not sensitivities.
    return sp.Max(E.ZERO, sp.ceiling((sp.Min(stop, full) - sp.Min(start, full)) / stride))


def _position(index: E.Expr | None, full: E.Expr) -> E.Expr | None:
    """A slice bound as a non-negative position (negative numbers count from the end)."""
    if index is None:
        return None
    if index.is_negative:
        return sp.Max(E.ZERO, full + index)
    if index.is_nonnegative:
        return index
    return None  # a symbol of unknown sign
