"""The exact privacy curve of the Gaussian mechanism and its inverses (Balle & Wang 2018).

Balle & Wang, "Improving the Gaussian Mechanism for Differential Privacy:
Analytical Calibration and Optimal Denoising" (ICML 2018), Theorem 8: adding
N(0, sigma^2) to a query of L2 sensitivity s is (eps, delta)-DP iff

    delta >= Phi(s/(2 sigma) - eps sigma/s) - e^eps Phi(-s/(2 sigma) - eps sigma/s).

The curve depends only on mu = s/sigma, and k adaptive Gaussian steps compose
to exactly the curve of mu = sqrt(k) s/sigma (Dong, Roth & Su 2022, Gaussian
DP, Corollary 3.3), so ``gaussian_epsilon(mu, delta)`` is the tight epsilon of
a Gaussian privacy loop.  Everything is computed in log space, so it stays
finite for large eps (e^eps * Phi(...) never overflows).
"""

from __future__ import annotations

import math
from typing import Callable

from dpsens.accounting import _validate as check

__all__ = [
    "normal_log_cdf", "gaussian_delta", "analytic_gaussian_sigma", "gaussian_mu",
    "gaussian_epsilon",
]

_SQRT2 = math.sqrt(2.0)


def normal_log_cdf(x: float) -> float:
    """log Phi(x) of the standard normal, accurate far into the lower tail."""
    if x > -20.0:
        return math.log(0.5 * math.erfc(-x / _SQRT2))
    # Asymptotic series of the Mills ratio (Abramowitz-Stegun 26.2.12); at x <= -20
    # the truncation error is below 1e-12 relative.
    inv2 = 1.0 / (x * x)
    series = 1.0 - inv2 + 3.0 * inv2**2 - 15.0 * inv2**3 + 105.0 * inv2**4
    return -0.5 * x * x - math.log(-x) - 0.5 * math.log(2.0 * math.pi) + math.log(series)


def _cdf_minus_scaled_cdf(a: float, scale_log: float, b: float) -> float:
    """Phi(a) - exp(scale_log) * Phi(b), without overflow."""
    first = math.exp(normal_log_cdf(a))
    second = math.exp(min(scale_log + normal_log_cdf(b), 700.0))
    return first - second


def gaussian_delta(eps: float, mu: float) -> float:
    """The smallest delta for which a Gaussian mechanism with s/sigma = mu is (eps, delta)-DP."""
    if mu <= 0:
        return 0.0
    return max(0.0, _cdf_minus_scaled_cdf(mu / 2 - eps / mu, eps, -mu / 2 - eps / mu))


_Pred = Callable[[float], bool]


def _bisect(f_ok: _Pred, lo: float, hi: float, keep_hi: bool, iters: int = 200) -> float:
    """Boundary of a monotone predicate on [lo, hi]; returns the side where f_ok holds."""
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if f_ok(mid) == keep_hi:
            hi = mid
        else:
            lo = mid
    return hi if keep_hi else lo


def _expand(f_ok: _Pred, want: bool) -> float:
    """The first power of two v >= 1 with f_ok(v) == want (bracketing for _bisect)."""
    v = 1.0
    while f_ok(v) != want:
        v *= 2.0
        if v > 1e300:
            raise ValueError("analytic Gaussian calibration did not converge")
    return v


def analytic_gaussian_sigma(s: float, eps: float, delta: float) -> float:
    """The smallest sigma making N(0, sigma^2) noise (eps, delta)-DP for L2 sensitivity s (Balle-Wang Alg. 1)."""
    s = check.positive("s", s)
    eps = check.positive("eps", eps)
    delta = check.open_probability("delta", delta)
    # Algorithm 1: delta_0 = B(0) splits the search into the two monotone branches.
    delta0 = _cdf_minus_scaled_cdf(0.0, eps, -math.sqrt(2.0 * eps))
    if delta >= delta0:
        def b_plus_ok(v: float) -> bool:  # B+(v) = Phi(sqrt(eps v)) - e^eps Phi(-sqrt(eps (v+2))) <= delta
            return _cdf_minus_scaled_cdf(math.sqrt(eps * v), eps, -math.sqrt(eps * (v + 2))) <= delta
        hi = _expand(b_plus_ok, False)
        v = _bisect(b_plus_ok, 0.0, hi, keep_hi=False)  # v* = sup{v : B+(v) <= delta}, kept on the safe side
        alpha = math.sqrt(1 + v / 2) - math.sqrt(v / 2)
    else:
        def b_minus_ok(u: float) -> bool:  # B-(u) = Phi(-sqrt(eps u)) - e^eps Phi(-sqrt(eps (u+2))) <= delta
            return _cdf_minus_scaled_cdf(-math.sqrt(eps * u), eps, -math.sqrt(eps * (u + 2))) <= delta
        hi = _expand(b_minus_ok, True)
        u = _bisect(b_minus_ok, 0.0, hi, keep_hi=True)  # u* = inf{u : B-(u) <= delta}
        alpha = math.sqrt(1 + u / 2) + math.sqrt(u / 2)
    sigma = alpha * s / math.sqrt(2.0 * eps)
    # Floating-point safety: nudge sigma up until Theorem 8 certifies it directly, in
    # floats and then in 60 digits (floats erred by a relative 1e-5 of delta at 1e-100).
    step = 1e-12  # doubled each time: at most twice the increase needed
    while gaussian_delta(eps, s / sigma) > delta or _exact_delta(eps, s, sigma) > delta:
        sigma = math.nextafter(sigma, math.inf) * (1 + step)
        step *= 2
    return sigma


def _exact_delta(eps: float, s: float, sigma: float) -> float:
    """Theorem 8's delta at mu = s/sigma in 60-digit arithmetic (the quotient too: in
    floats it errs by 1e-16, which moves a delta of 1e-199 by 6e-14), rounded up to a
    float: a check of gaussian_delta where its floats cancel or underflow."""
    import mpmath  # type: ignore[import-untyped]

    with mpmath.workdps(60):
        e, m = mpmath.mpf(eps), mpmath.mpf(s) / mpmath.mpf(sigma)
        exact = mpmath.ncdf(m / 2 - e / m) - mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)
        return math.nextafter(float(exact), math.inf) if exact > 0 else 0.0


def gaussian_mu(eps: float, delta: float) -> float:
    """mu = s/sigma of the analytic Gaussian calibrated to (eps, delta)."""
    return 1.0 / analytic_gaussian_sigma(1.0, eps, delta)


def gaussian_epsilon(mu: float, delta: float) -> float:
    """The smallest eps with gaussian_delta(eps, mu) <= delta (tight; mu = sqrt(k) s/sigma for k steps)."""
    mu = check.positive("mu", mu)
    delta = check.open_probability("delta", delta)
    if gaussian_delta(0.0, mu) <= delta:
        return 0.0

    def ok(eps: float) -> bool:
        return gaussian_delta(eps, mu) <= delta

    return _bisect(ok, 0.0, _expand(ok, True), keep_hi=True)

