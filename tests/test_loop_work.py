"""Nested loops cost work linear in their depth when nothing forces more: each level
analyzes its body a bounded number of times, not a multiple of the levels inside it (a
fixpoint that re-runs every level's body runs the innermost 2ⁿ times: ten levels took
24 s instead of 0.7 s)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpsens.check import check_paths
from dpsens.infer import loops


def _nested(depth: int, statement: str) -> str:
    body = "".join(" " * (4 + 4 * i) + f"for i{i} in range(3):\n" for i in range(depth))
    return ("import numpy as np\nfrom dpsens import Integer, Real\n\n\n"
            "def f(x: Real, k: Integer) -> Real:\n" + body + " " * (4 + 4 * depth) + statement
            + "\n    return x + k\n")


def _body_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> int:
    runs = 0
    run_body = loops._run_body

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal runs
        runs += 1
        return run_body(*args, **kwargs)

    monkeypatch.setattr(loops, "_run_body", counted)
    program = tmp_path / "nested.py"
    program.write_text(source)
    [file] = check_paths([str(program)]).files
    assert [f["qualname"] for f in file.functions] == ["f"], file.diagnostics
    return runs


@pytest.mark.parametrize("statement", [
    "x = 2.0 * x",
    "x = max(x, 0)",  # x may then be held as an integer (R-int-dtype)
    "k = k + 1; x = float(np.array([x, 1.0])[0])",  # an integer carried, an array made
])
def test_nested_loops_run_each_body_a_bounded_number_of_times(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, statement: str) -> None:
    """Eight levels of loops with a sensitive real carried through them: the body runs
    grow linearly with the depth. (A body that reads its loop's index into a public value
    is unrolled iteration by iteration, 3ⁿ runs, by design: CONCRETE_LIMIT.)"""
    shallow = _body_runs(tmp_path, monkeypatch, _nested(4, statement))
    deep = _body_runs(tmp_path, monkeypatch, _nested(8, statement))
    assert deep <= 2 * shallow + 8, (shallow, deep)
