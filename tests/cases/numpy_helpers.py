"""np.square is x ** 2 (R-bounded-product); np.zeros_like and np.ones_like are public."""

import numpy as np

from dpsens import L1, Data, MetricMatrix, MetricVector, Real


def sum_of_squares(v: MetricVector[L1, Real]) -> Real:  # expect: v=2
    return float(np.sum(np.square(np.clip(v, 0.0, 1.0))))  # slope 2·1 per unit


def square_of_a_real(x: Real) -> Real:  # expect: x=inf
    return float(np.square(x))


def shifted_by_ones(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return float(np.sum(np.zeros_like(v) + 2 * np.ones_like(v) + v))


def ones_of_a_dataset(m: MetricMatrix[L1, Data]) -> MetricMatrix[L1, Real]:  # expect: m=0
    return np.ones_like(m)
