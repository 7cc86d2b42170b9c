"""Typing rules of indexing: one entry, one row, one column, slices."""

from __future__ import annotations

import functools
from typing import Callable, Union

import sympy as sp

from dpsens import types as T
from dpsens.infer import peaks
from dpsens.infer.values import UNKNOWN, Value, element_of, join, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

Part = Union[Value, tuple[Union[Value, None], ...]]  # an index or a (lower, upper, step) slice
Report = Callable[[str, str], None]
Assume = Callable[[E.Expr], None]  # records a condition the result relies on


def subscript(base: Value, index: list[Part], report: Report, assume: Assume) -> Value:
    """``base[index]``: 1-sensitive in the container, unbounded in a sensitive index.

    A slice bound that is a static expression of unknown sign is taken as a
    position from the start (``v[k:]``, assuming k >= 0; ``v[len(v) - k:]``,
    assuming 0 <= len(v) - k <= len(v)) or, written negated, from the end
    (``v[-k:]``, assuming k > 0). The assumption is reported and
    checked at call sites: a length must be exact (a mean divides by it), and
    Python counts a negative bound from the end.
    """
    index_ctx = C.blow_up(C.total(_ctx(p) for p in index))
    if any(isinstance(p, Value) and not isinstance(p.type, T.Scalar) for p in index):
        # Masks, integer arrays and None (newaxis) select or repeat any entries.
        report("DPS202", "indexing with an array, a mask or None is not analyzed")
        return unknown(C.add(base.ctx, C.total(_ctx(p) for p in index)))
    if base.type is UNKNOWN:
        return unknown(C.add(base.ctx, index_ctx))
    if isinstance(base.type, T.TupleType) and len(index) == 1 and isinstance(index[0], Value):
        return _tuple_item(base, index[0], index_ctx, report)
    if isinstance(base.type, T.TupleType) and len(index) == 1:
        chosen = _tuple_slice(base, index[0])
        if chosen is not None:
            return chosen  # (a tuple of some of the components: no further than them all)
    if isinstance(base.type, T.ListType) and len(index) == 1:
        # An element, or a sublist, moves at most as far as the whole list.
        part = base.type.elem if isinstance(index[0], Value) else base.type
        return element_of(base, part, C.add(base.ctx, index_ctx))
    if any(isinstance(p, Value) and p.type == T.BOOL for p in index):
        # numpy takes a Boolean scalar (``v[True]``, ``v[flag]``) as a 0-d mask, not as 1 or 0.
        report("DPS202", "indexing an array with a Boolean is a mask, which is not analyzed")
        return unknown(C.add(base.ctx, C.total(_ctx(p) for p in index)))
    try:
        result = _item(base.type, index, assume)
    except UnknownLength as why:
        report("DPS301", f"the length of this slice of {base.type.show()} is not known: {why}")
        return unknown(C.add(base.ctx, index_ctx))
    if result is None:
        report("DPS301", f"cannot index {base.type.show()} with {len(index)} indices")
        return unknown(C.add(base.ctx, index_ctx))
    # Any entry, or part, of an array whose entries are at most B has entries at most B;
    # one entry moves at most as far as the largest move of one (R-peak), and so do a
    # slice's entries.
    entry = peaks.largest_entry_move(base) if isinstance(result, T.Scalar) else None
    # (an entry or a view of an integer array is held as an integer too: R-int-dtype)
    return Value(result, C.add(base.ctx if entry is None else entry, index_ctx),
                 bound=base.bound, interval=base.interval,
                 peak=base.peak if isinstance(result, T.Vector) else None, integral=base.integral)


def _ctx(part: Part) -> C.Context:
    if isinstance(part, Value):
        return part.ctx
    return C.total(p.ctx for p in part if p is not None)


def _tuple_item(base: Value, index: Value, index_ctx: C.Context, report: Report) -> Value:
    position = index.exact
    assert isinstance(base.type, T.TupleType)
    if (position is None or not position.is_Integer) and isinstance(index.type, T.Scalar) \
            and index.type.kind == "Integer" and base.type.elts:
        # Not known here (a mechanism's output, picking among public candidates): any
        # item may be the one, so their join, and a sensitive index may pick another
        # item on a neighbour (R-tuple-choice).
        items = base.parts or tuple(element_of(base, t, base.ctx) for t in base.type.elts)
        chosen = functools.reduce(join, items)
        if chosen.type != UNKNOWN:
            return chosen.with_ctx(C.add(chosen.ctx, C.blow_up(index_ctx)))
    if position is None or not position.is_Integer:
        report("DPS301", "a tuple index must be a known integer, or an integer that picks "
               "among items of one type")
        return unknown(C.add(base.ctx, index_ctx))
    size = len(base.type.elts)
    if not -size <= int(position) < size:
        report("DPS301", f"tuple index {position} is out of range for {size} items")
        return unknown(C.add(base.ctx, index_ctx))
    if base.parts is None:
        # Each component moves by at most the distance of the whole tuple.
        return element_of(base, base.type.elts[int(position)], base.ctx)
    return base.parts[int(position)]


def _tuple_slice(base: Value, part: Part) -> Value | None:
    """``t[a:b:c]`` with bounds and step that are known integers (or absent): the tuple of
    the components Python picks; None otherwise."""
    from dpsens.infer.values import tuple_value

    assert isinstance(base.type, T.TupleType) and isinstance(part, tuple)
    bounds: list[int | None] = []
    for bound in (part + (None, None, None))[:3]:
        exact = None if bound is None else bound.exact
        if bound is not None and (exact is None or not exact.is_Integer or bound.ctx):
            return None
        bounds.append(None if exact is None else int(exact))
    if bounds[2] == 0:
        return None
    items = base.parts or tuple(element_of(base, t, base.ctx) for t in base.type.elts)
    return tuple_value(tuple(items[slice(*bounds)]))


class UnknownLength(Exception):
    """A slice whose length cannot be computed exactly (the message says why)."""


def _item(t: T.Type, index: list[Part], assume: Assume) -> T.Type | None:
    """The type of an indexed vector or matrix (the container distance bounds it)."""

    def _length(part: Part, full: E.Expr) -> E.Expr:
        return slice_length(part, full, assume)

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


def slice_length(part: Part, full: E.Expr, assume: Assume) -> E.Expr:
    """The exact length of a slice (Python's rules); UnknownLength when it is not known.

    Lengths must be exact, not upper bounds: a mean divides by them.
    """
    assert isinstance(part, tuple)
    lower, upper, step = (part + (None, None, None))[:3]
    stride = E.ONE if step is None else step.exact
    if stride is None or not stride.is_Integer or stride == 0:
        raise UnknownLength("its step is not a known non-zero integer")
    if lower is None and upper is None and abs(stride) == 1:
        return full  # ``x[:]`` and ``x[::-1]``; sympy's Min/Max/ceiling cost ~0.1 s to warm up
    if lower is None and upper is None and stride.is_negative:
        return sp.ceiling(full / -stride)  # ``x[::-2]``: from the last entry back, every other
    if stride.is_negative:
        return _backward_length(lower, upper, -stride, full)
    start, from_end = (E.ZERO, None) if lower is None else _position(lower, full, assume)
    stop, _ = (full, None) if upper is None else _position(upper, full, assume)
    # sp.Max, not E.smax: these are signed positions, not sensitivities.
    if stride != 1:
        return sp.Max(E.ZERO, sp.ceiling((stop - start) / stride))
    if start == 0:
        return stop
    if stop == full and from_end is not None:
        return sp.Min(full, from_end)  # ``v[-k:]``: the last k entries
    return sp.Max(E.ZERO, stop - start)


def _backward_length(lower: Value | None, upper: Value | None, stride: E.Expr, full: E.Expr
                     ) -> E.Expr:
    """The length of ``x[a:b:-s]`` with whole-number bounds (Python's rules: a bound
    counts from the end when negative, and is clipped to [-1, n - 1]; a missing a is
    n - 1, a missing b is before the first entry): ``v[2::-1]`` is min(3, n)."""
    def position(bound: Value | None, default: E.Expr) -> E.Expr:
        if bound is None:
            return default
        index = bound.exact
        if index is None or not index.is_Integer:
            raise UnknownLength("a bound of a backward slice is not a known integer")
        return sp.Min(index, full - 1) if index >= 0 else sp.Max(index + full, -1)
    start, stop = position(lower, full - 1), position(upper, sp.Integer(-1))
    return sp.Max(E.ZERO, sp.ceiling((start - stop) / stride))


def _position(bound: Value, full: E.Expr, assume: Assume) -> tuple[E.Expr, E.Expr | None]:
    """A slice bound as a position in [0, full] (negative numbers count from the end), and
    how far from the end it counts, for a negative one."""
    index = bound.exact
    if index is None or not (index.is_integer or index.is_integer is None and index.free_symbols):
        raise UnknownLength("a bound is not a static integer")
    if index.is_nonnegative:
        return sp.Min(index, full), None
    if not index.is_negative:
        # Unknown sign (see subscript()): ``v[-k:]`` is meant from the end, ``v[k:]`` from the start.
        if index.free_symbols & full.free_symbols:
            # Computed from the length (``v[len(v) - k:]``): a position from the start,
            # within the container (k >= 0 and k <= len(v)), so the length is exact.
            assume(sp.Ge(index, 0))
            assume(sp.Ge(full - index, 0))
            return index, None
        if not index.could_extract_minus_sign():
            assume(sp.Ge(index, 0))
            return sp.Min(index, full), None
        assume(sp.Gt(-index, 0))
    return sp.Max(E.ZERO, full + index), -index
