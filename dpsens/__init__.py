"""dpsens: sensitivity and differential-privacy analysis of annotated Python.

Importing dpsens gives the annotation vocabulary and the run-time builtins;
it never imports libcst or sympy (the analyzer loads them when it runs).
"""

from dpsens.lang import (
    L1, L2, Bool, BlackBox, ClippedMatrix, ClippedVector, Data, Integer, L_inf, LInf, Local,
    Messages, MetricMatrix, MetricVector, Norm, Priv, PrivacyFunction, Real, Static,
)
from dpsens.runtime.builtins import (
    clip, cols, count, discrete, fold, map_rows, norm_convert, rows, unbox, undisc,
    undisc_container,
)

from dpsens.runtime.mechanisms import (
    above_threshold, exponential_mechanism, gaussian_mechanism, gaussian_mechanism_zcdp,
    laplace_mechanism, laplacian_mechanism, parallel_fold_rows, randomized_response,
    report_noisy_max, sample,
)

from dpsens.runtime.local import kary_randomized_response, local_laplace
from dpsens.runtime.mechanisms import shuffle

__version__ = "0.1.0"

__all__ = [
    "L1", "L2", "L_inf", "LInf", "Norm", "Real", "Integer", "Data", "Bool",
    "Static", "Priv", "BlackBox", "Local", "Messages", "MetricVector", "MetricMatrix", "ClippedVector",
    "ClippedMatrix", "PrivacyFunction",
    "clip", "cols", "count", "discrete", "fold", "map_rows", "norm_convert", "rows",
    "unbox", "undisc", "undisc_container",
    "laplace_mechanism", "laplacian_mechanism", "gaussian_mechanism", "gaussian_mechanism_zcdp",
    "exponential_mechanism", "report_noisy_max", "above_threshold", "randomized_response",
    "sample", "parallel_fold_rows", "kary_randomized_response", "local_laplace", "shuffle",
]
