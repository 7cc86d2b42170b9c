"""One function per rule where earlier tools were wrong, with the corrected value.

Each docstring gives what DiffPrivacyInference.jl or the Duet paper reports and
why that is too small (unsound) or too large (loose); docs/rules.md has the proofs.
"""

from dpsens import (
    Data, L1, L2, L_inf, MetricMatrix, MetricVector, Real, count, clip, discrete, fold,
    Static, norm_convert, undisc_container,
)


def data_scaling(d: Data) -> Data:
    """0.5 * d on Data is 1-sensitive; the Julia tool charges 0.5 (distances stay 1)."""
    return 0.5 * d


def branch_max(x: Real, flag: Static[bool]) -> Real:
    """A public branch costs the larger branch (2), not the sum (3) the Julia tool charges."""
    if flag:
        return 2.0 * x
    return x


def loop_growth(x: Real, y: Real) -> Real:
    """Three rounds of x = 2x + y cost 7 in y (Julia: 3) and 8 in x."""
    for _ in range(3):
        x = 2.0 * x + y
    return x


def clip_discrete(v: MetricVector[L1, Data]) -> MetricVector[L1, Data]:
    """Clipping (L1, Data) vectors costs len(v) ([1,1] vs [1,0]); the Duet paper says 1."""
    return clip(L1, v)


def undisc_rows(m: MetricMatrix[L_inf, Data]) -> MetricMatrix[L2, Real]:
    """Clipped Data rows as real rows cost 2 ([1,0] vs [-1,0]); the Duet paper says 1."""
    return undisc_container(clip(L2, m))


def disc(x: Real) -> Data:
    """Real -> Data is unbounded (0.1 vs 0.2 needs 10); Duet says 1."""
    return discrete(x)


def to_l1(v: MetricVector[L_inf, Real]) -> MetricVector[L1, Real]:
    """L_inf -> L1 costs len(v) (all ones vs zeros); the Julia tool charges sqrt(len(v))."""
    return norm_convert(L1, v)


def count_needs_l1(v: MetricVector[L_inf, Data]) -> int:
    """Under (L_inf, Data) one step may change every entry: len(v); Julia leaves the norm free."""
    return count(lambda e: e > 0.5, v)


def fold_growth(v: MetricVector[L1, Real], init: Real) -> Real:
    """acc = 2 acc + e costs 2^(len(v)-1) in v and 2^len(v) in init; Julia charges 1."""
    return float(fold(lambda acc, e: 2.0 * acc + e, init, v))


if __name__ == "__main__":
    import numpy as np

    print(clip_discrete(np.array([1.0, 1.0])), clip_discrete(np.array([1.0, 0.0])))
    print(loop_growth(1.0, 1.0), fold_growth(np.array([1.0, 2.0]), 0.5))
