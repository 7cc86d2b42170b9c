"""What functions passed to Callable and PrivacyFunction parameters capture (DPS307),
and builtins that read locals by name.

A callee may call a function argument any number of times, so the caller's
values that the function uses are unbounded, whether or not the callee's
result mentions the function (it may hide the calls from the analysis).
"""

import sys
from typing import Callable

import numpy as np

from dpsens import L1, MetricVector, Priv, PrivacyFunction, Real, Static, laplace_mechanism


def apply_twice(f: Callable[[Real], Real], x: Real) -> Real:  # expect: f=static; x=2*sens(f, 0)
    return f(x) + f(x)


# R-captures: the callee's result moves by 2 per unit of one call's captures (the Julia
# tool's issue 58/60 tests; y was inf with DPS307).
def captured_by_callee(x: Real, y: Real) -> Real:  # expect: x=2; y=2
    return apply_twice(lambda t: t + y, x)


def captured_alone(a: Real) -> Real:  # expect: a=2
    return apply_twice(lambda b: a, a)


def _repeated(h: Callable[[Real], Real], x: Real, k: Static[int]) -> Real:  # expect: h=static; x=k*sens(h, 0); k=static; assumes=k >= 0
    s = 0.0
    for _ in range(k):
        s = s + h(x)
    return s


def captured_in_a_loop(x: Real, y: Real) -> Real:  # expect: x=6; y=3
    return _repeated(lambda t: 2 * t + y, x, 3)


def captured_under_a_comparison(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    return _compared(lambda t: t + y, x)  # E: DPS307


def _compared(h: Callable[[Real], Real], x: Real) -> Real:  # expect: h=static; x=inf
    return x if h(x) > 0 else 0.0


def hides_the_calls(f: Callable[[Real], Real], x: Real) -> Real:  # expect: f=static; x=inf; returns=unknown
    g = lambda t: f(t)
    return np.vectorize(g)(x)  # E: DPS203


def captured_through_hidden_calls(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf; returns=unknown
    return hides_the_calls(lambda t: t + y, x)  # E: DPS307


def passes_it_on(f: Callable[[Real], Real], x: Real) -> Real:  # expect: f=static; x=2*sens(f, 0)
    return apply_twice(f, x)


def captured_through_a_second_callee(x: Real, y: Real) -> Real:  # expect: x=2; y=inf
    return passes_it_on(lambda t: t + y, x)  # E: DPS307


def never_reads_it(f: Callable[[Real], Real], x: Real) -> Real:  # expect: f=static; x=1
    return x


def captured_but_never_called(x: Real, y: Real) -> Real:  # expect: x=1; y=0
    return never_reads_it(lambda t: t + y, x)


def release_with(f: PrivacyFunction, x: Real) -> Priv[Real]:  # expect: f=static; x=(eps(f), delta(f)); accounting=sequential
    return f(x)


def privacy_captured(x: Real, y: Real) -> Priv[Real]:  # expect: x=(1, 0); y=(inf, inf); accounting=sequential
    return release_with(lambda d: laplace_mechanism(1.0, 1.0, d + y), x)  # E: DPS307


def evaluated(x: Real) -> Real:  # expect: x=inf; returns=unknown
    return eval("x")  # E: DPS203


def read_from_locals(x: Real) -> Real:  # expect: x=inf; returns=unknown
    return locals()["x"]  # E: DPS202, DPS203


def frames_of_all_threads(x: Real) -> Real:  # expect: x=inf
    frames = sys._current_frames()  # E: DPS203
    return 1.0 if frames else 0.0  # a frame holds x: reading it is reading x


def public_use_of_a_capture(x: Real, v: MetricVector[L1, Real]) -> Real:  # expect: x=len(v); v=0
    return apply_once(lambda t: t * len(v), x)  # len(v) is public: the capture costs nothing


def apply_once(f: Callable[[Real], Real], x: Real) -> Real:  # expect: f=static; x=sens(f, 0)
    return f(x)


def default_argument_capture(x: Real) -> Real:  # expect: x=2
    f = lambda y=x: 2.0 * y  # the default is x: calling f() reads it
    return f()


def default_argument_released(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=released  # E: DPS403
    f = lambda y=x: y
    return laplace_mechanism(1.0, 1.0, 0.0) + f()


# review30 (R-captures, found the same day): the callee's coefficient of the captures may
# name the passed function's own slope (h(h(x)): sens(h, 0) + 1), which must be bound
# first (it bound the caller's h: y was 1, truth 4); a function that writes into what it
# captures moves more at each call (y was 3, truth 11); a function given an array and
# taken for a number (y was 1, truth len(v)); a callee that writes into an array the
# function reads (x was 0, truth 1000).
def _twice_nested(h: Callable[[Real], Real], x: Real) -> Real:  # expect: h=static; x=sens(h, 0)**2
    return h(h(x))


def captured_through_nesting(x: Real, y: Real) -> Real:  # expect: x=9; y=4
    return _twice_nested(lambda t: 3 * t + y, x)


def _last_of_calls(h: Callable[[Real], Real], x: Real, k: Static[int]) -> Real:  # expect: h=static; x=sens(h, 0); k=static; assumes=k >= 0
    s = 0.0
    for _ in range(k):
        s = h(x)
    return s


def captured_running_total(x: Real, y: Real) -> Real:  # expect: x=0; y=inf
    a = np.zeros(1)
    a[0] = y

    def g(t: Real) -> Real:
        a[0] = a[0] + y
        return a[0]
    return _last_of_calls(g, x, 10)  # E: DPS307


def _summed_result(h: Callable[[Real], Real], v: MetricVector[L1, Real]) -> Real:  # expect: h=static; v=sens(h, 0)
    return float(np.sum(h(v)))


def captured_beside_an_array(v: MetricVector[L1, Real], y: Real) -> Real:  # expect: v=inf; y=inf
    return _summed_result(lambda t: t + y, v)  # E: DPS307


def _writes_first(h: Callable[[Real], Real], v: MetricVector[L1, Real], x: Real) -> Real:  # expect: h=static; v=0; x=0
    v[0] = 1000.0 * x  # E: DPS205
    return h(0.0)


def captured_array_written_by_the_callee(x: Real) -> Real:  # expect: x=inf
    w = np.zeros(2)
    return _writes_first(lambda t: float(w[0]), w, x)  # E: DPS307


# A callee that writes into arrays it is given changes what the closure reads, even with
# public values (w[0] becomes 1000): one call's move measured here bounds nothing.
def _writes_a_public_number(h: Callable[[Real], Real], v: MetricVector[L1, Real], x: Real) -> Real:  # expect: h=static; v=0; x=sens(h, 0)
    v[0] = 1000.0  # E: DPS205
    return h(x)


def captured_next_to_a_public_write(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    w = np.array([0.0, 0.0])
    return _writes_a_public_number(lambda t: float(w[0]) * y, w, x)  # E: DPS307
