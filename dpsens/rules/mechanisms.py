"""Special rules of the noise mechanisms and of sample / parallel_fold_rows (docs/privacy.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy as sp

from dpsens import types as T
from dpsens.infer import dtypes, floats, peaks
from dpsens.infer.values import LOOP_PREFIX, SAMPLE_PREFIX, Value, tuple_value, unknown
from dpsens.privacy import ledger as L
from dpsens.rules.misc import numbers_as_vector
from dpsens.rules.table import require_static
from dpsens.sym import context as C
from dpsens.sym import expr as E
from dpsens.sym import facts

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.rules.table import Rule

Bound = dict[str, "Value | None"]
UNBOUNDED = L.Charge(E.INF, E.INF)


def _statics(a: Analysis, rule: Rule, bound: Bound, span: Any, names: tuple[str, ...]
             ) -> tuple[list[E.Expr | None], C.Context]:
    """The exact values of static arguments, and the context of any that were not static.

    A numeric scale or budget that is not positive (or a delta outside (0, 1)) is
    DPS406 and leaves the value unknown, so everything noised costs (inf, inf);
    an explicit random generator is DPS407 (seeded noise is not private).
    """
    leaked: C.Context = C.EMPTY
    values: list[E.Expr | None] = []
    short = rule.qualname.split(".")[-1]
    rng = bound.get("rng")
    if rng is not None:
        a.report(span, "DPS407", f"{short}() is given a random generator: analyzed code must "
                 "use the default secure source")
        leaked = C.blow_up(a.tracked())
    for name in names:
        value = bound[name]
        assert value is not None
        leaked = C.add(leaked, require_static(a, value, name, rule, span))
        exact = _parameter(name, value)
        if exact is None and value.public and name in _POSITIVE:  # values the accounting needs
            a.report(span, "DPS305", f"the value of '{name}' in {short}() is public but not known "
                     "(a join of branches or an unsupported computation): what it noises is "
                     "charged (inf, inf); compute it from static parameters instead")
        if exact is not None and exact.is_number and name in _POSITIVE and (
                not exact.is_positive or (name == "delta" and not exact < 1)):
            a.report(span, "DPS406", f"{short}() needs {name} "
                     f"{'in (0, 1)' if name == 'delta' else '> 0'}, got {E.render(exact)}")
            exact = None
        values.append(exact)
    return values, leaked


_POSITIVE = ("s", "eps", "rho", "delta")
_COSTLIER = ("eps", "rho", "delta")  # a larger float costs more; a larger s, less


def _parameter(name: str, value: Value) -> E.Expr | None:
    """The exact value of a mechanism parameter; for a float that is not known exactly
    (R-float-static: eps - 0.1), the end of its range that costs the most."""
    if value.exact is not None or value.rounding is None:
        return value.exact
    spread = floats.spread(value.rounding)
    if name in _COSTLIER:
        return value.rounding.value + spread
    if name == "s":
        return value.rounding.value - spread
    return None


def _positive(a: Analysis, bound: Bound, names: tuple[str, ...]) -> object:
    """Mechanism parameters are positive (the runtime refuses others): assume and use it."""
    values = []
    for name in names:
        value = bound.get(name)
        exact = _parameter(name, value) if value is not None else None
        if exact is not None:
            values.append((name, exact))
    assumptions, facts = _positivity(tuple(values))
    for assumption in assumptions:
        a.assume(assumption)
    return facts


@E.remembered
def _positivity(values: tuple[tuple[str, E.Expr], ...]) -> tuple[tuple[object, ...], object]:
    """(assumptions, refine facts) of positive symbolic parameters; δ is also below 1."""
    assumptions: list[object] = []
    facts = sp.true
    for name, exact in values:
        if not exact.free_symbols:
            continue
        assumptions.append(sp.Gt(exact, 0))
        facts = facts & sp.Q.positive(exact)
        if name == "delta":
            assumptions.append(sp.Lt(exact, 1))
    return tuple(assumptions), facts


@E.remembered
def _refined(expr: E.Expr, facts: object) -> E.Expr:
    return expr if facts is sp.true else sp.refine(expr, facts)


def _unbounded(ctx: C.Context) -> dict[str, tuple[L.VarItem, ...]]:
    return {v: (UNBOUNDED,) for v, r in ctx.items() if not E.is_zero(r)}


def _entries(t: T.Type) -> E.Expr:
    if isinstance(t, T.Vector):
        return t.length
    if isinstance(t, T.Matrix):
        return E.mul(t.rows, t.cols)
    return E.ONE


def _measured(x: Value, norm: str) -> tuple[Value, C.Context] | None:
    """The value as numpy holds it, with its per-variable distance in ``norm``; None when
    its metric does not bound that norm.

    Real or integer numbers, and containers of them measured in ``norm``, are what they
    are. A tuple of real numbers is the L1 vector numpy makes of it (a tuple's distance is
    the sum of its components'). ‖·‖₂ ≤ ‖·‖₁, so an L1 container's distance bounds its
    L2 distance (a matrix's rows one by one); an L1 vector of entries with their own
    contexts (`np.array([c, c])`) moves in x by at most √(Σ_i Γ_i(x)²) in L2."""
    if isinstance(x.type, T.TupleType):
        x = numbers_as_vector(x) or x
    t = x.type
    if isinstance(t, T.Scalar):
        return (x, x.ctx) if t.kind in ("Real", "Integer") else None
    if not isinstance(t, (T.Vector, T.Matrix)) or t.elem not in ("Real", "Integer"):
        return None
    if t.norm == norm:
        return x, x.ctx
    if (t.norm, norm) != ("L1", "L2"):
        return None
    if x.parts is None or not isinstance(t, T.Vector):
        return x, x.ctx
    squares = C.total({v: E.mul(r, r) for v, r in part.ctx.items()} for part in x.parts)
    return x, {v: E.smin(r, E.sqrt(squares[v])) if v in squares else r for v, r in x.ctx.items()}


def _wrong_metric(a: Analysis, span: Any, name: str, t: T.Type, norm: str) -> None:
    hint = f"use norm_convert({norm}, x)" if isinstance(t, (T.Vector, T.Matrix)) else "undisc it"
    a.report(span, "DPS401", f"{name} needs a real number or an ({norm}, Real) container, "
             f"got {t.show()} ({hint})")


@E.remembered
def _accuracy(scale: E.Expr, entries: E.Expr, beta: float, gaussian: bool) -> str:
    """α with P[every coordinate's error <= α] >= 1 − β (SPEC §7)."""
    b = E.number(beta)
    alpha = scale * sp.sqrt(2 * sp.log(2 * entries / b)) if gaussian else scale * sp.log(entries / b)
    return E.render(alpha)


def laplace(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """Laplace(s/eps) noise: costs eps·r/s to a variable the value is r-sensitive in."""
    x = bound["x"]
    assert x is not None
    if not a.require_privacy(span, "laplace_mechanism()"):
        return unknown(x.ctx)
    (s, eps), leaked = _statics(a, rule, bound, span, ("s", "eps"))
    charges = _unbounded(leaked)
    measured = _measured(x, "L1")
    if measured is None:
        _wrong_metric(a, span, "laplace_mechanism()", x.type, "L1")
        charges.update(_unbounded(x.ctx))
    elif s is None or eps is None:
        charges.update(_unbounded(x.ctx))
    else:
        x, moves = measured
        b = E.div(s, eps)
        facts = _positive(a, bound, ("s", "eps"))
        for variable, r in moves.items():
            epsilon = _refined(E.div(E.mul(eps, r), s), facts)
            charges.setdefault(variable, ())
            charges[variable] += (L.Charge(epsilon, E.ZERO, rho=epsilon**2 / 2,
                                           laplace=E.div(b, r)),)
    scale = E.div(s, eps) if s is not None and eps is not None else E.INF
    a.spend(span, charges, {"kind": "laplace", "sensitivity": _show(s), "scale": E.render(scale),
                            "epsilon": _show(eps), "delta": "0",
                            "alpha": _accuracy(scale, _entries(x.type), a.program.options.beta, False),
                            "beta": E.render(E.number(a.program.options.beta))})
    return Value(T.with_real_entries(x.type))


def gaussian(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """Analytic Gaussian noise for (eps, delta): costs (eps, delta) when r <= s."""
    x = bound["x"]
    assert x is not None
    if not a.require_privacy(span, "gaussian_mechanism()"):
        return unknown(x.ctx)
    (s, eps, delta), leaked = _statics(a, rule, bound, span, ("s", "eps", "delta"))
    charges = _unbounded(leaked)
    _positive(a, bound, ("s", "eps", "delta"))
    sigma = _analytic_sigma(s, eps, delta)
    measured = _measured(x, "L2")
    if measured is None:
        _wrong_metric(a, span, "gaussian_mechanism()", x.type, "L2")
        charges.update(_unbounded(x.ctx))
    elif s is None or eps is None or delta is None:
        charges.update(_unbounded(x.ctx))
    else:
        x, moves = measured
        for variable, r in moves.items():
            charges[variable] = charges.get(variable, ()) + _gaussian_charge(
                a, span, variable, r, s, eps, delta, sigma)
    entry = {"kind": "gaussian", "sensitivity": _show(s), "epsilon": _show(eps),
             "delta": _show(delta), "beta": E.render(E.number(a.program.options.beta))}
    if sigma is not None:
        entry["scale"] = E.render(sigma)
        entry["alpha"] = _accuracy(sigma, _entries(x.type), a.program.options.beta, True)
    else:
        entry["scale"] = f"analytic_gaussian_sigma({_show(s)}, {_show(eps)}, {_show(delta)})"
    a.spend(span, charges, entry)
    return Value(T.with_real_entries(x.type))


def _gaussian_charge(a: Analysis, span: Any, variable: str, r: E.Expr, s: E.Expr, eps: E.Expr,
                     delta: E.Expr, sigma: E.Expr | None) -> tuple[L.VarItem, ...]:
    verdict = E.decide_le(r, s)
    given = ""
    if verdict is None:
        # Decided under the signs of the recorded assumptions, this call's own s > 0
        # among them (recorded first, by _positive): 2*abs(s) <= s never holds (D47).
        if a.decide(sp.Le(r, s)) is False:
            verdict = False
            shown = " and ".join(E.render(c) for c in facts.reasons(sp.Le(r, s),
                                                                     tuple(a.assumptions)))
            given = f", which is less whenever {shown}"
    if verdict is False:
        message = (f"the noised value is {E.render(r)}-sensitive in {{}} but "
                   f"gaussian_mechanism() was given s = {E.render(s)}{given}")
        if variable.startswith(LOOP_PREFIX):  # a carried value: wrong only if it is sensitive
            a.shared.deferred.append((variable, span, "DPS402", message))
        else:
            a.report(span, "DPS402", message.format(f"'{variable}'"))
        return (UNBOUNDED,)
    if verdict is None:
        a.assume(sp.Le(r, s))
    # A symbolic σ still marks the charge as Gaussian (parallel composition over rows
    # holds for it); a call site that makes s, ε and δ numbers makes σ a number.
    multiplier = E.div(sigma if sigma is not None else AnalyticGaussianSigma(s, eps, delta), r)
    rho = None if sigma is None else E.div(E.ONE, 2 * multiplier**2)
    return (L.Charge(eps, delta, rho=rho, gaussian=multiplier),)


class AnalyticGaussianSigma(sp.Function):
    """σ of the analytic Gaussian for (s, ε, δ), a number once all three are numbers."""

    nargs = 3

    @classmethod
    def eval(cls, s: E.Expr, eps: E.Expr, delta: E.Expr) -> E.Expr | None:  # noqa: D102
        if not (eps.is_number and delta.is_number):
            return None
        # s·σ(1, ε, δ) for a symbolic s: a callee's gaussian_mechanism(2/rows(m), eps,
        # delta) given numbers for eps and delta has σ/r a number (its ρ) at the call.
        return _analytic_sigma(s, eps, delta)  # None (invalid numbers) stays unevaluated

    def _sympystr(self, printer: Any) -> str:
        return f"analytic_gaussian_sigma({', '.join(printer._print(a) for a in self.args)})"


def _analytic_sigma(s: E.Expr | None, eps: E.Expr | None, delta: E.Expr | None) -> E.Expr | None:
    """σ for (s, ε, δ): s·σ(1, ε, δ), since the Gaussian's privacy curve depends on s/σ only,
    so a symbolic s (``2/rows(xs)``) still gives σ/r a number where r is s."""
    if s is None or eps is None or delta is None or not (eps.is_number and delta.is_number):
        return None
    from dpsens.accounting import analytic_gaussian_sigma

    try:
        if s.is_number:
            return E.number(analytic_gaussian_sigma(float(s), float(eps), float(delta)))
        return E.mul(s, E.number(analytic_gaussian_sigma(1.0, float(eps), float(delta))))
    except (ValueError, OverflowError):  # (no float sigma: the runtime refuses these numbers)
        return None


def gaussian_zcdp(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """N(0, s²/(2ρ)) noise: ρ·(r/s)²-zCDP for a value r-sensitive in a variable."""
    x = bound["x"]
    assert x is not None
    if not a.require_privacy(span, "gaussian_mechanism_zcdp()"):
        return unknown(x.ctx)
    (s, rho), leaked = _statics(a, rule, bound, span, ("s", "rho"))
    charges = _unbounded(leaked)
    delta_prime = E.number(a.program.options.delta_prime)
    measured = _measured(x, "L2")
    if measured is None:
        _wrong_metric(a, span, "gaussian_mechanism_zcdp()", x.type, "L2")
        charges.update(_unbounded(x.ctx))
    elif s is None or rho is None:
        charges.update(_unbounded(x.ctx))
    else:
        x, moves = measured
        sigma = _zcdp_sigma(s, rho)
        facts = _positive(a, bound, ("s", "rho"))
        for variable, r in moves.items():
            spent = _refined(E.mul(rho, (r / s) ** 2), facts)
            epsilon = _zcdp_epsilon(spent, delta_prime)
            charges[variable] = charges.get(variable, ()) + (
                L.Charge(epsilon, delta_prime, rho=spent, gaussian=E.div(sigma, r),
                         native_zcdp=True),)
    sigma_text = "inf" if s is None or rho is None else E.render(_zcdp_sigma(s, rho))
    entry = {"kind": "gaussian_zcdp", "sensitivity": _show(s), "rho": _show(rho), "scale": sigma_text,
             "beta": E.render(E.number(a.program.options.beta))}
    if s is not None and rho is not None:
        entry["alpha"] = _accuracy(_zcdp_sigma(s, rho), _entries(x.type),
                                   a.program.options.beta, True)
    a.spend(span, charges, entry)
    return Value(T.with_real_entries(x.type))


@E.remembered
def _zcdp_sigma(s: E.Expr, rho: E.Expr) -> E.Expr:
    """The noise scale s/√(2ρ) of the zCDP Gaussian."""
    return E.div(s, E.sqrt(2 * rho))


@E.remembered
def _zcdp_epsilon(rho: E.Expr, delta_prime: E.Expr) -> E.Expr:
    """ρ-zCDP as (ε, δ'): ρ + 2√(ρ ln(1/δ')) (Bun–Steinke); the zCDP accountant does better."""
    return rho + 2 * sp.sqrt(rho * sp.log(1 / delta_prime))


def _pure(a: Analysis, span: Any, kind: str, eps: E.Expr | None, s: E.Expr | None,
          ctx: C.Context, leaked: C.Context, extra: dict[str, str]) -> None:
    """Charge eps·r/s (pure DP, linear in the distance) to every variable of ctx."""
    charges = _unbounded(leaked)
    facts = _positive(a, {"s": Value(T.REAL, exact=s), "eps": Value(T.REAL, exact=eps)},
                      ("s", "eps"))
    for variable, r in ctx.items():
        if eps is None or s is None:
            charges[variable] = (UNBOUNDED,)
            continue
        epsilon = _refined(E.div(E.mul(eps, r), s), facts)
        charges[variable] = charges.get(variable, ()) + (L.Charge(epsilon, E.ZERO, rho=epsilon**2 / 2),)
    a.spend(span, charges, {"kind": kind, "sensitivity": _show(s), "epsilon": _show(eps),
                            "delta": "0", **extra})


def exponential(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """Exponential mechanism: costs eps·r/s, r the utility's sensitivity in the variable."""
    data, utility = bound["data"], bound["utility"]
    assert data is not None and utility is not None
    if not a.require_privacy(span, "exponential_mechanism()"):
        return unknown(data.ctx)
    (s, eps, _), leaked = _statics(a, rule, bound, span, ("s", "eps", "candidates"))
    # The utility is compared on neighbouring data for each public candidate in turn: at
    # each known candidate, the largest of those moves (|c − 5|·count is 5 over (0, 10),
    # where the candidates' interval gives 15); else at any number of their interval.
    in_data, captured, data_typed = E.ZERO, C.EMPTY, False
    for candidate in _candidates(bound["candidates"]):
        before = dict(a.env)
        (moved, _), scored = a.function_sensitivity(utility, [data.type, T.REAL], span,
                                                    given={1: candidate}, writes_reported=False)
        if a.changed_since(before):
            # It writes into what it captures: analyzed once, it runs once per candidate,
            # each run reading what the last one wrote (a running total makes the k-th
            # score k·u).
            a.report(span, "DPS405", "the utility given to exponential_mechanism() changes "
                     "values it captures, and runs once per candidate: its scores are not bounded")
            in_data, captured = E.INF, C.blow_up(C.add(scored.ctx, data.ctx))
            break
        in_data, captured = a.larger(in_data, moved), C.join(captured, scored.ctx)
        data_typed |= _has_data(scored.type)
    if data_typed:
        # A Data utility is 1 away from any other: it may move by any amount (K25).
        in_data = E.INF if data.ctx else in_data
        captured = C.blow_up(captured)
    ctx = C.add(C.scale(in_data, data.ctx), captured)
    _pure(a, span, "exponential", eps, s, ctx, leaked, {})
    return Value(_candidate_type(bound["candidates"]))


def _candidates(candidates: Value | None) -> list[Value]:
    """The candidates as the utility gets them: each known number of a short tuple of
    them; else one public number between the least and the greatest of a tuple of known
    numbers (R-range), or any public number."""
    parts = candidates.parts if candidates is not None else None
    held = [floats.float_of(p) for p in parts or () if not p.zero_d]  # the floats themselves
    values = [v for v in held if v is not None]
    if not parts or len(values) != len(parts):
        return [Value(T.REAL)]
    if len(parts) <= ONE_BY_ONE and all(p.public and p.exact is not None for p in parts):
        return list(parts)
    lo, hi = min(values), max(values)
    return [Value(_candidate_type(candidates), C.EMPTY, bound=E.smax(abs(lo), abs(hi)),
                  interval=(lo, hi))]


ONE_BY_ONE = 32  # candidates the utility is analyzed at one by one, at most


def _candidate_type(candidates: Value | None) -> T.Type:
    """A public number when the candidates are a tuple of numbers (so that the release
    can be post-processed: ``2.0 * m``); an opaque candidate otherwise."""
    kinds = {t.kind if isinstance(t, T.Scalar) else None
             for t in getattr(getattr(candidates, "type", None), "elts", (None,))}
    if kinds and kinds <= {"Integer", "Real"}:
        return T.INTEGER if kinds == {"Integer"} else T.REAL
    return T.Opaque("candidate")


def report_noisy_max(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """Report noisy max: costs eps·r/s, r bounding the move of every single score."""
    scores = bound["scores"]
    assert scores is not None
    if not a.require_privacy(span, "report_noisy_max()"):
        return unknown(scores.ctx)
    (s, eps), leaked = _statics(a, rule, bound, span, ("s", "eps"))
    ctx = _largest_score_move(scores)
    extra = {"scale": "inf"}
    if s is not None and eps is not None:
        # Every noise is within b·ln(k/β) with probability 1 − β, so the chosen score is
        # within twice that of the largest one.
        scale, count = E.div(2 * s, eps), _score_count(scores.type)
        extra = {"scale": E.render(scale),
                 "alpha": _accuracy(2 * scale, count, a.program.options.beta, False),
                 "beta": E.render(E.number(a.program.options.beta))}
    _pure(a, span, "report_noisy_max", eps, s, ctx, leaked, extra)
    return Value(T.INTEGER)


def _score_count(t: T.Type) -> E.Expr:
    """How many scores a report_noisy_max compares."""
    return E.number(len(t.elts)) if isinstance(t, T.TupleType) else _entries(t)


def _largest_score_move(scores: Value) -> C.Context:
    """Per variable, a bound on how far any one score moves (docs/privacy.md §1.5).

    Every entry of a vector or matrix moves by at most its distance, in every
    norm. A score of a tuple is a score of one part, so the per-variable
    maximum over the parts bounds it: (count₁, count₂, count₃) is 1 in m, not
    3. A tuple without its parts, or whose context is more than the parts add
    up to, falls back to its distance (the sum of the parts'). Data values have
    no bounded numeric move: ∞.
    """
    parts = scores.parts  # a tuple's parts, or the entries np.array made a vector of
    if parts is not None and isinstance(scores.type, (T.TupleType, T.Vector)) and parts and all(
            E.decide_le(r, C.total(p.ctx for p in parts).get(v, E.ZERO)) is True
            for v, r in scores.ctx.items()):
        moves = [_largest_score_move(p) for p in parts]
        largest = moves[0]
        for move in moves[1:]:
            largest = C.join(largest, move)
        return largest
    if _has_data(scores.type):
        return C.blow_up(scores.ctx)
    return peaks.largest_entry_move(scores) or scores.ctx


def _has_data(t: T.Type) -> bool:
    """Whether a value holds Data numbers (of a discrete metric: any numeric move)."""
    if isinstance(t, T.TupleType):
        return any(_has_data(e) for e in t.elts)
    return T.scalar_kind_of(t) == "Data"


def above_threshold(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """Sparse vector (AboveThreshold): c-sensitive queries (c <= 1) cost eps·c per unit of data."""
    queries, data = bound["queries"], bound["data"]
    assert queries is not None and data is not None
    if not a.require_privacy(span, "above_threshold()"):
        return unknown(data.ctx)
    (eps, _), leaked = _statics(a, rule, bound, span, ("eps", "threshold"))
    functions = queries.parts if queries.parts is not None else (queries,)
    worst, captured = E.ZERO, C.EMPTY
    for query in functions:
        (s_q,), result = a.function_sensitivity(query, [data.type], span)
        if _has_data(result.type):  # a Data query may move by any amount (K25)
            s_q = E.INF
        worst = E.smax(worst, s_q)
        captured = C.add(captured, result.ctx)
    # Noise calibrated for 1-sensitive queries: with c-sensitive ones (c <= 1) the
    # algorithm is the one calibrated for c at eps·c, so the charge is eps·c·d.
    ctx = C.scale(worst, data.ctx)
    if E.decide_le(worst, E.ONE) is not True or captured:
        inputs = sorted(v for v in captured if not v.startswith("@"))
        reason = f"these are {E.render(worst)}-sensitive" if E.decide_le(worst, E.ONE) is not True \
            else "these also read " + (", ".join(f"'{v}'" for v in inputs) if inputs
                                       else "values that depend on inputs") + " besides data"
        a.report(span, "DPS404", f"above_threshold() needs 1-sensitive queries in data; {reason}")
        ctx = C.blow_up(C.add(data.ctx, captured))
    _pure(a, span, "above_threshold", eps, E.ONE, ctx, leaked, {"queries": str(len(functions))})
    return Value(T.INTEGER)


def randomized_response(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """Randomized response on a discrete bit: costs eps (an eps-local randomizer)."""
    bit = bound["bit"]
    assert bit is not None
    if not a.require_privacy(span, "randomized_response()"):
        return unknown(bit.ctx)
    (eps,), leaked = _statics(a, rule, bound, span, ("eps",))
    _positive(a, bound, ("eps",))
    ctx = bit.ctx
    if not (isinstance(bit.type, T.Scalar) and T.is_discrete_metric(bit.type)):
        a.report(span, "DPS401", f"randomized_response() needs a Data or Bool bit, got {bit.type.show()}")
        ctx = C.blow_up(ctx)
    charges = _unbounded(leaked)
    for variable, r in ctx.items():
        # eps for any flip of the bit, however small the move that flips it; and however
        # large the move, one bit flips at most once (RR's output depends on the bit only),
        # so a Bool a comparison of a real made costs eps too.
        cost = L.Charge(eps, E.ZERO, rho=eps**2 / 2, slope=E.INF, cap=eps) \
            if eps is not None else UNBOUNDED
        one_bit = T.scalar_kind_of(bit.type) == "Bool" and not E.is_zero(r)
        charges[variable] = charges.get(variable, ()) + ((cost,) if one_bit else L.in_group((cost,), r))
    a.spend(span, charges, {"kind": "randomized_response", "epsilon": _show(eps), "delta": "0"})
    return Value(bit.type)


def sample(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """k rows without replacement of m1 and m2: spends on them are amplified by q = k/rows."""
    m1, m2 = bound["m1"], bound["m2"]
    assert m1 is not None and m2 is not None
    if not a.require_privacy(span, "sample()"):
        return unknown(C.add(m1.ctx, m2.ctx))
    (k,), leaked = _statics(a, rule, bound, span, ("k",))
    population = _rows(m1.type)
    if k is None or population is None or leaked:
        a.report(span, "DPS301", "sample() needs a static k and a vector or matrix")
        return unknown(C.total([m1.ctx, m2.ctx, leaked]))
    if (k.is_number and not k.is_positive) or E.decide_le(k, population) is False:
        a.report(span, "DPS406", f"sample() needs 0 < k <= rows, got k = {E.render(k)} of "
                 f"{E.render(population)}")
        return unknown(C.total([m1.ctx, m2.ctx]))
    if k.free_symbols:  # the runtime refuses k < 1; callers are checked against it (DPS306)
        a.assume(sp.Ge(k, 1))
    if not all(T.unit_rows(value.type) for value in (m1, m2)):
        # Amplification needs the body private against replacing a row of the sample by
        # any other row, in both outputs at once, which costs more than a neighbour's
        # change (K12, K26): each output is a sub-matrix (a sub-vector), as close as the
        # whole. A public output shows which rows were drawn, which no other output may
        # then hide.
        for value in (m1, m2):
            if not T.unit_rows(value.type) and not value.public:
                a.report(span, "DPS408", f"sample() of {value.type.show()} is not amplified: "
                         f"{_why_not_amplified(value.type)}")
            elif not T.unit_rows(value.type) and not (m1.public and m2.public):
                a.report(span, "DPS408", f"sample() is not amplified: the public "
                         f"{value.type.show()} it samples shows which rows were drawn")
        return tuple_value(tuple(Value(_with_rows(v.type, k), v.ctx) for v in (m1, m2)))
    # One row drawn is one row of each output, which move together: one variable stands
    # for the sample, and its spends are amplified as one (a release of both outputs
    # pays for replacing the row in both). A change of a source reaches the sample
    # through both outputs, in different rows unless they are the same array.
    pseudo = a.fresh_variable(SAMPLE_PREFIX[1:], _with_rows(m1.type, k))
    a.open_sample(_scope(k, population, {pseudo: _joint_source(m1, m2)}))
    # Each output is the sample itself, row by row (input_of): row i of both is the i-th
    # drawn record, one joint row of the pseudo variable (R-parts, R-loop-elements).
    return tuple_value(tuple(Value(_with_rows(v.type, k), C.single(pseudo), input_of=pseudo)
                             for v in (m1, m2)))


def _joint_source(m1: Value, m2: Value) -> C.Context:
    """How far the joint rows of sample(k, m1, m2) move per unit of each source: the two
    outputs' distances added, since a change may reach them in different rows; the larger
    of the two where both read each row of the source from that row alone (R-rowwise:
    ``X = data[:, :-1]``, ``y = data[:, -1]``), since a changed record then changes one
    row of each, the same joint row (review35: Duet's sample(b, X, y) paid a group of 2)."""
    if m1 is m2:
        return m1.ctx
    joint = dict(C.add(m1.ctx, m2.ctx))
    rows1, rows2 = m1.rowwise, m2.rowwise
    if rows1 is None or rows2 is None or rows1.by_column or rows2.by_column:
        return joint
    for name in rows1.params & rows2.params:
        if name in m1.ctx and name in m2.ctx:
            joint[name] = E.smax(m1.ctx[name], m2.ctx[name])
    return joint


def _why_not_amplified(t: T.Type) -> str:
    if isinstance(t, T.Vector) and t.norm != "L1":
        return "a neighbour at distance 1 may change every entry"
    return "its rows may be more than 1 apart (sample the records, Data rows in L_inf, " \
           "and clip after sampling)"


def _scope(k: E.Expr, population: E.Expr, sources: dict[str, C.Context]):  # type: ignore[no-untyped-def]
    from dpsens.infer.privacy import SampleScope

    return SampleScope(k, population, sources)


def _rows(t: T.Type) -> E.Expr | None:
    if isinstance(t, T.Matrix):
        return t.rows
    if isinstance(t, T.Vector):
        return t.length
    return None


def _with_rows(t: T.Type, k: E.Expr) -> T.Type:
    if isinstance(t, T.Matrix):
        return T.Matrix(t.norm, t.elem, k, t.cols, t.clip)
    if isinstance(t, T.Vector):
        return T.Vector(t.norm, t.elem, k, t.clip)
    return t


def parallel_fold_rows(a: Analysis, rule: Rule, bound: Bound, span: Any) -> Value:
    """acc = f(acc, r1, r2) over disjoint rows: each row's cost is paid once (parallel composition)."""
    f, init, m1, m2 = bound["f"], bound["init"], bound["m1"], bound["m2"]
    assert f is not None and init is not None and m1 is not None and m2 is not None
    if not a.require_privacy(span, "parallel_fold_rows()"):
        return unknown(C.total([init.ctx, m1.ctx, m2.ctx]))
    rows_1, rows_2 = _rows(m1.type), _rows(m2.type)
    if rows_1 is None or rows_2 is None:
        a.report(span, "DPS301", "parallel_fold_rows() needs vectors or matrices")
        return unknown(C.total([init.ctx, m1.ctx, m2.ctx]))
    row_types = [_row(m1.type), _row(m2.type)]
    names = [a.fresh_variable("acc", init.type)] + [a.fresh_variable("row", t) for t in row_types]
    # (the accumulator held as an int where init may be, R-int-dtype)
    args = [Value(init.type, C.single(names[0]), integral=dtypes.possible(init))] + \
        [Value(t, C.single(n)) for t, n in zip(row_types, names[1:])]
    outer = a.ledger
    a.ledger = L.Ledger()
    try:
        result = a.call_value(f, args, {}, span, "parallel_fold_rows function")
        # What f returns without noise is released: an inline-analyzed closure returns
        # it as is (an analyzed privacy function was charged for it in its summary).
        released = {v: (UNBOUNDED,) for v, r in result.ctx.items() if not E.is_zero(r)}
        origins = {names[0]: init.ctx, names[1]: m1.ctx, names[2]: m2.ctx}
        if any(origins.get(v, True) for v in released):  # a public init releases nothing
            a.report(span, "DPS403", "the function given to parallel_fold_rows() returns a value "
                     "that depends on its accumulator or rows without noise: it is released")
        a.ledger.charge(released)
        spent = a.ledger.items
    finally:
        a.ledger = outer
    # A row's charges are paid once when linear in the distance, else every row at the
    # matrix's distance (privacy.paid_once); the accumulator's once by init.
    from dpsens.infer.privacy import _drop, paid_once

    once, each = paid_once(spent, [(names[1 + i], row_types[i], (m1, m2)[i]) for i in (0, 1)],
                           set(names))
    paid: list[L.Item] = [L.Event({names[0]: L.project(spent, names[0])})]
    moves = {names[0]: dict(init.ctx)}
    for name, history, distance in once:
        paid.append(L.Event({name: history}))
        moves[name] = dict(distance)
    outer.items.extend(L.retarget(paid, moves))
    # What f spends on captured values (an event may charge them and a row together),
    # and on rows that pay per row, every row.
    captured = [i for i in (_drop(item, set(names)) for item in spent) if i is not None]
    captured += L.retarget(spent, each)
    if captured:
        outer.items.append(L.Loop(rows_1, tuple(captured)))
    return Value(result.type)


def _row(t: T.Type) -> T.Type:
    if isinstance(t, T.Matrix):
        return T.Vector(t.norm, t.elem, t.cols, t.clip)
    if isinstance(t, T.Vector):
        return T.Scalar(t.elem)
    return t


def _show(e: E.Expr | None) -> str:
    return "inf" if e is None else E.render(e)
