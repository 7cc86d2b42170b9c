"""Acceptance numbers that need Google's dp-accounting (marked: it costs ~1 s to import)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dpsens.accounting import (
    best_k_fold, dpsgd_epsilon, gaussian_epsilon, gaussian_rho, pld_gaussian_k_fold, pld_laplace_k_fold,
    zcdp_to_dp,
)
from dpsens.sym import expr as E

pytestmark = pytest.mark.dp_accounting


def test_dpsgd_without_replacement_acceptance_number() -> None:
    # 256 of 60,000 rows without replacement, 14,062 steps, delta = 1e-5.  sigma is the
    # noise std over the SUBSTITUTION L2 sensitivity (dp-accounting's REPLACE_ONE RDP for
    # SampledWithoutReplacementDpEvent is alpha / (2 sigma^2) per unsampled step).
    assert dpsgd_epsilon(256, 60_000, 1.1, 14_062, 1e-5) == pytest.approx(5.24, abs=0.01)
    # The same noise 1.1 C on a sum of rows clipped to C (substitution sensitivity 2 C) is
    # sigma = 0.55 here, and costs far more.
    assert dpsgd_epsilon(256, 60_000, 0.55, 14_062, 1e-5) == pytest.approx(24.08, abs=0.05)


def test_dpsgd_sigma_convention_at_full_batch() -> None:
    # Sampling every row is the plain Gaussian mechanism: rho = 1/(2 sigma^2) per step.
    rdp = dpsgd_epsilon(100, 100, 2.0, 10, 1e-5)
    assert rdp == pytest.approx(zcdp_to_dp(10 * gaussian_rho(1.0, 2.0), 1e-5), abs=0.02)
    assert rdp >= zcdp_to_dp(10 * gaussian_rho(1.0, 2.0), 1e-5) - 1e-9  # discrete orders: never tighter


def test_dpsgd_refuses_pld_and_bad_arguments() -> None:
    with pytest.raises(ValueError, match="does not support sampling without replacement"):
        dpsgd_epsilon(256, 60_000, 1.1, 10, 1e-5, method="pld")
    with pytest.raises(ValueError, match="cannot exceed"):
        dpsgd_epsilon(10, 5, 1.1, 10, 1e-5)
    with pytest.raises(ValueError, match="method"):
        dpsgd_epsilon(10, 50, 1.1, 10, 1e-5, method="moments")


def test_k_fold_gaussian_pld_matches_exact_curve() -> None:
    pld = pld_gaussian_k_fold(1.0, 5.0, 100, 1e-5)
    exact = gaussian_epsilon(100**0.5 / 5.0, 1e-5)
    assert pld == pytest.approx(9.997, abs=2e-3)
    assert exact - 1e-6 <= pld <= exact + 1e-3  # PLD is pessimistic, and very close
    assert pld <= 10.8
    assert pld_gaussian_k_fold(2.0, 10.0, 100, 1e-5) == pytest.approx(pld, abs=1e-6)  # only s/sigma matters


def test_hundred_laplace_pld_is_tighter_than_advanced_composition() -> None:
    pld = pld_laplace_k_fold(0.1, 100, 1e-5)
    advanced = best_k_fold(0.1, 0.0, 100, 1e-5)[0]
    assert pld == pytest.approx(4.2203, abs=1e-3)
    assert 4.2 <= pld < advanced <= 5.9


def test_dp_accounting_rdp_agrees_with_our_zcdp_conversion() -> None:
    from dp_accounting import GaussianDpEvent
    from dp_accounting.rdp import RdpAccountant

    acc = RdpAccountant()
    acc.compose(GaussianDpEvent(5.0), 100)
    theirs = acc.get_epsilon(1e-5)
    ours = zcdp_to_dp(100 * gaussian_rho(1.0, 5.0), 1e-5)
    assert ours <= theirs <= ours + 0.01  # same CKS conversion; theirs on a finite order grid


def test_dp_accounting_replace_one_doubles_the_shift_in_pld() -> None:
    # Why pld.py uses ADD_OR_REMOVE_ONE: PLD's REPLACE_ONE shifts by 2 x the sensitivity.
    from dp_accounting import GaussianDpEvent, NeighboringRelation
    from dp_accounting.pld import PLDAccountant

    rep = PLDAccountant(neighboring_relation=NeighboringRelation.REPLACE_ONE)
    rep.compose(GaussianDpEvent(1.0))
    add = PLDAccountant(neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE)
    add.compose(GaussianDpEvent(0.5))
    assert rep.get_epsilon(1e-5) == pytest.approx(add.get_epsilon(1e-5), abs=1e-3)


def test_importing_accounting_does_not_import_dp_accounting() -> None:
    code = "import sys, dpsens.accounting, dpsens.runtime.mechanisms; print('dp_accounting' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_release_paid_in_parts_is_never_composed_as_two_mechanisms() -> None:
    """K30: a row loop's release also read a count of the whole matrix, so the changed
    row's iteration is one Laplace shifted by 2, paid as a base charge in every iteration
    and an increment once. Composing the increment as a mechanism of its own (KOV's
    optimal composition) reported 0.534268 at 1e-5; the true delta there is 1.59e-5."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    from dpsens.privacy.compose import account
    from dpsens.privacy.ledger import Charge, VarLoop, increment

    b = 20.0  # laplace_mechanism(2.0, 0.1, ·): scale 20, each unit of shift costs 0.05

    def laplace(shift: float) -> Charge:
        return Charge(E.number(shift / b), E.ZERO, rho=E.number((shift / b) ** 2 / 2),
                      laplace=E.number(b / shift))

    cost = account((VarLoop(E.number(10), (laplace(1.0),)), increment(laplace(1.0), (laplace(1.0),))),
                   1e-5)
    truth = pld.from_laplace_mechanism(b, sensitivity=1.0, value_discretization_interval=1e-5)
    truth = truth.self_compose(9).compose(
        pld.from_laplace_mechanism(b, sensitivity=2.0, value_discretization_interval=1e-5))
    # (pessimistic: at least the true delta; the grid adds at most a hair at the top loss)
    assert truth.get_delta_for_epsilon(float(cost.epsilon)) <= float(cost.delta) + 1e-9
