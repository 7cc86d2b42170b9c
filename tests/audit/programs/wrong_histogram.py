"""A histogram released with Laplace noise of scale eps instead of 2/eps (KNOWN WRONG).

One record moves the histogram by 2 in L1, so eps-DP needs Laplace(2/eps)
per bin.  Scale eps is far too little noise for eps < 1.  The noise comes
from np.random, which dpsens does not analyze, so the audit runs against
the author's claim (eps, 0).
"""

import numpy as np
import numpy.typing as npt

from dpsens import Data, L1, L_inf, MetricMatrix, MetricVector, Priv, Real, Static


def _counts(data: npt.NDArray[np.float64], bins: int) -> npt.NDArray[np.float64]:
    counts = np.zeros(bins)
    for row in data:
        category = int(row[0])
        if 0 <= category < bins:
            counts[category] += 1.0
    return counts


def noisy_histogram(data: MetricMatrix[L_inf, Data], bins: Static[int],
                    eps: Static[float]) -> Priv[MetricVector[L1, Real]]:
    """WRONG: Laplace(eps) per bin."""
    counts = _counts(data, bins)
    noisy: npt.NDArray[np.float64] = counts + np.random.laplace(0.0, eps, size=bins)
    return noisy


def noisy_histogram_correct(data: MetricMatrix[L_inf, Data], bins: Static[int],
                            eps: Static[float]) -> Priv[MetricVector[L1, Real]]:
    """The control: Laplace(2/eps) per bin is eps-DP."""
    counts = _counts(data, bins)
    noisy: npt.NDArray[np.float64] = counts + np.random.laplace(0.0, 2.0 / eps, size=bins)
    return noisy
