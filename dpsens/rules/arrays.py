"""numpy's extremes, order statistics, rearrangements, differences and running sums:
np.max/np.min, np.median/np.percentile/np.quantile, np.sort, np.flip, np.ravel, np.diff,
np.cumsum.

Proof sketches are in docs/rules.md (R-extreme, R-sort, R-flip, R-diff, R-cumsum);
the names of the functions are the names used by ``@rule(...)`` in the stubs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from dpsens import types as T
from dpsens.infer import cells, floats, ranges, rowwise
from dpsens.infer.values import Value, unknown
from dpsens.rules.containers import require_container, row_length, with_metric
from dpsens.rules.table import first_argument, require_static
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.rules.table import Rule

Bound = dict[str, "Value | None"]


def _discrete(t: T.Vector | T.Matrix) -> bool:
    return t.elem in ("Data", "Bool")


def _real_vector(a: Analysis, x: Value, span: object, what: str, note: str = "") -> T.Vector | None:
    """x's type if it is a vector of reals or integers, else None after DPS301."""
    if isinstance(x.type, T.Vector) and not _discrete(x.type):
        return x.type
    a.report(span, "DPS301", f"{what} needs a real or integer MetricVector{note}, "  # type: ignore[arg-type]
             f"got {x.type.show()}")
    return None


def extreme(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.max / np.min of every entry: 1-sensitive in every metric."""
    x = first_argument(bound)
    if not require_container(a, x, span, rule.qualname.split(".")[-1]):
        return unknown(x.ctx)
    t = x.type
    assert isinstance(t, (T.Vector, T.Matrix))
    # Real: |max x - max y| <= max |x_i - y_i|, at most any row norm, at most their sum.
    # Data: the result differs only if some entry does, which is at least 1 away.
    return Value(T.Scalar(t.elem), x.ctx)


def order_statistic(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.median / np.percentile / np.quantile of every entry: 1-sensitive on reals."""
    x = first_argument(bound)
    name = rule.qualname.split(".")[-1]
    if not require_container(a, x, span, name):
        return unknown(x.ctx)
    t = x.type
    assert isinstance(t, (T.Vector, T.Matrix))
    extra = C.total(require_static(a, v, p.name, rule, span)  # type: ignore[arg-type]
                    for p in rule.params[1:] if (v := bound.get(p.name)) is not None)
    # Sorting is 1-Lipschitz in l_inf, and an order statistic, or an interpolation
    # between two, moves by at most the largest entry's move: at most any norm of the
    # difference. Data entries are unbounded reals once averaged (the median of 2 values).
    own = C.blow_up(x.ctx) if _discrete(t) else x.ctx
    q = bound.get("q")
    if q is not None and not isinstance(q.type, T.Scalar):
        # Several q (np.percentile(x, [25, 50, 75])): one statistic per q, each moving
        # by at most the largest entry's move: an L_inf vector of them.
        count = len(q.type.elts) if isinstance(q.type, T.TupleType) and all(
            isinstance(e, T.Scalar) for e in q.type.elts) else None  # a flat tuple of numbers
        if count is None:
            a.report(span, "DPS301", f"{name}() of {q.type.show()} q is not analyzed "  # type: ignore[arg-type]
                     "(a number, or a tuple or list of them, is)")
            return unknown(C.blow_up(C.add(own, extra)))
        return Value(T.Vector("L_inf", "Real", E.number(count)), C.add(own, extra))
    return Value(T.REAL, C.add(own, extra))


def variance(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.var of a vector whose entries lie in a known interval of width w (R-var): at most
    2w(n − 1)/n² per unit of L1 distance of real entries, and for integer entries (which
    move by at least 1 when they move) w²(n − 1)/n² per changed entry and w²/4 in all;
    ``ddof=k`` divides by n − k instead of n: all of it times n/(n − k)."""
    x = first_argument(bound)
    t = x.type
    found = ranges.finite(ranges.of(x))
    if not _numbers_vector(a, t, span, "var()"):
        return unknown(C.blow_up(x.ctx))
    assert isinstance(t, T.Vector)
    if found is None:
        a.report(span, "DPS301", "var() needs entries in a known range: "  # type: ignore[arg-type]
                 "np.clip them first")
        return unknown(C.blow_up(x.ctx))
    n, w = t.length, ranges.width(found)
    scale, extra = _ddof_scale(a, rule, bound, span, n)
    if scale is None or not _whole(a, rule, bound, span):
        return unknown(C.add(C.blow_up(x.ctx), extra))
    # Entries changed per unit of distance: |Δ|₁ is at most √n·|Δ|₂ and n·|Δ|∞.
    per_unit = T.norm_factor(t.norm, "L1", n)
    lipschitz = E.div(E.mul(E.number(2), E.mul(w, E.add(n, E.number(-1)))), n * n)
    factor = E.mul(per_unit, lipschitz)
    if t.elem in ("Integer", "Bool"):
        one_entry = E.div(E.mul(E.mul(w, w), E.add(n, E.number(-1))), n * n)
        factor = sp.Min(factor, E.mul(per_unit, one_entry), E.div(E.mul(w, w), E.number(4)))
    most = E.mul(scale, E.div(E.mul(w, w), E.number(4)))
    if scale != E.ONE:
        factor = sp.cancel(E.mul(scale, factor))  # 2/n for ddof=1, not (2n − 2)/(n(n − 1))
    ctx = _records_replaced(x, C.scale(factor, x.ctx), scale, n, w)
    return Value(T.REAL, C.add(ctx, extra), interval=(E.ZERO, most))


def _records_replaced(x: Value, ctx: C.Context, scale: E.Expr, n: E.Expr, w: E.Expr) -> C.Context:
    """np.var's context in the datasets whose rows x reads one entry each (R-rowwise): a
    changed record replaces one entry by another of the range, which moves the variance
    by at most (n − 1)/n²·min(w², 2w·s) (s: how far the entry moves), exactly w²(n − 1)/n²
    for an entry moving across the range among entries at one end (R-var)."""
    rows = x.rowwise
    if rows is None or rows.by_column:
        return ctx
    move = E.mul(w, w) if rows.spread is None else \
        E.smin(E.mul(w, w), E.mul(E.mul(E.number(2), w), rows.spread))
    each = sp.cancel(E.mul(scale, E.div(E.mul(E.add(n, E.number(-1)), move), n * n)))
    return {name: each if name in rows.params and E.decide_le(each, r) is True else r
            for name, r in ctx.items()}


def standard_deviation(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.std of a vector (R-std): √n·std(x) = ‖x − mean(x)·1‖₂, and x ↦ x − mean(x)·1 is
    an orthogonal projection, so std moves by at most ‖Δ‖₂/√n (no range needed); times
    √(n/(n − k)) for ``ddof=k``. Entries in an interval of width w keep it in [0, w/2]
    (times the same root), a bound on its move too where any move is at least 1 apart."""
    x = first_argument(bound)
    t = x.type
    if not _numbers_vector(a, t, span, "std()"):
        return unknown(C.blow_up(x.ctx))
    assert isinstance(t, T.Vector)
    n = t.length
    scale, extra = _ddof_scale(a, rule, bound, span, n)
    if scale is None or not _whole(a, rule, bound, span):
        return unknown(C.add(C.blow_up(x.ctx), extra))
    root = E.sqrt(scale)
    factor = E.mul(root, E.div(T.norm_factor(t.norm, "L2", n), E.sqrt(n)))
    found = ranges.finite(ranges.of(x))
    interval = None
    if found is not None:
        interval = (E.ZERO, E.mul(root, E.div(ranges.width(found), E.number(2))))
        if t.elem in ("Integer", "Bool"):
            # Integer entries that change are at least 1 apart: the whole range is a bound.
            factor = sp.Min(factor, interval[1])
    return Value(T.REAL, C.add(C.scale(factor, x.ctx), extra), interval=interval)


def _numbers_vector(a: Analysis, t: T.Type, span: object, what: str) -> bool:
    """A vector of numbers (DPS301 otherwise: Data entries are unbounded reals)."""
    if isinstance(t, T.Vector) and T.scalar_kind_of(t) != "Data":
        return True
    a.report(span, "DPS301", f"{what} of {t.show()} is not analyzed "  # type: ignore[arg-type]
             "(a vector of numbers is: undisc_container a Data one)")
    return False


def _whole(a: Analysis, rule: Rule, bound: Bound, span: object) -> bool:
    """Whether var()/std() reduce a vector's entries as numpy does by default: no axis
    but None, 0 or -1 (the only axis of a vector), no dtype, no out (DPS301 otherwise)."""
    given = {name: bound.get(name) for name in ("axis", "dtype", "out")}
    for name, value in given.items():
        if value is None or value.type == T.Opaque("None"):
            continue
        if name == "axis" and value.public and value.exact is not None and value.exact in (0, -1):
            continue
        what = rule.qualname.split(".")[-1]
        a.report(span, "DPS301", f"{what}() with {name}= is not analyzed "  # type: ignore[arg-type]
                 "(of a whole vector it is)")
        return False
    return True


def _ddof_scale(a: Analysis, rule: Rule, bound: Bound, span: object, n: E.Expr
                ) -> tuple[E.Expr | None, C.Context]:
    """(n/(n − k), the cost of passing k) for numpy's ``ddof=k`` (1, nothing, without one);
    None for a k that is not a known number. numpy divides by n − k: the result holds
    where n > k, which is assumed."""
    ddof = bound.get("ddof")
    if ddof is None or ddof.type == T.Opaque("None"):
        return E.ONE, C.EMPTY
    extra = require_static(a, ddof, "ddof", rule, span)
    if not ddof.public:
        return None, extra  # reported (DPS304): n − k may be anything
    k = ddof.exact
    if k is None:
        a.report(span, "DPS301", "ddof must be a known number")  # type: ignore[arg-type]
        return None, C.add(extra, C.blow_up(ddof.ctx))
    if E.is_zero(k):
        return E.ONE, extra
    difference = E.add(n, -k)
    if difference.is_positive is not True:
        a.assume(sp.Gt(difference, 0))
    return E.div(n, difference), extra


def transpose(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.transpose: a matrix's ``.T`` (R-transpose); a vector is itself."""
    from dpsens.infer.engine import transposed

    x = first_argument(bound)
    if not require_container(a, x, span, "transpose"):
        return unknown(x.ctx)
    return transposed(x) if isinstance(x.type, T.Matrix) else x


def ravel(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.ravel / .flatten(): a matrix's entries as one vector (R-ravel)."""
    x = first_argument(bound)
    if not require_container(a, x, span, rule.qualname.split(".")[-1]):
        return unknown(x.ctx)
    return flat(x)


def flat(x: Value) -> Value:
    """A matrix's entries, row after row, in the rows' norm; Data entries as an (L1, Data)
    vector, counting the changed entries. A vector stays as it is."""
    t = x.type
    if isinstance(t, T.Vector):
        return Value(t, x.ctx, peak=x.peak)
    assert isinstance(t, T.Matrix)
    length = E.mul(t.rows, t.cols)
    if t.elem == "Data":
        # A changed row holds at most norm_factor(N, L1, cols)·d_row changed entries (each
        # 1 apart), and an (L∞, Data) vector would be 1 away from any other. No entry moves
        # by more than 1, and only when x does, by at least 1 (R-peak): √cols in L2.
        return Value(T.Vector("L1", "Data", length), C.scale(T.norm_factor(t.norm, "L1", t.cols),
                                                             x.ctx), peak=x.ctx)
    # Σ_rows ||Δrow||_N ≥ ||(Δrow_1, ..., Δrow_r)||_N for N in L1, L2, L_inf.
    return Value(T.Vector(t.norm, t.elem, length), x.ctx)


def diff(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.diff of a vector: v[1:] − v[:-1], at most twice v's distance in its norm."""
    x = first_argument(bound)
    t = _real_vector(a, x, span, "diff()")
    if t is None:
        return unknown(x.ctx)
    shorter = T.Vector(t.norm, t.elem, t.length - 1)
    return Value(shorter, C.scale(E.number(2), x.ctx))


def where(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.where(c, x, y): x where c holds, else y, entrywise (R-where)."""
    from dpsens.infer import arith

    c, x, y = (bound[p.name] for p in rule.params[:3])
    assert c is not None and x is not None and y is not None
    c, x, y = arith.unify_sizes([c, x, y], a.assume)
    shape = arith.broadcast_shape([c.type, x.type, y.type])
    if isinstance(shape, str) or not all(isinstance(v.type, (T.Scalar, T.Vector, T.Matrix))
                                         for v in (c, x, y)):
        a.report(span, "DPS301", f"where() of {c.type.show()}, {x.type.show()} and "  # type: ignore[arg-type]
                 f"{y.type.show()} is not analyzed")
        return unknown(C.blow_up(C.total([c.ctx, x.ctx, y.ctx])))
    result = arith.result_type_of("+", [x, y], shape)
    ctx = C.total([C.scale(arith.embed_factor(v.type, result), v.ctx) for v in (x, y)])
    bx, by = x.magnitude(), y.magnitude()
    if not c.public:
        # Where c flips, the entry jumps between x_i and y_i: at most B_x + B_y, and a
        # mask's entry flips only when it moves by 1 (a comparison of discrete values).
        gap = E.add(bx, by) if bx is not None and by is not None else E.INF
        mask = T.scalar_kind_of(c.type) in ("Integer", "Bool", "Data") and c.magnitude() == E.ONE
        flips = C.scale(E.mul(gap, arith.embed_factor(c.type, result)), c.ctx) if mask \
            else C.blow_up(c.ctx)
        ctx = C.add(ctx, flips)
    entries = E.smax(bx, by) if bx is not None and by is not None else None
    entries_lie = ranges.hull(ranges.of(x), ranges.of(y))
    chosen = rowwise.chosen(Value(result, ctx, bound=entries, zero_d=isinstance(result, T.Scalar)),
                            c, x, y)
    if y.public and y.exact is not None and E.is_zero(y.exact):  # x kept inside a cell
        chosen = cells.kept_inside(chosen, c, x) or chosen
    return ranges.ranged(chosen, entries_lie)


def dot(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.dot(a, b): the matrix product ``a @ b`` (a dot product of vectors)."""
    from dpsens.rules.misc import numbers_as_vector

    x, y = (bound[p.name] for p in rule.params[:2])
    assert x is not None and y is not None
    x, y = (numbers_as_vector(v) or v for v in (x, y))  # numpy makes arrays of lists first
    return a.dot(x, y, span)  # type: ignore[arg-type]


def sort(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.sort (of each row of a matrix): 1 on real rows; on Data rows every entry may move."""
    x = first_argument(bound)
    if not require_container(a, x, span, "sort"):
        return unknown(x.ctx)
    t = x.type
    assert isinstance(t, (T.Vector, T.Matrix))
    # Sorted pairing minimizes sum phi(x_i - y_pi(i)) for convex phi, so sorting is
    # 1-Lipschitz in every l_p; [1, 2, 3] vs [4, 2, 3] sort to 3 differing entries.
    factor = T.norm_factor("L_inf", t.norm, row_length(t)) if _discrete(t) else E.ONE
    return Value(t, C.scale(factor, x.ctx))  # sorting keeps row norms: a clip stays valid


def flip(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.flip: the entries (and rows) reversed, an isometry of every metric."""
    x = first_argument(bound)
    if not require_container(a, x, span, "flip"):
        return unknown(x.ctx)
    return Value(x.type, x.ctx)


def cumsum(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.cumsum of a real vector: the norm of the lower-triangular ones matrix."""
    x = first_argument(bound)
    t = _real_vector(a, x, span, "cumsum()", " (a matrix is flattened)")
    if t is None:
        return unknown(x.ctx)
    # No prefix sum moves by more than Σ|Δ| = ‖Δ‖₁ (R-peak): an L1 vector's is 1 in L∞.
    return Value(with_metric(t, t.norm, t.elem, None), C.scale(cumsum_factor(t.norm, t.length), x.ctx),
                 peak=C.scale(T.norm_factor(t.norm, "L1", t.length), x.ctx))


@E.remembered
def cumsum_factor(norm: str, n: E.Expr) -> E.Expr:
    """||L_n|| in the norm: n in L1 (a change of the first entry) and L_inf (all ones),
    1/(2 sin(pi/(4n + 2))) in L2, the largest singular value of L_n."""
    if norm == "L2":
        return E.div(E.ONE, 2 * sp.sin(sp.pi / (4 * n + 2)))
    return n


__all__ = ["cumsum", "cumsum_factor", "extreme", "flat", "flip", "sort"]


def histogram(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """np.histogram(x, bins, range): the counts of x's entries in bins of a public range,
    and the bins' public edges (R-histogram)."""
    from dpsens.infer.values import tuple_value

    x, bins, limits = (bound[p.name] for p in rule.params[:3])
    assert x is not None
    given = [(name, v) for name, v in (("bins", bins), ("range", limits)) if v is not None]
    extra = C.total(require_static(a, v, name, rule, span) for name, v in given)  # type: ignore[arg-type]
    count = E.number(10) if bins is None else bins.exact  # numpy's default
    # Explicit edges (bins=[0, 18, 65, 120]) are public: len − 1 bins, no range needed. Only
    # floats known to be finite and in order: numpy lets edges with a NaN through (its
    # check compares neighbours), and then one entry may move counts in every repeat.
    edges = bins.parts if bins is not None and isinstance(bins.type, T.TupleType) else None
    if edges is not None:
        held = [floats.float_of(e) for e in edges]
        count = E.number(len(edges) - 1) if len(held) >= 2 and None not in held \
            and all(x <= y for x, y in zip(held, held[1:])) else None
    problem = None
    if not isinstance(x.type, (T.Vector, T.Matrix)):
        problem = f"histogram() of {x.type.show()} is not analyzed (vectors and matrices are)"
    elif count is None or count.is_number and not (count.is_Integer and count >= 1):
        problem = ("the bins of histogram() must be a static positive integer, or edges that "
                   "are known finite numbers in increasing order")
    elif edges is None and (limits is None or limits.parts is None or len(limits.parts) != 2):
        # Without it numpy takes the data's smallest and largest entries as the edges.
        problem = "histogram() needs a public range=(low, high): by default its bins are " \
                  "the data's smallest and largest entries"
    if problem is not None:
        a.report(span, "DPS301", problem)  # type: ignore[arg-type]
        return unknown(C.blow_up(C.add(x.ctx, extra)))
    t = x.type
    assert isinstance(t, (T.Vector, T.Matrix))
    width, entries = (t.length, t.length) if isinstance(t, T.Vector) else (t.cols, E.mul(t.rows, t.cols))
    # Entries that differ are each at least 1 apart (discrete metrics), so there are at most
    # norm_factor(N, L1, row) · d of them; each leaves one bin and enters at most one other.
    changed = T.norm_factor(t.norm, "L1", width) if T.is_discrete_metric(t) else E.INF
    # No count moves by more than the number of changed entries (R-peak).
    counts = Value(T.Vector("L1", "Integer", count),
                   C.add(C.scale(E.mul(E.number(2), changed), x.ctx), extra),
                   bound=entries, peak=C.add(C.scale(changed, x.ctx), extra))
    return tuple_value((counts, Value(T.Vector("L1", "Real", E.add(count, E.ONE)), extra)))
