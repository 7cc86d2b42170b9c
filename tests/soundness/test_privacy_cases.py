"""Every privacy cost the case files pin is checked against the exact loss on neighbours.

For a program whose releases are Laplace and Gaussian mechanisms on values
that do not depend on earlier noise (non-adaptive), the privacy of a pair of
neighbouring inputs is known exactly from the released *means*: the Laplace
releases cost Σ_t ε_t·‖a_t − b_t‖₁/s_t, and the Gaussian releases together are
one Gaussian with μ² = Σ_t ‖a_t − b_t‖₂²/σ_t², whose δ at ε is Balle–Wang's
Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2). The discrete-output pure mechanisms
(above-threshold, report-noisy-max, exponential, randomized response) have
exact output distributions (pure_mechanisms.py), and independent pure releases
cost the sum of their largest log-ratios. Recording every release on x and on
x' therefore tests a reported (ε, δ) without sampling: a rule that composes in
parallel what is not disjoint, or forgets a release, is caught by one pair.
(The statistical auditor, by contrast, only bounds ε from below.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import pytest
from scipy.stats import norm

from dpsens.accounting.gaussian import analytic_gaussian_sigma
from dpsens.audit import privacy_pairs
from dpsens.audit.metric_types import parse
from dpsens.check import check_paths

import pure_mechanisms  # type: ignore[import-not-found]
from case_files import CASES, claims_at, load, statics_of  # type: ignore[import-not-found]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Mechanisms whose output distribution is not recorded; they make a function unfit.
OTHERS = ("sample", "shuffle", "kary_randomized_response", "local_laplace")
SHAPES = ((6, 3), (3, 2), (1, 2))
TOLERANCE = 1e-9


class Unfit(Exception):
    """The function samples, shuffles or releases through a local randomizer."""


@dataclass(frozen=True)
class Release:
    """One mechanism call: its kind, loss per unit of distance, and released mean."""

    kind: str  # "laplace": ε per unit of L1 distance; "gaussian": μ per unit of L2 distance;
    # "pure": a discrete output, `mean` holding the exact log-probability of each outcome
    per_unit: float
    mean: np.ndarray


class Tape:
    """Stand-ins for the mechanisms that record each release; noise only when asked."""

    def __init__(self, noise: np.random.Generator | None = None) -> None:
        self.releases: list[Release] = []
        self.noise = noise

    def _release(self, kind: str, per_unit: float, x: Any, scale: float) -> Any:
        mean = np.array(x, dtype=float)
        self.releases.append(Release(kind, per_unit, mean.copy()))
        if self.noise is not None:
            draw = self.noise.laplace if kind == "laplace" else self.noise.normal
            mean = mean + draw(0.0, scale, mean.shape)
        return float(mean) if mean.ndim == 0 else mean

    def laplace(self, s: float, eps: float, x: Any, **_: Any) -> Any:
        return self._release("laplace", eps / s, x, s / eps)

    def gaussian(self, s: float, eps: float, delta: float, x: Any, **_: Any) -> Any:
        sigma = analytic_gaussian_sigma(s, eps, delta)
        return self._release("gaussian", 1 / sigma, x, sigma)

    def zcdp(self, s: float, rho: float, x: Any, **_: Any) -> Any:
        sigma = s / math.sqrt(2 * rho)
        return self._release("gaussian", 1 / sigma, x, sigma)

    def _choose(self, eps: float, log_probabilities: np.ndarray, outcomes: list[Any]) -> Any:
        """An outcome drawn from its exact distribution (the likeliest one without noise)."""
        probabilities = np.exp(log_probabilities)
        assert abs(probabilities.sum() - 1) < 1e-8, probabilities
        self.releases.append(Release("pure", eps, log_probabilities))
        if self.noise is None:
            return outcomes[int(np.argmax(probabilities))]
        return outcomes[int(self.noise.choice(len(outcomes), p=probabilities / probabilities.sum()))]

    def above_threshold(self, queries: Any, eps: float, data: Any, threshold: float, **_: Any) -> Any:
        values = [float(query(data)) for query in queries]
        return self._choose(eps, pure_mechanisms.above_threshold(values, eps, threshold),
                            [*range(len(values)), None])

    def report_noisy_max(self, s: float, eps: float, scores: Any, **_: Any) -> Any:
        values = [float(v) for v in np.asarray(scores, dtype=float).ravel()]
        return self._choose(eps, pure_mechanisms.report_noisy_max(values, s, eps),
                            list(range(len(values))))

    def exponential(self, s: float, eps: float, candidates: Any, utility: Any, data: Any,
                    **_: Any) -> Any:
        options = list(candidates)
        utilities = [float(utility(data, r)) for r in options]
        return self._choose(eps, pure_mechanisms.exponential(utilities, s, eps), options)

    def randomized_response(self, eps: float, bit: Any, **_: Any) -> Any:
        return self._choose(eps, pure_mechanisms.randomized_response(eps, bool(bit)),
                            [type(bit)(False), type(bit)(True)])


def _unfit(*_: Any, **__: Any) -> Any:
    raise Unfit


def run(function: Callable[..., Any], args: dict[str, Any], tape: Tape) -> list[Release] | None:
    """The releases of one run with the mechanisms replaced by the tape (None: it raised)."""
    scope = function.__globals__
    stand_ins = {"laplace_mechanism": tape.laplace, "laplacian_mechanism": tape.laplace,
                 "gaussian_mechanism": tape.gaussian, "gaussian_mechanism_zcdp": tape.zcdp,
                 "above_threshold": tape.above_threshold, "report_noisy_max": tape.report_noisy_max,
                 "exponential_mechanism": tape.exponential,
                 "randomized_response": tape.randomized_response,
                 **{name: _unfit for name in OTHERS}}
    saved = {name: scope[name] for name in stand_ins if name in scope}
    scope.update({name: stand_ins[name] for name in saved})
    try:
        with np.errstate(all="ignore"):
            function(**args)
    except Unfit:
        raise
    except Exception:  # noqa: BLE001 - the function may refuse an input
        return None
    finally:
        scope.update(saved)
    return tape.releases


def exact_cost(a: list[Release], b: list[Release]) -> tuple[float, float] | None:
    """(pure ε, Gaussian μ) of the pair of runs, None when they release differently."""
    if [(r.kind, r.per_unit, r.mean.shape) for r in a] != \
            [(r.kind, r.per_unit, r.mean.shape) for r in b]:
        return None
    epsilon, mu_squared = 0.0, 0.0
    for x, y in zip(a, b):
        shift = (x.mean - y.mean).ravel()
        if x.kind == "laplace":
            epsilon += x.per_unit * float(np.sum(np.abs(shift)))
        elif x.kind == "pure":
            epsilon += pure_mechanisms.loss(x.mean, y.mean)
        else:
            mu_squared += (x.per_unit * float(np.linalg.norm(shift))) ** 2
    return epsilon, math.sqrt(mu_squared)


def gaussian_delta(epsilon: float, mu: float) -> float:
    """δ(ε) of μ-GDP (Balle and Wang 2018, Theorem 8)."""
    if mu == 0 or math.isinf(epsilon):
        return 0.0
    return float(norm.cdf(-epsilon / mu + mu / 2) - math.exp(epsilon) * norm.cdf(-epsilon / mu - mu / 2))


def _privacy_functions() -> list[tuple[Path, dict[str, Any]]]:
    found = []
    for path in [*sorted(CASES.glob("*.py")), *sorted(EXAMPLES.glob("*.py"))]:
        for file in check_paths([str(path)]).files:
            found.extend((path, f) for f in file.functions if f["kind"] == "privacy")
    return found


def _arguments(report: dict[str, Any], n: int, d: int,
               rng: np.random.Generator) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(parameter, x, x') for every private parameter: neighbours of the audit's bases."""
    metrics = {p["name"]: parse(p["type"]) for p in report["params"] if not p["static"]}
    if any(metric is None for metric in metrics.values()):
        return
    fixed = {name: privacy_pairs.bases(metric, n, d, rng)[0][1] for name, metric in metrics.items()}
    for name, metric in metrics.items():
        for _, base in privacy_pairs.bases(metric, n, d, rng):
            for _, other in privacy_pairs.neighbours(metric, base, rng):
                yield name, {**fixed, name: base}, {**fixed, name: other}
                if metric.shape == "matrix" and metric.kind == "Real" and n > 1:
                    # The first row's change spread over every row: the same distance,
                    # which a per-row charge must not count once per row.
                    spread = np.asarray(base, dtype=float) + (other[0] - base[0]) / n
                    yield name, {**fixed, name: base}, {**fixed, name: spread}


FUNCTIONS = _privacy_functions()


def check_function(function: Callable[..., Any], report: dict[str, Any],
                   statics: dict[str, Any]) -> tuple[int, list[str]]:
    """(pairs compared, violations) of one function; raises Unfit when it cannot be compared."""
    rng = np.random.default_rng(7)
    compared, violations = 0, []
    for n, d in SHAPES:
        for name, x, y in _arguments(report, n, d, rng):
            first = run(function, {**x, **statics}, Tape())
            second = run(function, {**y, **statics}, Tape())
            if first is None or second is None:
                continue
            noisy = run(function, {**x, **statics}, Tape(np.random.default_rng(compared)))
            if noisy is None or exact_cost(first, noisy) != (0.0, 0.0):
                raise Unfit("adaptive: what it releases depends on earlier noise")
            cost = exact_cost(first, second)
            if cost is None:
                continue
            epsilon, delta = claims_at(report, statics, x)[name]
            compared += 1
            pure, mu = cost
            if delta == 0 and mu == 0 and pure > epsilon * (1 + TOLERANCE) + TOLERANCE:
                violations.append(f"{name}: exact ε {pure:.6g} > reported {epsilon:.6g}")
            if pure == 0 and gaussian_delta(epsilon, mu) > delta * (1 + 1e-6) + 1e-12:
                violations.append(f"{name}: exact δ({epsilon:.6g}) = {gaussian_delta(epsilon, mu):.3g}"
                                  f" > reported {delta:.3g} (μ = {mu:.6g})")
    return compared, violations


@pytest.mark.parametrize("path,report", FUNCTIONS,
                         ids=[f"{p.stem}.{r['name']}" for p, r in FUNCTIONS])
def test_reported_privacy_holds_exactly(path: Path, report: dict[str, Any]) -> None:
    statics, module = statics_of(report), load(path)
    if statics is None or module is None:
        pytest.skip("the function cannot be bound or its module does not import")
    try:
        _, violations = check_function(getattr(module, report["name"]), report, statics)
    except Unfit as unfit:
        pytest.skip(str(unfit) or "it samples, shuffles or releases locally")
    assert not violations, violations[:3]


def test_most_privacy_functions_are_compared() -> None:
    """The check above is vacuous for functions it cannot compare; keep those few."""
    compared = 0
    for path, report in FUNCTIONS:
        statics, module = statics_of(report), load(path)
        if statics is None or module is None:
            continue
        try:
            pairs, _ = check_function(getattr(module, report["name"]), report, statics)
        except Unfit:
            continue
        compared += pairs > 0
    assert compared >= 0.5 * len(FUNCTIONS), f"only {compared} of {len(FUNCTIONS)} compared"


def _case(name: str) -> tuple[Callable[..., Any], dict[str, Any]]:
    path, report = next((p, r) for p, r in FUNCTIONS if r["name"] == name)
    return getattr(load(path), name), report


@pytest.mark.parametrize("name,understated", [
    ("noisy_rows", ("1/2", "0")),  # parallel composition taken at half its cost
    ("noisy_entries_linf", ("1/2", "0")),  # an L_inf vector's entries are not disjoint
    ("gaussian_rows_in_parallel", ("0.8", "1/100000")),
    ("first_crossing_mixed_half", ("eps/4", "0")),  # above_threshold charged eps·c², not eps·c
    ("noisy_max", ("1/4", "0")),
    ("parallel_nested_def", ("1/4", "0")),  # parallel_fold_rows: a row's release is 1/2
    ("randomized", ("eps/2", "0")),
])
def test_an_understated_cost_is_caught(name: str, understated: tuple[str, str]) -> None:
    """Negative controls: the same programs with a smaller claim are refuted."""
    function, report = _case(name)
    wrong = {**report, "params": [{**p, "epsilon": understated[0], "delta": understated[1]}
                                  if not p["static"] else p for p in report["params"]]}
    _, violations = check_function(function, wrong, statics_of(report))
    assert violations
