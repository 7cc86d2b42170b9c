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

from dpsens.runtime import _validate as check
from dpsens.runtime.mechanisms import laplace_mechanism
from dpsens.runtime.rng import as_source
from dpsens.runtime.sampling import bernoulli_exp

__all__ = ["kary_randomized_response", "local_laplace", "kary_rr_estimate", "kary_rr_accuracy"]


def kary_randomized_response(eps: float, value: int, k: int, *,
                             rng: np.random.Generator | None = None) -> int:
    """value in {0..k-1} kept with probability e^eps/(e^eps + k - 1), else a uniform other value."""
    fn = "kary_randomized_response"
    eps, k = check.positive(fn, "eps", eps), check.count(fn, "k", k, minimum=2)
    category = _category(fn, value, k)
    src = as_source(rng)
    e = Fraction(eps)
    # Rejection: a uniform candidate is accepted always if it is the true value and
    # with probability e^-eps otherwise, so P[out = j] is proportional to e^eps or 1.
    while True:
        candidate = src.randbelow(k)
        if candidate == category or bernoulli_exp(e.numerator, e.denominator, src):
            return candidate


def _category(fn: str, value: object, k: int) -> int:
    """value as an int in [0, k): a number outside it (or not whole) is taken to the
    nearest category below it, clamped, and NaN to 0, rather than refused: an exception on
    some data values would show them to the caller (docs/privacy.md, R-observed). Only
    what is not a number is refused."""
    item = check.item(value)
    if isinstance(item, bool) or not check.is_real(item):
        raise ValueError(f"{fn}: value must be an integer in [0, {k}), got {check.describe(value)}")
    number = float(item)  # type: ignore[arg-type]  # (a real: is_real said so)
    if math.isnan(number):
        return 0
    return int(min(max(number, 0.0), k - 1.0))  # (whole after clamping: int() floors it)


def local_laplace(eps: float, x: float, lower: float, upper: float, *,
                  rng: np.random.Generator | None = None) -> float:
    """x clamped into [lower, upper] plus Laplace((upper - lower)/eps): an eps-local randomizer."""
    fn = "local_laplace"
    eps = check.positive(fn, "eps", eps)
    lower, upper = check.finite_real(fn, "lower", lower), check.finite_real(fn, "upper", upper)
    if not lower < upper:
        raise ValueError(f"{fn}: needs lower < upper, got [{lower}, {upper}]")
    value = check.real(fn, "x", x)  # an infinite x is fine: clamping bounds it
    # NaN is taken as the lower end rather than refused: an exception on some data values
    # would show them to the caller (docs/privacy.md, R-observed).
    clamped = lower if math.isnan(value) else min(max(value, lower), upper)
    return float(laplace_mechanism(upper - lower, eps, clamped, rng=rng))


def kary_rr_estimate(reports: Any, eps: float, k: int) -> np.ndarray:
    """Unbiased counts per value from k-RR reports: (c_j - n q)/(p - q)."""
    p, q = _probabilities("kary_rr_estimate", eps, k)
    values = _reports(reports, k)
    counts = np.bincount(values, minlength=k).astype(float)
    return (counts - len(values) * q) / (p - q)


def _reports(reports: Any, k: int) -> np.ndarray:
    """k-RR reports as a 1-D int array, refusing anything outside {0..k-1} (int() would truncate 1.7 to 1)."""
    fn = "kary_rr_estimate"
    arr = check.finite_reals(fn, "reports", reports)
    if arr.ndim != 1:
        raise ValueError(f"{fn}: reports must be a 1-D vector, got shape {arr.shape}")
    if not np.all((arr == np.round(arr)) & (arr >= 0) & (arr < k)):
        raise ValueError(f"{fn}: reports must be integers in [0, {k}), got {check.describe(reports)}")
    return arr.astype(np.intp)


def kary_rr_accuracy(eps: float, k: int, n: int, beta: float) -> float:
    """α with P[every estimated count is within α] >= 1 - β (Hoeffding and a union bound)."""
    fn = "kary_rr_accuracy"
    p, q = _probabilities(fn, eps, k)
    n, beta = check.count(fn, "n", n, minimum=0), check.open_probability(fn, "beta", beta)
    return math.sqrt(n * math.log(2 * k / beta) / 2) / (p - q)


def _probabilities(fn: str, eps: float, k: int) -> tuple[float, float]:
    """P[report = value] and P[report = each other value] of k-RR."""
    eps, k = check.positive(fn, "eps", eps), check.count(fn, "k", k, minimum=2)
    denominator = math.exp(eps) + k - 1
    return math.exp(eps) / denominator, 1 / denominator
