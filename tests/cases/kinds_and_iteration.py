"""Value kinds that decide integer rules, and loops over arrays their body changes.

D35: `10 ** -6` was typed Integer and `np.clip(i, 1.999, 2.0)` kept Integer, so
the integer `//` and `%` rules applied to fractions. D36: a loop over an array
read each element from the array's value before the loop, although numpy
iterates the array itself and the body changed it. D37: `np.clip` with an
array bound broadcast its input, but kept its type and context.
"""

import numpy as np

from dpsens import L1, Integer, MetricMatrix, MetricVector, Real


def negative_power_is_a_float(a: Integer) -> Real:  # expect: a=inf; returns=Real
    return (a * 10 ** -6) // 1  # 999999 and 1000000 give 0.0 and 1.0


def negative_power_remainder(a: Integer) -> Real:  # expect: a=inf; returns=Real
    return (a * 2 ** -1) % 2  # 3 and 4 give 1.5 and 0.0


def natural_power_stays_integer(a: Integer) -> Integer:  # expect: a=8; returns=Integer
    return (a * 2 ** 3) // 1


def clipped_to_fractional_bounds(a: Integer) -> Real:  # expect: a=inf; returns=Real
    return float(np.clip(a, 1.999, 2.0) % 2)  # 1 and 2 give 1.999 and 0.0


def clipped_to_integer_bounds(a: Integer) -> Real:  # expect: a=1; returns=Real
    return float(np.clip(a, 1, 5) % 2)


def entries_grow_while_read(v: MetricVector[L1, Real]) -> Real:  # expect: v=2*(2*len(v) + 1)**len(v); returns=Real
    # 0 against e1 gives 2**(len(v) - 1): every entry read later has grown by the earlier ones
    w = v * 1.0
    total = 0.0
    for e in w:
        total = total + e
        w += e
    return total


def rows_grow_while_read(m: MetricMatrix[L1, Real]) -> Real:  # expect: m=2*(2*rows(m) + 1)**rows(m); returns=Real
    w = m * 1.0
    total = 0.0
    for r in w:
        total = total + np.sum(r)
        w += r
    return total


def public_vector_filled_while_read(x: Real) -> Real:  # expect: x=9; returns=Real
    # the entries read are 0, x and 2x: 3 is the truth
    w = np.zeros(3)
    total = 0.0
    for e in w:
        total = total + e
        w += x
    return total


def rebinding_keeps_the_old_array(v: MetricVector[L1, Real]) -> Real:  # expect: v=1; returns=Real
    # Python iterates the array the loop started with: rebinding w does not change it
    w = v * 1.0
    total = 0.0
    for e in w:
        total = total + e
        w = w * 0.5
    return total


def clip_broadcast_by_a_matrix_bound(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    return np.sum(np.clip(v, np.zeros((4, len(v))), 10.0))  # E: DPS301


def clip_broadcast_by_a_vector_bound(x: Real) -> Real:  # expect: x=inf; returns=unknown
    return np.sum(np.clip(x, np.zeros(100), 1e9))  # E: DPS301


# enumerate(X) and zip(X, Y) are index loops reading X[i] (and Y[i]): each element is
# read in one iteration, as when iterating X itself.
def enumerated_sum(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    s = 0.0
    for i, e in enumerate(v):
        s = s + e
    return s


def enumerated_weights(v: MetricVector[L1, Real]) -> Real:  # expect: v=len(v)
    s = 0.0
    for i, e in enumerate(v):
        s = s + i * e
    return s


def zipped_sums(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=1; w=1
    s = 0.0
    for a, b in zip(v, w):
        s = s + a + b
    return s


def zipped_with_itself(v: MetricVector[L1, Real]) -> Real:  # expect: v=2
    s = 0.0
    for a, b in zip(v, v):
        s = s + a - b
    return s


def enumerated_slice(v: MetricVector[L1, Real]) -> Real:  # expect: v=min(5, len(v))
    s = 0.0
    for i, e in enumerate(v[:5]):
        s = s + i * e
    return s


def enumerate_rebinding_its_iterable(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    s = 0.0
    for i, e in enumerate(v):  # E: DPS201, DPS203
        s = s + e
        v = v * 2.0
    return s
