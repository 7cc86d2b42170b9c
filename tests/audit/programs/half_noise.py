"""A clamped sum released with half the Laplace noise it needs (KNOWN WRONG).

Clamping into [0, upper] makes the sum upper-sensitive, so eps-DP needs
Laplace(upper/eps); this adds Laplace(upper/(2 eps)), which is only 2eps-DP.
"""

import numpy as np

from dpsens import Data, L_inf, MetricMatrix, Priv, Real, Static


def half_noise_sum(data: MetricMatrix[L_inf, Data], upper: Static[float],
                   eps: Static[float]) -> Priv[Real]:
    """WRONG: Laplace(upper / (2 eps))."""
    total = float(np.sum(np.clip(data[:, 0], 0.0, upper)))
    return total + float(np.random.laplace(0.0, upper / (2.0 * eps)))


def full_noise_sum(data: MetricMatrix[L_inf, Data], upper: Static[float],
                   eps: Static[float]) -> Priv[Real]:
    """The control: Laplace(upper / eps) is eps-DP."""
    total = float(np.sum(np.clip(data[:, 0], 0.0, upper)))
    return total + float(np.random.laplace(0.0, upper / eps))
