"""Amplification by subsampling without replacement (BBG 2018) and by shuffling (FMT 2021)."""

from __future__ import annotations

import math

import pytest

from dpsens.accounting import fmt_theorem_bound, fmt_valid, shuffle_amplification, subsampled


def test_subsampled_formula() -> None:
    eps, delta = subsampled(1.0, 1e-6, 0.1)
    assert eps == pytest.approx(math.log(1 + 0.1 * (math.e - 1)))
    assert delta == pytest.approx(1e-7)
    assert subsampled(2.0, 1e-5, 1.0) == pytest.approx((2.0, 1e-5))
    assert subsampled(2.0, 1e-5, 0.0) == (0.0, 0.0)
    assert subsampled(1000.0, 0.0, 0.5)[0] == pytest.approx(1000 + math.log(0.5))


def test_two_q_eps_is_unsound_for_large_eps() -> None:
    # The tight amplified epsilon log(1 + q (e^eps - 1)) is ~ q (e^eps - 1) for small q;
    # 2 q eps is below it once e^eps - 1 > 2 eps (eps > 1.2564): using 2 q eps would
    # under-report the privacy loss.  eps = 2, q = 0.01: 0.0619 > 0.04.
    eps, q = 2.0, 0.01
    assert subsampled(eps, 0.0, q)[0] > 2 * q * eps
    assert subsampled(eps, 0.0, q)[0] == pytest.approx(0.061933, abs=1e-6)
    # ... while for eps = 1 the shorthand happens to be an over-estimate (safe).
    assert subsampled(1.0, 0.0, q)[0] < 2 * q * 1.0
    # Crossover where e^eps - 1 = 2 eps:
    assert math.expm1(1.2564) == pytest.approx(2 * 1.2564, abs=1e-3)


def test_subsampled_validation() -> None:
    with pytest.raises(ValueError, match="q must lie in"):
        subsampled(1.0, 0.0, 1.5)
    with pytest.raises(ValueError, match="eps must be >= 0"):
        subsampled(-1.0, 0.0, 0.5)


def test_fmt_validity_range() -> None:
    n, delta = 100_000, 1e-6
    limit = math.log(n / (16 * math.log(4 / delta)))  # ~ 5.34
    assert fmt_valid(limit - 1e-9, n, delta) and not fmt_valid(limit + 1e-9, n, delta)
    # Outside the range no amplification is claimed: (eps0, 0).
    assert shuffle_amplification(limit + 0.1, n, delta) == (limit + 0.1, 0.0)
    assert shuffle_amplification(1.0, 100, 1e-6) == (1.0, 0.0)


def test_fmt_amplifies_inside_the_range() -> None:
    eps, delta = shuffle_amplification(1.0, 100_000, 1e-6)
    assert delta == 1e-6
    assert eps < 0.1  # an eps0 = 1 randomizer among 1e5 users
    theorem = fmt_theorem_bound(1.0, 100_000, 1e-6)
    # the literal Theorem 3.1 value, computed by hand from its formula
    a = 8 * math.sqrt(math.e * math.log(4e6)) / math.sqrt(1e5)
    c = 8 * math.e / 1e5
    assert theorem == pytest.approx(math.log(1 + (math.e - 1) / (math.e + 1) * (a + c)))
    assert theorem <= eps < 1.1 * theorem  # our conservative variant is never below it
    # more users, more amplification
    assert shuffle_amplification(1.0, 1_000_000, 1e-6)[0] < eps


def test_fmt_theorem_refuses_outside_its_condition() -> None:
    with pytest.raises(ValueError, match="16 log"):
        fmt_theorem_bound(8.0, 1000, 1e-6)
    with pytest.raises(ValueError, match="n must be >= 1"):
        shuffle_amplification(1.0, 0, 1e-6)
