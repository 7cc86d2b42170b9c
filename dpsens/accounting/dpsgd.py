"""Accounting of subsampled Gaussian loops (DP-SGD): fixed-size batches drawn without replacement.

dpsens's ``sample(k, m1, m2)`` draws k of n rows without replacement, and its
neighbours are substitutions, so the matching analysis is Wang, Balle &
Kasiviswanathan, "Subsampled Renyi Differential Privacy and Analytical
Moments Accountant" (AISTATS 2019), Theorem 27, implemented by dp-accounting's
``RdpAccountant`` for ``SampledWithoutReplacementDpEvent`` under
``NeighboringRelation.REPLACE_ONE``.

What ``sigma`` means.  dp-accounting's RDP code uses the Gaussian RDP
alpha / (2 sigma^2) for the sampled batch, so ``sigma`` is the noise standard
deviation divided by the L2 sensitivity of the per-step query under
substitution of one row -- exactly a dpsens sensitivity.  A clipped gradient
sum with clip norm C has substitution sensitivity 2C (add/remove: C); code
written in the add/remove convention ("noise multiplier 1.1 relative to C")
must pass sigma = 1.1 / 2 here.  Example (MNIST-sized, 60 epochs): n = 60000,
batch 256, 14062 steps, delta = 1e-5 gives eps = 5.24 for sigma = 1.1 (noise
1.1 x the substitution sensitivity) but eps = 24.1 for sigma = 0.55 (noise
1.1 C on a 2C-sensitive sum).

dp-accounting 0.6.0's PLD accountant has no sampling-without-replacement
event (it only knows Poisson sampling, a different mechanism), so
``method="pld"`` is refused rather than silently answered for Poisson sampling.
"""

from __future__ import annotations

from dpsens.accounting import _validate as check

__all__ = ["dpsgd_epsilon"]


def dpsgd_epsilon(
    sample_size: int, population: int, sigma: float, steps: int, delta: float, method: str = "rdp",
) -> float:
    """eps at delta of `steps` Gaussian steps (noise sigma x sensitivity) on batches of sample_size of population rows."""
    sample_size = check.count("sample_size", sample_size)
    population = check.count("population", population)
    if sample_size > population:
        raise ValueError(f"sample_size ({sample_size}) cannot exceed population ({population})")
    sigma = check.positive("sigma", sigma)
    steps = check.count("steps", steps)
    delta = check.open_probability("delta", delta)
    if method not in ("rdp", "pld"):
        raise ValueError(f"method must be 'rdp' or 'pld', got {method!r}")

    from dp_accounting import (  # type: ignore[import-untyped]
        GaussianDpEvent, NeighboringRelation, SampledWithoutReplacementDpEvent, SelfComposedDpEvent,
    )
    from dp_accounting.pld import PLDAccountant  # type: ignore[import-untyped]
    from dp_accounting.rdp import RdpAccountant  # type: ignore[import-untyped]

    step = SampledWithoutReplacementDpEvent(
        source_dataset_size=population, sample_size=sample_size, event=GaussianDpEvent(sigma),
    )
    event = SelfComposedDpEvent(step, steps)
    accountant: RdpAccountant | PLDAccountant
    if method == "rdp":
        accountant = RdpAccountant(neighboring_relation=NeighboringRelation.REPLACE_ONE)
    else:
        accountant = PLDAccountant(neighboring_relation=NeighboringRelation.REPLACE_ONE)
    if not accountant.supports(event):
        raise ValueError(
            f"dp-accounting's {type(accountant).__name__} does not support sampling without "
            "replacement; use method='rdp'"
        )
    accountant.compose(event)
    return float(accountant.get_epsilon(delta))
