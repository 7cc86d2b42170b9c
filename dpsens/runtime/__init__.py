"""Run-time side of dpsens: builtin implementations and metric distances."""

from dpsens.runtime.builtins import (
    clip, cols, count, discrete, fold, map_rows, norm_convert, norm_name, rows,
    unbox, undisc, undisc_container,
)
from dpsens.runtime.metrics import distance, matrix_distance, scalar_distance, vector_distance

__all__ = [
    "clip", "cols", "count", "discrete", "fold", "map_rows", "norm_convert", "norm_name",
    "rows", "unbox", "undisc", "undisc_container",
    "distance", "matrix_distance", "scalar_distance", "vector_distance",
]
