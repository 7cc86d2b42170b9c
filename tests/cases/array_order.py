"""numpy's extremes, sorting, flipping and running sums (docs/rules.md R-extreme, R-sort,
R-flip, R-cumsum)."""

import numpy as np

from dpsens import L1, L2, L_inf, Data, Integer, MetricMatrix, MetricVector, Real, Static, norm_convert


def largest(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return np.max(v)


def smallest_entry(m: MetricMatrix[L2, Real]) -> Real:  # expect: m=1
    return float(np.min(m))


def largest_linf(v: MetricVector[L_inf, Integer]) -> Integer:  # expect: v=1
    return np.amax(v)


def largest_record(v: MetricVector[L1, Data]) -> Data:  # expect: v=1
    return np.max(v)


def range_width(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=2
    return np.max(v) - np.min(v)


def sorted_l1(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=1
    return np.sort(v)


def sorted_rows(m: MetricMatrix[L2, Real]) -> MetricMatrix[L2, Real]:  # expect: m=1
    return np.sort(m)


def sorted_data(v: MetricVector[L1, Data]) -> MetricVector[L1, Data]:  # expect: v=len(v)
    return np.sort(v)


def sorted_records(v: MetricVector[L_inf, Data]) -> MetricVector[L_inf, Data]:  # expect: v=1
    return np.sort(v)


def median_of_three(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=1
    return np.sort(v)[1]


def reversed_rows(m: MetricMatrix[L1, Real]) -> MetricMatrix[L1, Real]:  # expect: m=1
    return np.flip(m)


def running_l1(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=len(v)
    return np.cumsum(v)


def running_linf(v: MetricVector[L_inf, Real]) -> MetricVector[L_inf, Real]:  # expect: v=len(v)
    return np.cumsum(v)


def running_l2(v: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: v=1/(2*sin(pi/(4*len(v) + 2)))
    return np.cumsum(v)


def running_total(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return np.cumsum(v)[-1]  # no prefix sum moves by more than the L1 distance (R-peak)


def running_l1_in_l_inf(v: MetricVector[L1, Real]) -> MetricVector[L_inf, Real]:  # expect: v=1
    return norm_convert(L_inf, np.cumsum(v))


def running_l1_in_l2(v: MetricVector[L1, Real]) -> MetricVector[L2, Real]:  # expect: v=sqrt(len(v))
    return np.cumsum(v)  # √(len(v)·1): exact, a change of the first entry moves every sum


def cumulative_histogram(data: MetricMatrix[L_inf, Data]) -> MetricVector[L_inf, Real]:  # expect: data=2
    counts, _ = np.histogram(data[:, 0], bins=8, range=(0.0, 1.0))
    return norm_convert(L_inf, np.cumsum(counts.astype(float)))  # (the truth is 1)


def running_matrix(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=inf
    return np.cumsum(m)  # E: DPS301


def max_along_axis(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=inf
    return np.max(m, axis=0)  # E: DPS303


def sorted_in_place(v: MetricVector[L1, Data]) -> MetricVector[L1, Data]:  # expect: v=inf; returns=unknown
    v.sort()  # E: DPS203
    return v  # a Data vector sorted in place may differ in every entry: not np.sort's value


# Order statistics, flattening and differences (R-order, R-ravel, R-diff).
def median_l1(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return float(np.median(v))


def percentile_l2(v: MetricVector[L2, Real], q: Static[float]) -> Real:  # expect: v=1; q=static
    return float(np.percentile(v, q))


def quantile_of_a_matrix(m: MetricMatrix[L_inf, Real]) -> Real:  # expect: m=1
    return float(np.quantile(m, 0.5))


def median_of_data(v: MetricVector[L1, Data]) -> Real:  # expect: v=inf
    return float(np.median(v))  # an average of two Data entries is any real


def flattened(m: MetricMatrix[L2, Real]) -> MetricVector[L2, Real]:  # expect: m=1
    return np.ravel(m)


def flattened_method(m: MetricMatrix[L1, Real]) -> Real:  # expect: m=1
    return float(np.sum(m.flatten()))


# Data entries flatten to an (L1, Data) vector: a changed record changes at most its
# row's entries (it was an (L∞, Data) vector, which any count paid len = rows·cols for).
def flattened_records(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=cols(m)
    return float(np.sum(np.ravel(m) > 0.5))


def flattened_entries(m: MetricMatrix[L1, Data]) -> Real:  # expect: m=1
    return float(np.count_nonzero(m.flatten() > 0.5))


def differences(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=2
    return np.diff(v)


# R-where: np.where(c, x, y) moves by x's and y's moves, and where a mask c flips (its
# entry moves by 1), by at most B_x + B_y: 2 here; the columns of one row change together
# (R-rowwise), so it is 1, the truth.
def masked_by_where(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    x = np.clip(data[:, 1], 0.0, 1.0)
    return float(np.sum(np.where(data[:, 0] > 0.5, x, 0.0)))


def where_public_condition(v: MetricVector[L1, Real], u: MetricVector[L1, Real], k: Static[float]) -> MetricVector[L1, Real]:  # expect: v=1; u=1; k=static; assumes=len(u) == len(v)
    return np.where(k > 0, v, u)


def where_on_a_real_condition(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=inf
    return np.where(v > 0.0, v, 1.0)  # a real comparison flips for any move, by 1 at 0
    # (np.where(v > 0.0, v, 0.0) is np.maximum(v, 0.0), 1: R-if-extreme in extremes.py)


def indicator_by_where(v: MetricVector[L1, Data]) -> Real:  # expect: v=1
    return float(np.sum(np.where(v > 0.5, 1.0, 0.0)))


# Several q: one statistic each, each moving by the largest entry's move (an L_inf vector;
# it was typed as one number, so a Laplace release of three quartiles cost ε, truth 2ε).
def quartiles(v: MetricVector[L1, Real]) -> MetricVector[L_inf, Real]:  # expect: v=1
    return np.percentile(np.clip(v, 0.0, 1.0), [25.0, 50.0, 75.0])


def quartiles_summed(v: MetricVector[L1, Real]) -> Real:  # expect: v=3
    return float(np.sum(np.percentile(np.clip(v, 0.0, 1.0), [25.0, 50.0, 75.0])))


def nested_quantiles(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=inf; returns=unknown
    return float(np.sum(np.percentile(v, ((25.0, 50.0), (60.0, 75.0)))))  # E: DPS301


def variance_of_clipped_reals(v: MetricVector[L1, Real]) -> Real:  # expect: v=(2*len(v) - 2)/len(v)**2
    return float(np.var(np.clip(v, 0.0, 1.0)))


def variance_of_clipped_integers(v: MetricVector[L1, Integer]) -> Real:  # expect: v=min(1/4, (len(v) - 1)/len(v)**2)
    return float(np.var(np.clip(v, 0, 1)))


# A changed record replaces one entry: w²(n − 1)/n², exact (an entry moving across the
# range among entries at one end); the L1 bound 2w(n − 1)/n² per unit is twice that.
def variance_of_a_clipped_column(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=(9*rows(m) - 9)/(4*rows(m)**2)
    return float(np.var(np.clip(m[:, 0], 0.0, 1.5)))


def sample_variance_of_a_clipped_column(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=1/rows(m); assumes=rows(m) - 1 > 0
    return float(np.var(np.clip(m[:, 0], 0.0, 1.0), ddof=1))


def variance_needs_a_range(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    return float(np.var(v))  # E: DPS301


# ddof=1 divides by n − 1: n/(n − 1) times the population variance's 2(n − 1)/n².
def sample_variance_of_clipped_reals(v: MetricVector[L1, Real]) -> Real:  # expect: v=2/len(v); assumes=len(v) - 1 > 0
    return float(np.var(np.clip(v, 0.0, 1.0), ddof=1))


# R-std: centering is an orthogonal projection, so std moves by at most ‖Δ‖₂/√n.
def deviation_l1(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/sqrt(len(v))
    return float(np.std(v))


def deviation_linf(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=1
    return float(np.std(v))


def sample_deviation_l2(v: MetricVector[L2, Real]) -> Real:  # expect: v=1/sqrt(len(v) - 1); assumes=len(v) - 1 > 0
    return float(np.std(v, ddof=1))


def deviation_method(v: MetricVector[L2, Integer]) -> Real:  # expect: v=1/sqrt(len(v))
    return float(v.std())


def deviation_of_a_clipped_column(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=2/sqrt(rows(m))
    return float(np.std(np.clip(m[:, 0], 0.0, 2.0)))


# Entries in [0, 1] keep std in [0, 1/2]: an integer input that changes moves it by ≤ 1/2.
def deviation_of_clipped_integers(v: MetricVector[L1, Integer]) -> Real:  # expect: v=min(1/2, 1/sqrt(len(v)))
    return float(np.std(np.clip(v, 0, 1)))


def deviation_of_records(v: MetricVector[L1, Data]) -> Real:  # expect: v=inf; returns=unknown
    return float(np.std(v))  # E: DPS301


# D105 (review of R-std): numpy's second parameter is axis, not ddof (−1 read as ddof
# gave 1/sqrt(n + 1) for the population std).
def deviation_along_the_last_axis(v: MetricVector[L2, Real]) -> Real:  # expect: v=1/sqrt(len(v))
    return float(np.std(v, -1))


def deviation_along_columns(m: MetricMatrix[L2, Real]) -> Real:  # expect: m=inf; returns=unknown
    return float(np.std(m, 0))  # E: DPS301


def deviation_in_single_precision(v: MetricVector[L2, Real]) -> Real:  # expect: v=inf; returns=unknown
    return float(np.std(v, dtype="float32"))  # E: DPS301


def deviation_with_a_data_ddof(v: MetricVector[L1, Real], k: Integer) -> Real:  # expect: v=inf; k=inf
    return float(np.std(v, ddof=k))  # E: DPS304
