"""The human-readable text format (optionally coloured, quiet, or as statistics)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from dpsens.check import CheckResult
from dpsens.diagnostics import Diagnostic

_BOLD, _RED, _YELLOW, _GREEN, _CYAN, _RESET = (f"\x1b[{n}m" for n in ("1", "31", "33", "32",
                                                                      "36", "0"))


def render(result: CheckResult, quiet: bool = False, color: bool = False,
           statistics: bool = False) -> str:
    """Per file: each function's report, then its diagnostics; a summary line last.

    ``quiet`` keeps only the diagnostics (or the statistics), as ``ruff -q`` does.
    """
    paint = _Painter(color)
    lines: list[str] = []
    if statistics:
        lines.extend(statistics_lines(result))
    else:
        for report in result.files:
            if report.functions and not quiet:
                lines.append(paint(report.path, _BOLD))
                for function in report.functions:
                    lines.extend(_function(function))
            lines.extend(_diagnostic(d, paint) for d in report.diagnostics)
    if not quiet:
        summary = summary_line(result)
        lines.append(paint(summary, _RED if result.errors else _GREEN))
    return "".join(line + "\n" for line in lines)


def statistics_lines(result: CheckResult) -> list[str]:
    """``count  code  name`` per reported code, most frequent first (ruff --statistics)."""
    from dpsens.codes import REGISTRY

    counts = Counter(d.code for d in result.diagnostics)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    width = max((len(str(n)) for _, n in rows), default=1)
    return [f"{n:>{width}}  {code}  {REGISTRY[code].name if code in REGISTRY else ''}".rstrip()
            for code, n in rows]


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *styles: str) -> str:
        return f"{''.join(styles)}{text}{_RESET}" if self.enabled else text


def _diagnostic(d: Diagnostic, paint: _Painter) -> str:
    if not paint.enabled:
        return d.render()
    tone = _RED if d.severity == "error" else _YELLOW if d.severity == "warning" else _CYAN
    where = paint(f"{d.path}:{d.line}:{d.column}:", _BOLD)
    return f"{where} {paint(d.code, _BOLD, tone)} {d.message}"


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
        fields = ", ".join(f"{k}={_field(v)}" for k, v in m.items() if k != "mechanisms")
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


def _field(value: object) -> str:
    """A mechanism field: ``x: (2, 0); y: (1, 0)`` for a per-parameter mapping."""
    if isinstance(value, dict):
        return "{" + "; ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)
