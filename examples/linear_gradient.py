"""The summed gradient of a least-squares linear model over clipped per-row gradients.

The per-row gradient is computed by ordinary numpy code that dpsens does not
analyze (a BlackBox); because each row's gradient is clipped into the unit L2
ball, one changed record moves the sum by at most 2 in L2.
"""

import numpy as np
import numpy.typing as npt

from dpsens import (
    BlackBox, Data, L2, L_inf, MetricMatrix, MetricVector, Real, clip, cols, map_rows, unbox,
    undisc_container,
)


# A module-level alias lets mypy accept the type as unbox's argument.
GradientRow = MetricVector[L_inf, Data]


def row_gradient(model: MetricVector[L2, Real], row: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:
    """Gradient of (model . x - y)^2 / 2 for one record row = (x, y)."""
    features, label = row[:-1], row[-1]
    residual = float(np.dot(model, features)) - float(label)
    gradient: npt.NDArray[np.float64] = residual * features
    return gradient


def gradient_sum(model: MetricVector[L2, Real], data: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Real]:
    """The sum over rows of the clipped per-row gradients."""
    d = cols(data) - 1
    clipped = map_rows(
        lambda row: clip(L2, unbox(row_gradient(model, row), GradientRow, d)), data
    )
    total: npt.NDArray[np.float64] = np.sum(undisc_container(clipped), axis=0)
    return total


if __name__ == "__main__":
    records = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0], [2.0, 2.0, 10.0]])
    print(gradient_sum(np.array([0.1, -0.2]), records))
