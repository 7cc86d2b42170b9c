"""Defs no analysis reaches (SPEC §3, §4): methods of classes, and defs under a module-level
``if``/``try``. One whose signature uses the dpsens vocabulary is DPS201 at its ``def`` (it
was silently left out of the report); one without the vocabulary stays silent.
"""

import numpy as np

import dpsens
from dpsens import Data, L_inf, MetricMatrix, Priv, Real, Static

Row = MetricMatrix[L_inf, Data]


def module_level(x: Real) -> Real:  # expect: x=2
    return 2 * x


class Model:
    scale = 2.0

    def release(self, data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # E: DPS201
        return float(np.sum(data))

    @staticmethod
    def release_static(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # E: DPS201
        return float(np.sum(data))

    @classmethod
    def only_return(cls, data) -> dpsens.Real:  # E: DPS201
        return float(np.sum(data))

    def through_alias(self, data: Row) -> float:  # E: DPS201
        return float(np.sum(data))

    def as_string(self, data: "MetricMatrix[L_inf, Data]") -> float:  # E: DPS201
        return float(np.sum(data))

    def unannotated(self, data):
        return data

    def plain_types(self, data: np.ndarray, n: int) -> float:
        return float(np.sum(data)) * n

    if True:
        def under_if(self, x: Real) -> Real:  # E: DPS201
            return x

    class Inner:
        def nested(self, x: Real) -> Real:  # E: DPS201
            def helper(y: Real) -> Real:  # E: DPS201
                return y
            return helper(x)


def with_local_class(x: Real) -> Real:  # expect: x=1
    class Local:  # E: DPS201
        def method(self, v: Real) -> Real:  # E: DPS201
            return v
    return x


if np.pi > 3:
    def under_module_if(x: Real) -> Real:  # E: DPS201
        return x
else:
    def plain_under_else(x):
        return x

try:
    def under_try(x: Real) -> Priv[Real]:  # E: DPS201
        return x
except ImportError:
    pass
