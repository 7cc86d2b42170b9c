"""Parse a small run's modules in a forked child while this process loads the analyzer.

A cold run on a few files (a pre-commit hook) spends most of its time importing:
LibCST (about 0.19 s), which parsing needs, and sympy with the rule modules (about
0.25 s), which the analysis needs. Neither needs the other, so on a machine with
two cores a forked child imports LibCST, parses the modules and the stubs and
sends back their IR, while this process imports sympy. The IR crosses as a
pickle with its spans resolved (a LazySpan holds LibCST nodes), so this process
does not import LibCST at all unless something else needs it.

Resolving spans costs the child about as much as parsing again, so the child is
used only for small runs (``LIMIT``); anything it did not deliver, or a child that
failed, is parsed here as before: the results are the same either way.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path
from typing import Any, Iterable, Sequence

from dpsens import workers
from dpsens.workers import Row

# Characters of module text the child parses at most. Resolving every span costs the
# child ~5 ms a KB more than parsing: measured on benchmark A's modules, 6 KB ran 0.12 s
# faster than parsing here, 20 KB 0.07 s faster, 62 KB 0.3 s slower.
LIMIT = 20_000


class ParseAhead:
    """A forked child parsing rows and stubs; ``collect`` installs what it sent."""

    def __init__(self, pid: int, reader: int) -> None:
        self.pid, self.reader = pid, reader

    def collect(self) -> bool:
        """Wait for the child and remember its parses; False when it delivered nothing."""
        try:
            with os.fdopen(self.reader, "rb") as stream:
                data = stream.read()
            _, status = os.waitpid(self.pid, 0)
            if status != 0 or not data:
                return False
            modules, stubs = pickle.loads(data)
        except Exception:  # noqa: BLE001 - a failed child only means parsing here
            return False
        workers.remember(modules, stubs)
        return True


def worthwhile(sizes: Iterable[int]) -> bool:
    """Whether modules of these text sizes are worth parsing ahead: both heavy imports
    still to come, little to parse, and a safe fork (Linux, as workers._pool: fork is
    unsafe on macOS; and no other thread, whose locks the child would inherit held)."""
    threading = sys.modules.get("threading")
    return (sys.platform == "linux" and "libcst" not in sys.modules
            and "sympy" not in sys.modules
            and (threading is None or threading.active_count() == 1)
            and sum(sizes) <= LIMIT)


def start(rows: Sequence[Row], stubs: Sequence[Path]) -> ParseAhead | None:
    """Fork a child parsing rows and stubs, if that can hide this process's imports."""
    if not rows or not worthwhile(len(row[3]) for row in rows):
        return None
    reader, writer = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the child: never returns, never flushes the parent's buffers
        code = 1
        try:
            os.close(reader)
            with os.fdopen(writer, "wb") as stream:
                pickle.dump(_parse_all(rows, stubs), stream, protocol=pickle.HIGHEST_PROTOCOL)
            code = 0
        finally:
            os._exit(code)
    os.close(writer)
    return ParseAhead(pid, reader)


def _parse_all(rows: Sequence[Row], stubs: Sequence[Path]) -> tuple[dict[Any, Any], dict[Any, Any]]:
    modules = {(row[0], row[1], row[2]): workers.parse_task(row[0], row[1], row[3]) for row in rows}
    return modules, {path: workers.parse_stub(path) for path in stubs}
