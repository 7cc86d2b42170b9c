"""A per-file time limit for the analysis: SIGALRM raises in the middle of the work."""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator


class Deadline:
    """What a block under a time limit can ask: whether the limit has expired."""

    def __init__(self) -> None:
        self.expired = False

    def check(self) -> None:
        """Raise TimeLimitExceeded if the limit expired, even where its first raise was lost.

        The alarm can land where Python ignores exceptions (a ``__del__``, a gc or
        weakref callback: "Exception ignored in ..."), and the work then runs on.
        """
        if self.expired:
            raise TimeLimitExceeded


class TimeLimitExceeded(BaseException):
    """The limit expired; a BaseException so that no ``except Exception`` in the analysis
    (which turns crashes into DPS001) can swallow it."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[Deadline]:
    """Raise TimeLimitExceeded in the block once ``seconds`` of wall time have passed.

    A cooperative check would need every loop of the analyzer (and of sympy)
    to poll a clock; the timer interrupts any Python code instead. Without a
    limit, off the main thread or without SIGALRM (Windows) nothing is limited.
    A timer already running outside (a test harness, a host program) is kept:
    if it is due first its handler runs, and it is re-armed afterwards. The block
    should call the yielded ``Deadline.check()`` between units of work, since the
    alarm's raise is lost where it lands in code whose exceptions Python ignores.
    """
    deadline = Deadline()
    if (not seconds or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield deadline
        return
    started = time.monotonic()
    outer_fired = outer_first = False

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
        deadline.expired = True
        raise TimeLimitExceeded

    previous = signal.signal(signal.SIGALRM, expire)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    outer_first = 0 < outer < seconds
    if outer_first:
        signal.setitimer(signal.ITIMER_REAL, outer)
    try:
        yield deadline
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer and not outer_fired:
            left = outer - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))


__all__ = ["Deadline", "TimeLimitExceeded", "time_limit"]
