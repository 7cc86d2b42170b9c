"""Local randomizers at run time: output distributions, privacy ratios, estimators, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpsens.runtime.local import (
    kary_randomized_response, kary_rr_accuracy, kary_rr_estimate, local_laplace,
)


def draws(value: int, eps: float, k: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([kary_randomized_response(eps, value, k, rng=rng) for _ in range(n)])


def test_kary_rr_keeps_with_the_right_probability() -> None:
    eps, k, n = 1.0, 4, 20000
    out = draws(2, eps, k, n, seed=1)
    p = math.exp(eps) / (math.exp(eps) + k - 1)
    frequencies = np.bincount(out, minlength=k) / n
    assert frequencies[2] == pytest.approx(p, abs=0.015)
    for other in (0, 1, 3):
        assert frequencies[other] == pytest.approx((1 - p) / (k - 1), abs=0.015)


def test_kary_rr_privacy_ratio_on_neighbouring_values() -> None:
    eps, k, n = 0.8, 3, 30000
    a = np.bincount(draws(0, eps, k, n, seed=2), minlength=k) / n
    b = np.bincount(draws(1, eps, k, n, seed=3), minlength=k) / n
    ratio = np.max(np.abs(np.log(a / b)))
    assert ratio <= eps + 0.08  # sampling error allowance at these counts
    assert ratio >= eps - 0.08  # and the guarantee is tight


def test_estimator_is_unbiased_and_within_the_reported_accuracy() -> None:
    eps, k, n, beta = 1.0, 4, 2000, 0.05
    rng = np.random.default_rng(4)
    values = rng.integers(0, k, size=n)
    truth = np.bincount(values, minlength=k)
    alpha = kary_rr_accuracy(eps, k, n, beta)
    errors, failures = [], 0
    for trial in range(60):
        reports = [kary_randomized_response(eps, int(v), k, rng=rng) for v in values]
        error = kary_rr_estimate(reports, eps, k) - truth
        errors.append(error)
        failures += bool(np.max(np.abs(error)) > alpha)
    assert abs(float(np.mean(errors))) < alpha / 5  # unbiased
    assert failures <= 3  # at most beta (5%) of 60 runs, with room for sampling error


def test_local_laplace_clamps_and_scales() -> None:
    rng = np.random.default_rng(5)
    samples = np.array([local_laplace(1.0, 10.0, 0.0, 2.0, rng=rng) for _ in range(20000)])
    assert float(np.median(samples)) == pytest.approx(2.0, abs=0.05)  # clamped to the bound
    assert float(np.mean(np.abs(samples - 2.0))) == pytest.approx(2.0, rel=0.05)  # b = 2/1


@pytest.mark.parametrize("call, message", [
    (lambda: kary_randomized_response(0.0, 1, 3), "eps"),
    (lambda: kary_randomized_response(1.0, True, 3), "integer"),
    (lambda: kary_randomized_response(1.0, 0, 1), "k"),
    (lambda: local_laplace(1.0, 0.5, 1.0, 0.0), "lower < upper"),
    (lambda: local_laplace(-1.0, 0.5, 0.0, 1.0), "eps"),
])
def test_bad_parameters_are_refused(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
