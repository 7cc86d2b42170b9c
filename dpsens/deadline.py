"""A per-file time limit for the analysis: SIGALRM raises in the middle of the work."""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator


class TimeLimitExceeded(BaseException):
    """The limit expired; a BaseException so that no ``except Exception`` in the analysis
    (which turns crashes into DPS001) can swallow it."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise TimeLimitExceeded in the block once ``seconds`` of wall time have passed.

    A cooperative check would need every loop of the analyzer (and of sympy)
    to poll a clock; the timer interrupts any Python code instead. Without a
    limit, off the main thread or without SIGALRM (Windows) nothing is limited.
    A timer already running outside (a test harness, a host program) is kept:
    if it is due first its handler runs, and it is re-armed afterwards.
    """
    if (not seconds or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    started = time.monotonic()
    outer_fired = False

    def expire(signum: int, frame: Any) -> None:
        nonlocal outer_fired, outer_first
        if outer_first:
            outer_fired, outer_first = True, False
            # The limit still holds: armed again for what is left of it (it was lost,
            # and a host's earlier timer switched the limit off).
            signal.setitimer(signal.ITIMER_REAL,
                             max(seconds - (time.monotonic() - started), 1e-6))
            if callable(previous):
                previous(signum, frame)
            return
        raise TimeLimitExceeded

    previous = signal.signal(signal.SIGALRM, expire)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    outer_first = 0 < outer < seconds
    if outer_first:
        signal.setitimer(signal.ITIMER_REAL, outer)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer and not outer_fired:
            left = outer - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))


__all__ = ["TimeLimitExceeded", "time_limit"]
