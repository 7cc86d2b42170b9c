"""Report-noisy-max that returns the noisy maximum VALUE instead of its index (KNOWN WRONG).

Each score is 1-sensitive (an (L_inf, Real) vector at distance 1 may move
every score by 1).  Laplace(2/eps) noise on each score and releasing only
the argmax is eps-DP; releasing the max value is not: when every score
moves down by one, the lower tail of the maximum moves for all of them at
once (about n*eps/2 for n scores).
"""

import numpy as np

from dpsens import Integer, L_inf, MetricVector, Priv, Real, Static


def noisy_max_value(scores: MetricVector[L_inf, Real], eps: Static[float]) -> Priv[Real]:
    """WRONG: the value of the noisy maximum."""
    noisy = scores + np.random.laplace(0.0, 2.0 / eps, size=len(scores))
    return float(np.max(noisy))


def noisy_max_index(scores: MetricVector[L_inf, Real], eps: Static[float]) -> Priv[Integer]:
    """The control: the index of the noisy maximum is eps-DP."""
    noisy = scores + np.random.laplace(0.0, 2.0 / eps, size=len(scores))
    return int(np.argmax(noisy))
