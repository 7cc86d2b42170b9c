"""Exact output distributions of the runtime's discrete-output pure mechanisms.

Each function returns the natural log of the probability of every outcome of
the mathematical mechanism the runtime implements (continuous Laplace noise,
exact exponential and randomized-response probabilities), so a pair of
neighbouring inputs has an exact privacy loss: max over outcomes of
|log P(o | x) − log P(o | x')|. Logs, because the outcomes a neighbour makes
least likely are the ones with the largest loss (1e-108 against 1e-109).

The noisy-first-crossing probabilities are one-dimensional integrals of a
log-concave integrand (Laplace densities, CDFs and survival functions are
log-concave), so it has one peak: quad integrates it scaled to 1 there, split
at the peak and at the kinks of the densities.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np
from scipy.integrate import quad
from scipy.optimize import minimize_scalar


def _log_cdf(x: float, b: float) -> float:
    """log P(Laplace(b) <= x)."""
    return math.log(0.5) + x / b if x < 0 else math.log1p(-0.5 * math.exp(-x / b))


def _log_sf(x: float, b: float) -> float:
    """log P(Laplace(b) > x), without the cancellation of 1 − cdf."""
    return _log_cdf(-x, b)


def _log_density(x: float, b: float) -> float:
    return -abs(x) / b - math.log(2 * b)


def _log_integral(log_integrand: Callable[[float], float], kinks: Sequence[float],
                  scale: float) -> float:
    """log ∫ exp(log_integrand) over the reals, for a concave log_integrand."""
    lo, hi = min(kinks) - 60 * scale, max(kinks) + 60 * scale
    peak = float(minimize_scalar(lambda r: -log_integrand(r), bounds=(lo, hi), method="bounded",
                                 options={"xatol": 1e-9 * scale}).x)
    top = log_integrand(peak)
    points = sorted({*kinks, peak})
    pieces = [(-math.inf, points[0]), *zip(points, points[1:]), (points[-1], math.inf)]
    total = sum(quad(lambda r: math.exp(log_integrand(r) - top), a, b, epsabs=0.0, epsrel=1e-11,
                     limit=200)[0] for a, b in pieces)
    return top + math.log(total)


def above_threshold(values: Sequence[float], eps: float, threshold: float) -> np.ndarray:
    """log P(the first index whose value + Lap(4/eps) reaches threshold + Lap(2/eps)), for each
    index, then log P(none does)."""
    rho, nu = 2 / eps, 4 / eps
    kinks = [0.0, *(v - threshold for v in values)]

    def below(r: float, count: int) -> float:
        return sum(_log_cdf(threshold + r - values[j], nu) for j in range(count))

    def first(i: int) -> Callable[[float], float]:
        return lambda r: (_log_density(r, rho) + below(r, i)
                          + _log_sf(threshold + r - values[i], nu))

    none = _log_integral(lambda r: _log_density(r, rho) + below(r, len(values)), kinks, nu)
    return np.array([*(_log_integral(first(i), kinks, nu) for i in range(len(values))), none])


def report_noisy_max(scores: Sequence[float], s: float, eps: float) -> np.ndarray:
    """log P(index i has the largest score + Lap(2s/eps)), for each i."""
    b = 2 * s / eps

    def winner(i: int) -> Callable[[float], float]:
        return lambda t: _log_density(t - scores[i], b) + sum(
            _log_cdf(t - scores[j], b) for j in range(len(scores)) if j != i)

    return np.array([_log_integral(winner(i), list(scores), b) for i in range(len(scores))])


def exponential(utilities: Sequence[float], s: float, eps: float) -> np.ndarray:
    """log P(candidate r), with P(r) ∝ exp(eps·u_r / (2s))."""
    exponents = np.asarray(utilities, dtype=float) * eps / (2 * s)
    top = exponents.max()
    return exponents - top - math.log(np.exp(exponents - top).sum())


def randomized_response(eps: float, bit: bool) -> np.ndarray:
    """(log P(False), log P(True)): the bit is kept with probability e^eps / (1 + e^eps)."""
    keep, flip = -math.log1p(math.exp(-eps)), -math.log1p(math.exp(eps))
    return np.array([flip, keep] if bit else [keep, flip])


def loss(log_p: np.ndarray, log_q: np.ndarray) -> float:
    """max over outcomes of |log p − log q|."""
    return float(np.max(np.abs(log_p - log_q), initial=0.0))
