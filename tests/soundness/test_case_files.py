"""Every sensitivity the case files pin is checked against reality on neighbouring inputs.

This is the analyzer-level property test: whatever rule produced a bound,
running the function on random and adversarial neighbours must not beat it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dpsens.audit.sensitivity import audit_function
from dpsens.check import check_paths

from case_files import CASES, load, statics_of  # type: ignore[import-not-found]



def _functions() -> list[tuple[Path, dict[str, Any]]]:
    found = []
    for path in sorted(CASES.glob("*.py")):
        for file in check_paths([str(path)]).files:
            found.extend((path, f) for f in file.functions if f["kind"] == "sensitivity")
    return found


FUNCTIONS = _functions()


@pytest.mark.parametrize("path,report", FUNCTIONS,
                         ids=[f"{p.stem}.{r['name']}" for p, r in FUNCTIONS])
def test_reported_sensitivity_holds(path: Path, report: dict[str, Any]) -> None:
    statics = statics_of(report)
    if statics is None:
        pytest.skip("a function-valued parameter has no value to bind")
    module = load(path)
    if module is None:
        pytest.skip("the case file does not import (it tests bad annotations)")
    outcome = audit_function(getattr(module, report["name"]), report, statics, trials=40, seed=3)
    assert not outcome.violations, outcome.violations[0]


def test_most_case_functions_are_exercised() -> None:
    """The check above is vacuous for functions that never run; keep those few."""
    ran = 0
    for path, report in FUNCTIONS:
        statics, module = statics_of(report), load(path)
        if statics is None or module is None:
            continue
        outcome = audit_function(getattr(module, report["name"]), report, statics,
                                 trials=4, seed=3)
        ran += outcome.trials > 0
    assert ran >= 0.6 * len(FUNCTIONS), f"only {ran} of {len(FUNCTIONS)} functions ran"
    print(f"{ran} of {len(FUNCTIONS)} case functions ran on neighbouring inputs")
