"""The sympy facade keeps infinity absorbing: sympy itself folds some oo forms to 0."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, strategies as st

from dpsens.check import check_paths
from dpsens.sym import expr as E

RATIOS = [sp.Integer(0), sp.Rational(1, 2), sp.Integer(1), sp.Integer(2), sp.Integer(3), sp.oo]


def _true_sum(ratio: sp.Expr, count: int) -> float:
    """Σ_{j<count} ratio**j with oo**0 = 1."""
    if ratio == sp.oo:
        return [0.0, 1.0][count] if count < 2 else math.inf
    return float(sum(Fraction(str(ratio)) ** j for j in range(count)))


@given(st.sampled_from(RATIOS), st.integers(min_value=0, max_value=8))
def test_geometric_is_the_sum_for_numeric_counts(ratio: sp.Expr, count: int) -> None:
    assert float(E.geometric(ratio, sp.Integer(count))) == _true_sum(ratio, count)


@given(st.sampled_from(RATIOS), st.integers(min_value=0, max_value=8))
def test_geometric_with_a_symbolic_count_bounds_every_count(ratio: sp.Expr, count: int) -> None:
    k = E.static_symbol("k")
    symbolic = E.geometric(ratio, k)
    value = E.INF if E.is_inf(symbolic) else symbolic.subs(k, count)
    assert float(value) >= _true_sum(ratio, count)


@pytest.mark.parametrize("count", [sp.Integer(1), sp.Integer(4), E.static_symbol("k")])
def test_infinite_powers_stay_infinite(count: sp.Expr) -> None:
    assert E.is_inf(E.power(sp.oo, count))
    assert E.power(sp.oo, sp.Integer(0)) == E.ONE


def test_powers_of_astronomical_loop_counts_stay_bounded(tmp_path: Path) -> None:
    """range(10**12): 0.5**(10**12) is bounded by 2**-1000 (computing it exactly timed out),
    the series Σ 0.5**j by 2, and 2**(10**12) is inf (these programs cannot be run on
    neighbours, so they are not case files)."""
    program = tmp_path / "trillion.py"
    program.write_text(
        "from dpsens import Real\n\n"
        "def shrinks(x: Real, y: Real) -> Real:\n"
        "    for _ in range(10**12):\n"
        "        x = 0.5 * x + y\n"
        "    return x\n\n"
        "def grows(x: Real) -> Real:\n"
        "    for _ in range(10**12):\n"
        "        x = 2.0 * x\n"
        "    return x\n")
    [file] = check_paths([str(program)]).files
    found = {f["name"]: {p["name"]: p["sensitivity"] for p in f["params"]} for f in file.functions}
    assert not file.diagnostics
    assert found == {"shrinks": {"x": "9.33263618503219e-302", "y": "2"}, "grows": {"x": "inf"}}


def test_long_exact_numbers_are_rounded_up() -> None:
    small = E.power(sp.Rational(1, 2), sp.Integer(900))  # short enough: kept exact
    assert small == sp.Rational(1, 2**900)
    assert E.mul(small, sp.Rational(1, 2**200)) == E.TINY  # below 2**-1000: the bound
    huge = E.power(sp.Rational(3, 2), sp.Integer(1800))
    assert huge >= sp.Rational(3, 2) ** 1800 and len(str(huge)) < 30


def test_a_rounded_bound_beyond_the_largest_float_prints_as_inf(tmp_path: Path) -> None:
    # 1e308 * 10 overflows to inf in Python; its rounding bound was printed as sympy's "oo"
    program = tmp_path / "overflow.py"
    program.write_text("from dpsens import Real\n\n"
                       "def overflows(x: Real) -> Real:\n    return 1e308 * 10 * x\n")
    [file] = check_paths([str(program)]).files
    assert [p["sensitivity"] for f in file.functions for p in f["params"]] == ["inf"]


@given(st.floats(-5, 5), st.floats(-5, 5), st.floats(-5, 5))
def test_decide_le_through_max_and_sums_holds_at_every_point(h: float, l: float, c: float) -> None:
    """Max and sums of non-negative terms are decided structurally; a True must hold."""
    hi, lo, k = E.static_symbol("hi"), E.static_symbol("lo"), E.static_symbol("k")
    pairs = [
        (sp.Max(abs(hi), abs(lo), abs(hi - lo)), abs(hi - lo) + sp.Max(abs(hi), abs(lo))),
        (abs(hi), sp.Max(abs(hi), abs(lo))),
        (abs(lo), abs(hi) + abs(lo) + abs(k)),
        (abs(hi), abs(lo) + abs(k)),  # not decided: may be false
    ]
    point = {hi: h, lo: l, k: c}
    decided = [E.decide_le(a, b) for a, b in pairs]
    assert decided[:3] == [True, True, True] and decided[3] is None
    for (a, b), verdict in zip(pairs, decided):
        if verdict:
            assert float(a.subs(point)) <= float(b.subs(point)) + 1e-12
