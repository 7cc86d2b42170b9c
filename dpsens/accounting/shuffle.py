"""Amplification by shuffling: Feldman, McMillan & Talwar 2021, "Hiding Among the Clones".

Feldman, McMillan & Talwar (FOCS 2021, arXiv:2012.12803), Theorem 3.1: if
each of n users applies an eps0-DP local randomizer and the reports are
uniformly shuffled, then for delta in (0, 1) with
eps0 <= log(n / (16 log(2/delta))) the shuffled output is (eps, delta)-DP with

    eps <= log(1 + (e^eps0 - 1)/(e^eps0 + 1) * (8 sqrt(e^eps0 log(4/delta)) / sqrt(n) + 8 e^eps0 / n)).

``fmt_theorem_bound`` is that formula verbatim.  ``shuffle_amplification``
is deliberately more conservative, matching the authors' reference code
(apple/ml-shuffling-amplification, ``closedformanalysis``), which we could
check while the paper's final PDF was not at hand: it requires
eps0 <= log(n / (16 log(4/delta))) (a smaller range, so the theorem's
condition holds too) and replaces the factor (1 - e^-eps0)/(1 + e^-eps0) by
(1 - e^-eps0)/(1 + e^-(eps0 + e)), e = log(1 + a + c) -- never smaller.
Outside the range, shuffling is not credited: the result is eps0 itself
(post-processing of n eps0-DP local reports, each user touching one).
"""

from __future__ import annotations

import math

from dpsens.accounting import _validate as check

__all__ = ["fmt_valid", "fmt_theorem_bound", "shuffle_amplification"]


def fmt_valid(eps0: float, n: int, delta: float) -> bool:
    """Whether eps0 <= log(n / (16 log(4/delta))), the range in which the closed form is used."""
    eps0 = check.positive("eps0", eps0)
    n = check.count("n", n)
    delta = check.open_probability("delta", delta)
    return eps0 <= math.log(n / (16.0 * math.log(4.0 / delta)))


def _terms(eps0: float, n: int, delta: float) -> tuple[float, float]:
    """a = 8 sqrt(e^eps0 log(4/delta) / n) and c = 8 e^eps0 / n."""
    return 8.0 * math.sqrt(math.exp(eps0) * math.log(4.0 / delta) / n), 8.0 * math.exp(eps0) / n


def fmt_theorem_bound(eps0: float, n: int, delta: float) -> float:
    """FMT 2021 Thm 3.1 verbatim; raises ValueError outside eps0 <= log(n / (16 log(2/delta)))."""
    eps0, n, delta = check.positive("eps0", eps0), check.count("n", n), check.open_probability("delta", delta)
    if eps0 > math.log(n / (16.0 * math.log(2.0 / delta))):
        raise ValueError(f"FMT Theorem 3.1 needs eps0 <= log(n / (16 log(2/delta))); got eps0={eps0}, n={n}")
    a, c = _terms(eps0, n, delta)
    return math.log1p(math.tanh(eps0 / 2) * (a + c))  # tanh(x/2) = (e^x - 1)/(e^x + 1)


def shuffle_amplification(eps0: float, n: int, delta: float) -> tuple[float, float]:
    """(eps, delta) of shuffling n eps0-local reports: the FMT closed form in range, else (eps0, 0)."""
    if not fmt_valid(eps0, n, delta):
        return float(eps0), 0.0
    a, c = _terms(eps0, n, delta)
    e = math.log1p(a + c)
    eps = math.log1p(-math.expm1(-eps0) / (1.0 + math.exp(-eps0 - e)) * (a + c))
    return (eps, delta) if eps < eps0 else (float(eps0), 0.0)
