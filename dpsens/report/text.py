"""The human-readable text format."""

from __future__ import annotations

from typing import Any

from dpsens.check import CheckResult


def render(result: CheckResult) -> str:
    """Per file: each function's report, then its diagnostics; a summary line last."""
    lines: list[str] = []
    for report in result.files:
        if report.functions:
            lines.append(report.path)
            for function in report.functions:
                lines.extend(_function(function))
        lines.extend(d.render() for d in report.diagnostics)
    lines.append(summary_line(result))
    return "\n".join(lines) + "\n"


def _function(f: dict[str, Any]) -> list[str]:
    out = [f"  {f['qualname']} (line {f['line']}): {f['kind']}"]
    for p in f["params"]:
        if p["static"]:
            cost = "static"
        elif "sensitivity" in p:
            cost = f"sensitivity {p['sensitivity']}"
        else:
            cost = f"epsilon {p['epsilon']}, delta {p['delta']}"
        out.append(f"    {p['name']}: {p['type']} -- {cost}")
    out.append(f"    returns: {f['returns']}")
    if f["assumptions"]:
        out.append(f"    assumes: {', '.join(f['assumptions'])}")
    if f.get("accounting"):
        out.append(f"    accounting: {f['accounting']}")
    for m in f.get("mechanisms", []):
        fields = ", ".join(f"{k}={v}" for k, v in m.items() if k != "mechanisms")
        out.append("    mechanism: " + fields)
    return out


def summary_line(result: CheckResult) -> str:
    """mypy-style: 'Found 3 errors in 2 files (checked 10 source files)'."""
    errors = result.errors
    files = len({d.path for d in result.diagnostics if d.severity == "error"})
    checked = f"checked {result.checked} source file{'s' if result.checked != 1 else ''}"
    if errors == 0:
        return f"Success: no errors found ({checked})"
    return (f"Found {errors} error{'s' if errors != 1 else ''} in {files} "
            f"file{'s' if files != 1 else ''} ({checked})")
