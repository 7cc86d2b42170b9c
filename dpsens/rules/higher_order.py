"""Special rules taking a function argument: map_rows, fold, count."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpsens import types as T
from dpsens.infer import dtypes
from dpsens.infer.values import Value, join_types, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.rules.table import Rule

Bound = dict[str, "Value | None"]


def elements(t: T.Type) -> tuple[T.Type, E.Expr] | None:
    """(type of one row or entry, how many there are) of a container."""
    if isinstance(t, T.Matrix):
        return T.Vector(t.norm, t.elem, t.cols, t.clip), t.rows
    if isinstance(t, T.Vector):
        return T.Scalar(t.elem), t.length
    return None


def _entry_sum_factor(t: T.Type, n: E.Expr) -> E.Expr:
    """Σ_j d(e_j, e'_j) <= factor · d(m, m'): 1 for matrices (rows are summed)."""
    if isinstance(t, T.Vector):
        return T.norm_factor(t.norm, "L1", n)
    return E.ONE


def per_element(container: Value) -> C.Context:
    """How far the entries (or rows) together move: Σ_j d(e_j, e'_j) <= factor·d(m, m').

    Privacy spent on each entry is paid once per changed entry (parallel
    composition), so a norm that lets many entries change at once costs more.
    """
    found = elements(container.type)
    factor = _entry_sum_factor(container.type, found[1]) if found else E.INF
    return C.scale(factor, container.ctx)


def _need_container(a: Analysis, value: Value, span: object, name: str) -> tuple[T.Type, E.Expr] | None:
    found = elements(value.type)
    if found is None:
        a.report(span, "DPS301", f"{name}() needs a MetricVector or MetricMatrix, "  # type: ignore[arg-type]
                 f"got {value.type.show()}")
    return found


def map_rows(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """map_rows(f, m): s_f in m; what f captures, once per row."""
    f, m = bound["f"], bound["m"]
    assert f is not None and m is not None
    found = _need_container(a, m, span, "map_rows")
    if found is None:
        return unknown(m.ctx)
    element_type, count = found
    (s,), result = a.function_sensitivity(f, [element_type], span, [m], count)  # type: ignore[arg-type]
    r = result.type
    if isinstance(m.type, T.Vector):
        # Entry i of the output moves by s·d_i + t; the output keeps m's norm.
        norm = m.type.norm
        out: T.Type | None = T.Vector(norm, T.scalar_kind_of(r) or "Real", count) \
            if isinstance(r, T.Scalar) else None
        per_capture = T.norm_factor("L_inf", norm, count)
    elif isinstance(r, T.Scalar):
        out, per_capture = T.Vector("L1", r.kind, count), count
    elif isinstance(r, T.Vector):
        out, per_capture = T.Matrix(r.norm, r.elem, count, r.length, r.clip), count
    else:
        out, per_capture = None, count
    if out is None:
        a.report(span, "DPS301", f"map_rows(): f must return a number or a vector, "  # type: ignore[arg-type]
                 f"got {r.show()}")
        return unknown(C.add(m.ctx, result.ctx))
    return Value(out, C.add(C.scale(s, m.ctx), C.scale(per_capture, result.ctx)))


def fold(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """fold(f, init, m): m s1·max(1, s2)^(N−1), init s2^N, captures Σ_{j<N} s2^j."""
    f, init, m = bound["f"], bound["init"], bound["m"]
    assert f is not None and init is not None and m is not None
    found = _need_container(a, m, span, "fold")
    if found is None:
        return unknown(C.add(m.ctx, init.ctx))
    element_type, count = found
    accumulator = init.type
    # The accumulator may be held as an int (R-int-dtype): init's, or what f returns.
    held = dtypes.possible(init) is not None
    for _ in range(2):
        (s2, s1), result = a.function_sensitivity(
            f, [accumulator, element_type], span, [None, m], count, held=[held])
        joined = join_types(accumulator, result.type)
        grown = held or dtypes.possible(result) is not None
        if joined == accumulator and grown == held:
            break
        accumulator, held = joined or T.Opaque("unknown"), grown
    if join_types(accumulator, result.type) != accumulator:
        a.report(span, "DPS301", "fold(): f must return a value of the accumulator's type")  # type: ignore[arg-type]
        return unknown(C.total([m.ctx, init.ctx, result.ctx]))
    if _running_extreme(f) and T.scalar_kind_of(accumulator) in ("Real", "Integer") \
            and isinstance(accumulator, T.Scalar) and E.decide_le(s2, E.ONE) is True:
        # R-fold-extreme: the fold is max(init, E(e_0), ..., E(e_N−1)), which moves by at
        # most the largest move of its terms: each element at most m's distance (a vector
        # norm is at least its largest entry, a matrix's at least its largest row), and
        # the captures once, not N times.
        return Value(accumulator, C.join(init.ctx, C.add(C.scale(s1, m.ctx), result.ctx)))
    # Element j's change is scaled by s1 and then by s2 for each later step.
    from_elements = E.mul(E.mul(s1, E.power(E.smax(E.ONE, s2), E.add(count, E.number(-1)))),
                          _entry_sum_factor(m.type, count))
    ctx = C.add(C.scale(from_elements, m.ctx), C.scale(E.power(s2, count), init.ctx))
    ctx = C.add(ctx, C.scale(E.geometric(s2, count), result.ctx))
    return Value(accumulator, ctx)


def _running_extreme(f: Value) -> bool:
    """f is ``lambda acc, e: max(acc, E)`` (or min, np.maximum, np.minimum, either order,
    or the conditional expression R-if-extreme reads as one) with E a plain term
    (loops.plain) not reading acc: a running maximum (minimum) of E over the elements."""
    from dpsens import ir
    from dpsens.infer.loops import extreme_of, plain

    closure = getattr(f.type, "ref", None)
    node = getattr(closure, "node", None)
    if not isinstance(node, ir.Lambda) or len(node.params) != 2:
        return False
    acc = node.params[0].name
    found = extreme_of(closure.scope, node.body, acc)  # type: ignore[union-attr]
    # E must be the same function of each element: no call that may keep state
    # (a closure summing what it saw makes E(e_j) a prefix sum).
    return found is not None and acc not in ir.names_read(found[1]) \
        and plain(closure.scope, found[1])  # type: ignore[union-attr]


def count(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """count(pred, v): each entry/row that changes changes the count by at most 1."""
    from dpsens import ir
    from dpsens.infer.loops import counted_cell_variable

    pred, v = bound["pred"], bound["v"]
    assert pred is not None and v is not None
    found = _need_container(a, v, span, "count")
    if found is None:
        return unknown(v.ctx)
    node = getattr(getattr(pred.type, "ref", None), "node", None)
    cell = counted_cell_variable(a, node, v) if isinstance(node, ir.Lambda) else None
    if cell is not None:  # this iteration's cell of its loop's partition (R-loop-partition)
        return Value(T.INTEGER, C.single(cell))
    element_type, n = found
    _, result = a.function_sensitivity(pred, [element_type], span, [v], n)  # type: ignore[arg-type]
    t = v.type
    assert isinstance(t, (T.Vector, T.Matrix))
    if t.elem == "Real":
        factor = E.INF  # an entry moving by a tiny amount may flip the predicate
    elif isinstance(t, T.Matrix):
        factor = E.ONE  # a changed row is at least 1 away in any Data/Integer metric
    else:
        factor = T.norm_factor(t.norm, "L1", n)  # (L1, Data): 1; (L_inf, Data): len(v)
    # What the predicate captures may flip every entry at once.
    return Value(T.INTEGER, C.add(C.scale(factor, v.ctx), C.blow_up(result.ctx)))
