"""Writes a call cannot show: closures that store into arrays they capture, numpy
calls that return their argument, and closures returned by factories
(docs/rules.md D41, D42)."""

import numpy as np

from dpsens import L1, MetricVector, Priv, Real, Static, laplace_mechanism


# --- D42: a numpy call without a rule may return (a view of) its argument ------------------


def require_alias(x: Real) -> Real:  # expect: x=inf; returns=Real
    w = np.zeros(3)
    u = np.require(w)
    u[0] = x
    return w[0]


def require_released(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=released  # E: DPS403
    w = np.zeros(3)
    u = np.require(w)
    u[0] = x
    return w[0] + laplace_mechanism(1.0, 1.0, 0.0) * 0.0


def trim_zeros_alias(x: Real) -> Real:  # expect: x=inf; returns=Real
    w = np.ones(3)
    u = np.trim_zeros(w)
    u[0] = x
    return w[0]


def einsum_alias(x: Real) -> Real:  # expect: x=inf; returns=Real
    w = np.zeros(3)
    u = np.einsum("i->i", w)
    u[0] = x
    return w[0]


def array_without_copy(x: Real) -> Real:  # expect: x=inf; returns=Real
    w = np.zeros(3)
    u = np.array(w, copy=False)
    u[0] = x
    return w[0]


def nan_to_num_in_place(x: Real) -> Real:  # expect: x=inf; returns=Real
    w = np.zeros(3)
    u = np.nan_to_num(w, copy=False)
    u[0] = x
    return w[0]


def conj_alias(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    u = w.conj()  # E: DPS203
    u[0] = x
    return w[0]


def astype_without_copy(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    u = w.astype(float, copy=False)  # E: DPS203
    u[0] = x
    return w[0]


def array_copy_is_fresh(x: Real) -> Real:  # expect: x=0; returns=Real
    w = np.zeros(3)
    u = np.array(w)
    u[0] = x
    return w[0]


def put_required(a: Static[MetricVector[L1, Real]], x: Real) -> Real:  # expect: a=static; x=0
    u = np.require(a)
    u[0] = x  # E: DPS205
    return 0.0


def put_required_caller(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    put_required(w, x)
    return w[0]


def loop_writes_through_require(x: Real) -> Real:  # expect: x=inf; returns=Real
    w = np.zeros(3)
    u = np.require(w)
    s = 0.0
    for e in w:
        s = s + e
        u[:] = x
    return s
