"""Frequency estimation in the local and the shuffle model, and a bit-sum.

Every user randomizes their own value (k-ary randomized response, an
eps-local randomizer) before it leaves their device.  In the local model the
analyst sees the reports; in the shuffle model a shuffler first permutes them,
which makes the collection (eps, delta)-DP for a much smaller eps
(Feldman–McMillan–Talwar 2021).  The analyzer only post-processes reports.
"""

import numpy as np
import numpy.typing as npt

from dpsens import (
    Data, Integer, L1, Local, Messages, MetricVector, Priv, Real, Static,
    kary_randomized_response, map_rows, randomized_response, shuffle,
)
from dpsens.runtime.local import kary_rr_estimate

CATEGORIES = 4


def report_category(value: Integer, eps: Static[float]) -> Local[int]:
    """One user's report: k-ary randomized response over the categories."""
    return kary_randomized_response(eps, value, CATEGORIES)


def local_reports(values: MetricVector[L1, Integer]) -> Priv[MetricVector[L1, Real]]:
    """Every user's report, in order (the local model): eps = 2 for the collection."""
    return map_rows(lambda value: report_category(value, 2.0), values)


def shuffled_reports(values: MetricVector[L1, Integer]) -> Priv[MetricVector[L1, Real]]:
    """The same reports, shuffled: amplified by hiding among the clones."""
    reports: npt.NDArray[np.float64] = shuffle(lambda value: report_category(value, 2.0), values)
    return reports


def frequencies(reports: Messages[Integer], eps: Static[float]) -> MetricVector[L1, Real]:
    """Unbiased estimates of the number of users per category."""
    estimate: npt.NDArray[np.float64] = kary_rr_estimate(reports, eps, CATEGORIES)
    return estimate


def report_bit(bit: Data, eps: Static[float]) -> Local[Data]:
    """One user's bit by binary randomized response."""
    return randomized_response(eps, bit)


def shuffled_bits(bits: MetricVector[L1, Data]) -> Priv[MetricVector[L1, Real]]:
    """Every user's randomized bit, shuffled."""
    reports: npt.NDArray[np.float64] = shuffle(lambda bit: report_bit(bit, 1.0), bits)
    return reports


def bit_sum(reports: Messages[Data], eps: Static[float]) -> Real:
    """The unbiased estimate of the number of ones: (s - n q)/(p - q)."""
    p = float(np.exp(eps) / (1 + np.exp(eps)))
    total = float(np.sum(reports))
    return (total - len(reports) * (1 - p)) / (2 * p - 1)


if __name__ == "__main__":
    generator = np.random.default_rng(2)
    values = generator.integers(0, CATEGORIES, size=2000)
    print(np.bincount(values, minlength=CATEGORIES))
    print(frequencies(shuffled_reports(values), 2.0))
    bits = (generator.random(2000) < 0.3).astype(int)
    print(int(bits.sum()), bit_sum(shuffled_bits(bits), 1.0))
