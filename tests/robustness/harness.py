"""Run the analyzer on one path, in process (with an alarm) or in a child process.

A file that crashes the interpreter (a native stack overflow in the parser)
or hangs it can only be observed from outside, so known-dangerous inputs
run in a subprocess with a timeout; everything else runs in process, where
an escaping exception is itself the failure.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from contextlib import contextmanager

CODE = re.compile(r"^DPS\d{3}$")
# The time one file may take in these tests: far below dpsens's own per-file limit
# (60 s, DPS005), which is the last resort, not the expected cost.
PER_FILE_SECONDS = float(os.environ.get("DPSENS_PER_FILE_SECONDS", "20"))
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Outcome:
    """What one analysis gave: diagnostics (code, line, column, message) and reports."""

    seconds: float
    diagnostics: list[tuple[str, int, int, str]] = field(default_factory=list)
    functions: list[dict[str, Any]] = field(default_factory=list)
    crash: str | None = None  # an exception, a signal, a timeout, a traceback

    @property
    def codes(self) -> set[str]:
        return {d[0] for d in self.diagnostics}

    def problems(self) -> list[str]:
        """Everything that breaks the contract: crashes, DPS001, diagnostics without a code or place."""
        found = [self.crash] if self.crash else []
        for code, line, column, message in self.diagnostics:
            if not CODE.match(code):
                found.append(f"not a diagnostic code: {code}")
            if code == "DPS001":
                found.append(f"internal error: {message}")
            if line < 1 or column < 1:
                found.append(f"{code} without a location ({line}:{column}): {message}")
            if "Traceback" in message:
                found.append(f"{code} shows a traceback: {message}")
        return found


class _Timeout(Exception):
    pass


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def fire(*_: object) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def analyze(path: Path | str, seconds: float = PER_FILE_SECONDS, **kwargs: Any) -> Outcome:
    """check_paths on one path in this process, within a time limit."""
    from dpsens.check import check_paths

    started = time.perf_counter()
    try:
        with _alarm(seconds):
            result = check_paths([str(path)], **kwargs)
    except _Timeout:
        return Outcome(seconds, crash=f"no result within {seconds:g} s")
    except Exception as error:  # noqa: BLE001 - the failure under test
        return Outcome(time.perf_counter() - started, crash=f"{type(error).__name__}: {error}"[:500])
    return Outcome(time.perf_counter() - started,
                   [(d.code, d.line, d.column, d.message) for d in result.diagnostics],
                   [f for file in result.files for f in file.functions])


_CHILD = """
import json, sys, time
from dpsens.check import check_paths
started = time.perf_counter()
result = check_paths([sys.argv[1]])
print(json.dumps({"seconds": time.perf_counter() - started,
                  "diagnostics": [[d.code, d.line, d.column, d.message] for d in result.diagnostics],
                  "functions": [f for file in result.files for f in file.functions]}))
"""


def analyze_isolated(path: Path | str, seconds: float = PER_FILE_SECONDS) -> Outcome:
    """check_paths on one path in a child process: survives segfaults and hangs."""
    started = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    try:
        child = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True,
                               text=True, timeout=seconds, cwd=ROOT, env=env)
    except subprocess.TimeoutExpired:
        return Outcome(seconds, crash=f"no result within {seconds:g} s")
    elapsed = time.perf_counter() - started
    if child.returncode != 0:
        reason = (f"killed by signal {-child.returncode}" if child.returncode < 0
                  else f"exit {child.returncode}")
        tail = child.stderr.strip().splitlines()[-1:] or [""]
        return Outcome(elapsed, crash=f"{reason}: {tail[0][:300]}")
    data = json.loads(child.stdout.strip().splitlines()[-1])
    diagnostics = [(str(c), int(line), int(col), str(m)) for c, line, col, m in data["diagnostics"]]
    return Outcome(data["seconds"], diagnostics, data["functions"])


__all__ = ["Outcome", "PER_FILE_SECONDS", "analyze", "analyze_isolated"]
