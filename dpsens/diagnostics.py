"""Source spans and diagnostics: the values every phase reports problems with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Span:
    """A source range; lines are 1-based, columns 0-based (as LibCST gives them)."""

    line: int
    column: int
    end_line: int
    end_column: int


NO_SPAN = Span(1, 0, 1, 0)


class SentSpan:
    """A lazy span after it crossed to another process (dpsens.parse_ahead): its numbers,
    no LibCST node; compared by identity, as the lazy span was."""

    __slots__ = ("line", "column", "end_line", "end_column", "statement_line")

    def __init__(self, line: int, column: int, end_line: int, end_column: int,
                 statement_line: int) -> None:
        self.line, self.column, self.end_line, self.end_column = line, column, end_line, end_column
        self.statement_line = statement_line


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding: a code, where it is, and a message for the user."""

    path: str
    line: int
    column: int  # 1-based, as printed
    code: str
    message: str
    severity: str = "error"
    end_line: int = 0
    end_column: int = 0

    @staticmethod
    def at(path: str, span: Span, code: str, message: str, severity: str = "") -> Diagnostic:
        """Build a diagnostic from a 0-based-column span, defaulting the code's severity."""
        from dpsens.codes import severity_of

        return Diagnostic(
            path=path,
            line=span.line,
            column=span.column + 1,
            code=code,
            message=message,
            severity=severity or severity_of(code),
            end_line=span.end_line,
            end_column=span.end_column + 1,
        )

    def render(self) -> str:
        """The ``path:line:col: DPSnnn message`` line of the text format."""
        return f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}"
