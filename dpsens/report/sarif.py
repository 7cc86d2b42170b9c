"""SARIF 2.1.0, the format code-scanning services (GitHub, Azure DevOps) ingest."""

from __future__ import annotations

import json
from typing import Any

from dpsens.check import CheckResult
from dpsens.diagnostics import Diagnostic
from dpsens.files import from_repository_root

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "note": "note"}


def render(result: CheckResult) -> str:
    """One run with every code as a rule, and a result per diagnostic."""
    import dpsens
    from dpsens.codes import REGISTRY

    codes = sorted(REGISTRY)
    index = {code: i for i, code in enumerate(codes)}
    driver = {
        "name": "dpsens", "version": dpsens.__version__, "semanticVersion": dpsens.__version__,
        "rules": [_rule(REGISTRY[code]) for code in codes],
    }
    document = {
        "$schema": SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            # LibCST columns count code points; SARIF's default is UTF-16 code units.
            "columnKind": "unicodeCodePoints",
            # False whenever the run exits 2 for the analysis: a crash (DPS001), the time
            # limit (DPS005) or the size limit (DPS006) left part of it undone.
            "invocations": [{"executionSuccessful": not result.incomplete}],
            "results": [_result(d, index) for d in result.diagnostics],
        }],
    }
    return json.dumps(document, indent=2) + "\n"


def _rule(entry: Any) -> dict[str, Any]:
    from dpsens.codes import explain

    return {
        "id": entry.code, "name": _camel(entry.name),
        "shortDescription": {"text": entry.name.replace("-", " ")},
        "fullDescription": {"text": entry.what},
        "help": {"text": explain(entry.code) or entry.what,
                 "markdown": f"{entry.what}\n\n**Why:** {entry.why}\n\n"
                             f"**Example:**\n\n```python\n{entry.example}\n```"},
        "defaultConfiguration": {"level": _LEVELS.get(entry.severity, "warning")},
        "properties": {"tags": ["differential-privacy"]},
    }


def _camel(name: str) -> str:
    """SARIF rule names are identifiers: released-without-noise -> ReleasedWithoutNoise."""
    return "".join(part.capitalize() for part in name.split("-"))


def _result(d: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    region: dict[str, int] = {"startLine": max(d.line, 1), "startColumn": max(d.column, 1)}
    if d.end_line >= d.line and d.end_line > 0:
        region["endLine"] = d.end_line
        if d.end_column >= 1 and (d.end_line > d.line or d.end_column > d.column):
            region["endColumn"] = d.end_column
    out: dict[str, Any] = {
        "ruleId": d.code,
        "level": _LEVELS.get(d.severity, "warning"),
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": _uri(d.path), "uriBaseId": "%SRCROOT%"},
            "region": region,
        }}],
    }
    if d.code in index:
        out["ruleIndex"] = index[d.code]
    return out


def _uri(path: str) -> str:
    """A URI reference relative to the repository root: POSIX separators, percent-encoded."""
    from urllib.parse import quote

    return quote(from_repository_root(path), safe="/._-~")


__all__ = ["render"]
