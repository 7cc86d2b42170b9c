"""numpy broadcasting between operands of different rank or with size-1 axes (D45).

Trailing axes are aligned (a vector is one row against a matrix); a size-1 axis
stretches to the other size; each operand is charged for how often its entries
are copied into the result, in the result's norm.  Every function here once
gave a bound below the truth (n = len(v)) unless it says otherwise.
"""

import numpy as np

from dpsens import Data, L1, L_inf, MetricMatrix, MetricVector, Real, Static


# was: reported 3 (the sum typed as 3 x 1); truth 3n
def column_plus_vector(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=3*len(v)
    return float(np.sum(np.zeros((3, 1)) + v))


# was: m 1, v rows(m); truth m n, v rows(m)·n
def first_column_plus_vector(m: MetricMatrix[L_inf, Real], v: MetricVector[L_inf, Real]) -> Real:  # expect: m=len(v); v=len(v)*rows(m)
    return float(np.sum(m[:, 0:1] + v))


# was: reported 1; truth n (each entry of the column is compared with all of t)
def column_above_thresholds(m: MetricMatrix[L_inf, Data], t: Static[MetricVector[L_inf, Real]]) -> Real:  # expect: m=len(t); t=static
    return float(np.sum(np.clip(m[:, 0:1] > t, 0.0, 1.0)))


# The same with thresholds that are data too, so that the soundness test runs it.
# was: m 1, t rows(m); truth m n, t rows(m)·n
def column_above_data(m: MetricMatrix[L_inf, Data], t: MetricVector[L_inf, Data]) -> Real:  # expect: m=len(t); t=len(t)*rows(m)
    return float(np.sum(np.clip(m[:, 0:1] > t, 0.0, 1.0)))


# was: reported 4; truth 2·sqrt(n).  4·sqrt(n) is sound but loose: the matrix
# metric sums the rows, and does not know that the four rows are one vector.
def frobenius_of_rows(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=4*sqrt(len(v))
    return float(np.linalg.norm(np.zeros((4, 1)) + v))


# was: reported 1 (z.shape[1] taken as 1); truth 5
def broadcast_width(x: Real) -> Real:  # expect: x=5
    z = np.zeros((3, 1)) + np.zeros(5)
    return x * z.shape[1]


# was: reported 1 (z.shape[1] taken as 1); truth 5
def compared_width(m: MetricMatrix[L_inf, Data], x: Real) -> Real:  # expect: m=0; x=5
    z = m[:, 0:1] > np.zeros(5)
    return x * z.shape[1]


# Both operands stretch (this one was already right: 12)
def outer_shape(x: Real) -> Real:  # expect: x=12
    z = np.zeros((1, 4)) + np.zeros((3, 1))
    return x * z.shape[0] * z.shape[1]


# was: reported 1 under the assumption cols(m) == 1 (the public operand was the
# size reference); truth cols(m), with no assumption: numpy stretches the column
def ones_column_plus_matrix(m: MetricMatrix[L_inf, Real]) -> Real:  # expect: m=cols(m)
    return float(np.sum(np.zeros((m.shape[0], 1)) + m))


# was: reported 2 under the assumption cols(m) == 1; truth 2·cols(m)
def column_plus_its_matrix(m: MetricMatrix[L_inf, Real]) -> Real:  # expect: m=2*cols(m)
    return float(np.sum(m[:, 0:1] + m))


# was: reported 1 under the assumption len(v) == 1; truth 1 with no assumption
def length_one_plus_vector(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return float(np.sum(np.zeros(1) + v))


# was: m 1; truth m n (np.maximum broadcasts like +)
def column_maximum(m: MetricMatrix[L1, Real], v: MetricVector[L1, Real]) -> Real:  # expect: m=len(v); v=rows(m)
    return float(np.sum(np.maximum(m[:, 0:1], v)))


# Sizes that may differ are assumed equal and the assumption is reported, as for
# operands of one rank (was: no assumption, which missed cols(m) = 1 < len(v)).
def matrix_plus_vector(m: MetricMatrix[L_inf, Real], v: MetricVector[L_inf, Real]) -> Real:  # expect: m=cols(m); v=cols(m)*rows(m); assumes=len(v) == cols(m)
    return float(np.sum(m + v))


# Sizes that are never equal, either of which may be 1: the result's size is not
# known (was: len(v) + 1; numpy gives an empty sum when len(v) = 1).
def shifted_plus_vector(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    return float(np.sum(v[1:] + v))  # E: DPS301


# min(2, cols(m)) is never 5, but may be 1 (was: m 1, x rows(m)·min(2, cols(m));
# truth with cols(m) = 1: m 5, x 5·rows(m)).
def two_columns_plus_five(m: MetricMatrix[L1, Real], x: Real) -> Real:  # expect: m=inf; x=inf; returns=unknown
    return float(np.sum(m[:, 0:2] + np.zeros(5) + x))  # E: DPS301


# numpy's axis counted from the end, and axis=None for all entries.
def sum_last_axis(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=1
    return np.sum(m, axis=-1)


def sum_all_axes(m: MetricMatrix[L_inf, Real]) -> Real:  # expect: m=cols(m)
    return float(np.sum(m, axis=None))


def mean_last_axis(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/len(v)
    return float(np.mean(v, axis=-1))


def axis_out_of_range(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=inf
    return np.sum(m, axis=2)  # E: DPS301, DPS301


def numpy_float(x: Real) -> Real:  # expect: x=2
    return float(np.float64(x)) * 2


# A public array of ones (or zeros) has entries at most 1 (0): the product with a
# sensitive value is that bound times it, in the result's norm (it was DPS305 and ∞).
def ones_times_scalar(x: Real, n: Static[int]) -> MetricVector[L1, Real]:  # expect: x=n; n=static
    return np.ones(n) * x


def scaled_ones_times_vector(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=3; assumes=len(v) == 4
    return (np.ones(4) * 3.0) * v


def ones_changed_by_numpy(x: Real) -> MetricVector[L1, Real]:  # expect: x=inf
    w = np.ones(3)
    np.copyto(w, np.ones(3) * 9.0)  # the entries are 9 now, and no longer known
    return w * x  # E: DPS305


def ones_after_a_store(x: Real) -> MetricVector[L1, Real]:  # expect: x=inf
    w = np.ones(3)
    w[0] = 100.0
    return w * x  # E: DPS305


# A store into a column (or a block) moves only the rows it writes, by the entries it
# writes (it was charged as a store into the whole matrix: 3·n for a column of n × 3).
def store_a_column(x: Real, n: Static[int]) -> MetricMatrix[L1, Real]:  # expect: x=n; n=static
    out = np.zeros((n, 3))
    out[:, 0] = x
    return out


def store_a_vector_into_a_column(v: MetricVector[L_inf, Real]) -> MetricMatrix[L1, Real]:  # expect: v=len(v)
    out = np.zeros((len(v), 3))
    out[:, 1] = v
    return out


def store_a_block(x: Real) -> MetricMatrix[L1, Real]:  # expect: x=4
    out = np.zeros((4, 3))
    out[0:2, 0:2] = x
    return out


def store_part_of_a_row(x: Real) -> MetricMatrix[L1, Real]:  # expect: x=2
    out = np.zeros((4, 3))
    out[1, 0:2] = x
    return out


def store_rows(x: Real) -> MetricMatrix[L1, Real]:  # expect: x=6
    out = np.zeros((4, 3))
    out[1:3] = x
    return out


# D70: `@` was taken as an entrywise product, so `x @ y` of vectors had a vector's shape
# (np.max(x @ np.ones(n)) was 1 in an (L∞, ℝ) x, truth n). Now a dot product with a public
# side whose entries are bounded is B·‖Δx‖₁; other products are DPS301.
def dot_with_ones(x: MetricVector[L_inf, Real]) -> Real:  # expect: x=len(x)
    return float(x @ np.ones(len(x)))


def dot_with_ones_l1(x: MetricVector[L1, Real]) -> Real:  # expect: x=1
    return float(np.ones(len(x)) @ x)


def matrix_product(m: MetricMatrix[L1, Real], v: MetricVector[L1, Real]) -> Real:  # expect: m=inf; v=inf; assumes=len(v) == cols(m)
    return float(np.sum(m @ v))  # E: DPS305


def dot_of_clipped(x: MetricVector[L1, Real]) -> Real:  # expect: x=2
    a = np.clip(x, 0.0, 1.0)
    return float(np.dot(a, a))


def numpy_dot_with_ones(x: MetricVector[L_inf, Real]) -> Real:  # expect: x=len(x)
    return float(np.dot(x, np.ones(len(x))))


def dot_with_data(v: MetricVector[L1, Data]) -> Real:  # expect: v=inf
    return float(v @ np.ones(len(v)))  # Data entries are any reals: clip them first


# D75 (a review of every numpy rule): a scalar parameter given an array or a tuple makes
# numpy broadcast (np.sqrt(np.ones((5, 1))) + v was 1, truth 5); np.linalg.norm of a tuple
# is the norm of numpy's array of it (of Data entries ∞: it was 1); np.array(v, int)
# truncates (it was read as a copy: 1, truth ∞).
# np.sqrt applies to each entry of its array (@entrywise): a public 5×1 matrix, which v is
# broadcast against, five times (it was DPS301 and ∞).
def broadcast_through_sqrt(v: MetricVector[L1, Real]) -> Real:  # expect: v=5; returns=Real
    return float(np.sum(v + np.sqrt(np.ones((5, 1)))))


def clip_with_tuple_bounds(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    return float(np.sum(np.clip(v, ((0.0,), (0.0,), (0.0,)), 10.0)))  # E: DPS301


def norm_of_a_tuple_of_data(a: Data, b: Data) -> Real:  # expect: a=inf; b=inf
    return float(np.linalg.norm((a, b)))


def norm_of_a_tuple(a: Real, b: Real) -> Real:  # expect: a=1; b=1
    return float(np.linalg.norm((a, b)))


def array_with_a_dtype(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(np.sum(np.array(v, int)))  # truncated: 0.99 and 1.0 are 1 apart


# numpy's exp, log and sqrt apply to each entry of an array (@entrywise in the stub): a
# public array stays public (post-processing of released values, multiplicative weights);
# a sensitive one is as sensitive as the number is: exp's slope over [0, 1] is at most e
# (R-slope; it was ∞). Exact: every entry near 1.
def weights_of_a_public_vector(v: MetricVector[L1, Real], c: Static[float]) -> Real:  # expect: v=1; c=static
    weights = np.exp(np.log(np.sqrt(np.ones(3) * c * c + 1.0)))
    return float(np.sum(v)) + float(np.sum(weights / np.sum(weights)))


def exp_of_each_entry(v: MetricVector[L1, Real]) -> Real:  # expect: v=E; returns=Real
    return float(np.sum(np.exp(np.clip(v, 0.0, 1.0))))
