"""The distances of SPEC section 1 on scalars, vectors and matrices."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from dpsens.runtime.builtins import norm_name

__all__ = ["KINDS", "scalar_distance", "vector_distance", "matrix_distance", "distance"]

KINDS = ("Real", "Integer", "Data", "Bool")
_DISCRETE = ("Data", "Bool")


def _kind(kind: str) -> str:
    """Validate an element kind name."""
    if kind not in KINDS:
        raise ValueError(f"unknown element kind {kind!r}; expected one of {KINDS}")
    return kind


def _entry_distances(kind: str, a: Any, b: Any) -> npt.NDArray[np.float64]:
    """Entrywise distances d_kind(a_i, b_i) of two equally shaped arrays."""
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        raise ValueError(f"cannot measure arrays of different shapes {x.shape} and {y.shape}")
    if any(arr.dtype.kind == "f" and np.isnan(arr).any() for arr in (x, y)):
        raise ValueError("cannot measure NaN: it is not a point of any metric space")
    result: npt.NDArray[np.float64]
    if _kind(kind) in _DISCRETE:
        # Exact equality: the discrete metric has no tolerance by definition.
        result = (x != y).astype(np.float64)
    else:
        # Subtract as floats: integer arrays could wrap around.
        result = np.abs(x.astype(np.float64) - y.astype(np.float64))
    return result


def scalar_distance(kind: str, a: Any, b: Any) -> float:
    """|a - b| on Real/Integer; 0 if a == b else 1 on Data/Bool."""
    if np.ndim(a) != 0 or np.ndim(b) != 0:
        raise ValueError("scalar_distance: expected two scalars")
    return float(_entry_distances(kind, a, b))


def _combine(name: str, d: npt.NDArray[np.float64]) -> float:
    """Combine entrywise distances of one vector with the norm `name`."""
    if d.size == 0:
        return 0.0
    if name == "L1":
        return float(d.sum())
    if name == "L2":
        # math.hypot scales internally, so huge distances do not overflow.
        return float(math.hypot(*d.tolist()))
    return float(d.max())


def vector_distance(norm: Any, kind: str, v: Any, w: Any) -> float:
    """The distance of two vectors in (norm, kind)."""
    if np.ndim(v) != 1:
        raise ValueError(f"vector_distance: expected 1-D vectors, got {np.ndim(v)}-D")
    return _combine(norm_name(norm), _entry_distances(kind, v, w))


def matrix_distance(norm: Any, kind: str, m: Any, n: Any) -> float:
    """The sum over rows of the row distances in (norm, kind)."""
    if np.ndim(m) != 2:
        raise ValueError(f"matrix_distance: expected 2-D matrices, got {np.ndim(m)}-D")
    name = norm_name(norm)
    d = _entry_distances(kind, m, n)
    return math.fsum(_combine(name, row) for row in d)


def distance(norm: Any, kind: str, a: Any, b: Any) -> float:
    """Dispatch on dimension: scalar, vector (norm, kind) or matrix (norm, kind)."""
    dims = np.ndim(a)
    if dims == 0:
        return scalar_distance(kind, a, b)
    if dims == 1:
        return vector_distance(norm, kind, a, b)
    return matrix_distance(norm, kind, a, b)
