"""The pieces of the privacy audit: exact binomial bounds, neighbouring pairs, events."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import stats as scipy_stats  # type: ignore[import-untyped]

from dpsens.audit import privacy_pairs
from dpsens.audit.metric_types import parse
from dpsens.audit.neighbours import measure
from dpsens.audit.privacy import Event, _Projector, audit_privacy, seeded_mechanisms
from dpsens.audit.stats import epsilon_lower_bound, lower_bound, upper_bound


@pytest.mark.parametrize("k,n", [(1, 10), (5, 10), (37, 1000), (999, 1000), (500, 1000)])
def test_clopper_pearson_bounds_invert_the_binomial_tail(k: int, n: int) -> None:
    alpha = 0.01
    lo, hi = lower_bound(k, n, alpha), upper_bound(k, n, alpha)
    # At the lower bound, seeing k or more successes has probability exactly alpha.
    assert scipy_stats.binom.sf(k - 1, n, lo) == pytest.approx(alpha, rel=1e-6)
    # At the upper bound, seeing k or fewer has probability exactly alpha.
    assert scipy_stats.binom.cdf(k, n, hi) == pytest.approx(alpha, rel=1e-6)
    assert 0 < lo < k / n < hi < 1


def test_bounds_at_the_edges() -> None:
    assert lower_bound(0, 100, 0.01) == 0.0
    assert upper_bound(100, 100, 0.01) == 1.0
    assert upper_bound(0, 100, 0.01) == pytest.approx(1 - 0.01 ** (1 / 100))


def test_epsilon_lower_bound() -> None:
    # 500/1000 against 50/1000: the ratio is 10, the bound somewhat below ln 10.
    bound = epsilon_lower_bound(500, 50, 1000, 1000, 0.0, 0.01)
    assert 1.5 < bound < math.log(10)
    # delta absorbs small probabilities entirely.
    assert epsilon_lower_bound(10, 0, 1000, 1000, 0.5, 0.01) == -math.inf
    # Equal counts never prove a positive epsilon.
    assert epsilon_lower_bound(300, 300, 1000, 1000, 0.0, 0.01) < 0


def test_the_bound_is_valid_on_a_known_mechanism() -> None:
    """Randomized response at eps = 1: over many seeds the 99% bound rarely exceeds 1."""
    p = math.e / (1 + math.e)
    rng = np.random.default_rng(0)
    exceed = 0
    for _ in range(200):
        a, b = rng.binomial(2000, p), rng.binomial(2000, 1 - p)
        exceed += epsilon_lower_bound(a, b, 2000, 2000, 0.0, 0.01) > 1.0
    assert exceed <= 6  # expected <= 2 (1%); a loose margin keeps the test stable


METRICS = ["Real", "Integer", "Data", "Bool",
           "MetricVector[L1, Real]", "MetricVector[L2, Real]", "MetricVector[L_inf, Real]",
           "MetricVector[L1, Data]", "MetricVector[L2, Data]", "MetricVector[L_inf, Data]",
           "MetricVector[L1, Integer]", "MetricVector[L_inf, Integer]",
           "MetricMatrix[L_inf, Data]", "MetricMatrix[L1, Data]", "MetricMatrix[L2, Real]",
           "MetricMatrix[L1, Real]", "MetricMatrix[L_inf, Real]",
           "ClippedMatrix[L2, L2, Real]", "ClippedVector[L1, L1, Real]"]


@pytest.mark.parametrize("text", METRICS)
def test_every_privacy_pair_is_at_distance_at_most_one(text: str) -> None:
    metric = parse(text)
    if metric is None:
        pytest.skip(f"{text} is not a drawable type")
    rng = np.random.default_rng(1)
    total = 0
    for _, base in privacy_pairs.bases(metric, 6, 3, rng):
        for label, other in privacy_pairs.neighbours(metric, base, rng):
            d = measure(metric, base, other)
            assert 0 < d <= 1 + 1e-12, (label, d)
            total += 1
    assert total >= 2


def test_adversarial_pairs_include_an_extreme_record() -> None:
    metric = parse("MetricMatrix[L_inf, Data]")
    assert metric is not None
    base = np.zeros((4, 2))
    labels = [label for label, _ in privacy_pairs.neighbours(metric, base, np.random.default_rng(0))]
    assert "first row: extreme" in labels and "first row: -extreme" in labels


def test_every_score_moves_together_under_l_inf() -> None:
    metric = parse("MetricVector[L_inf, Real]")
    assert metric is not None
    pairs = dict(privacy_pairs.neighbours(metric, np.zeros(5), np.random.default_rng(0)))
    assert np.array_equal(pairs["+1 on every coordinate"], np.ones(5))


def test_integer_inputs_stay_integers() -> None:
    metric = parse("MetricVector[L1, Integer]")
    assert metric is not None
    for _, base in privacy_pairs.bases(metric, 5, 1, np.random.default_rng(0)):
        assert base.dtype.kind == "i"
        for _, other in privacy_pairs.neighbours(metric, base, np.random.default_rng(0)):
            assert other.dtype.kind == "i"


def test_projections_of_vector_outputs() -> None:
    outputs = [np.array([1.0, 3.0, 2.0]), np.array([0.0, 0.0, 5.0])]
    projector = _Projector(outputs)
    projector.fit(outputs[:1], outputs[1:])
    values = projector.project(outputs)
    assert list(values["sum"]) == [6.0, 5.0]
    assert list(values["argmax"]) == [1.0, 2.0]
    assert list(values["coordinate 2"]) == [2.0, 5.0]
    assert "discriminant" in projector.names


def test_none_outputs_are_an_event_of_their_own() -> None:
    projector = _Projector([None, 1, 2])
    assert list(projector.project([None, 2])["value"]) == [-math.inf, 2.0]
    assert Event("value", "==", -math.inf).describe() == "output == None"


def test_seeded_mechanisms_are_deterministic_and_restored() -> None:
    from dpsens import laplace_mechanism
    from dpsens.runtime import rng

    with seeded_mechanisms(3):
        first = [laplace_mechanism(1.0, 1.0, 0.0) for _ in range(5)]
    with seeded_mechanisms(3):
        second = [laplace_mechanism(1.0, 1.0, 0.0) for _ in range(5)]
    assert first == second
    assert isinstance(rng._SYSTEM, rng.SystemSource)


def test_audit_privacy_api_on_a_plain_function() -> None:
    """The library API, without a file: a randomized-response bit at a claimed eps."""
    from dpsens import randomized_response

    def rr(bit: float, eps: float) -> float:
        return float(randomized_response(eps, int(bit != 0)))

    report = {"params": [{"name": "bit", "type": "Bool", "static": False,
                          "epsilon": "eps", "delta": "0"},
                         {"name": "eps", "type": "Static[float]", "static": True}],
              "assumptions": [], "returns": "Bool"}
    honest = audit_privacy(rr, report, {"eps": 1.0}, runs=3000, seed=1)
    assert not honest.violations and honest.tested
    lying = audit_privacy(rr, report, {"eps": 1.0}, runs=3000, seed=1, claim=(0.5, 0.0))
    assert lying.violations and lying.violations[0].epsilon_lower > 0.5


def test_a_function_that_mutates_its_input_does_not_hide_a_violation() -> None:
    """Every run gets a fresh copy: otherwise the zeroed inputs would look identical after one run."""
    from dpsens import laplace_mechanism

    def release(v: Any, eps: float) -> float:
        value = float(laplace_mechanism(0.5, eps, float(np.sum(np.clip(v, 0.0, 1.0)))))  # half noise
        v[:] = 0.0  # mutates the caller's array
        return value

    report = {"params": [{"name": "v", "type": "MetricVector[L1, Data]", "static": False,
                          "epsilon": "eps", "delta": "0"},
                         {"name": "eps", "type": "Static[float]", "static": True}],
              "assumptions": [], "returns": "Real"}
    outcome = audit_privacy(release, report, {"eps": 1.0}, runs=2000, seed=2)
    assert outcome.violations and outcome.violations[0].epsilon_lower > 1.0


@pytest.mark.parametrize("text", ["Bool", "MetricVector[L1, Bool]", "MetricMatrix[L_inf, Bool]"])
def test_bool_pairs_hold_only_zeros_and_ones(text: str) -> None:
    """A Bool parameter only ever holds 0 or 1: pairs of ±1e6 refuted a correct claim of 7
    for 7·b (a false counterexample, exit 1)."""
    from dpsens.audit import neighbours

    metric = parse(text)
    if metric is None:
        pytest.skip(f"{text} is not a drawable type")
    for a, b in neighbours.adversarial_pairs(metric, 4, 3):
        assert set(np.unique(np.asarray(a, dtype=float))) <= {0.0, 1.0}
        assert set(np.unique(np.asarray(b, dtype=float))) <= {0.0, 1.0}
