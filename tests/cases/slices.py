"""Slices with static symbolic bounds (L14): exact lengths under reported sign assumptions."""

import numpy as np

from dpsens import L1, L2, L_inf, Data, MetricMatrix, MetricVector, Priv, Real, Static, laplace_mechanism


def tail_sum(v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: v=1; k=static; assumes=k >= 0
    return float(np.sum(v[k:]))


def head_mean(v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: v=1/min(k, len(v)); k=static; assumes=k >= 0
    return float(np.mean(v[:k]))


def last_mean(v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: v=1/min(k, len(v)); k=static; assumes=k > 0
    return float(np.mean(v[-k:]))


def window_sum_l2(v: MetricVector[L2, Real], a: Static[int], b: Static[int]) -> Real:  # expect: v=sqrt(max(0, -min(a, len(v)) + min(b, len(v)))); a=static; b=static; assumes=a >= 0, b >= 0
    return float(np.sum(v[a:b]))


def strided_mean(v: MetricVector[L_inf, Real], k: Static[int]) -> Real:  # expect: v=1; k=static; assumes=k >= 0
    return float(np.mean(v[k::2]))


def reversed_mean(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/len(v)
    return float(np.mean(v[::-1]))


def first_rows(m: MetricMatrix[L_inf, Data], b: Static[int], eps: Static[float]) -> Priv[Real]:  # expect: m=(eps, 0); b=static; eps=static; assumes=b >= 0, eps > 0; accounting=sequential
    batch = m[0:b, :]
    return laplace_mechanism(1.0, eps, float(np.sum(np.clip(batch[:, 0], 0.0, 1.0))))


def calls_with_numbers(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/min(3, len(v)) + 1/min(2, len(v))
    return head_mean(v, 2) + last_mean(v, 3)


def calls_with_a_negative_start(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return head_mean(v, -1)  # E: DPS306


def loop_window(v: MetricVector[L1, Real], n: Static[int]) -> Real:  # expect: v=n; n=static; assumes=n >= 0
    total = 0.0
    for i in range(n):  # each window's length is exact at its own index (R-loop-index)
        total = total + float(np.sum(v[i:i + 2]))
    return total


# A bound computed from the length is a position from the start (D65: `v[len(v) - k:]`
# was read as counting from the end, assuming k > len(v), so every call was DPS306).
def tail_by_length(v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: v=1/max(0, k); k=static; assumes=-k + len(v) >= 0, k >= 0
    return float(np.mean(v[len(v) - k:]))


def trimmed_mean(v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: v=1/max(0, -k + len(v) - min(k, len(v))); k=static; assumes=-k + len(v) >= 0, k >= 0
    return float(np.mean(v[k:len(v) - k]))


def trims_one(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/2 + 1/max(0, len(v) - 2); assumes=len(v) - 2 >= 0
    return tail_by_length(v, 2) + trimmed_mean(v, 1)


def every_other_backwards(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=ceiling(len(v)/2)
    return np.sum(v[::-2])  # no bounds: from the last entry back (was DPS301)


# Backward slices with bounds (Python's rules: a negative bound counts from the end, each
# is clipped to [-1, n - 1]; they were DPS301 and inf).
def first_three_backwards(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=min(2, len(v) - 1) + 1
    return float(np.sum(v[2::-1]))


def all_but_the_first_backwards(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v) - 1
    return float(np.sum(v[:0:-1]))


def all_but_the_last_backwards(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v) - 1
    return float(np.sum(v[-2::-1]))


def alternate_entries_from_the_sixth(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=1
    return float(np.mean(v[5:1:-2]))
