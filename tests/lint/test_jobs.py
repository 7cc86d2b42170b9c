"""--jobs N: the same report as one process; workers get bundles of related units."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
import time
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
    return number, os.getpid()


def _fails(number: int) -> int:
    if number == 3:
        raise ValueError("three is not allowed")
    return number


def _dies(number: int) -> int:
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


_PREPARED: list[int] = []


def _prepare_here() -> None:
    _PREPARED.append(os.getpid())


def _lineage(number: int) -> tuple[int, int, int, list[int]]:
    return number, os.getpid(), os.getppid(), list(_PREPARED)


def test_a_host_prepares_for_the_workers_it_forks() -> None:
    """Runner.start: ``prepare`` runs once, in a host process and not in the driver; the
    workers are forked from the host and inherit what it prepared; the results come back
    in the order of calls."""
    runner = Runner(jobs=2, prepare=_prepare_here)
    runner.start()
    try:
        results = runner.map(_lineage, [(i,) for i in range(10)], "test")
        single = runner.map(_lineage, [(0,)], "test")  # one call: the host runs it itself
    finally:
        runner.close()
    assert not _PREPARED
    assert [number for number, *_ in results] == list(range(10))
    hosts = {parent for _, _, parent, _ in results}
    assert len(hosts) == 1 and os.getpid() not in hosts
    assert {tuple(prepared) for *_, prepared in results} == {tuple(hosts)}
    assert len({pid for _, pid, _, _ in results}) == 2
    assert single[0][1] in hosts and single[0][3] == list(hosts)


def test_failures_under_a_host_are_reported_as_without_one() -> None:
    runner = Runner(jobs=2)
    runner.start()
    try:
        with pytest.raises(RuntimeError, match="ValueError: three is not allowed") as failed:
            runner.map(_fails, [(i,) for i in range(8)], "test")
        assert str(failed.value).count("a worker process failed") == 1
        with pytest.raises(RuntimeError, match="exit code 7"):
            runner.map(_dies, [(i,) for i in range(8)], "test")
        assert runner.map(_where, [(1,), (2,)], "test")[1][0] == 2  # the host serves on
    finally:
        runner.close()


def _prepare_slowly(started: Path) -> None:
    started.touch()
    time.sleep(60)


def test_a_run_with_nothing_to_analyze_does_not_wait_for_its_host(tmp_path: Path) -> None:
    """close() ends a host that is still preparing (a warm cache found nothing to analyze)
    instead of waiting for it to finish."""
    started = tmp_path / "started"
    runner = Runner(jobs=2, prepare=functools.partial(_prepare_slowly, started))
    runner.start()
    host = runner._host
    assert host is not None
    deadline = time.monotonic() + 60
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    runner.close()
    assert host.process.exitcode == 1  # left through its SIGTERM handler, mid-preparation


def _sleep_in_worker(folder: str) -> None:
    Path(folder, str(os.getpid())).touch()
    time.sleep(60)


def test_ending_a_busy_host_ends_its_workers(tmp_path: Path) -> None:
    """An interrupted run (close() while the host's workers run) leaves no worker behind."""
    runner = Runner(jobs=2)
    runner.start()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            runner.map(_sleep_in_worker, [(str(tmp_path),)] * 4, "test")
        except BaseException as error:  # noqa: BLE001 - the ended host, checked below
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 60
    while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = [int(path.name) for path in tmp_path.iterdir()]
    assert len(workers) == 2
    runner.close()
    thread.join(60)
    assert failure and isinstance(failure[0], RuntimeError)
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_children_leave_when_the_process_that_forked_them_is_gone() -> None:
    """A host or a worker sees the end of its pipe once its parent's end is closed (as
    when the parent dies): a child keeping its own copy of that end waited forever."""
    from dpsens.workers import _Host, _Worker

    for make in (lambda: _Host(2, False, None), lambda: _Worker(_where, [(1,)], None)):
        child = make()  # one at a time: a child forked later holds a copy of the end too
        child.connection.close()
        child.process.join(30)
        assert child.process.exitcode == 0


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in
                Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
                    reason="needs /proc's list of children (Linux)")
@pytest.mark.parametrize("workers", [0, 2], ids=["while-the-host-prepares", "mid-analysis"])
def test_ctrl_c_ends_the_run_and_its_processes_without_a_traceback(
        tmp_path: Path, workers: int) -> None:
    """SIGINT to the terminal's process group in a run with workers: exit 130, one line
    on stderr, and no process of the run left behind (three times: the children's
    tracebacks came with some timings only)."""
    import signal

    body = "".join(f"\n\ndef f{j}(x: Real, k: Static[int]) -> Real:\n    s = 0.0\n"
                   f"    for i in range(k):\n        s = s + {j}.0 * x\n    return s\n"
                   for j in range(20))
    for i in range(80):
        (tmp_path / f"m{i}.py").write_text("from dpsens import Real, Static\n" + body)
    for _ in range(3):
        run = subprocess.Popen([sys.executable, "-m", "dpsens", "check", "--no-cache", "-j",
                                "2", "."], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the host is preparing, or its workers run
            if any(len(_children(host)) == workers for host in _children(run.pid)):
                break
            time.sleep(0.002)
        descendants = [*_children(run.pid), *(w for h in _children(run.pid) for w in _children(h))]
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=60)
        assert (run.returncode, out, err) == (130, "", "dpsens: interrupted\n")
        assert len(descendants) == 1 + workers
        for pid in descendants:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
