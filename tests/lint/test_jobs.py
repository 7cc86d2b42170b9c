"""--jobs N: the same report as one process; workers get bundles of related units."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dpsens.check import _bundles
from dpsens.graph import Source, Unit
from dpsens.workers import Runner
from tests.lint.conftest import PRIVATE, SCALED, Run, write

MODULES = {
    "pkg/__init__.py": "",
    "pkg/base.py": SCALED,
    "pkg/priv.py": PRIVATE,
    "pkg/bad.py": "from dpsens import Real\n\ndef broken(x: Real) -> Real\n    return x\n",
    **{f"pkg/m{i}.py": (f"from dpsens import Real\nfrom pkg import base\n\n\n"
                        f"def f{i}(x: Real) -> Real:\n    return base.scaled(x, {i}.0) + x\n")
       for i in range(6)},
    "pkg/unrelated.py": "X = 1\n",
}


def test_two_jobs_report_exactly_what_one_does(project: Path, run: Run) -> None:
    write(project, MODULES)
    one = run("check", "--no-cache", "--format", "json", "pkg")
    two = run("check", "--no-cache", "--format", "json", "-j", "2", "pkg")
    assert one == two
    assert one[0] == 1 and '"DPS004"' in one[1] and '"f5"' in one[1]


def test_a_warm_cache_with_jobs_ends_promptly(project: Path) -> None:
    write(project, MODULES)
    command = [sys.executable, "-m", "dpsens", "check", "-j", "2", "pkg"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=project)
    second = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=project)
    assert first.returncode == second.returncode == 1
    assert first.stdout == second.stdout


def _unit(name: str, *needs: str) -> Unit:
    def source(shown: str) -> Source:
        return Source(Path(shown), shown, shown, "", "")
    return Unit((source(name),), tuple(source(n) for n in needs))


def test_bundles_keep_modules_that_share_imports_together() -> None:
    units = [_unit("a1", "a"), _unit("b1", "b"), _unit("a2", "a"), _unit("b2", "b")]
    bundles = _bundles(units, 2)
    assert sorted(map(sorted, bundles)) == [[0, 2], [1, 3]]  # a's users together, b's together
    assert sorted(len(b) for b in _bundles([_unit(f"u{i}", "core") for i in range(5)], 2)) == [2, 3]
    assert _bundles([_unit("only")], 4) == [[0]]


def test_bundles_follow_a_tree_of_imports_depth_first() -> None:
    # Module i imports its parent (i - 1) // 2 and so needs all its ancestors. Two workers
    # can share the root alone: one takes the root and the left subtree, the other the
    # right subtree (31 modules: 32 parses; 36 when units were ordered by their closure's
    # names).
    def ancestors(i: int) -> list[str]:
        found = []
        while i:
            i = (i - 1) // 2
            found.append(f"m{i}")
        return found

    units = [_unit(f"m{i}", *ancestors(i)) for i in range(31)]
    bundles = _bundles(units, 2)
    parsed = [{s.shown for i in bundle for s in (*units[i].members, *units[i].closure)}
              for bundle in bundles]
    assert sorted(map(len, bundles)) == [15, 16]
    assert sum(map(len, parsed)) == 32


def test_bundles_order_by_what_the_bundled_units_need() -> None:
    # A chain m0 <- m1 <- ... <- m7 where only m0, m1, m6 and m7 are analyzed (the others
    # are cached or not reported): m0 and m1 together, m6 and m7 together, 10 parses.
    chain = [_unit(f"m{i}", *(f"m{j}" for j in range(i))) for i in (0, 1, 6, 7)]
    assert sorted(map(sorted, _bundles(chain, 2))) == [[0, 1], [2, 3]]


def _where(number: int) -> tuple[int, int]:
    import os

    return number, os.getpid()


def _fails(number: int) -> int:
    if number == 3:
        raise ValueError("three is not allowed")
    return number


def _dies(number: int) -> int:
    import os

    if number == 3:
        os._exit(7)
    return number


def test_an_idle_worker_takes_the_tail_of_another_group() -> None:
    """All calls in one group: the other worker takes its last calls, and results keep
    the order of calls."""
    calls = [(i,) for i in range(20)]
    results = Runner(jobs=2).map(_where, calls, "test", groups=[list(range(20)), []])
    assert [number for number, _ in results] == list(range(20))
    first = {pid for number, pid in results if number < 5}
    last = {pid for number, pid in results if number >= 17}
    assert len(first) == len(last) == 1 and first != last


_SEEN_AHEAD: set[int] = set()


def _note_ahead(calls: list[tuple[int]]) -> None:
    _SEEN_AHEAD.update(number for number, in calls)


def _was_seen_ahead(number: int) -> tuple[int, bool]:
    return number, number in _SEEN_AHEAD


def test_a_worker_is_given_each_chunk_before_it_runs_it() -> None:
    """``ahead`` (a worker parsing its modules together) sees every call in the worker
    that runs it, before the call runs: its group's calls at the start, a taken chunk's
    before that chunk."""
    calls = [(i,) for i in range(12)]
    results = Runner(jobs=2).map(_was_seen_ahead, calls, "test", ahead=_note_ahead)
    assert results == [(i, True) for i in range(12)]
    taken = Runner(jobs=2).map(_was_seen_ahead, calls, "test", groups=[list(range(12)), []],
                               ahead=_note_ahead)
    assert taken == [(i, True) for i in range(12)]  # the idle worker's taken tail too
    assert not _SEEN_AHEAD  # in the workers, not here


def test_a_failing_call_or_a_dead_worker_is_reported_not_waited_for() -> None:
    calls = [(i,) for i in range(8)]
    with pytest.raises(RuntimeError, match="ValueError: three is not allowed"):
        Runner(jobs=2).map(_fails, calls, "test")
    with pytest.raises(RuntimeError, match="exit code 7"):
        Runner(jobs=2).map(_dies, calls, "test")
