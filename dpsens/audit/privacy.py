"""A statistical test of a privacy function's (ε, δ) claim (in the spirit of StatDP / DP-Sniper).

For one non-static parameter x at a time (the others fixed):

1. **Candidates.**  Datasets x and neighbours x' at distance <= 1 in the
   declared metric (``privacy_pairs``): random ones and adversarial ones (a
   record replaced by an extreme or boundary value, every score shifted).
2. **Selection.**  The function runs a few times on every candidate input,
   then ``selection_runs`` times on the most promising pairs (successive
   halving).  Its outputs are projected to numbers (the value; for vectors
   each coordinate, the sum, max, min, argmax and a linear discriminant
   fitted on these runs, a one-step DP-Sniper), and events
   S = {projection >= t}, {<= t}, {== v} are formed at the quantiles of the
   pooled outputs.  Every (pair, event, direction) is scored by a lenient
   lower bound on ε; the best three pairs go on.
3. **Test.**  On *fresh* runs (``runs`` per input, so the selection cannot
   bias the test) the chosen events are counted and Clopper–Pearson bounds
   give, with confidence 1 − α (Bonferroni over the tested candidates),
   ε >= ln((P_lo[M(x) ∈ S] − δ) / P_hi[M(x') ∈ S]).  A lower bound above
   the claimed ε is a counterexample.

A test can refute a claim, never prove it: "no counterexample" means that
the events tried did not separate the output distributions by more than
the claim allows at this sample size.  A false alarm on a correct claim has
probability at most 1 − confidence (the selection and the test use
independent runs).  ``max_seconds`` scales the runs (and then the number of
pairs) down for slow functions; the outcome says so.

Randomness is deterministic given a seed: the auditor's draws use a numpy
Generator, and while the function runs the dpsens mechanisms read a seeded
integer source (``dpsens.runtime.rng``), numpy's legacy global generator and
``random`` are seeded too.  (An audit is a test, not a release: the secure
default source is restored afterwards.)
"""

from __future__ import annotations

import contextlib
import itertools
import math
import random
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from dpsens.audit import privacy_pairs, stats
from dpsens.audit.metric_types import Metric, parse
from dpsens.audit.sensitivity import _dims, _lengths, evaluate, holds

SHAPES = [(8, 3), (6, 2), (10, 4), (5, 1)]
VECTOR = 20  # vectors are tried at this length first: many scores make room for violations
SELECTION_ALPHA = 0.2  # lenient: selection only ranks candidates
TESTED = 3  # candidates re-run in the test phase (Bonferroni over them)
MAX_COORDINATES = 8
QUANTILES = [0.001, 0.003, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
             0.95, 0.98, 0.99, 0.997, 0.999]


Claim = tuple[float, float]
Pair = tuple[str, Any, Any]  # (label, x, x')


@dataclass(frozen=True)
class Event:
    """S = {projection(output) op threshold}."""

    projection: str
    op: str
    threshold: float

    def describe(self) -> str:
        name = "output" if self.projection == "value" else f"{self.projection} of the output"
        if self.projection == "discriminant":
            name = "the output's projection on the discriminant direction"
        if self.projection == "repr":
            return f"output is the value #{int(self.threshold)} seen"
        value = "None" if self.threshold == -math.inf else f"{self.threshold:.6g}"
        return f"{name} {self.op} {value}"


@dataclass
class Candidate:
    """A pair of neighbouring inputs and an event on which they differ most."""

    parameter: str
    label: str
    inputs: tuple[Any, Any]  # (x, x') in the direction P[M(x) ∈ S] > P[M(x') ∈ S]
    changed: int  # which of the two is the base dataset with a record changed (0 or 1)
    event: Event
    claimed: tuple[float, float]
    score: float = -math.inf  # the selection-phase bound
    projector: Any = None  # how outputs became numbers in the selection phase
    pair: Any = None  # (label, base, neighbour) as drawn
    # test phase:
    hits: tuple[int, int] = (0, 0)
    runs: tuple[int, int] = (0, 0)
    intervals: tuple[tuple[float, float], tuple[float, float]] = ((0.0, 1.0), (0.0, 1.0))
    epsilon_lower: float = -math.inf
    samples: tuple[Any, Any] = (None, None)  # one output on each input


@dataclass
class PrivacyOutcome:
    """What the statistical test found."""

    runs: int = 0  # runs per input in the test phase
    selection_runs: int = 0  # runs per input of the promising pairs in the selection phase
    screening_runs: int = 0  # runs per input of every pair in the first selection round
    promising: int = 0  # pairs kept for the second selection round
    confidence: float = 0.99
    tested: list[Candidate] = field(default_factory=list)
    violations: list[Candidate] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # parameter -> why not tested
    pairs: int = 0  # neighbouring pairs tried in the selection phase
    reduced: bool = False  # trials were reduced to respect the time budget
    claims: dict[str, Claim] = field(default_factory=dict)  # parameter -> (ε, δ) at the drawn sizes
    error: str | None = None  # why nothing could run

    @property
    def best(self) -> Candidate | None:
        return max(self.tested, key=lambda c: c.epsilon_lower - c.claimed[0], default=None)


def audit_privacy(function: Callable[..., Any], report: Mapping[str, Any],
                  statics: Mapping[str, Any], runs: int = 5000, seed: int = 0,
                  claim: Claim | None = None, confidence: float = 0.99,
                  selection_runs: int | None = None, max_seconds: float | None = None,
                  dims: Mapping[str, Mapping[str, int]] | None = None) -> PrivacyOutcome:
    """Try to refute the (ε, δ) claim of a privacy function's report (or of ``claim``).

    ``runs``: executions per input in the test phase; ``selection_runs``
    (default runs // 5, at least 100) per promising candidate input before
    it (every candidate gets a quarter of that first: successive halving).
    ``max_seconds`` scales the runs down when the function is slow.
    ``dims`` fixes sizes: {"data": {"rows": 100, "cols": 3}}.
    """
    rng = np.random.default_rng(seed)
    outcome = PrivacyOutcome(confidence=confidence)
    selection = selection_runs if selection_runs is not None else max(100, runs // 5)
    params = [p for p in report["params"] if not p["static"]]
    metrics = {p["name"]: parse(p["type"]) for p in params}
    unknown = [name for name, m in metrics.items() if m is None or m.shape == "list"
               or m.shape == "tuple" and any(part.shape in ("tuple", "list") for part in m.parts)]
    if unknown:
        outcome.error = (f"cannot draw values of {', '.join(repr(n) for n in unknown)} "
                         f"(type {', '.join(_type(report, n) for n in unknown)})")
        return outcome
    with seeded_mechanisms(seed):
        args, assumed, last_error = _base_arguments(function, metrics, statics, report, rng, dims)  # type: ignore[arg-type]
        if args is None:
            outcome.error = ("the function did not run on any input drawn for its declared types "
                             f"(last error: {last_error})")
            if not assumed:
                outcome.error = (f"the reported assumptions ({', '.join(report['assumptions'])}) "
                                 "do not hold at the sizes tried; bind sizes that satisfy them, "
                                 "e.g. --bind 'len(x)=2000'")
            return outcome
        sizes = _dims(metrics, args)  # type: ignore[arg-type]
        plans = []
        for param in params:
            name = param["name"]
            wanted = claim if claim is not None else (
                evaluate(param["epsilon"], statics, sizes), evaluate(param["delta"], statics, sizes))
            outcome.claims[name] = wanted
            if math.isinf(wanted[0]) or wanted[1] >= 1:
                outcome.skipped[name] = f"the claim ε={wanted[0]:g}, δ={wanted[1]:g} cannot be refuted"
                continue
            plans.append((name, wanted))
        if not plans:
            return outcome
        budget = _Budget(max_seconds)
        per_run = _time_per_run(function, args, statics)
        samplers = {name: _Sampler(function, args, statics, name, budget) for name, _ in plans}
        pairs = [(name, wanted, pair) for name, wanted in plans
                 for pair in _inputs(function, metrics[name], args, name, statics, rng)]  # type: ignore[arg-type]
        inputs = len({(name, id(v)) for name, _, (_, x, y) in pairs for v in (x, y)})
        kept = max(2 * TESTED, math.ceil(len(pairs) / 5))
        first = max(30, selection // 4)
        planned = inputs * first + 2 * kept * (selection - first) + 2 * TESTED * runs
        if max_seconds is not None and planned * per_run > max_seconds:
            # Fewer runs, then fewer pairs (the pairs are ordered so that every base
            # dataset and the adversarial changes come first).
            room = max_seconds / per_run
            factor = room / planned
            runs, selection = max(50, int(runs * factor)), max(20, int(selection * factor))
            first = max(10, selection // 4)
            left = room - 2 * TESTED * runs - 2 * kept * (selection - first)
            pairs = _truncate(pairs, max(2, int(left / (2 * first))))
            outcome.reduced = True
        # Successive halving: every pair on a few runs, the promising ones on all.
        ranked = _ranked(samplers, pairs, first, outcome)
        promising = _distinct(ranked, kept)
        outcome.promising = len(promising)
        factor = budget.scale(2 * len(promising) * (selection - first) + 2 * TESTED * runs)
        if factor < 1:  # the first round was slower than timed: fit the rest in what is left
            selection, runs = max(first, int(selection * factor)), max(50, int(runs * factor))
            outcome.reduced = True
        outcome.selection_runs, outcome.runs, outcome.screening_runs = selection, runs, first
        ranked = _ranked(samplers, [(c.parameter, c.claimed, c.pair) for c in promising],
                         selection, None)
        chosen = _distinct(ranked, TESTED)
        alpha = (1 - confidence) / max(1, len(chosen))
        for candidate in chosen:
            _test(samplers[candidate.parameter], candidate, runs, alpha)
            outcome.tested.append(candidate)
            if candidate.epsilon_lower > candidate.claimed[0] * (1 + 1e-9):
                outcome.violations.append(candidate)
    outcome.violations.sort(key=lambda c: c.epsilon_lower - c.claimed[0], reverse=True)
    return outcome


def _time_per_run(function: Callable[..., Any], args: Mapping[str, Any],
                  statics: Mapping[str, Any]) -> float:
    """The median time of three runs (at least 10 µs)."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        _run(function, args, statics)
        times.append(time.perf_counter() - started)
    return max(sorted(times)[1], 1e-5)


@dataclass
class _Budget:
    """Runs done and time spent, to keep an audit within its time limit."""

    seconds: float | None
    started: float = field(default_factory=time.perf_counter)
    runs: int = 0

    def scale(self, planned_runs: int) -> float:
        """The factor (<= 1) by which the planned remaining runs fit in the remaining time."""
        if self.seconds is None or self.runs == 0:
            return 1.0
        elapsed = time.perf_counter() - self.started
        per_run = elapsed / self.runs
        remaining = max(self.seconds - elapsed, 0.0)
        return min(1.0, remaining / max(per_run * planned_runs, 1e-9))


class _Sampler:
    """Outputs of the function on inputs of one parameter, kept per phase.

    The selection phase extends its outputs as runs are added; the test
    phase draws its own, never reusing selection outputs (several tested
    candidates may share an input's test outputs: the Bonferroni bound holds
    under any dependence).
    """

    def __init__(self, function: Callable[..., Any], args: Mapping[str, Any],
                 statics: Mapping[str, Any], name: str, budget: _Budget) -> None:
        self.function, self.args, self.statics, self.name = function, args, statics, name
        self.budget = budget
        self.selection: dict[int, list[Any]] = {}
        self.test: dict[int, list[Any]] = {}
        self.failed: set[int] = set()

    def outputs(self, value: Any, runs: int, test: bool = False) -> list[Any] | None:
        key = id(value)
        if key in self.failed:
            return None
        store = self.test if test else self.selection
        have = store.setdefault(key, [])
        call = {**self.args, self.name: value}
        arrays = [k for k, v in call.items() if isinstance(v, np.ndarray)]
        function, statics = self.function, self.statics
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                while len(have) < runs:
                    # Fresh copies: a function that mutates its input must not change the next run's.
                    fresh = {**call, **{k: call[k].copy() for k in arrays}}
                    have.append(function(**fresh, **statics))
                    self.budget.runs += 1
        except Exception:  # noqa: BLE001 - user code may reject any input
            self.failed.add(key)
            return None
        return have[:runs]


@contextlib.contextmanager
def seeded_mechanisms(seed: int) -> Iterator[None]:
    """Seed the dpsens mechanisms' source, numpy's global generator and ``random``."""
    from dpsens.runtime import rng as runtime_rng

    saved_source = runtime_rng._SYSTEM
    saved_numpy = np.random.get_state()
    saved_random = random.getstate()
    runtime_rng._SYSTEM = runtime_rng.GeneratorSource(np.random.default_rng([seed, 1]))  # type: ignore[assignment]
    np.random.seed(seed % 2**32)
    random.seed(seed)
    try:
        yield
    finally:
        runtime_rng._SYSTEM = saved_source
        np.random.set_state(saved_numpy)
        random.setstate(saved_random)


def _type(report: Mapping[str, Any], name: str) -> str:
    return next(str(p["type"]) for p in report["params"] if p["name"] == name)


def _run(function: Callable[..., Any], args: Mapping[str, Any], statics: Mapping[str, Any]) -> Any:
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(**args, **statics)


def _base_arguments(function: Callable[..., Any], metrics: Mapping[str, Metric],
                    statics: Mapping[str, Any], report: Mapping[str, Any],
                    rng: np.random.Generator,
                    dims: Mapping[str, Mapping[str, int]] | None
                    ) -> tuple[dict[str, Any] | None, bool, str]:
    """Inputs the function accepts, of the first shape that works (vectors: n, d or d − 1).

    Also whether the reported assumptions held at any of the sizes tried, and
    the last error the function raised.
    """
    assumed, last_error = False, "none"
    shapes = SHAPES
    if dims:
        first = next(iter(dims.values()))
        shapes = [(first.get("rows", first.get("len", 8)), first.get("cols", 3))]
    vectors = [name for name, m in metrics.items() if m.shape == "vector"]
    for n, d in shapes:
        # Longest vectors first: more scores make more room for a violation.
        lengths_tried = [VECTOR] + sorted(_lengths(n, d), reverse=True)
        for lengths in itertools.product(lengths_tried, repeat=len(vectors)):
            choices = {}
            for name, metric in metrics.items():
                rows, cols = n, d
                if dims and name in dims:
                    rows = dims[name].get("rows", dims[name].get("len", n))
                    cols = dims[name].get("cols", d)
                elif name in vectors:
                    rows = lengths[vectors.index(name)]
                choices[name] = [value for _, value in privacy_pairs.bases(metric, rows, cols, rng)]
            first = {name: values[0] for name, values in choices.items()}
            if not all(holds(c, statics, _dims(metrics, first)) for c in report["assumptions"]):
                continue
            assumed = True
            # The first base dataset of every parameter, else the k-th of all (zeros, ...).
            for k in range(max(len(v) for v in choices.values())):
                args = {name: values[min(k, len(values) - 1)] for name, values in choices.items()}
                try:
                    _run(function, args, statics)
                except Exception as error:  # noqa: BLE001 - user code may reject any input
                    last_error = f"{type(error).__name__}: {error}"
                    continue
                return args, True, last_error
    return None, assumed, last_error


def _inputs(function: Callable[..., Any], metric: Metric, args: Mapping[str, Any], name: str,
            statics: Mapping[str, Any], rng: np.random.Generator) -> list[tuple[str, Any, Any]]:
    """Neighbouring pairs (label, x, x') of one parameter that the function accepts."""
    value = args[name]
    if metric.shape == "tuple":  # the sizes of its first array component
        value = next((v for v in value if np.ndim(v) > 0), 0.0)
    shape = np.shape(value)
    n = shape[0] if shape else 1
    d = shape[1] if len(shape) == 2 else 1
    per_base = []
    for base_label, base in privacy_pairs.bases(metric, n, d, rng):
        if not _accepts(function, {**args, name: base}, statics):
            continue
        per_base.append([(f"{base_label}; {label}", base, other)
                         for label, other in privacy_pairs.neighbours(metric, base, rng)])
    # Round robin over the base datasets, so that a truncated list still covers all of them.
    return [pair for group in itertools.zip_longest(*per_base) for pair in group if pair is not None]


def _truncate(pairs: list[tuple[str, Claim, Pair]], count: int) -> list[tuple[str, Claim, Pair]]:
    return pairs[:count]


def _accepts(function: Callable[..., Any], args: Mapping[str, Any], statics: Mapping[str, Any]) -> bool:
    try:
        _run(function, args, statics)
    except Exception:  # noqa: BLE001 - user code may reject any input
        return False
    return True


class _Projector:
    """Numbers from outputs: the value, or for vectors coordinates, sum, max, min, argmax.

    For vectors of one length, ``fit`` adds a linear discriminant: the dot
    product with the difference of the mean outputs on the two inputs (a
    one-step version of DP-Sniper's classifier).  It is fitted on selection
    runs only, so the test phase stays independent of it.
    """

    def __init__(self, sample: Sequence[Any]) -> None:
        self.codes: dict[str, int] = {}
        self.direction: np.ndarray | None = None
        kinds = {_kind(y) for y in sample}
        if kinds <= {"scalar"}:
            self.names = ["value"]
        elif kinds <= {"vector"}:
            longest = max(np.size(y) for y in sample)
            self.names = ["sum", "max", "min", "argmax"] + [
                f"coordinate {i}" for i in range(min(longest, MAX_COORDINATES))]
            if len({np.size(y) for y in sample}) > 1:
                self.names.append("length")
        else:
            self.names = ["repr"]

    def fit(self, a: Sequence[Any], b: Sequence[Any]) -> None:
        """Add the discriminant direction mean(a) − mean(b) when outputs are same-length vectors."""
        if "sum" not in self.names or "length" in self.names:
            return
        try:
            va, vb = (np.array([np.asarray(y, dtype=float).ravel() for y in s]) for s in (a, b))
        except (TypeError, ValueError):
            return
        if va.ndim != 2 or vb.ndim != 2 or va.shape[1] < 2 or va.shape[1] != vb.shape[1]:
            return
        with np.errstate(all="ignore"):
            direction = np.nan_to_num(va.mean(axis=0) - vb.mean(axis=0))
        if np.any(direction):
            self.direction = direction
            self.names.append("discriminant")

    def project(self, outputs: Sequence[Any]) -> dict[str, np.ndarray]:
        return {name: np.array([self.one(name, y) for y in outputs], dtype=float)
                for name in self.names}

    def one(self, name: str, y: Any) -> float:
        """The projection ``name`` of one output."""
        if name == "repr":
            return float(self.codes.setdefault(repr(y), len(self.codes)))
        if name == "value":
            return -math.inf if y is None else float(y)
        try:
            v = np.asarray(y, dtype=float).ravel()
        except (TypeError, ValueError):
            return math.nan
        if name == "length":
            return float(v.size)
        if v.size == 0:
            return math.nan
        if name == "discriminant":
            assert self.direction is not None
            return float(v @ self.direction) if v.size == self.direction.size else math.nan
        if name.startswith("coordinate"):
            i = int(name.split()[1])
            return float(v[i]) if i < v.size else math.nan
        if name == "argmax":
            return float(np.argmax(v))
        if name == "max":
            return float(np.max(v))
        if name == "min":
            return float(np.min(v))
        return float(np.sum(v))


def _kind(y: Any) -> str:
    if y is None or isinstance(y, (bool, int, float, np.number, np.bool_)):
        return "scalar"
    if isinstance(y, np.ndarray) and y.ndim == 0:
        return "scalar"
    try:
        v = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        return "other"
    return "vector" if v.ndim >= 1 else "scalar"


def _events(name: str, pooled: np.ndarray) -> list[Event]:
    values = pooled[~np.isnan(pooled)]
    if values.size == 0:
        return []
    distinct = np.unique(values)
    if name == "repr":
        return [Event(name, "==", float(v)) for v in distinct]
    if distinct.size <= 40:
        return [Event(name, op, float(v)) for v in distinct for op in ("==", "<=", ">=")]
    thresholds = np.unique(np.quantile(values, QUANTILES, method="nearest"))
    return [Event(name, op, float(t)) for t in thresholds for op in ("<=", ">=")]


def _hits(event: Event, values: np.ndarray) -> int:
    if event.op == "==":
        return int(np.count_nonzero(values == event.threshold))
    if event.op == "<=":
        return int(np.count_nonzero(values <= event.threshold))
    return int(np.count_nonzero(values >= event.threshold))


def _ranked(samplers: Mapping[str, _Sampler], pairs: Sequence[tuple[str, Claim, Pair]], runs: int,
            outcome: PrivacyOutcome | None) -> list[Candidate]:
    """The best event of every pair on ``runs`` selection runs, best first."""
    found = []
    for name, claimed, pair in pairs:
        _, x, other = pair
        a = samplers[name].outputs(x, runs)
        b = samplers[name].outputs(other, runs)
        if a is None or b is None:
            continue
        if outcome is not None:
            outcome.pairs += 1
        best = _best_event(name, claimed, pair, a, b)
        if best is not None:
            found.append(best)
    return sorted(found, key=lambda c: c.score - c.claimed[0], reverse=True)


def _best_event(name: str, claimed: Claim, pair: Pair, a: list[Any], b: list[Any]) -> Candidate | None:
    label, x, other = pair
    projector = _Projector(a[:50] + b[:50])
    projector.fit(a, b)
    pa, pb = projector.project(a), projector.project(b)
    runs = len(a)
    best: Candidate | None = None
    for projection in projector.names:
        for event in _events(projection, np.concatenate([pa[projection], pb[projection]])):
            ha, hb = _hits(event, pa[projection]), _hits(event, pb[projection])
            for (h1, h2), inputs, changed in (((ha, hb), (x, other), 1), ((hb, ha), (other, x), 0)):
                if h1 <= h2:
                    continue
                score = stats.epsilon_lower_bound(h1, h2, runs, runs, claimed[1], SELECTION_ALPHA)
                if best is None or score > best.score:
                    best = Candidate(name, label, inputs, changed, event, claimed, score, projector,
                                     pair)
    return best


def _distinct(ranked: list[Candidate], count: int) -> list[Candidate]:
    """The best ``count`` candidates, at most one per pair of inputs."""
    chosen: list[Candidate] = []
    for candidate in ranked:
        if len(chosen) == count:
            break
        if any(c.parameter == candidate.parameter and c.label == candidate.label for c in chosen):
            continue
        chosen.append(candidate)
    return chosen


def _test(sampler: _Sampler, candidate: Candidate, runs: int, alpha: float) -> None:
    """Fresh runs on both inputs; Clopper–Pearson bounds and the ε lower bound."""
    x, other = candidate.inputs
    a = sampler.outputs(x, runs, test=True)
    b = sampler.outputs(other, runs, test=True)
    if a is None or b is None:
        return
    projector, projection = candidate.projector, candidate.event.projection
    pa = np.array([projector.one(projection, y) for y in a], dtype=float)
    pb = np.array([projector.one(projection, y) for y in b], dtype=float)
    h1, h2 = _hits(candidate.event, pa), _hits(candidate.event, pb)
    candidate.hits, candidate.runs = (h1, h2), (runs, runs)
    candidate.intervals = (
        (stats.lower_bound(h1, runs, alpha / 2), stats.upper_bound(h1, runs, alpha / 2)),
        (stats.lower_bound(h2, runs, alpha / 2), stats.upper_bound(h2, runs, alpha / 2)))
    candidate.epsilon_lower = stats.epsilon_lower_bound(h1, h2, runs, runs, candidate.claimed[1], alpha)
    candidate.samples = (a[0], b[0])


__all__ = ["Candidate", "Event", "PrivacyOutcome", "audit_privacy", "seeded_mechanisms"]
