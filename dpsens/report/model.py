"""The report of a check run, in the shape of the JSON v1 format (SPEC §8)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dpsens.diagnostics import Diagnostic

if TYPE_CHECKING:  # a cached run builds FileReports without loading the analyzer (sympy)
    from dpsens.infer.summary import Summary


@dataclass
class FileReport:
    """One checked file: its function reports and its diagnostics."""

    path: str
    functions: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def function_report(summary: Summary) -> dict[str, Any]:
    """The JSON object of one function."""
    from dpsens.sym import expr as E

    params = []
    for param in summary.params:
        entry: dict[str, Any] = {"name": param.name, "type": param.text, "static": param.static}
        if not param.static:
            if summary.kind in ("privacy", "local_randomizer"):
                entry["epsilon"] = E.render(param.epsilon)
                entry["delta"] = E.render(param.delta)
            else:
                entry["sensitivity"] = E.render(param.sensitivity)
        params.append(entry)
    report: dict[str, Any] = {
        "name": summary.name, "qualname": summary.qualname, "line": summary.line,
        "kind": summary.kind, "params": params, "returns": summary.ret_text,
        "assumptions": list(summary.assumptions),
    }
    if summary.kind in ("privacy", "local_randomizer"):
        report["accounting"] = summary.accounting
        report["mechanisms"] = list(summary.mechanisms)
    return report


def diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    """The JSON object of one diagnostic; an end position that is not known is null.

    Diagnostics about a whole file (unreadable, undecodable, unparsable, too large) and
    suppression comments have no end (0 in the Diagnostic); SARIF and GitHub omit it.
    """
    end_line = d.end_line if d.end_line >= max(d.line, 1) else None
    end_column = (d.end_column if end_line is not None and d.end_column >= 1
                  and (end_line > d.line or d.end_column >= d.column) else None)
    return {"code": d.code, "severity": d.severity, "line": d.line, "column": d.column,
            "end_line": end_line, "end_column": end_column, "message": d.message}
