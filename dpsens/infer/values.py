"""Abstract values: a metric type, a context, and what is known of a static value."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

import sympy as sp

from dpsens import fastinit
from dpsens import types as T
from dpsens.infer import dtypes, floats
from dpsens.infer.floats import Rounding
from dpsens.infer import pieces as P, ranges, rowwise
from dpsens.infer.pieces import Pieces
from dpsens.infer.rowwise import RowWise
from dpsens.sym import context as C
from dpsens.sym import expr as E

UNKNOWN = T.Opaque("unknown")


@dataclass(frozen=True)
class Selection:
    """The entries (or rows) of ``of`` where a mask holds, by what can be said of them."""

    masked: Value | None  # np.where(mask, x, 0) for a vector x: its sum is theirs
    count: Value  # the mask's sum: how many were selected
    of: T.Type  # the selected vector or matrix


@dataclass(frozen=True)
class Value:
    """The abstraction of one Python value during inference."""

    type: T.Type
    ctx: C.Context = field(default_factory=dict)
    exact: E.Expr | None = None  # the symbolic value of a public number, when known
    bound: E.Expr | None = None  # an upper bound on |value| when the exact value is not known
    parts: tuple[Value, ...] | None = None  # components of a tuple value
    # Clipped Data rows: a context bounding how many rows differ (each changed row of
    # the clipped input is at least 1 away), tighter than ctx, which measures them in
    # the Data metric. Set by clip() on the value it returns; any other operation makes
    # a new Value without it, so it never outlives the value it describes.
    rows: C.Context | None = None
    # The float Python computes for a public number when rounding made it differ from
    # `exact` (0.1 + 0.2 is 0.30000000000000004): later operations start from it.
    computed: float | None = None
    # How far the float Python holds may be from `exact` when static symbols took part
    # in float operations (floats.Rounding); with `exact` None, the value it bounds.
    rounding: Rounding | None = None
    # Entry i depends on a dataset only through its row i (rowwise.py, R-rowwise); like
    # ``rows``, operations other than those of rowwise.py make values without it.
    rowwise: RowWise | None = None
    # Every entry lies in [lo, hi] (ranges.py, R-range): tighter than ±bound, and set
    # only by the operations of ranges.py; like ``bound`` it holds of present contents.
    interval: tuple[E.Expr, E.Expr] | None = None
    # np.where of numbers returns a 0-d numpy array, not a number: ``a op= b`` changes it
    # in place, under every name holding it (a number would only be rebound). Of a tuple or
    # list: an element may be one (``t[0] += y`` changes it under every name, D155).
    zero_d: bool = False
    # x[mask] (masks.py, R-select): what len() and sum() of it are; the value itself is
    # unbounded in every input (its length depends on them).
    selection: Selection | None = None
    # Every entry of a vector moves by at most peak·d (its sensitivity in L∞, whatever its
    # metric): with ctx it bounds the L2 move (peaks.py, R-peak). Like ``rows``, set only
    # by the rules that know it.
    peak: C.Context | None = None
    # The context's pieces (pieces.py, R-parts): the coefficients of the disjoint parts of
    # inputs it reads, valid only beside the context they were made for (the first item).
    pieces: tuple[C.Context, Pieces] | None = None
    # The variable this value is, itself (a parameter's value, a builtin's function
    # argument): its parts may be read (pieces.py). Part of equality, so a branch's join of
    # the input and a copy equal to it in every other field (v or v[::-1]) is not the input.
    input_of: str | None = None
    # R-int-dtype (dtypes.py): the inputs deciding whether this Real (an array of reals: its
    # dtype; a tuple or list: one of its elements) may be held as an integer, blown up; None
    # when it certainly is a float.
    integral: C.Context | None = None

    @property
    def public(self) -> bool:
        """The value does not depend on any sensitive input."""
        return C.is_public(self.ctx)

    def magnitude(self) -> E.Expr | None:
        """An upper bound on |value| for a public number, if one is known."""
        if self.exact is not None:
            return E.absolute(self.exact)
        bound = self.bound
        if bound is None and getattr(self.type, "clip", None) is not None:
            bound = E.ONE  # rows clipped to norm 1 in some p-norm: |entry| ≤ ‖row‖_p ≤ 1
        if self.interval is None:
            return bound
        # The interval's furthest end from 0 (2·clip(x, 0, 1) is at most 2, from [0, 2]).
        ends = E.smax(E.absolute(self.interval[0]), E.absolute(self.interval[1]))
        if bound is None or ends.is_Number and bound.is_Number and ends < bound:
            return ends
        return bound

    def with_ctx(self, ctx: C.Context) -> Value:
        """The same value with another context (static knowledge kept only if public)."""
        if ctx == self.ctx:
            return self
        # What was added (a branch's condition) may decide how it is held, too.
        integral = None if self.integral is None else C.blow_up(C.add(self.integral, ctx))
        if C.is_public(ctx):
            return replace(self, ctx=ctx, rows=None, rowwise=None, peak=None, integral=integral)
        # A tuple's parts would not carry what was added (a branch's condition):
        # without them, t[k] takes the whole tuple's context. The value is the same: its
        # range (bound, interval) holds still, and a 0-d array stays one.
        return Value(self.type, ctx, bound=self.bound, interval=self.interval, zero_d=self.zero_d,
                     integral=integral)


def number(value: int | float | bool) -> Value:
    """A literal number."""
    kind = T.BOOL if isinstance(value, bool) else T.INTEGER if isinstance(value, int) else T.REAL
    return Value(kind, C.EMPTY, exact=E.number(value))


def list_length(value: Value) -> C.Context:
    """The context of the length of a list of unknown length: public unless data decided
    what was appended, which leaves ∞ in the list's context (the taint of a branch on
    data, or of a loop count); then ∞ in those variables (D72)."""
    return C.blow_up({v: r for v, r in value.ctx.items() if E.is_inf(r)})


def static(kind: T.Type, exact: E.Expr | None) -> Value:
    """A public value of a given type."""
    return Value(kind, C.EMPTY, exact=exact)


# The prefix of the variables that stand for a loop-carried value at the start of an
# iteration (Analysis.fresh_variable("loop", ...)).
LOOP_PREFIX = "@loop"
DEPENDS = " (it depends on {})"  # what a deferred finding on a carried value adds (loops.py)
SAMPLE_PREFIX = "@sample"  # the rows of a sample (rules.mechanisms.sample)


def sampled(ctx: C.Context) -> bool:
    """Whether a value reads rows of a sample: a release that also reads anything else
    may read the sample's source too, and then no row's charge is paid apart (R-merge)."""
    return any(name.startswith(SAMPLE_PREFIX) for name in ctx)


def decided(test: Value) -> bool | None:
    """Which way a public Bool of known value goes (None when it is not known)."""
    if test.type != T.BOOL or not test.public or test.exact is None or not test.exact.is_Integer:
        return None
    return bool(test.exact)


def unknown(ctx: C.Context) -> Value:
    """A value about which nothing is known: unbounded in everything it depends on."""
    return Value(UNKNOWN, C.blow_up(ctx))


def detached(value: Value) -> Value:
    """A value kept apart from the names, where later stores into its array do not reach
    it (a tuple's part, a default argument): without what only holds of an array's
    present contents (its entries' bound, clip's changed rows, rowwise.py's row
    alignment). Numbers cannot change: they keep everything; a 0-d array can (D155)."""
    mutable = isinstance(value.type, (T.Vector, T.Matrix, T.ListType)) or value.zero_d
    if value.rows is None and value.rowwise is None and not (
            mutable and (value.bound is not None or value.interval is not None)):
        return value
    return replace(value, rows=None, rowwise=rowwise.kept(value.rowwise),
                   bound=None if mutable else value.bound,
                   interval=None if mutable else value.interval)


def tuple_value(parts: tuple[Value, ...]) -> Value:
    """A tuple: its distance is the sum of the components' distances."""
    parts = tuple(map(detached, parts))
    value = Value(T.TupleType(tuple(p.type for p in parts)), C.total(p.ctx for p in parts),
                  parts=parts, integral=dtypes.elements(parts), zero_d=holds_zero_d(parts))
    return P.summed(value, ((E.ONE, p) for p in parts))  # R-parts


def holds_zero_d(values: Iterable[Value]) -> bool:
    """Whether any of the values is, or holds, a 0-d numpy array: an object that ``op=``
    changes in place (a tuple or list says so of its elements by its own flag)."""
    return any(v.zero_d for v in values)


def element_of(items: Value, t: T.Type, ctx: C.Context) -> Value:
    """An element (of type t) of a tuple or list whose parts are not known: a 0-d array
    when the container may hold one, or a sublist of them (D155)."""
    return Value(t, ctx, integral=items.integral,
                 zero_d=items.zero_d and isinstance(t, (T.Scalar, T.TupleType, T.ListType)))


def numpy_array(value: Value) -> bool:
    """A vector, a matrix or a 0-d array: an object ``op=`` changes in place, under every
    name holding it (a number is rebound, D155)."""
    return isinstance(value.type, (T.Vector, T.Matrix)) \
        or (value.zero_d and isinstance(value.type, T.Scalar))


def is_list(value: Value) -> bool:
    """A tuple or list value (list displays are analyzed as tuples)."""
    return isinstance(value.type, (T.TupleType, T.ListType))


def concatenate(a: Value, b: Value) -> Value | None:
    """``a + b`` on lists or tuples: the sum of both distances (None when their elements share
    no metric)."""
    if a.parts is not None and b.parts is not None:
        return tuple_value(a.parts + b.parts)
    assert isinstance(a.type, (T.TupleType, T.ListType)) and isinstance(b.type, (T.TupleType, T.ListType))
    ctx = C.add(a.ctx, b.ctx)
    integral, zero_d = dtypes.elements([a, b]), holds_zero_d([a, b])
    if isinstance(a.type, T.TupleType) and isinstance(b.type, T.TupleType):
        return Value(T.TupleType(a.type.elts + b.type.elts), ctx, integral=integral, zero_d=zero_d)
    joined = _list_of([*_elements(a.type), *_elements(b.type)])
    return Value(joined, ctx, integral=integral, zero_d=zero_d) if joined is not None else None


def repeated(items: Value, count: Value) -> Value | None:
    """``[a, b] * n`` with n a public integer: max(0, n) copies, as many times the distance
    (None when n is not known or not whole, or the elements share no metric)."""
    n = count.exact
    if not count.public or n is None or n.is_integer is False:  # Python refuses list * 2.5
        return None
    if items.parts is not None and n.is_Integer and int(n) * len(items.parts) <= 64:
        return tuple_value(items.parts * max(int(n), 0))
    assert isinstance(items.type, (T.TupleType, T.ListType))
    elem = list_type(items.type)
    if elem is None:
        return None
    copies = n if n.is_nonnegative else sp.Max(E.ZERO, n)  # a negative n gives []
    return Value(elem, C.scale(copies, items.ctx), integral=items.integral, zero_d=items.zero_d)


def with_element(items: Value, element: Value) -> Value | None:
    """A list after ``a[i] = v`` at a position the analysis does not know: within the old
    distance plus v's, every element of the old ones' type or v's (None when they share
    no metric)."""
    assert isinstance(items.type, (T.TupleType, T.ListType))
    joined = _list_of([*_elements(items.type), element.type])
    if joined is None:
        return None
    return Value(joined, C.add(items.ctx, element.ctx), integral=dtypes.elements([items, element]),
                 zero_d=holds_zero_d([items, element]))


def join_types(a: T.Type, b: T.Type) -> T.Type | None:
    """The least type both fit, or None when they do not share a metric."""
    if a == b:
        return a
    if isinstance(a, T.Scalar) and isinstance(b, T.Scalar):
        kinds = {a.kind, b.kind}
        if kinds <= {"Integer", "Real", "Bool"}:
            return T.REAL if "Real" in kinds else T.INTEGER
        if kinds <= {"Data", "Bool", "Integer"}:
            return T.DATA
        return None
    # Lengths must be exact (a mean divides by them), so branches that give
    # different lengths have no common type.
    if isinstance(a, T.Vector) and isinstance(b, T.Vector):
        if (a.norm, a.elem, a.length) != (b.norm, b.elem, b.length):
            return None
        return T.Vector(a.norm, a.elem, a.length, a.clip if a.clip == b.clip else None)
    if isinstance(a, T.Matrix) and isinstance(b, T.Matrix):
        if (a.norm, a.elem, a.rows, a.cols) != (b.norm, b.elem, b.rows, b.cols):
            return None
        return T.Matrix(a.norm, a.elem, a.rows, a.cols, a.clip if a.clip == b.clip else None)
    if isinstance(a, T.TupleType) and isinstance(b, T.TupleType) and len(a.elts) == len(b.elts):
        joined = [join_types(x, y) for x, y in zip(a.elts, b.elts)]
        if any(j is None for j in joined):
            return None
        return T.TupleType(tuple(j for j in joined if j is not None))
    if isinstance(a, (T.TupleType, T.ListType)) and isinstance(b, (T.TupleType, T.ListType)):
        # Lists of different lengths (a loop appends to one): a list of their elements.
        return _list_of([*_elements(a), *_elements(b)])
    return None


def list_type(t: T.TupleType | T.ListType) -> T.ListType | None:
    """The list type a tuple's or list's elements share (None when they share no metric)."""
    return _list_of(_elements(t))


def _elements(t: T.TupleType | T.ListType) -> list[T.Type]:
    return list(t.elts) if isinstance(t, T.TupleType) else [t.elem]


def _list_of(elements: list[T.Type]) -> T.ListType | None:
    """The list type of elements that share a metric (None when they do not, or there
    are none: an empty list has no element type yet)."""
    if not elements:
        return None
    elem: T.Type | None = elements[0]
    for t in elements[1:]:
        elem = join_types(elem, t) if elem is not None else None
    return T.ListType(elem) if elem is not None else None


def holds_selection(value: Value) -> bool:
    """A selection by a mask (R-select), or a tuple or list with one among its parts."""
    return value.selection is not None or (
        value.parts is not None and any(holds_selection(part) for part in value.parts))


def join(a: Value, b: Value) -> Value:
    """The value of a branch: either a or b, so per variable the larger sensitivity."""
    if a == b and not holds_selection(a):
        # Equal abstractions, so either one. Not for selections by masks (or tuples and
        # lists holding one): two of them look alike while their counts differ, and only
        # the selection's own context (already unbounded) would carry the branch's
        # taint, not its count (D101).
        return a
    joined_type = join_types(a.type, b.type) or UNKNOWN
    ctx = C.join(a.ctx, b.ctx)
    if joined_type is UNKNOWN:
        ctx = C.blow_up(ctx)
    parts = None
    if a.parts is not None and b.parts is not None and len(a.parts) == len(b.parts):
        parts = tuple(join(x, y) for x, y in zip(a.parts, b.parts))
    exact = a.exact if a.exact is not None and a.exact == b.exact else None
    bound = None
    if exact is None and a.magnitude() is not None and b.magnitude() is not None:
        bound = E.smax(a.magnitude() or E.ZERO, b.magnitude() or E.ZERO)
    if exact is not None and (a.rounding is not None or b.rounding is not None) \
            and C.is_public(ctx) and joined_type is not UNKNOWN:
        return dtypes.joined(a, b, floats.settle_selection(joined_type, [a, b], exact))  # either float
    interval = ranges.hull(ranges.of(a), ranges.of(b)) if exact is None else None
    joined = dtypes.joined(a, b, Value(joined_type, ctx, exact, bound, parts,
                                       interval=interval if joined_type is not UNKNOWN else None,
                                       zero_d=a.zero_d or b.zero_d))
    # Two values of different metrics have no distance to bound: no part tightens that ∞.
    return P.joined(joined, a, b) if joined_type is not UNKNOWN else joined


# Frozen dataclasses are built by the ten thousand: store their fields directly (fastinit).
fastinit.faster(vars())
