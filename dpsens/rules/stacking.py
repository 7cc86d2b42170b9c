"""numpy's joins of arrays: np.concatenate, np.hstack, np.vstack, np.stack, np.column_stack.

Proof sketches are in docs/rules.md (R-concat, R-stack-rows, R-stack-columns). Every
join is a new array (aliasing.FRESH_RESULTS). A part is 0 away from itself when it is
public, so only the sensitive parts are charged, and only they choose the result's
norm and kind (as arith.result_type_of does).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Callable, Sequence

import sympy as sp

from dpsens import types as T
from dpsens.infer import arith, dtypes, peaks, ranges
from dpsens.infer.values import UNKNOWN, Value, unknown
from dpsens.rules.arrays import flat
from dpsens.rules.misc import numbers_as_vector
from dpsens.rules.table import first_argument
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.rules.table import Rule

Bound = dict[str, "Value | None"]


def _held(join: Callable[[Analysis, Rule, Bound, object], Value]
          ) -> Callable[[Analysis, Rule, Bound, object], Value]:
    """The join held as numpy promotes its parts (R-int-dtype): an integer array when no
    part is a float, which the parts' own deciding inputs decide."""
    @functools.wraps(join)
    def held(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
        result = join(a, rule, bound, span)
        parts = first_argument(bound).parts
        if parts is None or result.type == UNKNOWN:
            return result
        return dtypes.marked(result, dtypes.upcast([numbers_as_vector(p) or p for p in parts]))
    return held


@_held
def concatenate(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.concatenate(arrays, axis=0): vectors end to end, matrices by rows (axis 0) or by
    columns (axis 1); axis=None flattens every part first."""
    parts = _parts(a, bound, span, "concatenate", numbers=False)
    if parts is None:
        return _refused(bound)
    ndims = {_ndim(p) for p in parts}
    if len(ndims) != 1:
        return _mixed(a, bound, span, "concatenate")
    ndim = ndims.pop()
    axis = _axis(a, bound, span, "concatenate", ndim, flattens=True)
    if axis == _BAD:
        return _refused(bound)
    if axis is None:
        return _end_to_end([flat(p) for p in parts])
    if ndim == 1:
        return _end_to_end(parts)
    return (_by_rows if axis == 0 else _by_columns)(a, parts, span)


@_held
def hstack(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.hstack: vectors (and numbers) end to end, matrices side by side (axis 1)."""
    parts = _parts(a, bound, span, "hstack")
    if parts is None:
        return _refused(bound)
    parts = [_one_entry(p) if isinstance(p.type, T.Scalar) else p for p in parts]
    if all(isinstance(p.type, T.Vector) for p in parts):
        return _end_to_end(parts)
    if all(isinstance(p.type, T.Matrix) for p in parts):
        return _by_columns(a, parts, span)
    return _mixed(a, bound, span, "hstack")


@_held
def vstack(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.vstack: matrices by rows, each vector (or number) one row."""
    parts = _parts(a, bound, span, "vstack")
    return _refused(bound) if parts is None else _by_rows(a, [_as_row(p) for p in parts], span)


@_held
def column_stack(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.column_stack: each vector (or number) one column, matrices side by side."""
    parts = _parts(a, bound, span, "column_stack")
    if parts is None:
        return _refused(bound)
    return _by_columns(a, [_as_column(p) for p in parts], span)


@_held
def stack(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.stack(arrays, axis=0) of vectors: each one row (axis 0) or one column (axis 1);
    of numbers: a vector. Matrices would make a 3-D array, which no metric describes."""
    parts = _parts(a, bound, span, "stack")
    if parts is None:
        return _refused(bound)
    if any(isinstance(p.type, T.Matrix) for p in parts) or len({_ndim(p) for p in parts}) != 1:
        return _mixed(a, bound, span, "stack", " (vectors, or numbers, are)")
    vectors = isinstance(parts[0].type, T.Vector)
    axis = _axis(a, bound, span, "stack", 2 if vectors else 1, flattens=False)
    if axis == _BAD:
        return _refused(bound)
    if not vectors:
        return _end_to_end([_one_entry(p) for p in parts])
    return _by_rows(a, [_as_row(p) for p in parts], span) if axis == 0 else \
        _by_columns(a, [_as_column(p) for p in parts], span)


# --- the arguments -----------------------------------------------------------------------


_BAD = "bad"  # an axis no rule reads (reported)


def _parts(a: Analysis, bound: Bound, span: object, name: str, numbers: bool = True
           ) -> list[Value] | None:
    """The arrays of a tuple or list display, and its numbers where ``numbers`` allows them
    (a list of numbers is the vector numpy makes of it); None after a DPS301."""
    sequence = first_argument(bound)
    parts = sequence.parts if isinstance(sequence.type, T.TupleType) else None
    if not parts:
        why = "a list of unknown length (the result's size is not known)" \
            if isinstance(sequence.type, T.ListType) else sequence.type.show()
        a.report(span, "DPS301", f"{name}() needs a tuple or list display of arrays, "  # type: ignore[arg-type]
                 f"got {why}")
        return None
    out = [numbers_as_vector(p) or p for p in parts]
    allowed = (T.Vector, T.Matrix, T.Scalar) if numbers else (T.Vector, T.Matrix)
    for part in out:
        if part.type == UNKNOWN:
            return None  # already reported where it arose
        if not isinstance(part.type, allowed):
            a.report(span, "DPS301", f"{name}() of {part.type.show()} is not analyzed "  # type: ignore[arg-type]
                     f"(vectors{', numbers' if numbers else ''} and matrices are)")
            return None
    return out


def _axis(a: Analysis, bound: Bound, span: object, name: str, ndim: int, flattens: bool
          ) -> int | None | str:
    """The static axis (0 when not given), counted from the end when negative; None (all
    flattened) where numpy allows it; _BAD after DPS304 (not public) or DPS301."""
    axis = bound.get("axis")
    if axis is None:
        return 0
    if not axis.public:
        a.report_about(span, axis.ctx, "DPS304",  # type: ignore[arg-type]
                       f"argument 'axis' of {name}() must be static (public)")
        return _BAD
    if axis.type == T.Opaque("None") and flattens:
        return None
    position = axis.exact + ndim if axis.exact is not None and axis.exact.is_negative else axis.exact
    # numpy takes an integer axis only (axis=0.0 raises TypeError)
    if position is None or T.scalar_kind_of(axis.type) != "Integer" or position not in range(ndim):
        a.report(span, "DPS301", f"axis of {name}() must be a known number in "  # type: ignore[arg-type]
                 f"[{-ndim}, {ndim - 1}]{' or None' if flattens else ''}")
        return _BAD
    return int(position)


def _refused(bound: Bound) -> Value:
    """Unknown, unbounded in everything the arguments depend on."""
    return unknown(C.total(v.ctx for v in bound.values() if v is not None))


def _mixed(a: Analysis, bound: Bound, span: object, name: str, hint: str = "") -> Value:
    """Parts of different ranks (numpy raises, or makes a shape no metric describes)."""
    shown = ", ".join(v.type.show() for v in first_argument(bound).parts or ())
    a.report(span, "DPS301", f"{name}() of {shown} is not analyzed{hint}")  # type: ignore[arg-type]
    return _refused(bound)


def _ndim(value: Value) -> int:
    return 2 if isinstance(value.type, T.Matrix) else 1 if isinstance(value.type, T.Vector) else 0


# --- parts as blocks ---------------------------------------------------------------------

def _one_entry(x: Value) -> Value:
    """A number as a 1-entry vector: every norm of one entry is its distance."""
    kind = T.scalar_kind_of(x.type) or "Real"
    return Value(T.Vector("L1", kind, E.ONE), x.ctx, bound=x.magnitude(), interval=ranges.of(x))


def _as_row(x: Value) -> Value:
    """A vector (or number) as a 1-row matrix: the row's distance is the vector's."""
    if isinstance(x.type, T.Scalar):
        x = _one_entry(x)
    t = x.type
    if not isinstance(t, T.Vector):
        return x
    return Value(T.Matrix(t.norm, t.elem, E.ONE, t.length), x.ctx, bound=x.magnitude(),
                 interval=ranges.of(x))


def _as_column(x: Value) -> Value:
    """A vector (or number) as a 1-column matrix: its rows are its entries, whose distances
    sum to the vector's L1 distance, at most norm_factor(N, L1, n) times its own."""
    if isinstance(x.type, T.Scalar):
        x = _one_entry(x)
    t = x.type
    if not isinstance(t, T.Vector):
        return x
    ctx = C.scale(T.norm_factor(t.norm, "L1", t.length), x.ctx)
    return Value(T.Matrix("L1", t.elem, t.length, E.ONE), ctx, bound=x.magnitude(),
                 interval=ranges.of(x))


# --- the joins ---------------------------------------------------------------------------

def _end_to_end(parts: list[Value]) -> Value:
    """Vectors end to end (R-concat): per variable, the norm of the parts' re-measured
    sensitivities (Minkowski): sum in L1, root of the sum of squares in L2, max in L∞."""
    norm, kind = _metric(parts)
    scaled = _remeasured(parts, norm, kind)
    length = functools.reduce(E.add, (_length(p) for p in parts))
    # ‖Δ‖∞ of the join is the largest of the parts' (R-peak).
    moves = [C.scale(T.element_factor(_kind(p), kind), peaks.largest_entry_move(p) or p.ctx)
             for p in parts if not p.public]
    peak = functools.reduce(C.join, moves, C.EMPTY)
    result = Value(T.Vector(norm, kind, length), _combined(norm, scaled), bound=_bound(parts),
                   peak=peak or None)
    return ranges.ranged(result, _hull(parts))


def _by_rows(a: Analysis, blocks: list[Value], span: object) -> Value:
    """Matrices one above the other (R-stack-rows): the rows of all, summed."""
    return _blocks(a, blocks, span, along="rows")


def _by_columns(a: Analysis, blocks: list[Value], span: object) -> Value:
    """Matrices side by side (R-stack-columns): row i is the rows i of all, end to end."""
    return _blocks(a, blocks, span, along="cols")


def _blocks(a: Analysis, blocks: list[Value], span: object, along: str) -> Value:
    """The matrices joined ``along`` their rows or columns, the other size shared: every
    block's distance re-measured in the common row metric, summed (a row of a block, or
    its part of a joined row, is charged once)."""
    shared = _unified(a, blocks, "cols" if along == "rows" else "rows", span)
    if shared is None:
        return _refused_blocks(blocks)
    total = functools.reduce(E.add, (getattr(b.type, along) for b in blocks))
    rows, cols = (total, shared) if along == "rows" else (shared, total)
    norm, kind = _metric(blocks)
    result = Value(T.Matrix(norm, kind, rows, cols), C.total(_remeasured(blocks, norm, kind)),
                   bound=_bound(blocks))
    return ranges.ranged(result, _hull(blocks))


def _unified(a: Analysis, blocks: list[Value], axis: str, span: object) -> E.Expr | None:
    """The size all blocks share on the axis not joined: numpy raises unless they are
    equal, so sizes not decided equal are assumed equal (reported, as R-sizes does);
    None after a DPS301 for sizes decided different."""
    sizes = [getattr(b.type, axis) for b in blocks]
    for i, size in enumerate(sizes):
        different = [other for other in sizes[:i] if arith.different_sizes(size, other)]
        if different:
            a.report(span, "DPS301", f"arrays of {axis} {E.render(different[0])} and "  # type: ignore[arg-type]
                     f"{E.render(size)} cannot be joined (numpy raises)")
            return None
    for size in sizes[1:]:
        if not arith.equal_sizes(size, sizes[0]):
            a.assume(sp.Eq(size, sizes[0]))
    return sizes[0]


def _refused_blocks(blocks: list[Value]) -> Value:
    """Unknown, unbounded in everything the blocks depend on."""
    return unknown(C.total(b.ctx for b in blocks))


# --- metrics -----------------------------------------------------------------------------

def _metric(parts: Sequence[Value]) -> tuple[str, str]:
    """The result's norm and kind of entries, read from the sensitive parts (all parts when
    none is): the norm of the first whose rows have more than one entry (a 1-entry row
    measures alike in every norm), the kind that holds every part's entries."""
    chosen = [p for p in parts if not p.public] or list(parts)
    wide = [p for p in chosen if not arith.is_one(_row_length(p))] or chosen
    norm = getattr(wide[0].type, "norm", "L1")
    kinds = {_kind(p) for p in chosen}
    every = {_kind(p) for p in parts}
    if "Data" in kinds:
        return norm, "Data"
    if "Real" in every or "Data" in every:
        return norm, "Real"
    return norm, "Integer" if "Integer" in every else "Bool"


def _remeasured(parts: Sequence[Value], norm: str, kind: str) -> list[C.Context]:
    """Each sensitive part's context in the result's (norm, kind) rows (metrics.md §6)."""
    return [C.scale(E.mul(T.norm_factor(p.type.norm, norm, _row_length(p)),  # type: ignore[union-attr]
                          T.element_factor(_kind(p), kind)), p.ctx)
            for p in parts if not p.public]


def _combined(norm: str, contexts: list[C.Context]) -> C.Context:
    """Per variable, the ``norm`` of its coefficients in the parts: with ‖Δp‖ ≤ Σ_v c_pv·d_v,
    ‖(Δp)_p‖ ≤ ‖Σ_v d_v·(c_pv)_p‖ ≤ Σ_v d_v·‖(c_pv)_p‖ (monotone norms, Minkowski)."""
    if norm == "L1":
        return C.total(contexts)
    if norm == "L_inf":
        return functools.reduce(C.join, contexts, C.EMPTY)
    squares = C.total({v: E.mul(s, s) for v, s in ctx.items()} for ctx in contexts)
    once = {v: s for ctx in contexts for v, s in ctx.items()
            if sum(v in other for other in contexts) == 1}  # √(s²) is s: keep its form
    return {v: once[v] if v in once else E.sqrt(s) for v, s in squares.items()}


def _row_length(x: Value) -> E.Expr:
    t = x.type
    return t.cols if isinstance(t, T.Matrix) else t.length  # type: ignore[union-attr]


def _length(x: Value) -> E.Expr:
    return x.type.length  # type: ignore[union-attr]


def _kind(x: Value) -> str:
    return T.scalar_kind_of(x.type) or "Real"


def _bound(parts: Sequence[Value]) -> E.Expr | None:
    """The largest magnitude of any entry, when every part has one."""
    magnitudes = [p.magnitude() for p in parts]
    if any(m is None for m in magnitudes):
        return None
    return functools.reduce(E.smax, magnitudes)


def _hull(parts: Sequence[Value]) -> ranges.Interval | None:
    """The interval holding every part's entries, when each has one."""
    return functools.reduce(ranges.hull, (ranges.of(p) for p in parts))
