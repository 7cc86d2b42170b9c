"""Random and adversarial pairs of inputs at a known distance, per metric."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dpsens.audit.metric_types import Metric
from dpsens.runtime.metrics import distance, scalar_distance


def draw(metric: Metric, n: int, d: int, rng: np.random.Generator) -> Any:
    """A random value of the metric's shape (n rows or entries, d columns)."""
    if metric.shape == "tuple":
        return tuple(draw(part, n, d, rng) for part in metric.parts)
    if metric.shape == "list":
        return [draw(metric.parts[0], n, d, rng) for _ in range(n)]
    scale = float(rng.choice([0.5, 1.0, 3.0, 100.0]))
    if metric.shape == "scalar":
        value = float(rng.normal(0, scale))
        return _element(metric.kind, value)
    shape = (n,) if metric.shape == "vector" else (n, d)
    values = rng.normal(0, scale, size=shape)
    if metric.kind in ("Integer", "Bool"):
        values = np.round(values)
    if metric.clip is not None:
        values = _clip_rows(values, metric.clip)
    return values


def neighbour(metric: Metric, value: Any, rng: np.random.Generator) -> Any:
    """A second value near the first: one row, a few entries, or a small shift."""
    if metric.shape in ("tuple", "list"):
        # Some components change (at least one), each to a neighbour of its own.
        parts = metric.parts if metric.shape == "tuple" else metric.parts * len(value)
        changed = rng.random(len(parts)) < 0.5
        if len(parts):
            changed[int(rng.integers(len(parts)))] = True
        moved = [neighbour(part, item, rng) if change else item
                 for part, item, change in zip(parts, value, changed)]
        return tuple(moved) if metric.shape == "tuple" else moved
    if metric.shape == "scalar":
        if metric.kind in ("Data", "Bool"):
            return _element(metric.kind, float(rng.normal(0, 10)))
        step = float(rng.choice([1e-3, 0.1, 1.0, 7.0])) * float(rng.choice([-1.0, 1.0]))
        return _element(metric.kind, value + (round(step) or 1.0 if metric.kind == "Integer" else step))
    other = np.array(value, dtype=float, copy=True)
    if metric.shape == "matrix":
        row = int(rng.integers(other.shape[0]))
        other[row] = _changed_row(metric, other[row], rng)
    else:
        other = _changed_vector(metric, other, rng)
    if metric.clip is not None:
        other = _clip_rows(other, metric.clip)
    return other


def adversarial_pairs(metric: Metric, n: int, d: int) -> list[tuple[Any, Any]]:
    """Boundary cases: sign flips, one-hot rows, [1,1] vs [1,0], zeros vs large."""
    if metric.shape in ("tuple", "list"):
        # Every component at once through its own boundary cases, and one at a time.
        parts = metric.parts if metric.shape == "tuple" else metric.parts * n
        cases = [adversarial_pairs(part, n, d) for part in parts]
        size = min((len(c) for c in cases), default=0)
        combined: list[tuple[Any, Any]] = [
            (tuple(c[i][0] for c in cases), tuple(c[i][1] for c in cases)) for i in range(size)]
        for position, own in enumerate(cases):
            for first, second in own:
                base = [c[0][0] for c in cases]
                combined.append((tuple(base[:position] + [first] + base[position + 1:]),
                                 tuple(base[:position] + [second] + base[position + 1:])))
        if metric.shape == "list":
            return [(list(a), list(b)) for a, b in combined]
        return combined
    if metric.shape == "scalar":
        if metric.kind == "Bool":  # a Bool parameter only ever holds 0 or 1
            return [(0.0, 1.0), (1.0, 0.0)]
        if metric.kind == "Data":
            return [(0.0, 1.0), (0.1, 0.2), (-1e6, 1e6)]
        if metric.kind == "Integer":  # an Integer parameter only ever holds integers
            return [(0.0, 1.0), (-1.0, 1.0), (-1.0, 0.0), (1.0, 2.0), (4.0, 5.0)]
        return [(0.0, 1.0), (-1.0, 1.0), (1e-9, 0.0)]
    shape = (n,) if metric.shape == "vector" else (n, d)
    ones, zeros = np.ones(shape), np.zeros(shape)
    flipped = ones.copy()
    if metric.shape == "matrix":
        flipped[0] = -flipped[0]
    else:
        flipped = -flipped
    pairs = [(ones, flipped), (ones, zeros), (zeros, np.full(shape, 1e3))]
    if metric.shape == "vector" and n >= 2:
        half = ones.copy()
        half[1:] = 0.0
        pairs.append((ones, half))
    if metric.clip is not None:
        pairs = [(_clip_rows(a, metric.clip), _clip_rows(b, metric.clip)) for a, b in pairs]
    if metric.kind == "Bool":  # entries of 0 or 1 only
        pairs = [((a > 0).astype(float), (b > 0).astype(float)) for a, b in pairs]
    return pairs


def extreme_records(metric: Metric, value: Any) -> list[tuple[Any, Any]]:
    """One record of a real dataset replaced by an extreme value (±1e6) or zeros.

    A record that jumps far outside the data's range is what exposes missing
    clipping; the pair keeps every other record, so it stays a neighbour.
    """
    if metric.shape in ("scalar", "tuple", "list"):
        return []
    base = np.array(value, dtype=float, copy=True)
    if base.size == 0:
        return []
    pairs = []
    for replacement in (1e6, -1e6, 0.0):
        other = base.copy()
        other[0] = replacement
        if metric.clip is not None:
            other = _clip_rows(other, metric.clip)
        pairs.append((base, other))
    return pairs


def measure(metric: Metric, a: Any, b: Any) -> float:
    """d(a, b) in the metric."""
    if metric.shape in ("tuple", "list"):
        # The sum of the components' distances; values of different lengths are
        # at no finite distance.
        if len(a) != len(b) or (metric.shape == "tuple" and len(a) != len(metric.parts)):
            return math.inf
        parts = metric.parts if metric.shape == "tuple" else metric.parts * len(a)
        return float(sum(measure(part, x, y) for part, x, y in zip(parts, a, b)))
    if metric.shape == "scalar":
        return scalar_distance(metric.kind, float(a), float(b))
    return distance(metric.norm, metric.kind, np.asarray(a, dtype=float), np.asarray(b, dtype=float))


def _element(kind: str, value: float) -> float:
    if kind in ("Integer",):
        return float(round(value))
    if kind == "Bool":
        return float(value > 0)
    return value


def _changed_row(metric: Metric, row: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if metric.kind == "Integer":  # integer rows stay integers (steps of 1 to 3 per entry)
        return row + rng.integers(-3, 4, size=row.shape)
    if metric.kind == "Data" or rng.random() < 0.3:
        return rng.normal(0, float(rng.choice([1.0, 10.0])), size=row.shape)
    return row + rng.normal(0, float(rng.choice([1e-3, 0.5])), size=row.shape)


def _changed_vector(metric: Metric, v: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    count = int(rng.integers(1, max(2, v.shape[0] // 2 + 1)))
    where = rng.choice(v.shape[0], size=min(count, v.shape[0]), replace=False)
    if metric.kind == "Data":
        v[where] = rng.normal(0, 10, size=len(where))
    elif metric.kind == "Integer":
        v[where] += rng.integers(1, 4, size=len(where)) * rng.choice([-1, 1], size=len(where))
    else:
        v[where] += rng.normal(0, float(rng.choice([1e-3, 0.5, 5.0])), size=len(where))
    return v


def _clip_rows(values: np.ndarray, norm: str) -> np.ndarray:
    from dpsens.runtime.builtins import clip

    return clip(norm, values)
