"""DPS311: a parameter reported unbounded gets a note saying where, and by which rule."""

from __future__ import annotations

import json
from pathlib import Path

from dpsens.check import check_paths
from dpsens.cli import main

HEADER = "import numpy as np\n\nfrom dpsens import Data, Priv, Real, laplace_mechanism\n\n\n"


def _notes(tmp_path: Path, body: str) -> list[tuple[int, int, str]]:
    program = tmp_path / "program.py"
    program.write_text(HEADER + body)
    [file] = check_paths([str(program)]).files
    assert all(d.severity == "note" for d in file.diagnostics if d.code == "DPS311")
    return [(d.line, d.column, d.message) for d in file.diagnostics if d.code == "DPS311"]


def test_a_product_of_two_inputs_is_explained_where_it_is(tmp_path: Path) -> None:
    notes = _notes(tmp_path, "def f(x: Real, y: Real) -> Real:\n    z = x + 1.0\n    return z * y\n")
    assert [(line, column) for line, column, _ in notes] == [(8, 12), (8, 12)]
    assert {message.split("'")[1] for _, _, message in notes} == {"x", "y"}
    assert all("'*' of two values that both depend on inputs" in m for _, _, m in notes)


def test_a_branch_on_a_real_is_explained_by_its_comparison(tmp_path: Path) -> None:
    notes = _notes(tmp_path, "def f(x: Real, y: Real) -> Real:\n    if x > 0.5:\n"
                             "        return y\n    return 2.0 * y\n")
    # y is 2-sensitive (no note); x is unbounded by the comparison that picks the branch.
    assert len(notes) == 1
    line, column, message = notes[0]
    assert (line, column) == (7, 8) and message.startswith("'x' is unbounded from here: a "
                                                           "comparison of reals is a step")


def test_the_truth_of_a_number_is_explained_by_the_condition(tmp_path: Path) -> None:
    notes = _notes(tmp_path, "def f(x: Real, y: Real) -> Real:\n    if x:\n"
                             "        return y\n    return 2.0 * y\n")
    assert [(line, m.split(":")[1].strip()[:28]) for line, _, m in notes] == \
        [(7, "a value chosen by this condi")]


def test_bounded_results_and_explained_ones_have_no_note(tmp_path: Path) -> None:
    # max(x, 0) written as a branch is 1 (R-if-extreme); an unknown call has its own error.
    assert _notes(tmp_path, "def f(x: Real) -> Real:\n    return x if x > 0 else 0.0\n") == []
    assert _notes(tmp_path, "def g(x: Real) -> Real:\n    return float(np.frombuffer(x))\n") == []


def test_an_unbounded_privacy_cost_is_explained(tmp_path: Path) -> None:
    notes = _notes(tmp_path, "def f(x: Real, y: Real) -> Priv[Real]:\n"
                             "    return laplace_mechanism(1.0, 1.0, x * y)\n")
    assert sorted(m.split("'")[1] for _, _, m in notes) == ["x", "y"]


def test_a_note_does_not_fail_the_run_and_is_a_note_in_every_format(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    program = tmp_path / "program.py"
    program.write_text(HEADER + "def f(x: Real, y: Real) -> Real:\n    return x * y\n")
    assert main(["check", "--no-cache", str(program)]) == 0
    assert "program.py:7:12: DPS311 'x' is unbounded from here" in capsys.readouterr().out
    assert main(["check", "--no-cache", "--format", "json", str(program)]) == 0
    [note, _] = json.loads(capsys.readouterr().out)["files"][0]["diagnostics"]
    assert (note["code"], note["severity"]) == ("DPS311", "note")
    assert main(["check", "--no-cache", "--format", "sarif", str(program)]) == 0
    [run] = json.loads(capsys.readouterr().out)["runs"]
    assert {r["level"] for r in run["results"]} == {"note"}
