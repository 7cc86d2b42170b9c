"""Numeric privacy accounting: composition, zCDP/RDP, subsampling, shuffling, DP-SGD.

dp-accounting (Google) is imported lazily by ``pld`` and ``dpsgd`` only.
"""

from dpsens.accounting.composition import advanced_composition, basic_composition, best_k_fold
from dpsens.accounting.dpsgd import dpsgd_epsilon
from dpsens.accounting.gaussian import (
    analytic_gaussian_sigma, gaussian_delta, gaussian_epsilon, gaussian_mu,
)
from dpsens.accounting.pld import pld_gaussian_k_fold, pld_laplace_k_fold
from dpsens.accounting.renyi import (
    gaussian_rdp, gaussian_rho, rdp_curve_to_dp, rdp_to_dp, zcdp_to_dp, zcdp_to_dp_simple,
)
from dpsens.accounting.shuffle import fmt_theorem_bound, fmt_valid, shuffle_amplification
from dpsens.accounting.subsampling import subsampled

__all__ = [
    "basic_composition", "advanced_composition", "best_k_fold",
    "analytic_gaussian_sigma", "gaussian_delta", "gaussian_epsilon", "gaussian_mu",
    "gaussian_rho", "gaussian_rdp", "rdp_to_dp", "rdp_curve_to_dp", "zcdp_to_dp", "zcdp_to_dp_simple",
    "pld_gaussian_k_fold", "pld_laplace_k_fold", "dpsgd_epsilon",
    "subsampled", "fmt_valid", "fmt_theorem_bound", "shuffle_amplification",
]
