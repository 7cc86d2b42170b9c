"""Writes a call cannot show: closures that store into arrays they capture, numpy
calls that return their argument, and closures returned by factories
(docs/rules.md D41, D42)."""

import numpy as np

from typing import Callable

from dpsens import (L1, Data, MetricVector, Priv, PrivacyFunction, Real, Static,
                    count, fold, laplace_mechanism, map_rows)


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


# np.array has a rule now: with copy=False u is w, so the store reaches w (truth 1).
def array_without_copy(x: Real) -> Real:  # expect: x=1; returns=Real
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


def astype_without_copy(x: Real) -> Real:  # expect: x=1
    w = np.zeros(3)
    u = w.astype(float, copy=False)  # the same dtype: w itself
    u[0] = x
    return w[0]


def astype_positional_copy(x: Real) -> Real:  # expect: x=1
    w = np.zeros(3)
    u = w.astype(float, "K", "unsafe", True, False)  # copy=False, after order, casting, subok
    u[0] = x
    return w[0]


def astype_positional_order(x: Real) -> Real:  # expect: x=0
    w = np.zeros(3)
    u = w.astype(float, "K")  # a copy
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


# --- D41: closures that write into arrays they capture, called by other code ------------


def apply(f: Callable[[Real], Real], y: Real) -> Real:  # expect: f=static; y=sens(f, 0)
    return f(y)


def apply_private(f: PrivacyFunction, y: Real) -> Priv[Real]:  # expect: f=static; y=(eps(f), delta(f)); accounting=sequential
    return f(y)


def stores_its_parameter(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)

    def put(t):
        w[0] = t
        return 0.0

    apply(put, x)
    return w[0]


def stores_a_capture(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)

    def put(t):
        w[0] = w[0] + x  # apply may call it any number of times
        return t

    z = apply(put, 0.0)
    return w[0]


def privacy_function_stores(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=released  # E: DPS403
    w = np.zeros(1)

    def g(t):
        w[0] = t
        return laplace_mechanism(1.0, 1.0, t)

    r = apply_private(g, x)
    return w[0]


def map_rows_stores(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    w = np.zeros(1)

    def put(t):
        w[0] = t
        return 0.0

    map_rows(put, v)  # E: DPS405
    return w[0]


def fold_stores(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    w = np.zeros(1)

    def put(acc, t):
        w[0] = 1000.0 * t
        return acc

    fold(put, 0.0, v)  # E: DPS405
    return w[0]


def count_stores(v: MetricVector[L1, Data]) -> Real:  # expect: v=inf; returns=unknown
    w = np.zeros(1)

    def put(t):
        w[0] = t
        return t > 0.5

    count(put, v)  # E: DPS405
    return w[0]


def count_reads_only(v: MetricVector[L1, Data], x: Real) -> Real:  # expect: v=1; x=1; returns=Real
    w = np.ones(2)
    n = count(lambda e: e > w[0], v)  # reads w: nothing to forget
    return n + np.sum(w) + x


def apply_reads_only(x: Real) -> Real:  # expect: x=1; returns=Real
    w = np.ones(2)
    z = apply(lambda t: t + w[0], x)
    return z + np.sum(w)


def called_in_while(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)

    def put():
        w[0] = x

    n = 0
    while n < 1:  # E: DPS201
        put()
        n = n + 1
    return w[0]


def called_in_while_released(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=released  # E: DPS403
    w = np.zeros(3)

    def put():
        w[0] = x

    n = 0
    while n < 1:  # E: DPS201
        put()
        n = n + 1
    return w[0] + laplace_mechanism(1.0, 1.0, 0.0)


def called_in_comprehension(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)

    def put():
        w[0] = x
        return 0.0

    z = [put() for _ in range(1)]  # E: DPS202
    return w[0]


def passed_to_sorted(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)

    def key(t):
        w[0] = x
        return t

    z = sorted((1.0, 2.0), key=key)  # E: DPS203
    return w[0]


# --- D41: a closure returned by a factory holds what it captured -----------------------


def getter(a):  # expect: a=1; returns=Callable  # E: DPS103
    def get():
        return a

    return get


def make_getter(a):  # expect: a=1; returns=Callable  # E: DPS103
    return lambda: a


def factory_def(v: MetricVector[L1, Real], x: Real) -> Real:  # expect: v=1; x=1000; returns=Real
    w = v * 1.0
    g = getter(w)
    h = g()
    h[0] = 1000.0 * x
    return np.sum(w)


def factory_lambda(x: Real) -> Real:  # expect: x=1; returns=Real
    w = np.zeros(3)
    h = make_getter(w)()
    h[0] = x
    return w[0]


def factory_read_again(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    g = getter(w)
    h = g()
    h[0] = x
    return np.sum(g())  # E: DPS203
