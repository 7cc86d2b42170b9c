"""Privacy amplification by subsampling without replacement (Balle, Barthe & Gaboardi 2018).

Balle, Barthe & Gaboardi, "Privacy Amplification by Subsampling: Tight
Analyses via Couplings and Divergences" (NeurIPS 2018), Theorem 10: running
an (eps, delta)-DP mechanism (substitution neighbours, as in dpsens) on k rows
drawn without replacement from n is (log(1 + q (e^eps - 1)), q delta)-DP with
q = k/n.  The shorthand 2 q eps is NOT a valid replacement: it undercuts the
tight value as soon as e^eps - 1 > 2 eps, i.e. for eps > 1.2564 (for small q).
"""

from __future__ import annotations

import math

from dpsens.accounting import _validate as check

__all__ = ["subsampled"]


def subsampled(eps: float, delta: float, q: float) -> tuple[float, float]:
    """(log(1 + q (e^eps - 1)), q delta): (eps, delta) after sampling a fraction q without replacement."""
    eps = check.nonnegative("eps", eps)
    delta = check.probability("delta", delta)
    q = check.nonnegative("q", q)
    if q > 1:
        raise ValueError(f"the sampling fraction q must lie in [0, 1], got {q}")
    # log1p(q * expm1(eps)) keeps precision for tiny q and eps; for huge eps use
    # the equivalent eps + log(q + (1 - q) e^-eps) to avoid overflowing e^eps.
    if eps > 700:
        return (eps + math.log(q + (1 - q) * math.exp(-eps)) if q > 0 else 0.0), q * delta
    return math.log1p(q * math.expm1(eps)), q * delta
