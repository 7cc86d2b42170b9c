"""Negative controls: the known-wrong rules of earlier tools must be refuted.

Each wrong rule is a row of the rule table with only its claimed constant
replaced, so it is the very checker of test_builtin_rules that must fail.
Both halves of the checker are tested separately: the adversarial sweep alone,
and the random (hypothesis) search alone, so neither can silently go weak.  The
pair generators are tested last: exact numbers of changed entries and rows.
"""

from __future__ import annotations

import dataclasses
from math import sqrt
from typing import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from neighbours import (
    Metric,
    Rule,
    RuleViolation,
    Space,
    adversarial_matrices,
    adversarial_vectors,
    check_pair,
    check_rule,
    matrices,
    matrix_pairs,
    random_cases,
    scalars,
    vector_pairs,
    vectors,
)
from test_builtin_rules import RULES

from dpsens.runtime import discrete, matrix_distance, undisc, vector_distance

BY_NAME = {rule.name: rule for rule in RULES}


def wrong(name: str, claimed: Callable[[int], float], label: str) -> Rule:
    """The table row `name` with a wrong claimed constant."""
    return dataclasses.replace(BY_NAME[name], name=f"{name} claimed {label}", claimed=claimed)


WRONG_RULES = [
    # The Duet paper: clipping keeps (L1, Data) 1-sensitive.
    *[wrong(f"clip({c}) (L1,Data) vector", lambda n: 1.0, "1") for c in ("L1", "L2", "L_inf")],
    wrong("clip(L1) (L1,Data) matrix", lambda n: 1.0, "1"),
    # The Julia tool: L_inf -> L1 costs sqrt(n).
    *[wrong(f"norm_convert L_inf->L1 ({kind})", sqrt, "sqrt(n)")
      for kind in ("Real vector", "Data vector", "Real matrix rows", "Data matrix rows")],
    # The Julia tool: a loop costs k in the free variables, whatever the body.
    wrong("loop y s=2.0", lambda k: float(k), "k"),
    # The Julia tool: fold costs s1 in the data, ignoring the accumulator.
    wrong("fold m scalar s2=2.0", lambda n: 1.5, "s1"),
    wrong("fold m rows s2=2.0", lambda n: 1.5, "s1"),
    # The Duet paper: undisc_container is 1-sensitive.
    *[wrong(f"undisc_container clip {c}", lambda n: 1.0, "1") for c in ("L1", "L2", "L_inf")],
    # The Julia tool: c * a on Data costs c, unsound for c < 1.
    wrong("Data scaling c=0.5", lambda n: 0.5, "c"),
    # The Julia tool leaves the norm of count free: under L_inf it is not 1.
    wrong("count (L_inf,Data) vector", lambda n: 1.0, "1"),
    # Duet: discf (real -> discrete) is 1-sensitive; 0.1 vs 0.2 already needs 10.
    Rule("discrete claimed 1", discrete, scalars("Real"), Metric("L1", "Data"), lambda n: 1.0),
    # The converse: a discrete step may be an arbitrarily large real step.
    Rule("undisc claimed 1", undisc, scalars("Data"), Metric("L1", "Real"), lambda n: 1.0),
]


@pytest.mark.parametrize("rule", WRONG_RULES, ids=str)
def test_adversarial_pairs_refute_wrong_rule(rule: Rule) -> None:
    """The hand-picked adversarial pairs alone find a violation."""
    with pytest.raises(RuleViolation) as caught:
        check_rule(rule, random=False)
    assert caught.value.observed > caught.value.claimed + 1e-9


@pytest.mark.parametrize("rule", WRONG_RULES, ids=str)
def test_random_search_refutes_wrong_rule(rule: Rule) -> None:
    """The random (hypothesis) search alone finds a violation (derandomized: no flakes)."""
    with pytest.raises(RuleViolation) as caught:
        check_rule(rule, adversarial=False, derandomize=True)
    assert caught.value.observed > caught.value.claimed + 1e-9


def test_seed_counterexamples_are_violations() -> None:
    """The exact pairs of the seed note and SPEC violate the wrong claims by the expected amounts."""
    clip_rule = wrong("clip(L1) (L1,Data) vector", lambda n: 1.0, "1")
    with pytest.raises(RuleViolation) as caught:
        check_pair(clip_rule, 2, np.array([1.0, 1.0]), np.array([1.0, 0.0]))
    assert caught.value.observed == 2.0

    loop_rule = wrong("loop y s=2.0", lambda k: float(k), "k")
    with pytest.raises(RuleViolation) as caught:
        check_pair(loop_rule, 3, 0.0, 1.0, (3, 0.0))
    assert caught.value.observed == 7.0

    disc_rule = next(rule for rule in WRONG_RULES if rule.name == "discrete claimed 1")
    with pytest.raises(RuleViolation) as caught:
        check_pair(disc_rule, 1, 0.1, 0.2)
    assert caught.value.observed == pytest.approx(10.0)


# --- the pair generators themselves: a weak generator would make every rule pass

FAST = settings(max_examples=50, deadline=None, database=None)


@FAST
@given(st.data())
def test_data_vector_pairs_differ_in_exactly_k_entries(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 8))
    k = data.draw(st.integers(1, n))
    v, w = data.draw(vector_pairs("Data", n, k))
    assert v.shape == w.shape == (n,)
    assert vector_distance("L1", "Data", v, w) == k


@FAST
@given(st.data())
def test_data_matrix_pairs_differ_in_exactly_k_rows(data: st.DataObject) -> None:
    rows, cols = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 4))
    k = data.draw(st.integers(1, rows))
    m, other = data.draw(matrix_pairs("Data", rows, cols, k))
    assert m.shape == other.shape == (rows, cols)
    assert matrix_distance("L_inf", "Data", m, other) == k


@pytest.mark.parametrize(
    ("space", "n"),
    [(vectors("L_inf", "Data"), 8), (matrices("L_inf", "Data", "rows"), 4)],
    ids=["Data vector", "Data matrix"],
)
def test_random_pairs_are_genuine_and_vary_the_number_of_changes(space: Space, n: int) -> None:
    """Random pairs are never equal and change every possible number (1..n) of entries or rows."""
    counts = set()
    for seed in range(300):
        x, y = space.draw(np.random.default_rng(seed), n)
        assert x.shape == y.shape and not np.array_equal(x, y)
        counts.add(int((x != y).reshape(n, -1).any(axis=1).sum()))
    assert counts == set(range(1, n + 1))


def test_random_real_pairs_include_small_and_large_steps() -> None:
    rule = BY_NAME["np.sum (L1,Real) vector"]
    pairs = [pair for seed in range(200) for pair, _ in random_cases(rule, 3, seed)]
    steps = [vector_distance("L1", "Real", x, y) for x, y in pairs]
    assert min(steps) <= 16 * 2.0**-8 and max(steps) >= 100.0


@pytest.mark.parametrize("n", [1, 2, 5])
def test_adversarial_pairs_are_neighbours_of_the_right_size(n: int) -> None:
    for kind in ("Real", "Data"):
        for x, y in adversarial_vectors(kind, n):
            assert x.shape == y.shape == (n,) and not np.array_equal(x, y)
        for m, other in adversarial_matrices(kind, 3, n):
            assert m.shape == other.shape == (3, n) and not np.array_equal(m, other)
    seed_pair = (np.array([1.0, 1.0]), np.array([1.0, 0.0]))
    assert any(np.array_equal(x, seed_pair[0]) and np.array_equal(y, seed_pair[1])
               for x, y in adversarial_vectors("Data", 2))
