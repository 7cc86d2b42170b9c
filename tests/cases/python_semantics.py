"""Python's own semantics where the analysis used to assume otherwise (D52-D54)."""

import random

import numpy as np

from dpsens import L1, L_inf, MetricVector, Real, Static


# D52: a mask, an integer array, a Boolean, None or () writes many entries, not one.
def store_through_a_mask(x: Real) -> Real:  # expect: x=45
    w = np.zeros(5)
    w[w == 0] = 9.0 * x
    return np.sum(w)


def store_through_an_empty_tuple(x: Real) -> Real:  # expect: x=108
    w = np.zeros((3, 4))
    w[()] = 9.0 * x
    return np.sum(w)


def store_through_a_boolean(x: Real) -> Real:  # expect: x=27
    w = np.zeros(3)
    w[True] = 9.0 * x
    return np.sum(w)


def store_through_none(x: Real) -> Real:  # expect: x=27
    w = np.zeros(3)
    w[None] = 9.0 * x
    return np.sum(w)


def store_into_one_entry(x: Real) -> Real:  # expect: x=9
    w = np.zeros(3)
    w[1] = 9.0 * x
    return np.sum(w)


def store_into_one_row(x: Real) -> Real:  # expect: x=36
    w = np.zeros((3, 4))
    w[1] = 9.0 * x
    return np.sum(w)


# D53: a loop that may run no iteration leaves its target as it was.
def target_after_an_empty_range(x: Real) -> Real:  # expect: x=10
    i = 10
    for i in range(0):
        pass
    return i * x


def target_after_a_backward_range(x: Real) -> Real:  # expect: x=10
    i = 10
    for i in range(5, 2):
        pass
    return i * x


def target_after_a_range_of_k(x: Real, k: Static[int]) -> Real:  # expect: x=max(10, abs(k)); k=static; assumes=k >= 0
    i = 10
    for i in range(k):
        pass
    return i * x


def target_after_an_empty_array(x: Real) -> Real:  # expect: x=100
    e = 100.0 * x
    for e in np.zeros(0):
        pass
    return e


# D54: sizes are at least 1 in every analysis, so a call must pass sizes of at least 1.
def last_entry(x: Real, v: MetricVector[L1, Real]) -> Real:  # expect: x=0; v=1
    s = 100.0 * x
    for e in v:
        s = e
    return s


def passes_an_empty_slice(x: Real, v: MetricVector[L1, Real]) -> Real:  # expect: x=inf; v=inf; returns=unknown
    return last_entry(x, v[0:0])  # E: DPS306


def passes_a_shorter_slice(x: Real, v: MetricVector[L1, Real]) -> Real:  # expect: x=0; v=1; assumes=len(v) >= 2
    return last_entry(x, v[1:])


def passes_a_static_slice(x: Real, v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: x=0; v=1; k=static; assumes=k >= 0, len(v) - min(k, len(v)) >= 1
    return last_entry(x, v[k:])


# D55: Python assigns a tuple target's parts left to right: a, then a[0] (now b's array).
def tuple_target_in_order(x: Real) -> Real:  # expect: x=9
    a = np.zeros(2)
    b = np.zeros(2)
    a, a[0] = b, 9.0 * x
    return b[0]


def swapped(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    a, b = x, y
    b, a = a, b
    return a + 2 * b


# D56: a[i] op= e on an array held by a list changes that array in place.
def in_place_on_a_listed_array(x: Real) -> Real:  # expect: x=27
    w = np.zeros(3)
    listed = [w, w]
    listed[0] += 9.0 * x
    return w[0]


# A concatenation holds the very objects its operands hold.
def store_into_a_concatenated_array(x: Real) -> Real:  # expect: x=inf
    w = np.zeros(3)
    both = [w] + [0.0]
    both[0][0] = 9.0 * x
    return w[0]


# D57: generators and coroutines return no value of the body; decorated nested defs,
# whatever their decorators make of them.
def generator(x: Real) -> Real:  # expect: x=inf  # E: DPS201
    yield x


async def coroutine(x: Real) -> Real:  # expect: x=inf  # E: DPS201
    return x


def nested_generator(x: Real) -> Real:  # expect: x=inf; returns=unknown
    def values(t):  # E: DPS201
        yield 100.0 * t
    return next(values(x))


def _boost(f):  # E: DPS103
    return lambda t: 100.0 * f(t)


def decorated_nested_def(x: Real) -> Real:  # expect: x=inf; returns=unknown
    @_boost
    def g(t):  # E: DPS201
        return t
    return g(x)  # E: DPS203


# D58: defaults are evaluated where the function is defined; a lambda made by a nested
# def reads its creator's creator's variables when called (late binding).
def default_at_definition(x: Real) -> Real:  # expect: x=100
    c = 100.0
    g = lambda t, c=c: c * t
    c = 1.0
    return g(x)


def default_of_a_rebound_name(x: Real, y: Real) -> Real:  # expect: x=1; y=0
    h = lambda t=x: t
    x = y
    return h()


def default_array_changed_later(x: Real) -> Real:  # expect: x=5
    w = np.zeros(3)
    g = lambda acc=w: acc[0]
    w[0] = 5.0 * x
    return g()


def factory_reads_late(x: Real) -> Real:  # expect: x=50
    c = 1.0

    def make():
        return lambda t: c * t
    g = make()
    c = 50.0
    return g(x)


def factory_reads_its_own(x: Real) -> Real:  # expect: x=3
    c = 1.0

    def make():
        c = 3.0
        return lambda t: c * t
    g = make()
    c = 50.0
    return g(x)


# D59: what an unsupported expression builds may hold the arrays it reads.
def store_through_a_dict(x: Real) -> Real:  # expect: x=inf
    w = np.zeros(3)
    d = {1: w}  # E: DPS202
    d[1][0] = 9.0 * x
    return w[0]


def in_place_in_an_unsupported_loop(x: Real) -> Real:  # expect: x=inf
    w = np.zeros(3)
    for r in {1: w}:  # E: DPS201, DPS202
        r += 9.0 * x
    return w[0]


def iterate_a_tuple(x: Real, y: Real) -> Real:  # expect: x=2; y=2
    total = 0.0
    for e in (x, 2 * y, x):
        total = total + e
    return total


# range() counting down (it was DPS201): 10, 7, 4, 1.
def counting_down(x: Real) -> Real:  # expect: x=22
    total = 0.0
    for i in range(10, 0, -3):
        total = total + i * x
    return total


def counting_down_from_k(x: Real, k: Static[int]) -> Real:  # expect: x=k; k=static; assumes=k >= 0
    total = 0.0
    for _ in range(k, 0, -1):
        total = total + x
    return total


# D61 (found by the random-program fuzzer): a container argument typed unknown gave the
# callee's sizes no value, and they leaked into the caller (x: len(a), the caller's own).
def _passed_on(a: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: a=1
    return a


def size_of_an_unknown_argument(x: Real, a: MetricVector[L1, Real], b: MetricVector[L_inf, Real], c: Static[bool]) -> Real:  # expect: x=inf; a=inf; b=inf; c=static; returns=unknown
    u = a if c else b
    return x * len(_passed_on(u))  # E: DPS301


# D62 (found by the fuzzer, a crash): max of a value of unknown shape was DPS001.
def max_of_an_unknown_shape(x: Real, k: Static[int]) -> Real:  # expect: x=inf; k=static; returns=unknown
    t = np.zeros(3) if k > 0 else np.zeros((3, 3))
    return np.maximum(t, x)


# D66: a call with only public arguments may still write into a list or array it is
# given: its entries are no longer known (random.shuffle(L); L[0] * x was 1, truth 2).
def shuffled_public_list(x: Real) -> Real:  # expect: x=inf
    weights = [1.0, 2.0]
    random.shuffle(weights)
    return weights[0] * x  # E: DPS305


def shuffled_list_keeps_no_length(x: Real) -> Real:  # expect: x=inf
    weights = [1.0, 2.0]
    random.shuffle(weights)
    return len(weights) * x  # E: DPS305


# D130: a starred target was dropped from the unpacking, so the name kept its old value:
# `z, *acc = (y,)` left acc as (0.0, 0.0) for the analysis and `len(acc) == 0` False,
# y 0 (truth 1). The statement is not analyzed now, and what it binds is unbounded.
def starred_target_rebinds(y: Real) -> Real:  # expect: y=inf
    acc = (0.0, 0.0)
    z, *acc = (y,)  # E: DPS201
    if len(acc) == 0:
        return y
    return 0.0


def starred_loop_target(y: Real) -> Real:  # expect: y=inf
    s = 0.0
    for a, *rest in [(y, 1.0)]:  # E: DPS201
        s = s + a
    return s
