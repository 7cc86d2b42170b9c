"""R-components: a tuple parameter of a sensitivity function is analyzed as one variable per
component, and its sensitivity is the largest component's (Σ_i c_i·d_i ≤ max_i c_i·d).
Unlike R-parts, the components stay apart through loops, branches and calls."""

import numpy as np

from dpsens import L1, L_inf, MetricVector, Real, Static


def fibonacci_pair(p: tuple[Real, Real]) -> Real:  # expect: p=5
    for _ in range(5):
        p = (p[1], p[0] + p[1])
    return p[0]  # 3·p[0] + 5·p[1]


def fibonacci_unpacked(p: tuple[Real, Real]) -> Real:  # expect: p=5
    a, b = p
    for _ in range(5):
        a, b = b, a + b
    return a


def shear_returned(p: tuple[Real, Real]) -> tuple[Real, Real]:  # expect: p=4; returns=tuple[Real, Real]
    a, b = p
    for _ in range(3):
        a = a + b
    return (a, b)  # (p[0] + 3·p[1], p[1]): |d0 + 3·d1| + |d1| ≤ 4·d


def shear_symbolic(p: tuple[Real, Real], k: Static[int]) -> Real:  # expect: p=max(1, k); k=static; assumes=k >= 0
    a, b = p
    for _ in range(k):
        a = a + b
    return a


def chosen_by_a_flag(p: tuple[Real, Real], flag: Static[bool]) -> Real:  # expect: p=2; flag=static
    if flag:
        r = p[0] - p[1]
    else:
        r = 2 * p[1]
    return r


def rebound_in_the_body(p: tuple[Real, Real]) -> Real:  # expect: p=2
    p = (p[0] + p[1], p[1])
    return p[0] + p[1]  # p[0] + 2·p[1]


def swapped(p: tuple[Real, Real]) -> tuple[Real, Real]:  # expect: p=1; returns=tuple[Real, Real]
    return (p[1], p[0])


def swapped_then_read(p: tuple[Real, Real]) -> Real:  # expect: p=2
    q = swapped(p)
    return q[0] + q[1] + p[0]  # 2·p[0] + p[1]


def second_of_a_pair(v: MetricVector[L_inf, Real], w: MetricVector[L_inf, Real]) -> Real:  # expect: v=0; w=len(w)
    return swapped_then_read_vectors((v, w))


def swapped_then_read_vectors(p: tuple[MetricVector[L_inf, Real], MetricVector[L_inf, Real]]) -> Real:  # expect: p=len(p[1])
    return float(np.sum(p[1]))


def vector_and_number(p: tuple[MetricVector[L1, Real], Real]) -> Real:  # expect: p=1
    return float(np.sum(p[0])) + p[1]


def summed_in_a_loop(p: tuple[Real, Real]) -> Real:  # expect: p=3
    s = 0.0
    for _ in range(3):
        s = s + p[0]
    return s + p[1]


def product_of_components(p: tuple[Real, Real]) -> Real:  # expect: p=inf
    return p[0] * p[1]


def read_by_a_closure(p: tuple[Real, Real]) -> Real:  # expect: p=2
    def first() -> Real:
        return p[0]
    return first() + p[0] + p[1]  # not split (a closure reads p): 2·p[0] + p[1] by R-parts
