"""Sums, means, counts, indexing, map_rows and fold over vectors and matrices."""

import numpy as np

from dpsens import (
    Data, Integer, L1, L2, L_inf, MetricMatrix, MetricVector, Real, Static, count, fold,
    map_rows, rows,
)


def sum_l1(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return np.sum(v)


def sum_l2(v: MetricVector[L2, Real]) -> Real:  # expect: v=sqrt(len(v))
    return np.sum(v)


def sum_linf(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v)
    return np.sum(v)


def mean_l1(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/len(v)
    return np.mean(v)


def sum_of_data(v: MetricVector[L1, Data]) -> Real:  # expect: v=inf
    return np.sum(v)


def row_sum(m: MetricMatrix[L2, Real]) -> MetricVector[L2, Real]:  # expect: m=1; returns=MetricVector[L2, Real]
    return np.sum(m, axis=0)


def python_sum(m: MetricMatrix[L2, Real]) -> MetricVector[L2, Real]:  # expect: m=1
    return sum(m)


def row_mean(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=1/rows(m)
    return np.mean(m, axis=0)


def method_sum(m: MetricMatrix[L2, Real]) -> MetricVector[L2, Real]:  # expect: m=1
    return m.sum(axis=0)


def per_row_sums(m: MetricMatrix[L2, Real]) -> MetricVector[L1, Real]:  # expect: m=sqrt(cols(m))
    return np.sum(m, axis=1)


def entry(m: MetricMatrix[L_inf, Data], i: Static[int]) -> Data:  # expect: m=1; i=static
    return m[i, 0]


def row(m: MetricMatrix[L2, Real], i: Static[int]) -> MetricVector[L2, Real]:  # expect: m=1; i=static
    return m[i, :]


def column(m: MetricMatrix[L2, Real]) -> MetricVector[L1, Real]:  # expect: m=1
    return m[:, 1]


def private_index(v: MetricVector[L1, Real], i: Integer) -> Real:  # expect: v=1; i=inf
    return v[i]


def clipped_column_sum(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=10
    return np.sum(np.clip(m[:, 0], 0.0, 10.0))


def clipped_column_mean(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=1/rows(m)
    return np.mean(np.clip(m[:, 0], 0.0, 1.0))


def count_l1(v: MetricVector[L1, Data]) -> Integer:  # expect: v=1
    return count(lambda e: e > 0.5, v)


def count_linf(v: MetricVector[L_inf, Data]) -> Integer:  # expect: v=len(v)
    return count(lambda e: e > 0.5, v)


def count_rows(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=1
    return count(lambda r: r[0] > 0.5, m)


def count_reals(v: MetricVector[L1, Real]) -> Integer:  # expect: v=inf
    return count(lambda e: e > 0.5, v)


def count_private_threshold(v: MetricVector[L1, Data], t: Real) -> Integer:  # expect: v=1; t=inf
    return count(lambda e: e > t, v)


def mapped(m: MetricMatrix[L2, Real]) -> MetricMatrix[L2, Real]:  # expect: m=3
    return map_rows(lambda r: 3 * r, m)


def mapped_capture(m: MetricMatrix[L2, Real], shift: Real) -> MetricVector[L1, Real]:  # expect: m=sqrt(cols(m)); shift=rows(m)
    return map_rows(lambda r: np.sum(r) + shift, m)


def folded(m: MetricMatrix[L1, Real], init: Real) -> Real:  # expect: m=2**(rows(m) - 1); init=2**rows(m)
    return fold(lambda acc, r: 2 * acc + r[0], init, m)


def folded_contracting(m: MetricMatrix[L1, Real], init: Real) -> Real:  # expect: m=1; init=(1/2)**rows(m)
    return fold(lambda acc, r: acc / 2 + r[0], init, m)


def folded_capture(v: MetricVector[L1, Real], init: Real, y: Real) -> Real:  # expect: v=1; init=1; y=len(v)
    return fold(lambda acc, e: acc + e + y, init, v)


def number_of_rows(m: MetricMatrix[L_inf, Data]) -> Integer:  # expect: m=0
    return rows(m) + len(m)


def shape_loop(m: MetricMatrix[L2, Real]) -> MetricVector[L2, Real]:  # expect: m=1/rows(m)
    n, d = m.shape
    total = np.zeros(d)
    for i in range(n):
        total = total + m[i, :]
    return total / n


def broadcast(v: MetricVector[L2, Real], x: Real) -> MetricVector[L2, Real]:  # expect: v=1; x=sqrt(len(v))
    return v + x


# np.array of numbers (a tuple or a list display) is an L1 vector: its distance is the
# sum of the entries' distances.
def stacked(x: Real, y: Real, z: Real) -> MetricVector[L1, Real]:  # expect: x=1; y=2; z=1
    return np.array((x, 2 * y, z))


def stacked_list(x: Real, y: Real) -> MetricVector[L2, Real]:  # expect: x=1; y=1
    return np.array([x, y])


def stacked_twice(x: Real) -> Real:  # expect: x=2
    return float(np.sum(np.array([x, x])))


def copied(v: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: v=1
    w = np.array(v)
    w[0] = 0.0
    return v


def copied_by_method(v: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: v=1
    w = v.copy()  # (it was DPS203 and ∞)
    w[0] = 0.0
    return v


def copy_scaled(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=1001
    w = np.copy(v)  # (the store rule: the old entries' 1 plus the stored 1000)
    w[0] = 1000 * w[0]
    return w


# a[i] = v on a list replaces one element; the elements' own objects do not change.
def list_store(x: Real, y: Real) -> Real:  # expect: x=0; y=100
    a = [x, 0.0]
    a[1] = 100.0 * y
    return a[1]


def list_store_keeps_the_old_element(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=1; w=0
    a = [v]
    a[0] = w
    return float(np.sum(v))


# a[i][j] = x writes into the element's own array: v's.
def store_into_a_listed_array(v: MetricVector[L1, Real], x: Real) -> Real:  # expect: v=inf; x=inf
    a = [v, 0.0]
    a[0][0] = x  # E: DPS205
    return float(np.sum(v))


def list_store_at_an_unknown_position(x: Real, y: Real, k: Static[int]) -> Real:  # expect: x=1; y=1; k=static
    a = [x, 0.0]
    a[k] = y
    return a[0]


def sum_of_a_list(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    return sum([x, y])


def mean_of_a_tuple(x: Real, y: Real) -> Real:  # expect: x=1/2; y=1/2
    return float(np.mean((x, y)))


def min_of_a_tuple(x: Real, y: Real, z: Real) -> Real:  # expect: x=1; y=2; z=1
    return min((x, 2 * y, z))


def max_of_a_vector(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return max(v)


# Comparison masks have 0/1 entries: an Integer container (L22; they were Data, and
# summing Data is unbounded).
def share_above(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1/rows(data)
    return float(np.mean(data[:, 0] > 0.5))


def count_above(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    return float(np.sum(data[:, 0] > 0.5))


def count_above_l2(v: MetricVector[L2, Data]) -> Real:  # expect: v=sqrt(len(v))
    return float(np.sum(v > 0.5))


def mask_of_reals(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(np.sum(v > 0.5))


# R-transpose: Σ_j ‖column j of Δ‖_N ≤ Σ_ij |Δ_ij| ≤ norm_factor(N, L1, cols)·Σ_i ‖row i of Δ‖_N.
def transposed_l1(m: MetricMatrix[L1, Real]) -> MetricMatrix[L1, Real]:  # expect: m=1
    return m.T


def transposed_l2(m: MetricMatrix[L2, Real]) -> MetricMatrix[L2, Real]:  # expect: m=sqrt(cols(m))
    return m.T


def transposed_records(m: MetricMatrix[L_inf, Data]) -> MetricMatrix[L_inf, Data]:  # expect: m=cols(m)
    return m.T



# D104 (review of R-transpose; np.ravel's views had it before): a store through a view
# that lays the entries out in other rows was measured in the view's rows (1, truth rows).
def store_through_a_transpose(m: MetricMatrix[L_inf, Real], v: MetricVector[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=0; v=inf
    w = np.zeros_like(m)
    t = w.T
    t[0] = v
    return w


def store_into_a_transposed_row(m: MetricMatrix[L_inf, Real], v: MetricVector[L_inf, Real]) -> Real:  # expect: m=0; v=inf
    w = np.zeros_like(m)
    w.T[0] = v
    return float(np.sum(w))


def store_through_a_raveled_view(m: MetricMatrix[L_inf, Real], v: MetricVector[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=0; v=inf
    w = np.zeros_like(m)
    r = np.ravel(w)
    r[:] = v
    return w


def store_into_the_transpose_itself(m: MetricMatrix[L_inf, Real], v: MetricVector[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=0; v=rows(m)
    # Sound, loose (truth 1): the transpose's rows are measured in L1 (R-transpose), which
    # an (L∞, ℝ) row stored into costs its length.
    w = np.zeros_like(m)
    t = w.T
    t[0] = v
    return t


# D107 (the second review): a lambda called where it is written made no alias (0, truth 1).
def store_through_an_immediately_called_lambda(x: Real) -> Real:  # expect: x=1
    w = np.zeros(3)
    t = (lambda: w)()
    t[0] = x
    return float(np.sum(w))


# D108 (the same review): c op= v through a column view kept v's metric, not the
# column's (1, truth rows: every row of w moves).
def column_view_changed_in_place(v: MetricVector[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: v=7; assumes=len(v) == 7
    w = np.zeros((7, 3))
    column = w[:, 0]
    column += np.clip(v, 0.0, 1.0)
    return w


def row_of_a_transpose_changed_in_place(v: MetricVector[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: v=inf; assumes=len(v) == 7
    w = np.zeros((7, 3))
    t = w.T
    r = t[0]
    r += np.clip(v, 0.0, 1.0)
    return w


# D109 (the same review): a helper returning a transposing view of its argument.
def helper_transposed(w: MetricMatrix[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: w=cols(w)
    return w.T


def store_through_a_helper_view(v: MetricVector[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: v=inf
    w = np.zeros((7, 3))
    t = helper_transposed(w)
    t[0] = np.clip(v, 0.0, 1.0)
    return w


# An array of its own changed in place takes the result's metric (only a view's change
# is re-measured in the view's): accumulating a vector is still 1.
def accumulated_in_place(v: MetricVector[L_inf, Real]) -> MetricVector[L_inf, Real]:  # expect: v=1
    total = np.zeros(len(v))
    total += v
    return total


# R-tuple-choice: a tuple indexed by an integer not known here is any of its items (their
# join); an index that depends on inputs may pick another item on a neighbour. (It was
# DPS301 and ∞: the review of Duet's adaptive clipping, a scale picked by a mechanism.)
def picked_item(x: Real, y: Real, i: Integer) -> Real:  # expect: x=1; y=2; i=inf
    return (x, 2 * y)[i]


def picked_by_a_static_index(x: Real, y: Real, i: Static[int]) -> Real:  # expect: x=1; y=2; i=static
    return (x, 2 * y)[i]


def picked_among_different_types(x: Real, i: Static[int]) -> Real:  # expect: x=inf; i=static; returns=unknown
    return (x, np.ones(3))[i]  # E: DPS301


# R-store-increment: x[i] += e moves x by its own move plus e's (it was counted twice:
# k increments of out[0] += x were 2**k - 1).
def accumulated_entry(x: Real) -> MetricVector[L1, Real]:  # expect: x=5
    out = np.zeros(3)
    for _ in range(5):
        out[0] += x
    return out


def incremented_slice(v: MetricVector[L1, Real], x: Real) -> MetricVector[L1, Real]:  # expect: v=1; x=min(3, len(v))
    w = v.copy()
    w[0:3] += x
    return w


def decremented_entry(v: MetricVector[L1, Real], x: Real) -> MetricVector[L1, Real]:  # expect: v=1; x=2
    w = v.copy()
    w[1] -= 2 * x
    return w


def dot_with_a_literal(v: MetricVector[L1, Real]) -> Real:  # expect: v=3; assumes=3 == len(v)
    return np.dot(v, np.array([1.0, -2.0, 3.0]))  # entries at most 3 (was DPS305, inf)


# Hölder: a public vector c of known entries moves v·c by at most ‖c‖_q·‖Δv‖_p, the dual
# norm (exact for some Δv); the entry bound times the norm conversion was 3·√3 and 9.
def dot_of_an_l2_vector(v: MetricVector[L2, Real]) -> Real:  # expect: v=sqrt(14); assumes=3 == len(v)
    return np.dot(v, np.array([1.0, -2.0, 3.0]))


def dot_of_a_max_vector(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=6; assumes=len(v) == 3
    return np.dot(np.array([1.0, -2.0, 3.0]), v)


def dot_with_a_list(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=3/4; assumes=2 == len(v)
    return np.dot(v, [0.5, -0.25])  # numpy makes an array of the list (was DPS301, inf)


def rows_times_a_literal(m: MetricMatrix[L2, Real]) -> MetricVector[L1, Real]:  # expect: m=sqrt(14); assumes=3 == cols(m)
    return m @ np.array([1.0, -2.0, 3.0])  # row by row: Σ_i |⟨ΔA_i, c⟩| ≤ ‖c‖₂·d(m)


def times_a_literal(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=3; assumes=3 == len(v)
    return v * np.array([1.0, -2.0, 3.0])


# review25: the rule is for arrays only; a list's slot is replaced by the stored value,
# which must keep the old entry (a[0] += x twice was reported 1, truth 2).
def list_slot_incremented_twice(x: Real) -> Real:  # expect: x=2
    a = [0.0]
    a[0] += x
    a[0] += x
    return a[0]


def list_slots_chained(x: Real, y: Real) -> Real:  # expect: x=1; y=2
    a = [x, y]
    a[0] += a[1]
    a[1] += a[0]
    return a[1]


# np.copy and np.array of a number make a 0-d array holding it (the port of the Julia
# tool's `clone`; was DPS301 and inf).
def copied_number(a: Real, b: Real) -> Real:  # expect: a=1; b=2
    c = np.copy(a)
    return float(c + 2 * np.array(b))


def dot_of_two_lists(x: Real, y: Real) -> Real:  # expect: x=3
    return float(np.dot([x, y], [3.0, -2.0]))  # both made arrays (was DPS301, inf)


def summed_number(x: Real, y: Real) -> Real:  # expect: x=3; y=1
    return float(np.sum(np.array(x)) + np.mean(np.copy(y)) + np.sum(2 * x))  # (was DPS301, inf)
