"""Run parse and analysis tasks in this process or across a pool of processes."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence, Sized, TextIO

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
    helpers += [w for row in (*members, *closure) if parsed(row)[0] is None
                and (w := _writer_without_ir(row)) is not None]
    reports = {shown: FileReport(shown, diagnostics=[] if m is not None else list(problems))
               for shown, m, problems in results}  # LibCST may refuse what CPython accepted
    _analyze(modules, helpers, reports, rules(stub_dirs), options, seconds)
    return {path: {"functions": report.functions,
                   "diagnostics": encode_diagnostics(sorted(set(report.diagnostics)))}
            for path, report in reports.items()}


def _writer_without_ir(row: Row) -> ir.Module | None:
    """A stand-in without functions for a module that runs but has no IR (DPS007, or
    refused by LibCST): the other modules' objects it may change and the library
    functions it replaces, from CPython's parser, count (R-global, R-patched). None when
    it changes none, or does not run."""
    from dpsens import ir
    from dpsens.frontend.syntax import scan_imports

    shown, name, _, text = row
    imports, writes, _, patches = scan_imports(text, shown, name)
    if imports is None or not (writes or patches):
        return None
    from dpsens.frontend.globals import ANY_MODULE, words

    changed = frozenset(writes)
    return ir.Module(shown, name, foreign_changed=changed, foreign_stored=changed,
                     foreign_in_functions=changed, patched=frozenset(patches),
                     named=words(text) if ANY_MODULE in changed else frozenset())


@lru_cache(maxsize=4)
def rules(stub_dirs: tuple[Path, ...]) -> RuleTable:
    """The rule table, loaded once per process (stub parsing is LibCST work)."""
    from dpsens.rules.table import RuleTable

    return RuleTable(stub_dirs)


class Runner:
    """Maps a task over argument tuples, in order; worker processes only when jobs > 1 and
    worth it."""

    def __init__(self, jobs: int = 1, progress: TextIO | None = None) -> None:
        self.jobs = jobs
        self.progress = progress  # a TTY to draw a progress bar on, or None

    def map(self, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]], label: str,
            prepare: Callable[[], object] | None = None,
            groups: Sequence[Sequence[int]] | None = None,
            ahead: Callable[[list[tuple[Any, ...]]], object] | None = None) -> list[Any]:
        """Results of task(*call) for each call, in the order of calls.

        ``prepare`` is work every worker needs (imports, the rule table): it is done
        once, before the workers are forked, so that they inherit it. ``groups``
        (indices into calls, one group per worker) say which calls share work and
        should run in the same worker. ``ahead`` is given, in the worker, its whole
        group of calls before the first chunk runs, and each chunk before it runs
        (work shared by calls, such as parsing their modules, done together).
        """
        bar = _Bar(self.progress, label, len(calls))
        try:
            if self.jobs <= 1 or len(calls) <= 1:
                results = []
                for call in calls:
                    results.append(task(*call))
                    bar.tick()
                return results
            if prepare is not None:
                prepare()
            return _Schedule(self.jobs, task, calls, groups, bar, ahead).run()
        finally:
            bar.close()


class _Schedule:
    """Runs calls on workers, each taking its own group's calls a few at a time, in order.

    A worker whose group is done takes the last calls of the group with the most
    left (work stealing): groups are made so that a worker parses few modules
    twice, but their costs differ, and so do the two cores of a shared machine (in
    one run the workers finished 0.5 s apart out of 3.7 s). The tail of a group
    needs modules its own worker has not parsed yet, so taking it costs little.
    """

    # Chunks a worker holds at once: the next one is already sent when one ends.
    AHEAD = 2

    def __init__(self, jobs: int, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
                 groups: Sequence[Sequence[int]] | None, bar: _Bar,
                 ahead: Callable[[list[tuple[Any, ...]]], object] | None = None) -> None:
        from collections import deque

        self.jobs, self.task, self.calls, self.bar, self.ahead = jobs, task, calls, bar, ahead
        if groups is None:
            share = -(-len(calls) // jobs)
            groups = [range(i, min(i + share, len(calls))) for i in range(0, len(calls), share)]
        self.left = [deque(group) for group in groups]
        self.results: list[Any] = [None] * len(calls)

    def run(self) -> list[Any]:
        """The results, in the order of calls."""
        from multiprocessing.connection import wait

        workers: list[_Worker] = []
        clean = False
        try:
            for _ in range(self.jobs):
                workers.append(_Worker(self.task, self.calls, self.ahead))
            for number, worker in enumerate(workers):
                if self.ahead is not None and number < len(self.left):
                    worker.prepare(list(self.left[number]))
                for _ in range(self.AHEAD):
                    self._feed(number, worker)
            by_connection = {worker.connection: (n, worker) for n, worker in enumerate(workers)}
            while busy := [worker.connection for worker in workers if worker.sent]:
                for connection in wait(busy):
                    number, worker = by_connection[connection]
                    chunk, results = worker.receive()
                    for index, result in zip(chunk, results):
                        self.results[index] = result
                    self.bar.tick(len(chunk))
                    self._feed(number, worker)
            clean = True
        finally:
            for worker in workers:
                worker.stop(clean)
        return self.results

    def _feed(self, number: int, worker: _Worker) -> None:
        """Send the worker its group's next chunk, or the last chunk of the fullest group."""
        own = self.left[number] if number < len(self.left) else None
        if own:
            worker.send([own.popleft() for _ in range(self._size(own))])
            return
        fullest = max(self.left, key=len)
        if fullest:
            worker.send([fullest.pop() for _ in range(self._size(fullest))][::-1])

    @staticmethod
    def _size(queue: Sized) -> int:
        """A third of what is left (guided scheduling): few round trips while there is much
        to do, and chunks of one call at the end, where a chunk sent ahead is one that
        another worker can no longer take."""
        return max(1, len(queue) // 3)


class _Worker:
    """A forked process running chunks of calls, which it inherits: only the chunks'
    indices go down its pipe (a few bytes, so that sending never waits for a worker
    busy sending its results), and results come back."""

    def __init__(self, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
                 ahead: Callable[[list[tuple[Any, ...]]], object] | None) -> None:
        from collections import deque

        context = _context()
        self.connection, child = context.Pipe()
        # Where processes are spawned rather than forked, the calls are pickled once here.
        self.process = context.Process(target=_serve, args=(child, task, calls, ahead),
                                       daemon=True)
        self.process.start()
        child.close()  # so that a worker's death reads as the end of its pipe
        self.sent: deque[list[int]] = deque()

    def send(self, chunk: list[int]) -> None:
        """Send a chunk's indices to run; raises if the worker died (its pipe is broken)."""
        self._post(("run", chunk))
        self.sent.append(chunk)

    def prepare(self, indices: list[int]) -> None:
        """Send the indices of calls the worker is likely to run, for ``ahead`` (no reply)."""
        self._post(("ahead", indices))

    def _post(self, message: tuple[str, list[int]]) -> None:
        try:
            self.connection.send(message)
        except OSError:
            raise self._ended() from None

    def receive(self) -> tuple[list[int], list[Any]]:
        """(the oldest chunk sent, its results); raises if the worker failed or died."""
        try:
            status, value = self.connection.recv()
        except (EOFError, OSError):  # a socket pair: reset if it died with chunks unread
            raise self._ended() from None
        if status != "done":
            raise _failed(value)
        return self.sent.popleft(), value

    def _ended(self) -> RuntimeError:
        """Why a worker ended before its work did: the failure it reported before leaving
        (a send may find its pipe closed before the report is read), or its exit code."""
        try:
            while self.connection.poll():
                status, value = self.connection.recv()
                if status != "done":
                    return _failed(value)
        except (EOFError, OSError):
            pass
        self.process.join()
        return RuntimeError(f"a worker process ended early (exit code {self.process.exitcode})")

    def stop(self, clean: bool) -> None:
        """Let an idle worker leave; end one that may still be running."""
        if clean:
            try:
                self.connection.send(None)
            except OSError:
                pass
        else:
            self.process.terminate()
        self.process.join()
        self.connection.close()


def _failed(report: str) -> RuntimeError:
    """The error of a worker that reported a failure (its traceback)."""
    return RuntimeError(f"a worker process failed:\n{report}")


def _serve(connection: Any, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
           ahead: Callable[[list[tuple[Any, ...]]], object] | None) -> None:
    """A worker: the results of each chunk of calls it is sent to run, until it is sent None;
    ``ahead`` of the calls it is told it will likely run (no reply), and of each chunk."""
    import traceback

    while (message := connection.recv()) is not None:
        kind, chunk = message
        try:
            if ahead is not None:
                ahead([calls[index] for index in chunk])
            if kind == "ahead":
                continue
            reply: tuple[str, Any] = ("done", [task(*calls[index]) for index in chunk])
        except BaseException:  # noqa: BLE001 - reported to the driver, which raises it
            connection.send(("failed", traceback.format_exc()))
            return
        connection.send(reply)


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
    """A pool of worker processes (multiprocessing is imported only when one is needed)."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, mp_context=_context())


def _context() -> Any:
    """Forked processes on Linux, so that they inherit the loaded modules (Python 3.14
    makes forkserver the default there, which would load them again); elsewhere the
    platform's default, since fork is unsafe on macOS."""
    import multiprocessing

    return multiprocessing.get_context("fork" if sys.platform == "linux" else None)


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
