"""np.concatenate, np.hstack, np.vstack, np.stack and np.column_stack (R-concat,
R-stack-rows, R-stack-columns), and R-ravel's peak. Every one was DPS203 and inf."""

import numpy as np

from dpsens import (
    Data, Integer, L1, L2, L_inf, MetricMatrix, MetricVector, Priv, Real, Static,
    gaussian_mechanism, laplace_mechanism, norm_convert,
)


# Vectors end to end (R-concat): per variable, the norm of its sensitivities in the parts.
def joined_l1(x: MetricVector[L1, Real], y: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: x=1; y=1
    return np.concatenate([x, y])


def joined_twice_l1(x: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: x=2
    return np.concatenate((x, x))


def joined_l2(x: MetricVector[L2, Real], y: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: x=1; y=1
    return np.concatenate([x, y])


def joined_twice_l2(x: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: x=sqrt(2)
    return np.concatenate([x, x])  # ‖(Δ, Δ)‖₂ = √2‖Δ‖₂, not 2


def joined_scaled_l2(x: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: x=sqrt(5)
    return np.concatenate([x, 2.0 * x])


def joined_twice_l_inf(x: MetricVector[L_inf, Real]) -> MetricVector[L_inf, Real]:  # expect: x=1
    return np.concatenate([x, x])


def joined_l_inf(x: MetricVector[L_inf, Real], y: MetricVector[L_inf, Real]) -> MetricVector[L_inf, Real]:  # expect: x=1; y=1
    return np.concatenate([x, -y])


def joined_with_zeros(x: MetricVector[L2, Real], k: Static[int]) -> MetricVector[L2, Real]:  # expect: x=1; k=static
    return np.concatenate([np.zeros(k), x])  # a public part is 0 away, and has no say in the norm


# Mixed norms: the first sensitive part's norm, the others re-measured into it.
def l1_then_l_inf(x: MetricVector[L1, Real], y: MetricVector[L_inf, Real]) -> MetricVector[L1, Real]:  # expect: x=1; y=len(y)
    return np.concatenate([x, y])


def l_inf_then_l1(x: MetricVector[L_inf, Real], y: MetricVector[L1, Real]) -> MetricVector[L_inf, Real]:  # expect: x=1; y=1
    return np.concatenate([x, y])


# Mixed kinds: integers are real numbers; a real among records is unbounded.
def counts_and_reals(c: MetricVector[L1, Integer], x: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: c=1; x=1
    return np.concatenate([c, x])


def records_and_reals(d: MetricVector[L1, Data], x: MetricVector[L1, Real]) -> MetricVector[L1, Data]:  # expect: d=1; x=inf
    return np.concatenate([d, x])


def records_joined(d: MetricVector[L_inf, Data], e: MetricVector[L_inf, Data]) -> MetricVector[L_inf, Data]:  # expect: d=1; e=1
    return np.concatenate([d, e])


# Lengths add: the mean divides by both.
def mean_of_joined(x: MetricVector[L1, Real], y: MetricVector[L1, Real]) -> Real:  # expect: x=1/(len(x) + len(y)); y=1/(len(x) + len(y))
    return float(np.mean(np.concatenate([x, y])))


def joined_length(x: MetricVector[L1, Real]) -> Real:  # expect: x=0
    return float(len(np.concatenate([x, np.zeros(3), x])) - 2 * len(x))


def bias_feature(x: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: x=1
    return np.hstack([x, 1.0])  # a constant feature: a number is a 1-entry array


def listed_numbers(x: MetricVector[L1, Real], a: Real, b: Real) -> MetricVector[L1, Real]:  # expect: x=1; a=1; b=1
    return np.hstack((x, [a, b]))


def whole_matrix_flattened(m: MetricMatrix[L1, Real], x: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=1; x=1
    return np.concatenate([m, np.vstack([x])], axis=None)  # each flattened first


def numbers_stacked(a: Real, b: Real) -> MetricVector[L_inf, Real]:  # expect: a=1; b=1
    return np.stack([a, b, a])


# Rows one above the other (R-stack-rows): a matrix's distance sums its rows'.
def rows_of_two(m: MetricMatrix[L_inf, Real], n: MetricMatrix[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=1; n=1; assumes=cols(n) == cols(m)
    return np.vstack([m, n])


def rows_twice(m: MetricMatrix[L2, Real]) -> MetricMatrix[L2, Real]:  # expect: m=2
    return np.concatenate([m, m], axis=0)


def records_of_two(d: MetricMatrix[L_inf, Data], e: MetricMatrix[L_inf, Data]) -> MetricMatrix[L_inf, Data]:  # expect: d=1; e=1; assumes=cols(e) == cols(d)
    return np.vstack((d, e))


def records_counted(d: MetricMatrix[L_inf, Data], e: MetricMatrix[L_inf, Data]) -> Real:  # expect: d=1; e=1; assumes=cols(e) == cols(d)
    both = np.vstack((d, e))
    return float(np.sum(both[:, 0] > 0.5))


def rows_mean(m: MetricMatrix[L1, Real], n: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=1/(rows(m) + rows(n)); n=1/(rows(m) + rows(n)); assumes=cols(n) == cols(m)
    return np.mean(np.vstack([m, n]), axis=0)


def vectors_as_rows(x: MetricVector[L2, Real], y: MetricVector[L2, Real]) -> MetricMatrix[L2, Real]:  # expect: x=1; y=1; assumes=len(y) == len(x)
    return np.vstack([x, y])


def vector_as_rows_twice(x: MetricVector[L2, Real]) -> MetricMatrix[L2, Real]:  # expect: x=2
    return np.stack([x, x])


def matrix_and_a_row(m: MetricMatrix[L1, Real], x: MetricVector[L_inf, Real]) -> MetricMatrix[L1, Real]:  # expect: m=1; x=len(x); assumes=len(x) == cols(m)
    return np.vstack([m, x])


# Side by side (R-stack-columns): row i joins the rows i; every row norm is at most the sum.
def columns_of_two(m: MetricMatrix[L_inf, Real], n: MetricMatrix[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=1; n=1; assumes=rows(n) == rows(m)
    return np.hstack([m, n])


def columns_of_two_l2(m: MetricMatrix[L2, Real], n: MetricMatrix[L2, Real]) -> MetricMatrix[L2, Real]:  # expect: m=1; n=1; assumes=rows(n) == rows(m)
    return np.concatenate([m, n], axis=1)


def columns_of_one_twice(m: MetricMatrix[L1, Real]) -> MetricMatrix[L1, Real]:  # expect: m=2
    return np.concatenate([m, m], axis=-1)


def columns_of_records(d: MetricMatrix[L_inf, Data], e: MetricMatrix[L_inf, Data]) -> MetricMatrix[L_inf, Data]:  # expect: d=1; e=1; assumes=rows(e) == rows(d)
    return np.hstack([d, e])


def vectors_as_columns(x: MetricVector[L2, Real], y: MetricVector[L1, Real]) -> MetricMatrix[L1, Real]:  # expect: x=sqrt(len(x)); y=1; assumes=len(y) == len(x)
    return np.column_stack([x, y])


def vectors_stacked_as_columns(x: MetricVector[L_inf, Real]) -> MetricMatrix[L1, Real]:  # expect: x=2*len(x)
    return np.stack([x, x], axis=1)


def features_of_a_dataset(d: MetricMatrix[L_inf, Data]) -> MetricMatrix[L1, Real]:  # expect: d=3
    age = np.clip(d[:, 0], 0.0, 1.0)
    income = np.clip(d[:, 1], 0.0, 2.0)
    return np.column_stack([age, income, np.ones(len(age))])


def matrix_and_a_column(m: MetricMatrix[L_inf, Real], x: MetricVector[L1, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=1; x=1; assumes=len(x) == rows(m)
    return np.column_stack([m, x])


# Refused: a sensitive or unknown axis, a list of unknown length, ranks that do not join.
def axis_from_data(x: MetricVector[L1, Real], y: MetricVector[L1, Real], k: Integer) -> MetricVector[L1, Real]:  # expect: x=inf; y=inf; k=inf; returns=unknown
    return np.concatenate([x, y], axis=k)  # E: DPS304


def axis_not_known(m: MetricMatrix[L1, Real], k: Static[int]) -> MetricMatrix[L1, Real]:  # expect: m=inf; k=static; returns=unknown
    return np.concatenate([m, m], axis=k)  # E: DPS301


def vector_axis_one(x: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: x=inf; returns=unknown
    return np.concatenate([x, x], axis=1)  # E: DPS301


def float_axis(x: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: x=inf; returns=unknown
    return np.concatenate([x, x], axis=0.0)  # E: DPS301


def grown_list(x: MetricVector[L1, Real], k: Static[int]) -> MetricMatrix[L1, Real]:  # expect: x=inf; k=static; returns=unknown; assumes=k >= 0
    parts = []
    for _ in range(k):
        parts.append(x)
    return np.vstack(parts)  # E: DPS301


def vector_beside_matrix(m: MetricMatrix[L1, Real], x: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=inf; x=inf; returns=unknown
    return np.concatenate([m, x])  # E: DPS301


def matrices_stacked(m: MetricMatrix[L1, Real]) -> Real:  # expect: m=inf
    return float(np.sum(np.stack([m, m])))  # E: DPS301


def sizes_that_differ(m: MetricMatrix[L1, Real]) -> MetricMatrix[L1, Real]:  # expect: m=inf; returns=unknown
    return np.vstack([m, np.zeros(3), np.zeros(4)])  # E: DPS301


# R-ravel: a flattened dataset changes in at most cols entries, each by at most 1.
def flattened_records_in_l2(m: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Data]:  # expect: m=sqrt(cols(m))
    return m.flatten()


def flattened_records_in_l_inf(m: MetricMatrix[L_inf, Data]) -> MetricVector[L_inf, Data]:  # expect: m=1
    return np.ravel(m)


def one_flattened_record(m: MetricMatrix[L_inf, Data]) -> Data:  # expect: m=1
    return m.flatten()[0]


# Counts joined: each histogram moves by 2 in L1 and 1 in any entry (R-peak).
def two_histograms_in_l2(x: MetricVector[L1, Data], y: MetricVector[L1, Data]) -> MetricVector[L2, Integer]:  # expect: x=sqrt(2); y=sqrt(2)
    cx, _ = np.histogram(x, 4, (0.0, 1.0))
    cy, _ = np.histogram(y, 4, (0.0, 1.0))
    return np.concatenate([cx, cy])


def one_histogram_twice_in_l2(x: MetricVector[L1, Data]) -> MetricVector[L2, Integer]:  # expect: x=2
    counts, _ = np.histogram(x, 4, (0.0, 1.0))
    return np.concatenate([counts, counts])


# Privacy.
def laplace_of_joined(x: MetricVector[L1, Real], y: MetricVector[L1, Real], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: x=(eps, 0); y=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return laplace_mechanism(1.0, eps, np.concatenate([x, y]))


def laplace_of_two_histograms(d: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[MetricVector[L1, Integer]]:  # expect: d=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    first, _ = np.histogram(d[:, 0], 4, (0.0, 1.0))
    second, _ = np.histogram(d[:, 1], 4, (0.0, 1.0))
    return laplace_mechanism(4.0, eps, np.concatenate([first, second]))


def gaussian_of_rows(x: MetricVector[L2, Real], y: MetricVector[L2, Real], eps: Static[float], delta: Static[float]) -> Priv[MetricMatrix[L2, Real]]:  # expect: x=(eps, delta); y=(eps, delta); eps=static; delta=static; assumes=delta < 1, delta > 0, eps > 0, len(y) == len(x); accounting=sequential
    return gaussian_mechanism(1.0, eps, delta, np.vstack([np.clip(x, -1.0, 1.0), y]))


def gaussian_of_joined_twice(x: MetricVector[L2, Real], eps: Static[float], delta: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: x=(eps, delta); eps=static; delta=static; assumes=delta < 1, delta > 0, eps > 0; accounting=sequential
    return gaussian_mechanism(np.sqrt(2.0), eps, delta, np.concatenate([x, x]))


# Why side by side sums even in L∞ rows: m's changed row i meets flip(m)'s in row r − 1 − i.
def columns_beside_their_reversal(m: MetricMatrix[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=2
    return np.hstack([m, np.flip(m)])


# Loose where the changed rows coincide (documented in R-stack-columns): the truth is 1.
def columns_beside_themselves(m: MetricMatrix[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=2
    return np.hstack([m, m])


def columns_of_one_dataset(d: MetricMatrix[L_inf, Data]) -> MetricMatrix[L_inf, Data]:  # expect: d=2
    return np.hstack([d[:, :2], d[:, 2:]])
