"""np.square is x ** 2 (R-bounded-product); np.zeros_like and np.ones_like are public;
.astype() and np.array(x, dtype) convert entries (R-astype)."""

import numpy as np

from dpsens import L1, L_inf, Data, Integer, MetricMatrix, MetricVector, Real


def sum_of_squares(v: MetricVector[L1, Real]) -> Real:  # expect: v=2
    return float(np.sum(np.square(np.clip(v, 0.0, 1.0))))  # slope 2·1 per unit


def square_of_a_real(x: Real) -> Real:  # expect: x=inf
    return float(np.square(x))


def shifted_by_ones(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return float(np.sum(np.zeros_like(v) + 2 * np.ones_like(v) + v))


# D148: np.ones_like keeps the argument's dtype, which for Data is the caller's (it may
# be integers): the result is measured as Data, and declaring it Real is DPS104 (public,
# so 0 all the same); dtype=float makes it real.
def ones_of_a_dataset(m: MetricMatrix[L1, Data]) -> MetricMatrix[L1, Real]:  # expect: m=0; returns=MetricMatrix[L1, Data]  # E: DPS104
    return np.ones_like(m)


def float_ones_of_a_dataset(m: MetricMatrix[L1, Data]) -> MetricMatrix[L1, Real]:  # expect: m=0
    return np.ones_like(m, dtype=float)


def counts_as_floats(v: MetricVector[L1, Integer]) -> MetricVector[L1, Real]:  # expect: v=1
    return v.astype(float)  # the same numbers


def truth_values_as_floats(v: MetricVector[L1, Data]) -> Real:  # expect: v=1
    return float(np.sum((v > 2).astype(np.float64)))


def floats_truncated(v: MetricVector[L1, Real]) -> MetricVector[L1, Integer]:  # expect: v=inf
    return v.astype(int)  # 0.999 and 1.0 are 1 apart


def floats_as_truth_values(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(np.sum(v.astype(bool)))  # 0 and 1e-9 are 1 apart


def records_stay_records(m: MetricMatrix[L_inf, Data]) -> MetricMatrix[L_inf, Data]:  # expect: m=1
    return m.astype(int)  # no record changes that did not


def counts_copied_as_floats(v: MetricVector[L1, Integer]) -> Real:  # expect: v=3
    return float(np.sum(np.array(v, dtype=float) * 3))


def floats_copied_as_integers(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(np.sum(np.astype(v, np.int64)))
