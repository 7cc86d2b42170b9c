"""Argument checks shared by the runtime mechanisms: clear ValueErrors naming the function, the parameter and the value.

numpy converts almost anything to float64: ``np.array("3", dtype=float)`` is
3.0 and ``np.array(None, dtype=float)`` is NaN.  A mechanism that relied on
that would noise text or report NaN values the caller never wrote, so data
goes through ``float_array`` first, which accepts only real numbers.
"""

from __future__ import annotations

import decimal
import math
import numbers
import reprlib
from typing import Any, Callable, TypeVar

import numpy as np
import numpy.typing as npt

from dpsens.accounting import _validate as accounting

__all__ = [
    "NotReal", "describe", "is_real", "float_array", "finite_reals", "real", "finite_real",
    "iterable", "item", "positive", "open_probability", "count",
]

FloatArray = npt.NDArray[np.float64]
R = TypeVar("R")

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40


class NotReal(Exception):
    """A value that is not made of real numbers; the message says what it is, for the caller's error."""


def describe(value: object) -> str:
    """What was received, for error messages: the type and a shortened repr."""
    return "None" if value is None else f"{type(value).__name__} {_SHORT.repr(value)}"


def is_real(value: object) -> bool:
    """Whether value is one real number: bool, int, float (numpy too), Fraction or Decimal; not text or complex."""
    return isinstance(value, (numbers.Real, decimal.Decimal, np.bool_))  # np.bool_ is no numbers.Real


def float_array(x: Any) -> FloatArray:
    """x as a new float64 array (0-d for a scalar); NotReal for text, bytes, None, complex or ragged nesting."""
    try:
        raw = np.asarray(x)
    except (TypeError, ValueError):  # numpy refuses ragged nesting such as [[1.0], [1.0, 2.0]]
        raise NotReal(f"{describe(x)} (not a rectangular array)") from None
    if raw.dtype.kind == "O":  # mixed Python objects: every one must be a number
        for entry in raw.flat:
            if not is_real(entry):
                raise NotReal(describe(x) if raw.ndim == 0 else f"{describe(x)} containing {describe(entry)}")
    elif raw.dtype.kind not in "biuf":  # converting would parse text or drop imaginary parts
        raise NotReal(describe(x))
    try:
        return raw.astype(np.float64)
    except OverflowError:  # a Python int or Fraction beyond the float range
        raise NotReal(f"{describe(x)} (too large for a float)") from None


def finite_reals(fn: str, name: str, x: Any) -> FloatArray:
    """x as a float array of finite values (0-d for a scalar), or a ValueError naming fn, the parameter and x."""
    try:
        arr = float_array(x)
    except NotReal as received:
        raise ValueError(f"{fn}: {name} must be finite real numbers (a number or a numeric array), "
                         f"got {received}") from None
    if not np.isfinite(arr).all():
        raise ValueError(f"{fn}: {name} must be finite real numbers, got NaN or infinite values in {describe(x)}")
    return arr


def real(fn: str, name: str, x: Any, what: str = "a real number") -> float:
    """x as one float (NaN and infinities pass), or a ValueError naming fn, the parameter and x."""
    try:
        arr = float_array(x)
    except NotReal as received:
        raise ValueError(f"{fn}: {name} must be {what}, got {received}") from None
    if arr.ndim != 0:
        raise ValueError(f"{fn}: {name} must be {what}, got {describe(x)} of shape {arr.shape}")
    return float(arr)


def finite_real(fn: str, name: str, x: Any) -> float:
    """x as one finite float, or a ValueError naming fn, the parameter and x."""
    value = real(fn, name, x, "a finite real number")
    if not math.isfinite(value):
        got = "NaN" if math.isnan(value) else describe(x)
        raise ValueError(f"{fn}: {name} must be a finite real number, got {got}")
    return value


def iterable(fn: str, name: str, value: Any, what: str) -> None:
    """Refuse a value that cannot be iterated (None, a number, a 0-d array), before a loop fails obscurely."""
    try:
        iter(value)
    except TypeError:
        raise ValueError(f"{fn}: {name} must be {what}, got {describe(value)}") from None


def item(value: object) -> object:
    """The scalar inside a 0-d numpy array (what numpy reductions often give); any other value unchanged."""
    return value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value


def _parameter(fn: str, test: Callable[[str, object], R], name: str, value: object) -> R:
    """value checked by an accounting test, 0-d arrays unwrapped, the error prefixed with fn."""
    try:
        return test(name, item(value))
    except ValueError as error:
        raise ValueError(f"{fn}: {error}") from None


def positive(fn: str, name: str, value: object) -> float:
    """A finite float > 0 (eps, rho, a sensitivity, a scale)."""
    return _parameter(fn, accounting.positive, name, value)


def open_probability(fn: str, name: str, value: object) -> float:
    """A float in (0, 1) (delta, beta)."""
    return _parameter(fn, accounting.open_probability, name, value)


def count(fn: str, name: str, value: object, minimum: int = 1) -> int:
    """An integer >= minimum (bools refused)."""
    return _parameter(fn, lambda n, v: accounting.count(n, v, minimum), name, value)
