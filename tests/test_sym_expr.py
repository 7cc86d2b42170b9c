"""The sympy facade keeps infinity absorbing: sympy itself folds some oo forms to 0."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, strategies as st

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
