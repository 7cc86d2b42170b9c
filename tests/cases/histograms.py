"""R-histogram: np.histogram over a public range, and np.count_nonzero.

One changed entry leaves one bin and enters at most one other: the counts move by
2 in L1 per changed entry, and an (L∞, Data) dataset changes one record per unit
of distance. Without a public range numpy takes the data's extremes as the edges,
and one record can move every count.
"""

import numpy as np

from dpsens import L1, L2, L_inf, Data, Integer, MetricMatrix, MetricVector, Priv, Real, Static, laplace_mechanism


def ages(data: MetricMatrix[L_inf, Data], k: Static[int]) -> MetricVector[L1, Integer]:  # expect: data=2; k=static
    counts, _ = np.histogram(data[:, 0], bins=k, range=(0.0, 1.0))
    return counts


def noisy_histogram(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: data=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return laplace_mechanism(2, eps, counts)


def noisy_bins_one_by_one(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[list[Real]]:  # expect: data=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return [laplace_mechanism(2, eps, float(c)) for c in counts]


def every_entry(data: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Integer]:  # expect: data=2*cols(data)
    return np.histogram(data, bins=3, range=(0.0, 1.0))[0]


def records(v: MetricVector[L1, Data]) -> MetricVector[L1, Integer]:  # expect: v=2
    return np.histogram(v, bins=5, range=(0.0, 1.0))[0]


def all_records_at_once(v: MetricVector[L_inf, Data]) -> MetricVector[L1, Integer]:  # expect: v=2*len(v)
    return np.histogram(v, bins=5, range=(0.0, 1.0))[0]


def squared_records(m: MetricMatrix[L2, Data]) -> MetricVector[L1, Integer]:  # expect: m=2*sqrt(cols(m))
    return np.histogram(m, bins=2, range=(0.0, 1.0))[0]


def integers(v: MetricVector[L1, Integer]) -> MetricVector[L1, Integer]:  # expect: v=2
    return np.histogram(v, bins=4, range=(0, 4))[0]


def reals(v: MetricVector[L1, Real]) -> MetricVector[L1, Integer]:  # expect: v=inf
    return np.histogram(v, bins=4, range=(0.0, 1.0))[0]  # a tiny move crosses an edge


def edges_are_public(data: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Real]:  # expect: data=0
    return np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))[1]


def without_a_range(data: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Integer]:  # expect: data=inf; returns=unknown
    return np.histogram(data[:, 0], bins=4)[0]  # E: DPS301


def conjunction_counted(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    return float(np.count_nonzero((data[:, 0] > 0.5) & (data[:, 1] > 0.5)))


def nonzero_records(v: MetricVector[L1, Data]) -> Real:  # expect: v=1
    return float(np.count_nonzero(v))


def nonzero_reals(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(np.count_nonzero(v))  # a tiny move leaves zero
