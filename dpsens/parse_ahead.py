"""Parse a small run's modules in a forked child while this process loads the analyzer.

A cold run on a few files (a pre-commit hook) spends most of its time importing:
LibCST (about 0.19 s), which parsing needs, and sympy with the rule modules (about
0.25 s), which the analysis needs. Neither needs the other, so on a machine with
two cores a forked child imports LibCST, parses the modules, the stubs and the
strings that may be types, and sends back their IR, while this process imports
sympy. The IR crosses as a pickle with its spans resolved (a LazySpan holds LibCST
nodes), so this process does not import LibCST unless something else needs it.

Resolving spans costs the child about as much as parsing again, so the child is
used only for small runs (``LIMIT``); anything it did not deliver, or a child that
failed, is parsed here as before: the results are the same either way.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from pathlib import Path
from typing import Any, Iterable, Sequence

from dpsens import workers
from dpsens.rules import BUNDLED_STUBS
from dpsens.workers import Row

# Characters of module text (and of the user's stubs) the child parses at most.
# Resolving every span costs the child ~5 ms a KB more than parsing: measured on
# benchmark A's modules, 6 KB ran 0.12 s faster than parsing here, 20 KB 0.07 s
# faster, 62 KB 0.3 s slower.
LIMIT = 20_000
_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class ParseAhead:
    """A forked child parsing rows and stubs; ``collect`` installs what it sent."""

    def __init__(self, pid: int, reader: int) -> None:
        self.pid, self.reader = pid, reader

    def collect(self) -> bool:
        """Wait for the child and remember its parses; False when it delivered nothing."""
        try:
            with os.fdopen(self.reader, "rb") as stream:
                data = stream.read()
        except OSError:
            self.abandon()
            return False
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:  # SIGCHLD ignored: the child was reaped; its data decides
            status = 0
        if status != 0 or not data:
            return False
        try:
            modules, stubs, strings = pickle.loads(data)
        except Exception:  # noqa: BLE001 - a broken delivery only means parsing here
            return False
        workers.remember(modules, stubs, strings)
        return True

    def abandon(self) -> None:
        """Stop the child and release its pipe (this process is leaving the run)."""
        for step in (lambda: os.close(self.reader), lambda: os.kill(self.pid, signal.SIGKILL),
                     lambda: os.waitpid(self.pid, 0)):
            try:
                step()
            except OSError:
                pass


def worthwhile(sizes: Iterable[int]) -> bool:
    """Whether modules of these text sizes are worth parsing ahead: both heavy imports
    still to come, little to parse, two cores to run on, and a safe fork (Linux, as
    workers._context: fork is unsafe on macOS; and no other thread, whose locks the child
    would inherit held)."""
    threading = sys.modules.get("threading")
    return (sys.platform == "linux" and "libcst" not in sys.modules
            and "sympy" not in sys.modules and len(os.sched_getaffinity(0)) >= 2
            and (threading is None or threading.active_count() == 1)
            and sum(sizes) <= LIMIT)


def start(rows: Sequence[Row], stubs: Sequence[Path]) -> ParseAhead | None:
    """Fork a child parsing rows and stubs, if that can hide this process's imports."""
    user_stubs = (_size(path) for path in stubs if path.parent != BUNDLED_STUBS)
    if not rows or not worthwhile([*(len(row[3]) for row in rows), *user_stubs]):
        return None
    reader, writer = os.pipe()
    # An interrupt between fork() and the child's try would unwind this process's
    # stack in the child: signals wait until each side is ready for them.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the child: never returns, never flushes the parent's buffers
        code = 1
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            os.close(reader)
            with os.fdopen(writer, "wb") as stream:
                pickle.dump(_parse_all(rows, stubs), stream, protocol=pickle.HIGHEST_PROTOCOL)
            code = 0
        finally:
            os._exit(code)
    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    os.close(writer)
    return ParseAhead(pid, reader)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _parse_all(rows: Sequence[Row], stubs: Sequence[Path]) -> tuple[dict[Any, Any], ...]:
    import warnings

    from dpsens.frontend.strings import parsed_string, strings_of

    warnings.simplefilter("ignore")  # CPython's SyntaxWarnings: the parent's scan showed them
    modules = {(row[0], row[1], row[2]): workers.parse_task(row[0], row[1], row[3]) for row in rows}
    parsed_stubs = {path: workers.parse_stub(path) for path in stubs}
    texts = set().union(*(strings_of(m) for m, _ in [*modules.values(), *parsed_stubs.values()]
                          if m is not None))
    return modules, parsed_stubs, {text: parsed_string(text) for text in sorted(texts)}
