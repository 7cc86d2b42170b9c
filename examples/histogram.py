"""A histogram of a categorical column, and a count of matching records.

Replacing one record takes one unit from one bin and adds it to another, so
the histogram moves by exactly 2 in L1; a count moves by at most 1.
"""

import numpy as np
import numpy.typing as npt

from dpsens import (
    BlackBox, Data, Integer, L1, L_inf, MetricMatrix, MetricVector, Real, Static, clip, count,
    map_rows, unbox, undisc_container,
)


Indicator = MetricVector[L_inf, Data]  # an alias mypy accepts as unbox's argument


def one_hot(row: MetricVector[L_inf, Data], column: Static[int], bins: Static[int]) -> BlackBox[npt.NDArray[np.float64]]:
    """The indicator vector of the row's category (categories outside [0, bins) are dropped)."""
    out = np.zeros(bins)
    category = int(row[column])
    if 0 <= category < bins:
        out[category] = 1.0
    return out


def histogram(data: MetricMatrix[L_inf, Data], column: Static[int], bins: Static[int]) -> MetricVector[L1, Real]:
    """Per category, the number of records in it."""
    indicators = map_rows(
        lambda row: clip(L1, unbox(one_hot(row, column, bins), Indicator, bins)), data
    )
    counts: npt.NDArray[np.float64] = np.sum(undisc_container(indicators), axis=0)
    return counts


def count_positive(data: MetricMatrix[L_inf, Data], column: Static[int]) -> Integer:
    """The number of records whose column is positive."""
    return count(lambda row: row[column] > 0, data)


if __name__ == "__main__":
    records = np.array([[0.0, 5.0], [2.0, -1.0], [2.0, 3.0], [1.0, 0.0]])
    print(histogram(records, 0, 3), count_positive(records, 1))
