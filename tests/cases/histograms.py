"""R-histogram: np.histogram over a public range, and np.count_nonzero.

One changed entry leaves one bin and enters at most one other: the counts move by
2 in L1 per changed entry, and an (L∞, Data) dataset changes one record per unit
of distance. Without a public range numpy takes the data's extremes as the edges,
and one record can move every count.
"""

import numpy as np

from dpsens import (L1, L2, L_inf, Data, Integer, MetricMatrix, MetricVector, Priv, Real, Static, rows,
                    gaussian_mechanism, laplace_mechanism, norm_convert, randomized_response,
                    report_noisy_max, count)


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


# R-peak: no count moves by more than the number of changed entries, so the counts are
# 2-sensitive in L1 and 1-sensitive in L∞, and so √(2·1) in L2 (Hölder). One record moving
# from one bin to another makes all three exact.
def counts_in_l2(data: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Integer]:  # expect: data=sqrt(2)
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return counts


def counts_in_l_inf(data: MetricMatrix[L_inf, Data]) -> MetricVector[L_inf, Real]:  # expect: data=1
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return norm_convert(L_inf, counts.astype(float))


def every_entry_in_l2(data: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Integer]:  # expect: data=sqrt(2)*cols(data)
    return np.histogram(data, bins=3, range=(0.0, 1.0))[0]  # a row's entries may share a bin


def halved_counts(data: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Real]:  # expect: data=sqrt(2)/2
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return norm_convert(L2, np.array(counts, dtype=float) / 2)


def gaussian_histogram(data: MetricMatrix[L_inf, Data], eps: Static[float], delta: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps, delta); eps=static; delta=static; assumes=delta < 1, delta > 0, eps > 0; accounting=sequential
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return gaussian_mechanism(np.sqrt(2), eps, delta, norm_convert(L2, counts))


def most_common_bin(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Integer]:  # expect: data=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return report_noisy_max(1.0, eps, counts)  # every count moves by 1


def counts_changed_in_place(data: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Integer]:  # expect: data=3
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    counts[0] += np.count_nonzero(data[:, 1] > 0.5)  # the first count may now move by 2
    return counts  # (the peak is gone: measured in L1, 2 + 1 (R-store-increment); truth √5)


def one_count(data: MetricMatrix[L_inf, Data]) -> Integer:  # expect: data=1
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return counts[2]


def one_bin_released(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: data=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return laplace_mechanism(1.0, eps, float(counts[2]))


def two_bins_released(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: data=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    counts, _ = np.histogram(data[:, 0], bins=4, range=(0.0, 1.0))
    return laplace_mechanism(2.0, eps, counts[1:3])  # both may move: a slice keeps the L1 move


def conjunction_counted(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    return float(np.count_nonzero((data[:, 0] > 0.5) & (data[:, 1] > 0.5)))


def nonzero_records(v: MetricVector[L1, Data]) -> Real:  # expect: v=1
    return float(np.count_nonzero(v))


def nonzero_reals(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(np.count_nonzero(v))  # a tiny move leaves zero


# R-loop-partition: ``x == i`` over the distinct indices of a range loop are the cells
# of a partition of x's entries. A changed entry leaves one cell and enters at most
# one other: the counts move by 2 together, and their releases cost 2ε, not kε.


def counted_by_loop(v: MetricVector[L1, Data], k: Static[int]) -> list[Real]:  # expect: v=2; k=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(np.sum(v == b)))
    return counts


def released_by_loop(v: MetricVector[L1, Data], k: Static[int], eps: Static[float]) -> Priv[list[Real]]:  # expect: v=(2*eps, 0); k=static; eps=static; assumes=eps > 0, k >= 0; accounting=sequential
    released = []
    for b in range(k):
        released.append(laplace_mechanism(1.0, eps, float(np.sum(v == b))))
    return released


def four_bins_released(v: MetricVector[L1, Integer], eps: Static[float]) -> Priv[list[Real]]:  # expect: v=(2*eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    released = []
    for b in range(4):  # a short loop is no longer unrolled into 4 sequential releases
        released.append(laplace_mechanism(1.0, eps, float(np.count_nonzero(b == v))))
    return released


def gaussian_bins(v: MetricVector[L1, Data], k: Static[int]) -> Priv[list[Real]]:  # expect: v=(1.46517, 1/100000); k=static; assumes=k >= 0; accounting=gdp
    released = []
    for b in range(k):
        released.append(gaussian_mechanism(1.0, 1.0, 1e-5, float(np.sum(v == b))))
    return released


def every_record_may_move(v: MetricVector[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: v=2*len(v); k=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(np.sum(v == b)))
    return counts


def cells_of_rows(m: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: m=2*cols(m); k=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(np.sum(m == b)))
    return counts


def cells_of_a_column(m: MetricMatrix[L_inf, Data], k: Static[int]) -> Real:  # expect: m=2; k=static; assumes=k >= 0
    column = m[:, 0]
    total = 0.0
    for b in range(k):
        total = total + float(np.sum(column == b))
    return total


def cells_and_the_whole(v: MetricVector[L1, Data], k: Static[int]) -> list[Real]:  # expect: v=k + 2; k=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(np.sum(v == b)) + float(np.count_nonzero(v)))
    return counts


def counted_by_predicate(m: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float]) -> Priv[list[Real]]:  # expect: m=(2*eps, 0); k=static; eps=static; assumes=eps > 0, k >= 0; accounting=sequential
    released = []
    for b in range(k):  # count(lambda r: r[0] == b, m) is np.sum(m[:, 0] == b)
        released.append(laplace_mechanism(1.0, eps, count(lambda r: r[0] == b, m)))
    return released


def four_bins_counted_by_predicate(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[list[Real]]:  # expect: m=(2*eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    released = []
    for b in range(4):  # a short loop is not unrolled for its cells (4eps)
        released.append(laplace_mechanism(1.0, eps, count(lambda r: r[0] == b, m)))
    return released


def counted_entries_by_predicate(v: MetricVector[L1, Data], k: Static[int]) -> list[Real]:  # expect: v=2; k=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(count(lambda e: b == e, v)))
    return counts


def counted_by_another_predicate(m: MetricMatrix[L_inf, Data]) -> list[Real]:  # expect: m=6
    counts = []
    for b in range(6):
        counts.append(float(count(lambda r: r[0] <= b, m)))  # cumulative: no partition
    return counts


def counted_with_a_capture(m: MetricMatrix[L_inf, Data], k: Static[int], c: Static[int]) -> list[Real]:  # expect: m=k; k=static; c=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(count(lambda r: r[0] == b + c, m)))  # not the index itself
    return counts


def cells_need_a_public_index(v: MetricVector[L1, Data], k: Integer) -> list[Real]:  # expect: v=inf; k=inf
    counts = []
    for b in range(k):
        counts.append(float(np.sum(v == b)))
    return counts


def cells_of_reals(v: MetricVector[L1, Real], k: Static[int]) -> list[Real]:  # expect: v=inf; k=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(np.sum(v == b)))  # a tiny move leaves a cell
    return counts


def cells_of_a_changed_array(v: MetricVector[L1, Data], k: Static[int]) -> list[Real]:  # expect: v=k; k=static; assumes=k >= 0
    w = np.array(v)
    counts = []
    for b in range(k):
        counts.append(float(np.sum(w == b)))
        w += 1  # w == b is v == 0 every time: one cell, counted k times
    return counts


def not_a_partition(v: MetricVector[L1, Data], k: Static[int]) -> list[Real]:  # expect: v=k; k=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(np.sum(v <= b)))  # cumulative: one entry is in many
    return counts


# R-store-scatter: x[i] += e at an index i that moves with discrete data. Where the index
# is the same on both sides the entry moves by |e − e'|; else e lands on one entry and e'
# on another: the counts move by max(d(e), 2·|e|) in L1 per changed record.
def scattered_counts(v: MetricVector[L1, Data], k: Static[int]) -> MetricVector[L1, Real]:  # expect: v=2; k=static
    counts = np.zeros(k)
    for e in v:
        counts[int(e)] += 1
    return counts


def scattered_and_released(v: MetricVector[L1, Data], k: Static[int], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: v=(inf, inf); k=static; eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    counts = np.zeros(k)
    for e in v:
        counts[int(e)] += 1  # an entry of k or more raises IndexError: that is seen  # E: DPS403
    return laplace_mechanism(2.0, eps, counts)


def scattered_weights(m: MetricMatrix[L_inf, Data], k: Static[int]) -> MetricVector[L1, Real]:  # expect: m=2; k=static
    sums = np.zeros(k)
    for r in m:
        sums[int(r[0])] += np.clip(r[1], 0.0, 1.0)
    return sums


def scattered_pairs(m: MetricMatrix[L_inf, Data], k: Static[int]) -> Real:  # expect: m=2; k=static
    counts = np.zeros((k, k))
    for r in m:
        counts[int(r[0]), int(r[1])] -= 1
    return float(np.sum(np.abs(counts)))


def scattered_by_a_real_index(v: MetricVector[L1, Real], k: Static[int]) -> MetricVector[L1, Real]:  # expect: v=inf; k=static
    counts = np.zeros(k)
    for e in v:
        counts[int(e)] += 1  # a tiny move crosses an integer
    return counts


def scattered_unbounded(v: MetricVector[L1, Data], w: MetricVector[L1, Real], k: Static[int]) -> MetricVector[L1, Real]:  # expect: v=inf; w=1; k=static
    counts = np.zeros(k)
    for i in range(len(v)):
        counts[int(v[i])] += w[i]  # an increment of no known size (with v fixed, 1 in w)
    return counts


def scattered_in_l_inf(v: MetricVector[L1, Data], k: Static[int]) -> MetricVector[L_inf, Real]:  # expect: v=2; k=static
    counts = np.zeros(k)
    counts[int(v[0])] += 1  # (truth 1: np.zeros is measured in L1, where it is 2)
    return counts


def scattered_in_range_and_released(v: MetricVector[L1, Data], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: v=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    counts = np.zeros(4)
    for e in v:
        counts[int(np.clip(int(e), 0, 3))] += 1  # always an entry: no IndexError to see
    return laplace_mechanism(2.0, eps, counts)


def scattered_clamped_by_min_max(v: MetricVector[L1, Data], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: v=(inf, inf); eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    counts = np.zeros(4)
    for e in v:
        counts[min(max(int(e), 0), 3)] += 1  # in range, but ranges open on one side are not kept: np.clip  # E: DPS403
    return laplace_mechanism(2.0, eps, counts)


def counted_between_edges(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: data=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    counts, _ = np.histogram(data[:, 0], bins=[0.0, 18.0, 30.0, 50.0, 120.0])  # public edges
    return laplace_mechanism(2.0, eps, counts)


def edges_from_data(data: MetricMatrix[L_inf, Data], x: Real) -> MetricVector[L1, Integer]:  # expect: data=inf; x=inf; returns=unknown
    return np.histogram(data[:, 0], bins=[0.0, x, 120.0])[0]  # E: DPS304, DPS301


def edges_with_a_nan(v: MetricVector[L1, Data]) -> MetricVector[L1, Integer]:  # expect: v=inf; returns=unknown
    # numpy accepts edges with a NaN (it compares neighbours): one entry then moves the
    # counts in every repeat of the pattern (found by a review; was 2, truth 5 here)
    return np.histogram(v, bins=[0.0, 10.0, 1e400 - 1e400, 0.0, 10.0, 1e400 - 1e400, 0.0, 10.0])[0]  # E: DPS301


def scattered_by_row_index(data: MetricMatrix[L_inf, Data], k: Static[int]) -> MetricVector[L1, Real]:  # expect: data=2; k=static
    counts = np.zeros(k)
    for i in range(rows(data)):
        counts[int(data[i, 1])] += 1  # row i's own entry (it was 2·rows(data))
    return counts


def unary_encoded(value: Data, eps: Static[float]) -> Priv[list[Data]]:  # expect: value=(eps, 0); eps=static; assumes=eps/2 > 0; accounting=sequential
    out = []
    for j in range(4):  # cells of one value: two bits change, eps/2 each (it was 2·eps)
        out.append(randomized_response(eps / 2, value == j))
    return out


def one_hot(value: Integer) -> list[Real]:  # expect: value=2
    out = []
    for j in range(4):
        out.append(1.0 if value == j else 0.0)
    return out


def scattered_by_plain_store(v: MetricVector[L1, Data], k: Static[int]) -> MetricVector[L1, Real]:  # expect: v=2; k=static
    counts = np.zeros(k)
    for e in v:
        g = int(e)
        counts[g] = counts[g] + 1  # the same as counts[g] += 1 (it was inf)
    return counts


def counts_into_an_integer_array(v: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: v=2
    # An entry leaves one count and joins another (R-loop-partition; stored at out[i], the
    # four-bin loop was unrolled, each cell counted on its own: 4). np.zeros(4, dtype=int)
    # was DPS303 and inf.
    out = np.zeros(4, dtype=int)
    for i in range(4):
        out[i] = np.sum(v == i)
    return out * 1.0


def real_stored_into_an_integer_array(x: Real) -> Real:  # expect: x=inf
    out = np.zeros(2, dtype=int)
    out[0] = 0.5 * x  # truncated: 0.5 * 1.9 and 0.5 * 2.1 are stored as 0 and 1
    return float(out[0])


def real_made_a_numpy_integer(x: Real) -> Real:  # expect: x=inf
    return float(np.int64(0.5 * x))


def counts_stored_with_a_shift(v: MetricVector[L1, Data], x: Real) -> MetricVector[L1, Real]:  # expect: v=2; x=4
    out = np.zeros(4)
    for i in range(4):
        out[i] = np.sum(v == i) + x  # every entry moves with x
    return out


# A column written where it is tested (m[:, 0] == b) is a partition's array as a name
# holding it is (it was k·ε; the review of the literature's tools).
def cells_of_a_column_as_written(m: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float]) -> Priv[list[Real]]:  # expect: m=(2*eps, 0); k=static; eps=static; assumes=eps > 0, k >= 0; accounting=sequential
    released = []
    for b in range(k):
        released.append(laplace_mechanism(1.0, eps, float(np.sum(m[:, 0] == b))))
    return released


def cells_of_two_columns(m: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: m=4; k=static; assumes=k >= 0
    counts = []
    for b in range(k):
        counts.append(float(np.sum(m[:, 0] == b)) + float(np.sum(m[:, 1] == b)))
    return counts


# R-cell-values: a value of the same rows kept only inside the cell (per-group sums of
# clipped values, GaussianNB's class sums, a filtered count per group). A record changes
# at most two groups' sums, each by at most 1 (clipped to [0, 1]): 2, not k + 2.
def group_sums(D: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=2; k=static; assumes=k >= 0
    x = np.clip(D[:, 0], 0.0, 1.0)
    sums = []
    for c in range(k):
        sums.append(float(np.sum(np.where(D[:, 1] == c, x, 0.0))))
    return sums


def group_sums_by_product(D: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=2; k=static; assumes=k >= 0
    sums = []
    for c in range(k):
        sums.append(float(np.sum(np.clip(D[:, 0], 0.0, 1.0) * (D[:, 1] == c))))
    return sums


def filtered_group_counts(D: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float]) -> Priv[list[Real]]:  # expect: D=(2*eps, 0); k=static; eps=static; assumes=eps > 0, k >= 0; accounting=sequential
    released = []
    for c in range(k):
        released.append(laplace_mechanism(1.0, eps, float(np.sum((D[:, 0] == c) & (D[:, 1] > 0.5)))))
    return released


def group_sums_of_another_dataset(D: MetricMatrix[L_inf, Data], E: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=2; E=k; k=static; assumes=k >= 0, rows(E) == rows(D)
    sums = []
    for c in range(k):  # E's rows are not D's records: E moves every group
        sums.append(float(np.sum(np.where(D[:, 1] == c, np.clip(E[:, 0], 0.0, 1.0), 0.0))))
    return sums


def cells_of_a_column_of_groups(D: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=2; k=static; assumes=k >= 0
    counts = []
    for c in range(k):
        counts.append(float(np.sum(D[:, 1] == c)))
    return counts


def whole_matrix_cells(D: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=2*cols(D)**2 + cols(D)*k; k=static; assumes=k >= 0
    x = np.clip(D[:, ::-1], 0.0, 1.0)
    sums = []
    for c in range(k):  # D == c tests entries, and x reads another entry of the row
        sums.append(float(np.sum(x * (D == c))))
    return sums


def rows_of_a_matrix_in_a_cell(D: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=k*rows(D) + 2*rows(D)**2; k=static; assumes=cols(D) == rows(D), k >= 0
    x = np.clip(D, 0.0, 1.0)
    sums = []
    for c in range(k):  # a record moves a whole row of x: not one entry per record
        sums.append(float(np.sum(np.where(D[:, 1] == c, x, 0.0))))
    return sums


def sums_outside_each_group(D: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=k + 2; k=static; assumes=k >= 0
    x = np.clip(D[:, 0], 0.0, 1.0)
    sums = []
    for c in range(k):  # the complement of the cell has the cell's context, but is no cell
        sums.append(float(np.sum(np.where((D[:, 1] == c) == False, x, 0.0))))  # noqa: E712
    return sums


def counted_groups(D: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=2; k=static; assumes=k >= 0
    counts = []
    for c in range(k):
        counts.append(float(count(lambda r: r[1] == c, D)))
    return counts


def group_or_other(D: MetricMatrix[L_inf, Data], k: Static[int]) -> list[Real]:  # expect: D=k + 2; k=static; assumes=k >= 0
    counts = []
    for c in range(k):  # (not kept inside the cell: the other rows count in every group)
        counts.append(float(np.sum((D[:, 0] == c) | (D[:, 1] > 0.5))))
    return counts


# A public running total beside the cells (`out = out + noisy count`) made the loop run
# concretely, iteration by iteration, which loses the partition: 4·eps (it was).
def cells_summed_into_a_total(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: m=(2*eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    out = 0.0
    for b in range(4):
        out = out + laplace_mechanism(1.0, eps, count(lambda r: r[0] == b, m))
    return out


# review29: a counter that sets each cell's ε still runs the loop concretely (it is a known
# value in every iteration); it was (inf, inf) with DPS305 for a moment. 8 + 4 is the truth.
def cells_with_growing_budgets(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: m=(15*eps, 0); eps=static; assumes=2*eps > 0, 4*eps > 0, 8*eps > 0, eps > 0; accounting=sequential
    out = 0.0
    e = eps
    for b in range(4):
        out = out + laplace_mechanism(1.0, e, count(lambda r: r[0] == b, m))
        e = 2 * e
    return out
