"""dpsens: sensitivity and differential-privacy analysis of annotated Python.

Importing dpsens gives the annotation vocabulary and the run-time builtins;
it never imports libcst or sympy (the analyzer loads them when it runs).
"""

from dpsens.lang import (
    L1, L2, Bool, BlackBox, ClippedMatrix, ClippedVector, Data, Integer, L_inf, LInf,
    MetricMatrix, MetricVector, Norm, Priv, PrivacyFunction, Real, Static,
)
from dpsens.runtime.builtins import (
    clip, cols, count, discrete, fold, map_rows, norm_convert, rows, unbox, undisc,
    undisc_container,
)

__version__ = "0.1.0"

__all__ = [
    "L1", "L2", "L_inf", "LInf", "Norm", "Real", "Integer", "Data", "Bool",
    "Static", "Priv", "BlackBox", "MetricVector", "MetricMatrix", "ClippedVector",
    "ClippedMatrix", "PrivacyFunction",
    "clip", "cols", "count", "discrete", "fold", "map_rows", "norm_convert", "rows",
    "unbox", "undisc", "undisc_container",
]
