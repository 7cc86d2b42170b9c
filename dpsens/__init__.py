"""dpsens: sensitivity and differential-privacy analysis of annotated Python.

Importing dpsens gives the annotation vocabulary and the run-time builtins.
They are loaded on first use (PEP 562), so the command line, which only
needs the analyzer, never pays for numpy when a file does not need it; and
the analyzer's own libraries (libcst, sympy) are never imported here.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "dpsens.lang": (
        "L1", "L2", "L_inf", "LInf", "Norm", "Real", "Integer", "Data", "Bool", "Static", "Priv",
        "BlackBox", "Local", "Messages", "MetricVector", "MetricMatrix", "ClippedVector",
        "ClippedMatrix", "PrivacyFunction",
    ),
    "dpsens.runtime.builtins": (
        "clip", "cols", "count", "discrete", "fold", "map_rows", "norm_convert", "rows", "unbox",
        "undisc", "undisc_container",
    ),
    "dpsens.runtime.mechanisms": (
        "laplace_mechanism", "laplacian_mechanism", "gaussian_mechanism",
        "gaussian_mechanism_zcdp", "exponential_mechanism", "report_noisy_max",
        "above_threshold", "randomized_response", "sample", "parallel_fold_rows", "shuffle",
    ),
    "dpsens.runtime.local": ("kary_randomized_response", "local_laplace"),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    """Load an exported name from its module on first use."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'dpsens' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])


if TYPE_CHECKING:  # what mypy and IDEs see: the same names, imported eagerly
    from dpsens.lang import (
        L1 as L1, L2 as L2, Bool as Bool, BlackBox as BlackBox, ClippedMatrix as ClippedMatrix,
        ClippedVector as ClippedVector, Data as Data, Integer as Integer, L_inf as L_inf,
        LInf as LInf, Local as Local, Messages as Messages, MetricMatrix as MetricMatrix,
        MetricVector as MetricVector, Norm as Norm, Priv as Priv,
        PrivacyFunction as PrivacyFunction, Real as Real, Static as Static,
    )
    from dpsens.runtime.builtins import (
        clip as clip, cols as cols, count as count, discrete as discrete, fold as fold,
        map_rows as map_rows, norm_convert as norm_convert, rows as rows, unbox as unbox,
        undisc as undisc, undisc_container as undisc_container,
    )
    from dpsens.runtime.local import (
        kary_randomized_response as kary_randomized_response, local_laplace as local_laplace,
    )
    from dpsens.runtime.mechanisms import (
        above_threshold as above_threshold, exponential_mechanism as exponential_mechanism,
        gaussian_mechanism as gaussian_mechanism,
        gaussian_mechanism_zcdp as gaussian_mechanism_zcdp,
        laplace_mechanism as laplace_mechanism, laplacian_mechanism as laplacian_mechanism,
        parallel_fold_rows as parallel_fold_rows, randomized_response as randomized_response,
        report_noisy_max as report_noisy_max, sample as sample, shuffle as shuffle,
    )
