"""Run parse and analysis tasks in this process or across a pool of processes."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence, TextIO

from dpsens.options import Options

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from dpsens import ir
    from dpsens.diagnostics import Diagnostic
    from dpsens.rules.table import RuleTable


# A module as tasks carry it: (displayed path, module name, content digest, text).
Row = tuple[str, str, str, str]

# Parse results of this process, by (path, name, digest). In one process the driver's
# parse serves the analysis too; with workers, the driver only scans imports and each
# worker parses what its bundle needs (shipping text and parsing again is as cheap as
# pickling the IR, a deep tree of small objects holding LibCST nodes for positions).
_PARSED: dict[tuple[str, str, str], tuple[ir.Module | None, list[Diagnostic]]] = {}
# Parsed stub files by path, for the rule table (filled ahead by dpsens.parse_ahead).
_STUBS: dict[Path, tuple[ir.Module | None, list[Diagnostic]]] = {}


def parse_task(shown: str, name: str, text: str) -> tuple[ir.Module | None, list[Diagnostic]]:
    """LibCST-parse and lower one module."""
    from dpsens.frontend import parse

    return parse.parse_module(text, shown, name)


def parsed(row: Row) -> tuple[ir.Module | None, list[Diagnostic]]:
    """The IR of a module, parsed at most once per process."""
    shown, name, digest, text = row
    key = (shown, name, digest)
    if key not in _PARSED:
        _PARSED[key] = parse_task(shown, name, text)
    return _PARSED[key]


def parse_stub(path: Path) -> tuple[ir.Module | None, list[Diagnostic]]:
    """Read, LibCST-parse and lower one stub file."""
    from dpsens.frontend.parse import parse_module, read_source

    text, problems = read_source(path, path.name)
    if text is None:
        return None, problems
    module, more = parse_module(text, path.name, path.stem)
    return module, problems + more


def parsed_stub(path: Path) -> tuple[ir.Module | None, list[Diagnostic]]:
    """The IR of a stub file, parsed at most once per run."""
    if path not in _STUBS:
        _STUBS[path] = parse_stub(path)
    return _STUBS[path]


def remember(modules: dict[tuple[str, str, str], tuple[ir.Module | None, list[Diagnostic]]],
             stubs: dict[Path, tuple[ir.Module | None, list[Diagnostic]]],
             strings: dict[str, ir.Expr | None]) -> None:
    """Take parses made elsewhere (dpsens.parse_ahead) as this process's own."""
    from dpsens.frontend import strings as parsed_strings

    _PARSED.update(modules)
    _STUBS.update(stubs)
    parsed_strings.remember(strings)


def forget() -> None:
    """Drop parsed modules, strings and rule tables: the next run may see edited files and
    stubs."""
    from dpsens.frontend import strings

    _PARSED.clear()
    _STUBS.clear()
    strings.forget()
    rules.cache_clear()


def analyze_task(members: list[Row], closure: list[Row], stub_dirs: tuple[Path, ...],
                 options: Options, seconds: float | None = None) -> dict[str, Any]:
    """Analyze one unit's functions, each file within ``seconds``: file -> {functions,
    diagnostics} (JSON-able)."""
    from dpsens.cache import encode_diagnostics
    from dpsens.check import _analyze
    from dpsens.report.model import FileReport

    results = [(row[0], *parsed(row)) for row in members]
    modules = [m for _, m, _ in results if m is not None]
    helpers = [m for m, _ in map(parsed, closure) if m is not None]
    reports = {shown: FileReport(shown, diagnostics=[] if m is not None else list(problems))
               for shown, m, problems in results}  # LibCST may refuse what CPython accepted
    _analyze(modules, helpers, reports, rules(stub_dirs), options, seconds)
    return {path: {"functions": report.functions,
                   "diagnostics": encode_diagnostics(sorted(set(report.diagnostics)))}
            for path, report in reports.items()}


@lru_cache(maxsize=4)
def rules(stub_dirs: tuple[Path, ...]) -> RuleTable:
    """The rule table, loaded once per process (stub parsing is LibCST work)."""
    from dpsens.rules.table import RuleTable

    return RuleTable(stub_dirs)


class Runner:
    """Maps a task over argument tuples, in order; a pool only when jobs > 1 and worth it."""

    def __init__(self, jobs: int = 1, progress: TextIO | None = None) -> None:
        self.jobs = jobs
        self.progress = progress  # a TTY to draw a progress bar on, or None
        self._pool: ProcessPoolExecutor | None = None

    def map(self, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]], label: str,
            prepare: Callable[[], object] | None = None,
            groups: Sequence[Sequence[int]] | None = None) -> list[Any]:
        """Results of task(*call) for each call, in the order of calls.

        ``prepare`` is work every worker needs (imports, the rule table): it is done
        once, before the workers are forked, so that they inherit it. ``groups``
        (indices into calls) are the chunks workers take, when the caller knows
        which calls share work.
        """
        bar = _Bar(self.progress, label, len(calls))
        try:
            if self.jobs <= 1 or len(calls) <= 1:
                if self._pool is not None and len(calls) == 1:
                    return [self._pool.submit(task, *calls[0]).result()]  # workers are warm
                results = []
                for call in calls:
                    results.append(task(*call))
                    bar.tick()
                return results
            if self._pool is None:
                if prepare is not None:
                    prepare()
                self._pool = _pool(self.jobs)
            return self._parallel(task, calls, bar, groups)
        finally:
            bar.close()

    def _parallel(self, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
                  bar: _Bar, groups: Sequence[Sequence[int]] | None) -> list[Any]:
        from concurrent.futures import FIRST_COMPLETED
        from concurrent.futures import wait as futures_wait

        assert self._pool is not None
        if groups is None:
            # A few chunks per worker: fewer round trips than one task per file, and
            # still balanced when some files take much longer than others.
            size = max(1, len(calls) // (4 * self.jobs))
            groups = [range(i, min(i + size, len(calls))) for i in range(0, len(calls), size)]
        futures = {self._pool.submit(_run_chunk, task, [calls[i] for i in group]): group
                   for group in groups}
        results: list[Any] = [None] * len(calls)
        pending = set(futures)
        while pending:
            done, pending = futures_wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for index, result in zip(futures[future], future.result()):
                    results[index] = result
                bar.tick(len(futures[future]))
        return results

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def overlapped(background: Callable[[list[Any]], list[Any]], items: list[Any],
               foreground: Callable[[], object]) -> list[Any]:
    """background(items), computed in a forked process while this one runs foreground().

    The driver scans imports this way while it loads LibCST, sympy and the rule
    table: the workers forked afterwards inherit them instead of each loading
    them again (0.45 s of CPU apiece), and the scan no longer waits for them.
    """
    helper = _pool(1)
    with helper:
        try:
            pending = helper.submit(background, items)  # forks here
        except OSError:  # no process to be had: the same work, one after the other
            foreground()
            return background(items)
        foreground()
        return pending.result()


def _pool(workers: int) -> ProcessPoolExecutor:
    """A pool of worker processes (multiprocessing is imported only when one is needed).

    On Linux they are forked, so that they inherit the loaded modules (Python 3.14
    makes forkserver the default there, which would load them again); elsewhere
    the platform's default, since fork is unsafe on macOS.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)


def _run_chunk(task: Callable[..., Any], calls: list[tuple[Any, ...]]) -> list[Any]:
    return [task(*call) for call in calls]


class _Bar:
    """``label [#####.....] 12/40`` redrawn in place on a terminal; nothing elsewhere."""

    MINIMUM = 20  # fewer items finish too fast for a bar to help

    def __init__(self, stream: TextIO | None, label: str, total: int) -> None:
        self.stream = stream if total >= self.MINIMUM else None
        self.label, self.total, self.done = label, total, 0

    def tick(self, count: int = 1) -> None:
        self.done += count
        if self.stream is not None:
            filled = 30 * self.done // self.total
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] "
                              f"{self.done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        if self.stream is not None and self.done:
            self.stream.write("\r\x1b[K")  # erase the bar: it is not part of the output
            self.stream.flush()


def progress_stream(enabled: bool) -> TextIO | None:
    """stderr when it is a terminal and progress is wanted."""
    return sys.stderr if enabled and sys.stderr.isatty() else None


__all__ = ["Row", "Runner", "analyze_task", "forget", "overlapped", "parse_stub", "parse_task",
           "parsed", "parsed_stub", "progress_stream", "remember", "rules"]
