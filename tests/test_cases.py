"""Data-driven tests: case files carry their expected results as comments.

On a ``def`` line, ``# expect: x=2; y=inf; returns=Real; assumes=abs(c) <= 1``
lists the expected per-parameter sensitivity (or ``static``), the return type
and the assumptions; privacy functions expect ``x=(eps, 0); accounting=sequential``.  ``# E: DPS201`` on any line expects that diagnostic
there; every diagnostic of a case file must be expected.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dpsens.check import check_paths

CASES = sorted((Path(__file__).parent / "cases").glob("*.py"))
_EXPECT = re.compile(r"^\s*def (\w+).*#\s*expect:\s*(.*?)\s*(?:#\s*E:.*)?$")
_ERROR = re.compile(r"#\s*E:\s*([A-Z0-9 ,]+)")


def expectations(path: Path) -> tuple[dict[str, dict[str, str]], set[tuple[int, str]]]:
    """Expected function results and (line, code) diagnostics of a case file."""
    functions: dict[str, dict[str, str]] = {}
    diagnostics: set[tuple[int, str]] = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        match = _EXPECT.match(line)
        if match:
            fields = [f.strip() for f in match.group(2).split(";") if f.strip()]
            functions[match.group(1)] = dict(f.split("=", 1) for f in fields)
        for codes in _ERROR.findall(line):
            diagnostics |= {(number, c.strip()) for c in codes.split(",") if c.strip()}
    return functions, diagnostics


def actual(report: dict[str, object]) -> dict[str, str]:
    """The same fields from a function's JSON report."""
    out: dict[str, str] = {}
    for param in report["params"]:  # type: ignore[attr-defined]
        if param["static"]:
            out[param["name"]] = "static"
        elif "sensitivity" in param:
            out[param["name"]] = param["sensitivity"]
        else:
            out[param["name"]] = f"({param['epsilon']}, {param['delta']})"
    if report.get("accounting"):
        out["accounting"] = str(report["accounting"])
    out["returns"] = str(report["returns"])
    if report["assumptions"]:
        out["assumes"] = ", ".join(report["assumptions"])  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_case_file(case: Path) -> None:
    expected_functions, expected_diagnostics = expectations(case)
    result = check_paths([str(case.relative_to(Path.cwd()))])
    [report] = result.files
    reported = {f["name"]: actual(f) for f in report.functions}
    assert expected_functions, "a case file must expect something"
    for name, fields in expected_functions.items():
        assert name in reported, f"{name} was not reported"
        got = {k: v for k, v in reported[name].items()
               if k in fields or k in ("assumes", "accounting")}
        assert got == fields, f"{case.name}:{name}"
    # DPS311 notes explain reported infinities (tests/test_notes.py), and are not findings.
    found = {(d.line, d.code) for d in report.diagnostics if d.code != "DPS311"}
    assert found == expected_diagnostics
