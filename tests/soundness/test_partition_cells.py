"""Partitions (R-loop-partition, R-cell-values) on neighbours whose records do fall in cells.

The audit of the case files draws real entries, which no ``x == i`` test meets: its
counts and per-group sums are all 0. Here the group column holds whole numbers, some
outside the range of groups, and one record is replaced by any other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from case_files import load
from hypothesis import given, settings, strategies as st

from dpsens.audit.sensitivity import evaluate
from dpsens.check import check_paths

CASES = Path(__file__).resolve().parent.parent / "cases" / "histograms.py"
# Functions of (D: an (L∞, Data) matrix of [value, group] rows, k: the number of groups).
FUNCTIONS = ["group_sums", "group_sums_by_product", "cells_of_a_column_of_groups",
             "whole_matrix_cells", "sums_outside_each_group", "counted_groups"]


@pytest.fixture(scope="module")
def reported() -> dict[str, str]:
    [file] = check_paths([str(CASES)]).files
    return {f["name"]: f["params"][0]["sensitivity"] for f in file.functions
            if f["name"] in FUNCTIONS}


def _records(draw: Any, n: int, k: int) -> np.ndarray:
    values = [draw(st.floats(-1.0, 2.0) | st.integers(-1, k).map(float)) for _ in range(n)]
    groups = [draw(st.integers(-1, k)) for _ in range(n)]
    return np.column_stack([values, groups]).astype(float)


def _distance(a: Any, b: Any) -> float:
    return float(np.sum(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))))


@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=80, deadline=None, derandomize=True)
@given(data=st.data())
def test_one_record_moves_the_groups_by_at_most_the_report(name: str, data: Any,
                                                           reported: dict[str, str]) -> None:
    module = load(CASES)
    assert module is not None
    k, n = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 6))
    before = _records(data.draw, n, k)
    after = before.copy()
    after[data.draw(st.integers(0, n - 1))] = _records(data.draw, 1, k)[0]
    claimed = evaluate(reported[name], {"k": k}, {"D": {"rows": n, "cols": 2}})
    function = getattr(module, name)
    assert _distance(function(before, k), function(after, k)) <= claimed + 1e-9


def test_the_groups_are_met() -> None:
    """Not vacuous: a record moving between two groups moves both sums."""
    module = load(CASES)
    assert module is not None
    before = np.array([[1.0, 0.0], [0.5, 1.0]])
    after = np.array([[1.0, 1.0], [0.5, 1.0]])
    assert _distance(module.group_sums(before, 2), module.group_sums(after, 2)) == 2.0
