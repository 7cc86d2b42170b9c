"""Try to falsify a reported sensitivity by running the function on neighbouring inputs."""

from __future__ import annotations

import itertools
import math
import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from dpsens.audit import neighbours
from dpsens.audit.metric_types import Metric, parse

SHAPES = [(4, 3), (1, 2), (6, 1), (3, 5)]
TOLERANCE = 1e-9
ROUNDING_ULPS = 512  # accumulated float64 rounding of an output, in units in its last place


@dataclass
class Violation:
    """A pair of inputs whose outputs are further apart than the reported bound allows."""

    parameter: str
    claimed: float
    ratio: float
    inputs: tuple[Any, Any]
    outputs: tuple[Any, Any]


@dataclass
class Outcome:
    """What an audit of one function found."""

    trials: int
    violations: list[Violation]
    worst_ratio: dict[str, float]
    # the largest observed ratio divided by the claim at the same sizes (<= 1 when the claim held)
    worst_fraction: dict[str, float] = field(default_factory=dict)


def holds(condition: str, statics: Mapping[str, float],
          dims: Mapping[str, Mapping[str, int]]) -> bool:
    """Whether a reported assumption is true at bound statics and dimensions."""
    for op in ("==", "<=", ">=", "<", ">"):
        left, found, right = condition.partition(f" {op} ")
        if found:
            a, b = evaluate(left, statics, dims), evaluate(right, statics, dims)
            return {"==": a == b, "<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b}[op]
    return True


def evaluate(text: str, statics: Mapping[str, float], dims: Mapping[str, Mapping[str, int]]) -> float:
    """The numeric value of a report expression at bound statics and dimensions."""
    import sympy as sp

    from dpsens.sym import expr as E

    names: dict[str, object] = {n: E.number(v) for n, v in statics.items()}
    for param in dims:
        names.setdefault(param, sp.Symbol(param))

    def size(name: str, kind: str) -> object:
        # A size of nothing the audit gave values (a callee's return): not falsifiable here.
        return sp.Integer(dims[name][kind]) if kind in dims.get(name, {}) else sp.oo

    def dimension(kind: str) -> Callable[[object], object]:
        return lambda symbol: size(str(symbol), kind)

    names.update({"rows": dimension("rows"), "cols": dimension("cols"), "len": dimension("len")})

    def component(match: re.Match[str]) -> str:  # len(p[0]): a size of a tuple's component
        placeholder = f"_component{len(names)}"
        names[placeholder] = size(f"{match.group(2)}[{match.group(3)}]", match.group(1))
        return placeholder

    value = E.parse(_COMPONENT_SIZE.sub(component, text), names)
    return float(value)


_COMPONENT_SIZE = re.compile(r"\b(rows|cols|len)\((\w+)\[(\d+)\]\)")


def audit_function(function: Callable[..., Any], report: Mapping[str, Any],
                   statics: Mapping[str, Any], trials: int = 200, seed: int = 0,
                   dims: Mapping[str, Mapping[str, int]] | None = None) -> Outcome:
    """Check d(f(x), f(x')) <= s·d(x, x') for every non-static parameter of a report.

    ``dims`` fixes the sizes of some parameters ({"data": {"rows": 100, "cols": 3}},
    {"v": {"len": 5}}), e.g. when the report was computed with bound dimensions.
    """
    rng = np.random.default_rng(seed)
    out_metric = parse(str(report["returns"]))
    params = [p for p in report["params"] if not p["static"]]
    metrics = {p["name"]: parse(p["type"]) for p in params}
    outcome = Outcome(0, [], {p["name"]: 0.0 for p in params})
    if out_metric is None or any(m is None for m in metrics.values()):
        return outcome
    shapes = SHAPES
    if dims:
        first = next(iter(dims.values()))
        shapes = [(first.get("rows", first.get("len", 4)), first.get("cols", 3))]
    for trial in range(trials):
        n, d = shapes[trial % len(shapes)]
        args = _arguments(function, metrics, statics, n, d, rng, dims)  # type: ignore[arg-type]
        if args is None or not all(holds(c, statics, _dims(metrics, args))  # type: ignore[arg-type]
                                   for c in report["assumptions"]):
            continue
        for param in params:
            name = param["name"]
            metric = metrics[name]
            assert metric is not None
            pairs = [(args[name], neighbours.neighbour(metric, args[name], rng))]
            if trial < len(shapes):
                pairs += neighbours.adversarial_pairs(metric, *_shape_of(args[name], n, d))
                pairs += neighbours.extreme_records(metric, args[name])
            for a, b in pairs:
                # (at the sizes of the inputs compared: a pair may have shapes of its own)
                claimed = evaluate(param["sensitivity"], statics,
                                   _dims(metrics, {**args, name: a}))  # type: ignore[arg-type]
                _compare(function, args, statics, name, metric, out_metric, claimed, a, b, outcome)
        outcome.trials += 1
    return outcome


def worst(outcome: Outcome) -> Violation | None:
    """The violation furthest above its claim (ratio / claimed), if any."""
    return max(outcome.violations, key=lambda v: v.ratio / v.claimed if v.claimed else math.inf,
               default=None)


def _compare(function: Callable[..., Any], args: dict[str, Any], statics: Mapping[str, Any],
             name: str, metric: Metric, out_metric: Metric, claimed: float, a: Any, b: Any,
             outcome: Outcome) -> None:
    d_in = neighbours.measure(metric, a, b)
    if d_in == 0:
        return
    try:
        fa = _quietly(function, {**args, name: a}, statics)
        fb = _quietly(function, {**args, name: b}, statics)
    except Exception:  # noqa: BLE001 - user code may reject any input: not a point to compare
        return
    try:
        d_out = neighbours.measure(out_metric, fa, fb)
    except (ValueError, TypeError):
        return  # NaN or a shape the declared metric does not describe: not a point to compare
    ratio = d_out / d_in
    outcome.worst_ratio[name] = max(outcome.worst_ratio[name], ratio)
    if claimed > 0 and not math.isinf(claimed):
        outcome.worst_fraction[name] = max(outcome.worst_fraction.get(name, 0.0), ratio / claimed)
    # Claims are about real arithmetic; float rounding of large outputs (a sum of 2,415
    # copies of x ≈ 6e5 is 340 ulps off) is no violation, a few hundred ulps of their size.
    rounding = ROUNDING_ULPS * float(np.spacing(max(_largest(fa), _largest(fb))))
    if d_out > claimed * d_in * (1 + TOLERANCE) + TOLERANCE + rounding:
        outcome.violations.append(Violation(name, claimed, ratio, (a, b), (fa, fb)))


def _largest(value: Any) -> float:
    """The largest magnitude among a result's numbers (0 when it has none)."""
    try:
        entries = np.abs(np.asarray(value, dtype=float))
    except (TypeError, ValueError):
        return 0.0
    return float(np.max(entries)) if entries.size and np.all(np.isfinite(entries)) else 0.0


def _arguments(function: Callable[..., Any], metrics: Mapping[str, Metric],
               statics: Mapping[str, Any], n: int, d: int, rng: np.random.Generator,
               dims: Mapping[str, Mapping[str, int]] | None = None) -> dict[str, Any] | None:
    """Inputs the function accepts: vectors of length n, d or d - 1 (shapes may be related)."""
    fixed = dims or {}
    vectors = [name for name, m in metrics.items() if m.shape == "vector" and name not in fixed]
    for lengths in itertools.product(_lengths(n, d), repeat=len(vectors)):
        args = {name: neighbours.draw(m, n, d, rng) for name, m in metrics.items()}
        for name, length in zip(vectors, lengths):
            args[name] = neighbours.draw(metrics[name], length, d, rng)
        for name, size in fixed.items():
            if name in metrics:
                rows = size.get("rows", size.get("len", n))
                args[name] = neighbours.draw(metrics[name], rows, size.get("cols", d), rng)
        try:
            _quietly(function, args, statics)
        except Exception:  # noqa: BLE001 - user code may reject any input
            continue
        return args
    return None


def _quietly(function: Callable[..., Any], args: Mapping[str, Any],
             statics: Mapping[str, Any]) -> Any:
    """Run the function without numpy's warnings (e.g. the mean of an empty slice is NaN).

    Arrays are passed as copies: a function that mutates its input must not
    change the inputs the audit measures or passes to the next run.
    """
    fresh = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in args.items()}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return function(**fresh, **statics)


def _lengths(n: int, d: int) -> list[int]:
    return sorted({n, d, max(1, d - 1)})


def _array_shape(value: Any) -> tuple[int, ...]:
    """numpy's shape of a value; () for a tuple or list whose parts have different shapes."""
    try:
        return np.shape(value)
    except ValueError:
        return ()


def _shape_of(value: Any, n: int, d: int) -> tuple[int, int]:
    if isinstance(value, tuple) and value:  # a tuple's parts are built at its first's shape
        return _shape_of(value[0], n, d)
    shape = _array_shape(value)
    if len(shape) == 2:
        return shape[0], shape[1]
    if len(shape) == 1:
        return shape[0], d
    return n, d


def _dims(metrics: Mapping[str, Metric], args: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    out = {}
    for name in metrics:
        if isinstance(args[name], tuple):  # each component has sizes of its own: p[0], p[1]
            out.update(_dims({f"{name}[{k}]": metrics[name] for k in range(len(args[name]))},
                             {f"{name}[{k}]": part for k, part in enumerate(args[name])}))
        shape = _array_shape(args[name])
        if len(shape) == 2:
            out[name] = {"rows": shape[0], "cols": shape[1], "len": shape[0]}
        elif len(shape) == 1:
            out[name] = {"rows": shape[0], "len": shape[0]}
        else:
            out[name] = {}
    return out
