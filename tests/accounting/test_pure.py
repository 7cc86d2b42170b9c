"""The optimal composition of k ε-DP mechanisms against dp-accounting's PLD and by hand."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from dpsens.accounting.pure import optimal_pure_composition, pure_delta
from dpsens.check import check_paths


def test_one_mechanism_is_itself() -> None:
    # One randomized response: the loss is ±ε, so δ(ε') = 0 exactly at ε' = ε.
    assert pure_delta(0.5, 1, 0.5) == 0.0
    assert pure_delta(0.5, 1, 0.5 - 1e-9) > 0.0
    # With δ = 1e-5 to spend, a little less than ε: δ(ε') = q·(e^ε − e^ε') (q = 1/(1 + e^ε)).
    least = optimal_pure_composition(0.5, 1, 1e-5)
    q = 1 / (1 + math.exp(0.5))
    assert least == pytest.approx(math.log(math.exp(0.5) - 1e-5 / q), abs=1e-9)


def test_two_mechanisms_by_hand() -> None:
    # Two answers of RR at ε: loss 2ε with probability p² (against q²), 0 with 2pq.
    epsilon, total = 1.0, 0.5
    p, q = math.exp(epsilon) / (1 + math.exp(epsilon)), 1 / (1 + math.exp(epsilon))
    by_hand = (p * p - math.exp(total) * q * q) + max(0.0, 2 * p * q - math.exp(total) * 2 * p * q)
    assert pure_delta(epsilon, 2, total) == pytest.approx(by_hand, rel=1e-12)


def test_never_above_basic_composition() -> None:
    for epsilon, k in ((0.1, 100), (1.0, 10), (0.01, 5000)):
        assert optimal_pure_composition(epsilon, k, 1e-5) <= k * epsilon


@settings(max_examples=30, deadline=None)
@given(epsilon=st.floats(0.01, 2.0), k=st.integers(1, 10), total=st.floats(0.0, 3.0))
def test_delta_is_the_hockey_stick_of_k_randomized_responses(epsilon: float, k: int,
                                                               total: float) -> None:
    """δ(ε') against the 2^k outcomes of k randomized responses enumerated one by one."""
    p = math.exp(epsilon) / (1 + math.exp(epsilon))
    by_outcome = 0.0
    for outcome in itertools.product((0, 1), repeat=k):
        truths = sum(outcome)
        first = p ** truths * (1 - p) ** (k - truths)
        second = (1 - p) ** truths * p ** (k - truths)
        by_outcome += max(0.0, first - math.exp(total) * second)
    assert pure_delta(epsilon, k, total) == pytest.approx(by_outcome, rel=1e-9, abs=1e-15)


@pytest.mark.dp_accounting
@settings(max_examples=10, deadline=None)
@given(epsilon=st.floats(0.01, 2.0), k=st.integers(1, 100), delta=st.sampled_from([1e-3, 1e-5, 1e-7]))
def test_agrees_with_dp_accountings_pld(epsilon: float, k: int, delta: float) -> None:
    """dp-accounting's PLD of (ε, 0) composed k times is pessimistic by its discretization
    only (an interval of 1e-5 here, so at most k·1e-5 above), and never below the exact
    profile (else one of the two would be unsound)."""
    from dp_accounting.pld import common, privacy_loss_distribution

    pld = privacy_loss_distribution.from_privacy_parameters(
        common.DifferentialPrivacyParameters(epsilon, 0),
        value_discretization_interval=1e-5).self_compose(k)
    theirs = pld.get_epsilon_for_delta(delta)
    ours = optimal_pure_composition(epsilon, k, delta)
    assert ours <= theirs + 1e-6 * max(1.0, theirs)  # our margin on δ, and the bisection's
    assert ours >= theirs - k * 1e-5 - 1e-9
    # At the ε' returned, the exact δ is within the target (the bisection rounds up).
    assert pure_delta(epsilon, k, ours) <= delta


def test_a_loop_of_randomized_responses_is_composed_optimally(tmp_path: Path) -> None:
    program = tmp_path / "rr.py"
    program.write_text(
        "from dpsens import Data, Priv, Real, randomized_response\n\n\n"
        "def hundred(b: Data) -> Priv[Real]:\n"
        "    total = 0.0\n"
        "    for _ in range(100):\n"
        "        total = total + randomized_response(0.1, b)\n"
        "    return total\n")
    [file] = check_paths([str(program)]).files
    [report] = file.functions
    [b] = report["params"]
    assert report["accounting"] == "optimal"
    # Kairouz-Oh-Viswanath at δ' = 1e-5: 4.30679 (zCDP, the best before, gave 4.72839).
    assert float(b["epsilon"]) == pytest.approx(4.30679, abs=2e-5)
    assert float(b["epsilon"]) >= 4.306791


def _mixed_delta(groups: list[tuple[float, int]], total: float) -> float:
    """δ(ε') of k₁ randomized responses at ε₁ and k₂ at ε₂ composed: the loss is the sum of
    ±εᵢ, so it is enumerated by how many answers of each group are the truth."""
    by_outcome = 0.0
    ranges = [range(k + 1) for _, k in groups]
    for truths in itertools.product(*ranges):
        first = second = 1.0
        for (epsilon, k), t in zip(groups, truths):
            p = math.exp(epsilon) / (1 + math.exp(epsilon))
            first *= math.comb(k, t) * p ** t * (1 - p) ** (k - t)
            second *= math.comb(k, t) * (1 - p) ** t * p ** (k - t)
        by_outcome += max(0.0, first - math.exp(total) * second)
    return by_outcome


@pytest.mark.dp_accounting
@settings(max_examples=12, deadline=None, derandomize=True)
@given(first=st.floats(0.01, 1.0), second=st.floats(0.01, 1.0),
       counts=st.tuples(st.integers(1, 60), st.integers(1, 60)))
def test_pure_mechanisms_of_two_epsilons_are_never_undercounted(
        first: float, second: float, counts: tuple[int, int]) -> None:
    """Randomized responses (or any ε-DP mechanisms) of two ε in loops: whichever method
    account() picks (zCDP, advanced, or the PLD of the worst ε-DP mechanisms), the exact δ
    of randomized response, which every ε-DP mechanism is below, stays within it."""
    from dpsens.privacy.compose import account
    from dpsens.privacy.ledger import Charge, VarLoop
    from dpsens.sym import expr as E

    history = tuple(VarLoop(E.number(k), (Charge(E.number(epsilon), E.ZERO,
                                                 rho=E.number(epsilon) ** 2 / 2),))
                    for epsilon, k in ((first, counts[0]), (second, counts[1])))
    cost = account(history, 1e-5)
    assert _mixed_delta([(first, counts[0]), (second, counts[1])], float(cost.epsilon)) \
        <= float(cost.delta) + 1e-15


@pytest.mark.dp_accounting
def test_pure_mechanisms_of_two_epsilons_are_composed_as_tightly_as_their_pld() -> None:
    """50 randomized responses at 0.1 and 50 at 0.2: 7.28728 (the exact profile's 7.28727
    rounded up), where zCDP gave 8.07836."""
    from dpsens.privacy.compose import account
    from dpsens.privacy.ledger import Charge, VarLoop
    from dpsens.sym import expr as E

    def loop(epsilon: float) -> VarLoop:
        return VarLoop(E.number(50), (Charge(E.number(epsilon), E.ZERO, rho=E.number(epsilon) ** 2 / 2),))

    cost = account((loop(0.1), loop(0.2)), 1e-5)
    assert (cost.method, float(cost.epsilon)) == ("pld", pytest.approx(7.28728, abs=2e-5))
    assert _mixed_delta([(0.1, 50), (0.2, 50)], float(cost.epsilon)) <= 1e-5
