"""Annotations: the vocabulary under any import style; bad ones are coded diagnostics."""

import dpsens as dp
import numpy as np
from dpsens import MetricMatrix as MM
from dpsens import L1, L_inf, Data, Integer, Priv, Real, Static, laplace_mechanism

# Module-level type aliases (they were DPS101 and the parameters unknown).
Record = dp.MetricVector[L1, Data]
SameRecord = Record
Count = Integer
Budget = Static[float]
Released = Priv[Real]


def aliased(m: MM[L_inf, Data]) -> dp.MetricMatrix[dp.L_inf, dp.Data]:  # expect: m=1
    return dp.clip(dp.L2, m)


def plain_python(x: float, n: int, c: Static[int]) -> float:  # expect: x=1; n=2; c=static
    return x + 2 * n


def unannotated(x, y: Real) -> Real:  # expect: x=1; y=1  # E: DPS103
    return x + y


def swapped(x: MM[Data, L1]) -> Real:  # expect: x=0  # E: DPS102
    return 1.0


def arity(x: MM[L1]) -> Real:  # expect: x=0  # E: DPS102
    return 1.0


def unknown_name(x: Matrix) -> Real:  # expect: x=0  # E: DPS101
    return 1.0


def bare_ndarray(x: np.ndarray) -> Real:  # expect: x=0  # E: DPS101
    return 1.0


def clipped_input(m: dp.ClippedMatrix[dp.L2, L_inf, Data]) -> dp.MetricMatrix[dp.L2, Real]:  # expect: m=2
    return dp.undisc_container(m)


# Types written as strings (forward references) are read as the types they hold.
def quoted(x: "Real", c: "Static[float]") -> "Real":  # expect: x=abs(c); c=static
    return c * x


def quoted_inside(v: dp.MetricVector["L1", "Real"], k: Static["int"]) -> Real:  # expect: v=abs(k); k=static
    ...  # a statement that does nothing
    return k * float(np.sum(v))


def quoted_nonsense(y: "Rea l") -> Real:  # E: DPS101
    return 2.0 * y  # E: DPS301


def through_aliases(r: SameRecord, k: Count) -> Real:  # expect: r=1; k=2
    return float(np.sum(np.clip(r, 0.0, 1.0))) + 2 * k


def released_through_aliases(x: Real, eps: Budget) -> Released:  # expect: x=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return laplace_mechanism(1.0, eps, x)
