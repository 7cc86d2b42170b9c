"""Per-row feature normalization: every record scaled into the unit L2 ball.

Clipping each row keeps one changed record from moving the result by more
than the diameter of the ball (2), whatever the record's values were.
"""

import numpy as np
import numpy.typing as npt

from dpsens import Data, L2, L_inf, MetricMatrix, MetricVector, Real, clip, undisc_container


def normalize_rows(data: MetricMatrix[L_inf, Data]) -> MetricMatrix[L2, Real]:
    """Rows scaled to L2 norm at most 1, measured as real vectors."""
    return undisc_container(clip(L2, data))


def mean_normalized_row(data: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Real]:
    """The mean of the normalized rows: each row moves it by at most 2 / rows."""
    normalized = normalize_rows(data)
    mean: npt.NDArray[np.float64] = np.mean(normalized, axis=0)
    return mean


if __name__ == "__main__":
    records = np.array([[3.0, 4.0], [0.3, 0.4], [-6.0, 8.0]])
    print(normalize_rows(records))
    print(mean_normalized_row(records))
