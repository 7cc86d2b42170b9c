"""Constructs outside the subset: a coded diagnostic and unbounded results, never a crash."""

import numpy as np

from dpsens import L1, MetricVector, Real, Static


def while_loop(x: Real) -> Real:  # expect: x=inf; returns=unknown
    y = x
    while y > 1:  # E: DPS201
        y = y / 2
    return y


def try_block(x: Real, z: Real) -> Real:  # expect: x=0; z=1
    y = 0.0
    try:  # E: DPS201
        y = x
    except ValueError:
        pass
    return z


def try_return(x: Real, z: Real) -> Real:  # expect: x=inf; z=inf
    try:  # E: DPS201
        return 1000 * x
    except ValueError:
        pass
    return z


def loop_break_in_with(x: Real, c: Static[int]) -> Real:  # expect: x=inf; c=static
    for i in range(10):
        with open("f"):  # E: DPS201
            if i > c:
                break
        x = x / 2
    return x


def comprehension(v: MetricVector[L1, Real], z: Real) -> Real:  # expect: v=0; z=0
    y = {e: e for e in v}  # E: DPS202
    return 1.0


def unknown_numpy(x: Real) -> Real:  # expect: x=inf; returns=unknown
    return np.cbrt(x)  # E: DPS203


def parameter_mutation(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    v[0] = 0.0  # E: DPS205
    return np.sum(v)


def alias_mutation(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    w = v
    w[0] = 0.0  # E: DPS205
    return np.sum(v)


def local_mutation(v: MetricVector[L1, Real], x: Real) -> MetricVector[L1, Real]:  # expect: v=1; x=1; assumes=min(3, len(v)) == 3
    w = 2 * np.zeros(3)
    w[0] = x
    return w + v[0:3]


def unresolved(x: Real) -> Real:  # expect: x=inf; returns=unknown
    return missing_global  # E: DPS206


def return_in_loop(x: Real) -> Real:  # expect: x=1; returns=Real
    for _ in range(3):  # supported now: R-loop-return
        return x
    return x


def method_on_parameter(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    v.sort()  # E: DPS203
    return np.sum(v)


def decorated_helper(x: Real) -> Real:  # expect: x=1
    return x


@staticmethod  # E: DPS201
def decorated(x: Real) -> Real:  # expect: x=inf
    return x


def range_with_an_unknown_step(v: MetricVector[L1, Real], k: Static[int], s: Static[int]) -> Real:  # expect: v=inf; k=static; s=static; returns=unknown
    total = 0.0
    for i in range(0, k, s):  # E: DPS201
        total = total + v[i]  # (was also DPS202: "range() is only supported in a for loop")
    return total
