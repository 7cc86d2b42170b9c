"""Module-level names bound by an import and again by the module (review31 U1).

The rebinding, not the import, is what a function reads when it runs: dpsens's or
numpy's rule for the imported name must not be used. Names bound once by a tuple
assignment are constants like any other.
"""

import numpy as np

from dpsens import L1, MetricVector, Priv, Real, Static, clip, laplace_mechanism

LO, HI = 0.0, 2.0


def _tenfold(t, a=0.0, b=0.0):  # expect: t=10; a=0; b=0  # E: DPS103, DPS103, DPS103
    return 10 * t


class _Namespace:
    clip = staticmethod(_tenfold)


np = _Namespace()
laplace_mechanism = lambda s, eps, x: x  # noqa: E731


def clip(norm, v):  # expect: norm=inf; v=inf  # E: DPS103, DPS103, DPS206
    return 10 * v


# was: 1 (numpy's clip); truth 10
def clipped_by_a_rebound_module(x: Real) -> Real:  # expect: x=inf
    return np.clip(x, -1.0, 1.0)  # E: DPS203


# was: (eps, 0) (dpsens's Laplace); truth (inf, inf): the lambda returns x itself
def released_by_a_rebound_mechanism(x: Real, eps: Static[float]) -> Priv[Real]:  # expect: x=(inf, inf); eps=static; accounting=released  # E: DPS403
    return laplace_mechanism(1.0, eps, x)  # E: DPS203, DPS206


# was: 2 (dpsens's clip); truth 10
def clipped_by_a_redefined_function(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return clip(L1, v)[0]  # E: DPS203, DPS206


# a tuple assignment binds each name once: HI is 2.0 (it was DPS206 and ∞)
def scaled_by_a_tuple_constant(x: Real) -> Real:  # expect: x=2
    return HI * x + LO
