"""Amplification by subsampling is checked against the exact loss on neighbours.

test_privacy_cases.py skips every function that calls `sample`: its loss is not a
function of one released mean. For the simplest shape of such programs -- one
scalar Laplace release per run -- it still is known exactly. `sample(k, m1, m2)`
draws an ordered k-tuple S of distinct rows, each with probability (n-k)!/n!, so
the output density on x is the uniform mixture

    p_x(y) = avg_S Lap(y; μ_S(x), b),

μ_S(x) the released mean when the sample is S and b = s/ε the Laplace scale. This
module replaces the sample's random indices by an enumeration of every outcome
(the product over the calls when a run samples twice, or samples a sample), runs
the function once per outcome with the Laplace mechanism replaced by a recorder,
and computes the pure-DP loss ε* = sup_y |log p_x(y) − log p_x'(y)| for
neighbouring x, x'.

Between two consecutive means, each mixture is A·e^(y/b) + B·e^(−y/b), and the
ratio of two such functions is monotone in e^(2y/b); the supremum is therefore
attained at a mean of either mixture or in the limits y → ±∞, where the log-ratio
tends to log(avg_S e^(±μ_S(x)/b)) − log(avg_S e^(±μ_S(x')/b)). Both are
evaluated, and a grid between the means besides (a check of that argument).
A reported ε below ε* − 1e-9 is unsound. A run whose one release is Gaussian
(gaussian_mechanism, gaussian_mechanism_zcdp) gives a mixture of normals N(μ_S, σ²);
its exact privacy profile δ*(ε) = max of ∫ (p − e^ε p')⁺ in both orders is
integrated between the densities' crossings with normal CDFs, and a claim (ε, δ) is
unsound if δ < δ*(ε) − 1e-9. Negative controls show that an
amplification taken at half its sampling rate, or applied to a release that also
reads the whole dataset, is refuted.

Loading a case module, binding statics and evaluating a claim come from case_files.py,
shared with test_case_files.py and test_privacy_cases.py.
"""

from __future__ import annotations

import ast
import functools
import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator
from unittest import mock

import numpy as np
import pytest

from scipy.optimize import brentq
from scipy.special import ndtr

from dpsens.accounting.gaussian import analytic_gaussian_sigma, gaussian_delta
from dpsens.audit import privacy_pairs
from dpsens.audit.metric_types import Metric, parse
from dpsens.audit.neighbours import measure
from dpsens.check import check_paths
from dpsens.runtime import mechanisms

from case_files import CASES, claims_at, load, statics_of  # type: ignore[import-not-found]

HERE = Path(__file__).resolve().parent
# test_privacy_cases.py's shapes with room for a sample of 2 or 3 rows ((1, 2) has none).
SHAPES = ((6, 3), (3, 2))
TOLERANCE = 1e-9
GRID = 33  # points strictly between two consecutive means
# Mechanisms whose release this module does not model: reaching one makes a function unfit.
OTHERS = ("above_threshold", "report_noisy_max",
          "exponential_mechanism", "randomized_response", "shuffle", "kary_randomized_response",
          "local_laplace")
LAPLACE = ("laplace_mechanism", "laplacian_mechanism")
GAUSSIAN = ("gaussian_mechanism", "gaussian_mechanism_zcdp")
GAUSSIAN_REACH = 12.0  # δ* is integrated over the means ± this many σ (the rest has mass < 1e-32)
GAUSSIAN_STEP = 1 / 64  # the grid, in σ, on which the crossings of p and e^ε q are sought




class Unfit(Exception):
    """The function is not one scalar Laplace or Gaussian release of samples at the test shapes."""


# --- the case functions that sample ---------------------------------------------------

def _calls(function: ast.AST) -> set[str]:
    return {node.func.id for node in ast.walk(function)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}


def _sampling_functions(path: Path) -> set[str]:
    """Top-level functions of a case file that call `sample`, directly or through the file's
    other top-level functions."""
    tree = ast.parse(path.read_text())
    calls = {node.name: _calls(node) for node in tree.body if isinstance(node, ast.FunctionDef)}
    sampling = {name for name, called in calls.items() if "sample" in called}
    grown = True
    while grown:
        more = {name for name, called in calls.items() if called & sampling} - sampling
        sampling |= more
        grown = bool(more)
    return sampling


def _candidates() -> list[tuple[Path, dict[str, Any]]]:
    found: list[tuple[Path, dict[str, Any]]] = []
    for path in sorted(CASES.glob("*.py")):
        if "sample" not in path.read_text():
            continue
        sampling = _sampling_functions(path)
        for file in check_paths([str(path)]).files:
            found.extend((path, f) for f in file.functions
                         if f["kind"] == "privacy" and f["name"] in sampling)
    return found


FUNCTIONS = _candidates()
# --- every outcome of the samples ----------------------------------------------------

@functools.lru_cache(maxsize=None)
def _tuples(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every ordered k-tuple of distinct rows of n: the outcomes of one sample, equally likely."""
    return tuple(itertools.permutations(range(n), k))


class Script:
    """The sample's index draw, replaced by the outcomes the script names (0 past its end)."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = choices
        self.branching: list[int] = []  # the number of outcomes of each sample call so far

    def indices(self, n: int, k: int, _source: Any) -> list[int]:
        if not 0 <= k <= n:
            raise ValueError(f"cannot draw {k} distinct indices out of {n}")
        outcomes = _tuples(n, k)
        position = len(self.branching)
        choice = self.choices[position] if position < len(self.choices) else 0
        self.branching.append(len(outcomes))
        return list(outcomes[choice])


@dataclass
class Recorder:
    """Stand-ins for the mechanisms: Laplace and Gaussian releases recorded, as (mean, scale,
    kind), without noise; the scale is b = s/ε for Laplace and σ for Gaussian."""

    releases: list[tuple[float, float, str]] = field(default_factory=list)

    def laplace(self, s: float, eps: float, x: Any, **_: Any) -> Any:
        if not (s > 0 and eps > 0):
            raise ValueError("laplace_mechanism: s and eps must be positive")
        mean = np.array(x, dtype=float)
        if not np.isfinite(mean).all():
            raise ValueError("laplace_mechanism: x must be finite")
        if mean.size != 1:
            raise Unfit(f"a Laplace release of shape {mean.shape}, not a scalar")
        self.releases.append((float(mean.ravel()[0]), s / eps, "laplace"))
        return float(mean) if mean.ndim == 0 else mean

    def _gaussian(self, fn: str, sigma: float, x: Any) -> Any:
        mean = np.array(x, dtype=float)
        if not np.isfinite(mean).all():
            raise ValueError(f"{fn}: x must be finite")
        if mean.size != 1:
            raise Unfit(f"a Gaussian release of shape {mean.shape}, not a scalar")
        self.releases.append((float(mean.ravel()[0]), sigma, "gaussian"))
        return float(mean) if mean.ndim == 0 else mean

    def gaussian(self, s: float, eps: float, delta: float, x: Any, **_: Any) -> Any:
        """σ of the analytic Gaussian for sensitivity s (the runtime's discrete Gaussian adds
        the grid's rounding to s: a larger σ, so this σ is the conservative model)."""
        if not (s > 0 and eps > 0 and 0 < delta < 1):
            raise ValueError("gaussian_mechanism: s, eps must be positive and delta in (0, 1)")
        return self._gaussian("gaussian_mechanism", analytic_gaussian_sigma(s, eps, delta), x)

    def gaussian_zcdp(self, s: float, rho: float, x: Any, **_: Any) -> Any:
        """σ² = s²/(2ρ)."""
        if not (s > 0 and rho > 0):
            raise ValueError("gaussian_mechanism_zcdp: s and rho must be positive")
        return self._gaussian("gaussian_mechanism_zcdp", s / math.sqrt(2 * rho), x)

    @staticmethod
    def other(name: str) -> Callable[..., Any]:
        def reached(*_: Any, **__: Any) -> Any:
            raise Unfit(f"it releases through {name}")
        return reached


@dataclass(frozen=True)
class Mixture:
    """The output distribution: Laplace(mean, scale) -- or N(mean, scale²) when kind is
    "gaussian" -- with each mean's probability."""

    means: np.ndarray
    weights: np.ndarray
    scale: float
    outcomes: int  # the sample outcomes enumerated
    kind: str = "laplace"


class Runner:
    """Runs of one function with the mechanisms replaced: the Laplace release recorded, the
    sample's draw scripted, the others refused."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.script = Script([])
        self.recorder = Recorder()
        self.refusal = ""  # why the function last refused an input
        self.saved: dict[str, Any] = {}
        self.patch = mock.patch.object(mechanisms, "sample_indices", self._indices)

    def __enter__(self) -> Runner:
        scope = self.function.__globals__
        stand_ins = {**{name: self._laplace for name in LAPLACE},
                     "gaussian_mechanism": self._gaussian,
                     "gaussian_mechanism_zcdp": self._gaussian_zcdp,
                     **{name: Recorder.other(name) for name in OTHERS}}
        self.saved = {name: scope[name] for name in stand_ins if name in scope}
        scope.update({name: stand_ins[name] for name in self.saved})
        self.patch.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self.patch.stop()
        self.function.__globals__.update(self.saved)

    def _laplace(self, *args: Any, **kwargs: Any) -> Any:
        return self.recorder.laplace(*args, **kwargs)

    def _gaussian(self, *args: Any, **kwargs: Any) -> Any:
        return self.recorder.gaussian(*args, **kwargs)

    def _gaussian_zcdp(self, *args: Any, **kwargs: Any) -> Any:
        return self.recorder.gaussian_zcdp(*args, **kwargs)

    def _indices(self, n: int, k: int, source: Any) -> list[int]:
        return self.script.indices(n, k, source)

    def run(self, args: dict[str, Any],
            choices: list[int]) -> tuple[float | None, tuple[float, str], list[int]]:
        """(released mean or None when the function refused the input, (scale, kind), branching)."""
        self.script, self.recorder = Script(choices), Recorder()
        try:
            with np.errstate(all="ignore"):
                self.function(**args)
        except Unfit:
            raise
        except Exception as refusal:  # noqa: BLE001 - the function may refuse an input (k > rows)
            self.refusal = f"{type(refusal).__name__}: {refusal}"
            return None, (math.nan, ""), self.script.branching
        if not self.script.branching:
            raise Unfit("the run does not draw a sample")
        if len(self.recorder.releases) != 1:
            raise Unfit(f"{len(self.recorder.releases)} noisy releases in one run, not one")
        (mean, scale, kind), = self.recorder.releases
        return mean, (scale, kind), self.script.branching


def mixture(runner: Runner, args: dict[str, Any]) -> Mixture | None:
    """The exact output distribution on args, over every outcome of every sample call
    (None: some outcome raised)."""
    probability: dict[float, float] = {}
    scales: set[tuple[float, str]] = set()
    choices: list[int] = []
    outcomes = 0
    while True:
        mean, scale, branching = runner.run(args, choices)
        if mean is None:
            return None
        outcomes += 1
        probability[mean] = probability.get(mean, 0.0) + 1 / math.prod(branching)
        scales.add(scale)
        # the next outcome: an odometer over the calls, later calls turning fastest
        choices = (choices + [0] * len(branching))[:len(branching)]
        while choices and choices[-1] + 1 >= branching[len(choices) - 1]:
            choices.pop()
        if not choices:
            break
        choices[-1] += 1
    if len(scales) != 1:
        raise Unfit(f"the noise depends on the sample: {sorted(scales)}")
    means = np.array(sorted(probability))
    weights = np.array([probability[m] for m in means])
    assert abs(weights.sum() - 1) < 1e-9, weights.sum()
    scale, kind = scales.pop()
    return Mixture(means, weights, scale, outcomes, kind)


# --- the exact loss of two Laplace mixtures -------------------------------------------

def _logsumexp(a: np.ndarray, axis: int) -> np.ndarray:
    top = np.max(a, axis=axis, keepdims=True)
    total: np.ndarray = np.squeeze(top, axis=axis) + np.log(np.sum(np.exp(a - top), axis=axis))
    return total


def _log_density(p: Mixture, y: np.ndarray) -> np.ndarray:
    """log p(y) + log(2b): log Σ_S w_S exp(−|y − μ_S|/b)."""
    terms = np.log(p.weights)[None, :] - np.abs(y[:, None] - p.means[None, :]) / p.scale
    return _logsumexp(terms, axis=1)


def exact_epsilon(p: Mixture, q: Mixture) -> float:
    """sup_y |log p(y) − log q(y)| for two Laplace mixtures of one scale."""
    assert p.kind == q.kind == "laplace", (p.kind, q.kind)
    if p.scale != q.scale:
        return math.inf
    b = p.scale
    points = np.union1d(p.means, q.means)
    between = [np.linspace(lo, hi, GRID + 2)[1:-1] for lo, hi in zip(points[:-1], points[1:])]
    outside = [points[0] - b * np.arange(1, 9), points[-1] + b * np.arange(1, 9)]
    y = np.concatenate([points, *between, *outside])
    inside = float(np.max(np.abs(_log_density(p, y) - _log_density(q, y))))
    # y → ±∞: log Σ w_S e^(±μ_S/b) − (the same for q)
    tails = [abs(float(_logsumexp(np.log(p.weights) + sign * p.means / b, axis=0)
                       - _logsumexp(np.log(q.weights) + sign * q.means / b, axis=0)))
             for sign in (1.0, -1.0)]
    return max(inside, *tails)


# --- the exact privacy profile of two Gaussian mixtures --------------------------------

def _gaussian_mass(p: Mixture, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """P_p[lo < Y < hi] for each interval, by normal CDFs (the upper tail when lo is above
    every mean, for accuracy)."""
    z_lo = (lo[:, None] - p.means[None, :]) / p.scale
    z_hi = (hi[:, None] - p.means[None, :]) / p.scale
    mass = np.where(z_lo > 0, ndtr(-z_lo) - ndtr(-z_hi), ndtr(z_hi) - ndtr(z_lo))
    return mass @ p.weights


def _gaussian_log_density(p: Mixture, y: np.ndarray) -> np.ndarray:
    """log p(y) + log(σ√(2π)): log Σ_S w_S exp(−(y − μ_S)²/(2σ²))."""
    z = (y[:, None] - p.means[None, :]) / p.scale
    return _logsumexp(np.log(p.weights)[None, :] - z * z / 2, axis=1)


def exact_delta(p: Mixture, q: Mixture, epsilon: float) -> float:
    """δ*(ε) = ∫ max(0, p(y) − e^ε q(y)) dy for two Gaussian mixtures of one σ: the crossings
    of p and e^ε q are bracketed on a grid of step σ/64 over the means ± 12σ and refined,
    and p − e^ε q is integrated exactly, by normal CDFs, between them (the two outermost
    intervals run to ±∞)."""
    assert p.kind == q.kind == "gaussian", (p.kind, q.kind)
    if p.scale != q.scale:
        return 1.0
    sigma, factor = p.scale, math.exp(epsilon)
    lo = min(p.means[0], q.means[0]) - GAUSSIAN_REACH * sigma
    hi = max(p.means[-1], q.means[-1]) + GAUSSIAN_REACH * sigma
    y = np.linspace(lo, hi, int(math.ceil((hi - lo) / (GAUSSIAN_STEP * sigma))) + 1)

    def gap(at: np.ndarray) -> np.ndarray:  # the sign of p − e^ε q, as a log-ratio
        return _gaussian_log_density(p, at) - _gaussian_log_density(q, at) - epsilon

    g = gap(y)
    crossings = [brentq(lambda t: float(gap(np.array([t]))[0]), y[i], y[i + 1], xtol=1e-14 * sigma)
                 for i in np.flatnonzero(np.sign(g[:-1]) * np.sign(g[1:]) < 0)]
    # the zeros of the grid itself are crossings already
    cuts = np.array([-math.inf, *sorted(set(crossings) | set(y[g == 0])), math.inf])
    left, right = cuts[:-1], cuts[1:]
    with np.errstate(invalid="ignore"):  # the (−∞, ∞) interval, when nothing crosses
        middle = np.where(np.isinf(left), right - sigma,
                          np.where(np.isinf(right), left + sigma, (left + right) / 2))
    middle[np.isinf(left) & np.isinf(right)] = y[len(y) // 2]
    positive = gap(middle) > 0
    if not positive.any():
        return 0.0
    left, right = left[positive], right[positive]
    return max(0.0, float(np.sum(_gaussian_mass(p, left, right)
                                 - factor * _gaussian_mass(q, left, right))))


# --- neighbours -----------------------------------------------------------------------

def _adversarial(metric: Metric, n: int, d: int) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """Every row one value and the first row another: the pairs that make amplification
    tight (the changed row moves the release by its whole sensitivity only when sampled)."""
    if metric.shape != "matrix" or metric.kind != "Data" or metric.norm != "L_inf":
        return
    rows: dict[str, np.ndarray] = {"zeros": np.zeros(d), "ones": np.ones(d), "-ones": -np.ones(d),
                                   "extreme": np.full(d, privacy_pairs.EXTREME)}
    for j in range(min(d, 2)):
        unit = np.zeros(d)
        unit[j] = 1.0
        rows[f"e{j}"], rows[f"-e{j}"] = unit, -unit
    for (a, row_a), (b, row_b) in itertools.permutations(rows.items(), 2):
        x = np.tile(row_a, (n, 1))
        y = x.copy()
        y[0] = row_b
        yield f"every row {a}, the first {b}", x, y


def _pairs(report: dict[str, Any], n: int, d: int,
           rng: np.random.Generator) -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """(parameter, label, x, x'): test_privacy_cases' neighbours of the audit's bases, then the
    adversarial pairs, for every private parameter."""
    parsed = {p["name"]: parse(p["type"]) for p in report["params"] if not p["static"]}
    metrics = {name: metric for name, metric in parsed.items() if metric is not None}
    if len(metrics) != len(parsed):
        raise Unfit("a parameter's type has no neighbours to draw")
    fixed = {name: privacy_pairs.bases(metric, n, d, rng)[0][1] for name, metric in metrics.items()}
    for name, metric in metrics.items():
        for base_label, base in privacy_pairs.bases(metric, n, d, rng):
            for label, other in privacy_pairs.neighbours(metric, base, rng):
                yield name, f"{base_label}; {label}", {**fixed, name: base}, {**fixed, name: other}
                if metric.shape == "matrix" and metric.kind == "Real" and n > 1:
                    # as test_privacy_cases: the first row's change spread over every row
                    spread = np.asarray(base, dtype=float) + (other[0] - base[0]) / n
                    yield name, f"{base_label}; {label}, spread", {**fixed, name: base}, \
                        {**fixed, name: spread}
        for label, x, y in _adversarial(metric, n, d):
            assert 0 < measure(metric, x, y) <= 1
            yield name, label, {**fixed, name: x}, {**fixed, name: y}


# --- the check ------------------------------------------------------------------------

@dataclass(frozen=True)
class Measured:
    """One pair: the parameter that moved, its label, the shape and the exact loss."""

    name: str
    label: str
    shape: tuple[int, int]
    args: dict[str, Any]  # x, which the claim's sizes are read from
    exact: float  # ε* of Laplace mixtures (nan for Gaussian ones: their δ* depends on the claim)
    outcomes: int  # sample outcomes enumerated per run
    mixtures: tuple[Mixture, Mixture] | None = None  # (p_x, p_x') of Gaussian releases

    def delta(self, epsilon: float) -> float:
        """δ*(ε), the larger of the two orders."""
        assert self.mixtures is not None
        first, second = self.mixtures
        return max(exact_delta(first, second, epsilon), exact_delta(second, first, epsilon))


def measure_function(function: Callable[..., Any], report: dict[str, Any],
                     statics: dict[str, Any]) -> list[Measured]:
    """ε* of every pair that runs; raises Unfit when the function cannot be compared."""
    rng = np.random.default_rng(7)
    found: list[Measured] = []
    with Runner(function) as runner:
        for n, d in SHAPES:
            cache: dict[bytes, Mixture | None] = {}

            def of(args: dict[str, Any]) -> Mixture | None:
                key = b"".join(np.asarray(v, dtype=float).tobytes() + b"|" for v in args.values())
                if key not in cache:
                    cache[key] = mixture(runner, {**args, **statics})
                return cache[key]

            for name, label, x, y in _pairs(report, n, d, rng):
                first, second = of(x), of(y)
                if first is not None and second is not None:
                    if first.kind != second.kind:
                        raise Unfit(f"the mechanism depends on the data: {first.kind}, {second.kind}")
                    if first.kind == "gaussian":
                        found.append(Measured(name, label, (n, d), x, math.nan, first.outcomes,
                                              (first, second)))
                    else:
                        found.append(Measured(name, label, (n, d), x, exact_epsilon(first, second),
                                              first.outcomes))
    if not found:
        raise Unfit(f"no pair ran at the test shapes {SHAPES} (last refusal: {runner.refusal})")
    return found


def violations(measured: list[Measured], report: dict[str, Any], statics: dict[str, Any]) -> list[str]:
    """The pairs whose ε* exceeds the report's ε at their sizes (Laplace), or whose δ*(ε) at the
    report's ε exceeds its δ (Gaussian)."""
    found = []
    for pair in measured:
        epsilon, delta = claims_at(report, statics, pair.args)[pair.name]
        if pair.mixtures is not None:
            exact = pair.delta(epsilon)
            if exact > delta + TOLERANCE:
                n, d = pair.shape
                found.append(f"{pair.name} at {n}x{d} ({pair.label}): exact δ*({epsilon:.6g})"
                             f" {exact:.6g} > reported {delta:.6g}")
            continue
        if delta != 0:
            raise Unfit(f"the claim has δ = {delta:g}; only pure claims are compared")
        if pair.exact > epsilon + TOLERANCE:
            n, d = pair.shape
            found.append(f"{pair.name} at {n}x{d} ({pair.label}): exact ε {pair.exact:.6g}"
                         f" > reported {epsilon:.6g}")
    return found


def _report(path: Path, name: str) -> dict[str, Any]:
    return next(r for p, r in FUNCTIONS if p == path and r["name"] == name)


@functools.lru_cache(maxsize=None)
def _measured(path: Path, name: str) -> list[Measured] | str:
    """The function's pairs, or why it cannot be checked."""
    report = _report(path, name)
    statics, module = statics_of(report), load(path)
    if statics is None or module is None:
        return "the function cannot be bound or its module does not import"
    try:
        return measure_function(getattr(module, name), report, statics)
    except Unfit as unfit:
        return str(unfit)


@pytest.mark.parametrize("path,report", FUNCTIONS,
                         ids=[f"{p.stem}.{r['name']}" for p, r in FUNCTIONS])
def test_amplified_privacy_holds_exactly(path: Path, report: dict[str, Any]) -> None:
    measured = _measured(path, report["name"])
    if isinstance(measured, str):
        pytest.skip(measured)
    statics = statics_of(report)
    assert statics is not None
    try:
        found = violations(measured, report, statics)
    except Unfit as unfit:  # a Laplace release with δ > 0 claimed
        pytest.skip(str(unfit))
    assert not found, found[:3]


def test_every_sampled_case_is_checked() -> None:
    """The check is vacuous for functions it skips: those of sampled.py must all be compared,
    at both shapes."""
    ours = [r["name"] for p, r in FUNCTIONS if p.name == "sampled.py"]
    assert len(ours) >= 6, ours
    skipped = {name: measured for name in ours
               if isinstance(measured := _measured(CASES / "sampled.py", name), str)}
    assert not skipped, skipped
    for name in ours:
        measured = _measured(CASES / "sampled.py", name)
        assert not isinstance(measured, str)
        assert {pair.shape for pair in measured} == set(SHAPES), name


@pytest.mark.parametrize("name,understated", [
    # the amplification at half the sampling rate q = k/rows
    ("sampled_clipped_sum", "log(1 + 3*(-1 + E)/(2*rows(m)))"),
    ("sampled_count_static", "log(1 + k*(exp(eps) - 1)/(2*rows(m)))"),
    ("sample_of_sample", "log(1 + (-1 + E)/rows(m))"),
    # a release that also reads the whole dataset, amplified as if it read the sample only
    ("sample_and_full_count", "log(1 + 2*(-1 + E)/rows(m))"),
])
def test_an_understated_amplification_is_caught(name: str, understated: str) -> None:
    """Negative controls: the same programs with a smaller claim are refuted."""
    path = CASES / "sampled.py"
    report = _report(path, name)
    wrong = {**report, "params": [{**p, "epsilon": understated} if not p["static"] else p
                                  for p in report["params"]]}
    measured, statics = _measured(path, name), statics_of(report)
    assert not isinstance(measured, str) and statics is not None, measured
    assert violations(measured, wrong, statics)


@pytest.mark.parametrize("name,field,understated", [
    # the δ of an (ε, δ) amplification divided by 10
    ("sampled_gaussian_sum", "delta", "3/(1000000*rows(m))"),
    ("sampled_gaussian_count", "delta", "1/(5000*rows(m))"),
    ("gaussian_sample_of_sample", "delta", "1/(50000*rows(m))"),
    # the zCDP release's converted ε replaced by that of a Laplace(2/1) sum, its δ kept
    ("sampled_gaussian_zcdp_sum", "epsilon", "log(1 + 3*(-1 + E)/rows(m))"),
])
def test_an_understated_gaussian_amplification_is_caught(name: str, field: str, understated: str) -> None:
    """Negative controls of the δ check: the Gaussian programs with a smaller claim are refuted."""
    path = CASES / "sampled.py"
    report = _report(path, name)
    wrong = {**report, "params": [{**p, field: understated} if not p["static"] else p
                                  for p in report["params"]]}
    measured, statics = _measured(path, name), statics_of(report)
    assert not isinstance(measured, str) and statics is not None, measured
    assert all(pair.mixtures is not None for pair in measured)
    assert not violations(measured, report, statics)
    assert violations(measured, wrong, statics)


def test_the_gaussian_amplification_is_tight() -> None:
    """A q-sample of a count with analytic-Gaussian noise (every row failing, then the first
    passing) has δ*(log(1 + q(e^ε − 1))) = q·δ_G(ε) exactly, δ_G the Gaussian's own profile
    (Balle, Barthe & Gaboardi 2018): the reported (ε, qδ) is tight."""
    measured = _measured(CASES / "sampled.py", "sampled_gaussian_count")
    assert not isinstance(measured, str), measured
    sigma = analytic_gaussian_sigma(1.0, 0.5, 1e-3)
    for n, _ in SHAPES:
        q = min(2 / n, 1)
        epsilon = math.log(1 + q * (math.exp(0.5) - 1))
        exact = max(pair.delta(epsilon) for pair in measured if pair.shape[0] == n)
        assert exact == pytest.approx(q * gaussian_delta(0.5, 1 / sigma), rel=1e-9)
        assert exact == pytest.approx(q * 1e-3, rel=1e-6)


def test_exact_delta_is_the_integral() -> None:
    """δ*(ε) of single Gaussians is Balle & Wang's Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), and that of
    random mixtures the integral of (p − e^ε q)⁺ by quadrature."""
    from scipy.integrate import quad
    for mu, epsilon in ((1.0, 0.5), (0.25, 1.0), (3.0, 2.0), (0.5, 0.0)):
        p, q = (Mixture(np.array([mean]), np.array([1.0]), 1.0, 1, "gaussian") for mean in (0.0, mu))
        assert exact_delta(p, q, epsilon) == pytest.approx(gaussian_delta(epsilon, mu), abs=1e-13)
    rng = np.random.default_rng(3)
    for _ in range(10):
        sigma = float(rng.uniform(0.3, 3))
        p, q = (Mixture(np.sort(rng.normal(0, 2, 4)), rng.dirichlet(np.ones(4)), sigma, 4, "gaussian")
                for _ in range(2))
        epsilon = float(rng.uniform(0, 1.5))
        factor = math.exp(epsilon)

        def positive(t: float) -> float:
            y = np.array([t])
            return max(0.0, float(np.exp(_gaussian_log_density(p, y))[0]
                                  - factor * np.exp(_gaussian_log_density(q, y))[0])) / (sigma * math.sqrt(2 * math.pi))

        lo = min(p.means[0], q.means[0]) - 12 * sigma
        hi = max(p.means[-1], q.means[-1]) + 12 * sigma
        numeric, _ = quad(positive, lo, hi, points=np.union1d(p.means, q.means), limit=500,
                          epsabs=1e-13, epsrel=1e-10)
        assert exact_delta(p, q, epsilon) == pytest.approx(numeric, abs=1e-9, rel=1e-7)


def test_the_mixture_loss_is_the_known_tight_bound() -> None:
    """A q-sample of a Laplace(1) count (every row failing, then the first passing) costs
    exactly log(1 + q(e − 1)) (Balle, Barthe & Gaboardi 2018): the reported claim is tight."""
    measured = _measured(CASES / "sampled.py", "noisy_sampled_count")
    assert not isinstance(measured, str), measured
    for n, _ in SHAPES:
        exact = max(pair.exact for pair in measured if pair.shape[0] == n)
        assert exact == pytest.approx(math.log(1 + min(3 / n, 1) * (math.e - 1)), abs=1e-12)


def test_exact_epsilon_is_the_supremum() -> None:
    """The loss of two mixtures is the supremum a dense grid approaches from below (the
    argument that the means and the limits suffice), and |μ − μ'|/b for single Laplaces."""
    assert exact_epsilon(Mixture(np.array([0.0]), np.array([1.0]), 2.0, 1),
                         Mixture(np.array([3.0]), np.array([1.0]), 2.0, 1)) == pytest.approx(1.5)
    rng = np.random.default_rng(1)
    y = np.linspace(-40, 40, 80_001)
    for _ in range(20):
        scale = float(rng.uniform(0.3, 3))
        p, q = (Mixture(np.sort(rng.normal(0, 2, 4)), rng.dirichlet(np.ones(4)), scale, 4)
                for _ in range(2))
        dense = float(np.max(np.abs(_log_density(p, y) - _log_density(q, y))))
        # the log-ratio moves at most 2/b per unit of y: the grid is within that of the supremum
        assert dense - 1e-9 <= exact_epsilon(p, q) <= dense + 2 / scale * (y[1] - y[0])
