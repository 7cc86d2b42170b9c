"""Rebinding a name in a loop body does not change what it shared (docs/rules.md L20).

``s = x`` put s in x's alias group, and every name assigned in a loop body
took its whole group along as carried: ``s = x; for _ in range(k): s = s + x``
carried x beside s, and the coupled subsystem bound of R-loop gave 2·2^k
(truth k + 1); ``s = xs[0]`` made xs carried, so the entry rule
R-loop-elements did not apply either (2·2^(len(xs) − 1), truth 1). Now a loop
carries the groups of the names it changes in place only (stores, augmented
assignment, unsupported statements), a name it only rebinds does not count as
a change of the iterated array, and a carried variable the body leaves as it
was is a constant of the closed forms. The arrays below still alias.
"""

import numpy as np

from dpsens import L1, MetricMatrix, MetricVector, Real, Static, rows


def self_add(x: Real, k: Static[int]) -> Real:  # expect: x=k + 1; k=static; assumes=k >= 0
    # truth k + 1
    s = x
    for _ in range(k):
        s = s + x
    return s


def self_add_augmented(x: Real, k: Static[int]) -> Real:  # expect: x=k + 1; k=static; assumes=k >= 0
    s = x
    for _ in range(k):
        s += x
    return s


def self_add_entry(xs: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: xs=k + 1; k=static; assumes=k >= 0
    s = xs[0]
    for _ in range(k):
        s = s + xs[0]
    return s


def sum_from_first(xs: MetricVector[L1, Real]) -> Real:  # expect: xs=2
    # truth 1: the start entry and the loop's entries are disjoint, which the
    # analysis does not know (xs[0] is charged the whole vector once more)
    s = xs[0]
    for i in range(1, len(xs)):
        s = s + xs[i]
    return s


def sum_rows_from_first(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=2
    s = m[0, :]
    for i in range(1, rows(m)):
        s = s + m[i, :]
    return s



def chained_numbers(x: Real, k: Static[int]) -> Real:  # expect: x=k + 1; k=static; assumes=k >= 0
    s = t = x
    for _ in range(k):
        s += t
    return s


def rebound_array_alias(v: MetricVector[L1, Real], k: Static[int]) -> MetricVector[L1, Real]:  # expect: v=k + 1; k=static; assumes=k >= 0
    w = v + 0.0
    s = w
    for _ in range(k):
        s = s + w
    return s


def in_place_array_alias(v: MetricVector[L1, Real], k: Static[int]) -> MetricVector[L1, Real]:  # expect: v=2*2**k; k=static; assumes=k >= 0
    # s is w: each iteration doubles it, truth 2**k
    w = v + 0.0
    s = w
    for _ in range(k):
        s += w
    return s


def store_through_array_alias(v: MetricVector[L1, Real], k: Static[int]) -> MetricVector[L1, Real]:  # expect: v=2**k; k=static; assumes=k >= 0
    # w[0] doubles every iteration: truth 2**k
    w = v + 0.0
    s = w
    for _ in range(k):
        s[0] = s[0] + w[0]
    return w


def entry_doubling(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=2**len(v)
    # s is w: truth 2 (coupled carried arrays stay loose, L6)
    w = v + 0.0
    s = w
    for i in range(len(w)):
        s[i] = s[i] + w[i]
    return w


def view_rebound_while_stored(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=rows(m)
    # truth 1: s is rebound before c changes; c and s share a group (flow-insensitive)
    c = m + 0.0
    s = c[0, :]
    for i in range(1, rows(c)):
        s = s + c[i, :]
        c[i, 0] = 0.0
    return s


def view_stored_while_iterated(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=2**rows(m)
    c = m + 0.0
    s = c[1, :]
    for i in range(rows(c)):
        s[0] = s[0] + c[i, 0]
    return c[1, :]
