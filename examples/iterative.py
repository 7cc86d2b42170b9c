"""An iterative update: exponential smoothing towards a clipped total.

Each step keeps half of the current estimate and adds half of the total, so
the total's influence after k steps is 1/2 + 1/4 + ... = 1 - 2^-k, and the
initial estimate's is 2^-k.
"""

import numpy as np

from dpsens import Data, L_inf, MetricMatrix, Real, Static


def smoothed_total(data: MetricMatrix[L_inf, Data], start: Real) -> Real:
    """Ten smoothing steps towards the clamped sum of the first column."""
    total = float(np.sum(np.clip(data[:, 0], 0.0, 1.0)))
    estimate = start
    for _ in range(10):
        estimate = 0.5 * estimate + 0.5 * total
    return estimate


def smoothed_total_k(data: MetricMatrix[L_inf, Data], start: Real, steps: Static[int]) -> Real:
    """The same with a public number of steps."""
    total = float(np.sum(np.clip(data[:, 0], 0.0, 1.0)))
    estimate = start
    for _ in range(steps):
        estimate = 0.5 * estimate + 0.5 * total
    return estimate


if __name__ == "__main__":
    records = np.array([[0.2], [0.9], [3.0]])
    print(smoothed_total(records, 0.0), smoothed_total_k(records, 0.0, 5))
