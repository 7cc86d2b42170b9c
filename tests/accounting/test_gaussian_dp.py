"""Gaussian-only histories are accounted exactly by Gaussian DP (compose._gaussian_dp)."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import optimize, stats

from dpsens.privacy.compose import account
from dpsens.privacy.ledger import Charge, VarChoice, VarLoop, VarSampled
from dpsens.sym import expr as E

DELTA = 1e-5


def _gaussian(multiplier: float) -> Charge:
    """A Gaussian charge with noise multiplier σ/r; its own (ε, δ) is deliberately loose."""
    return Charge(E.number(50.0), E.number(1e-6), rho=E.number(1 / (2 * multiplier**2)),
                  gaussian=E.number(multiplier))


def _exact_epsilon(mu: float, delta: float) -> float:
    """The ε with δ(ε) = delta on the μ-GDP curve, solved independently with scipy."""
    def excess(eps: float) -> float:
        return (stats.norm.cdf(mu / 2 - eps / mu)
                - math.exp(eps) * stats.norm.cdf(-mu / 2 - eps / mu) - delta)
    return optimize.brentq(excess, 0.0, 200.0, xtol=1e-12)


def test_loops_and_branches_of_gaussians_get_the_exact_curve() -> None:
    # 30 steps at σ/r = 4, then a public branch: 10 steps at σ/r = 2, or one at σ/r = 1.
    history = (VarLoop(E.number(30), (_gaussian(4.0),)),
               VarChoice(((VarLoop(E.number(10), (_gaussian(2.0),)),), (_gaussian(1.0),))))
    cost = account(history, DELTA)
    mu = math.sqrt(30 / 16 + max(10 / 4, 1.0))
    exact = _exact_epsilon(mu, DELTA)
    assert cost.method == "gdp"
    assert float(cost.delta) == DELTA
    assert exact <= float(cost.epsilon) <= exact * (1 + 1e-5)  # sound, and tight to 6 digits


@pytest.mark.dp_accounting
def test_no_accountant_beats_the_exact_curve() -> None:
    from dpsens.privacy import dp_events

    history = (VarLoop(E.number(100), (_gaussian(5.0),)),)
    exact = float(account(history, DELTA).epsilon)
    pld = dp_events.pld_cost(history, DELTA)
    rdp = dp_events.rdp_cost(history, DELTA)
    assert pld is not None and rdp is not None
    assert exact <= float(pld.epsilon) + 1e-5 and exact < float(rdp.epsilon)


def test_laplace_or_sampling_leaves_the_exact_curve() -> None:
    laplace = Charge(E.number(0.1), E.ZERO, rho=E.number(0.005), laplace=E.number(10.0))
    mixed = (VarLoop(E.number(20), (_gaussian(4.0), laplace)),)
    assert account(mixed, DELTA).method != "gdp"
    sampled = (VarLoop(E.number(20), (VarSampled(E.number(10), E.number(1000), (_gaussian(1.0),)),)),)
    assert account(sampled, DELTA).method != "gdp"


def test_symbolic_counts_are_not_guessed() -> None:
    history = (VarLoop(E.static_symbol("k"), (_gaussian(4.0),)),)
    assert account(history, DELTA).method != "gdp"


def _delta_with_a_pure_step(mu: float, eps0: float, eps: float) -> float:
    """δ(ε) of μ-GDP composed with the worst ε0-DP mechanism, randomized response (every
    ε0-DP mechanism is a post-processing of it): its loss is ±ε0, and
    δ(ε) = Σ_r P(r)·δ_μ(ε − r), with δ_μ the Gaussian curve (any real argument)."""
    def gaussian(t: float) -> float:
        return float(stats.norm.cdf(mu / 2 - t / mu) - math.exp(t) * stats.norm.cdf(-mu / 2 - t / mu))
    p = 1 / (1 + math.exp(-eps0))
    return p * gaussian(eps - eps0) + (1 - p) * gaussian(eps + eps0)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(1, 200), st.floats(0.5, 20.0), st.floats(0.01, 2.0))
def test_gaussians_beside_a_pure_step_are_never_undercounted(k: int, multiplier: float,
                                                            eps0: float) -> None:
    """Whatever method account() picks for k Gaussians and one ε0-DP step (the split of
    the Gaussian part, exact, and the rest among them), the true δ at the reported ε is
    at most the reported δ (checked against the exact loss of the composition)."""
    pure = Charge(E.number(eps0), E.ZERO, rho=E.number(eps0**2 / 2))
    history = (VarLoop(E.number(k), (_gaussian(multiplier),)), pure)
    cost = account(history, DELTA)
    mu = math.sqrt(k) / multiplier
    truth = _delta_with_a_pure_step(mu, eps0, float(cost.epsilon))
    assert truth <= float(cost.delta) * (1 + 1e-9) + 1e-15, cost.method


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.floats(-300.0, 1.5), st.floats(-300.0, -2.0))
@example(-6.0, -100.0)  # floats certified it, 1e-5 relatively above delta
@example(0.0, -198.51193371876053)  # mu = s/sigma as a float quotient: 6e-14 above
@example(-300.0, -300.0)  # review33: sigma cancelled to 0 (DPS001); 60 digits certified 5e63
@example(-200.0, -5.0)
def test_the_analytic_sigma_meets_its_delta_in_exact_arithmetic(log_eps: float,
                                                               log_delta: float) -> None:
    """Balle–Wang's Theorem 8 at the σ returned, in 400 digits (the two terms are near 1/2
    for a tiny ε and differ by δ): at ε = 1e-6, δ = 1e-100 the float certificate let δ be
    exceeded by a relative 1e-5, and at ε = 1e-300 the calibration divided by zero."""
    import mpmath

    from dpsens.accounting.gaussian import analytic_gaussian_sigma

    eps, delta = 10.0 ** log_eps, 10.0 ** log_delta
    sigma = analytic_gaussian_sigma(1.0, eps, delta)
    with mpmath.workdps(400):
        e, mu = mpmath.mpf(eps), 1 / mpmath.mpf(sigma)
        exact = mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu)
        assert exact <= mpmath.mpf(delta)
        assert exact >= mpmath.mpf(delta) * (1 - mpmath.mpf(1e-3))  # and still tight


def test_a_calibration_is_computed_once_per_parameters() -> None:
    """A loop releasing with the same parameters calibrates once (5 ms of exact arithmetic
    each); ints and numpy floats are the same key as the floats they equal."""
    import numpy as np

    from dpsens.accounting.gaussian import _calibrated, analytic_gaussian_sigma

    _calibrated.cache_clear()
    first = analytic_gaussian_sigma(1.0, 0.7, 1e-6)
    assert [analytic_gaussian_sigma(1, 0.7, 1e-6),
            analytic_gaussian_sigma(np.float64(1.0), np.float64(0.7), 1e-6)] == [first, first]
    assert _calibrated.cache_info().misses == 1 and _calibrated.cache_info().hits == 2
    assert analytic_gaussian_sigma(2.0, 0.7, 1e-6) == pytest.approx(2 * first, rel=1e-9)
