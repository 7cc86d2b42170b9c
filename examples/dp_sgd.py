"""DP-SGD: logistic regression trained on minibatches drawn without replacement.

Every step samples `batch` records, clips each record's gradient (computed by
plain numpy code, a BlackBox) into the unit L2 ball, and adds Gaussian noise
to the sum.  One changed record moves the clipped sum by at most 2 (the
diameter of the ball), so the noise is calibrated to s = 2.  With
rho = 1 / (2 * 1.1**2) the noise is 1.1 times that sensitivity.

dpsens accounts the subsampled Gaussian steps with Rényi DP for sampling
without replacement; bind the sizes to get numbers, e.g.
``dpsens check examples/dp_sgd.py --bind "rows(data)=60000"``.
"""

import numpy as np
import numpy.typing as npt

from dpsens import (
    BlackBox, Data, L2, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, clip, cols,
    gaussian_mechanism_zcdp, map_rows, sample, unbox, undisc_container,
)

Row = MetricVector[L_inf, Data]


def logistic_gradient(model: MetricVector[L2, Real], record: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:
    """The gradient of the logistic loss at one record (features..., label in {0, 1})."""
    features, label = record[:-1], record[-1]
    prediction = 1.0 / (1.0 + np.exp(-float(np.dot(model, features))))
    gradient: npt.NDArray[np.float64] = (prediction - float(label)) * features
    return gradient


def dp_sgd(data: MetricMatrix[L_inf, Data], steps: Static[int], batch: Static[int],
           rate: Static[float]) -> Priv[MetricVector[L2, Real]]:
    """`steps` noisy minibatch gradient steps, noise 1.1 x the sensitivity of the batch sum."""
    d = cols(data) - 1
    model = np.zeros(d)
    for _ in range(steps):
        records, _labels = sample(batch, data, data)
        clipped = map_rows(
            lambda record: clip(L2, unbox(logistic_gradient(model, record), Row, d)), records
        )
        total = np.sum(undisc_container(clipped), axis=0)
        noisy = gaussian_mechanism_zcdp(2.0, 1 / (2 * 1.1**2), total)
        model = model - rate / batch * noisy
    return model


def mnist_sized(data: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L2, Real]]:
    """60 epochs of batches of 256 over 60,000 records: 14,062 steps."""
    return dp_sgd(data, 14062, 256, 0.5)


if __name__ == "__main__":
    generator = np.random.default_rng(0)
    points = generator.normal(size=(200, 3))
    labels = (points[:, 0] + points[:, 1] > 0).astype(float)
    print(dp_sgd(np.column_stack([points, labels]), 20, 32, 0.5))
