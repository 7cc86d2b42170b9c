"""The check pipeline: files -> parsed modules -> program -> per-file reports."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from dpsens import ir
from dpsens.diagnostics import Diagnostic
from dpsens.files import collect, display, module_name
from dpsens.options import Options
from dpsens.report.model import FileReport, function_report


@dataclass
class CheckResult:
    """Everything a run found, in output order."""

    files: list[FileReport] = field(default_factory=list)
    checked: int = 0  # source files looked at

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for f in self.files for d in f.diagnostics]

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")


def mentions_dpsens(text: str) -> bool:
    """The cheap pre-filter: a file that never names dpsens has nothing to analyze."""
    return "dpsens" in text


def check_paths(paths: Sequence[str], stub_dirs: Sequence[Path] = (),
                options: Options | None = None) -> CheckResult:
    """Analyze every file under the paths."""
    files, missing = collect(paths)
    result = CheckResult(checked=len(files))
    for raw in missing:
        shown = Path(raw).as_posix()
        result.files.append(FileReport(shown, diagnostics=[
            Diagnostic(shown, 1, 1, "DPS002", "no such file or directory")]))
    sources = {path: display(path) for path in files}
    result.files.extend(check_sources(sources, stub_dirs, options))
    result.files.sort(key=lambda f: f.path)
    return result


def check_sources(sources: dict[Path, str], stub_dirs: Sequence[Path] = (),
                  options: Options | None = None) -> list[FileReport]:
    """Parse, analyze and report the given files (path -> displayed path).

    Files that never name dpsens are skipped cheaply, unless an analyzed module
    imports them: then their functions are analyzed where they are called.
    """
    from dpsens.frontend.parse import parse_module, read_source

    reports: dict[str, FileReport] = {}
    modules: list[ir.Module] = []
    skipped: dict[str, tuple[Path, str, str]] = {}  # module name -> (path, shown, text)
    for path, shown in sources.items():
        text, problems = read_source(path, shown)
        report = FileReport(shown, diagnostics=list(problems))
        if text is None or not mentions_dpsens(text):
            if problems:
                reports[shown] = report
            elif text is not None:
                skipped[module_name(path)] = (path, shown, text)
            continue
        module, problems = parse_module(text, shown, module_name(path))
        report.diagnostics.extend(problems)
        reports[shown] = report
        if module is not None:
            modules.append(module)
    helpers = _imported_helpers(modules, skipped)
    if modules:
        _analyze(modules, helpers, reports, stub_dirs, options or Options())
    for report in reports.values():
        report.diagnostics = sorted(set(report.diagnostics))
    return list(reports.values())


def _imported_helpers(modules: list[ir.Module],
                      skipped: dict[str, tuple[Path, str, str]]) -> list[ir.Module]:
    """Modules that analyzed modules import (transitively) but that are not reported.

    They are files of the checked set that never name dpsens, or files on disk
    next to the checked ones (a pre-commit run passes only the staged files).
    """
    from dpsens.frontend.parse import parse_module, read_source

    known = {m.name for m in modules}
    helpers: list[ir.Module] = []
    pending = list(modules)
    while pending:
        module = pending.pop()
        for target in module.imports.values():
            for name in _candidate_modules(target):
                if name in known:
                    break
                found = skipped.pop(name, None) or _on_disk(module, name)
                if found is None:
                    continue
                path, shown, text = found
                helper, _ = parse_module(text, shown, name) if text is not None else (None, [])
                known.add(name)
                if helper is not None:
                    helpers.append(helper)
                    pending.append(helper)
                break
    return helpers


def _on_disk(importer: ir.Module, name: str) -> tuple[Path, str, str | None] | None:
    """The source of module ``name`` beside the importing module's package root."""
    from dpsens.frontend.parse import read_source

    depth = len(importer.name.split("."))
    root = Path(importer.path).parent
    if Path(importer.path).name == "__init__.py":
        depth -= 1
    for _ in range(depth - 1):
        root = root.parent
    relative = Path(*name.split("."))
    for candidate in (root / relative.with_suffix(".py"), root / relative / "__init__.py"):
        if candidate.is_file():
            text, _ = read_source(candidate, display(candidate))
            return candidate, display(candidate), text
    return None


def _candidate_modules(qualified: str) -> list[str]:
    """``pkg.mod.func`` may name module pkg.mod.func or pkg.mod."""
    parts = qualified.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def _analyze(modules: list[ir.Module], helpers: list[ir.Module], reports: dict[str, FileReport],
             stub_dirs: Sequence[Path], options: Options) -> None:
    from dpsens.infer.program import Program
    from dpsens.rules.table import RuleTable

    program = Program(modules + helpers, RuleTable(stub_dirs), options)
    for qualname, (module, function) in program.functions.items():
        if module.path not in reports:
            continue  # a helper module: analyzed at its call sites only
        try:
            summary = program.summary(qualname, function.span, None)  # type: ignore[arg-type]
        except Exception as error:  # noqa: BLE001 - every crash becomes a finding
            program.summaries.pop(qualname, None)
            _internal_error(program, module, function, error)
            continue
        reports[module.path].functions.append(function_report(summary))
    for module in modules + helpers:
        found = program.diagnostics.get(module.path, set())
        if module.path not in reports:
            if not found:
                continue
            reports[module.path] = FileReport(module.path)
        reports[module.path].diagnostics.extend(_unsuppressed(module, found))


def _internal_error(program: object, module: ir.Module, function: ir.Function,
                    error: Exception) -> None:
    frame = traceback.extract_tb(error.__traceback__)[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno}"
    message = (f"internal error while analyzing '{function.name}': {type(error).__name__}: "
               f"{error} (at {where}); please report this to the dpsens developers")
    program.report(module, function.span, "DPS001", message)  # type: ignore[attr-defined]


def _unsuppressed(module: ir.Module, found: set[Diagnostic]) -> list[Diagnostic]:
    """Drop diagnostics silenced by ``# dpsens: ignore[CODE]`` on their line."""
    return [d for d in found if d.code not in module.suppressions.get(d.line, frozenset())]


__all__ = ["CheckResult", "check_paths", "check_sources"]
