"""Numeric privacy-loss-distribution (PLD) accounting of k-fold loops via Google's dp-accounting.

dp-accounting is imported inside the functions: importing it costs about a
second (it pulls in scipy), which the analyzer only pays when a loop has
numeric parameters and PLD accounting is asked for.

Sensitivity convention.  A dpsens sensitivity s is the largest shift of the
query between neighbouring datasets (substitution of one row).  The dominating
pair of additive noise with shift s is (noise, noise + s), which dp-accounting
builds for ``NeighboringRelation.ADD_OR_REMOVE_ONE`` with noise parameter
(noise scale) / s.  Its REPLACE_ONE relation would instead shift by -s and +s,
i.e. treat s as one record's contribution and double it -- wrong for dpsens
sensitivities, which already are substitution sensitivities.
"""

from __future__ import annotations

from typing import Any

from dpsens.accounting import _validate as check

__all__ = ["pld_gaussian_k_fold", "pld_laplace_k_fold"]


def _epsilon(event: Any, count: int, delta: float, discretization: float) -> float:
    """eps at delta of `count` compositions of `event` with the PLD accountant (shift = 1 sensitivity)."""
    from dp_accounting import NeighboringRelation  # type: ignore[import-untyped]
    from dp_accounting.pld import PLDAccountant  # type: ignore[import-untyped]

    accountant = PLDAccountant(
        neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE,
        value_discretization_interval=discretization,
    )
    accountant.compose(event, count)
    return float(accountant.get_epsilon(delta))


def pld_gaussian_k_fold(s: float, sigma: float, k: int, delta: float, *, discretization: float = 1e-4) -> float:
    """eps at delta of k Gaussian mechanisms N(0, sigma^2) on s-sensitive queries (PLD, pessimistic)."""
    from dp_accounting import GaussianDpEvent

    s, sigma = check.positive("s", s), check.positive("sigma", sigma)
    k, delta = check.count("k", k), check.open_probability("delta", delta)
    return _epsilon(GaussianDpEvent(noise_multiplier=sigma / s), k, delta, discretization)


def pld_laplace_k_fold(eps: float, k: int, delta: float, *, discretization: float = 1e-4) -> float:
    """eps at delta of k eps-DP Laplace mechanisms (scale s/eps each) composed (PLD, pessimistic)."""
    from dp_accounting import LaplaceDpEvent

    eps = check.positive("eps", eps)
    k, delta = check.count("k", k), check.open_probability("delta", delta)
    return _epsilon(LaplaceDpEvent(noise_multiplier=1.0 / eps), k, delta, discretization)
