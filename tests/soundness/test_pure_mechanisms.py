"""The exact distributions of pure_mechanisms.py describe what the runtime draws."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest

import pure_mechanisms  # type: ignore[import-not-found]
from dpsens.runtime import mechanisms

DRAWS = 10_000


def _agrees(frequencies: np.ndarray, log_probabilities: np.ndarray) -> bool:
    """Every outcome's count is within 5 binomial standard deviations of its expectation."""
    p = np.exp(log_probabilities)
    spread = 5 * np.sqrt(DRAWS * p * (1 - p)) + 1
    return bool(np.all(np.abs(frequencies - DRAWS * p) <= spread))


@pytest.mark.parametrize("values,threshold", [([0.0, 1.0, -1.0], 0.5), ([2.0, 2.0], 3.0)])
def test_above_threshold_matches_the_runtime(values: list[float], threshold: float) -> None:
    rng = np.random.default_rng(3)
    queries = [lambda _, v=v: v for v in values]
    counts = np.zeros(len(values) + 1)
    for _ in range(DRAWS):
        index = mechanisms.above_threshold(queries, 1.0, None, threshold, rng=rng)
        counts[len(values) if index is None else index] += 1
    assert _agrees(counts, pure_mechanisms.above_threshold(values, 1.0, threshold))


SCORES = [0.0, 0.5, 2.0]


@lru_cache(maxsize=1)
def _noisy_max_counts() -> tuple[float, ...]:
    """How often the runtime's report_noisy_max(1, 1, SCORES) picks each index (drawn once)."""
    rng = np.random.default_rng(4)
    counts = np.zeros(len(SCORES))
    for _ in range(DRAWS):
        counts[mechanisms.report_noisy_max(1.0, 1.0, SCORES, rng=rng)] += 1
    return tuple(counts)


def test_report_noisy_max_matches_the_runtime() -> None:
    assert _agrees(np.array(_noisy_max_counts()), pure_mechanisms.report_noisy_max(SCORES, 1.0, 1.0))


def test_a_wrong_distribution_is_told_apart() -> None:
    """The comparison above can fail: scale 2s/eps is not scale s/eps."""
    assert not _agrees(np.array(_noisy_max_counts()), pure_mechanisms.report_noisy_max(SCORES, 0.5, 1.0))


def test_deep_tails_keep_their_precision() -> None:
    """Outcomes of probability 1e-108 are where the loss is largest; their logs stay exact
    enough to show AboveThreshold's loss approaching, and never passing, eps."""
    eps = 2.5
    near = pure_mechanisms.above_threshold([100.0, 100.0, 100.0, -100.0], eps, 0.0)
    far = pure_mechanisms.above_threshold([101.0, 101.0, 101.0, -101.0], eps, 0.0)
    assert near[3] < math.log(1e-100)
    assert 0.99 * eps < pure_mechanisms.loss(near, far) <= eps


@pytest.mark.parametrize("values", [[0.0], [3.0, -1.0, 0.5, 7.0]])
def test_probabilities_add_up_to_one(values: list[float]) -> None:
    for log_p in (pure_mechanisms.above_threshold(values, 0.7, 1.0),
                  pure_mechanisms.report_noisy_max(values, 2.0, 0.7),
                  pure_mechanisms.exponential(values, 2.0, 0.7)):
        assert math.isclose(np.exp(log_p).sum(), 1.0, rel_tol=1e-9)
