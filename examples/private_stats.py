"""Differentially private statistics: a mean, a histogram, a noisy argmax, and a
data-driven clipping bound chosen with the sparse vector technique."""

import numpy as np
import numpy.typing as npt

from dpsens import (
    Data, Integer, L1, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, above_threshold,
    count, laplace_mechanism, report_noisy_max, rows,
)
from examples.histogram import histogram


def dp_mean(data: MetricMatrix[L_inf, Data], column: Static[int], upper: Static[float],
            eps: Static[float]) -> Priv[Real]:
    """The clamped column mean with Laplace noise on the sum (the row count is public)."""
    values = np.clip(data[:, column], 0.0, upper)
    noisy_sum = float(laplace_mechanism(upper, eps, float(np.sum(values))))
    return noisy_sum / rows(data)


def dp_histogram(data: MetricMatrix[L_inf, Data], column: Static[int], bins: Static[int],
                 eps: Static[float]) -> Priv[MetricVector[L1, Real]]:
    """Laplace noise on every bin; one record moves the histogram by 2 in L1."""
    counts = histogram(data, column, bins)
    noisy: npt.NDArray[np.float64] = laplace_mechanism(2.0, eps, counts)
    return noisy


def most_common(data: MetricMatrix[L_inf, Data], column: Static[int], bins: Static[int],
                eps: Static[float]) -> Priv[Integer]:
    """The most frequent category by report-noisy-max over 2-sensitive counts."""
    counts = histogram(data, column, bins)
    return report_noisy_max(2.0, eps, counts)


def clipping_bound(data: MetricMatrix[L_inf, Data], column: Static[int],
                   eps: Static[float]) -> Priv[Integer]:
    """The index of the first power of two bounding all but 10 values (-1: none), by AboveThreshold."""
    queries = (
        lambda d: -count(lambda r: r[column] > 1.0, d),
        lambda d: -count(lambda r: r[column] > 2.0, d),
        lambda d: -count(lambda r: r[column] > 4.0, d),
        lambda d: -count(lambda r: r[column] > 8.0, d),
    )
    index = above_threshold(queries, eps, data, -10.0)
    return -1 if index is None else index


def clipped_noisy_sum(data: MetricMatrix[L_inf, Data], column: Static[int],
                      eps: Static[float]) -> Priv[Real]:
    """Choose the clipping bound privately (eps/2), then a noisy clamped sum (eps/2)."""
    index = clipping_bound(data, column, eps / 2)
    upper = 2.0 ** (index if index >= 0 else 3)
    values = np.clip(data[:, column], 0.0, 8.0)
    return float(laplace_mechanism(8.0, eps / 2, float(np.sum(values)))) * upper / 8.0


if __name__ == "__main__":
    records = np.array([[0.0, 5.0], [2.0, 1.5], [2.0, 3.0], [1.0, 9.0], [2.0, 0.5]])
    print(dp_mean(records, 1, 10.0, 1.0), dp_histogram(records, 0, 3, 1.0))
    print(most_common(records, 0, 3, 1.0), clipped_noisy_sum(records, 1, 1.0))
