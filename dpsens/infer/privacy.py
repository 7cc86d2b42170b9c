"""Privacy functions: the per-parameter (ε, δ) ledger (see docs/privacy.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from dpsens import ir
from dpsens import types as T
from dpsens.infer.values import Value, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.infer.summary import Summary


class PrivacyRules:
    """Mixin of Analysis for calls that spend privacy."""

    def privacy_call(self: Analysis, summary: Summary, bound: dict[str, Value | None],
                     span: ir.Span, result_type: T.Type) -> Value:
        """A call of a privacy function from this function."""
        if not self.privacy:
            self.report(span, "DPS302", f"privacy function {summary.name}() called in a "
                        "function that is not declared -> Priv[...]")
        return unknown(C.total(v.ctx for v in bound.values() if v is not None))

    def privacy_parameter_call(self: Analysis, name: str, args: Sequence[Value],
                               span: ir.Span) -> Value:
        """A call of a PrivacyFunction parameter."""
        if not self.privacy:
            self.report(span, "DPS302", f"privacy function '{name}' called in a function that "
                        "is not declared -> Priv[...]")
        return unknown(C.total(a.ctx for a in args))

    def finish_privacy(self: Analysis, summary: Summary, result: Value) -> None:
        """Per-parameter (ε, δ) of a privacy function."""
        for param in summary.params:
            if not param.static:
                param.epsilon = E.INF
                param.delta = E.INF
