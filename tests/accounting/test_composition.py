"""Basic and advanced (Dwork-Rothblum-Vadhan) composition, and the choice between them."""

from __future__ import annotations

import math

import pytest

from dpsens.accounting import advanced_composition, basic_composition, best_k_fold


def simplified_drv(eps: float, k: int, delta_prime: float) -> float:
    """The shorthand 2 eps sqrt(2k ln(1/delta')) -- sound only when the result is below 1."""
    return 2 * eps * math.sqrt(2 * k * math.log(1 / delta_prime))


def test_basic_composition_sums_terms() -> None:
    assert basic_composition([(0.5, 1e-6), (0.25, 0.0), (1.0, 1e-5)]) == pytest.approx((1.75, 1.1e-5))
    assert basic_composition([]) == (0.0, 0.0)


def test_advanced_composition_matches_hand_computation() -> None:
    # 0.1 * sqrt(200 * ln(1e5)) = 0.1 * sqrt(2302.585093) = 4.798526
    # 100 * 0.1 * (e^0.1 - 1)   = 10 * 0.105170918     = 1.051709
    eps, delta = advanced_composition(0.1, 1e-7, 100, 1e-5)
    assert eps == pytest.approx(4.798526 + 1.051709, abs=2e-6)
    assert delta == pytest.approx(100 * 1e-7 + 1e-5)
    # k = 1, eps = 1, delta' = e^-2: 1 * sqrt(2 * 2) + (e - 1) = 2 + 1.718282
    assert advanced_composition(1.0, 0.0, 1, math.exp(-2))[0] == pytest.approx(3.718282, abs=1e-6)


def test_hundred_laplace_best_bound_in_expected_range() -> None:
    eps, delta, method = best_k_fold(0.1, 0.0, 100, 1e-5)
    assert method == "advanced"
    assert 4.2 <= eps <= 5.9
    assert eps == pytest.approx(5.850235, abs=1e-6)
    assert delta == pytest.approx(1e-5)


def test_large_eps_falls_back_to_basic() -> None:
    # eps = 2, k = 10: advanced is 30.3 + 127.8 = 158 > basic 20, so basic is reported.
    eps, delta, method = best_k_fold(2.0, 1e-6, 10, 1e-5)
    assert (eps, method) == (20.0, "basic") and delta == pytest.approx(1e-5)
    true_min = min(20.0, advanced_composition(2.0, 1e-6, 10, 1e-5)[0])
    assert eps >= true_min
    # Dropping the k eps (e^eps - 1) term would claim 30.3: below the full advanced bound.
    assert 2.0 * math.sqrt(2 * 10 * math.log(1e5)) < advanced_composition(2.0, 0, 10, 1e-5)[0]


def test_simplified_formula_is_never_used_outside_its_range() -> None:
    # eps = 1, k = 1000: the shorthand claims 303.5, but its premise (total < 1) fails;
    # both sound bounds are larger (basic 1000, advanced 1870) and we report basic.
    eps, _, method = best_k_fold(1.0, 0.0, 1000, 1e-5)
    assert simplified_drv(1.0, 1000, 1e-5) == pytest.approx(303.5, abs=0.1)
    assert (eps, method) == (1000.0, "basic")
    assert eps > simplified_drv(1.0, 1000, 1e-5)


@pytest.mark.parametrize("eps,k", [(0.01, 10), (0.05, 500), (0.3, 30), (1.0, 5), (3.0, 2)])
def test_best_is_the_minimum_of_the_two_sound_bounds(eps: float, k: int) -> None:
    best = best_k_fold(eps, 1e-8, k, 1e-6)[0]
    assert best == pytest.approx(min(k * eps, advanced_composition(eps, 1e-8, k, 1e-6)[0]))


@pytest.mark.parametrize("args,match", [
    ((-0.1, 0.0, 10, 1e-5), "eps must be >= 0"),
    ((0.1, 1.0, 10, 1e-5), "delta must lie in"),
    ((0.1, 0.0, 0, 1e-5), "k must be >= 1"),
    ((0.1, 0.0, 2.5, 1e-5), "k must be an integer"),
    ((0.1, 0.0, 10, 0.0), "delta_prime must lie in"),
])
def test_validation(args: tuple[float, float, int, float], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        best_k_fold(*args)
    with pytest.raises(ValueError, match="eps of term 0"):
        basic_composition([(math.nan, 0.0)])
