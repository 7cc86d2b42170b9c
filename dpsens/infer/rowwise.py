"""R-rowwise: vectors whose entry i depends on a dataset only through its row i.

A Data matrix parameter X is at distance k from X' when k rows differ (or more: in
(L1, Data) each differing entry counts), and so is an (L1, Data) vector with its
entries. A column ``X[:, j]`` (j public), and any entrywise operation of such
columns, public values and values that do not depend on X, has entry i computed
from row i of X alone: where X and X' differ in k rows, it differs in at most k
entries. If no entry can move by more than s (its *spread*: 1 for a mask, hi − lo
after np.clip), every norm of its difference is at most k·s, so the value is
s-sensitive in X, whatever the operands' own sensitivities add up to:
``(X[:, 0] > a) & (X[:, 1] < b)`` is 1, not 2.

Only the operations below keep the property; every other one makes a new value
without it. It holds of X as the function received it, so it starts at the
parameter's own value (which every store into X or a view of it replaces) and is
dropped from copies the store would not reach (tuple parts, closure defaults).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Sequence

from dpsens import types as T
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.values import Value


@dataclass(frozen=True)
class RowWise:
    """Entry i (row i of a matrix) depends on each of ``params`` only through its row i;
    one entry moves by at most ``spread`` (None: not known) when one of them changes."""

    params: frozenset[str]  # empty for a mask that is row-wise in nothing
    spread: E.Expr | None = None
    binary: bool = False  # every entry is 0 or 1 (a mask)
    # A transpose: column i (not row i) depends on the params' row i only. No entrywise
    # rule keeps it (shared); a product with a row-wise value reads it (arith.R-matmul).
    by_column: bool = False
    # This iteration's cell of a partition (loops.py), with its variable: set only on the
    # mask R-loop-partition reads, so that nothing derived from it passes for it (cells.py).
    cell: str | None = None


def of_parameter(name: str, t: T.Type) -> RowWise | None:
    """A parameter whose distance counts at least its changed rows (entries of a vector)."""
    if isinstance(t, T.Matrix) and t.elem == "Data":
        return RowWise(frozenset({name}))
    if isinstance(t, T.Vector) and t.elem == "Data" and t.norm == "L1":
        return RowWise(frozenset({name}))
    return None


def indexed(base: Value, index: Sequence[object], result: Value) -> Value:
    """``X[:, j]`` (all rows, one public column j) of a row-wise matrix, whose entry i is
    X[i, j], and ``v[:]`` of a row-wise vector, its own entries."""
    whole = (None, None, None)
    if base.rowwise is None or base.rowwise.by_column or \
            not isinstance(result.type, (T.Vector, T.Matrix)):
        return result
    if isinstance(base.type, T.Matrix) and len(index) == 2 and index[0] == whole \
            and _public_columns(index[1], result.type):
        return replace(result, rowwise=RowWise(base.rowwise.params, base.rowwise.spread))
    if isinstance(base.type, T.Vector) and len(index) == 1 and index[0] == whole:
        return replace(result, rowwise=base.rowwise)
    return result


def _public_columns(index: object, result: T.Type) -> bool:
    """A public column j (a vector result), or a slice of columns with public bounds
    (a matrix result): every row of the result is read from the same row."""
    if isinstance(result, T.Vector):
        return bool(getattr(index, "public", False)) and \
            isinstance(index.type, T.Scalar)  # type: ignore[attr-defined]
    return isinstance(index, tuple) and all(p is None or p.public for p in index)


def shared(result: Value, operands: Sequence[Value]) -> frozenset[str]:
    """The parameters each operand is row-wise in or does not depend on, for a vector
    result of an entrywise operation of vectors of its length and scalars, or a matrix
    result of matrices of its shape and scalars (a vector is broadcast along the rows:
    each row sees all of it)."""
    if isinstance(result.type, T.Matrix) and not result.public:
        return _shared_rows(result.type, operands)
    if not isinstance(result.type, T.Vector) or result.public:
        return frozenset()
    found = frozenset().union(*(o.rowwise.params for o in operands if o.rowwise is not None))
    for operand in operands:
        if isinstance(operand.type, T.Vector):
            if operand.type.length != result.type.length:
                return frozenset()  # numpy broadcast a length-1 vector: not entry by entry
        elif not isinstance(operand.type, T.Scalar):
            return frozenset()
        mine = operand.rowwise.params if operand.rowwise is not None else frozenset()
        found = frozenset(p for p in found if p in mine or p not in operand.ctx)
    return found


def _shared_rows(result: T.Matrix, operands: Sequence[Value]) -> frozenset[str]:
    """shared() for a matrix result: operands are matrices of its shape (row by row) or
    values each row sees whole (vectors, numbers), which must not depend on the params."""
    def own(operand: Value) -> frozenset[str]:
        rowwise = operand.rowwise
        if rowwise is None or rowwise.by_column or not isinstance(operand.type, T.Matrix):
            return frozenset()
        return rowwise.params

    for operand in operands:
        t = operand.type
        if isinstance(t, T.Matrix) and (t.rows != result.rows or t.cols != result.cols):
            return frozenset()  # numpy stretched a size-1 axis: not row by row
        if not isinstance(t, (T.Matrix, T.Vector, T.Scalar)):
            return frozenset()
    found = frozenset().union(*(own(o) for o in operands))
    for operand in operands:
        found = frozenset(p for p in found if p in own(operand) or p not in operand.ctx)
    return found


def spread_of(value: Value, params: frozenset[str]) -> E.Expr | None:
    """How far one entry of an operand moves when one of params changes."""
    if not any(p in value.ctx for p in params):
        return E.ZERO
    return value.rowwise.spread if value.rowwise is not None else None


def mark(result: Value, params: frozenset[str], spread: E.Expr | None,
         binary: bool = False) -> Value:
    """The result, row-wise in params, its context lowered to the spread where that is
    smaller (R-rowwise); unchanged when params is empty."""
    if not params:
        return result
    ctx = dict(result.ctx)
    if spread is not None and T.scalar_kind_of(result.type) != "Data":
        # A changed row of a matrix moves each of its entries by the spread at most: the
        # row's distance is at most ‖(1, …, 1)‖_N times it.
        t = result.type
        lowered = E.mul(T.norm_factor("L_inf", t.norm, t.cols), spread) \
            if isinstance(t, T.Matrix) else spread
        for name in params:
            if name in ctx and E.decide_le(lowered, ctx[name]) is True:
                ctx[name] = lowered
    return replace(result, ctx=ctx, rowwise=RowWise(params, spread, binary))


def mask(result: Value, operands: Sequence[Value]) -> Value:
    """A comparison, or &, |, ^ of masks: entries 0 or 1 move by at most 1. An array of
    them is a mask even when it is row-wise in nothing (numpy's bools stay 0 or 1)."""
    params = shared(result, operands)
    if not params and isinstance(result.type, (T.Vector, T.Matrix)):
        return replace(result, rowwise=RowWise(frozenset(), binary=True))
    return mark(result, params, E.ONE, binary=True)


def kept(rowwise: RowWise | None) -> RowWise | None:
    """What still holds of a value kept apart from the names (values.detached): that a
    mask's entries are 0 or 1 (a store into a numpy bool array keeps them so), not
    which rows they come from."""
    return RowWise(frozenset(), binary=True) if rowwise is not None and rowwise.binary else None


def summed(result: Value, operands: Sequence[Value], factor: E.Expr | None = E.ONE) -> Value:
    """a ± b, -a, factor·a (factor ≥ 0, public): the operands' spreads add, scaled."""
    params = shared(result, operands)
    spreads = [spread_of(o, params) for o in operands]
    if not params or None in spreads or factor is None:
        return mark(result, params, None)
    total = E.ZERO
    for spread in spreads:
        total = E.add(total, spread)
    return mark(result, params, E.mul(factor, total))


def product(result: Value, a: Value, b: Value) -> Value:
    """a·b of bounded entries: |ab − a'b'| ≤ B_a·s_b + B_b·s_a; where a is a mask, b or
    0, so at most max(s_b, B_b) (and the same with a and b swapped)."""
    params = shared(result, (a, b))
    if not params:
        return result
    spreads = [spread_of(a, params), spread_of(b, params)]
    bounds = [a.magnitude(), b.magnitude()]
    for i, value in enumerate((a, b)):
        other = 1 - i
        if value.rowwise is not None and value.rowwise.binary and spreads[i] is not None \
                and spreads[other] is not None and bounds[other] is not None:
            return mark(result, params, E.smax(spreads[other], bounds[other]))
    if None in spreads or None in bounds:
        return mark(result, params, None)
    return mark(result, params, E.add(E.mul(bounds[0], spreads[1]),
                                      E.mul(bounds[1], spreads[0])))


def powered(result: Value, a: Value, k: Value) -> Value:
    """a ** k for a whole public k ≥ 1 of bounded entries: |a^k − a'^k| ≤ k·B^(k−1)·s_a."""
    params = shared(result, (a, k))
    spread, bound = spread_of(a, params), a.magnitude()
    if not params or spread is None or bound is None or k.exact is None:
        return mark(result, params, None)
    return mark(result, params, E.mul(E.mul(k.exact, E.power(bound, k.exact - 1)), spread))


def chosen(result: Value, condition: Value, x: Value, y: Value) -> Value:
    """np.where(c, x, y): an entry moves within x or within y, or jumps between them
    where c flips: at most max(s_x, s_y, B_x + B_y)."""
    params = shared(result, (condition, x, y))
    if not params:
        return result
    spreads = [spread_of(v, params) for v in (x, y)]
    if None in spreads:
        return mark(result, params, None)
    spread = E.smax(*spreads)
    if spread_of(condition, params) != E.ZERO:
        bx, by = x.magnitude(), y.magnitude()
        spread = E.smax(spread, E.add(bx, by)) if bx is not None and by is not None else None
    return mark(result, params, spread)


def clipped(result: Value, x: Value, width: E.Expr | None) -> Value:
    """np.clip(x, lo, hi) with public bounds: entries stay within hi − lo of each other
    (and move no further than x's)."""
    params = shared(result, (x,))
    spread = spread_of(x, params)
    if width is not None and (spread is None or E.decide_le(spread, width) is not True):
        spread = width  # either bounds the move: the one known to be smaller, else hi − lo
    return mark(result, params, spread)
