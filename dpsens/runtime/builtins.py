"""Run-time implementations of the dpsens sensitivity builtins (numpy)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from dpsens.lang import L1, L2, L_inf, Norm
from dpsens.runtime._validate import NotReal, float_array

__all__ = [
    "clip", "norm_convert", "discrete", "undisc", "undisc_container",
    "count", "map_rows", "fold", "rows", "cols", "unbox", "norm_name",
]

FloatArray = npt.NDArray[np.float64]

_NORMS = {"L1": L1, "L2": L2, "L_inf": L_inf}


def norm_name(norm: Any) -> str:
    """The name ("L1", "L2" or "L_inf") of a norm given as class, instance or name."""
    if isinstance(norm, str) and norm in _NORMS:
        return norm
    if isinstance(norm, type) and issubclass(norm, Norm) and norm is not Norm:
        return norm.name
    if isinstance(norm, Norm) and type(norm) is not Norm:
        return norm.name
    raise TypeError(f"expected a norm (L1, L2 or L_inf), got {norm!r}")


def _floats(fname: str, v: Any, expected: str) -> FloatArray:
    """A float copy of v (callers never see mutation); text is refused, where numpy would parse "1" as 1.0."""
    try:
        return float_array(v)
    except NotReal as received:
        raise TypeError(f"{fname}: expected {expected}, got {received}") from None


def _container(fname: str, v: Any) -> FloatArray:
    """A float copy of a 1-D or 2-D array argument, rejecting NaN and other shapes."""
    arr = _floats(fname, v, "a numeric 1-D or 2-D array")
    if arr.ndim not in (1, 2):
        raise TypeError(f"{fname}: expected a 1-D vector or a 2-D matrix, got {arr.ndim}-D input")
    if np.isnan(arr).any():
        raise ValueError(f"{fname}: input contains NaN")
    return arr


def _scalar(fname: str, x: Any) -> float:
    """A float from a scalar argument, rejecting arrays and NaN."""
    if np.ndim(x) != 0:
        raise TypeError(f"{fname}: expected a scalar, got an array of shape {np.shape(x)}")
    # float() would also parse strings such as "1"; only numbers are accepted.
    if np.asarray(x).dtype.kind not in "biuf":
        raise TypeError(f"{fname}: expected a number, got {type(x).__name__}")
    value = float(x)
    if np.isnan(value):
        raise ValueError(f"{fname}: input is NaN")
    return value


def clip(norm: Any, v: Any) -> FloatArray:
    """Scale v (or each row of a matrix v) into the unit ball: v / max(1, ||v||).

    A row holding NaN or an infinite entry has no norm: it becomes the zero row, a fixed
    point of the ball, never an error (whether it raised would depend on one record:
    R-observed, review34), so what follows a clip stays within its bound for any record.
    """
    name = norm_name(norm)
    arr = _floats("clip", v, "a numeric 1-D or 2-D array")
    if arr.ndim not in (1, 2):
        raise TypeError(f"clip: expected a 1-D vector or a 2-D matrix, got {arr.ndim}-D input")
    arr = np.where(np.isfinite(arr).all(axis=-1, keepdims=True), arr, 0.0)
    # Norms are computed on rows scaled by their largest entry, so squares and
    # sums of huge entries cannot overflow: ||v|| = scale * ||v / scale||.
    scale = np.abs(arr).max(axis=-1, keepdims=True, initial=0.0)
    unit = arr / np.where(scale > 0, scale, 1.0)
    if name == "L1":
        rel = np.abs(unit).sum(axis=-1, keepdims=True)
    elif name == "L2":
        rel = np.sqrt((unit * unit).sum(axis=-1, keepdims=True))
    else:
        rel = np.abs(unit).max(axis=-1, keepdims=True, initial=0.0)
    with np.errstate(over="ignore"):
        size = scale * rel  # inf only when the true norm exceeds the float range
    inside = size <= 1.0
    # Rows outside the ball: v / ||v|| = unit / rel, and rel >= 1 there.
    return np.where(inside, arr, unit / np.where(inside, 1.0, rel))


def norm_convert(norm: Any, v: Any) -> FloatArray:
    """Identity on values (a copy); only the metric of v or its rows changes."""
    norm_name(norm)
    return _container("norm_convert", v)


def discrete(x: Any) -> float:
    """Identity on a real scalar, re-measured in the discrete metric."""
    return _scalar("discrete", x)


def undisc(x: Any) -> float:
    """Identity on a discrete scalar, re-measured in the real metric."""
    return _scalar("undisc", x)


def undisc_container(m: Any) -> FloatArray:
    """Identity (a copy) on a clipped discrete container, re-measured as reals."""
    return _container("undisc_container", m)


def count(pred: Callable[[Any], Any], v: Any) -> int:
    """The number of entries (1-D) or rows (2-D) of v on which pred is true."""
    arr = _container("count", v)
    return sum(1 for item in arr if _truth("count", pred(item)))


def _truth(fname: str, value: Any) -> bool:
    """The truth of a predicate result, which must be a single boolean."""
    if np.ndim(value) != 0:
        raise TypeError(f"{fname}: pred must return one bool, got an array of shape {np.shape(value)}")
    return bool(value)


def map_rows(f: Callable[[Any], Any], m: Any) -> FloatArray:
    """Apply f to every row (2-D) or entry (1-D) of m and stack the results."""
    arr = _container("map_rows", m)
    results = [_floats("map_rows", f(item), "f to return numbers") for item in arr]
    if not results:
        return np.zeros(0)
    if any(r.ndim > 1 for r in results):
        raise TypeError("map_rows: f must return a scalar or a 1-D vector")
    try:
        return np.stack(results)
    except ValueError as exc:
        shapes = sorted({r.shape for r in results})
        raise ValueError(f"map_rows: f returned results of different shapes {shapes}") from exc


def fold(f: Callable[[Any, Any], Any], init: Any, m: Any) -> Any:
    """Left fold: acc = f(acc, row) over the rows (2-D) or entries (1-D) of m."""
    acc = init
    for item in _container("fold", m):
        acc = f(acc, item)
    return acc


def rows(x: Any) -> int:
    """The number of rows of a matrix, or of entries of a vector."""
    shape = np.shape(x)
    if not shape:
        raise TypeError("rows: expected a vector or a matrix, got a scalar")
    return int(shape[0])


def cols(x: Any) -> int:
    """The number of columns of a matrix."""
    shape = np.shape(x)
    if len(shape) != 2:
        raise TypeError(f"cols: expected a 2-D matrix, got a {len(shape)}-D value of shape {shape}")
    return int(shape[1])


def unbox(value: Any, t: Any, shape: Any) -> Any:
    """A black-box result as a float or float array of the declared shape, holding what ``t``
    says of it, which the analyzer trusts (a Bool is 0 or 1, an Integer whole, a clipped
    container's rows of norm at most 1).

    A result that breaks it is replaced, never raised: whether it breaks may depend on the
    data the black box was given, and an exception would show that to the caller
    (R-observed; review33). Another shape or no numbers give zeros of the declared shape;
    NaN entries and entries that are not of the declared kind become 0; rows of a clipped
    container are scaled into its unit ball, as ``clip`` does.
    """
    expected = () if shape is None else (shape,) if isinstance(shape, int) else tuple(shape)
    try:
        arr = float_array(value)
    except NotReal:
        arr = np.zeros(expected)
    if arr.shape != expected:
        arr = np.zeros(expected)
    arr = _of_kind(np.where(np.isnan(arr), 0.0, arr), t)
    return float(arr) if expected == () else arr


def _of_kind(values: npt.NDArray[np.float64], t: Any) -> npt.NDArray[np.float64]:
    """The values with each entry or row that breaks the annotation ``t`` replaced: by 0 for
    a Bool that is not 0 or 1 and an Integer that is not whole; a clipped container's rows
    go through ``clip`` (scaled into the unit ball; a row without a norm is zero)."""
    marker, arguments = _annotation_parts(t)
    kind = marker if not arguments else _annotation_parts(arguments[-1])[0]
    if kind == "Bool":
        values = np.where(np.isin(values, (0.0, 1.0)), values, 0.0)
    if kind == "Integer":
        values = np.where(np.isfinite(values) & (values == np.round(values)), values, 0.0)
    if marker in ("ClippedVector", "ClippedMatrix") and arguments:
        norm = arguments[0] if isinstance(arguments[0], str) else \
            getattr(arguments[0], "__name__", "")  # the clip norm: L1, L2 or L_inf
        values = clip(norm, np.atleast_2d(values)).reshape(values.shape) \
            if norm in ("L1", "L2", "L_inf") else np.zeros(values.shape)  # (no norm: no row)
    return values


def _annotation_parts(t: Any) -> tuple[str, tuple[Any, ...]]:
    """The vocabulary marker's name of an annotation and the arguments of its tag
    (MetricVector[L1, Integer]: ("MetricVector", (L1, Integer))); the same of its text
    ("MetricVector[L1, Integer]", which the analyzer reads as the annotation)."""
    import typing

    if isinstance(t, str):
        from dpsens.text import top_level_items

        head, _, rest = t.strip().partition("[")
        return head.strip(), tuple(top_level_items(rest[:-1])) if rest.endswith("]") else ()
    metadata = getattr(t, "__metadata__", ())
    marker = next((getattr(m, "name", "") for m in metadata), "")
    tagged = [a for a in typing.get_args(typing.get_args(t)[0] if metadata else t)
              if getattr(typing.get_origin(a), "__module__", "") == "dpsens.lang"]
    return marker, typing.get_args(tagged[0]) if tagged else ()
