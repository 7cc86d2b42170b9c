"""Runtime mechanisms: exact samplers, noise scales, validation, empirical privacy loss, accuracy."""

from __future__ import annotations

import math
import pathlib
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from dpsens.runtime import mechanisms as M
from dpsens.runtime.rng import GeneratorSource, as_source, sample_indices
from dpsens.runtime.sampling import Grid, bernoulli_exp, discrete_gaussian, discrete_laplace


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def max_bin_log_ratio(a: np.ndarray, b: np.ndarray, edges: np.ndarray, min_count: int) -> float:
    """Largest |log(P_a(bin) / P_b(bin))| over bins with at least min_count samples in both."""
    ca, _ = np.histogram(a, edges)
    cb, _ = np.histogram(b, edges)
    ok = (ca >= min_count) & (cb >= min_count)
    assert ok.sum() >= 5, "too few well-populated bins for a meaningful test"
    ratios = np.log((ca[ok] / a.size) / (cb[ok] / b.size))
    return float(np.max(np.abs(ratios)))


# --- exact samplers ---------------------------------------------------------------------------

@pytest.mark.parametrize("num,den", [(0, 1), (1, 3), (1, 1), (5, 2)])
def test_bernoulli_exp_frequency(num: int, den: int) -> None:
    src = as_source(rng(1))
    n = 20000
    hits = sum(bernoulli_exp(num, den, src) for _ in range(n))
    p = math.exp(-num / den)
    assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-9


def test_discrete_laplace_matches_its_pmf() -> None:
    # scale t/s = 3/2: P[z] ∝ exp(-|z| 2/3); compare the empirical pmf on -4..4 with the exact one.
    src = as_source(rng(2))
    z = np.array([discrete_laplace(3, 2, src) for _ in range(30000)])
    r = math.exp(-2 / 3)
    norm = (1 + r) / (1 - r)
    for v in range(-4, 5):
        p = r ** abs(v) / norm
        assert abs(np.mean(z == v) - p) < 4 * math.sqrt(p * (1 - p) / z.size)


def test_discrete_gaussian_matches_its_pmf() -> None:
    src = as_source(rng(3))
    z = np.array([discrete_gaussian(9, 4, src) for _ in range(30000)])  # sigma^2 = 9/4
    weights = {v: math.exp(-v * v / (2 * 2.25)) for v in range(-40, 41)}
    total = sum(weights.values())
    for v in range(-4, 5):
        p = weights[v] / total
        assert abs(np.mean(z == v) - p) < 4 * math.sqrt(p * (1 - p) / z.size)


def test_generator_source_exact_for_huge_ranges() -> None:
    src = GeneratorSource(rng(4))
    n = 3 * 2**100 + 7
    draws = [src.randbelow(n) for _ in range(2000)]
    assert all(0 <= d < n for d in draws)
    assert 0.45 < np.mean([d < n // 2 for d in draws]) < 0.55


def test_grid_rounds_to_nearest_and_back() -> None:
    g = Grid(-3)
    assert g.to_units(0.3) == 2 and g.to_units(-0.3) == -2  # 0.3 / 0.125 = 2.4
    assert g.to_float(5) == 0.625
    fine = Grid.for_sensitivity(1.0, coords=1000)
    assert fine.step * 1000 <= Fraction(1, 2**40)


def test_outputs_lie_on_the_power_of_two_grid() -> None:
    # The noisy value is an exact grid point (rounded to float only at the very end):
    # the output set does not depend on the float pattern of the textbook sampler.
    y = M.laplace_mechanism(1.0, 1.0, np.full(200, 0.1), rng=rng(5))
    step = Grid.for_sensitivity(1.0, coords=200).step
    assert all((Fraction(float(v)) / step).denominator == 1 for v in y)


def test_no_random_module_and_no_global_seed() -> None:
    root = pathlib.Path(M.__file__).parent
    for name in ("mechanisms.py", "rng.py", "sampling.py"):
        text = (root / name).read_text()
        assert "import random" not in text and "np.random.seed" not in text
    a = M.laplace_mechanism(1.0, 1.0, np.zeros(8))
    b = M.laplace_mechanism(1.0, 1.0, np.zeros(8))
    assert not np.array_equal(a, b)  # default source: fresh OS randomness every call


def test_seeded_generator_is_reproducible() -> None:
    assert np.array_equal(M.laplace_mechanism(1.0, 0.5, np.zeros(5), rng=rng(7)),
                          M.laplace_mechanism(1.0, 0.5, np.zeros(5), rng=rng(7)))


# --- noise scales -----------------------------------------------------------------------------

def test_laplace_scale_is_s_over_eps() -> None:
    s, eps = 2.0, 0.5
    noise = M.laplace_mechanism(s, eps, np.zeros(20000), rng=rng(8))
    b = s / eps
    assert abs(np.mean(np.abs(noise)) / b - 1) < 0.03  # E|Lap(b)| = b
    assert abs(np.mean(noise)) < 4 * b * math.sqrt(2 / noise.size)
    assert isinstance(M.laplace_mechanism(1.0, 1.0, 3.0, rng=rng(0)), float)
    assert M.laplacian_mechanism is M.laplace_mechanism


def test_gaussian_std_matches_analytic_sigma_and_zcdp_sigma() -> None:
    x = np.zeros(20000)
    sigma = M.analytic_gaussian_sigma(1.5, 1.0, 1e-5)
    assert abs(np.std(M.gaussian_mechanism(1.5, 1.0, 1e-5, x, rng=rng(9))) / sigma - 1) < 0.03
    zsigma = 1.5 / math.sqrt(2 * 0.3)
    assert abs(np.std(M.gaussian_mechanism_zcdp(1.5, 0.3, x, rng=rng(10))) / zsigma - 1) < 0.03
    out = M.gaussian_mechanism(1.0, 1.0, 1e-5, np.ones((3, 4)), rng=rng(11))
    assert out.shape == (3, 4)


def test_thousand_samples_are_fast() -> None:
    import time
    start = time.perf_counter()
    M.laplace_mechanism(1.0, 1.0, np.zeros(1000))
    M.gaussian_mechanism(1.0, 1.0, 1e-6, np.zeros(1000))
    assert time.perf_counter() - start < 1.0


# --- validation -------------------------------------------------------------------------------

@pytest.mark.parametrize("call,match", [
    (lambda: M.laplace_mechanism(1.0, 0.0, 1.0), "eps"),
    (lambda: M.laplace_mechanism(1.0, -1.0, 1.0), "eps"),
    (lambda: M.laplace_mechanism(0.0, 1.0, 1.0), "s must be > 0"),
    (lambda: M.laplace_mechanism(1.0, math.inf, 1.0), "eps must be finite"),
    (lambda: M.laplace_mechanism(1.0, 1.0, [1.0, math.nan]), "NaN or infinite"),
    (lambda: M.laplace_mechanism(1.0, 1.0, math.inf), "NaN or infinite"),
    (lambda: M.laplace_mechanism(1.0, 1.0, "abc"), "numeric"),
    (lambda: M.gaussian_mechanism(1.0, 1.0, 0.0, 1.0), "delta must lie in"),
    (lambda: M.gaussian_mechanism(1.0, 1.0, 1.0, 1.0), "delta must lie in"),
    (lambda: M.gaussian_mechanism_zcdp(1.0, 0.0, 1.0), "rho"),
    (lambda: M.analytic_gaussian_sigma(-1.0, 1.0, 1e-5), "s must be > 0"),
    (lambda: M.sample(2, np.zeros((5, 2)), np.zeros(4)), "same number of rows"),
    (lambda: M.sample(6, np.zeros((5, 2)), np.zeros(5)), "cannot sample 6"),
    (lambda: M.parallel_fold_rows(lambda a, r, l: a, 0, np.zeros(3), np.zeros(2)), "same number of rows"),
    (lambda: M.exponential_mechanism(1.0, 1.0, [], lambda d, r: 0.0, None), "at least one candidate"),
    (lambda: M.exponential_mechanism(1.0, 1.0, [1], lambda d, r: math.nan, None), "NaN"),
    (lambda: M.report_noisy_max(1.0, 1.0, np.zeros((2, 2))), "1-D"),
    (lambda: M.laplace_accuracy(1.0, 3, 1.5), "beta"),
    (lambda: M.gaussian_accuracy(1.0, 0, 0.1), "k must be >= 1"),
])
def test_validation_errors(call, match: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=match):
        call()


def test_rng_must_be_a_generator() -> None:
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        M.laplace_mechanism(1.0, 1.0, 0.0, rng=42)  # type: ignore[arg-type]


# --- empirical privacy loss on neighbouring inputs f(x) = 0, f(x') = s --------------------------

def test_laplace_empirical_privacy_loss_within_eps() -> None:
    s, eps, n = 1.0, 1.0, 40000
    a = M.laplace_mechanism(s, eps, np.zeros(n), rng=rng(20))
    b = M.laplace_mechanism(s, eps, np.full(n, s), rng=rng(21))
    loss = max_bin_log_ratio(a, b, np.linspace(-3, 4, 29), min_count=800)
    assert loss <= eps + 0.15
    assert loss >= eps - 0.25  # and the bound is essentially attained: the test can fail


def test_gaussian_empirical_hockey_stick_within_delta() -> None:
    s, eps, delta, n = 1.0, 1.0, 0.05, 40000
    a = M.gaussian_mechanism(s, eps, delta, np.zeros(n), rng=rng(22))
    b = M.gaussian_mechanism(s, eps, delta, np.full(n, s), rng=rng(23))
    sigma = M.analytic_gaussian_sigma(s, eps, delta)
    edges = np.linspace(-5 * sigma, s + 5 * sigma, 61)
    pa = np.histogram(a, edges)[0] / n
    pb = np.histogram(b, edges)[0] / n
    est = float(np.sum(np.maximum(pa - math.exp(eps) * pb, 0.0)))
    assert est <= delta + 0.01
    assert est >= delta - 0.015  # the analytic calibration is tight, not merely safe


def test_report_noisy_max_privacy_loss() -> None:
    s, eps, n = 1.0, 1.0, 3000
    # each score moves by at most s between the neighbours
    a = [M.report_noisy_max(s, eps, [0.0, 0.0], rng=rng(100 + i)) for i in range(n)]
    b = [M.report_noisy_max(s, eps, [-s, s], rng=rng(10000 + i)) for i in range(n)]
    p0a, p0b = a.count(0) / n, b.count(0) / n
    assert abs(math.log(p0a / p0b)) <= eps + 0.15
    assert abs(math.log((1 - p0a) / (1 - p0b))) <= eps + 0.15


def test_exponential_mechanism_distribution_and_loss() -> None:
    cands = [0, 1, 2, 3]
    util = lambda d, r: -abs(r - d)  # noqa: E731 - 1-sensitive in d
    n = 6000
    src = rng(30)
    a = np.array([M.exponential_mechanism(1.0, 2.0, cands, util, 0, rng=src) for _ in range(n)])
    b = np.array([M.exponential_mechanism(1.0, 2.0, cands, util, 1, rng=src) for _ in range(n)])
    expected = np.exp(-np.arange(4.0))
    expected /= expected.sum()  # P[r] ∝ exp(2 * -|r| / 2)
    freq = np.bincount(a, minlength=4) / n
    assert np.all(np.abs(freq - expected) < 4 * np.sqrt(expected * (1 - expected) / n))
    fb = np.bincount(b, minlength=4) / n
    ok = (freq * n > 300) & (fb * n > 300)
    assert np.all(np.abs(np.log(freq[ok] / fb[ok])) <= 2.0 + 0.15)


def test_exponential_mechanism_huge_utility_gaps_are_stable() -> None:
    cands = ["a", "b", "c"]
    util = {"a": 0.0, "b": 1e6, "c": -1e300}
    assert M.exponential_mechanism(1.0, 1.0, cands, lambda d, r: util[r], None, rng=rng(31)) == "b"


def test_above_threshold_privacy_and_behaviour() -> None:
    n, eps = 3000, 1.0
    queries = [lambda d: d]  # 1-sensitive
    a = [M.above_threshold(queries, eps, 0.0, 0.0, rng=rng(200 + i)) for i in range(n)]
    b = [M.above_threshold(queries, eps, 1.0, 0.0, rng=rng(20000 + i)) for i in range(n)]
    pa, pb = a.count(0) / n, b.count(0) / n
    assert abs(math.log(pa / pb)) <= eps + 0.15
    assert abs(math.log((1 - pa) / (1 - pb))) <= eps + 0.15
    far = [lambda d: -1e6, lambda d: -1e6, lambda d: 1e6]
    assert M.above_threshold(far, eps, None, 0.0, rng=rng(3)) == 2
    assert M.above_threshold([lambda d: -1e6], eps, None, 0.0, rng=rng(3)) is None


def test_randomized_response_keep_probability() -> None:
    n, eps = 20000, 1.0
    src = rng(40)
    kept = sum(M.randomized_response(eps, 1, rng=src) for _ in range(n)) / n
    p = math.exp(eps) / (1 + math.exp(eps))
    assert abs(kept - p) < 4 * math.sqrt(p * (1 - p) / n)
    assert M.randomized_response(eps, True, rng=src) in (True, False)
    assert isinstance(M.randomized_response(eps, True, rng=src), bool)


# --- analytic Gaussian (Balle & Wang 2018) ------------------------------------------------------

def bw_delta(eps: float, s: float, sigma: float) -> float:
    """Balle-Wang Theorem 8, computed independently with scipy (log space for the second term)."""
    a = s / (2 * sigma) - eps * sigma / s
    b = -s / (2 * sigma) - eps * sigma / s
    return float(stats.norm.cdf(a) - np.exp(eps + stats.norm.logcdf(b)))


@pytest.mark.parametrize("eps,delta", [(0.01, 1e-5), (0.1, 1e-6), (0.5, 1e-5), (1.0, 1e-5),
                                       (3.0, 1e-3), (10.0, 1e-10), (50.0, 1e-5), (0.7, 0.4)])
def test_analytic_sigma_solves_balle_wang_equation(eps: float, delta: float) -> None:
    sigma = M.analytic_gaussian_sigma(1.0, eps, delta)
    assert bw_delta(eps, 1.0, sigma) <= delta * (1 + 1e-9)
    assert bw_delta(eps, 1.0, sigma * (1 - 1e-6)) > delta * (1 - 1e-4)  # smallest such sigma
    assert M.analytic_gaussian_sigma(3.0, eps, delta) == pytest.approx(3 * sigma, rel=1e-9)


@pytest.mark.parametrize("eps", [0.05, 0.3, 0.9])
def test_analytic_sigma_beats_classical_calibration(eps: float) -> None:
    delta = 1e-5
    classical = math.sqrt(2 * math.log(1.25 / delta)) / eps
    assert M.analytic_gaussian_sigma(1.0, eps, delta) < classical


# --- accuracy (SPEC §7) -------------------------------------------------------------------------

def test_accuracy_formulas() -> None:
    assert M.laplace_accuracy(2.0, 10, 0.05) == pytest.approx(2.0 * math.log(200))
    assert M.gaussian_accuracy(3.0, 10, 0.05) == pytest.approx(3.0 * math.sqrt(2 * math.log(400)))


def test_accuracy_bounds_hold_empirically() -> None:
    k, beta, trials = 10, 0.1, 2000
    b = 1.0 / 0.5
    lap = M.laplace_mechanism(1.0, 0.5, np.zeros((trials, k)), rng=rng(50))
    lap_fail = np.mean(np.max(np.abs(lap), axis=1) > M.laplace_accuracy(b, k, beta))
    sigma = M.analytic_gaussian_sigma(1.0, 1.0, 1e-5)
    gau = M.gaussian_mechanism(1.0, 1.0, 1e-5, np.zeros((trials, k)), rng=rng(51))
    gau_fail = np.mean(np.max(np.abs(gau), axis=1) > M.gaussian_accuracy(sigma, k, beta))
    tol = 3 * math.sqrt(beta * (1 - beta) / trials)
    assert lap_fail <= beta + tol and gau_fail <= beta + tol
    assert lap_fail >= beta / 3  # the union bound is loose by < 3x here; the test can fail


# --- sampling, folding, shuffling -----------------------------------------------------------------

def test_sample_without_replacement_keeps_rows_paired() -> None:
    m1 = np.arange(20.0).reshape(10, 2)
    m2 = np.arange(10) * 7
    d, l = M.sample(4, m1, m2, rng=rng(60))
    assert d.shape == (4, 2) and l.shape == (4,)
    rows = (d[:, 0] / 2).astype(int)
    assert np.array_equal(l, rows * 7)
    assert len(set(rows)) == 4


def test_sample_indices_uniform() -> None:
    src = as_source(rng(61))
    counts = np.zeros(6)
    for _ in range(6000):
        idx = sample_indices(6, 2, src)
        assert len(set(idx)) == 2
        counts[idx] += 1
    assert np.all(np.abs(counts / 6000 - 2 / 6) < 0.03)


def test_parallel_fold_rows_visits_pairs_in_order() -> None:
    start: list[tuple[int, int]] = []
    seen = M.parallel_fold_rows(lambda acc, r1, r2: acc + [(int(r1), int(r2))], start, np.arange(3), np.arange(3) * 2)
    assert seen == [(0, 0), (1, 2), (2, 4)]


def test_shuffle_randomizes_every_row_then_permutes() -> None:
    out = M.shuffle(lambda r: r * 10, np.arange(50), rng=rng(62))
    assert sorted(out.tolist()) == list(range(0, 500, 10))
    assert out.tolist() != list(range(0, 500, 10))
    rr = M.shuffle(lambda bit: M.randomized_response(1.0, bit, rng=rng(63)), [0, 1, 1], rng=rng(64))
    assert isinstance(rr, list) and len(rr) == 3
