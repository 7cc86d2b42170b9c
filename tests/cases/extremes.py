"""R-if-extreme: a branch choosing between the two values its test compares is max or min.

The test flips only where the two values are equal, so the result does not jump:
`x if x > 0 else 0.0` is max(x, 0), 1-sensitive, where R-if alone gives ∞. The
traps below choose something else than the compared values, or compare with a
value other than the one chosen, and jump where the test flips.
"""

import numpy as np

from dpsens import L1, L2, L_inf, MetricVector, Real, Static


def relu(x: Real) -> Real:  # expect: x=1
    return x if x > 0 else 0.0


def larger_by_return(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    if x > y:
        return x
    return y


def smaller_by_else_return(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    if x <= y:
        return x
    else:
        return y


def smaller_by_swapped_arms(x: Real, y: Real) -> Real:  # expect: x=3; y=1
    return 3 * x if y > 3 * x else y


def larger_by_assignment(x: Real, y: Real) -> Real:  # expect: x=2; y=2
    if x < y:
        z = y
    else:
        z = x
    return 2 * z


def clipped_by_hand(x: Real, lo: Static[float], hi: Static[float]) -> Real:  # expect: x=1; lo=static; hi=static
    if x > hi:
        x = hi
    if x < lo:
        x = lo
    return x


def clipped_by_elif(x: Real) -> Real:  # expect: x=1
    y = x
    if y > 1.0:
        y = 1.0
    elif y < -1.0:
        y = -1.0
    return y


def clipped_by_returns(x: Real) -> Real:  # expect: x=1
    if x > 1.0:
        return 1.0
    elif x < -1.0:
        return -1.0
    return x


def relu_of_entries(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return float(np.sum(np.where(v > 0, v, 0.0)))


def relu_of_entries_written_backwards(v: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: v=1
    return np.where(0.0 >= v, 0.0, v)


def entrywise_larger(a: MetricVector[L1, Real], b: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: a=1; b=1; assumes=len(b) == len(a)
    return np.where(a > b, a, b)


def sum_of_positive_entries(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return float(np.sum(v[v > 0]))


def sum_of_negative_entries(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v)
    return float(np.sum(v[v < 0.0]))


# Traps: each jumps where its test flips.

def jump_at_one(x: Real) -> Real:  # expect: x=inf
    return x if x > 1.0 else 0.0


def compared_with_another(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    return x if x > y else 0.0


def assigned_something_else(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    if x > y:
        x = 2 * y
    return x


def entries_above_one(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(np.sum(v[v > 1.0]))


def where_with_other_arms(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(np.sum(np.where(v > 0, 1.0 + v, 0.0)))


def bounds_in_the_wrong_order(x: Real) -> Real:  # expect: x=inf
    y = x
    if y > -1.0:
        y = -1.0  # everything above -1 goes to -1, everything else to 1
    elif y < 1.0:
        y = 1.0
    return y


def lists_compared_whole(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    # Two lists compare whole (first entries first): np.where picks all of a or all of b,
    # not the entrywise maximum (a review found np.maximum taken here: 1, truth inf).
    a = [x, 5.0]
    b = [y, 0.0]
    return float(np.sum(np.where(a > b, a, b)))  # E: DPS301


# A difference and 0: a > b exactly when a − b > 0, so `a - b if a > b else 0` is
# max(a − b, 0) (a ReLU, a hinge), found by the review porting DiffPrivacyInference's
# tests (it was ∞).
def positive_part_of_a_difference(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    return x - y if x > y else 0.0


def hinge_below_a_target(x: Real, t: Static[float]) -> Real:  # expect: x=1; t=static
    return 0.0 if x >= t else t - x


def positive_differences_of_vectors(a: MetricVector[L1, Real], b: MetricVector[L1, Real]) -> Real:  # expect: a=1; b=1; assumes=len(b) == len(a)
    return float(np.sum(np.where(a > b, a - b, 0.0)))


def difference_or_one(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    return x - y if x > y else 1.0  # jumps from 0+ to 1 where x passes y


def sum_or_zero(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    return x + y if x > y else 0.0


def clamp_of_a_difference(x: Real, c: Static[float]) -> Real:  # expect: x=inf; c=static
    # Not a clamp of x: the inner choice is max(x − c, 0), which jumps to 1 at x = 1.
    return 1.0 if x > 1.0 else (x - c if x > c else 0.0)


def positive_part_below_negative_zero(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    return x - y if x > y else -0.0
