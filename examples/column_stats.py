"""Clipped sum and mean of one column of a dataset.

A dataset is a matrix whose rows are records; neighbouring datasets differ in
one row, i.e. are at distance 1 in (L_inf, Data).  Clamping the column into
[0, upper] bounds how far one changed record can move the result.
"""

import numpy as np

from dpsens import Data, L_inf, MetricMatrix, Real, Static


def clipped_sum(data: MetricMatrix[L_inf, Data], column: Static[int], upper: Static[float]) -> Real:
    """The sum of a column after clamping its entries into [0, upper]."""
    values = np.clip(data[:, column], 0.0, upper)
    return float(np.sum(values))


def clipped_mean(data: MetricMatrix[L_inf, Data], column: Static[int], upper: Static[float]) -> Real:
    """The mean of the clamped column (the number of rows is public)."""
    values = np.clip(data[:, column], 0.0, upper)
    return float(np.mean(values))


if __name__ == "__main__":
    ages = np.array([[34.0, 1.0], [51.0, 0.0], [102.0, 1.0], [18.0, 0.0]])
    print(clipped_sum(ages, 0, 90.0), clipped_mean(ages, 0, 90.0))
