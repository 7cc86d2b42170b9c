"""Sequential composition of (eps, delta) terms: basic, advanced (DRV 2010), and the best of both.

Advanced composition is the full bound of Dwork, Rothblum & Vadhan,
"Boosting and Differential Privacy" (FOCS 2010), Theorem III.3, as stated in
Dwork & Roth 2014, Theorem 3.20: k adaptive (eps, delta)-DP mechanisms are
(eps', k delta + delta')-DP for every delta' > 0, with

    eps' = eps sqrt(2 k ln(1/delta')) + k eps (e^eps - 1).

The shorthand 2 eps sqrt(2 k ln(1/delta')) (Dwork & Roth Corollary 3.21) is
only a consequence of this bound when the total is below 1; dpsens never uses
it, and ``best_k_fold`` takes the minimum of the two sound bounds instead.
"""

from __future__ import annotations

import math
from typing import Iterable

from dpsens.accounting import _validate as check

__all__ = ["basic_composition", "advanced_composition", "best_k_fold"]


def basic_composition(terms: Iterable[tuple[float, float]]) -> tuple[float, float]:
    """(sum of eps, sum of delta) of a sequence of (eps, delta) terms (Dwork-Roth Thm 3.16)."""
    total_eps, total_delta = 0.0, 0.0
    for i, (eps, delta) in enumerate(terms):
        total_eps += check.nonnegative(f"eps of term {i}", eps)
        total_delta += check.probability(f"delta of term {i}", delta)
    return total_eps, min(total_delta, 1.0)


def advanced_composition(eps: float, delta: float, k: int, delta_prime: float) -> tuple[float, float]:
    """(eps sqrt(2k ln(1/delta')) + k eps (e^eps - 1), k delta + delta') for k-fold (eps, delta) (DRV 2010)."""
    eps = check.nonnegative("eps", eps)
    delta = check.probability("delta", delta)
    k = check.count("k", k)
    delta_prime = check.open_probability("delta_prime", delta_prime)
    total = eps * math.sqrt(2 * k * math.log(1 / delta_prime)) + k * eps * math.expm1(eps)
    return total, min(k * delta + delta_prime, 1.0)


def best_k_fold(eps: float, delta: float, k: int, delta_prime: float) -> tuple[float, float, str]:
    """(eps, delta, method) of k-fold composition: the smaller-eps of "basic" and "advanced"."""
    adv_eps, adv_delta = advanced_composition(eps, delta, k, delta_prime)  # validates the arguments
    basic_eps, basic_delta = k * eps, min(k * delta, 1.0)
    if adv_eps < basic_eps:
        return adv_eps, adv_delta, "advanced"
    return basic_eps, basic_delta, "basic"
