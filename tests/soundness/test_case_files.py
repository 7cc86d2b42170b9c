"""Every sensitivity the case files pin is checked against reality on neighbouring inputs.

This is the analyzer-level property test: whatever rule produced a bound,
running the function on random and adversarial neighbours must not beat it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dpsens.audit.sensitivity import audit_function
from dpsens.check import check_paths

CASES = Path(__file__).resolve().parents[1] / "cases"
STATICS = {"int": 2, "float": 2.5, "bool": True}


_MODULES: dict[Path, ModuleType | None] = {}


def _load(path: Path) -> ModuleType | None:
    """The case module, or None when it cannot run (its point is a bad annotation)."""
    if path not in _MODULES:
        spec = importlib.util.spec_from_file_location(f"case_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except (TypeError, NameError):
            _MODULES[path] = None
        else:
            _MODULES[path] = module
    return _MODULES[path]


def _functions() -> list[tuple[Path, dict[str, Any]]]:
    found = []
    for path in sorted(CASES.glob("*.py")):
        for file in check_paths([str(path)]).files:
            found.extend((path, f) for f in file.functions if f["kind"] == "sensitivity")
    return found


def _statics(report: dict[str, Any]) -> dict[str, Any] | None:
    bound = {}
    for param in report["params"]:
        if param["static"]:
            kind = param["type"].removeprefix("Static[").removesuffix("]")
            if kind not in STATICS:
                return None
            bound[param["name"]] = STATICS[kind]
    return bound


FUNCTIONS = _functions()


@pytest.mark.parametrize("path,report", FUNCTIONS,
                         ids=[f"{p.stem}.{r['name']}" for p, r in FUNCTIONS])
def test_reported_sensitivity_holds(path: Path, report: dict[str, Any]) -> None:
    statics = _statics(report)
    if statics is None:
        pytest.skip("a function-valued parameter has no value to bind")
    module = _load(path)
    if module is None:
        pytest.skip("the case file does not import (it tests bad annotations)")
    outcome = audit_function(getattr(module, report["name"]), report, statics, trials=40, seed=3)
    assert not outcome.violations, outcome.violations[0]


def test_most_case_functions_are_exercised() -> None:
    """The check above is vacuous for functions that never run; keep those few."""
    ran = 0
    for path, report in FUNCTIONS:
        statics, module = _statics(report), _load(path)
        if statics is None or module is None:
            continue
        outcome = audit_function(getattr(module, report["name"]), report, statics,
                                 trials=4, seed=3)
        ran += outcome.trials > 0
    assert ran >= 0.6 * len(FUNCTIONS), f"only {ran} of {len(FUNCTIONS)} functions ran"
    print(f"{ran} of {len(FUNCTIONS)} case functions ran on neighbouring inputs")
