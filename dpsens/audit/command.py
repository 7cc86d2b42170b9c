"""``dpsens audit PATH::FUNCTION``: run a function and try to falsify its report.

This is the one dpsens command that **executes user code**: it imports the
module (running its top-level statements) and calls the function thousands
of times.  Audit only code you would run anyway.

Sensitivity functions: random and adversarial neighbouring inputs of every
non-static parameter, drawn in the declared metric; a pair with
d(f(x), f(x')) > s·d(x, x') is a counterexample.

Privacy functions: a statistical test of the (ε, δ) claim
(``dpsens.audit.privacy``): a counterexample is an event whose probabilities
on two neighbouring inputs prove, at the stated confidence, that ε exceeds
the claim.

Exit codes: 0 no counterexample, 1 counterexample, 2 usage or internal error
(unknown function, unbound static parameter, import failure, nothing ran).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import math
import re
import secrets
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TextIO

import numpy as np

from dpsens.options import DIMENSION, dimension_problem

if TYPE_CHECKING:
    from dpsens.check import Settings

HELP = ("run a function on random and adversarial neighbouring inputs and try to falsify its "
        "reported sensitivity or (ε, δ); WARNING: this command imports and executes the "
        "audited code")
WARNING = "dpsens audit: note: this command imports and executes {path} (user code)"
SENSITIVITY_TRIALS = 200
PRIVACY_TRIALS = 5000  # runs per input in the test phase
PRIVACY_SECONDS = 60.0  # time budget with the default number of trials
CONFIDENCE = 0.99


class AuditError(Exception):
    """A usage problem: printed as one line, exit 2."""


def run_audit(target: str, binds: Mapping[str, float], trials: int | None, seed: int | None,
              out: TextIO, *, claim: tuple[float | str, float | str] | float | str | None = None,
              stub_dirs: Sequence[Path] = (), options: Any = None,
              confidence: float = CONFIDENCE, max_seconds: float | None = None,
              settings: Settings | None = None) -> int:
    """The whole ``dpsens audit PATH::FUNCTION`` command; returns the exit code.

    ``binds``: static parameters ("k", "func.k") and sizes ("rows(data)") —
    they also go to the analyzer, so the report is the one ``dpsens check
    --bind`` prints.  ``trials``: random input draws (sensitivity) or runs
    per input in the final test (privacy); None for the defaults (200;
    5000, scaled down to fit in about a minute).  ``seed``: None draws one, which is
    printed so that any result can be replayed.  ``claim`` overrides the
    report: (ε, δ) for a privacy audit, a number for a sensitivity audit
    (expressions over the statics such as "eps" are allowed); it is how
    programs dpsens cannot analyze (e.g. noise from ``np.random``) are audited
    against what their author intended.  ``settings``: a ``dpsens.check.Settings`` to
    analyze with (its stubs, options and limits; ``dpsens audit`` passes the configuration's),
    instead of ``stub_dirs`` and ``options``.
    """
    from dpsens.check import Settings
    from dpsens.options import Options

    if settings is None:
        settings = Settings(tuple(stub_dirs), options or Options())
    saved_path = list(sys.path)
    try:
        return _audit(target, binds, trials, seed, out, claim, settings, confidence, max_seconds)
    except AuditError as error:
        print(f"dpsens audit: error: {error}", file=out)
        return 2
    finally:
        sys.path[:] = saved_path


def _audit(target: str, binds: Mapping[str, float], trials: int | None, seed: int | None,
           out: TextIO, claim: Any, settings: Settings, confidence: float,
           max_seconds: float | None) -> int:
    path_text, sep, qualname = target.rpartition("::")
    if not sep or not path_text or not qualname:
        raise AuditError(f"expected PATH::FUNCTION, got '{target}'")
    path = Path(path_text)
    if not path.is_file():
        raise AuditError(f"{path_text} is a directory: name a file, PATH.py::FUNCTION"
                         if path.is_dir() else f"no such file: {path_text}")
    if trials is not None and trials < 1:
        raise AuditError(f"--trials must be at least 1, got {trials}")
    print(WARNING.format(path=path_text), file=out)
    report = _report(path, qualname, binds, settings)
    kind = {"local_randomizer": "privacy"}.get(report["kind"], report["kind"])
    if claim is not None:
        kind = "privacy" if isinstance(claim, tuple) else "sensitivity"
    if kind == "analyzer":
        print(f"{qualname} is an analyzer: it post-processes messages that are already private, "
              "there is nothing to falsify", file=out)
        return 0
    if kind == "black_box":
        print(f"{qualname} is a BlackBox function: every argument is reported ∞-sensitive, "
              "there is nothing to falsify (pass a claim to audit it against one)", file=out)
        return 0
    if kind not in ("sensitivity", "privacy"):
        raise AuditError(f"cannot audit {qualname}: functions of kind '{report['kind']}' have no "
                         "sensitivity or privacy claim")
    function = _load(path, qualname)
    statics = _statics(function, report, qualname, binds)
    dims = _dimensions(binds)
    if seed is None:
        seed = secrets.randbits(32)
    shown = ", ".join(f"{k}={v!r}" for k, v in statics.items())
    print(f"auditing {qualname} ({kind} function{'; ' + shown if shown else ''}; seed {seed})",
          file=out)
    # No timing in the output: with --seed a run prints the same text every time.
    if kind == "privacy":
        return _privacy(function, report, statics, dims, trials, seed, claim, confidence,
                        max_seconds, out)
    return _sensitivity(function, report, statics, dims, trials, seed, claim, out)


def _report(path: Path, qualname: str, binds: Mapping[str, float],
            settings: Settings) -> dict[str, Any]:
    """The function's JSON report (analyzing the file with the bindings)."""
    from dpsens.check import check_paths

    options = replace(settings.options, bindings=tuple(settings.options.bindings) + tuple(
        (k, float(v)) for k, v in binds.items()))
    try:
        result = check_paths([str(path)], settings=replace(settings, options=options))
    except Exception as error:  # noqa: BLE001 - never a traceback for the user
        raise AuditError(f"internal error while analyzing {path}: {type(error).__name__}: {error}; "
                         "please report this to the dpsens developers") from error
    functions = [f for file in result.files for f in file.functions]
    for function in functions:
        if function["qualname"] == qualname:
            return function
    problems = [d.render() for d in result.diagnostics if d.severity == "error"]
    known = ", ".join(f["qualname"] for f in functions) or "none"
    detail = f"; {problems[0]}" if problems and not functions else ""
    raise AuditError(f"no function '{qualname}' in the report of {path} (functions: {known}){detail}")


def _load(path: Path, qualname: str) -> Callable[..., Any]:
    """Import the module by path, its package root on sys.path, and find the function."""
    from dpsens.files import module_name

    path = path.resolve()
    name = module_name(path)
    root = path.parent
    # (pkg/__init__.py is module pkg: its root is above the package directory too)
    for _ in range(name.count(".") + (1 if path.name == "__init__.py" else 0)):
        root = root.parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(name)
        if Path(getattr(module, "__file__", "") or "").resolve() != path:
            module = _by_path(path, name)
    except Exception as error:  # noqa: BLE001 - any failure of user code is a usage error
        raise AuditError(f"cannot import {path.name}: {type(error).__name__}: {error}") from error
    value: Any = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
        if value is None:
            raise AuditError(f"'{qualname}' is not importable from {path.name} "
                             "(nested functions cannot be audited)")
    if not callable(value):
        raise AuditError(f"'{qualname}' in {path.name} is not callable")
    return value  # type: ignore[no-any-return]


def _by_path(path: Path, name: str) -> Any:
    """A fresh module from the file when another module of that name is already loaded."""
    spec = importlib.util.spec_from_file_location(f"dpsens_audit_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _statics(function: Callable[..., Any], report: Mapping[str, Any], qualname: str,
             binds: Mapping[str, float]) -> dict[str, Any]:
    """Values of the static parameters: --bind (plain or qualified), else defaults."""
    try:
        defaults = {k: p.default for k, p in inspect.signature(function).parameters.items()
                    if p.default is not inspect.Parameter.empty}
    except (TypeError, ValueError):
        defaults = {}
    values: dict[str, Any] = {}
    missing = []
    for param in report["params"]:
        if not param["static"]:
            continue
        name = param["name"]
        keys = [name, f"{qualname}.{name}"]
        bound = [binds[k] for k in keys if k in binds]
        bound += [v for k, v in binds.items() if k.endswith(f".{qualname}.{name}")]
        if bound:
            values[name] = _convert(param["type"], bound[-1])
        elif name in defaults:
            values[name] = defaults[name]
        else:
            missing.append(name)
    if missing:
        flags = " ".join(f"--bind {n}=VALUE" for n in missing)
        raise AuditError(f"static parameter{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(repr(n) for n in missing)} of {qualname} "
                         f"{'have' if len(missing) > 1 else 'has'} no value and no default: "
                         f"pass {flags}")
    return values


def _convert(type_text: str, value: float) -> Any:
    inner = str(type_text).removeprefix("Static[").removesuffix("]")
    if inner in ("int", "Integer"):
        if value != int(value):
            raise AuditError(f"a {type_text} parameter needs an integer, got {value}")
        return int(value)
    if inner in ("bool", "Bool"):
        return bool(value)
    return float(value)


def _dimensions(binds: Mapping[str, float]) -> dict[str, dict[str, int]]:
    """Sizes bound as rows(x)=N, cols(x)=N, len(x)=N."""
    dims: dict[str, dict[str, int]] = {}
    for key, value in binds.items():
        match = DIMENSION.search(key)
        if match:
            problem = dimension_problem(key, value)  # the check of --bind and the config
            if problem is not None:
                raise AuditError(f"{key} {problem}")
            dims.setdefault(match.group(2), {})[match.group(1)] = int(value)
    return dims


def _numbers(claim: Any, statics: Mapping[str, Any]) -> Any:
    from dpsens.audit.sensitivity import evaluate

    def one(value: float | str) -> float:
        if isinstance(value, str):
            try:
                return evaluate(value, statics, {})
            except Exception as error:  # noqa: BLE001 - a bad claim text is a usage error
                raise AuditError(f"cannot evaluate the claim '{value}': {error}") from error
        return float(value)

    if isinstance(claim, tuple):
        return tuple(one(v) for v in claim)
    return one(claim)


def _sensitivity(function: Callable[..., Any], report: dict[str, Any], statics: dict[str, Any],
                 dims: dict[str, dict[str, int]], trials: int | None, seed: int, claim: Any,
                 out: TextIO) -> int:
    from dpsens.audit.metric_types import parse
    from dpsens.audit.sensitivity import audit_function, worst

    if claim is not None:
        value = _numbers(claim, statics)
        report = {**report, "params": [
            p if p["static"] else {**p, "sensitivity": repr(float(value))} for p in report["params"]]}
    params = [p for p in report["params"] if not p["static"]]
    opaque = [p for p in params if parse(p["type"]) is None]
    if not params:
        print("no non-static parameter: nothing to falsify", file=out)
        return 0
    if opaque or parse(str(report["returns"])) is None:
        what = ", ".join(f"{p['name']}: {p['type']}" for p in opaque) or f"returns {report['returns']}"
        raise AuditError(f"cannot draw or measure values of these types ({what})")
    for p in params:
        print(f"  {p['name']}: {p['type']} -- claimed sensitivity {p['sensitivity']}", file=out)
    count = trials or SENSITIVITY_TRIALS
    try:
        outcome = audit_function(function, report, statics, trials=count, seed=seed, dims=dims or None)
    except Exception as error:  # noqa: BLE001 - e.g. a claim over an unbound symbol
        raise AuditError(f"the audit failed: {type(error).__name__}: {error}") from error
    if outcome.trials == 0:
        raise AuditError("the function did not run on any input drawn for its declared types "
                         "(or the reported assumptions never held)")
    violation = worst(outcome)
    if violation is None:
        ratios = ", ".join(
            f"{k} {v:.6g}" + (f" ({outcome.worst_fraction[k]:.3g} of the claim)"
                              if k in outcome.worst_fraction else "")
            for k, v in outcome.worst_ratio.items())
        print(f"no counterexample in {outcome.trials} trials (seed {seed}); "
              f"largest observed ratio d(f(x), f(x'))/d(x, x'): {ratios}", file=out)
        return 0
    a, b = violation.inputs
    fa, fb = violation.outputs
    print(f"counterexample: {report['qualname']} is more than {violation.claimed:.6g}-sensitive "
          f"in '{violation.parameter}' (seed {seed})", file=out)
    print(f"  {violation.parameter}  = {_show(a)}", file=out)
    print(f"  {violation.parameter}' = {_show(b)}", file=out)
    print(f"  f({violation.parameter})  = {_show(fa)}", file=out)
    print(f"  f({violation.parameter}') = {_show(fb)}", file=out)
    print(f"  observed ratio d(f(x), f(x'))/d(x, x') = {violation.ratio:.6g} > claimed "
          f"{violation.claimed:.6g} ({len(outcome.violations)} violating pairs in "
          f"{outcome.trials} trials)", file=out)
    return 1


def _privacy(function: Callable[..., Any], report: dict[str, Any], statics: dict[str, Any],
             dims: dict[str, dict[str, int]], trials: int | None, seed: int, claim: Any,
             confidence: float, max_seconds: float | None, out: TextIO) -> int:
    from dpsens.audit.privacy import audit_privacy

    if all(p["static"] for p in report["params"]):
        print("no non-static parameter: nothing to falsify", file=out)
        return 0
    numbers = _numbers(claim, statics) if claim is not None else None
    if numbers is not None and (len(numbers) != 2 or numbers[0] < 0 or not 0 <= numbers[1] < 1):
        raise AuditError(f"a privacy claim is (epsilon >= 0, 0 <= delta < 1), got {claim}")
    for p in report["params"]:
        if not p["static"]:
            shown = (f"epsilon {numbers[0]:g}, delta {numbers[1]:g} (given)" if numbers else
                     f"epsilon {p.get('epsilon')}, delta {p.get('delta')}")
            print(f"  {p['name']}: {p['type']} -- claimed {shown}", file=out)
    budget = max_seconds if max_seconds is not None else (PRIVACY_SECONDS if trials is None else None)
    try:
        outcome = audit_privacy(function, report, statics, runs=trials or PRIVACY_TRIALS, seed=seed,
                                claim=numbers, confidence=confidence, max_seconds=budget,
                                dims=dims or None)
    except Exception as error:  # noqa: BLE001 - e.g. a claim over an unbound symbol
        raise AuditError(f"the audit failed: {type(error).__name__}: {error}") from error
    if outcome.error:
        raise AuditError(outcome.error)
    for name, (eps, delta) in outcome.claims.items():
        if claim is None and any(re.search(r"[A-Za-z]", str(p.get(k))) for p in report["params"]
                                 if p["name"] == name for k in ("epsilon", "delta")):
            print(f"  {name}: at the drawn sizes the claim is epsilon {eps:.6g}, delta {delta:.6g}",
                  file=out)
    for name, why in outcome.skipped.items():
        print(f"  {name}: not tested ({why})", file=out)
    if not outcome.tested:
        if outcome.skipped:
            print("nothing to falsify", file=out)
            return 0
        raise AuditError("no neighbouring pair of inputs could be run")
    if outcome.reduced:
        print(f"  (trials reduced to {outcome.runs} per input to stay within "
              f"{budget:g} s; pass --trials N to run exactly N)", file=out)
    if not outcome.violations:
        best = outcome.best
        assert best is not None
        bound = "none" if best.epsilon_lower == -math.inf else f"{best.epsilon_lower:.4g}"
        print(f"no counterexample in {outcome.runs} trials (confidence {confidence:g}; seed {seed}; "
              f"{outcome.pairs} neighbouring pairs screened with {outcome.screening_runs} runs each, "
              f"the best {outcome.promising} with {outcome.selection_runs}); best lower bound on epsilon: {bound}, claimed {best.claimed[0]:.6g}",
              file=out)
        return 0
    v = outcome.violations[0]
    eps, delta = v.claimed
    (p_lo, p_hi), (q_lo, q_hi) = v.intervals
    x, other = v.inputs
    print(f"counterexample: {report['qualname']} is not ({eps:.6g}, {delta:.6g})-DP in "
          f"'{v.parameter}' (confidence {confidence:g}; seed {seed})", file=out)
    base, changed = (v.parameter, f"{v.parameter}'") if v.changed else (f"{v.parameter}'", v.parameter)
    dataset, _, change = v.label.partition("; ")
    print(f"  {v.parameter}  = {_show(x)}", file=out)
    print(f"  {v.parameter}' = {_show(other)}", file=out)
    print(f"  ({base}: {dataset}; {changed}: {change})", file=out)
    print(f"  sample outputs: f({v.parameter}) = {_show(v.samples[0])}, "
          f"f({v.parameter}') = {_show(v.samples[1])}", file=out)
    print(f"  event S: {v.event.describe()}", file=out)
    print(f"  P[f({v.parameter}) in S]  in [{p_lo:.4g}, {p_hi:.4g}]  ({v.hits[0]}/{v.runs[0]} runs)",
          file=out)
    print(f"  P[f({v.parameter}') in S] in [{q_lo:.4g}, {q_hi:.4g}]  ({v.hits[1]}/{v.runs[1]} runs)",
          file=out)
    ratio = (v.hits[0] / v.runs[0]) / (v.hits[1] / v.runs[1]) if v.hits[1] else math.inf
    print(f"  observed ratio {ratio:.4g}; epsilon >= {v.epsilon_lower:.4g} with confidence "
          f"{confidence:g} > claimed {eps:.6g}", file=out)
    return 1


def _show(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(value, precision=6, threshold=40, max_line_width=10_000)
    if isinstance(value, float):
        return f"{value:.10g}"
    return repr(value)


__all__ = ["AuditError", "HELP", "run_audit"]
