"""The bundled examples: pinned reports, they run, and their bounds hold on real inputs."""

from __future__ import annotations

import importlib.util
import runpy
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dpsens.audit.sensitivity import audit_function
from dpsens.check import check_paths
from tests.golden.regenerate import GOLDEN, pinned_outputs

EXAMPLES = sorted(p for p in Path("examples").resolve().glob("*.py") if p.name != "__init__.py")
STATIC_BINDINGS = {"column": 0, "upper": 5.0, "bins": 3, "steps": 4, "flag": True}


@pytest.mark.parametrize("name", ["examples.json", "examples.txt"])
def test_reports_are_pinned(name: str) -> None:
    """Regenerate with: python tests/golden/regenerate.py"""
    assert pinned_outputs()[name] == (GOLDEN / name).read_text()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(path), run_name="__main__")
    assert capsys.readouterr().out.strip()


def _load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{Path(path).stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sensitivity_functions() -> list[tuple[str, dict[str, Any]]]:
    result = check_paths(["examples"])
    return [(f.path, r) for f in result.files for r in f.functions if r["kind"] == "sensitivity"]


@pytest.mark.parametrize("path,report", _sensitivity_functions(),
                         ids=lambda v: v["name"] if isinstance(v, dict) else Path(v).stem)
def test_reported_bound_holds_on_neighbours(path: str, report: dict[str, Any]) -> None:
    function = getattr(_load(path), report["name"])
    statics = {p["name"]: STATIC_BINDINGS[p["name"]] for p in report["params"] if p["static"]}
    outcome = audit_function(function, report, statics, trials=80, seed=1)
    assert outcome.trials > 0, "no input shape was accepted"
    assert not outcome.violations, outcome.violations[0]
