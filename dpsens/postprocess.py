"""After analysis (or the cache): budgets, selected codes, then suppression comments."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dpsens.check import CheckResult, Settings
    from dpsens.graph import ModuleGraph


def finish(result: CheckResult, graph: ModuleGraph, settings: Settings) -> None:
    """Filter and extend every file's diagnostics in place.

    These steps are cheap and run on every run, so the cache stores raw
    analysis results and changing select/ignore or a budget needs no re-analysis.
    """
    for report in result.files:
        source = graph.sources.get(report.path)
        text = source.text if source is not None else None
        found = set(report.diagnostics)
        if settings.budgets and source is not None and report.functions:
            from dpsens.budget import findings

            found.update(findings(report.path, source.name, report.functions,
                                  settings.budgets, text, settings.options.delta_prime))
        kept = [d for d in found if settings.selection.enabled(d.code)]
        if text is not None and "dpsens:" in text:
            from dpsens.selection import ALWAYS
            from dpsens.suppressions import apply

            # Unparsable, too large, timed out or crashed: what the analysis would have
            # reported is unknown, so no comment can be called unused (DPS502).
            analyzed = not any(d.code in ALWAYS for d in found)
            kept = apply(report.path, text, kept, settings.selection, judge_unused=analyzed)
        report.diagnostics = sorted(set(kept))


__all__ = ["finish"]
