"""Composition of a variable's history: the best sound (ε, δ) among several theorems.

- basic: sequential composition, k-fold for loops, max for public branches,
  amplification by subsampling without replacement (Balle–Barthe–Gaboardi 2018,
  Thm 9: log(1 + q(e^ε − 1)), qδ) and group privacy; always available, symbolic;
- advanced: the full Dwork–Rothblum–Vadhan bound for each loop, where numeric;
- amplified: a sample's body accounted with the best method before amplification
  (the theorem holds for any (ε, δ)), where numeric;
- zCDP: Gaussian and pure-ε charges as ρ, converted with Canonne–Kamath–Steinke;
- gdp: histories of Gaussian charges only are μ-GDP with μ = √(Σ μᵢ²), whose
  (ε, δ) curve is exact; no accountant can do better, so dp-accounting is skipped;
- rdp / pld: Google's dp-accounting, where every number is known.

A method other than basic must lower ε by at least 1% to be chosen, so that a
pure-DP result is not traded for a δ to gain nothing, and its δ may exceed basic
composition's by at most δ' (the slack δ' is configured for).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import sympy as sp

from dpsens.privacy.ledger import (Charge, VarChoice, VarGroup, VarItem, VarLoop, VarSampled,
                                   every_charge)
from dpsens.sym import expr as E

IMPROVEMENT = 0.99


@dataclass(frozen=True)
class Cost:
    """A total (ε, δ) and the theorem that gave it."""

    epsilon: E.Expr
    delta: E.Expr
    method: str


@E.remembered  # functions of a codebase repeat the same histories; each costs ~0.1 ms of sympy
def account(history: tuple[VarItem, ...], delta_prime: float) -> Cost:
    """The best sound (ε, δ) for one variable's history."""
    epsilon, delta = basic(history)
    best = Cost(epsilon, delta, "sequential" if not _has_loop(history) else "basic")
    vacuous = _numeric(delta) and float(delta) >= 1  # every mechanism is (0, 1)-DP
    if not vacuous and (not _numeric(epsilon) or E.is_inf(epsilon) or E.is_zero(epsilon)):
        return _symbolic_zcdp(history, delta_prime) or best
    exact = _attempt(_gaussian_dp, history, delta_prime)
    # A part of a release (ledger.increment) adds up only in ε, δ, ρ and μ²: the theorems
    # that compose mechanisms one by one would take it for a mechanism of its own (K30).
    whole = every_charge(history, lambda c: not c.part, through_samples=True)
    candidates = [_attempt(_advanced, history, delta_prime) if whole else None,
                  _attempt(_amplified_best, history, delta_prime)]
    # The exact curve is below zCDP, RDP and PLD at the same δ', so they need not run.
    candidates += [exact] if exact is not None else [
        _attempt(_zcdp, history, delta_prime),
        *((_attempt(lambda h, d: tuple(_dp_accounting(h, d)), history, delta_prime) or ())
          if whole else ()),
        # After PLD: Laplace's own loss distribution is below the worst pure mechanism's.
        _attempt(_pure_optimal, history, delta_prime) if whole else None,
        _attempt(_split, history, delta_prime)]
    # The other theorems spend δ' beyond the charges' own δ (advanced composition: kδ + δ'):
    # up to that much more than basic composition's δ is what δ' is configured for.
    limit = (float(delta) if _numeric(delta) else 0.0) + delta_prime + 1e-15
    for candidate in candidates:
        if candidate is None or not _numeric(candidate.epsilon):
            continue
        if float(best.delta) >= 1 > float(candidate.delta):
            best = candidate  # any bound with δ < 1 says more than a vacuous one
            continue
        better = float(candidate.epsilon) < IMPROVEMENT * float(best.epsilon)
        if better and float(candidate.delta) <= max(float(best.delta), limit):
            best = candidate
    return best


def account_within(history: tuple[VarItem, ...], delta_prime: float, limit: float) -> Cost:
    """The best sound (ε, δ) with δ at most a budget's ``limit``, where one is known; else
    ``account``'s. The budget is checked at its own δ: a Gaussian (0.5, 1e-9) fits a budget
    (0.5, 1e-9), though at δ′ = 1e-5 a smaller ε is reported."""
    epsilon, spent = basic(history)
    tries = [limit, limit - float(spent)] if _numeric(spent) else [limit]
    fitting = [cost for cost in (account(history, d) for d in tries if d > 0)
               if _numeric(cost.delta) and float(cost.delta) <= limit]
    if _numeric(spent) and float(spent) <= limit:
        fitting.append(Cost(epsilon, spent, "sequential" if not _has_loop(history) else "basic"))
    fitting = [c for c in fitting if _numeric(c.epsilon)]
    if not fitting:
        return account(history, delta_prime)
    return min(fitting, key=lambda c: float(c.epsilon))


def _attempt(theorem: Any, history: tuple[VarItem, ...], delta_prime: float) -> Any:
    """A numeric theorem's bound, or None when its floats cannot hold these numbers
    (ε = 1e200 squares to inf: the accountants refuse it with a ValueError, which was an
    internal error); basic composition, exact, still stands."""
    try:
        return theorem(history, delta_prime)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None


def basic(history: tuple[VarItem, ...]) -> tuple[E.Expr, E.Expr]:
    """Sequential composition with the per-construct rules of the module docstring."""
    epsilon, delta = E.ZERO, E.ZERO
    for item in history:
        e, d = _basic_item(item)
        epsilon, delta = E.add(epsilon, e), E.add(delta, d)
    return epsilon, delta


def _basic_item(item: VarItem) -> tuple[E.Expr, E.Expr]:
    if isinstance(item, Charge):
        return item.epsilon, item.delta
    if isinstance(item, VarLoop):
        e, d = basic(item.body)
        return E.mul(item.count, e), E.mul(item.count, d)
    if isinstance(item, VarChoice):
        (e1, d1), (e2, d2) = basic(item.branches[0]), basic(item.branches[1])
        return E.smax(e1, e2), E.smax(d1, d2)
    if isinstance(item, VarSampled):
        e, d = basic(item.body)
        return subsampled(e, d, E.div(item.size, item.population))
    assert isinstance(item, VarGroup)
    e, d = basic(item.body)
    return group(e, d, item.distance)


def subsampled(epsilon: E.Expr, delta: E.Expr, q: E.Expr) -> tuple[E.Expr, E.Expr]:
    """Amplification by sampling without replacement (substitution neighbours)."""
    if E.is_inf(epsilon):
        return E.INF, E.INF if not E.is_zero(delta) else E.ZERO
    return sp.log(1 + q * (sp.exp(epsilon) - 1)), E.mul(q, delta)


def group(epsilon: E.Expr, delta: E.Expr, distance: E.Expr) -> tuple[E.Expr, E.Expr]:
    """Group privacy over g = ceil(distance) steps: (gε, g·e^((g−1)ε)·δ)."""
    g = sp.ceiling(distance)
    if E.is_zero(delta):
        return E.mul(g, epsilon), E.ZERO
    return E.mul(g, epsilon), E.mul(E.mul(g, sp.exp((g - 1) * epsilon)), delta)


def _has_loop(history: tuple[VarItem, ...]) -> bool:
    return any(isinstance(i, (VarLoop, VarSampled)) or
               (isinstance(i, (VarChoice,)) and any(_has_loop(b) for b in i.branches)) or
               (isinstance(i, VarGroup) and _has_loop(i.body)) for i in history)


def _numeric(e: E.Expr) -> bool:
    """A finite number floats can take: not a function of numbers left unevaluated (the
    analytic Gaussian's sigma where no float holds it)."""
    if isinstance(e, sp.Number):
        return not e.has(sp.oo)
    return bool(e.is_number) and not e.has(sp.oo) and e.evalf().is_Number


# -- advanced composition ----------------------------------------------------------


def _advanced(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """Basic composition, but each loop takes DRV advanced composition when it is better."""
    used = [False]

    def total(items: tuple[VarItem, ...]) -> tuple[float, E.Expr]:
        # (δ is summed exactly: 100·10⁻⁶ + 10⁻⁵ is 11/10⁵, not a float just below it)
        epsilon, delta = 0.0, E.ZERO
        for item in items:
            if isinstance(item, VarLoop) and _numeric(item.count):
                e, d = total(item.body)
                k = int(item.count)
                drv = e * (2 * k * _log(1 / delta_prime)) ** 0.5 + k * e * _expm1(e)
                if drv < k * e:
                    used[0] = True
                    epsilon = epsilon + drv
                    delta = E.add(delta, E.add(E.mul(E.number(k), d), E.number(delta_prime)))
                else:
                    epsilon, delta = epsilon + k * e, E.add(delta, E.mul(E.number(k), d))
            else:
                e_sym, d_sym = _basic_item(item)
                if not (_numeric(e_sym) and _numeric(d_sym)):
                    raise ValueError("symbolic")
                epsilon, delta = epsilon + float(e_sym), E.add(delta, d_sym)
        return epsilon, delta

    try:
        epsilon, delta = total(history)
    except (ValueError, OverflowError):
        return None
    return Cost(E.decimal_up(epsilon), delta, "advanced") if used[0] else None


def _amplified_best(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """Basic composition, but each sample's or group's body is first accounted with the
    best method (amplification holds for any (ε, δ)-DP mechanism run on the sample, and
    group privacy for any (ε, δ)-DP mechanism: a sampled callee called with 2*m);
    numeric only."""
    epsilon, delta, improved = E.ZERO, E.ZERO, False
    method = "group" if not any(isinstance(i, VarSampled) for i in history) else "amplified"
    for item in history:
        if isinstance(item, (VarSampled, VarGroup)) and _has_loop(item.body):
            inner = account(item.body, delta_prime)
            improved = improved or inner.method not in ("sequential", "basic")
            if isinstance(item, VarSampled):
                e, d = subsampled(inner.epsilon, inner.delta, E.div(item.size, item.population))
            else:
                e, d = group(inner.epsilon, inner.delta, item.distance)
        else:
            e, d = _basic_item(item)
        epsilon, delta = E.add(epsilon, e), E.add(delta, d)
    if not improved or not (_numeric(epsilon) and _numeric(delta)):
        return None
    return Cost(E.decimal_up(float(epsilon)), delta, method)


def _log(x: float) -> float:
    import math

    return math.log(x)


def _expm1(x: float) -> float:
    import math

    return math.expm1(x) if x < 700 else float("inf")


# -- zero-concentrated DP ----------------------------------------------------------


def _rho(history: tuple[VarItem, ...]) -> float | None:
    """Total ρ when every charge has a zCDP form, and every sample amplifies to pure DP."""
    return _total(history, lambda c: float(c.rho) if c.rho is not None and _numeric(c.rho)
                  else None, _sampled_rho)


def _sampled_rho(item: VarSampled) -> float | None:
    """ρ of a sample whose amplified body is pure ε′-DP: ε′²/2 (Bun–Steinke 2016,
    Prop 1.4: ε-DP implies ε²/2-zCDP), as for a Laplace charge."""
    epsilon, delta = _basic_item(item)
    if not (_numeric(epsilon) and E.is_zero(delta)):
        return None
    return float(epsilon) ** 2 / 2


def _total(history: tuple[VarItem, ...], per_charge: Callable[[Charge], float | None],
           per_sample: Callable[[VarSampled], float | None] | None = None) -> float | None:
    """Σ of a per-charge ρ or μ²: loops multiply it, public branches take the larger, a
    group of distance d multiplies it by ⌈d⌉²; None when a charge has none, a count or
    distance is symbolic, or the history samples (unless ``per_sample`` prices it)."""
    total = 0.0
    for item in history:
        part: float | None = None
        if isinstance(item, Charge):
            part = per_charge(item)
        elif isinstance(item, VarSampled) and per_sample is not None:
            part = per_sample(item)
        elif isinstance(item, VarLoop):
            inner = _total(item.body, per_charge, per_sample)
            if inner is not None and _numeric(item.count):
                part = float(item.count) * inner
        elif isinstance(item, VarGroup):
            # ρ-zCDP is ⌈d⌉²ρ-zCDP for neighbours d steps apart (Bun–Steinke 2016, Prop 27);
            # a Gaussian's μ grows by d ≤ ⌈d⌉ with the shift.
            inner = _total(item.body, per_charge, per_sample)
            if inner is not None and _numeric(item.distance):
                part = float(_group_squared(item)) * inner
        elif isinstance(item, VarChoice):
            a, b = (_total(branch, per_charge, per_sample) for branch in item.branches)
            if a is not None and b is not None:
                part = max(a, b)
        if part is None:
            return None
        total += part
    return total


def _group_squared(group: VarGroup) -> E.Expr:
    """What a group of distance d multiplies ρ and μ² by: d² when every charge in it is a
    Gaussian mechanism (noise calibrated to a sensitivity: a shift d times as far is
    exactly d times the μ), ⌈d⌉² otherwise (ρ-zCDP over ⌈d⌉ steps, Bun–Steinke Prop 27)."""
    if _gaussians_only(group.body):
        return E.mul(group.distance, group.distance)
    return sp.ceiling(group.distance) ** 2


def _gaussians_only(history: tuple[VarItem, ...]) -> bool:
    return every_charge(history, lambda c: c.gaussian is not None and c.laplace is None)


def _symbolic_rho(history: tuple[VarItem, ...]) -> E.Expr | None:
    """Total ρ of a history made only of zCDP-native charges (symbolic counts allowed)."""
    total = E.ZERO
    for item in history:
        if isinstance(item, Charge) and item.native_zcdp and item.rho is not None:
            total = E.add(total, item.rho)
        elif isinstance(item, VarLoop):
            inner = _symbolic_rho(item.body)
            if inner is None:
                return None
            total = E.add(total, E.mul(item.count, inner))
        elif isinstance(item, VarChoice):
            parts = [_symbolic_rho(b) for b in item.branches]
            if parts[0] is None or parts[1] is None:
                return None
            total = E.add(total, E.smax(parts[0], parts[1]))
        elif isinstance(item, VarGroup):
            inner = _symbolic_rho(item.body)
            if inner is None:
                return None
            total = E.add(total, E.mul(_group_squared(item), inner))
        else:
            return None
    return total


def _symbolic_zcdp(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """For Gaussian (zCDP) histories: ρ adds up, then ρ + 2√(ρ ln(1/δ')) (Bun–Steinke Prop 1.3).

    Basic composition charges every step its own (ε, δ'); one conversion of the
    total ρ is smaller in ε and in δ for any number of steps, so it wins.
    """
    rho = _symbolic_rho(history)
    if rho is None or E.is_zero(rho) or E.is_inf(rho):
        return None
    epsilon = rho + 2 * sp.sqrt(rho * sp.log(1 / E.number(delta_prime)))
    return Cost(epsilon, E.number(delta_prime), "zcdp")


def _zcdp(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    from dpsens.accounting import zcdp_to_dp

    rho = _rho(history)
    if rho is None or rho <= 0:
        return None
    return Cost(E.decimal_up(zcdp_to_dp(rho, delta_prime)), E.number(delta_prime), "zcdp")


# -- Gaussian differential privacy -------------------------------------------------


def _mu_squared(history: tuple[VarItem, ...]) -> float | None:
    """Σ μᵢ² when every charge is a Gaussian with numeric σ/r (μᵢ = r/σ), else None."""
    return _total(history, _gaussian_mu_squared)


def _gaussian_mu_squared(charge: Charge) -> float | None:
    if charge.gaussian is None or charge.laplace is not None or not _numeric(charge.gaussian):
        return None
    multiplier = float(charge.gaussian)
    return 1.0 / multiplier**2 if multiplier > 0 else None


def _gaussian_dp(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """Gaussian-only histories: exact ε at δ' of μ-GDP with μ = √(Σ μᵢ²).

    A Gaussian mechanism whose value moves by r under σ noise is (r/σ)-GDP,
    adaptive composition of μᵢ-GDP is √(Σ μᵢ²)-GDP (Dong–Roth–Su 2022,
    Cor 3.3), and μ-GDP is (ε, δ(ε))-DP for exactly the δ(ε) of the analytic
    Gaussian (Balle–Wang 2018, Thm 8), which ``gaussian_epsilon`` inverts
    from above.
    """
    from dpsens.accounting.gaussian import gaussian_epsilon

    mu_squared = _mu_squared(history)
    if not mu_squared or mu_squared == float("inf"):
        return None
    try:
        epsilon = gaussian_epsilon(mu_squared**0.5, delta_prime)
    except (ValueError, OverflowError):
        return None
    return Cost(E.decimal_up(epsilon), E.number(delta_prime), "gdp")


# -- dp-accounting -----------------------------------------------------------------


def _split(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """The Gaussian part of a history accounted exactly (μ-GDP) and the rest with its own
    best method, the two composed sequentially: one above_threshold at 0.05 before 100
    Gaussians is 0.05 + 1.03035 where zCDP of the whole gives 1.14511. Sound: the parts
    are (ε₁, δ₁)- and (ε₂, δ₂)-DP, and adaptive composition adds them (the mechanisms
    may interleave: each part's guarantee holds given the other's outputs)."""
    gaussian: list[VarItem] = []
    rest: list[VarItem] = []
    for item in history:
        (gaussian if _gaussians_only((item,)) else rest).append(item)
    if not gaussian or not rest:
        return None
    first, second = account(tuple(gaussian), delta_prime), account(tuple(rest), delta_prime)
    parts = (first.epsilon, first.delta, second.epsilon, second.delta)
    if not all(_numeric(x) for x in parts) or any(E.is_inf(x) for x in parts):
        return None
    # (the parts' decimals are held as binary floats, possibly a hair below them: the
    # sum is nudged up before it is rounded up)
    total = (float(first.epsilon) + float(second.epsilon)) * (1 + 1e-12)
    return Cost(E.decimal_up(total), E.add(first.delta, second.delta),
                f"{first.method} + {second.method}")


def _pure_optimal(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """k mechanisms of one ε, each (ε, 0)-DP (randomized response, the exponential
    mechanism, report noisy max, Laplace), by their optimal composition
    (accounting.pure): 100 at ε = 0.1 are 4.30679 at δ' = 1e-5, where zCDP gives 4.72839."""
    from dpsens.accounting.pure import MOST, optimal_pure_composition

    counts = _pure_counts(history, 1)
    if counts is None or len(set(e for e, _ in counts)) != 1:
        return None
    total = sum(k for _, k in counts)
    if total > MOST:
        return None
    epsilon = optimal_pure_composition(counts[0][0], total, delta_prime)
    return Cost(E.decimal_up(epsilon), E.number(delta_prime), "optimal")


def _pure_counts(history: tuple[VarItem, ...], times: int) -> list[tuple[float, int]] | None:
    """(ε, how many) of each pure charge of a history of charges and loops, or None."""
    found: list[tuple[float, int]] = []
    for item in history:
        if isinstance(item, Charge):
            if not (E.is_zero(item.delta) and item.gaussian is None and not item.native_zcdp
                    and _numeric(item.epsilon) and not E.is_inf(item.epsilon)):
                return None
            found.append((float(item.epsilon), times))
        elif isinstance(item, VarLoop) and _numeric(item.count) and item.count.is_Integer \
                and item.count > 0:
            inner = _pure_counts(item.body, times * int(item.count))
            if inner is None:
                return None
            found += inner
        else:
            return None
    return found or None


def _dp_accounting(history: tuple[VarItem, ...], delta_prime: float) -> list[Cost | None]:
    """RDP and PLD accountants of dp-accounting (lazily imported) for numeric histories."""
    from dpsens.privacy import dp_events

    return [dp_events.rdp_cost(history, delta_prime), dp_events.pld_cost(history, delta_prime)]
