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

import functools
import math
from typing import Any, Callable

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
    return _calibrated(check.positive("s", s), check.positive("eps", eps),
                       check.open_probability("delta", delta))


@functools.lru_cache(maxsize=1024)
def _calibrated(s: float, eps: float, delta: float) -> float:
    """analytic_gaussian_sigma of checked floats, kept: each takes about 5 ms of exact
    arithmetic, and a loop releasing with the same parameters (a training loop, the
    exact audit of a sampled release: 55,000 calls, 280 s) needs it once."""
    try:
        guess = _float_calibration(s, eps, delta)
    except (ValueError, OverflowError, ZeroDivisionError):
        guess = math.nan  # (floats cannot hold this search: the exact one starts afresh)
    return _smallest_certified(s, eps, delta, guess)


def _float_calibration(s: float, eps: float, delta: float) -> float:
    """Balle–Wang's Algorithm 1 in floats: a guess of sigma, close where floats suffice."""
    # Algorithm 1: delta_0 = B(0) splits the search into the two monotone branches.
    delta0 = _cdf_minus_scaled_cdf(0.0, eps, -math.sqrt(2.0 * eps))
    if delta >= delta0:
        def b_plus_ok(v: float) -> bool:  # B+(v) = Phi(sqrt(eps v)) - e^eps Phi(-sqrt(eps (v+2))) <= delta
            return _cdf_minus_scaled_cdf(math.sqrt(eps * v), eps, -math.sqrt(eps * (v + 2))) <= delta
        hi = _expand(b_plus_ok, False)
        v = _bisect(b_plus_ok, 0.0, hi, keep_hi=False)  # v* = sup{v : B+(v) <= delta}, kept on the safe side
        # (the difference of the roots as their sum's inverse: for a tiny eps, v is so
        # large that sqrt(1 + v/2) - sqrt(v/2) cancels to 0, and sigma with it)
        alpha = 1.0 / (math.sqrt(1 + v / 2) + math.sqrt(v / 2))
    else:
        def b_minus_ok(u: float) -> bool:  # B-(u) = Phi(-sqrt(eps u)) - e^eps Phi(-sqrt(eps (u+2))) <= delta
            return _cdf_minus_scaled_cdf(-math.sqrt(eps * u), eps, -math.sqrt(eps * (u + 2))) <= delta
        hi = _expand(b_minus_ok, True)
        u = _bisect(b_minus_ok, 0.0, hi, keep_hi=True)  # u* = inf{u : B-(u) <= delta}
        alpha = math.sqrt(1 + u / 2) + math.sqrt(u / 2)
    return alpha * s / math.sqrt(2.0 * eps)


def _smallest_certified(s: float, eps: float, delta: float, guess: float) -> float:
    """The smallest sigma, to float precision, at which Theorem 8 holds in exact arithmetic,
    searched from the floats' guess.

    Floating-point safety: the floats erred by a relative 1e-5 of delta at 1e-100, and
    for a tiny eps their terms cancel (sigma was 0 at eps = 1e-300, 0.2% too large at
    eps = 1e-9, delta = 1e-41). The guess is returned where a relative 1e-9 less is not
    certified (two exact evaluations, the common case); otherwise sigma is bracketed by
    steps that square (2, 4, 16, ...) and bisected, below the eps = 0 bound
    s / (delta sqrt(2 pi)): delta(eps, mu) <= delta(0, mu) = 2 Phi(mu/2) - 1 <= mu phi(0).
    """
    def certified(candidate: float) -> bool:
        # (in exact arithmetic only: the floats' own delta overstates it by 0.1% at
        # eps = 1e-9, delta = 1e-41, which would keep sigma that much too large)
        return 0.0 < candidate < math.inf and _exact_delta(eps, s, candidate, delta) <= delta

    upper = s / (delta * math.sqrt(2.0 * math.pi)) * (1 + 1e-6)  # (the bound is tight at eps = 0)
    if not 0.0 < guess < math.inf:
        low, high = math.ulp(0.0), upper
    elif certified(guess):
        low, high, factor = guess * (1 - 1e-9), guess, 2.0
        while certified(low):
            high, low, factor = low, max(low / factor, math.ulp(0.0)), factor * factor
        if high == guess:  # (a relative 1e-9 less is not certified: the common case)
            return guess
    else:
        low, high, factor = guess, guess * (1 + 1e-9), 2.0
        while not certified(high) and high < upper:
            low, high, factor = high, min(high * factor, upper), factor * factor
    if not certified(high):
        raise ValueError(f"no float sigma makes the Gaussian mechanism ({eps}, {delta})-DP")
    while high > 2.0 * low:  # geometric halving first: the bracket may span 1e300
        middle = math.sqrt(low) * math.sqrt(high)
        low, high = (low, middle) if certified(middle) else (middle, high)
    return _bisect(certified, low, high, keep_hi=True)


def _exact_delta(eps: float, s: float, sigma: float, delta: float) -> float:
    """Theorem 8's delta at mu = s/sigma in high-precision arithmetic (the quotient too: in
    floats it errs by 1e-16, which moves a delta of 1e-199 by 6e-14), rounded up to a
    float: a check of gaussian_delta where its floats cancel or underflow. The digits
    grow with delta's: the two terms are near 1/2 and differ by about delta. Far in the
    tails (|x| > 40, where mpmath's erfc overflows for huge x) Phi is bounded by the Mills
    ratio, each term on the side that makes delta larger."""
    import mpmath  # type: ignore[import-untyped]

    digits = 60 + max(0, int(-math.log10(delta)))
    with mpmath.workdps(digits):
        e, m = mpmath.mpf(eps), mpmath.mpf(s) / mpmath.mpf(sigma)
        exact = _ncdf(m / 2 - e / m, upper=True) - mpmath.exp(e) * _ncdf(-m / 2 - e / m, upper=False)
        return math.nextafter(float(exact), math.inf) if exact > 0 else 0.0


def _ncdf(x: Any, upper: bool) -> Any:
    """Phi(x) in mpmath, or a bound on it beyond |x| > 40 (upper or lower): for t > 0,
    phi(t) t / (1 + t^2) < Phi(-t) < phi(t) / t."""
    import mpmath

    if -40 <= x <= 40:
        return mpmath.ncdf(x)
    t = abs(x)
    tail = mpmath.npdf(t) / t if (x < 0) == upper else mpmath.npdf(t) * t / (1 + t * t)
    return tail if x < 0 else 1 - tail


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

