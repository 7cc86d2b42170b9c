"""Noisy gradient descent: k full-batch steps of least squares with Gaussian noise.

Each step clips every record's gradient into the unit L2 ball and adds
N(0, s²/(2ρ)) noise to their sum (s = 2: one changed record moves the sum by
at most the ball's diameter).  Each step is ρ-zCDP; k steps compose to kρ,
which dpsens converts to (ε, δ') — or accounts exactly with PLD when the
numbers are known (see ``twenty_steps``).
"""

import numpy as np
import numpy.typing as npt

from dpsens import (
    BlackBox, Data, L2, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, clip, cols,
    gaussian_mechanism_zcdp, map_rows, unbox, undisc_container,
)

Row = MetricVector[L_inf, Data]


def squared_loss_gradient(model: MetricVector[L2, Real], record: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:
    """The gradient of (model . x - y)^2 / 2 at one record (x..., y)."""
    features, label = record[:-1], record[-1]
    gradient: npt.NDArray[np.float64] = (float(np.dot(model, features)) - float(label)) * features
    return gradient


def noisy_gradient_descent(data: MetricMatrix[L_inf, Data], steps: Static[int], rho: Static[float],
                           rate: Static[float]) -> Priv[MetricVector[L2, Real]]:
    """`steps` noisy full-batch gradient steps, each rho-zCDP."""
    d = cols(data) - 1
    model = np.zeros(d)
    for _ in range(steps):
        clipped = map_rows(
            lambda record: clip(L2, unbox(squared_loss_gradient(model, record), Row, d)), data
        )
        total = np.sum(undisc_container(clipped), axis=0)
        model = model - rate * gaussian_mechanism_zcdp(2.0, rho, total)
    return model


def twenty_steps(data: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L2, Real]]:
    """Twenty steps at rho = 0.01 each."""
    return noisy_gradient_descent(data, 20, 0.01, 0.05)


if __name__ == "__main__":
    generator = np.random.default_rng(1)
    features = generator.normal(size=(100, 2))
    labels = features @ np.array([1.0, -2.0]) + generator.normal(scale=0.1, size=100)
    print(noisy_gradient_descent(np.column_stack([features, labels]), 10, 0.05, 0.01))
