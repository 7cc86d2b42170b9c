"""Run parse and analysis tasks in this process or across a pool of processes."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence, Sized, TextIO

from dpsens.options import Options

if TYPE_CHECKING:
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

    def __init__(self, jobs: int = 1, progress: TextIO | None = None,
                 prepare: Callable[[], object] | None = None) -> None:
        self.jobs = jobs
        self.progress = progress  # a TTY to draw a progress bar on, or None
        # Work every worker needs (imports, the rule table): done once, before the
        # workers are forked, so that they inherit it.
        self.prepare = prepare
        self._host: _Host | None = None

    def start(self) -> None:
        """Begin ``prepare`` now, in a forked host that will fork the workers (see _Host),
        when workers will run and can be forked; nothing otherwise."""
        if self.jobs <= 1 or self._host is not None or _context().get_start_method() != "fork":
            return  # (spawned, a host would inherit nothing for its workers)
        import signal

        # Ctrl-C waits until the host is known, so that close() ends it.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self._host = _Host(self.jobs, self.progress is not None, self.prepare)
        except OSError:  # no process to be had: prepared here when needed
            pass
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def close(self) -> None:
        """End the host, whether it is preparing still (a run that found nothing to analyze
        does not wait for it) or idle."""
        if self._host is not None:
            self._host.stop(clean=False)
            self._host = None

    def map(self, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]], label: str,
            groups: Sequence[Sequence[int]] | None = None,
            ahead: Callable[[list[tuple[Any, ...]]], object] | None = None) -> list[Any]:
        """Results of task(*call) for each call, in the order of calls.

        ``groups`` (indices into calls, one group per worker) say which calls share
        work and should run in the same worker. ``ahead`` is given, in the worker, its
        whole group of calls before the first chunk runs, and each chunk before it runs
        (work shared by calls, such as parsing their modules, done together).
        """
        if self._host is not None:
            return self._host.map(task, calls, label, groups, ahead)
        bar = _Bar(self.progress, label, len(calls))
        try:
            if self.jobs <= 1 or len(calls) <= 1:
                results = []
                for call in calls:
                    results.append(task(*call))
                    bar.tick()
                return results
            if self.prepare is not None:
                self.prepare()
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


class _Child:
    """A forked process and the pipe to it: messages go down, replies come back."""

    def __init__(self, target: Callable[..., None], *args: Any, daemon: bool = True) -> None:
        context = _context()
        self.connection, child = context.Pipe()
        # A forked child closes its copy of this end, so that this process's death reads as
        # the end of its pipe there. Where processes are spawned rather than forked, the
        # arguments are pickled here (and nothing is inherited).
        ours = self.connection if context.get_start_method() == "fork" else None
        self.process = context.Process(target=_child_main, args=(ours, target, child, *args),
                                       daemon=daemon)
        self.process.start()
        child.close()  # so that a child's death reads as the end of its pipe here

    def _post(self, message: Any) -> None:
        try:
            self.connection.send(message)
        except OSError:
            raise self._ended() from None

    def _reply(self) -> Any:
        """The next reply's value; raises if the child failed or died."""
        try:
            status, value = self.connection.recv()
        except (EOFError, OSError):  # a socket pair: reset if it died with replies unread
            raise self._ended() from None
        if status != "done":
            raise _failed(status, value)
        return value

    def _ended(self) -> RuntimeError:
        """Why a child ended before its work did: the failure it reported before leaving
        (a send may find its pipe closed before the report is read), or its exit code."""
        try:
            while self.connection.poll():
                status, value = self.connection.recv()
                if status != "done":
                    return _failed(status, value)
        except (EOFError, OSError):
            pass
        self.process.join()
        return RuntimeError(f"a worker process ended early (exit code {self.process.exitcode})")

    def stop(self, clean: bool) -> None:
        """Let an idle child leave; end one that may still be running."""
        if clean:
            try:
                self.connection.send(None)
            except OSError:
                pass
        else:
            self.process.terminate()
        self.process.join()
        self.connection.close()


class _Worker(_Child):
    """A forked process running chunks of calls, which it inherits: only the chunks'
    indices go down its pipe (a few bytes, so that sending never waits for a worker
    busy sending its results), and results come back."""

    def __init__(self, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
                 ahead: Callable[[list[tuple[Any, ...]]], object] | None) -> None:
        from collections import deque

        super().__init__(_serve, task, calls, ahead)
        self.sent: deque[list[int]] = deque()

    def send(self, chunk: list[int]) -> None:
        """Send a chunk's indices to run; raises if the worker died (its pipe is broken)."""
        self._post(("run", chunk))
        self.sent.append(chunk)

    def prepare(self, indices: list[int]) -> None:
        """Send the indices of calls the worker is likely to run, for ``ahead`` (no reply)."""
        self._post(("ahead", indices))

    def receive(self) -> tuple[list[int], list[Any]]:
        """(the oldest chunk sent, its results); raises if the worker failed or died."""
        results = self._reply()
        return self.sent.popleft(), results


class _Host(_Child):
    """A process forked at the start of a run to do ``prepare`` (0.3 s of imports and
    the rule table) while the driver reads, scans and orders the files; it then forks
    the workers, which inherit what it prepared, and relays their results. Preparing
    in the driver instead kept the second core idle for most of that time, between
    the import scan and the fork (docs/performance.md, sixteenth session)."""

    def __init__(self, jobs: int, progress: bool, prepare: Callable[[], object] | None) -> None:
        # Not a daemon, which multiprocessing forbids to have children; Runner.close ends it.
        super().__init__(_host, jobs, progress, prepare, daemon=False)

    def map(self, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]], label: str,
            groups: Sequence[Sequence[int]] | None,
            ahead: Callable[[list[tuple[Any, ...]]], object] | None) -> list[Any]:
        """Runner.map, run by the host and its workers."""
        self._post((task, list(calls), label, groups, ahead))
        results: list[Any] = self._reply()
        return results


def _child_main(parents: Any, target: Callable[..., None], *args: Any) -> None:
    """A child's start: it drops its copy of the parent's end of the pipe, then runs."""
    if parents is not None:
        parents.close()
    target(*args)


def _failed(status: str, report: str) -> RuntimeError:
    """The error of a child that reported a failure: a worker's traceback, or the host's
    account of its workers' failure."""
    return RuntimeError(report if status == "error" else f"a worker process failed:\n{report}")


def _host(connection: Any, jobs: int, progress: bool,
          prepare: Callable[[], object] | None) -> None:
    """The host: ``prepare``, then each map it is sent, with workers forked from here,
    until it is sent None."""
    import gc
    import signal
    import traceback

    # Ended while preparing or mapping: leave through the finally clauses that end the
    # workers (left alone, each would first finish the chunk it runs).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    _leave_interrupts_to_the_driver()
    try:
        if prepare is not None:
            prepare()
        # What the workers inherit is never collected there: a collection would write to
        # every young object's header, copying their pages into each worker (the workers
        # of benchmark A: 1.24 s of CPU each instead of 1.30 s in five alternating runs).
        gc.freeze()
        while (message := _received(connection)) is not None:
            task, calls, label, groups, ahead = message
            try:
                results = Runner(jobs, progress_stream(progress)).map(task, calls, label,
                                                                      groups, ahead)
            except RuntimeError as error:  # a worker failed or died: already described
                connection.send(("error", str(error)))
                continue
            connection.send(("done", results))
    except Exception:  # noqa: BLE001 - reported to the driver, which raises it
        connection.send(("failed", traceback.format_exc()))


def _serve(connection: Any, task: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
           ahead: Callable[[list[tuple[Any, ...]]], object] | None) -> None:
    """A worker: the results of each chunk of calls it is sent to run, until it is sent None;
    ``ahead`` of the calls it is told it will likely run (no reply), and of each chunk."""
    import traceback

    _leave_interrupts_to_the_driver()
    while (message := _received(connection)) is not None:
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


def _leave_interrupts_to_the_driver() -> None:
    """Ignore Ctrl-C, which reaches every process of the terminal's group: the driver
    answers it by ending its children, whose own KeyboardInterrupt would only print
    tracebacks."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _received(connection: Any) -> Any:
    """The next message, or None once the pipe's other end is gone (its process ended)."""
    try:
        return connection.recv()
    except EOFError:
        return None


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


__all__ = ["Row", "Runner", "analyze_task", "forget", "parse_stub", "parse_task",
           "parsed", "parsed_stub", "progress_stream", "remember", "rules"]
