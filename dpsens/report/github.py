"""GitHub Actions workflow commands: each diagnostic becomes an annotation on the pull request."""

from __future__ import annotations

from dpsens.check import CheckResult
from dpsens.diagnostics import Diagnostic
from dpsens.files import from_repository_root

_COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def render(result: CheckResult) -> str:
    """``::error file=…,line=…,col=…,endLine=…,endColumn=…,title=DPSnnn::message`` lines."""
    return "".join(annotation(d) + "\n" for d in result.diagnostics)


def annotation(d: Diagnostic) -> str:
    """One workflow command (columns are 1-based, as GitHub expects)."""
    # GitHub resolves file= from the repository root, not from where dpsens ran.
    properties = [("file", from_repository_root(d.path)), ("line", str(d.line)),
                  ("col", str(d.column))]
    if d.end_line >= d.line and d.end_line > 0:
        properties.append(("endLine", str(d.end_line)))
        if d.end_column > 0:
            properties.append(("endColumn", str(d.end_column)))
    properties.append(("title", d.code))
    fields = ",".join(f"{key}={_property(value)}" for key, value in properties)
    return f"::{_COMMANDS.get(d.severity, 'warning')} {fields}::{_data(d.message)}"


def _data(text: str) -> str:
    """Escaping of the message part (GitHub's toolkit: %, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """Escaping of a property value: also ':' and ',' which delimit properties."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


__all__ = ["annotation", "render"]
