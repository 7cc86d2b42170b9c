"""zCDP and Renyi DP of Gaussian noise, and their conversion to (eps, delta).

* Gaussian noise N(0, sigma^2) on an L2-sensitivity-s query is rho-zCDP with
  rho = s^2 / (2 sigma^2) (Bun & Steinke 2016, Prop. 1.6), i.e. it has the
  RDP curve eps(alpha) = alpha s^2 / (2 sigma^2) (Mironov 2017, Prop. 7);
  both add up under composition.
* RDP -> (eps, delta): Canonne, Kamath & Steinke, "The Discrete Gaussian for
  Differential Privacy" (NeurIPS 2020), Proposition 12 / Corollary 13 (the
  same bound is Balle et al. 2020, "Hypothesis testing interpretations and
  Renyi DP", Theorem 21): for every alpha > 1 the mechanism is (eps, delta)-DP
  with

      eps = eps_RDP(alpha) + ln(1/delta)/(alpha-1) + ln(1 - 1/alpha) - ln(alpha)/(alpha-1).

  We take the infimum over alpha numerically.  For zCDP this is never worse
  than the classical rho + 2 sqrt(rho ln(1/delta)) (Bun-Steinke Prop. 1.3):
  at alpha = 1 + sqrt(ln(1/delta)/rho) the first two terms equal it and the
  last two are negative.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from dpsens.accounting import _validate as check

__all__ = [
    "gaussian_rho", "gaussian_rdp", "rdp_to_dp", "rdp_curve_to_dp",
    "zcdp_to_dp", "zcdp_to_dp_simple",
]

_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def gaussian_rho(s: float, sigma: float) -> float:
    """rho = s^2 / (2 sigma^2): the zCDP of N(0, sigma^2) noise on an s-sensitive query."""
    s = check.positive("s", s)
    sigma = check.positive("sigma", sigma)
    return s * s / (2.0 * sigma * sigma)


def gaussian_rdp(s: float, sigma: float, alpha: float) -> float:
    """alpha s^2 / (2 sigma^2): the order-alpha Renyi DP of N(0, sigma^2) noise."""
    alpha = check.positive("alpha", alpha)
    return alpha * gaussian_rho(s, sigma)


def _cks_epsilon(rdp_value: float, alpha: float, log_inv_delta: float) -> float:
    """The CKS 2020 Prop. 12 epsilon at one order alpha > 1."""
    return (rdp_value + log_inv_delta / (alpha - 1) + math.log1p(-1.0 / alpha)
            - math.log(alpha) / (alpha - 1))


def rdp_to_dp(rdp: Callable[[float], float], delta: float) -> tuple[float, float]:
    """(eps, best alpha): inf over alpha > 1 of the CKS conversion of an RDP curve alpha -> eps(alpha)."""
    delta = check.open_probability("delta", delta)
    log_inv_delta = math.log(1.0 / delta)

    def objective(t: float) -> float:  # alpha = 1 + e^t covers (1, inf) smoothly
        alpha = 1.0 + math.exp(t)
        value = _cks_epsilon(rdp(alpha), alpha, log_inv_delta)
        return value if math.isfinite(value) else math.inf

    # A coarse scan finds the basin (robust to plateaus and infinite orders), then
    # golden-section search refines inside the two neighbouring grid cells.
    grid = [-14.0 + 0.1 * i for i in range(381)]  # alpha - 1 from 8e-7 to 2.6e10
    values = [objective(t) for t in grid]
    best = min(range(len(grid)), key=values.__getitem__)
    if not math.isfinite(values[best]):
        return math.inf, math.nan
    lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    a, b = hi - _GOLDEN * (hi - lo), lo + _GOLDEN * (hi - lo)
    fa, fb = objective(a), objective(b)
    for _ in range(80):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - _GOLDEN * (hi - lo)
            fa = objective(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + _GOLDEN * (hi - lo)
            fb = objective(b)
    t_best, eps = min([(grid[best], values[best]), (a, fa), (b, fb)], key=lambda p: p[1])
    return max(eps, 0.0), 1.0 + math.exp(t_best)


def rdp_curve_to_dp(orders: Sequence[float], rdp_values: Sequence[float], delta: float) -> tuple[float, float]:
    """(eps, best alpha) of the CKS conversion over a tabulated RDP curve (orders > 1)."""
    delta = check.open_probability("delta", delta)
    if len(orders) != len(rdp_values) or not orders:
        raise ValueError("orders and rdp_values must be non-empty and of equal length")
    best = (math.inf, math.nan)
    for alpha, value in zip(orders, rdp_values):
        if alpha <= 1:
            raise ValueError(f"RDP orders must be > 1, got {alpha}")
        eps = _cks_epsilon(float(value), float(alpha), math.log(1.0 / delta))
        if eps < best[0]:
            best = (max(eps, 0.0), float(alpha))
    return best


def zcdp_to_dp_simple(rho: float, delta: float) -> float:
    """rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016, Prop. 1.3)."""
    rho = check.nonnegative("rho", rho)
    delta = check.open_probability("delta", delta)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def zcdp_to_dp(rho: float, delta: float) -> float:
    """The eps of rho-zCDP at delta, by the CKS 2020 conversion (inf over alpha; never above the simple bound)."""
    rho = check.nonnegative("rho", rho)
    if rho == 0:
        return 0.0
    eps, _ = rdp_to_dp(lambda alpha: alpha * rho, delta)
    return min(eps, zcdp_to_dp_simple(rho, delta))
