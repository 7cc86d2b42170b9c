"""Random programs: every finite sensitivity dpsens reports must survive neighbouring inputs.

`programs.programs()` draws type-correct sensitivity functions in the analyzable
subset (a main function f0 and a helper h0 it may call). Each program is
written to a file, checked with `dpsens.check.check_paths`, and every reported
sensitivity function is run by `audit_function` on random and adversarial
neighbouring inputs, with statics bound as in test_case_files.py (int 2,
float 2.5), then under two other bindings (int 3 / float -0.4, int 1 /
float 0.5) and with different sizes for different container parameters. An
observed ratio above a reported bound (beyond float rounding, see `genuine`), an
internal error (DPS001) or a crash of the checker fails the test and prints the
program. `test_halved_bounds_are_refuted` is the negative control: the same
audit refutes most reported bounds once they are halved.

It found two analyzer bugs, now fixed: a call whose container argument had
another shape than declared left the callee's size symbols in the caller's
report (D61), and max/min of a value of unknown shape crashed (D62).

The default run is small and deterministic (derandomize=True). For a local
fuzzing run raise the count and vary the seed:

    DPSENS_FUZZ_EXAMPLES=3000 DPSENS_FUZZ_SEED=7 python -m pytest -q \\
        tests/soundness/test_random_programs.py
"""

from __future__ import annotations

import atexit
import copy
import importlib.util
import itertools
import math
import os
import re
import shutil
import tempfile
import traceback
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, given, seed, settings

from dpsens.audit.metric_types import Metric, parse
from dpsens.audit.neighbours import measure
from dpsens.audit.sensitivity import Outcome, Violation, audit_function
from dpsens.check import check_paths

from programs import Program, programs

EXAMPLES = int(os.environ.get("DPSENS_FUZZ_EXAMPLES", "120"))
SEED = os.environ.get("DPSENS_FUZZ_SEED")
TRIALS = int(os.environ.get("DPSENS_FUZZ_TRIALS", "12"))
STATICS = {"int": 2, "float": 2.5}  # as test_case_files.py binds them
# Other bindings: a bound right only for c > 1 (c instead of abs(c), a missing 1/c) or
# only for k = 2 shows up under these.
ALT_STATICS = ({"int": 3, "float": -0.4}, {"int": 1, "float": 0.5})
SIZE_ORDERS = ((1, 2, 3, 5), (5, 3, 2, 1))  # per-parameter container sizes of two more passes
LOOSE = 1e-3  # fuzzing runs list bounds this far above every observed ratio
ROUNDING = 1e-10  # relative size of an excess that float rounding may explain (see genuine)

AUDIT_ERRORS: list[str] = []  # functions the auditor could not evaluate (printed by fuzzing runs)
LOOSE_BOUNDS: list[tuple[float, str, str]] = []  # (observed / reported, function.param, program)
_DIR = Path(tempfile.mkdtemp(prefix="dpsens_fuzz_"))
atexit.register(shutil.rmtree, _DIR, ignore_errors=True)
_NAMES = itertools.count()


class Analyzed:
    """A program's reports and its imported module."""

    def __init__(self, program: Program) -> None:
        number = next(_NAMES)
        self.path = _DIR / f"prog_{number}.py"
        self.path.write_text(program.source)
        self.program = program
        result = check_paths([str(self.path)])
        self.functions = [f for file in result.files for f in file.functions]
        self.diagnostics = [d for file in result.files for d in file.diagnostics]
        spec = importlib.util.spec_from_file_location(f"dpsens_fuzz_prog_{number}", self.path)
        assert spec is not None and spec.loader is not None
        self.module: ModuleType = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.module)


def statics_of(report: dict[str, Any], binding: dict[str, Any] = STATICS) -> dict[str, Any]:
    return {p["name"]: binding[p["type"].removeprefix("Static[").removesuffix("]")]
            for p in report["params"] if p["static"]}


def finite(report: dict[str, Any]) -> bool:
    return any(not p["static"] and p.get("sensitivity") not in (None, "inf") for p in report["params"])


def _magnitude(value: Any) -> float:
    try:
        array = np.abs(np.asarray(value, dtype=float))
    except (TypeError, ValueError):
        return 0.0
    return float(np.max(array, initial=0.0))


def genuine(v: Violation, metric: Metric | None) -> bool:
    """Not float rounding: the excess over the bound is far above the rounding of the values involved.

    Generated programs scale values by up to 2**k and 10**k, so an output near 1e9
    carries absolute rounding near 1e-7 (a ratio 1.00000007 was seen on d_in 0.5):
    an excess below ROUNDING times the largest input or output is not a finding.
    """
    assert metric is not None
    d_in = measure(metric, *v.inputs)
    excess = (v.ratio - v.claimed) * d_in
    scale = max(1.0, *(_magnitude(x) for x in (*v.inputs, *v.outputs)))
    return excess > ROUNDING * scale


_CONSTANTS = {"inf", "oo", "zoo", "nan", "pi", "E", "True", "False"}
_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(\s*\()?")
_DIMENSION = re.compile(r"\b(?:len|rows|cols)\((\w+)\)")


def foreign_names(report: dict[str, Any]) -> set[str]:
    """Symbols in the reported bounds and assumptions that are not the function's parameters:
    every free name of a report is one of its statics, or a parameter in len/rows/cols()."""
    params = {p["name"] for p in report["params"]}
    texts = [p.get("sensitivity") or "" for p in report["params"]] + list(report["assumptions"])
    names = {name for text in texts for name, call in _NAME.findall(text) if not call}
    names |= {name for text in texts for name in _DIMENSION.findall(text)}
    return names - params - _CONSTANTS


def sizes(report: dict[str, Any], order: tuple[int, ...]) -> dict[str, dict[str, int]]:
    """Different sizes for different container parameters (the auditor otherwise tries equal
    lengths first): a bound that names the wrong parameter's dimension shows up here."""
    out: dict[str, dict[str, int]] = {}
    containers = [p["name"] for p in report["params"]
                  if not p["static"] and p["type"].startswith(("MetricVector", "MetricMatrix"))]
    for i, name in enumerate(containers):
        size = order[i % len(order)]
        out[name] = {"len": size, "rows": size, "cols": order[(i + 1) % len(order)]}
    return out


def _audit(analyzed: Analyzed, report: dict[str, Any], binding: dict[str, Any],
           trials: int, dims: dict[str, dict[str, int]] | None = None) -> Outcome | None:
    if dims is not None and not dims:
        return None  # no containers: nothing to vary
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():  # inf - inf in measured outputs
            warnings.simplefilter("ignore", RuntimeWarning)
            return audit_function(getattr(analyzed.module, report["name"]), report,
                                  statics_of(report, binding), trials=trials, seed=3, dims=dims)
    except (ValueError, TypeError, ZeroDivisionError) as error:
        # The auditor itself cannot evaluate some reported expressions at some sizes
        # (1/(len(v) - 1) inside a max at len(v) = 1 is zoo, which sympy cannot compare):
        # no verdict on this function, which is not the analyzer's soundness.
        AUDIT_ERRORS.append(f"{type(error).__name__}: {error}\n{report}\n{analyzed.program.source}")
        return None


def failure(program: Program, what: str) -> str:
    return f"{what}\n--- program ---\n{program.source}"


def check_program(program: Program, trials: int = TRIALS) -> dict[str, int]:
    """Analyze and audit one program; raise AssertionError on a refuted bound or a crash."""
    try:
        analyzed = Analyzed(program)
    except Exception:  # noqa: BLE001 - the checker must not crash, the program must import
        raise AssertionError(failure(program, "crash:\n" + traceback.format_exc())) from None
    internal = [d for d in analyzed.diagnostics if d.code == "DPS001"]
    stats = {"functions": 0, "finite": 0, "ran": 0}
    assert not internal, failure(program, f"internal error: {internal}")
    for report in analyzed.functions:
        if report["kind"] != "sensitivity":
            continue
        stats["functions"] += 1
        foreign = foreign_names(report)
        assert not foreign, failure(program, f"{report['name']}: the report names {sorted(foreign)}, "
                                             f"which are not its parameters\nreport: {report}")
        if not finite(report) or any(p["static"] and not p["type"].startswith("Static[") for p in report["params"]):
            continue  # nothing finite, or a Callable parameter with no value to bind
        stats["finite"] += 1
        ran = False
        passes = [(STATICS, trials, None), *((alt, max(2, trials // 2), None) for alt in ALT_STATICS),
                  *((STATICS, max(2, trials // 2), sizes(report, order)) for order in SIZE_ORDERS)]
        for binding, count, dims in passes:
            outcome = _audit(analyzed, report, binding, count, dims)
            if outcome is None:
                continue
            ran = ran or outcome.trials > 0
            metrics = {p["name"]: parse(p["type"]) for p in report["params"] if not p["static"]}
            violations = [v for v in outcome.violations if genuine(v, metrics[v.parameter])]
            if violations:
                v = max(violations, key=lambda v: v.ratio / v.claimed if v.claimed else math.inf)
                raise AssertionError(failure(program, (
                    f"{report['name']}: parameter {v.parameter}: observed ratio {v.ratio!r} > reported "
                    f"{v.claimed!r} (statics {statics_of(report, binding)})\nreport: {report}\n"
                    f"inputs: {v.inputs!r}\noutputs: {v.outputs!r}")))
            for name, fraction in outcome.worst_fraction.items():
                if binding is STATICS and 0 < fraction < LOOSE:
                    LOOSE_BOUNDS.append((fraction, f"{report['name']}.{name}", program.source))
        stats["ran"] += ran
    return stats


# Shrinking re-analyzes and re-audits every candidate (minutes): off unless asked for.
SHRINK = os.environ.get("DPSENS_FUZZ_SHRINK") == "1"

_settings = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=SEED is None,
    print_blob=False,
    phases=(Phase.explicit, Phase.generate, *((Phase.shrink,) if SHRINK else ())),
    suppress_health_check=list(HealthCheck),
)


def _seeded(test: Any) -> Any:
    return seed(int(SEED))(test) if SEED is not None else test


@_seeded
@_settings
@given(programs())
def test_random_programs_are_sound(program: Program) -> None:
    check_program(program)


def test_generated_programs_run() -> None:
    """The check above is vacuous for programs that never run: most must (guards the generator)."""
    totals = {"functions": 0, "finite": 0, "ran": 0}

    @settings(max_examples=15, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(programs())
    def collect(program: Program) -> None:
        for key, value in check_program(program, trials=4).items():
            totals[key] += value

    collect()
    assert totals["finite"] >= 0.4 * totals["functions"], totals
    assert totals["ran"] >= 0.7 * totals["finite"], totals


def test_halved_bounds_are_refuted() -> None:
    """Negative control: the harness can refute a bound. Most reported bounds are attained
    (within a factor 2) on the neighbours the auditor draws, so halving each finite bound
    in turn must be refuted for most of them, or the check above would be vacuous."""
    totals = {"claims": 0, "refuted": 0}

    @settings(max_examples=12, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(programs())
    def collect(program: Program) -> None:
        analyzed = Analyzed(program)
        for report in analyzed.functions:
            if report["kind"] != "sensitivity":
                continue
            for param in report["params"]:
                if param["static"] or param["sensitivity"] in ("inf", "0"):
                    continue
                halved = copy.deepcopy(report)
                for other in halved["params"]:
                    if not other["static"]:
                        other["sensitivity"] = (f"({param['sensitivity']})/2" if other["name"] == param["name"]
                                                else "inf")
                outcome = _audit(analyzed, halved, STATICS, 8)
                if outcome is not None and outcome.trials:
                    totals["claims"] += 1
                    totals["refuted"] += bool(outcome.violations)

    collect()
    assert totals["claims"] >= 10, totals
    assert totals["refuted"] >= 0.6 * totals["claims"], totals
