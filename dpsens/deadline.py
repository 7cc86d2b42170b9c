"""A per-file time limit for the analysis: SIGALRM raises in the middle of the work."""

from __future__ import annotations

import signal
import threading
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
    """
    if (not seconds or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TimeLimitExceeded

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


__all__ = ["TimeLimitExceeded", "time_limit"]
