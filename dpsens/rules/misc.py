"""Special rules for dimensions, entrywise maps, sums and black-box results."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import TYPE_CHECKING

import sympy as sp

from dpsens import types as T
from dpsens.infer import dtypes, floats, masks, pieces, ranges, rowwise
from dpsens.infer.values import Value, is_list, join, list_length, number, static, unknown
from dpsens.rules.table import first_argument, require_static
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.rules.table import Rule

Bound = dict[str, "Value | None"]
BLACK_BOX = T.Opaque("BlackBox")


def _dimension(a: Analysis, span: object, value: Value, kind: str) -> Value:
    t = value.type
    dims = {
        T.Vector: lambda: {"rows": t.length, "len": t.length},  # type: ignore[union-attr]
        T.Matrix: lambda: {"rows": t.rows, "len": t.rows, "cols": t.cols},  # type: ignore[union-attr]
    }.get(type(t), lambda: {})()
    if isinstance(t, T.TupleType):
        dims = {"len": E.number(len(t.elts))}
    if isinstance(t, T.ListType) and kind == "len":
        return Value(T.INTEGER, list_length(value))
    if kind not in dims:
        why = f"{kind}() is not defined on {t.show()}"
        if t == masks.SELECTED:  # R-select: a join lost which selection this is
            why += " that a branch or loop may have chosen (take len() of each selection)"
        a.report(span, "DPS301", why)  # type: ignore[arg-type]
        return unknown(value.ctx)
    return static(T.INTEGER, dims[kind])


def rows(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """rows(x): public."""
    return _dimension(a, span, first_argument(bound), "rows")


def cols(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """cols(x): public."""
    return _dimension(a, span, first_argument(bound), "cols")


def length(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """len(x): public; of a selection by a mask, how many were selected (R-select)."""
    x = first_argument(bound)
    if x.selection is not None:
        return x.selection.count
    return _dimension(a, span, x, "len")


def elementwise_lipschitz(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """abs, np.clip, ...: held as integers when all their arguments are (R-int-dtype)."""
    first = rule.params[0].name
    x = bound[first]
    if x is not None:
        bound = {**bound, first: _as_numpy_operand(rule, x)}
    result = _lipschitz(a, rule, bound, span)
    return dtypes.marked(result, dtypes.upcast(v for v in bound.values() if v is not None))


def _lipschitz(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """abs, np.clip, ...: entrywise 1-Lipschitz maps are 1-sensitive in every metric."""
    names = [p.name for p in rule.params]
    x = bound[names[0]]
    assert x is not None
    others = C.EMPTY
    for param in rule.params[1:]:
        value = bound[param.name]
        if value is not None:
            others = C.add(others, require_static(a, value, param.name, rule, span))
    if rule.qualname == "numpy.clip":
        low, high = bound[names[1]], bound[names[2]]
        for end in (low, high):
            _assume_exact_float(a, end)
        width = None if low is None or high is None else \
            floats.spread_of_difference(high, low)  # ĥ − l̂, of the floats
        return rowwise.clipped(_clamped(x, low, high, width, others), x, width)
    ctx = C.add(x.ctx, others)
    if rule.qualname not in _ABSOLUTE:
        # Another 1-Lipschitz map (a user's stub): its values are not |x|'s.
        return rowwise.summed(Value(x.type, ctx), (x,))
    exact = sp.Abs(x.exact) if x.exact is not None else None
    if exact is not None and C.is_public(ctx):
        return floats.settle_selection(x.type, [x], exact)
    entries = ranges.absolute(ranges.of(x)) if exact is None else None
    return pieces.kept(rowwise.summed(Value(x.type, ctx, exact, floats.magnitude(x) if exact is
                                            None else None, interval=entries), (x,)), x)


_ABSOLUTE = ("builtins.abs", "numpy.abs", "numpy.absolute")

# Integers up to this magnitude convert to floats exactly.
_EXACT_INTEGERS = sp.Integer(2) ** 53


def _assume_exact_float(a: Analysis, end: Value | None) -> None:
    """numpy clips at the float of an integer bound. The clip's interval and width take a
    symbolic integer bound (a Static[int] expression) as its own float, which it is up to
    2⁵³: assumed (and checked where the value is known: a caller passing 2⁶² fails)."""
    if end is None or end.exact is None or end.exact.is_number or \
            T.scalar_kind_of(end.type) not in ("Integer", "Bool"):
        return
    rounding = floats.view(end)
    if rounding is not None and rounding.rel == 0:
        return  # a dimension: below 2⁵³
    a.assume(sp.Le(sp.Abs(end.exact), _EXACT_INTEGERS))


def _clamped(x: Value, low: Value | None, high: Value | None, width: E.Expr | None,
             others: C.Context) -> Value:
    """np.clip(x, lo, hi)."""
    if T.scalar_kind_of(x.type) == "Data":
        return _clamped_data(x, low, high, width, others)
    ctx = C.add(x.ctx, others)
    kind = _clamped_kind(x.type, low, high)
    exact, bound_ = _clamped_static(x, low, high)
    if exact is not None and C.is_public(ctx):
        return floats.settle_selection(kind, [v for v in (x, low, high) if v is not None], exact)
    return pieces.summed(Value(kind, ctx, exact, bound_, interval=_clamped_interval(low, high)),
                         ((E.ONE, x),), others)


def _clamped_kind(t: T.Type, low: Value | None, high: Value | None) -> T.Type:
    """np.clip(i, 1.999, 2.0) is a float: Integer entries stay Integer only between integer
    bounds (retyping Integer as Real keeps every distance). A clip marker stays only where
    lo ≤ 0 ≤ hi, which moves no entry away from 0: np.clip(clip(L_inf, v), 5, 6) has
    entries of 5, not at most 1."""
    if isinstance(t, (T.Vector, T.Matrix)) and t.clip is not None and not _brackets_zero(low, high):
        t = replace(t, clip=None)
    if T.scalar_kind_of(t) != "Integer" or all(
            b is not None and b.exact is not None and b.exact.is_integer for b in (low, high)):
        return t
    return replace(t, elem="Real") if isinstance(t, (T.Vector, T.Matrix)) else T.REAL


def _brackets_zero(low: Value | None, high: Value | None) -> bool:
    """lo ≤ 0 ≤ hi is known (a missing bound is no bound on that side)."""
    return (low is None or low.exact is not None and low.exact.is_nonpositive is True) and \
        (high is None or high.exact is not None and high.exact.is_nonnegative is True)


def _clamped_static(x: Value, low: Value | None, high: Value | None
                    ) -> tuple[E.Expr | None, E.Expr | None]:
    """(exact, bound) of np.clip(x, lo, hi): the result lies in [lo, hi], not near x."""
    if low is None or high is None or low.exact is None or high.exact is None:
        return None, None
    if x.exact is not None:
        return sp.Min(sp.Max(x.exact, low.exact), high.exact), None
    magnitudes = [floats.magnitude(b) for b in (low, high)]
    return None, E.smax(*magnitudes) if None not in magnitudes else None


def _clamped_interval(low: Value | None, high: Value | None) -> ranges.Interval | None:
    """Where np.clip(x, lo, hi) = minimum(maximum(x, lo), hi) puts every entry: between
    min(lo, hi) and hi (numpy gives hi everywhere when lo > hi). The ends are the floats
    numpy clips with, which may be off the decimals written (a literal above 2⁵³, 0.1):
    widened by their rounding (floats.view), which is dropped, as for the clip's width
    (floats.spread_of_difference), when it is within a relative 1e-12 of the width."""
    views = [None if b is None else floats.view(b, converted=False) for b in (low, high)]
    if views[0] is None or views[1] is None:
        return None
    (lo, lo_error), (hi, hi_error) = [(v.value, floats.spread(v)) for v in views]
    width, error = E.add(hi, -lo), E.add(lo_error, hi_error)
    if width.is_number and error.is_number and error <= floats.TOLERANCE_EXPR * abs(width):
        lo_error = hi_error = E.ZERO
    least = ranges.least(E.add(lo, -lo_error), E.add(hi, -hi_error))
    return least, E.add(hi, hi_error)


def _clamped_data(x: Value, low: Value | None, high: Value | None, width: E.Expr | None,
                  others: C.Context) -> Value:
    """np.clip(x, lo, hi) on Data: a changed entry moves by at most hi - lo, as a real.

    An entry that differs (Data distance 1) lands anywhere in [lo, hi]; an
    entry that does not differ does not move; so every row metric (N, Data)
    becomes (N, Real) scaled by hi - lo.
    """
    if width is None:
        return Value(x.type, C.add(x.ctx, others))
    _, entries = _clamped_static(x, low, high)  # every entry lies in [lo, hi]
    return pieces.summed(Value(T.with_real_entries(x.type), C.add(C.scale(width, x.ctx), others),
                               bound=entries, interval=_clamped_interval(low, high)),
                         ((width, x),), others)


def _as_numpy_operand(rule: Rule, x: Value) -> Value:
    """x as numpy's functions take it: a tuple or list of numbers is made an array first."""
    return (numbers_as_vector(x) or x) if rule.qualname.startswith("numpy.") else x


def join_rule(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """max/min (entrywise for arrays), and how the result is held (R-int-dtype): Python's
    returns one operand as it is (max(0, y) is the int 0 for y <= 0), numpy's promotes."""
    result = _join(a, rule, bound, span)
    left, right = bound["a"], bound.get("b")
    if left is None or right is None or not isinstance(result.type, (T.Scalar, T.Vector, T.Matrix)):
        return result  # (of one tuple or array: _join_items and extreme say)
    if rule.qualname.startswith("numpy."):
        return dtypes.marked(result, dtypes.upcast([left, right]))
    return dtypes.marked(result, dtypes.chosen([left, right], C.add(left.ctx, right.ctx)))


def _join(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """max/min (entrywise for arrays): per variable the larger sensitivity where one entry
    decides the distance (scalars, L_inf vectors); elsewhere the sum, since the winner may
    come from a in some entries and from b in others."""
    from dpsens.infer import arith

    left, right = bound["a"], bound.get("b")
    assert left is not None
    if right is None:
        return _join_items(a, rule, left, span)
    left, right = (_as_numpy_operand(rule, v) for v in (left, right))
    if any(is_list(v) for v in (left, right)):
        return _chosen_whole(rule, left, right, span, a)
    left, right = arith.unify_sizes([left, right], a.assume)
    if not all(isinstance(v.type, (T.Scalar, T.Vector, T.Matrix)) for v in (left, right)):
        # An operand of unknown shape (a join of a vector and a matrix): as for +.
        return arith.binary("+", left, right, lambda code, message: a.report(span, code, message))  # type: ignore[arg-type]
    result_type = arith.result_type_of("+", [left, right])
    if T.scalar_kind_of(result_type) == "Data" or \
            not isinstance(result_type, (T.Scalar, T.Vector, T.Matrix)):
        # Data results, and shapes that do not broadcast (DPS301): as for +.
        return arith.binary("+", left, right, lambda code, message: a.report(span, code, message))  # type: ignore[arg-type]
    single = isinstance(result_type, T.Scalar) or (
        isinstance(result_type, T.Vector) and result_type.norm == "L_inf")
    # Each operand's distance re-measured in the result's metric (Integer into Real: 1).
    moved = [C.scale(arith.embed_factor(v.type, result_type), v.ctx) for v in (left, right)]
    # |max(a, b) − max(a', b')| ≤ max(|a − a'|, |b − b'|) in every entry.
    ctx = C.join(*moved) if single else C.add(*moved)
    exact = None
    pick = sp.Min if rule.qualname.endswith(("min", "minimum")) else sp.Max
    if left.exact is not None and right.exact is not None:
        exact = pick(left.exact, right.exact)
        if C.is_public(ctx):
            return floats.settle_selection(result_type, [left, right], exact)
    # Either operand is chosen, entry by entry: the ends of their ranges are chosen alike
    # (min(max(i, 0), 3) lies in [0, 3] whatever i is; R-range).
    ends = [ranges.of(v) or (-E.INF, E.INF) for v in (left, right)]
    interval = (pick(ends[0][0], ends[1][0]), pick(ends[0][1], ends[1][1]))
    return ranges.ranged(Value(result_type, ctx, exact), interval)


def _chosen_whole(rule: Rule, left: Value, right: Value, span: object, a: Analysis) -> Value:
    """Python's max/min of two tuples or lists: one of them whole, chosen by comparing
    them entry by entry, which any move of a sensitive entry may flip (D74): the join,
    ∞ in what they depend on (a list of unknown length when their lengths differ).
    numpy's maximum of a list it cannot make an array of is not analyzed."""
    if rule.qualname.startswith("numpy."):
        a.report(span, "DPS301", f"{rule.qualname.split('.')[-1]}() of {left.type.show()} "  # type: ignore[arg-type]
                 f"and {right.type.show()} is not analyzed (numbers, tuples and arrays are)")
        return unknown(C.blow_up(C.add(left.ctx, right.ctx)))
    chosen = join(left, right)
    return Value(chosen.type, C.add(chosen.ctx, C.blow_up(C.add(left.ctx, right.ctx))))


def _join_items(a: Analysis, rule: Rule, items: Value, span: object) -> Value:
    """max((a, b, c)), min([a, b]): the join of a tuple's parts, two at a time; of a
    vector's entries, np.max / np.min (R-extreme)."""
    if isinstance(items.type, T.Vector):
        from dpsens.rules.arrays import extreme

        return extreme(a, rule, {"a": items}, span)
    if isinstance(items.type, T.ListType) and isinstance(items.type.elem, T.Scalar):
        # |max_i a_i − max_i b_i| ≤ max_i |a_i − b_i| ≤ the list's distance (the same for min).
        return dtypes.marked(Value(items.type.elem, items.ctx), items.integral)
    parts = items.parts if isinstance(items.type, T.TupleType) else None
    if not parts:
        name = rule.qualname.split(".")[-1]
        a.report(span, "DPS301", f"{name}() of {items.type.show()} is not analyzed "  # type: ignore[arg-type]
                 "(two values, or a tuple or list display of them, are)")
        return unknown(items.ctx)
    result = parts[0]
    for part in parts[1:]:
        result = join_rule(a, rule, {"a": result, "b": part}, span)
    return result


def to_float(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """float(x): identity on reals and integers; undisc (unbounded) on Data."""
    x = first_argument(bound)
    kind = T.scalar_kind_of(x.type)
    if not isinstance(x.type, T.Scalar):
        a.report(span, "DPS301", f"float() needs a number, got {x.type.show()}")  # type: ignore[arg-type]
        return unknown(x.ctx)
    ctx = C.blow_up(x.ctx) if kind == "Data" else x.ctx
    if C.is_public(ctx) and x.exact is not None and not x.exact.is_number:
        rounding = floats.view(x)  # a symbolic integer's float: exact below 2**53 only
        if rounding is not None and rounding.rel:
            return floats.settle(T.REAL, rounding)
    return Value(T.REAL, ctx, x.exact, x.bound, computed=x.computed, rounding=x.rounding)


def to_int(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """int(x): 1-sensitive on integers and bools; truncation jumps on reals."""
    x = first_argument(bound)
    kind = T.scalar_kind_of(x.type)
    ctx = x.ctx if kind in ("Integer", "Bool") else C.blow_up(x.ctx)
    # Only integers keep a known value. A float's exact value is the rational of its
    # decimal text or of exact arithmetic, not the float: int(0.29 * 100) is 28 in
    # Python, int(1e23) is 99999999999999991611392, and loop counts and branch
    # decisions taken from such values would be wrong.
    exact = x.exact if kind in ("Integer", "Bool") and x.exact is not None \
        and x.exact.is_Integer else None
    # An integer's range holds as it is. Truncation is monotone, so a real's lies between
    # the truncations of its least and greatest values: a real moved only by discrete
    # inputs then moves by at most that width (R-range caps the unbounded truncation:
    # int(np.clip(d, 0, 3)) of a Data d is 3, of np.clip(d, 0.5, 2.5) 2).
    interval = x.interval if kind in ("Integer", "Bool") and isinstance(x.type, T.Scalar) else None
    ends = ranges.finite(x.interval) if kind == "Real" and isinstance(x.type, T.Scalar) else None
    if ends is not None and ends[0].is_number and ends[1].is_number:
        # The ends are exact; the float computed may have rounded past them, onto the
        # next whole number (0.9999999999999999 + 1e-16 is 1.0): widened first.
        interval = (_truncated(_widened(ends[0], -1)), _truncated(_widened(ends[1], 1)))
    return Value(T.INTEGER, ctx, exact, interval=interval)


# How far the float a sensitive computation holds is taken to be from the exact value
# R-range gives its end, before int() truncates it (rounding in the sensitive
# arithmetic itself is otherwise outside the float model: docs/rules.md).
INT_MARGIN = (sp.Rational(1, 10**6), sp.Rational(1, 10**9))  # relative, absolute


def _widened(end: E.Expr, direction: int) -> E.Expr:
    """An interval end moved outward by the rounding margin."""
    relative, absolute = INT_MARGIN
    return end + direction * (abs(end) * relative + absolute)


def _truncated(end: E.Expr) -> E.Expr:
    """int() of a number: toward zero."""
    return sp.floor(end) if end >= 0 else sp.ceiling(end)


def to_bool(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """bool(x) of a number is x != 0 (R-compare); numpy refuses the truth of an array."""
    from dpsens.infer import arith

    x = first_argument(bound)
    if not isinstance(x.type, T.Scalar):
        a.report(span, "DPS301", f"bool() needs a number, got {x.type.show()}")  # type: ignore[arg-type]
        return unknown(x.ctx)
    result = arith.compare(x, number(0), "!=")
    if result.public and result.exact is None:
        result = replace(result, bound=E.ONE)  # a public truth value is 0 or 1
    return result


def _axis(a: Analysis, bound: Bound, rule: Rule, span: object, t: T.Type
          ) -> tuple[int | None, C.Context]:
    """The axis summed over (None: all), counted from the end when negative as numpy does."""
    axis = bound.get("axis")
    if axis is None or axis.type == T.Opaque("None"):
        return None, C.EMPTY
    extra = require_static(a, axis, "axis", rule, span)
    ndim = 2 if isinstance(t, T.Matrix) else 1
    position = axis.exact + ndim if axis.exact is not None and axis.exact.is_negative else axis.exact
    if position is None or position not in range(ndim):
        a.report(span, "DPS301", f"axis must be None or in [{-ndim}, {ndim - 1}] "  # type: ignore[arg-type]
                 f"for {t.show()}")
        return -1, C.blow_up(axis.ctx)
    return int(position), extra


def _summed(t: T.Type, axis: int | None) -> tuple[T.Type, E.Expr, E.Expr] | None:
    """(result type, sensitivity, number of terms per result entry) of a sum."""
    kind = "Integer" if T.scalar_kind_of(t) == "Integer" else "Real"
    if isinstance(t, T.Vector) and axis in (None, 0):
        return T.Scalar(kind), T.norm_factor(t.norm, "L1", t.length), t.length
    if isinstance(t, T.Matrix):
        if axis == 0:
            return T.Vector(t.norm, kind, t.cols), E.ONE, t.rows  # triangle inequality
        if axis == 1:
            return T.Vector("L1", kind, t.rows), T.norm_factor(t.norm, "L1", t.cols), t.cols
        if axis is None:
            return T.Scalar(kind), T.norm_factor(t.norm, "L1", t.cols), E.mul(t.rows, t.cols)
    return None


def _sum_or_mean(a: Analysis, rule: Rule, bound: Bound, span: object, mean: bool) -> Value:
    x = first_argument(bound)
    if x.selection is not None:
        return _selection_sum(a, rule, bound, span, mean, x)
    x = numbers_as_vector(x) or x  # sum((a, b)), np.mean([a, b]): as numpy's array of them
    axis, extra = _axis(a, bound, rule, span, x.type)
    if isinstance(x.type, T.ListType) and not mean and axis is None \
            and x.type.elem in (T.REAL, T.INTEGER):
        return Value(x.type.elem, C.add(x.ctx, extra))  # |Σ a_i − Σ b_i| ≤ Σ |a_i − b_i|
    if isinstance(x.type, T.Scalar) and rule.qualname.startswith("numpy.") and axis is None:
        return x.with_ctx(C.add(x.ctx, extra))  # np.sum(np.array(x)): the number itself
    if rule.qualname == "builtins.sum" and isinstance(x.type, T.Matrix):
        axis = 0  # Python's sum iterates over the rows
    shape = _summed(x.type, axis) if axis != -1 else None
    if shape is None:
        a.report(span, "DPS301", f"cannot sum {x.type.show()} here")  # type: ignore[arg-type]
        return unknown(C.add(x.ctx, extra))
    result_type, factor, terms = shape
    if T.scalar_kind_of(x.type) == "Data":
        factor = E.INF  # Data entries are unbounded reals: clip and undisc_container first
    entries = x.magnitude()  # a bound on every entry (np.clip) bounds the sum and the mean
    total = None if entries is None or x.public else E.mul(entries, terms)
    if mean:
        factor = E.div(factor, terms)
        total = entries if total is not None else None
        result_type = T.Scalar("Real") if isinstance(result_type, T.Scalar) else \
            T.Vector(result_type.norm, "Real", result_type.length)  # type: ignore[union-attr]
    # Each result entry is a sum of `terms` entries, or their mean (R-range).
    interval = ranges.of(x) if mean else ranges.summed(ranges.of(x), terms)
    result = Value(result_type, C.add(C.scale(factor, x.ctx), extra), bound=total,
                   interval=interval if not x.public else None)
    rows = x.rowwise
    if axis == 1 and isinstance(x.type, T.Matrix) and rows is not None and not rows.by_column:
        # Entry i sums (or averages) row i alone: it stays row-wise (R-rowwise), each entry
        # moving by at most its terms' moves added up.
        spread = None if rows.spread is None else rows.spread if mean else E.mul(terms, rows.spread)
        result = rowwise.mark(result, rows.params, spread)
    return pieces.summed(result, ((factor, x),), extra)


def _selection_sum(a: Analysis, rule: Rule, bound: Bound, span: object, mean: bool,
                   x: Value) -> Value:
    """sum(v[mask]) is the sum of np.where(mask, v, 0) (R-select); a mean divides by how
    many were selected, a sensitive number, and a matrix's selected rows are not summed."""
    chosen = x.selection
    assert chosen is not None
    if not mean and chosen.masked is not None and bound.get("axis") is None:
        return _sum_or_mean(a, rule, {**bound, rule.params[0].name: chosen.masked}, span, False)
    what = "the mean" if mean else "a sum along an axis or of rows"
    a.report(span, "DPS202", f"{what} of a selection by a mask is not analyzed (len() and "  # type: ignore[arg-type]
             "sum() of a vector's selection are: divide the sum by a public number)")
    return unknown(x.ctx)


def sum_rule(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """sum / np.sum: see _summed for the factors; Python's sum(xs, start) is start + sum(xs)."""
    from dpsens.infer import arith

    start = bound.get("start")
    total = _sum_or_mean(a, rule, bound, span, mean=False)
    x = first_argument(bound)
    if x.selection is None and isinstance(total.type, (T.Scalar, T.Vector)):
        total = dtypes.marked(total, _summed_integral(rule, numbers_as_vector(x) or x))
    if start is None:
        return total
    return arith.binary("+", start, total, lambda code, message: a.report(span, code, message))  # type: ignore[arg-type]


def _summed_integral(rule: Rule, x: Value) -> dtypes.Integral:
    """R-int-dtype: a sum of integers is one; Python's sum of a list that may be empty is
    the int 0 (numpy's is 0.0)."""
    if rule.qualname == "builtins.sum" and isinstance(x.type, T.ListType):
        return C.EMPTY if x.integral is None else x.integral
    return dtypes.possible(x)


def count_nonzero(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.count_nonzero(x) is np.sum(x != 0): a mask summed (R-compare, R-sum)."""
    from dpsens.infer import arith

    x = first_argument(bound)
    mask = arith.compare(x, number(0), "!=", lambda code, message: a.report(span, code, message))  # type: ignore[arg-type]
    return _sum_or_mean(a, rule, {**bound, rule.params[0].name: mask}, span, mean=False)


def mean_rule(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.mean: the sum's sensitivity over the public number of terms."""
    return _sum_or_mean(a, rule, bound, span, mean=True)


def vector_norm(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.linalg.norm: reverse triangle inequality, in L2 (Frobenius for matrices)."""
    x = first_argument(bound)
    x = numbers_as_vector(x) or x  # numpy makes an array of a tuple or list of numbers
    t = x.type
    if isinstance(t, T.Scalar):
        # |.| on a number: 1-Lipschitz on reals and integers; Data are unbounded reals.
        return Value(T.REAL, x.ctx if T.scalar_kind_of(t) != "Data" else C.blow_up(x.ctx))
    if not isinstance(t, (T.Vector, T.Matrix)):
        a.report(span, "DPS301", f"norm() of {t.show()} is not analyzed "  # type: ignore[arg-type]
                 "(numbers, vectors, matrices and tuples of numbers are)")
        return unknown(C.blow_up(x.ctx))
    n = t.length if isinstance(t, T.Vector) else t.cols
    factor = E.INF if t.elem == "Data" else T.norm_factor(t.norm, "L2", n)
    return Value(T.REAL, C.scale(factor, x.ctx))


def zeros(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.zeros / np.ones: a public array of the given static shape."""
    shape = first_argument(bound)
    extra = require_static(a, shape, "shape", rule, span)
    dims = [p.exact for p in shape.parts] if shape.parts is not None else [shape.exact]
    if any(d is None for d in dims) or len(dims) not in (1, 2):
        a.report(span, "DPS301", "the shape must be a known integer or pair of integers")  # type: ignore[arg-type]
        return unknown(extra)
    kind = _entry_kind(bound.get("dtype"))
    if kind is None:
        a.report(span, "DPS301", f"{rule.qualname.split('.')[-1]}() with this dtype is not "  # type: ignore[arg-type]
                 "analyzed (int, float, bool and numpy's int64, float64 and bool_ are)")
        return unknown(extra)
    # Every entry is 0 or 1: the bound on a public array's entries (arith._scaled).
    # An integer or bool array truncates what is stored into it: storing a real there
    # is unbounded (T.element_factor), a count is stored as it is.
    entry = E.ONE if rule.qualname.endswith(".ones") else E.ZERO
    if len(dims) == 1:
        return Value(T.Vector("L1", kind, dims[0]), extra, bound=entry)
    return Value(T.Matrix("L1", kind, dims[0], dims[1]), extra, bound=entry)


_DTYPES = {"builtins.float": "Real", "numpy.float64": "Real", "numpy.double": "Real",
           "builtins.int": "Integer", "numpy.int64": "Integer", "numpy.int_": "Integer",
           "numpy.intp": "Integer", "builtins.bool": "Bool", "numpy.bool_": "Bool"}


def _entry_kind(dtype: Value | None) -> str | None:
    """The entries' kind for np.zeros' dtype (Real without one), or None: not analyzed
    (narrower integers wrap around, narrower floats round, strings are not read)."""
    if dtype is None or dtype.type == T.Opaque("None"):
        return "Real"
    ref = dtype.type.ref if isinstance(dtype.type, T.Callable_) else None
    return _DTYPES.get(ref) if isinstance(ref, str) else None


def zeros_like(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.zeros_like / np.ones_like of an array or a number: public, of its public shape,
    with its kind of entries (R-like): numpy gives the result the argument's dtype, so
    zeros_like of an integer array truncates what is stored into it, as the array does.
    dtype= overrides it (dtype=None keeps it)."""
    x = first_argument(bound)
    entry = E.ONE if rule.qualname.endswith(".ones_like") else E.ZERO
    dtype = bound.get("dtype")
    same = dtype is None or dtype.type == T.Opaque("None")
    kind = T.scalar_kind_of(x.type) if same else _entry_kind(dtype)
    name = rule.qualname.split(".")[-1]
    if kind is None and not same:
        a.report(span, "DPS301", f"{name}() with this dtype is not analyzed (int, float, "  # type: ignore[arg-type]
                 "bool and numpy's int64, float64 and bool_ are)")
        return unknown(x.ctx)
    # (of its dtype: integral where x may be held as an integer, R-int-dtype)
    held = x.integral if same else None
    if isinstance(x.type, T.Scalar) and kind is not None:
        return dtypes.marked(replace(static(T.Scalar(kind), entry), zero_d=True), held)  # 0-d
    if not isinstance(x.type, (T.Vector, T.Matrix)) or kind is None:
        # A list's length may depend on the data (a filtered list): not analyzed.
        a.report(span, "DPS301", f"{name}() of {x.type.show()} is not "  # type: ignore[arg-type]
                 "analyzed (arrays and numbers are)")
        return unknown(x.ctx)
    # An array of Data has the dtype its caller gave it (floats, integers or truth
    # values): its copy stays Data, so that a real stored into it is unbounded
    # (T.element_factor), as a truncation it may be.
    return dtypes.marked(Value(replace(x.type, elem=kind, clip=None), C.EMPTY, bound=entry), held)


def square(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.square(x) is x ** 2 (R-bounded-product when x's entries are bounded)."""
    from dpsens.infer import arith

    return arith.binary("**", first_argument(bound), number(2),
                        lambda code, message: a.report(span, code, message))  # type: ignore[arg-type]


def array(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.array of a tuple (or list display) of numbers is an (L1, ·) vector: a tuple's
    distance is the sum of its parts' distances, as an L1 vector's is of its entries'.
    Of an array it is a copy, of the same type."""
    x = first_argument(bound)
    dtype = bound.get("dtype")
    plain = dtype is None or dtype.type == T.Opaque("None")
    if isinstance(x.type, T.Scalar) and plain:
        return replace(x, zero_d=True)  # np.copy(a) of a number: a 0-d array holding it
    if isinstance(x.type, (T.Vector, T.Matrix)):
        made: Value | None = Value(x.type, x.ctx, peak=x.peak, integral=x.integral)
    else:
        made = numbers_as_vector(x) or _public_list_as_vector(x)
    if made is None:
        a.report(span, "DPS301", f"np.array() of {x.type.show()} is not analyzed "  # type: ignore[arg-type]
                 "(numbers, or an array, are)")
        return unknown(x.ctx)
    if plain:
        return made
    return _converted(a, made, dtype, span, "np.array()")


# The length of an array made of a list whose length is not known (only public ones).
LIST_LENGTH = E.dimension("len", "array of a list")


def _public_list_as_vector(x: Value) -> Value | None:
    """np.array of a public list of numbers of any length (released values appended in a
    loop): a public vector, of a length no rule relies on; None for anything else."""
    t = x.type
    if not (x.public and isinstance(t, T.ListType) and isinstance(t.elem, T.Scalar)
            and t.elem.kind in ("Real", "Integer", "Bool")):
        return None
    return dtypes.marked(Value(T.Vector("L1", t.elem.kind, LIST_LENGTH)), x.integral)


def astype(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """x.astype(dtype) (np.astype): the entries converted to another kind (R-astype)."""
    return _converted(a, first_argument(bound), bound["dtype"], span, "astype()")


def _converted(a: Analysis, x: Value, dtype: Value | None, span: object, what: str) -> Value:
    """An array's entries as int, float or bool (R-astype).

    Integers and truth values become the same numbers as floats or integers: 1 in
    the element factor. Truncating floats (or testing them against 0) is not
    Lipschitz: unbounded. Data stays Data whatever its entries become: an entrywise
    function changes no entry that did not change.
    """
    kind = _entry_kind(dtype)
    t = x.type
    if kind is None or not isinstance(t, (T.Vector, T.Matrix)):
        problem = "with this dtype is not analyzed (int, float, bool and numpy's int64, " \
            "float64 and bool_ are)" if kind is None else f"of {t.show()} is not analyzed " \
            "(arrays are)"
        a.report(span, "DPS301", f"{what} {problem}")  # type: ignore[arg-type]
        return unknown(C.blow_up(x.ctx))
    if t.elem == "Data":
        same = kind == "Real"  # (the entries of Data may be floats: int truncates them)
        return Value(replace(t, clip=t.clip if same else None), x.ctx,
                     bound=x.bound if same else None, interval=x.interval if same else None)
    same = kind == t.elem or t.elem in ("Integer", "Bool") and kind in ("Integer", "Real")
    if not same:
        return Value(replace(t, elem=kind, clip=None), C.scale(T.element_factor(t.elem, kind), x.ctx))
    return Value(replace(t, elem=kind), x.ctx, bound=x.bound, interval=x.interval, peak=x.peak)


def numbers_as_vector(x: Value) -> Value | None:
    """A tuple of numbers as the (L1, kind) vector numpy makes of it (R-array), or None."""
    kinds = {t.kind if isinstance(t, T.Scalar) else None
             for t in (x.type.elts if isinstance(x.type, T.TupleType) else ())}
    if not kinds or None in kinds or ("Data" in kinds and kinds != {"Data"}):
        return None
    kind = "Real" if "Real" in kinds else "Data" if "Data" in kinds else "Integer"
    # Entries of known magnitude bound the vector's (np.array([1.0, -2.0, 3.0]): 3).
    magnitudes = [p.magnitude() for p in x.parts] if x.parts is not None else [None]
    known = [m for m in magnitudes if m is not None]
    bound = functools.reduce(E.smax, known) if known and len(known) == len(magnitudes) else None
    # numpy makes an integer array when no entry is a float (R-int-dtype); without the
    # parts, any entry may be an integer.
    held = dtypes.upcast(x.parts) if x.parts is not None else C.add(x.integral or C.EMPTY, x.ctx)
    # The entries keep their own contexts: report_noisy_max pays the largest, not their sum.
    return dtypes.marked(Value(T.Vector("L1", kind, E.number(len(x.type.elts))), x.ctx,  # type: ignore[union-attr]
                               bound=bound, parts=x.parts), held)


def unbox(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """unbox(value, T, shape): a black-box result gets the type T with that shape."""
    value, t, shape = bound["value"], bound["t"], bound["shape"]
    assert value is not None and t is not None and shape is not None
    if not isinstance(t.type, T.TypeValue):
        a.report(span, "DPS301", "unbox() needs a dpsens type as its second argument")  # type: ignore[arg-type]
        return unknown(value.ctx)
    if value.type != BLACK_BOX:
        # Re-typing an analyzed value would let any metric be claimed.
        a.report(span, "DPS301", "unbox() only applies to results of BlackBox functions")  # type: ignore[arg-type]
        return unknown(value.ctx)
    dims = [p.exact for p in shape.parts] if shape.parts is not None else [shape.exact]
    target = t.type.type
    # A clipped type's claim (rows of norm at most 1) is not taken: unbox scales such rows
    # into the ball at run time, but the analysis leaves the result unclipped (clip() it).
    if isinstance(target, T.Vector) and len(dims) == 1 and dims[0] is not None:
        target = T.Vector(target.norm, target.elem, dims[0])
    elif isinstance(target, T.Matrix) and len(dims) == 2 and None not in dims:
        target = T.Matrix(target.norm, target.elem, dims[0], dims[1])
    elif isinstance(target, (T.Vector, T.Matrix)) or dims and shape.type != T.Opaque("None"):
        # (a number's shape is () or None: any other makes unbox return zeros of that shape)
        a.report(span, "DPS301", "unbox(): the shape must match the type and be static")  # type: ignore[arg-type]
        return unknown(value.ctx)
    return Value(target, C.add(value.ctx, require_static(a, shape, "shape", rule, span)))


def range_rule(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """range() outside a for loop is not analyzed."""
    a.report(span, "DPS202", "range() is only supported as the iterable of a for loop")  # type: ignore[arg-type]
    return unknown(C.total(v.ctx for v in bound.values() if v is not None))


