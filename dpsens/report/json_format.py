"""The stable JSON report, version 1 (SPEC §8)."""

from __future__ import annotations

import json

from dpsens.check import CheckResult
from dpsens.report.model import diagnostic_json


def render(result: CheckResult) -> str:
    """The JSON text of a run."""
    document = {
        "version": 1,
        "files": [
            {"path": f.path, "functions": f.functions,
             "diagnostics": [diagnostic_json(d) for d in f.diagnostics]}
            for f in result.files
        ],
    }
    return json.dumps(document, indent=2) + "\n"
