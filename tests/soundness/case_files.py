"""What the soundness tests share about the case files: where they are, the static values
bound to them, loading one, and a report's claims at concrete sizes. Importing it does no
analysis (test_case_files.py analyzes every case file when it is imported)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from dpsens.audit.sensitivity import evaluate

CASES = Path(__file__).resolve().parents[1] / "cases"
STATICS = {"int": 2, "float": 2.5, "bool": True}

_MODULES: dict[Path, ModuleType | None] = {}


def load(path: Path) -> ModuleType | None:
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


def statics_of(report: dict[str, Any]) -> dict[str, Any] | None:
    """The static values bound to a reported function (None: a kind without a value)."""
    bound = {}
    for param in report["params"]:
        if param["static"]:
            kind = param["type"].removeprefix("Static[").removesuffix("]")
            if kind not in STATICS:
                return None
            bound[param["name"]] = STATICS[kind]
    return bound


def claims_at(report: dict[str, Any], statics: dict[str, Any],
              args: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """The reported (ε, δ) of every private parameter at the sizes of the arguments."""
    sizes = {}
    for name, value in args.items():
        shape = np.shape(value)
        sizes[name] = {"rows": shape[0], "len": shape[0], "cols": shape[1]} if len(shape) == 2 \
            else {"rows": shape[0], "len": shape[0]} if shape else {}
    return {p["name"]: (evaluate(p["epsilon"], statics, sizes), evaluate(p["delta"], statics, sizes))
            for p in report["params"] if not p["static"]}
