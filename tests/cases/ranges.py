"""R-range: a value whose entries lie in [lo, hi] moves by at most hi − lo.

A number is then at most (hi − lo)-sensitive in every discrete input (Data entries
and rows, integers), and an entry of a row-wise vector has spread at most hi − lo.
Real inputs are not capped (a tiny move is not a move of at least 1). The traps
below change an array's entries after its interval was known, or clip with bounds
in the wrong order.
"""

import numpy as np

from dpsens import L_inf, Data, MetricMatrix, MetricVector, Real, Static


def product_of_clips(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=4
    # In [-2, 2]: 4, not R-bounded-product's 1·4 + 2·2 = 8. Exact.
    return np.clip(v[0], -1.0, 1.0) * np.clip(v[1], -2.0, 2.0)


def square_of_a_clip(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=9
    return np.square(np.clip(v[0], 0.0, 3.0))  # in [0, 9]; 2·3·3 = 18 before. Exact.


def square_of_a_negative_clip(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=8
    a = np.clip(v[0], -3.0, -1.0)
    return a * a  # in [1, 9]. Exact.


def cube_across_zero(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=16
    return np.clip(v[0], -2.0, 2.0) ** 3  # in [-8, 8]; 3·2²·4 = 48 by the slope. Exact.


def sum_of_squares(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=9
    # Row-wise: a changed row moves its entry within [0, 9]. Exact.
    return float(np.sum(np.clip(data[:, 0], 0.0, 3.0) ** 2))


def sum_of_products(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    return float(np.sum(np.clip(data[:, 0], 0.0, 1.0) * np.clip(data[:, 1], 0.0, 2.0)))  # exact


def second_moment(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=4/rows(data)
    x = np.clip(data[:, 0], -2.0, 2.0)
    return float(np.mean(x * x))  # entries in [0, 4]; 8/rows before. Exact.


def absolute_values(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=6
    a = np.abs(np.clip(v[0], -1.0, 2.0))
    return a * a * a / 2.0 + a  # in [0, 6]. Exact.


def either_arm(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=3
    # np.where of [0, 1] and [2, 3]: within [0, 3]. Exact.
    return float(np.where(v[2] > 0.5, np.clip(v[0], 0.0, 1.0), np.clip(v[1], 2.0, 3.0)))


def count_of_a_record(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=len(v)
    return float(np.sum(v > 0.5))  # in [0, len(v)]; every entry may change. Exact.


def real_inputs_are_not_capped(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    # A real moves by as little as it likes: |ab − a'b'| ≤ 2·|y − y'| + 1·|x − x'| is tight.
    return np.clip(x, -1.0, 1.0) * np.clip(y, -2.0, 2.0)


def mixed_inputs(v: MetricVector[L_inf, Data], x: Real) -> Real:  # expect: v=2; x=1
    # The Data entry's 1·2 + 1·... is capped at the width 2; the real keeps its slope 1.
    return np.clip(v[0], 0.0, 1.0) * np.clip(x, 0.0, 1.0) + np.clip(v[1], 0.0, 1.0)


def bounds_in_the_wrong_order(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=0
    # numpy gives hi everywhere when lo > hi: np.clip(x, 3, 1) is 1. Exact.
    a = np.clip(v[0], 3.0, 1.0)
    return a * a


def symbolic_bounds_of_unknown_order(v: MetricVector[L_inf, Data], b: Static[float]) -> Real:  # expect: v=2*b**2; b=static
    # With b < 0 numpy gives b everywhere; which way [0, b] goes is not known: no interval.
    return np.clip(v[0], 0.0, b) * np.clip(v[1], 0.0, b)


def entries_stored_afterwards(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    z = np.clip(v, 0.0, 1.0)
    w = z
    w[0] = 10.0  # through another name: z's entries are no longer in [0, 1]
    s = np.sum(z)  # in [10, len(v) + 9], not [0, len(v)]: s * s moves by more than len(v)²
    return float(s * s)


def difference_with_itself(v: MetricVector[L_inf, Data], x: Real) -> Real:  # expect: v=0; x=2
    a = np.clip(v[0], 0.0, 1.0) + np.clip(x, 0.0, 1.0)
    return a - a  # 0 for every input; x is real, so not capped (its 2 is the known x − x)


def shifted_in_place(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=11*len(v)**2
    z = np.clip(v, 0.0, 1.0)
    w = z
    z += 5.0  # w is z: its entries are in [5, 6] now
    return float(np.sum(w) * np.sum(w))  # in [25 n², 36 n²]. Exact.


def kept_in_a_tuple(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    z = np.clip(v, 0.0, 1.0)
    t = (z, 1)
    z[0] = 100.0  # t[0] is z: a tuple's array keeps no interval (D76)
    return float(np.sum(t[0]) * np.sum(t[0]))


def branch_on_a_record(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=4
    return 1.0 if v[0] > 0.5 else 5.0  # either 1 or 5. Exact.


def symbolic_bounds(data: MetricMatrix[L_inf, Data], b: Static[float]) -> Real:  # expect: data=b**2; b=static
    # [0, b] once b ≥ 0 is assumed: its square lies in [0, b²].
    assert b >= 0.0
    return float(np.sum(np.clip(data[:, 0], 0.0, b) ** 2))


def scaled_then_squared(x: Real) -> Real:  # expect: x=8
    a = 2.0 * np.clip(x, 0.0, 1.0)  # in [0, 2]: a bound for the product rule (it was inf)
    return a * a  # slope 2·2·2 on a real. Exact.


def clamp_to(x: Data, b: Static[float]) -> Real:  # expect: x=abs(b); b=static
    return np.clip(x, 0.0, b)


def clamps_multiplied(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=4
    # A helper's returned number keeps its interval at the call: [0, 2]·[0, 2]. Exact.
    return clamp_to(v[0], 2.0) * clamp_to(v[1], 2.0)


def clamps_of_a_static(v: MetricVector[L_inf, Data], c: Static[float]) -> Real:  # expect: v=2*abs(c)*max(abs(c), -min(0, c)); c=static
    # [min(0, c), c] at this call: which way it goes is not known (c may be negative), so
    # the product rule's 2·|c|·|c| stands (max(|c|, −min(0, c)) is |c|).
    return clamp_to(v[0], c) * clamp_to(v[1], c)


def static_factor_then_product(theta: Static[float], x: Real) -> Real:  # expect: theta=static; x=2*abs(theta)
    # θ·c of a clipped c lies in [-|θ|, |θ|] whatever θ's sign: the corners' order was
    # unknown, so the bound was lost and (θ·c)·c was inf (θ·(c·c) was 2·|θ|).
    c = float(np.clip(x, -1.0, 1.0))
    return (theta * c) * c


def truncated_clipped_entry(d: Data) -> Real:  # expect: d=3
    # int() of a real is a step, but of a value only Data moves, within [0, 3]: its
    # truncation stays in [0, 3] (it was inf).
    return float(int(np.clip(d, 0.0, 3.0)))


def truncated_between_halves(d: Data) -> Real:  # expect: d=2
    return float(int(np.clip(d, 0.5, 2.5)))  # 0, 1 or 2


def truncated_clipped_real(x: Real) -> Real:  # expect: x=inf
    return float(int(np.clip(x, 0.0, 3.0)))  # a tiny move crosses 1


def truncated_after_rounding_up(d: Data) -> Real:  # expect: d=1
    # The exact end is just below 1, but the float sum rounds to 1.0: int() gives 1
    # (the truncated interval was [0, 0]: 0, a review's witness).
    return float(int(np.clip(d, 0.0, 0.9999999999999999) + 1e-16))


def truncated_after_a_rounded_sum(d: Data) -> Real:  # expect: d=2
    return float(int(np.clip(d, 0.0, 0.5) * 3.0 + 0.49999999999999994))  # int(2.0) at d = 1
