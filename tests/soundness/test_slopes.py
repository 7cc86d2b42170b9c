"""R-slope's bounds against a dense scan: tests/cases/slopes.py's functions of real numbers
run on a grid of step 2.5e-4 over [-5, 10] (every interval the cases clip to is inside, and
the steepest point of each unclipped one), one parameter moving at a time.

Adjacent points give the steepest |f(a) - f(b)| / |a - b| to within the step, so no
reported bound may be beaten, and the bounds the case file calls exact must be reached.
The random audit (test_case_files.py) only samples a few pairs near the steepest point.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dpsens.audit.sensitivity import evaluate
from dpsens.check import check_paths

from case_files import CASES, load, statics_of  # type: ignore[import-not-found]

PATH: Path = CASES / "slopes.py"
GRID = np.linspace(-5.0, 10.0, 60_001)
OTHERS = 0.5  # the value of the parameters that do not move
# The bounds the case file says are the exact suprema (at its statics: c = 2.5, k = 2).
EXACT = {
    "exp_on_an_interval", "expm1_on_an_interval", "log_on_an_interval", "log2_on_an_interval",
    "log10_on_an_interval", "log1p_on_an_interval", "sqrt_on_an_interval",
    "tanh_away_from_zero", "tanh_anywhere", "arctan_below_zero", "arctan_anywhere",
    "sin_anywhere", "cos_anywhere", "math_exp", "math_expm1", "math_log", "math_log2",
    "math_log10", "math_log1p", "math_sqrt", "math_tanh", "math_atan", "math_sin_and_cos",
    "exp_up_to_a_static", "log_from_a_static", "log_from_a_positive_static",
    "static_exponential",
}


def _real_functions() -> list[dict[str, Any]]:
    """The reported functions whose sensitive parameters are all Real numbers."""
    [file] = check_paths([str(PATH)]).files
    return [f for f in file.functions if f["kind"] == "sensitivity" and all(
        p["static"] or p["type"] == "Real" for p in f["params"])]


FUNCTIONS = _real_functions()


def _steepest(function: Any, statics: dict[str, Any], moving: str, others: list[str]) -> float:
    """The largest |f(a) - f(b)| / |a - b| over adjacent grid points."""
    with np.errstate(all="ignore"):
        values = np.array([float(function(**statics, **{n: OTHERS for n in others}, **{moving: x}))
                           for x in GRID])
    ratios = np.abs(np.diff(values)) / np.diff(GRID)
    return float(np.nanmax(np.where(np.isfinite(ratios), ratios, np.inf)))


@pytest.mark.parametrize("report", FUNCTIONS, ids=[f["name"] for f in FUNCTIONS])
def test_no_grid_pair_beats_the_bound(report: dict[str, Any]) -> None:
    statics = statics_of(report)
    function = getattr(load(PATH), report["name"])
    sensitive = [p["name"] for p in report["params"] if not p["static"]]
    for name in sensitive:
        claimed = evaluate(next(p["sensitivity"] for p in report["params"] if p["name"] == name),
                           statics, {})
        seen = _steepest(function, statics, name, [n for n in sensitive if n != name])
        assert seen <= claimed * (1 + 1e-9), f"{name}: {seen} above the claim {claimed}"
        if report["name"] in EXACT:
            assert seen >= claimed * (1 - 1e-3), f"{name}: {seen}, not the exact {claimed}"


def test_the_math_functions_are_scanned() -> None:
    """The scan covers the scalar cases (a renamed case would silently drop out)."""
    assert EXACT <= {f["name"] for f in FUNCTIONS}
