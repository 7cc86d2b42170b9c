"""report_noisy_max over a tuple of scores pays the largest score's move (docs/rules.md L21).

The mechanism is eps·Δ/s-DP when each score moves by at most Δ
(docs/privacy.md §1.5), but a tuple's distance is the sum of its parts', so
three counts cost 3·eps (truth eps). A tuple now pays, per variable, the
largest of its parts' moves. A vector keeps its distance (each entry moves by
at most it, in every norm): the (L1, Real) histogram of clipped black-box rows
stays 2·eps, since one such row may move one bin by 2. Data parts were
charged as reals (truth ∞): they have no bounded numeric move.
"""

import numpy as np
import numpy.typing as npt

from dpsens import (
    BlackBox, Data, Integer, L1, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, clip, count,
    laplace_mechanism, map_rows, report_noisy_max, unbox, undisc_container,
)


def three_counts(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Integer]:  # expect: m=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    scores = (count(lambda r: r[0] > 1.0, m), count(lambda r: r[0] > 2.0, m),
              count(lambda r: r[0] > 3.0, m))
    return report_noisy_max(1.0, eps, scores)


def named_counts(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Integer]:  # expect: m=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    a = count(lambda r: r[0] > 1.0, m)
    b = count(lambda r: r[0] > 2.0, m)
    scores = (a, b)
    return report_noisy_max(1.0, eps, scores)


def shared_scores(x: Real, eps: Static[float]) -> Priv[Integer]:  # expect: x=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    return report_noisy_max(1.0, eps, (x, x, -x))


def mixed_scores(x: Real, y: Real) -> Priv[Integer]:  # expect: x=(2, 0); y=(1, 0); accounting=sequential
    # x moves the second score by 2, y each of its scores by 1
    return report_noisy_max(1.0, 1.0, (x + y, 2.0 * x, y))


def chosen_scores(x: Real, flag: Static[bool]) -> Priv[Integer]:  # expect: x=(3, 0); flag=static; accounting=sequential
    scores = (x, 2.0 * x) if flag else (3.0 * x, x)
    return report_noisy_max(1.0, 1.0, scores)


def data_scores(m: MetricMatrix[L_inf, Data]) -> Priv[Integer]:  # expect: m=(inf, 0); accounting=sequential  # E: DPS409
    # a Data entry may take any value in a neighbour: it was 2 (a tuple is not a Data type)
    return report_noisy_max(1.0, 1.0, (m[0, 0], m[0, 1]))


def vector_scores(v: MetricVector[L1, Real]) -> Priv[Integer]:  # expect: v=(1, 0); accounting=sequential
    return report_noisy_max(1.0, 1.0, v)


Indicator = MetricVector[L_inf, Data]


def one_hot(row: MetricVector[L_inf, Data], bins: Static[int]) -> BlackBox[npt.NDArray[np.float64]]:
    out = np.zeros(bins)
    out[int(row[0]) % bins] = 1.0
    return out


def histogram(data: MetricMatrix[L_inf, Data], bins: Static[int]) -> MetricVector[L1, Real]:  # expect: data=2; bins=static
    ind = map_rows(lambda row: clip(L1, unbox(one_hot(row, bins), Indicator, bins)), data)
    counts: npt.NDArray[np.float64] = np.sum(undisc_container(ind), axis=0)
    return counts


def most_common(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Integer]:  # expect: data=(2*eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    # a clipped black-box row may move one bin by 2 (from 1 to -1): the vector's L1 distance is right
    return report_noisy_max(1.0, eps, histogram(data, 5))


def counts_in_an_array(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Integer]:  # expect: m=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    scores = np.array((count(lambda r: r[0] > 1.0, m), count(lambda r: r[0] > 2.0, m), count(lambda r: r[1] > 0.0, m)))
    return report_noisy_max(1.0, eps, scores)  # np.array keeps its entries: was 3·eps


def array_changed_after(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Integer]:  # expect: m=(6*eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    scores = np.array((count(lambda r: r[0] > 1.0, m), count(lambda r: r[0] > 2.0, m)))
    scores += scores[0]  # the entries are no longer the parts (truth 2·eps)
    return report_noisy_max(1.0, eps, scores)


def array_unpacked(x: Real) -> Priv[Real]:  # expect: x=(1, 0); accounting=sequential
    factors = np.array((1.0, 2.0))
    a, _ = factors
    return laplace_mechanism(1.0, 1.0, a * x)


def array_entry_replaced(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=released  # E: DPS403
    factors = np.array((1.0, 2.0))
    factors[0] = 1000.0  # a store changes an entry: its old value must not be unpacked
    a, _ = factors  # E: DPS301
    return laplace_mechanism(1.0, 1.0, a * x)
