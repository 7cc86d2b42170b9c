"""R-select: x[mask] — how many were selected, and the sum of a vector's selection."""

import numpy as np

from dpsens import (
    Data, Integer, L1, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, laplace_mechanism,
)


# A counting query: one changed record moves its own row's test, so the count by 1.
def records_matching(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=1
    return len(m[m[:, 0] > 5])


def records_matching_by_shape(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=1
    mask = m[:, 0] > 5
    chosen = m[mask]
    return chosen.shape[0]


def records_matching_both(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=1
    return len(m[(m[:, 0] > 5) & (m[:, 1] < 3)])


def entries_matching(v: MetricVector[L1, Data]) -> Integer:  # expect: v=1
    return len(v[v > 3])


# The selection is of one array, the mask of another: the count depends on the mask only.
def selected_by_labels(m: MetricMatrix[L_inf, Data], labels: MetricVector[L1, Data]) -> Integer:  # expect: m=0; labels=1; assumes=rows(m) == len(labels)
    return len(m[labels > 0])


# Σ_i m_i·v_i is the sum of np.where(m, v, 0) (R-where): Γ_v + (B_v + 0)·Γ_mask.
def sum_of_selected_entries(v: MetricVector[L1, Real], labels: MetricVector[L1, Data]) -> Real:  # expect: v=1; labels=1; assumes=len(v) == len(labels)
    return float(np.sum(np.clip(v, -1.0, 1.0)[labels > 0]))


def sum_of_selected_unbounded_entries(v: MetricVector[L1, Real], labels: MetricVector[L1, Data]) -> Real:  # expect: v=1; labels=inf; assumes=len(v) == len(labels)
    return float(np.sum(v[labels > 0]))


def method_sum_of_selected_entries(v: MetricVector[L1, Real], labels: MetricVector[L1, Data]) -> Real:  # expect: v=1; labels=1; assumes=len(v) == len(labels)
    return float(np.clip(v, -1.0, 1.0)[labels > 0].sum())


def columns_of_a_selection(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=0
    return m[m[:, 0] > 5].shape[1]


def private_count(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: m=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    return laplace_mechanism(1.0, eps, float(len(m[m[:, 0] > 40])))


# Two selections by different masks look alike; a branch on the data may swap them, so
# the count is not 1 (it was, for a moment: D101).
def count_of_a_chosen_selection(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=inf; returns=unknown
    chosen = m[m[:, 0] > 5] if m[0, 0] > 0 else m[m[:, 1] > 5]
    return len(chosen)  # E: DPS301


def count_in_each_branch(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=rows(m)
    if m[0, 0] > 0:
        n = len(m[m[:, 0] > 5])
    else:
        n = len(m[m[:, 1] > 5])
    return n


def mean_of_a_selection(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    w = np.clip(v, 0.0, 1.0)
    return float(np.mean(w[w > 0.5]))  # E: DPS202


def largest_selected(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=inf; returns=unknown
    return float(np.max(m[m[:, 0] > 5]))  # E: DPS301


def unpacked_selection(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    a, b = v[v > 0]  # E: DPS301
    return a + b


def integer_indices(v: MetricVector[L1, Real], picks: MetricVector[L1, Integer]) -> Real:  # expect: v=inf; picks=inf; returns=unknown
    return float(np.sum(v[picks]))  # E: DPS202


# D102 (review of R-select): a tuple holding a selection joined whole, as D101 did.
def count_in_a_chosen_tuple(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=inf; returns=unknown
    t = (m[m[:, 0] > 5],) if m[0, 0] > 0 else (m[m[:, 1] > 5],)
    return len(t[0])  # E: DPS301


# D103 (the same review): an in-place change through an alias (or a list holding it)
# left the selection's sum as it was (1, truth 1000).
def sum_after_a_change_through_an_alias(v: MetricVector[L1, Real], labels: MetricVector[L1, Data]) -> Real:  # expect: v=inf; labels=inf; returns=unknown; assumes=len(v) == len(labels)
    s = np.clip(v, -1.0, 1.0)[labels > 0]
    t = s
    t *= 1000.0  # E: DPS301
    return float(np.sum(s))


def sum_after_a_change_through_a_list(v: MetricVector[L1, Real], labels: MetricVector[L1, Data]) -> Real:  # expect: v=inf; labels=inf; returns=unknown; assumes=len(v) == len(labels)
    s = np.clip(v, -1.0, 1.0)[labels > 0]
    t = [s]
    t[0] *= 1000.0  # E: DPS301
    return float(np.sum(s))  # E: DPS301


# D106 (a second review): a selection a lambda captures was not among its arrays, so a
# change through what the lambda returned left the selection's sum as it was.
def sum_after_a_change_through_a_lambda(v: MetricVector[L1, Real], labels: MetricVector[L1, Data]) -> Real:  # expect: v=inf; labels=inf; returns=unknown; assumes=len(v) == len(labels)
    s = np.clip(v, -1.0, 1.0)[labels > 0]
    g = lambda: s  # noqa: E731
    t = g()
    t *= 1000.0  # E: DPS301
    return float(np.sum(s))  # E: DPS301
