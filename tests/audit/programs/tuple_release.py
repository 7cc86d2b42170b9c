"""A release from the second dataset of a pair: the privacy audit moves each component."""

from dpsens import Data, L_inf, MetricMatrix, Priv, Real, Static, count, laplace_mechanism


def second_count(p: tuple[MetricMatrix[L_inf, Data], MetricMatrix[L_inf, Data]],
                 eps: Static[float]) -> Priv[Real]:
    return laplace_mechanism(1.0, eps, count(lambda r: r[0] > 0.5, p[1]))
