"""Sparse-vector (AboveThreshold) variants (Lyu, Su & Li 2017): two KNOWN WRONG, one correct.

The queries count the records per category of column 0 (disjoint bins, each
1-sensitive), or are given as a vector of 1-sensitive answers.  The correct AboveThreshold adds Laplace(2/eps) to the threshold and
fresh Laplace(4/eps) to every query, and stops at the first query above it.
"""

import numpy as np
import numpy.typing as npt

from dpsens import Data, Integer, L_inf, MetricMatrix, MetricVector, Priv, Real, Static


def _bin_counts(data: npt.NDArray[np.float64]) -> list[float]:
    return [float(np.count_nonzero(data[:, 0] == c)) for c in range(4)]


def svt_no_query_noise(data: MetricMatrix[L_inf, Data], threshold: Static[float],
                       eps: Static[float]) -> Priv[Integer]:
    """WRONG: noise on the threshold only; the first category whose count reaches it."""
    noisy_threshold = threshold + np.random.laplace(0.0, 2.0 / eps)
    for i, count in enumerate(_bin_counts(data)):
        if count >= noisy_threshold:
            return i
    return -1


def svt_no_cutoff(answers: MetricVector[L_inf, Real], threshold: Static[float],
                  eps: Static[float]) -> Priv[MetricVector[L_inf, Integer]]:
    """WRONG: does not stop at the first positive answer; reports every query's answer.

    ``answers`` are the values of 1-sensitive queries (so a neighbouring
    dataset may move each by up to 1, in either direction).
    """
    noisy_threshold = threshold + np.random.laplace(0.0, 2.0 / eps)
    noisy = answers + np.random.laplace(0.0, 4.0 / eps, size=len(answers))
    result: npt.NDArray[np.float64] = (noisy >= noisy_threshold).astype(float)
    return result


def svt_correct(data: MetricMatrix[L_inf, Data], threshold: Static[float],
                eps: Static[float]) -> Priv[Integer]:
    """The control: AboveThreshold, eps-DP."""
    noisy_threshold = threshold + np.random.laplace(0.0, 2.0 / eps)
    for i, count in enumerate(_bin_counts(data)):
        if count + np.random.laplace(0.0, 4.0 / eps) >= noisy_threshold:
            return i
    return -1
