"""R-rowwise: entrywise operations of columns of one dataset change in the changed rows only.

A vector whose entry i is computed from row i of a Data matrix (or entry i of an
(L1, Data) vector) differs, between neighbours, in as many entries as rows differ;
each moves by at most its spread (1 for a mask, hi − lo after np.clip). The traps
below move rows against each other (slices, reversal, stores) and must not be
taken as row-wise.
"""

import numpy as np

from dpsens import L1, L_inf, Data, MetricMatrix, MetricVector, Real, Static


def three_conditions(data: MetricMatrix[L_inf, Data], a: Static[float]) -> Real:  # expect: data=1; a=static
    adults = data[:, 0] > a
    return float(np.sum(adults & (data[:, 1] == 1.0) | (data[:, 2] < a) & adults))


def conditional_sum(data: MetricMatrix[L_inf, Data], a: Static[float], b: Static[float]) -> Real:  # expect: data=abs(b); a=static; b=static
    return float(np.sum(np.clip(data[:, 1], 0.0, b) * (data[:, 0] > a)))


def conditional_sum_any_bounds(data: MetricMatrix[L_inf, Data], lo: Static[float], hi: Static[float]) -> Real:  # expect: data=max(abs(hi), abs(lo), abs(hi - lo)); lo=static; hi=static
    # Where the mask stays 1 an entry moves within [lo, hi]; where it flips, between 0 and
    # an entry of at most max(|lo|, |hi|).
    return float(np.sum(np.clip(data[:, 1], lo, hi) * (data[:, 0] > 0.5)))


def conditional_sum_both_signs(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=3
    return float(np.sum(np.clip(data[:, 1], -1.0, 2.0) * (data[:, 0] > 0.5)[:]))


def conditional_sum_where(data: MetricMatrix[L_inf, Data], a: Static[float], b: Static[float]) -> Real:  # expect: data=abs(b); a=static; b=static
    return float(np.sum(np.where(data[:, 0] > a, np.clip(data[:, 1], 0.0, b), 0.0)))


def conditional_mean(data: MetricMatrix[L_inf, Data], a: Static[float]) -> Real:  # expect: data=1/rows(data); a=static
    return float(np.mean(np.where(data[:, 0] > a, np.clip(data[:, 1], 0.0, 1.0), 0.0)))


def two_clipped_columns(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=3
    return float(np.sum(np.clip(data[:, 0], 0.0, 1.0) + np.clip(data[:, 1], 0.0, 2.0)))


def difference_of_masks(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    either = (data[:, 0] > 0.5) ^ (data[:, 1] > 0.5)
    return float(np.sum(1.0 * either - (data[:, 2] > 0.5)))  # numpy refuses bool - bool


def masks_kept_in_names(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=len(v)
    high = v > 0.5  # a mask in a name is still a truth value (it was inf)
    # A count of len(v) truth values lies in [0, len(v)] (R-range; 2*len(v) before).
    return float(np.sum(high & (v < 0.9)))


def masks_from_a_tuple(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    a, b = data[:, 0] > 0.5, data[:, 1] > 0.5  # names bound from a display keep their rows
    return float(np.sum(a & b))


def masks_kept_in_a_tuple(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    # A tuple's parts are masks, not their rows; split into one name each (a local
    # tuple), both are read from the same rows: one changed row moves the count by 1.
    pair = data[:, 0] > 0.5, data[:, 1] > 0.5
    a, b = pair
    return float(np.sum(a & b))


def view_unpacked_then_reversed(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=rows(data)
    late, early = data[:, 0], data[:, 1] > 0.5  # late is a view of data
    data[:, :] = data[::-1, :]  # E: DPS205
    return float(np.sum(early & (late > 0.5)))  # late's rows are reversed: not row-wise


def arms_of_both_signs(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    low = np.clip(data[:, 2], -1.0, 0.0)
    return float(np.sum(np.where(data[:, 0] > 0.0, np.clip(data[:, 1], 0.0, 1.0), low)))


def scaled_mask(data: MetricMatrix[L_inf, Data], c: Static[float]) -> Real:  # expect: data=abs(c); c=static
    return float(np.sum(c * ((data[:, 0] > 0.5) & (data[:, 1] > 0.5))))


def records_of_a_vector(v: MetricVector[L1, Data]) -> Real:  # expect: v=1
    return float(np.sum((v > 0.2) & (v < 0.8)))


def two_datasets(p: MetricMatrix[L_inf, Data], q: MetricMatrix[L_inf, Data]) -> Real:  # expect: p=1; q=1; assumes=rows(q) == rows(p)
    return float(np.sum((p[:, 0] > 0.5) & (q[:, 0] > 0.5)))


# Traps: entries that do not come from the same row.
def shifted_rows(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    return float(np.sum((data[1:, 0] > 0.5) & (data[:-1, 1] > 0.5)))


def reversed_rows(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    return float(np.sum((data[:, 0] > 0.5) & (data[::-1, 1] > 0.5)))


def entries_of_a_record(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=len(v)
    # Every entry may differ at distance 1: not row-wise, but a count of len(v) truth
    # values lies in [0, len(v)] (R-range; 2*len(v) before). Exact.
    return float(np.sum((v > 0.2) & (v < 0.8)))


# A store into the dataset makes its views unknown (a scalar comparison, broadcast):
# the point is that neither is 1 (the truth is 2); a count of rows(data) truth values
# lies in [0, rows(data)] (R-range; rows(data) + 1 before).
def view_before_a_reversal(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=rows(data)
    late = data[:, 0]
    early = data[:, 1] > 0.5
    data[:, :] = data[::-1, :]  # E: DPS205
    return float(np.sum(early & (late > 0.5)))


def tuple_kept_across_a_reversal(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=rows(data)
    early = data[:, 1] > 0.5
    kept = (data[:, 0], 0)
    data[:, :] = data[::-1, :]  # E: DPS205
    return float(np.sum(early & (kept[0] > 0.5)))


def against_the_column_mean(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    x = np.clip(data[:, 0], 0.0, 1.0)
    return float(np.sum(np.clip(x - np.mean(x), 0.0, 1.0)))


def dot_of_two_clipped_columns(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    # np.dot(x, y) is np.sum(x * y): one changed row moves one product, within [0, 2]
    # (the dot-product rule's entry bounds gave 4).
    x = np.clip(data[:, 0], 0.0, 1.0)
    y = np.clip(data[:, 1], 0.0, 2.0)
    return float(np.dot(x, y))


def matmul_of_two_clipped_columns(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    x = np.clip(data[:, 0], 0.0, 1.0)
    y = np.clip(data[:, 1], -1.0, 1.0)
    return float(x @ y)


# Contribution bounding (PipelineDP, Tumult): each record's total over its columns, clipped,
# then summed. Entry i of the row sums reads row i alone: one record moves one total, by
# at most 1 once clipped.
def user_totals(D: MetricMatrix[L_inf, Data]) -> Real:  # expect: D=1
    per_user = np.clip(np.sum(np.clip(D, 0.0, 1.0), axis=1), 0.0, 1.0)
    return float(np.sum(per_user))


def user_means(D: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Real]:  # expect: D=1
    return np.mean(np.clip(D, 0.0, 1.0), axis=1)


def user_sums(D: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Real]:  # expect: D=cols(D)
    return np.sum(np.clip(D, 0.0, 1.0), axis=1)


def column_totals(D: MetricMatrix[L_inf, Data]) -> Real:  # expect: D=cols(D)
    per_column = np.clip(np.sum(np.clip(D, 0.0, 1.0), axis=0), 0.0, 1.0)  # no row-wise read
    return float(np.sum(per_column))
