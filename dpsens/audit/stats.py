"""Exact binomial confidence bounds and the ε lower bound of a hypothesis test.

Clopper–Pearson bounds invert the binomial tail exactly, so they hold at
their nominal level for every sample size (no normal approximation).  A
one-sided bound at level 1 − α is a quantile of a Beta distribution.
"""

from __future__ import annotations

import math


def _beta_quantile(q: float, a: float, b: float) -> float:
    """The q-quantile of Beta(a, b)."""
    try:
        from scipy.special import betaincinv  # type: ignore[import-untyped]

        return float(betaincinv(a, b, q))
    except ImportError:  # pragma: no cover - scipy comes with dp-accounting
        import mpmath  # type: ignore[import-untyped]

        lo, hi = 0.0, 1.0
        for _ in range(100):
            mid = (lo + hi) / 2
            if mpmath.betainc(a, b, 0, mid, regularized=True) < q:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2


def lower_bound(successes: int, trials: int, alpha: float) -> float:
    """A one-sided Clopper–Pearson lower bound on p: P[p < bound] <= alpha."""
    if successes <= 0:
        return 0.0
    return _beta_quantile(alpha, successes, trials - successes + 1)


def upper_bound(successes: int, trials: int, alpha: float) -> float:
    """A one-sided Clopper–Pearson upper bound on p: P[p > bound] <= alpha."""
    if successes >= trials:
        return 1.0
    return _beta_quantile(1 - alpha, successes + 1, trials - successes)


def epsilon_lower_bound(hits: int, hits_other: int, trials: int, trials_other: int,
                        delta: float, alpha: float) -> float:
    """A lower bound on ε at confidence 1 − alpha from counts of one event S.

    With p = P[M(x) ∈ S] >= p_lo and p' = P[M(x') ∈ S] <= p'_hi (each bound
    at level alpha/2, so both hold with probability 1 − alpha), (ε, δ)-DP
    requires p <= e^ε p' + δ, hence ε >= ln((p_lo − δ) / p'_hi).  Returns
    -inf when the counts say nothing (p_lo <= δ).
    """
    p_lo = lower_bound(hits, trials, alpha / 2)
    p_hi = upper_bound(hits_other, trials_other, alpha / 2)
    if p_lo <= delta:
        return -math.inf
    if p_hi <= 0:
        return math.inf
    return math.log((p_lo - delta) / p_hi)


__all__ = ["epsilon_lower_bound", "lower_bound", "upper_bound"]
