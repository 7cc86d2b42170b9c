"""zCDP / RDP of Gaussian noise and the Canonne-Kamath-Steinke conversion; the exact Gaussian curve."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpsens.accounting import (
    gaussian_delta, gaussian_epsilon, gaussian_mu, gaussian_rdp, gaussian_rho, rdp_curve_to_dp,
    rdp_to_dp, zcdp_to_dp, zcdp_to_dp_simple,
)


def cks_brute_force(rho: float, delta: float) -> float:
    """CKS 2020 Prop. 12 minimized over a dense numpy grid of orders (independent of rdp_to_dp)."""
    alpha = 1 + np.logspace(-4, 4, 200001)
    eps = alpha * rho + np.log(1 / delta) / (alpha - 1) + np.log1p(-1 / alpha) - np.log(alpha) / (alpha - 1)
    return max(float(eps.min()), 0.0)  # eps < 0 means (0, delta)-DP already


def test_gaussian_rho_and_rdp() -> None:
    assert gaussian_rho(1.0, 5.0) == pytest.approx(0.02)
    assert gaussian_rho(2.0, 1.0) == pytest.approx(2.0)
    assert gaussian_rdp(1.0, 5.0, 10.0) == pytest.approx(0.2)


def test_k_fold_gaussian_via_zcdp_meets_issue_bound() -> None:
    rho = 100 * gaussian_rho(1.0, 5.0)  # zCDP adds up: 100 * 1/50 = 2
    eps = zcdp_to_dp(rho, 1e-5)
    assert eps <= 10.8
    assert eps == pytest.approx(cks_brute_force(rho, 1e-5), abs=1e-4)
    assert eps < zcdp_to_dp_simple(rho, 1e-5) == pytest.approx(2 + 2 * math.sqrt(2 * math.log(1e5)))


@pytest.mark.parametrize("rho", [1e-4, 0.01, 0.5, 2.0, 50.0])
@pytest.mark.parametrize("delta", [1e-10, 1e-5, 0.01])
def test_cks_conversion_is_tighter_than_the_simple_bound(rho: float, delta: float) -> None:
    eps = zcdp_to_dp(rho, delta)
    assert eps < zcdp_to_dp_simple(rho, delta)
    assert eps == pytest.approx(cks_brute_force(rho, delta), rel=1e-5, abs=1e-7)


def test_rdp_to_dp_reports_the_optimal_order_and_tabulated_curve_is_no_better() -> None:
    eps, alpha = rdp_to_dp(lambda a: a * 2.0, 1e-5)
    assert 1 < alpha < 10
    orders = [1.5, 2, 3, 4, 5, 6, 8, 10, 16, 32]
    tab_eps, tab_alpha = rdp_curve_to_dp(orders, [2.0 * a for a in orders], 1e-5)
    assert tab_alpha in orders and tab_eps >= eps - 1e-9


def test_rdp_to_dp_handles_infinite_orders() -> None:
    eps, alpha = rdp_to_dp(lambda a: a * 0.5 if a < 20 else math.inf, 1e-6)
    assert math.isfinite(eps) and alpha < 20


def test_exact_gaussian_curve_against_scipy() -> None:
    # k Gaussian steps compose to the curve of mu = sqrt(k) s / sigma: here mu = 10/5 = 2.
    eps = gaussian_epsilon(2.0, 1e-5)
    assert eps == pytest.approx(9.99726, abs=1e-4)
    d = stats.norm.cdf(1 - eps / 2) - math.exp(eps) * stats.norm.cdf(-1 - eps / 2)
    assert d == pytest.approx(1e-5, rel=1e-6)
    assert gaussian_delta(eps, 2.0) <= 1e-5
    assert eps < zcdp_to_dp(2.0, 1e-5)  # the exact curve beats any zCDP conversion


def test_gaussian_mu_inverts_the_curve() -> None:
    mu = gaussian_mu(1.0, 1e-5)
    assert gaussian_epsilon(mu, 1e-5) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("call,match", [
    (lambda: zcdp_to_dp(-1.0, 1e-5), "rho must be >= 0"),
    (lambda: zcdp_to_dp(1.0, 0.0), "delta must lie in"),
    (lambda: gaussian_rho(1.0, 0.0), "sigma must be > 0"),
    (lambda: rdp_curve_to_dp([1.0], [0.1], 1e-5), "orders must be > 1"),
    (lambda: rdp_curve_to_dp([2.0, 3.0], [0.1], 1e-5), "equal length"),
])
def test_validation(call, match: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=match):
        call()
    assert zcdp_to_dp(0.0, 1e-5) == 0.0
