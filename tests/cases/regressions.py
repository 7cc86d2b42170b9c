"""Counterexamples found in review: each once gave a bound below the truth."""

import functools

import numpy as np

from typing import Callable

from dpsens import Bool, Data, Integer, L1, L_inf, MetricMatrix, MetricVector, Real, Static, cols


def store_sensitive_index(x: Integer) -> Real:  # expect: x=inf
    v = np.zeros(10)
    v[x] = 100.0
    return v[0]


def store_broadcast(x: Real) -> MetricVector[L1, Real]:  # expect: x=5
    v = np.zeros(5)
    v[:] = x
    return v


def store_other_metric(w: MetricVector[L_inf, Real]) -> MetricVector[L1, Real]:  # expect: w=len(w)
    v = np.zeros(len(w))
    v[:] = w
    return v


def store_data_in_real(d: Data) -> Real:  # expect: d=inf
    v = np.zeros(3)
    v[0] = d
    return v[0]


def local_alias(x: Real) -> Real:  # expect: x=1
    a = np.zeros(3)
    b = a
    b[0] = x
    return np.sum(a)


def in_place_add(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=1; w=1; assumes=len(w) == len(v)
    acc = 1.0 * v
    alias = acc
    acc += w
    return alias


def parameter_store_keeps_value(x: MetricVector[L1, Real], z: Real) -> Real:  # expect: x=inf; z=inf; returns=unknown
    x[0] = z  # E: DPS205
    return np.sum(x)


def divide_by_counter(x: Real) -> Real:  # expect: x=7381/2520
    s = 0.0
    for i in range(1, 11):
        s = s + x / i  # each iteration with its exact i: the harmonic number H_10

    return s


def divide_by_branch(x: Real, flag: Static[bool]) -> Real:  # expect: x=inf; flag=static
    return x / (1.0 if flag else 100.0)  # E: DPS305


def clip_public(x: Real) -> Real:  # expect: x=5
    return np.clip(0.0, 5.0, 10.0) * x


def slice_mean(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/min(2, len(v))
    return np.mean(v[0:2])


def slice_tail_mean(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/(len(v) - 1)
    return np.mean(v[1:])


def vector_plus_matrix(m: MetricMatrix[L_inf, Real]) -> Real:  # expect: m=cols(m)*(rows(m) + 1)
    return np.sum(m[0, :] + m)


def zeros_matrix_plus_vector(v: MetricVector[L1, Real]) -> Real:  # expect: v=3
    return np.sum(np.zeros((3, len(v))) + v)


def maximum_of_rows(m: MetricMatrix[L_inf, Real]) -> MetricMatrix[L_inf, Real]:  # expect: m=2; assumes=min(3, rows(m)) - 1 == min(2, rows(m))
    return np.maximum(m[0:2], m[1:3])


def data_times_data(v: MetricVector[L1, Data], a: Data) -> MetricVector[L1, Data]:  # expect: v=1; a=len(v)
    return v * a


def and_returns_operand(flag: Bool, x: Real) -> Real:  # expect: flag=inf; x=1
    return float(flag and x)


def integer_and(i: Integer, j: Integer) -> Integer:  # expect: i=inf; j=5
    return i and 5 * j


def invert(i: Integer) -> Integer:  # expect: i=3
    return ~(3 * i)


# A comparison mask has 0/1 entries (an Integer container, L22): a neighbour may flip
# every entry of an (L_inf, Data) vector, so the norm moves by up to sqrt(len(v)).
def elementwise_compare(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=sqrt(len(v))
    return np.linalg.norm((v > 0.5) * 1.0)


def norm_of_data(d: Data) -> Real:  # expect: d=inf
    return np.linalg.norm(d)


def static_data_factor(c: Static[float], x: Real) -> Real:  # expect: c=static; x=abs(c)
    return c * x


def apply(f: Callable, x: Real) -> Real:  # expect: f=static; x=sens(f, 0)
    return f(x)


def apply_caller(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    return apply(lambda t: t + y, x)  # (R-captures; y was inf with DPS307)


def reduce_captures(v: MetricVector[L1, Real], x: Real) -> Real:  # expect: v=inf; x=inf; returns=unknown
    return functools.reduce(lambda a, e: a + e * x, v, 0.0)  # E: DPS203


def make(x: Real):  # expect: x=1; returns=Callable
    return lambda: x


def escaped_closure(x: Real, y: Real) -> Real:  # expect: x=0; y=inf; returns=unknown
    return make(y)()  # E: DPS203


def stale_closure(x: Real) -> Real:  # expect: x=3
    for _ in range(3):
        f = lambda: x
        x = x + 0 * f()
    y = x
    for _ in range(2):
        y = y + x
    return y


def with_default(x: Real, c: Static[float] = 2.0) -> Real:  # expect: x=abs(c); c=static
    return c * x


def default_caller(y: Real) -> Real:  # expect: y=2
    return with_default(y)


def shrinking(x: Real, n: Integer, c: Static[float]) -> Real:  # expect: x=1; n=inf; c=static; assumes=abs(c) <= 1
    for _ in range(n):
        x = c * x
    return x


def shrinking_caller(x: Real, n: Integer) -> Real:  # expect: x=inf; n=inf
    return shrinking(x, n, 3.0)  # E: DPS306


def copy_into(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=inf; w=inf; returns=unknown
    np.copyto(v, w)  # E: DPS203
    return np.sum(v)


def step_range(x: Real) -> Real:  # expect: x=32
    for _ in range(0, 10, 2):
        x = 2 * x
    return x


def tuple_out_of_range(x: Real) -> Real:  # expect: x=inf; returns=unknown
    t = (x, x)
    return t[5]  # E: DPS301


def static_vector(v: Static[MetricVector[L1, Real]], x: Real) -> Real:  # expect: v=static; x=1
    return x + v[0]


def relu(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=1
    return np.maximum(v, 0.0)


def row_loop(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=1
    acc = np.zeros(cols(m))
    for r in m:
        acc = acc + r
    return acc


def closure_after_loop(x: Real, y: Real) -> Real:  # expect: x=3; y=1
    for _ in range(3):
        g = lambda: y
        y = y + x
    return g()


def out_argument(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=inf; w=inf; returns=unknown
    np.abs(w, out=v)  # E: DPS203
    return np.sum(v)


def return_in_stepped_loop(x: Real) -> Real:  # expect: x=5
    for _ in range(0, 10, 2):  # R-loop-return (it was dropped, then DPS201)
        return 5 * x
    return 0.0


def store_into(v, z):  # E: DPS103
    v[0] = z  # E: DPS205


def helper_mutates_caller(x: MetricVector[L1, Real], z: Real) -> Real:  # expect: x=inf; z=inf
    y = 1.0 * x
    store_into(y, z)
    return np.sum(y)


def add_into(v, w):  # E: DPS103
    v += w  # E: DPS205


def helper_adds_in_place(x: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: x=inf; w=inf; assumes=len(w) == len(x)
    y = 1.0 * x
    add_into(y, w)
    return np.sum(y)


def branch_alias(x: MetricVector[L1, Real], z: Real, flag: Static[bool]) -> Real:  # expect: x=inf; z=inf; flag=static; returns=unknown
    if flag:
        y = x
    else:
        y = x
    y[0] = z  # E: DPS205
    return np.sum(x)


# --- aliases the analysis once did not record (docs/rules.md D19, D24) --------------------------


def unpack_alias(x: Real) -> Real:  # expect: x=1
    a = np.zeros(3)
    b, c = a, 0
    b[0] = x
    return np.sum(a)


def multi_target(x: Real) -> Real:  # expect: x=1
    a = b = np.zeros(3)
    a[0] = x
    return np.sum(b)


def ifexp_alias(x: Real, f: Static[bool]) -> Real:  # expect: x=1; f=static
    a = np.zeros(3)
    b = a if f else a
    b[0] = x
    return np.sum(a)


def tuple_store(x: Real) -> Real:  # expect: x=inf
    a = np.zeros(3)
    t = (a, 1)
    t[0][0] = x
    return np.sum(a)


def ident(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=1
    return v


def call_alias(x: Real) -> Real:  # expect: x=1
    a = np.zeros(3)
    b = ident(a)
    b[0] = x
    return np.sum(a)


def doubled(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=2
    return 2.0 * v


def fresh_result_is_no_alias(x: Real, w: MetricVector[L1, Real]) -> Real:  # expect: x=1; w=3
    b = doubled(w)
    b[0] = x  # a fresh array: w is not changed, and no DPS205
    return np.sum(b) + np.sum(w)


def asarray_alias(x: Real) -> Real:  # expect: x=3
    a = np.zeros(3)
    b = np.asarray(a)  # the same memory (a view): the += below adds x to each entry of a
    b += x
    return np.sum(a)


def row_alias(x: Real) -> Real:  # expect: x=3
    m = np.zeros((3, 3))
    for r in m:
        r[0] = x
    return np.sum(m)


def copy_view(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=0; w=inf
    a = np.zeros(len(v))
    np.copyto(a[0:2], w[0:2])  # E: DPS203
    return np.sum(a)


def fill_alias(x: Real) -> Real:  # expect: x=inf
    a = np.zeros(3)
    b = a
    b.fill(x)  # E: DPS203
    return np.sum(a)


def fill_view(x: Real) -> Real:  # expect: x=inf
    a = np.zeros(3)
    a[0:2].fill(x)  # E: DPS203
    return np.sum(a)


def clip_out(x: Real) -> Real:  # expect: x=inf
    a = np.zeros(3)
    b = np.zeros(3) + x
    b.clip(0.0, 1.0, out=a)  # E: DPS203
    return np.sum(a)


# --- mutations a caller did not see (docs/rules.md D22, D23) --------------------------------------


def closure_store(x: Real) -> Real:  # expect: x=1
    a = np.zeros(3)

    def g():
        a[0] = x
    g()
    return np.sum(a)


def mutates(x: MetricVector[L1, Real], z: Real) -> Real:  # expect: x=0; z=0
    x[0] = z  # E: DPS205
    return 0.0


def mutates_caller(a: MetricVector[L1, Real], z: Real) -> Real:  # expect: a=inf; z=inf; returns=unknown
    mutates(a, z)
    return np.sum(a)


def copies(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=0; w=0
    np.copyto(v, w)  # E: DPS203
    return 0.0


def copies_caller(a: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: a=inf; w=inf; returns=unknown
    copies(a, w)
    return np.sum(a)


def copy_into_helper(v, w):  # E: DPS103
    np.copyto(v, w)  # E: DPS203


def inline_unknown(a: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: a=inf; w=inf
    b = 1.0 * a
    copy_into_helper(b, w)
    return np.sum(b)


GLOBAL_ARRAY = np.zeros(3)


def global_store(x: Real) -> Real:  # expect: x=inf
    GLOBAL_ARRAY[0] = x  # E: DPS205
    return np.sum(GLOBAL_ARRAY)  # E: DPS206


# --- Callable results are Reals to the callee (docs/rules.md D16) ---------------------------------


def apply_d(f: Callable[[float], float], d: Data) -> Real:  # expect: f=static; d=sens(f, 0)
    return f(d)


def apply_d_caller(d: Data) -> Real:  # expect: d=inf
    return apply_d(lambda t: 0.5 * t, d)  # 0 vs 1e9 is one Data step, and 5e8 apart as Reals


def apply_d_integer(f: Callable[[float], float], k: Integer) -> Real:  # expect: f=static; k=sens(f, 0)
    return f(k)


def apply_d_integer_caller(k: Integer) -> Real:  # expect: k=1/2
    return apply_d_integer(lambda t: 0.5 * t, k)


def stale_other_frame(x: Real) -> Real:  # expect: x=5
    for _ in range(1):
        g = lambda: x  # noqa: E731
    x = 5 * x

    def h():
        return g()
    return h()  # g reads the x of now, 5x, not the x of the loop


# --- partial stores charge the part they write (docs/rules.md L10) --------------------------------


def slice_store_part(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=2
    a = np.zeros(10)
    a[0:2] = v[0:2]  # 2, not 10: a length-1 v broadcasts into the two entries
    return a


def scalar_into_slice(x: Real) -> MetricVector[L1, Real]:  # expect: x=3
    a = np.zeros(10)
    a[0:3] = x
    return a


def row_store_part(m: MetricMatrix[L1, Real], r: MetricVector[L1, Real]) -> MetricMatrix[L1, Real]:  # expect: m=1; r=cols(m)
    a = 1.0 * m
    a[0] = r  # one row: cols(m) only because a length-1 r broadcasts along it
    return a


def opposite_counts(x: Real, k: Static[int]) -> Real:  # expect: x=inf; k=static; assumes=-k >= 0, k - 1 >= 0  # E: DPS306
    # D47: k - 1 >= 0 and -k >= 0 never hold together; it reported 2*2**(k - 1)/2**k
    y = x
    for _ in range(k - 1):
        y = y + x
    for _ in range(-k):
        y = 2 * y
    return y
