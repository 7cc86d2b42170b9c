"""Writes a caller cannot see in the call: static arrays, refused calls, unsupported
bindings and nonlocal (docs/rules.md D39, D40)."""

import numpy as np

from dpsens import L1, MetricVector, Real, Static


# --- D39: a Static array parameter is the caller's array too ----------------------------------


def put(x: Real, a: Static[MetricVector[L1, Real]]) -> Real:  # expect: x=0; a=static
    a[0] = x  # E: DPS205
    return 0.0


def put_caller(x: Real) -> Real:  # expect: x=inf; returns=unknown
    a = np.zeros(3)
    put(x, a)
    return 1000.0 * np.sum(a)


def add_to(x: Real, a: Static[MetricVector[L1, Real]]) -> Real:  # expect: x=0; a=static
    a += x  # E: DPS205
    return 0.0


def add_to_caller(x: Real) -> Real:  # expect: x=inf; returns=unknown
    a = np.zeros(3)
    add_to(x, a)
    return a[1]


def reads_static(x: Real, a: Static[MetricVector[L1, Real]]) -> Real:  # expect: x=1; a=static
    return np.sum(a) + x


def reads_static_caller(x: Real) -> Real:  # expect: x=2
    a = np.zeros(3)
    r = reads_static(x, a)
    return np.sum(a) + r + x


# --- D39: a refused call may have written any array it was given ------------------------------


def abs_positional_out(v: MetricVector[L1, Real], x: Real) -> Real:  # expect: v=inf; x=inf; returns=unknown
    w = np.zeros(3) + x
    np.abs(v, w)  # E: DPS303
    return w[0]


def maximum_positional_out(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    w = np.zeros(3)
    np.maximum(v, v, w)  # E: DPS303
    return w[0]


def clip_method_positional_out(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    w = np.zeros(3)
    v.clip(0.0, 1.0, w)  # E: DPS303
    return w[0]


def abs_without_out(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    w = np.zeros(3)
    u = np.abs(v)
    return w[0] + np.sum(u)


# --- D40: names bound or arrays written by unsupported constructs -----------------------------


def match_binds(x: Real) -> Real:  # expect: x=inf; returns=unknown
    match 5.0 * x:  # E: DPS201
        case y:
            pass
    return y


def walrus_in_comprehension(x: Real) -> Real:  # expect: x=inf; returns=unknown
    [(y := 5.0 * x) for _ in range(1)]  # E: DPS202
    return y


def class_binds(x: Real) -> Real:  # expect: x=inf; returns=unknown
    class A:  # E: DPS201
        v = x
    return A.v  # E: DPS202


def starred_rest(x: Real) -> Real:  # expect: x=inf; returns=unknown
    a, *rest = (x, x)  # E: DPS201
    return rest[0]


def comprehension_fills(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    [w.fill(x) for _ in range(1)]  # E: DPS202
    return w[0]


def while_copies(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    w = np.zeros(3)
    i = 0
    while i < 1:  # E: DPS201
        np.copyto(w, v)
        i = i + 1
    return w[0]


# --- D40: nonlocal ----------------------------------------------------------------------------


def nonlocal_sum(x: Real) -> Real:  # expect: x=inf; returns=unknown
    s = 0.0

    def add():
        nonlocal s  # E: DPS201
        s = s + x
    add()
    add()
    return s


def nonlocal_setter(x: Real) -> Real:  # expect: x=inf; returns=unknown
    s = 0.0

    def setter(v):
        nonlocal s  # E: DPS201
        s = v
    setter(x)
    return s


def nonlocal_parameter(x: Real) -> Real:  # expect: x=inf; returns=unknown
    def bump():
        nonlocal x  # E: DPS201
        x = x * 10.0
    bump()
    return x


def nonlocal_rebound_after_def(x: Real) -> Real:  # expect: x=inf; returns=unknown
    s = 0.0

    def add():
        nonlocal s  # E: DPS201
        s = s + x
    s = 0.0
    add()
    return s


def closure_without_nonlocal(x: Real) -> Real:  # expect: x=2
    def twice():
        return 2.0 * x
    return twice()


# D69: a name bound by an unsupported construct may be any array of the scope: a store
# through it changes them all (`[d := c]; d[0] = 1000 * x` left c at 0, truth 1000).
def walrus_alias_store(x: Real) -> Real:  # expect: x=inf; returns=Real
    c = np.zeros(3)
    [d := c]  # E: DPS202
    d[0] = 1000.0 * x
    return float(c[0])
