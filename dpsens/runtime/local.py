"""Local randomizers: k-ary randomized response and a local Laplace randomizer.

Each is an eps-DP function of ONE record (a local randomizer, Kasiviswanathan
et al. 2008); shuffle() in dpsens.runtime.mechanisms permutes their reports.
Randomness comes from the same secure source as the central mechanisms.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from dpsens.accounting import _validate as check
from dpsens.runtime.mechanisms import laplace_mechanism
from dpsens.runtime.rng import as_source
from dpsens.runtime.sampling import bernoulli_exp

__all__ = ["kary_randomized_response", "local_laplace", "kary_rr_estimate", "kary_rr_accuracy"]


def kary_randomized_response(eps: float, value: int, k: int, *,
                             rng: np.random.Generator | None = None) -> int:
    """value in {0..k-1} kept with probability e^eps/(e^eps + k - 1), else a uniform other value."""
    eps = check.positive("eps", eps)
    k = check.count("k", k, minimum=2)
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        value = int(value)  # map_rows hands rows over as float64 arrays
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < k:
        raise ValueError(f"kary_randomized_response needs an integer in [0, {k}), got {value!r}")
    src = as_source(rng)
    e = Fraction(eps)
    # Rejection: a uniform candidate is accepted always if it is the true value and
    # with probability e^-eps otherwise, so P[out = j] is proportional to e^eps or 1.
    while True:
        candidate = src.randbelow(k)
        if candidate == value or bernoulli_exp(e.numerator, e.denominator, src):
            return candidate


def local_laplace(eps: float, x: float, lower: float, upper: float, *,
                  rng: np.random.Generator | None = None) -> float:
    """x clamped into [lower, upper] plus Laplace((upper - lower)/eps): an eps-local randomizer."""
    if not (math.isfinite(lower) and math.isfinite(upper)) or not lower < upper:
        raise ValueError(f"local_laplace needs finite lower < upper, got [{lower}, {upper}]")
    value = float(x)
    if math.isnan(value):
        raise ValueError("local_laplace cannot randomize NaN")
    clamped = min(max(value, lower), upper)
    return float(laplace_mechanism(upper - lower, eps, clamped, rng=rng))


def kary_rr_estimate(reports: Any, eps: float, k: int) -> np.ndarray:
    """Unbiased counts per value from k-RR reports: (c_j - n q)/(p - q)."""
    p, q = _probabilities(eps, k)
    reports = np.asarray(reports, dtype=int)
    counts = np.bincount(reports, minlength=k).astype(float)
    return (counts - len(reports) * q) / (p - q)


def kary_rr_accuracy(eps: float, k: int, n: int, beta: float) -> float:
    """α with P[every estimated count is within α] >= 1 - β (Hoeffding and a union bound)."""
    p, q = _probabilities(eps, k)
    beta = check.open_probability("beta", beta)
    return math.sqrt(n * math.log(2 * k / beta) / 2) / (p - q)


def _probabilities(eps: float, k: int) -> tuple[float, float]:
    eps, k = check.positive("eps", eps), check.count("k", k, minimum=2)
    denominator = math.exp(eps) + k - 1
    return math.exp(eps) / denominator, 1 / denominator
