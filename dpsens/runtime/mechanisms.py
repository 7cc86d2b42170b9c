"""Run-time privacy mechanisms of dpsens (SPEC §6), sampled exactly on a power-of-two grid.

Randomness.  By default every mechanism reads the operating system's CSPRNG
through ``secrets`` (``dpsens.runtime.rng``); the ``random`` module and global
seeds are never used.  ``rng=`` takes a numpy Generator, for tests only.

Floating-point safety (Mironov 2012).  No mechanism draws a random float.
Noise is discrete Laplace / discrete Gaussian on the integers, sampled with
exact rational arithmetic (Canonne, Kamath & Steinke 2020; the approach of
OpenDP), on a grid of step g = 2**k with g <= 2**-40 * s / (number of
coordinates) (``dpsens.runtime.sampling``).  The input is rounded to the
grid, noise is added exactly, and the exact result is rounded to the nearest
float, which is post-processing.  What remains:

* Rounding the input can move each coordinate by one grid step, so the
  grid-based mechanisms calibrate to the sensitivity s + (coordinates) * g:
  the noise is larger by a relative 2**-40 and the stated guarantee holds
  exactly -- pure eps-DP for Laplace, report-noisy-max and above-threshold,
  exact rho-zCDP for ``gaussian_mechanism_zcdp`` (CKS 2020, Thm 14, for the
  multivariate discrete Gaussian).  Randomized response and the exponential
  mechanism need no grid: they are exact samplers of their ideal
  distributions (the latter by rejection, P[r] ∝ exp(eps u/(2s)) on the float
  utilities), hence exactly eps-DP.
* ``gaussian_mechanism`` calibrates sigma with the continuous analytic
  Gaussian curve (Balle & Wang 2018).  The discrete Gaussian has exactly the
  same zCDP, and in one dimension the same hockey-stick formula with discrete
  tails (CKS 2020, Thm 7).  Comparing those lattice sums with the Gaussian
  integrals, they differ by a relative O(eps g / s) ~ 1e-12 when
  sigma/g >= 2**40; this is the one residual gap, and no margin is added for it.
* Guarantees are about the float values the program computed.  Sensitivity
  of the floating-point computation itself (e.g. rounding in sums) and timing
  side channels (rejection samplers have data-independent but random running
  time, except the exponential mechanism's) are out of scope here.
"""

from __future__ import annotations

from fractions import Fraction
import math
from typing import Any, Callable, Sequence, TypeVar, cast

import numpy as np
import numpy.typing as npt

from dpsens.accounting.gaussian import analytic_gaussian_sigma
from dpsens.runtime import _validate as check
from dpsens.runtime.rng import as_source, permutation, sample_indices
from dpsens.runtime.sampling import Grid, bernoulli_exp, discrete_gaussian, discrete_laplace

__all__ = [
    "laplace_mechanism", "laplacian_mechanism", "gaussian_mechanism", "gaussian_mechanism_zcdp",
    "analytic_gaussian_sigma", "exponential_mechanism", "report_noisy_max", "above_threshold",
    "randomized_response", "sample", "parallel_fold_rows", "shuffle",
    "laplace_accuracy", "gaussian_accuracy",
]

T = TypeVar("T")
Acc = TypeVar("Acc")
FloatArray = npt.NDArray[np.float64]


def _add_noise(arr: FloatArray, grid: Grid, draw: Callable[[], int]) -> float | FloatArray:
    """Round every entry to the grid, add one integer draw, round back to float; scalars stay scalars."""
    out = np.array([grid.to_float(grid.to_units(float(v)) + draw()) for v in arr.ravel()], dtype=np.float64)
    return float(out[0]) if arr.ndim == 0 else out.reshape(arr.shape)


def _laplace_draw(scale_units: Fraction, rng: np.random.Generator | None) -> Callable[[], int]:
    """A sampler of discrete Laplace noise with the given scale in grid units."""
    src = as_source(rng)
    t, s = scale_units.numerator, scale_units.denominator
    return lambda: discrete_laplace(t, s, src)


def laplace_mechanism(s: float, eps: float, x: Any, *, rng: np.random.Generator | None = None) -> Any:
    """x + Laplace(s/eps) noise per coordinate: eps-DP for x of L1 sensitivity s."""
    fn = "laplace_mechanism"
    s, eps = check.positive(fn, "s", s), check.positive(fn, "eps", eps)
    arr = check.finite_reals(fn, "x", x)
    grid = Grid.for_sensitivity(s, max(arr.size, 1))
    s_eff = Fraction(s) + max(arr.size, 1) * grid.step  # L1 distance after rounding every coordinate
    return _add_noise(arr, grid, _laplace_draw(s_eff / (Fraction(eps) * grid.step), rng))


laplacian_mechanism = laplace_mechanism


def _gaussian(fn: str, s: float, var_per_s2: Fraction, x: Any, rng: np.random.Generator | None) -> Any:
    """Discrete Gaussian noise of variance var_per_s2 * s_eff^2, s_eff = s + the grid rounding."""
    arr = check.finite_reals(fn, "x", x)
    d = max(arr.size, 1)
    grid = Grid.for_sensitivity(s, d)
    # L2 distance after rounding: at most s + sqrt(d) g <= s + ceil(sqrt(d)) g.
    s_units = (Fraction(s) + (math.isqrt(d - 1) + 1) * grid.step) / grid.step
    var_units = var_per_s2 * s_units**2
    src = as_source(rng)
    a, b = var_units.numerator, var_units.denominator
    return _add_noise(arr, grid, lambda: discrete_gaussian(a, b, src))


def gaussian_mechanism(s: float, eps: float, delta: float, x: Any, *,
                       rng: np.random.Generator | None = None) -> Any:
    """x + N(0, sigma^2) per coordinate, sigma from the analytic Gaussian: (eps, delta)-DP for L2 sensitivity s."""
    fn = "gaussian_mechanism"
    s, eps = check.positive(fn, "s", s), check.positive(fn, "eps", eps)
    delta = check.open_probability(fn, "delta", delta)
    return _gaussian(fn, s, Fraction(analytic_gaussian_sigma(1.0, eps, delta)) ** 2, x, rng)


def gaussian_mechanism_zcdp(s: float, rho: float, x: Any, *, rng: np.random.Generator | None = None) -> Any:
    """x + N(0, s^2/(2 rho)) per coordinate: rho-zCDP for L2 sensitivity s."""
    fn = "gaussian_mechanism_zcdp"
    s, rho = check.positive(fn, "s", s), check.positive(fn, "rho", rho)
    return _gaussian(fn, s, 1 / (2 * Fraction(rho)), x, rng)  # sigma^2 = s^2 / (2 rho), exactly


def exponential_mechanism(s: float, eps: float, candidates: Sequence[T], utility: Callable[[Any, T], float],
                          data: Any, *, rng: np.random.Generator | None = None) -> T:
    """A candidate r drawn with P[r] ∝ exp(eps u(data, r) / (2 s)): eps-DP for u s-sensitive in data."""
    fn = "exponential_mechanism"
    s, eps = check.positive(fn, "s", s), check.positive(fn, "eps", eps)
    check.iterable(fn, "candidates", candidates, "a collection of candidates")
    cands = list(candidates)
    if not cands:
        raise ValueError(f"{fn} needs at least one candidate")
    scores = [Fraction(check.finite_real(fn, f"utility(data, candidates[{i}])", utility(data, r)))
              for i, r in enumerate(cands)]
    top = max(scores)
    # Exact rejection sampling: propose uniformly, accept with exp(-eps (top - u_r) / (2 s)) <= 1.
    # The best candidate is accepted with probability 1, so at most len(cands) tries are expected.
    weights = [Fraction(eps) * (top - u) / (2 * Fraction(s)) for u in scores]
    src = as_source(rng)
    while True:
        r = src.randbelow(len(cands))
        if bernoulli_exp(weights[r].numerator, weights[r].denominator, src):
            return cands[r]


def report_noisy_max(s: float, eps: float, scores: Any, *, rng: np.random.Generator | None = None) -> int:
    """The index of the largest score + Laplace(2s/eps) (lowest index on ties): eps-DP for s-sensitive entries."""
    # Laplace(2s/eps), not s/eps: the scores need not be monotone (counting) queries, so
    # the winning threshold can move by 2s (Dwork-Roth Claim 3.9 with sensitivity 2s).
    fn = "report_noisy_max"
    s, eps = check.positive(fn, "s", s), check.positive(fn, "eps", eps)
    arr = check.finite_reals(fn, "scores", scores)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{fn}: scores must be a non-empty 1-D vector, got shape {arr.shape}")
    grid = Grid.for_sensitivity(s)
    draw = _laplace_draw(2 * (Fraction(s) + grid.step) / (Fraction(eps) * grid.step), rng)
    noisy = [grid.to_units(float(v)) + draw() for v in arr]
    return max(range(len(noisy)), key=noisy.__getitem__)


def above_threshold(queries: Sequence[Callable[[Any], float]], eps: float, data: Any, threshold: float, *,
                    rng: np.random.Generator | None = None) -> int | None:
    """The index of the first 1-sensitive query whose noisy value reaches the noisy threshold, or None (eps-DP)."""
    # Dwork-Roth Algorithm 1 (AboveThreshold), Theorem 3.23: Lap(2/eps) on the threshold,
    # fresh Lap(4/eps) on each query, stop at the first positive answer.
    fn = "above_threshold"
    eps = check.positive(fn, "eps", eps)
    check.iterable(fn, "queries", queries, "a collection of query functions")
    grid = Grid.for_sensitivity(1.0)
    s_eff = 1 + grid.step
    noisy_threshold = grid.to_units(check.finite_real(fn, "threshold", threshold)) + \
        _laplace_draw(2 * s_eff / (Fraction(eps) * grid.step), rng)()
    query_noise = _laplace_draw(4 * s_eff / (Fraction(eps) * grid.step), rng)
    for i, query in enumerate(queries):
        value = grid.to_units(check.finite_real(fn, f"the query result queries[{i}](data)", query(data)))
        if value + query_noise() >= noisy_threshold:
            return i
    return None


def randomized_response(eps: float, bit: T, *, rng: np.random.Generator | None = None) -> T:
    """bit kept with probability e^eps / (1 + e^eps), else flipped: an eps-local randomizer."""
    eps = check.positive("randomized_response", "eps", eps)
    truth = _bit(bit)
    src = as_source(rng)
    e = Fraction(eps)
    # P[keep] = 1/(1 + q), q = e^-eps: a fair coin keeps, else Bernoulli(q) flips, else retry.
    while True:
        if src.randbelow(2) == 0:
            keep = True
            break
        if bernoulli_exp(e.numerator, e.denominator, src):
            keep = False
            break
    return _like(bit, truth if keep else not truth)


def _bit(bit: Any) -> bool:
    """The truth value of a bit given as 0/1 or False/True (bool, int or float, numpy too).

    Any other number counts by its truth (nonzero, NaN included, is 1) rather than
    raising: an exception on some data values would show them to the caller, which no
    noise hides (docs/privacy.md, R-observed). Only what is not a number is refused.
    """
    value = check.item(bit)
    if not check.is_real(value):
        raise ValueError(f"randomized_response: bit must be 0 or 1 (or False/True), got {check.describe(bit)}")
    return bool(value != 0)


def _like(bit: T, value: bool) -> T:
    """value in the type of bit, so that reports look like the data (a 0-d array keeps its dtype)."""
    if isinstance(bit, np.ndarray):
        return cast(T, np.array(value, dtype=bit.dtype))
    return type(bit)(value)  # type: ignore[call-arg]  # bool, int, float and numpy types take one value


def _paired_rows(fn: str, m1: Any, m2: Any) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """m1 and m2 as arrays with the same number of rows, or a ValueError naming the culprit."""
    arrays = []
    for name, m in (("m1", m1), ("m2", m2)):
        try:
            arr = np.asarray(m)
        except (TypeError, ValueError):  # ragged nesting
            raise ValueError(f"{fn}: {name} must be a rectangular array, got {check.describe(m)}") from None
        if arr.ndim == 0:
            raise ValueError(f"{fn}: {name} must be an array of rows, got {check.describe(m)}")
        arrays.append(arr)
    a, b = arrays
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"{fn}: m1 and m2 must have the same number of rows, got shapes {a.shape} and {b.shape}")
    return a, b


def sample(k: int, m1: Any, m2: Any, *, rng: np.random.Generator | None = None) -> tuple[Any, Any]:
    """The same k rows of m1 (features) and m2 (labels), drawn uniformly without replacement."""
    a, b = _paired_rows("sample", m1, m2)
    k = check.count("sample", "k", k, minimum=0)
    if k > a.shape[0]:
        raise ValueError(f"sample: cannot sample {k} rows without replacement from {a.shape[0]}")
    idx = np.array(sample_indices(a.shape[0], k, as_source(rng)), dtype=np.intp)
    return a[idx], b[idx]


def parallel_fold_rows(f: Callable[[Acc, Any, Any], Acc], init: Acc, m1: Any, m2: Any) -> Acc:
    """acc = f(acc, row of m1, row of m2) over the rows in order, starting at init."""
    a, b = _paired_rows("parallel_fold_rows", m1, m2)
    acc = init
    for r1, r2 in zip(a, b):
        acc = f(acc, r1, r2)
    return acc


def shuffle(randomizer: Callable[[Any], Any], data: Any, *, rng: np.random.Generator | None = None) -> Any:
    """randomizer applied to every row, then a uniformly random permutation of the reports."""
    check.iterable("shuffle", "data", data, "a collection of records (a list, or an array of rows)")
    reports = [randomizer(row) for row in data]
    order = permutation(len(reports), as_source(rng))
    shuffled = [reports[i] for i in order]
    return np.asarray(shuffled) if isinstance(data, np.ndarray) else shuffled


def laplace_accuracy(b: float, k: int, beta: float) -> float:
    """b ln(k/beta): with probability 1 - beta every one of k Laplace(b) errors is at most this."""
    fn = "laplace_accuracy"
    b, k, beta = check.positive(fn, "b", b), check.count(fn, "k", k), check.open_probability(fn, "beta", beta)
    return b * math.log(k / beta)


def gaussian_accuracy(sigma: float, k: int, beta: float) -> float:
    """sigma sqrt(2 ln(2k/beta)): with probability 1 - beta every one of k N(0, sigma^2) errors is at most this."""
    fn = "gaussian_accuracy"
    sigma, k = check.positive(fn, "sigma", sigma), check.count(fn, "k", k)
    beta = check.open_probability(fn, "beta", beta)
    return sigma * math.sqrt(2 * math.log(2 * k / beta))
