"""Annotation markers: the metric vocabulary users write in signatures.

Each public alias is an ``Annotated`` type whose first argument is what mypy
checks (a plain ``float`` or ``numpy.ndarray`` is accepted) and whose metadata
is a marker the analyzer reads from source text.  Nothing here imports libcst.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Callable, Generic, TypeVar, Union

import numpy as np
import numpy.typing as npt

__all__ = [
    "L1", "L2", "L_inf", "LInf", "Norm",
    "Real", "Integer", "Data", "Bool",
    "Static", "Priv", "BlackBox", "Local", "Messages",
    "MetricVector", "MetricMatrix", "ClippedVector", "ClippedMatrix",
    "PrivacyFunction",
]


class Norm:
    """Base class of the three norms; instances are passed to builtins at run time."""

    name = "norm"

    def __repr__(self) -> str:
        return self.name


class L1(Norm):
    """The L1 norm: distances of entries are summed."""

    name = "L1"


class L2(Norm):
    """The L2 norm: the Euclidean length of the entrywise distances."""

    name = "L2"


class L_inf(Norm):  # noqa: N801 - the spelling of the seeds
    """The L-infinity norm: the largest entrywise distance."""

    name = "L_inf"


LInf = L_inf


class _Marker:
    """Metadata object naming one vocabulary construct inside ``Annotated``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"dpsens.{self.name}"


_T = TypeVar("_T")
_N = TypeVar("_N")
_E = TypeVar("_E")
_C = TypeVar("_C")

# Scalars: mypy sees float/int/bool; the marker fixes the metric.
Real = Annotated[float, _Marker("Real")]
Integer = Annotated[int, _Marker("Integer")]
Data = Annotated[float, _Marker("Data")]
Bool = Annotated[bool, _Marker("Bool")]

Static = Annotated[_T, _Marker("Static")]
Priv = Annotated[_T, _Marker("Priv")]
Local = Annotated[_T, _Marker("Local")]  # a local randomizer of one record
BlackBox = Annotated[_T, _Marker("BlackBox")]

_Arr = npt.NDArray[Any]


if TYPE_CHECKING:
    # For mypy the tags are arrays, so a tagged value supports every ndarray use.
    _TagBase = np.ndarray
else:
    # At run time ndarray's own ``__class_getitem__`` would reject three
    # parameters, so the phantom tags derive from an empty class.
    class _TagBase:
        """Run-time stand-in for ndarray as the base of phantom tags."""


class _VectorTag(_TagBase, Generic[_N, _E]):
    """Phantom subclass carrying the norm and element type of a vector."""


class _MatrixTag(_TagBase, Generic[_N, _E]):
    """Phantom subclass carrying the norm and element type of a matrix."""


class _ClippedVectorTag(_TagBase, Generic[_C, _N, _E]):
    """Phantom subclass of a vector whose norm in C is at most 1."""


class _ClippedMatrixTag(_TagBase, Generic[_C, _N, _E]):
    """Phantom subclass of a matrix whose rows have norm at most 1 in C."""


class _MessagesTag(_TagBase, Generic[_E]):
    """Phantom subclass of the collected outputs of a local randomizer."""


# The reports of local randomizers, one per user: public to an analyzer.
Messages = Annotated[Union[_Arr, _MessagesTag[_E]], _Marker("Messages")]

MetricVector = Annotated[Union[_Arr, _VectorTag[_N, _E]], _Marker("MetricVector")]
MetricMatrix = Annotated[Union[_Arr, _MatrixTag[_N, _E]], _Marker("MetricMatrix")]
ClippedVector = Annotated[
    Union[_Arr, _ClippedVectorTag[_C, _N, _E]], _Marker("ClippedVector")
]
ClippedMatrix = Annotated[
    Union[_Arr, _ClippedMatrixTag[_C, _N, _E]], _Marker("ClippedMatrix")
]

PrivacyFunction = Annotated[Callable[..., Any], _Marker("PrivacyFunction")]
