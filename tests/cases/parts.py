"""R-parts: disjoint parts of one input (a tuple's components, an L1 vector's entries, a
matrix's rows) are charged once, by the largest coefficient: Σ_k c_k·d_k ≤ max_k c_k·d."""

import numpy as np

from dpsens import (
    L1, L2, L_inf, Data, MetricMatrix, MetricVector, Priv, Real, Static, fold,
    laplace_mechanism, map_rows,
)


def components(p: tuple[Real, Real]) -> Real:  # expect: p=1
    return p[0] + p[1]


def unpacked(p: tuple[Real, Real]) -> Real:  # expect: p=1
    a, b = p
    return a - b


def weighted(p: tuple[Real, Real, Real]) -> Real:  # expect: p=3
    return 2 * p[0] - 3 * p[1] + p[2] / 2


def repeated(p: tuple[Real, Real]) -> Real:  # expect: p=2
    return p[0] + p[1] + p[0]  # 2·p[0] + p[1]: part 0 twice


def with_whole(p: tuple[Real, Real]) -> tuple[Real, Real]:  # expect: p=1; returns=tuple[Real, Real]
    return (p[1], p[0])


def whole_and_part(p: tuple[Real, Real]) -> Real:  # expect: p=2
    q = with_whole(p)
    return q[0] + q[1] + p[0]  # the whole tuple (through the call) and part 0 again


def through_call(p: tuple[Real, Real]) -> Real:  # expect: p=1
    q = with_whole(p)
    return q[0] + q[1]


def add(a: Real, b: Real) -> Real:  # expect: a=1; b=1
    return a + b


def parts_as_arguments(p: tuple[Real, Real]) -> Real:  # expect: p=1
    return add(p[0], p[1])


def signs(p: tuple[Real, Real]) -> Real:  # expect: p=2
    return abs(p[0]) - 2 * p[1] + (-p[0])


def static_branch(p: tuple[Real, Real], first: Static[bool]) -> Real:  # expect: p=2; first=static
    x = p[0] if first else p[1]
    return x + p[1]  # p[1] twice when first is False


def entries(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return v[0] - v[1] + v[2]


def entries_from_the_end(v: MetricVector[L1, Real]) -> Real:  # expect: v=2
    return v[0] + v[-1]  # the same entry when len(v) = 1


def reversed_copy(v: MetricVector[L1, Real]) -> Real:  # expect: v=2
    w = v[::-1]
    return w[0] + v[2]  # w[0] is v[-1], which is v[2] when len(v) = 3: not a part of w's own


def l_inf_entries(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=2
    return v[0] + v[1]  # each entry may move by the whole distance


def l2_entries(v: MetricVector[L2, Real]) -> Real:  # expect: v=sqrt(2)
    return v[0] + v[1]  # Cauchy–Schwarz: Σ c_k·d_k ≤ ‖c‖₂·‖d‖₂ (exact)


def l2_weighted_entries(v: MetricVector[L2, Real]) -> Real:  # expect: v=2*sqrt(2)
    return v[0] - 2 * v[1] + v[0]  # coefficients (2, -2)


def two_rows(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=1
    return m[0, :] + m[1, :]


def row_entries(m: MetricMatrix[L_inf, Real]) -> Real:  # expect: m=1
    return m[0, 0] + m[1, 1] - m[2, 0]


def same_row_twice(m: MetricMatrix[L_inf, Real]) -> Real:  # expect: m=2
    return m[0, 0] + m[0, 1]  # two entries of one row: part 0 twice


def row_sums(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=1
    return map_rows(lambda r: r[0] + r[1], m)  # the function's row is an input of its own


def row_sums_inf(m: MetricMatrix[L_inf, Real]) -> MetricVector[L1, Real]:  # expect: m=2
    return map_rows(lambda r: r[0] + r[1], m)


def folded_differences(m: MetricMatrix[L1, Real]) -> Real:  # expect: m=1
    return fold(lambda acc, r: acc + r[0] - r[1], 0.0, m)


def clipped_row_counts(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=1
    first = np.clip(np.sum(np.clip(m[0, :], 0.0, 1.0)), 0.0, 1.0)
    return first - np.clip(np.sum(np.clip(m[1, :], 0.0, 1.0)), 0.0, 1.0)


def clipped_real_parts(p: tuple[Real, Real]) -> Real:  # expect: p=5
    return np.clip(5 * p[0], 0.0, 1.0) + p[1]  # a small move of a real is not capped at 1


def loop_over_entries(v: MetricVector[L1, Real]) -> Real:  # expect: v=3
    s = 0.0
    for i in range(3):
        s = s + (i + 1) * v[i]
    return s


def larger(p: tuple[Real, Real]) -> Real:  # expect: p=1
    return p[0] if p[0] > p[1] else p[1]  # max(p[0], p[1]) (R-if-extreme)


def data_branch(p: tuple[Real, Real]) -> Real:  # expect: p=inf
    return p[0] if p[1] > 0 else 0.0  # a step where p[1] crosses 0


def noised(p: tuple[Real, Real], eps: Static[float]) -> Priv[Real]:  # expect: p=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    return laplace_mechanism(1.0, eps, p[0] + p[1])


def noised_rows(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: m=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    first = np.clip(np.sum(np.clip(m[0, :], 0.0, 1.0)), 0.0, 1.0)
    second = np.clip(np.sum(np.clip(m[1, :], 0.0, 1.0)), 0.0, 1.0)
    return laplace_mechanism(1.0, eps, first - second)


def sliced(p: tuple[Real, Real, Real]) -> Real:  # expect: p=2
    q = p[0:2]  # a tuple of the components 0 and 1 (was DPS301)
    return q[0] + q[1] + p[1]


def every_other_from_the_end(p: tuple[Real, Real, Real]) -> tuple[Real, Real]:  # expect: p=1; returns=tuple[Real, Real]
    return p[::-2]


# review24: a branch's join returned its first arm when the two were equal in every field,
# and v and v[::-1] are: the input itself came back, and w[0] was taken for v's entry 0
# (reported 1; with flag False and v = [0, 0] -> [0, 1], the result moves by 2).
def input_or_reversed(v: MetricVector[L1, Real], flag: Static[bool]) -> Real:  # expect: v=2; flag=static
    w = v if flag else v[::-1]
    return w[0] + v[1]


def input_or_sorted(v: MetricVector[L1, Real], flag: Static[bool]) -> Real:  # expect: v=2; flag=static
    w = np.sort(v)
    if flag:
        w = v
    return w[0] + v[1]


def rows_or_reversed_rows(m: MetricMatrix[L1, Real], flag: Static[bool]) -> Real:  # expect: m=2; flag=static
    w = m if flag else m[::-1]
    return w[0, 0] + m[1, 0]


def noised_input_or_reversed(v: MetricVector[L1, Real], flag: Static[bool], eps: Static[float]) -> Priv[Real]:  # expect: v=(2*eps, 0); flag=static; eps=static; accounting=sequential; assumes=eps > 0
    w = v if flag else v[::-1]
    return laplace_mechanism(1.0, eps, w[0] + v[1])


def l2_symbolic_coefficient(u: MetricVector[L2, Real], k: Static[float]) -> Real:  # expect: u=sqrt(k**2 + 1); k=static
    return k * u[0] + u[1]  # ‖(k, 1)‖₂ (sympy could not show it below |k| + 1)
