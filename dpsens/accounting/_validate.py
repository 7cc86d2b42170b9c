"""Argument checks shared by the accounting functions (clear ValueErrors, no silent clamping)."""

from __future__ import annotations

import math
import numbers

__all__ = ["positive", "nonnegative", "probability", "open_probability", "count"]


def _real(name: str, value: object) -> float:
    """value as a finite float, or a ValueError naming the argument."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return x


def positive(name: str, value: object) -> float:
    """A finite float > 0."""
    x = _real(name, value)
    if x <= 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return x


def nonnegative(name: str, value: object) -> float:
    """A finite float >= 0."""
    x = _real(name, value)
    if x < 0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return x


def probability(name: str, value: object) -> float:
    """A float in [0, 1)."""
    x = _real(name, value)
    if not 0.0 <= x < 1.0:
        raise ValueError(f"{name} must lie in [0, 1), got {value!r}")
    return x


def open_probability(name: str, value: object) -> float:
    """A float in (0, 1)."""
    x = _real(name, value)
    if not 0.0 < x < 1.0:
        raise ValueError(f"{name} must lie in (0, 1), got {value!r}")
    return x


def count(name: str, value: object, minimum: int = 1) -> int:
    """An integer >= minimum (bools rejected)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if int(value) < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    return int(value)
