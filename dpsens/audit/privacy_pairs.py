"""Neighbouring datasets for the privacy audit: pairs at distance exactly in (0, 1].

Differential privacy speaks about inputs at distance <= 1 only, so unlike
the sensitivity audit (any distance, then a ratio) every pair drawn here is
checked to be at a distance in (0, 1] of the declared metric.  Candidates are
the cases that break wrong mechanisms in practice (StatDP, DP-Sniper):

* a record (row, or entry of a Data vector) replaced by an extreme value
  (±1e6), by zeros, ones, its value + 1, or another record's value;
* under an L_inf Data vector, every entry replaced at once;
* real inputs moved by a unit step: one coordinate, or every coordinate at
  once by the largest step the norm allows (±1 under L_inf, which shifts all
  scores of a noisy max together), alternating signs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpsens.audit.metric_types import Metric
from dpsens.audit.neighbours import measure

EXTREME = 1e6
CATEGORIES = 4


def bases(metric: Metric, n: int, d: int, rng: np.random.Generator) -> list[tuple[str, Any]]:
    """Labelled candidate datasets x of the metric's shape (n rows or entries, d columns)."""
    if metric.shape == "tuple":
        # The k-th candidate of every component together (as many as the fewest has).
        drawn = [bases(part, n, d, rng) for part in metric.parts]
        return [("(" + ", ".join(label for label, _ in chosen) + ")",
                 tuple(value for _, value in chosen)) for chosen in zip(*drawn)]
    if metric.shape == "scalar":
        values = {"Real": [0.0, 1.0, -3.0, 100.0], "Integer": [0.0, 1.0, -3.0, 100.0],
                  "Data": [0.0, 1.0, 0.5], "Bool": [0.0, 1.0]}.get(metric.kind, [0.0, 1.0])
        return [(f"{v:g}", _typed(metric, v)) for v in values]
    shape = (n,) if metric.shape == "vector" else (n, d)
    top = 2 if metric.kind == "Bool" else CATEGORIES
    step = 1 if metric.kind == "Integer" else 2
    found = [
        ("small integer categories", rng.integers(0, top, size=shape).astype(float)),
        ("zeros", np.zeros(shape)),
        ("distinct values", np.arange(float(np.prod(shape))).reshape(shape) / step),
    ]
    if metric.kind not in ("Integer", "Bool"):
        found += [("normal", rng.normal(0, 3, size=shape)),
                  ("uniform in [0, 1)", rng.random(size=shape))]
    if metric.clip is not None:
        found = [(label, _clip(value, metric.clip)) for label, value in found]
    return [(label, _typed(metric, value)) for label, value in found]


def neighbours(metric: Metric, base: Any, rng: np.random.Generator) -> list[tuple[str, Any]]:
    """Labelled x' at a distance in (0, 1] from base."""
    if metric.shape == "tuple":
        # One component moved by at most 1, the others kept: the tuple moves by as much.
        return [(f"component {i}: {label}", (*base[:i], other, *base[i + 1:]))
                for i, part in enumerate(metric.parts)
                for label, other in neighbours(part, base[i], rng)]
    base = np.asarray(base, dtype=float) if metric.shape != "scalar" else float(base)
    if metric.shape == "scalar":
        candidates = _scalar(metric, float(base))
    elif metric.shape == "vector":
        candidates = _vector(metric, np.asarray(base, dtype=float))
    else:
        candidates = _matrix(metric, np.asarray(base, dtype=float))
    out = []
    seen: list[Any] = []
    for label, value in candidates:
        if metric.clip is not None:
            value = _clip(value, metric.clip)
        try:
            d = measure(metric, base, value)
        except (ValueError, TypeError):
            continue
        if not 0 < d <= 1 + 1e-12 or any(np.array_equal(value, s) for s in seen):
            continue
        seen.append(value)
        out.append((label, _typed(metric, value)))
    return out


def _typed(metric: Metric, value: Any) -> Any:
    """Integer inputs as Python / numpy integers (functions may insist on them)."""
    if metric.kind != "Integer" or np.any(np.abs(np.asarray(value, dtype=float)) > 2**53):
        return value
    if metric.shape == "scalar":
        return int(value)
    return np.asarray(value).astype(np.int64)


def _scalar(metric: Metric, x: float) -> list[tuple[str, Any]]:
    if metric.kind in ("Data",):
        return [("+1", x + 1), ("extreme", EXTREME), ("-extreme", -EXTREME), ("zero", 0.0)]
    if metric.kind == "Bool":
        return [("flipped", 1.0 - float(x != 0))]
    steps = [1.0, -1.0] if metric.kind == "Integer" else [1.0, -1.0, 0.5]
    return [(f"{s:+g}", x + s) for s in steps]


def _records(metric: Metric, record: np.ndarray, others: list[np.ndarray]) -> list[tuple[str, np.ndarray]]:
    """Replacements of one record (a row, or one entry as a 0-d array)."""
    out = [("extreme", np.full_like(record, EXTREME)), ("-extreme", np.full_like(record, -EXTREME)),
           ("zeros", np.zeros_like(record)), ("ones", np.ones_like(record)), ("+1", record + 1),
           ("-1", record - 1)]
    for i, other in enumerate(others):
        if not np.array_equal(other, record):
            out.append((f"copy of record {i + 1}", other.copy()))
    return out


def _steps(metric: Metric, size: int) -> list[tuple[str, np.ndarray]]:
    """Unit steps in the norm of a real vector of the given size."""
    one = np.zeros(size)
    one[0] = 1.0
    out = [("+1 on the first coordinate", one), ("-1 on the first coordinate", -one)]
    if size > 1:
        if metric.norm == "L_inf":
            alternating = np.where(np.arange(size) % 2 == 0, 1.0, -1.0)
            out += [("+1 on every coordinate", np.ones(size)),
                    ("-1 on every coordinate", -np.ones(size)),
                    ("alternating ±1", alternating)]
        elif metric.norm == "L2":
            out.append(("+1/sqrt(n) on every coordinate", np.ones(size) / np.sqrt(size)))
        else:
            out.append(("+1/n on every coordinate", np.ones(size) / size))
    if metric.kind == "Integer":
        out = [(label, step) for label, step in out if np.all(step == np.round(step))]
    return out


def _vector(metric: Metric, v: np.ndarray) -> list[tuple[str, Any]]:
    if metric.kind in ("Data", "Bool"):
        if metric.kind == "Bool":
            flipped = v.copy()
            flipped[0] = 1.0 - float(v[0] != 0)
            out = [("first entry flipped", flipped)]
            if metric.norm == "L_inf":
                out.append(("every entry flipped", 1.0 - (v != 0)))
            return out
        out = []
        others = [v[i:i + 1] for i in range(1, min(len(v), 4))]
        for label, entry in _records(metric, v[0:1], others):
            changed = v.copy()
            changed[0] = entry[0]
            out.append((f"first entry: {label}", changed))
        if metric.norm == "L_inf":
            out += [("every entry extreme", np.full_like(v, EXTREME)),
                    ("every entry +1", v + 1), ("reversed", v[::-1].copy())]
        return out
    return [(label, v + step) for label, step in _steps(metric, len(v))]


def _matrix(metric: Metric, m: np.ndarray) -> list[tuple[str, Any]]:
    if m.shape[0] == 0:
        return []
    out = []
    if metric.kind in ("Data", "Bool") and metric.norm == "L_inf":
        others = [m[i] for i in range(1, min(m.shape[0], 4))]
        for label, row in _records(metric, m[0], others):
            changed = m.copy()
            changed[0] = row
            out.append((f"first row: {label}", changed))
    elif metric.kind in ("Data", "Bool"):  # (L1|L2, Data) rows: one entry changes
        others = [m[i, 0:1] for i in range(1, min(m.shape[0], 4))]
        for label, entry in _records(metric, m[0, 0:1], others):
            changed = m.copy()
            changed[0, 0] = entry[0]
            out.append((f"first entry of the first row: {label}", changed))
    else:
        for label, step in _steps(metric, m.shape[1]):
            changed = m.copy()
            changed[0] = changed[0] + step
            out.append((f"first row: {label}", changed))
    return out


def _clip(values: Any, norm: str) -> Any:
    from dpsens.runtime.builtins import clip

    return clip(norm, values)
