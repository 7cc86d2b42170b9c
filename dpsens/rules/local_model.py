"""Special rules of the local and shuffle models (docs/models.md).

A local randomizer's cost is charged for any change of its input (its
output distribution moves by at most e^eps whatever the input does), so
discrete inputs pay eps once, not per unit of distance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy as sp

from dpsens import types as T
from dpsens.infer.values import Value, unknown
from dpsens.privacy import ledger as L
from dpsens.rules.higher_order import elements
from dpsens.rules.mechanisms import UNBOUNDED, _positive, _statics, _unbounded
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.rules.table import Rule

Bound = dict[str, "Value | None"]


def kary_randomized_response(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """k-RR: eps for any change of a discrete value (Kairouz et al. 2016)."""
    value = bound["value"]
    assert value is not None
    if not a.require_privacy(span, "kary_randomized_response()"):
        return unknown(value.ctx)
    (eps, k), leaked = _statics(a, rule, bound, span, ("eps", "k"))
    _positive(a, bound, ("eps",))
    charges = _unbounded(leaked)
    if not (isinstance(value.type, T.Scalar) and T.is_discrete_metric(value.type)):
        a.report(span, "DPS401", "kary_randomized_response() needs an Integer, Data or Bool "
                 f"value, got {value.type.show()}")
        charges.update(_unbounded(value.ctx))
    else:
        # Any change of the value, however small the move of a variable, may cost eps.
        cost = L.Charge(eps, E.ZERO, rho=eps**2 / 2, slope=E.INF, cap=eps) \
            if eps is not None else UNBOUNDED
        for variable in value.ctx:
            charges[variable] = charges.get(variable, ()) + (cost,)
    entry = {"kind": "kary_randomized_response", "epsilon": _show(eps), "delta": "0", "k": _show(k)}
    if eps is not None and k is not None:
        entry["alpha"] = E.render(count_accuracy(eps, k, sp.Symbol("n"), a.program.options.beta))
        entry["beta"] = E.render(E.number(a.program.options.beta))
    a.spend(span, charges, entry)
    return Value(T.INTEGER)


def count_accuracy(eps: E.Expr, k: E.Expr, n: E.Expr, beta: float) -> E.Expr:
    """α of the unbiased k-RR count estimates from n reports: Hoeffding with a union bound.

    (c_j - n q)/(p - q) is a sum of n independent terms of range 1/(p - q), so
    P[some |error| > α] <= 2k exp(-2 α² (p - q)² / n) = β at the α below.
    """
    p_minus_q = (sp.exp(eps) - 1) / (sp.exp(eps) + k - 1)
    return sp.sqrt(n * sp.log(2 * k / E.number(beta)) / 2) / p_minus_q


def local_laplace(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """Clamp into [lo, hi], add Laplace((hi-lo)/eps): eps·min(1, r/(hi-lo)) for a real input."""
    x = bound["x"]
    assert x is not None
    if not a.require_privacy(span, "local_laplace()"):
        return unknown(x.ctx)
    (eps, low, high), leaked = _statics(a, rule, bound, span, ("eps", "lower", "upper"))
    _positive(a, bound, ("eps",))
    charges = _unbounded(leaked)
    if eps is None or low is None or high is None or not isinstance(x.type, T.Scalar):
        charges.update(_unbounded(x.ctx))
    else:
        width = E.absolute(high - low)
        for variable, r in x.ctx.items():
            # The clamped value moves by at most the width, and by at most r·d: a
            # share of the width, so the Laplace(width/eps) noise over that shift
            # has scale 1/(eps·share) = 1/epsilon.
            # Capped at eps, it is not linear in the distance: at most eps·r/width per
            # unit (a discrete x may jump by a whole width at any move: no such bound).
            discrete = T.is_discrete_metric(x.type)
            share = E.ONE if discrete else sp.Min(E.ONE, E.div(r, width))
            epsilon = E.mul(eps, share)
            slope = E.INF if discrete else E.div(E.mul(eps, r), width)
            charges[variable] = charges.get(variable, ()) + (
                L.Charge(epsilon, E.ZERO, rho=epsilon**2 / 2, laplace=E.div(E.ONE, epsilon),
                         slope=slope, cap=eps),)
    a.spend(span, charges, {"kind": "local_laplace", "epsilon": _show(eps), "delta": "0",
                            "scale": "inf" if eps is None or low is None or high is None
                            else E.render(E.div(E.absolute(high - low), eps))})
    return Value(T.REAL)


def shuffle(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """A local randomizer on every row, reports shuffled: the central (ε, δ) of FMT 2021
    where it applies, else parallel composition over the rows (docs/models.md)."""
    randomizer, data = bound["randomizer"], bound["data"]
    assert randomizer is not None and data is not None
    if not a.require_privacy(span, "shuffle()"):
        return unknown(data.ctx)
    found = elements(data.type)
    if found is None:
        a.report(span, "DPS301", f"shuffle() needs a vector or matrix of records, got {data.type.show()}")
        return unknown(data.ctx)
    element_type, n = found
    mark = len(a.shared.trace)
    history, others, report_type = _local_history(a, randomizer, element_type, span)
    accuracy = [e["alpha"] for e in _flatten(a.shared.trace[mark:])
                if e.get("kind") == "kary_randomized_response" and "alpha" in e]
    from dpsens.privacy.compose import basic
    from dpsens.rules.higher_order import per_element

    # FMT needs an ε0-local randomizer: ε0 bounds its cost for any two records, and
    # a neighbour must change few records (whole distances: each change is >= 1).
    local = basic(L.any_change(history, T.unit_steps(element_type)))
    central = _central(a, local, n) if T.has_whole_steps(element_type) else None
    if central is not None and central[2] != OUTSIDE:
        epsilon, delta, bound_name = central
        # One user's record is one row; a metric in which many rows move at once
        # (an L_inf vector) is a group of users.
        charges = {v: L.in_group((L.Charge(epsilon, delta),), r)
                   for v, r in per_element(data).items()}
    else:
        # The reports without the shuffle: each record used once (parallel composition,
        # as map_rows), or every record at the container's distance.
        linear = L.linear(history, T.has_whole_steps(element_type))
        if linear is not None:
            charges = {v: L.in_group(linear, r) for v, r in per_element(data).items()}
            epsilon, delta, bound_name = *basic(linear), "parallel"
        else:
            charges = {v: (L.VarLoop(n, L.in_group(history, r)),) for v, r in data.ctx.items()}
            epsilon, delta, bound_name = *basic(history), "per record"
        if central is not None:
            bound_name += f" ({central[2]})"
    a.spend(span, charges, {"kind": "shuffle", "local_epsilon": E.render(local[0]),
                            "local_delta": E.render(local[1]), "n": E.render(n),
                            "epsilon": E.render(epsilon), "delta": E.render(delta),
                            "bound": bound_name,
                            **({"alpha": E.render(sp.sympify(accuracy[0]).subs("n", n)),
                                "beta": E.render(E.number(a.program.options.beta))}
                               if len(accuracy) == 1 else {})})
    if others:
        a.ledger.items.append(L.Loop(n, tuple(others)))
    return Value(T.Vector("L1", T.scalar_kind_of(report_type) or "Real", n))


def _local_history(a: Analysis, randomizer: Value, element_type: T.Type, span: Any
                   ) -> tuple[tuple[L.VarItem, ...], list[L.Item], T.Type]:
    """What the randomizer costs one record (per unit of its distance), what it spends
    on captures, its report type."""
    from dpsens.infer.privacy import _drop

    record = a.fresh_variable("record", element_type)
    outer, a.ledger = a.ledger, L.Ledger()
    try:
        report = a.call_value(randomizer, [Value(element_type, C.single(record))], {}, span,
                              "shuffle randomizer")
        spent = a.ledger.items
    finally:
        a.ledger = outer
    others = [i for i in (_drop(item, {record}) for item in spent) if i is not None]
    if not E.is_zero(report.ctx.get(record, E.ZERO)):
        a.report(span, "DPS403", "the randomizer releases its record without noise")
        return (UNBOUNDED,), others, report.type
    return L.project(spent, record), others, report.type


OUTSIDE = "outside the FMT range"


def _central(a: Analysis, local: tuple[E.Expr, E.Expr], n: E.Expr
             ) -> tuple[E.Expr, E.Expr, str] | None:
    """Feldman–McMillan–Talwar's closed form where it applies (None: it does not)."""
    eps0, delta0 = local
    delta = E.number(a.program.options.delta_prime)
    if E.is_zero(eps0) and E.is_zero(delta0):
        return eps0, delta0, "local"  # (0, 0): the reports do not depend on the records
    if not E.is_zero(delta0) or E.is_inf(eps0):
        return None
    if eps0.is_number and n.is_number:
        from dpsens.accounting import shuffle_amplification

        epsilon, spent = shuffle_amplification(float(eps0), int(n), float(delta))
        if spent == 0:
            return eps0, E.ZERO, OUTSIDE
        return E.decimal_up(epsilon), delta, "FMT21"
    limit = sp.log(n / (16 * sp.log(4 / delta)))
    a.assume(sp.Le(eps0, limit))
    first = 8 * sp.sqrt(sp.exp(eps0) * sp.log(4 / delta) / n)
    second = 8 * sp.exp(eps0) / n
    extra = sp.log(1 + first + second)
    factor = (1 - sp.exp(-eps0)) / (1 + sp.exp(-eps0 - extra))
    return sp.log(1 + factor * (first + second)), delta, "FMT21"


def _flatten(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Trace entries, with those of called privacy functions."""
    out = []
    for entry in entries:
        out.append(entry)
        out.extend(_flatten(entry.get("mechanisms", [])))
    return out


def _show(e: E.Expr | None) -> str:
    return "inf" if e is None else E.render(e)
