"""The per-file time limit (DPS005) and size limit (DPS006): a bounded run, exit 2, no cache."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from dpsens.deadline import TimeLimitExceeded, time_limit
from tests.lint.conftest import SCALED, Run, write

# 1,500 one-line functions: far more than 0.05 s of analysis on any machine.
MANY = "from dpsens import Real\n" + "".join(
    f"\n\ndef g{i}(x: Real) -> Real:\n    return x + {i}.0\n" for i in range(1500))


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_time_limit_interrupts_python_code_and_restores_the_handler() -> None:
    before = signal.getsignal(signal.SIGALRM)
    started = time.monotonic()
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.05):
            _spin(5.0)
    assert time.monotonic() - started < 2.0
    assert signal.getsignal(signal.SIGALRM) is before
    with time_limit(None):  # no limit: nothing fires
        _spin(0.1)


class _Outer(Exception):
    pass


def _outer_alarm(signum: int, frame: object) -> None:
    raise _Outer


def test_an_outer_timer_due_first_still_fires() -> None:
    previous = signal.signal(signal.SIGALRM, _outer_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(_Outer):
            with time_limit(10.0):
                _spin(5.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_the_limit_still_holds_after_an_outer_timer_fired_first() -> None:
    """A host's timer due first runs its handler, and the limit is armed again for what
    is left of it (it was lost: the analysis ran on without a limit)."""
    calls = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: calls.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.02)
        started = time.monotonic()
        with pytest.raises(TimeLimitExceeded):
            with time_limit(0.1):
                _spin(5.0)
        assert len(calls) == 1 and time.monotonic() - started < 2.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_an_outer_timer_due_later_is_rearmed() -> None:
    previous = signal.signal(signal.SIGALRM, _outer_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with time_limit(5.0):
            _spin(0.05)  # finishes well within both
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < remaining < 0.3
        with pytest.raises(_Outer):
            _spin(5.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_time_limit_is_not_caught_by_except_exception() -> None:
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.05):
            try:
                _spin(5.0)
            except Exception:  # noqa: BLE001 - what the analysis does with crashes
                pytest.fail("the time limit was swallowed as an ordinary exception")


class _SlowFinalizer:
    def __del__(self) -> None:
        _spin(0.3)  # the alarm lands here, where Python ignores (prints) exceptions


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_limit_whose_raise_was_ignored_is_still_seen_by_check() -> None:
    """CI once ran a file past its limit to the end: the alarm fired in a gc callback."""
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.05) as deadline:
            _SlowFinalizer()  # dropped at once: its __del__ outlasts the limit
            deadline.check()
    with time_limit(5.0) as deadline:
        deadline.check()  # not expired: nothing raised
    assert not deadline.expired


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_file_whose_limit_fired_where_exceptions_are_ignored_still_stops(
        project: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    from dpsens.infer.program import Program

    summary = Program.summary

    def slow_first(self: Program, *args: object) -> object:
        if args[0] == "many.g0":
            _SlowFinalizer()
        return summary(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Program, "summary", slow_first)
    write(project, {"many.py": MANY})
    code, out, _ = run("check", "--timeout", "0.05", "many.py")
    assert code == 2 and "DPS005" in out and "'g1' and the 1498 functions after it" in out


def test_a_file_over_the_time_limit_gets_dps005_and_exit_2(project: Path, run: Run) -> None:
    write(project, {"many.py": MANY, "ok.py": SCALED})
    code, out, _ = run("check", "--timeout", "0.05", "--format", "json", ".")
    assert code == 2
    import json

    files = {f["path"]: f for f in json.loads(out)["files"]}
    [finding] = files["many.py"]["diagnostics"]
    assert finding["code"] == "DPS005"
    assert "0.05 s, the per-file time limit" in finding["message"]
    stopped = finding["message"].split("'")[1]  # the function being analyzed when time ran out
    reported = [f["name"] for f in files["many.py"]["functions"]]
    assert reported == [f"g{i}" for i in range(len(reported))]  # those before it, in order
    assert stopped == f"g{len(reported)}"
    assert finding["line"] == 4 + 4 * len(reported)  # the def line of the function it stopped in
    assert [f["name"] for f in files["ok.py"]["functions"]] == ["scaled"]  # other files unaffected


def test_a_timed_out_result_is_not_cached(project: Path, run: Run) -> None:
    write(project, {"many.py": MANY})
    assert run("check", "--timeout", "0.05", "many.py")[0] == 2
    code, out, _ = run("check", "--timeout", "0", "many.py")
    assert code == 0 and "DPS005" not in out and "g1499 (line" in out


def test_a_file_over_the_size_limit_gets_dps006_and_is_not_parsed(project: Path, run: Run) -> None:
    big = SCALED + "\n# padding\n" * 200
    write(project, {"big.py": big, "ok.py": SCALED,
                    "unrelated.py": "X = 1\n" * 1000})  # never names dpsens: never parsed, no finding
    code, out, _ = run("check", "--max-file-size", "1000", ".")
    assert code == 2
    assert f"big.py:1:1: DPS006 file is {len(big):,} bytes, above the 1,000 bytes limit" in out
    assert "unrelated.py" not in out and "scaled (line 4)" in out


def test_limits_come_from_the_config_and_zero_disables_them(project: Path, run: Run) -> None:
    write(project, {"big.py": SCALED + "\n# padding\n" * 200,
                    "pyproject.toml": "[tool.dpsens]\nmax_file_size = 1000\ntimeout = 30\n"})
    assert run("check", "big.py")[0] == 2
    assert run("check", "--max-file-size", "0", "big.py")[0] == 0
    write(project, {"pyproject.toml": "[tool.dpsens]\nmax_file_size = 0\n"})
    assert run("check", "big.py")[0] == 0


@pytest.mark.parametrize("setting,message", [
    ("timeout = -1", "'tool.dpsens.timeout' must be a number >= 0"),
    ("max_file_size = 1.5", "'tool.dpsens.max_file_size' must be a whole number of bytes"),
    ("timeout = 'long'", "'tool.dpsens.timeout' must be a number"),
])
def test_bad_limits_in_the_config_are_refused(project: Path, run: Run, setting: str,
                                              message: str) -> None:
    write(project, {"ok.py": SCALED, "pyproject.toml": f"[tool.dpsens]\n{setting}\n"})
    code, _, err = run("check", "ok.py")
    assert code == 2 and message in err


@pytest.mark.parametrize("flag", [("--timeout", "-1"), ("--timeout", "inf"), ("--max-file-size", "1e6")])
def test_bad_limit_flags_are_usage_errors(project: Path, run: Run, flag: tuple[str, str]) -> None:
    write(project, {"ok.py": SCALED})
    code, _, err = run("check", *flag, "ok.py")
    assert code == 2 and flag[0] in err
