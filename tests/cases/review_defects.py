"""The soundness defects of the review (docs/rules.md §18.2), each now at or above the truth.

Every function's comment gives what the earlier code reported and the truth;
the expectation is what dpsens reports now (checked on neighbours by
tests/soundness/test_case_files.py). The others are in regressions.py.
"""

import functools

import numpy as np

from typing import Callable

from dpsens import *  # noqa: F403


# was: reported 1/3; truth 1/2 (len(v) = 2)
def tail3(v: MetricVector[L1, Real]) -> Real:  # expect: v=1/min(3, len(v))
    return np.mean(v[-3:])


# was: x: reported len(v); truth 3 (len(v) = 1)
def neg_stop(v: MetricVector[L1, Real], x: Real) -> Real:  # expect: v=1; x=max(0, len(v) - 3) + 3
    return np.sum(v[:-3] + x) + 3 * x


# was: reported 0; truth 2
def neg_slice(x: Real) -> Real:  # expect: x=3
    v = np.zeros(5)
    e = v[3:1] + x
    return np.sum(e) + 2 * x


# was: reported 0 (returns unknown); truth 2
def branch_lambdas(x: Real, flag: Static[bool]) -> Real:  # expect: x=inf; flag=static; returns=unknown
    if flag:
        g = lambda: x
    else:
        g = lambda: 2 * x
    return g()  # E: DPS203


# was: reported 0, no diagnostic; truth 2
def nested_closure(x: Real) -> Real:  # expect: x=inf; returns=unknown
    g = lambda: x
    h = lambda: g()
    return functools.reduce(lambda acc, e: acc + h(), np.zeros(2), 0.0)  # E: DPS203


def mk(a):  # expect: a=1  # E: DPS103
    return lambda acc, e: acc + e * a


# was: x: reported 0, DPS203 only; truth inf
def foreign_capture(v: MetricVector[L1, Real], x: Real) -> Real:  # expect: v=inf; x=inf; returns=unknown
    g = mk(x)
    return functools.reduce(g, v, 0.0)  # E: DPS203


def mk_pair(x: Real):  # expect: x=1
    return (lambda: x, 1.0)


# was: reported x: 1, y: 0, no diagnostic; truth x: 0, y: 1
def pair_caller(x: Real, y: Real) -> Real:  # expect: x=0; y=inf; returns=unknown
    g, _ = mk_pair(y)
    return g()  # E: DPS203


def apply_v(f: Callable[[np.ndarray], float], v: MetricVector[L_inf, Real]) -> Real:  # expect: f=static; v=sens(f, 0)
    return f(v)


# was: reported 1; truth sqrt(len(v))
def apply_v_caller(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=sqrt(len(v))
    return apply_v(lambda r: np.linalg.norm(r), v)


# was: reported 1/len(v); truth 1/2 (c = True)
def join_len(v: MetricVector[L1, Real], c: Static[bool]) -> Real:  # expect: v=inf; c=static; returns=unknown
    w = v[0:2] if c else v
    return np.mean(w)


# was: reported 1/len(v); truth 1/(len(v) - 3)
def loop_len(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    for _ in range(3):
        v = v[1:]  # E: DPS301
    return np.mean(v)


# was: z: reported 0, no DPS205; truth rows(m)
def row_param(m: MetricMatrix[L1, Real], z: Real) -> Real:  # expect: m=inf; z=inf; returns=unknown
    for r in m:
        r[0] = z  # E: DPS205
    return np.sum(m)


# was: reported 0; truth 3
def loop_alias(x: Real) -> Real:  # expect: x=3
    a = np.zeros(3)
    b = a
    for _ in range(3):
        b[0] += x
    return np.sum(a)


# was: w: reported 0; truth 3
def loop_alias_aug(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=1; w=3; assumes=len(w) == len(v)
    a = 1.0 * v
    b = a
    for _ in range(3):
        b += w
    return np.sum(a)


# was: z: reported 0 (DPS205 only); truth 1
def loop_param_alias(x: MetricVector[L1, Real], z: Real) -> Real:  # expect: x=inf; z=inf; returns=unknown
    y = x
    for _ in range(3):
        y[0] = z  # E: DPS205
    return np.sum(x)


# was: w: reported 0 (DPS203 only); truth 1
def loop_unknown(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=0; w=inf; returns=unknown
    a = np.zeros(len(v))
    for _ in range(3):
        np.copyto(a, w)  # E: DPS203
    return np.sum(a)


# was: reported 0 (DPS203 only); truth 3
def loop_method(x: Real) -> Real:  # expect: x=inf; returns=unknown
    a = np.zeros(3)
    for _ in range(2):
        a.fill(x)  # E: DPS203
    return np.sum(a)


# was: reported 1; truth 5
def aug_store_mul(x: Real) -> Real:  # expect: x=6
    v = np.zeros(3)
    v[0] = x
    v[0] *= 5.0
    return np.sum(v)


def helper_add(a, b):  # expect: a=1; b=1  # E: DPS103
    return a + b


# was: v: 1, w: 1 with no assumption; truth w: len(v) when len(w) = 1 broadcasts
def helper_assume(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=1; w=1; assumes=len(w) == len(v)
    return helper_add(v, w)


# was: reported x: 1, assumes False; truth 3 (numpy broadcasts the length-1 array)
def bcast_one(x: Real) -> Real:  # expect: x=3
    a = np.zeros(1) + x
    return np.sum(np.zeros(3) + a)


# was: x: reported 1; truth inf (d = -1: x = 0 vs 1e-9 changes the Data result)
def max_data_real(d: Data, x: Real) -> Data:  # expect: d=1; x=inf
    return np.maximum(d, x)


# was: reported 1; truth 10 (100 copies of v[0])
def fancy(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf; returns=unknown
    idx = (np.zeros(100) < 1.0) * 0
    return np.linalg.norm(v[idx])  # E: DPS202


# was: reported 1; truth sqrt(len(v)) (all-0 vs all-1)
def mask_norm(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=inf; returns=unknown
    mask = np.zeros(len(v)) < 1.0
    return np.linalg.norm(v[mask])  # E: DPS301


# was: reported 1; truth sqrt(len(v))
def none_index(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=inf; returns=unknown
    return np.linalg.norm(v[None])  # E: DPS202


# D48 — was: reported 1; truth sqrt(len(v)) (numpy takes a Boolean index as a 0-d mask:
# v[True] is all of v, with shape (1, len(v)))
def true_index(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=inf; returns=unknown
    return np.linalg.norm(v[True])  # E: DPS202


def flag_index(v: MetricVector[L_inf, Real], flag: Static[bool]) -> Real:  # expect: v=inf; flag=static; returns=unknown
    return np.linalg.norm(v[flag])  # E: DPS202


def comparison_index(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=inf; returns=unknown
    return np.linalg.norm(v[1 > 0])  # E: DPS202


# A tuple takes a Boolean as 0 or 1, like Python.
def tuple_true_index(x: Real, y: Real) -> Real:  # expect: x=0; y=1
    return (x, y)[True]


# D76 — an array kept in a tuple, a list display or a default argument kept its entries'
# bound after a public store through another name: 0, truth 100 (inf before indexing kept
# entry bounds; the tuple's own product `t[0] * y[0:3]` was 0 already).
def bound_kept_in_a_tuple(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    y = np.clip(v, 0.0, 1.0)
    z = np.zeros(3)
    t = (z, 1)
    z[0] = 100.0
    w = t[0]
    return float(w[0] * y[0])  # E: DPS305


def bound_kept_in_a_list(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    y = np.clip(v, 0.0, 1.0)
    z = np.zeros(3)
    t = [z, z]
    z[0] = 100.0
    return float(t[0][0] * y[0])  # E: DPS305


def bound_kept_after_unpacking(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    y = np.clip(v, 0.0, 1.0)
    t = (np.zeros(3), np.ones(3))
    a, b = t
    a[0] = 100.0
    return float(t[0][0] * y[0])  # E: DPS305


def bound_kept_in_a_default(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    y = np.clip(v, 0.0, 1.0)
    z = np.zeros(3)

    def first(a=z):
        return a[0]

    z[0] = 100.0
    return float(first() * y[0])  # E: DPS305


# D77 (R-range's review): a clip's interval took the decimals written, not the floats
# numpy clips with. was: 2 and 1e-14; truth 1024 and 2.84e-14.
def clip_between_large_integers(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1025.8
    return np.clip(v[0], 4611686018427388415, 4611686018427388417) * 1.0


def clip_between_adjacent_floats(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=2.84966e-14
    a = np.clip(v[0], 131.2742324846037, 131.27423248460371)
    return a + 0.0


# was: 1e-8; truth 2.98e-8 (the floats of the two literals are 1/33554432 apart).
def where_between_close_floats(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1/33554432
    return float(np.where(v[0] > 0.5, 140445381.68735301, 140445381.687353))


# D78: np.where of numbers returns a 0-d array, which op= changes in place under every
# name holding it. was: 1; truth 1000 (and 201 for the second).
def where_of_numbers_changed_in_place(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1000
    a = np.where(v[0] > 0.5, 1.0, 0.0)
    b = a
    a *= 1000.0
    return float(b)


def where_of_numbers_squared_after_a_change(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=201
    a = np.where(v[0] > 0.5, np.clip(v[1], 0.0, 1.0), 0.0)
    b = a
    a += 100.0
    return float(b * b)


def bump(x: Real) -> Real:  # expect: x=0
    x += 100.0  # in place when x is a 0-d array
    return 0.0


def where_of_numbers_changed_by_a_callee(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    a = np.where(v[0] > 0.5, np.clip(v[1], 0.0, 1.0), 0.0)
    bump(a)
    return float(a * a)


# D79: an operand evaluated before a later one that writes into its array held the
# array's old value. was: 1; truth 1000 (the closure stores into z before + reads it).
def operand_before_a_writing_call(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1001
    z = np.clip(v, 0.0, 1.0)

    def g() -> float:
        z[0] = np.clip(v[0], 0.0, 1000.0)
        return 0.0

    return float((z + g())[0])


def name_unpacked_before_a_writing_call(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1001
    z = np.clip(v, 0.0, 1.0)

    def g() -> float:
        z[0] = np.clip(v[0], 0.0, 1000.0)
        return 0.0

    a, b = z, g()
    return float(a[0] * 1.0)


def first_plus(a: MetricVector[L_inf, Real], b: Real) -> Real:  # expect: a=1; b=1
    return a[0] + b


def argument_before_a_writing_call(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1001
    z = np.clip(v, 0.0, 1.0)

    def g() -> float:
        z[0] = np.clip(v[0], 0.0, 1000.0)
        return 0.0

    return first_plus(z, g())


# D80 (a second review of D79's fix): comparisons, subscripts, op= and arrays returned by
# calls read the array before a later operand wrote into it. was: 0 each; truth inf or 1.
def compared_before_a_writing_call(x: Real) -> Real:  # expect: x=inf
    z = np.zeros(1)

    def g() -> float:
        z[0] = x
        return 0.5

    return float(np.sum(z < g()))


def indexed_by_a_writing_call(x: Real) -> Real:  # expect: x=1
    z = np.zeros(1)

    def g() -> int:
        z[0] = x
        return 0

    return float(z[g()])


def added_in_place_by_a_writing_call(x: Real) -> Real:  # expect: x=1
    z = np.zeros(1)

    def g() -> float:
        z[0] = x
        return 0.0

    z += g()
    return float(z[0])


def returned_before_a_writing_call(x: Real) -> Real:  # expect: x=inf
    z = np.zeros(1)

    def g() -> float:
        z[0] = x
        return 0.0

    def h() -> MetricVector[L_inf, Real]:
        return z

    return float((h() + g())[0])


# D81 (the same review of D78's fix): a 0-d array from np.where lost its mark through
# helpers, max(), loops and np.zeros_like, and a callee changing its parameter in place
# did not say so to its callers. was: 1 (0 for zeros_like); truth 1000 (100, 1).
def _where(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1
    return np.where(v[0] > 0.5, 1.0, 0.0)


def zero_d_from_a_helper(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1000
    a = _where(v)
    b = a
    a *= 1000.0
    return float(b)


def zero_d_through_max(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1001
    a = np.where(v[0] > 0.5, 1.0, 0.0)
    b = max(a, 0.0)  # a itself, when it is the larger
    a *= 1000.0
    return float(b)


def zero_d_in_a_loop(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=100
    a = np.where(v[0] > 0.5, 1.0, 0.0)
    b = a
    for _ in range(2):
        a *= 10.0
    return float(b)


def zero_d_zeros_like(x: Real) -> Real:  # expect: x=1
    a = np.zeros_like(1.0)
    b = a
    a += x
    return float(b)


def _relay(y: Real) -> Real:  # expect: y=0
    return bump(y)


def zero_d_through_a_relay(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    a = np.where(v[0] > 0.5, 1.0, 0.0)
    _relay(a)
    return float(a)


def _returns_the_old_name(a: Real) -> Real:  # expect: a=1
    b = a
    a *= 1000.0  # b is a when a is a 0-d array: a caller passing one cannot use the result
    return b


def zero_d_to_the_old_name(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    return _returns_the_old_name(np.where(v[0] > 0.5, 1.0, 0.0))


# D82 (found by a third review; it predates this session): a loop variable overwritten
# each iteration by another's previous value (b = a) had 0^(k−1−j) summed as 0: the
# previous value vanished. was: 0 and (0, 0); truth 1000 and (eps, 0).
def previous_value_in_a_loop(x: Real, n: Static[int]) -> Real:  # expect: x=1000; n=static; assumes=n >= 0
    a = 0.0
    b = 0.0
    for i in range(n):
        b = a
        a = 1000.0 * x
    return b


def previous_loss_released(X: MetricMatrix[L_inf, Data], n: Static[int], eps: Static[float]) -> Priv[Real]:  # expect: X=(eps, 0); n=static; eps=static; assumes=eps > 0, n >= 0; accounting=sequential
    loss = 0.0
    prev = 0.0
    for i in range(n):
        prev = loss
        loss = float(np.sum(np.clip(X[:, 0], 0.0, 1.0)))
    return laplace_mechanism(1.0, eps, prev)


# D83 (found by the third review; it predates the session): Python evaluates a store's
# index after its value, and stores what the value holds then: an index calling code
# that writes into the stored array changed what was stored. was: 0; truth 1.
def store_whose_index_writes_the_value(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1
    z = np.zeros(1)
    out = np.zeros(3)

    def g() -> int:
        z[0] = np.clip(v[0], 0.0, 1.0)
        return 1

    out[0:g()] = z
    return out[0] + 0.0


def store_whose_index_writes_a_view(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    z = np.zeros(3)
    out = np.zeros(3)

    def g() -> int:
        z[0] = np.clip(v[0], 0.0, 1.0)
        return 1

    out[0:g()] = z[0:1]  # a view of z: unknown once z changed (sound, not tight: truth 1)
    return out[0] + 0.0


# D84 (the same review): a callee taking a float, passed an integer above 2^53, was
# analyzed at the integer, but numpy clips at its float (and Python's integer
# arithmetic stays exact). was: 2; truth 1024.
def _clamped(v: Real, lo: Static[float], hi: Static[float]) -> Real:  # expect: v=1; lo=static; hi=static
    return np.clip(v, lo, hi)


def clamped_between_large_integers(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    return _clamped(v[0], 4611686018427388415, 4611686018427388417) * 1.0


def clamped_between_small_integers(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=2
    return _clamped(v[0], 1, 3) * 1.0


# D85 (a review of D83's fix; predates it): targets bind left to right, so a later
# target takes what an earlier target's store or index wrote into the array the value
# holds. was: 0; truth 1.
def later_part_after_an_earlier_store(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1
    z = np.zeros(1)
    out = np.zeros(1)
    z[0], out[:] = np.clip(v[0], 0.0, 1.0), z
    return out[0] + 0.0


def chained_after_an_index_call(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1
    z = np.zeros(1)
    a = np.zeros(3)

    def g() -> int:
        z[0] = np.clip(v[0], 0.0, 1.0)
        return 1

    a[0:g()] = b = z
    return b[0] + 0.0


# D86 (the same review): ``x[i] op= e`` runs the index before it evaluates e. was: 0;
# truth 1.
def augmented_store_after_its_index(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1
    z = np.zeros(1)
    out = np.zeros(3)

    def g() -> int:
        z[0] = np.clip(v[0], 0.0, 1.0)
        return 0

    out[g()] += z[0]
    return out[0] + 0.0


# D87 (the same review): an index inside a store's container (``out[i][0] = v``) was
# never evaluated: neither its data nor its calls counted. was: 0 and 0; truth 1 and 1.
def store_through_a_data_row(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    out = np.zeros((2, 2))
    i = 1 if v[0] > 0.5 else 0
    out[i][0] = 1.0  # which row is written depends on v (sound, not tight: truth 1)
    return out[0][0] + 0.0


def store_through_an_index_call(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=1
    w = np.zeros(1)
    out = np.zeros((2, 2))

    def h() -> int:
        w[0] = np.clip(v[0], 0.0, 1.0)
        return 0

    out[h()][0] = 1.0
    return w[0] + 0.0


# D88 (the same review): numpy clips at the float of an integer bound, which is not the
# integer above 2^53; a symbolic integer bound is now assumed to be at most 2^53 (a caller
# passing more fails the assumption). was: 2 and 2; truth 4 (k = 2^53 + 1) and 1024.
def clipped_between_static_integers(v: MetricVector[L_inf, Data], k: Static[int]) -> Real:  # expect: v=2; k=static; assumes=abs(k + 2) <= 9007199254740992, abs(k) <= 9007199254740992
    return np.clip(v[0], k, k + 2) * 1.0


def _clamped_as_integers(v: Real, lo: Static[int], hi: Static[int]) -> Real:  # expect: v=1; lo=static; hi=static; assumes=abs(hi) <= 9007199254740992, abs(lo) <= 9007199254740992
    return np.clip(v, lo, hi)


def clamped_as_large_integers(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=inf
    return _clamped_as_integers(v[0], 4611686018427388415, 4611686018427388417) * 1.0  # E: DPS306


# D89 (a review of R-loop-break, the session's own): the for target took every item even
# after a break, where Python keeps the one it broke on. was: 0, 0 and eps; truth inf,
# 7 and 8*eps.
def index_after_a_data_break(x: Real) -> Real:  # expect: x=inf
    i = 0
    for i in range(10):
        if x < i:
            break
    return float(i)


def index_after_a_public_break(x: Real) -> Real:  # expect: x=18
    i = 0
    for i in range(10):
        if i >= 2:
            break
    return (9 - i) * x  # (truth 7: i is 2)


def noise_scaled_by_the_break_index(X: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: X=(inf, inf); eps=static; accounting=sequential # E: DPS409
    i = 0
    for i in range(10):
        if i >= 2:
            break
    c = float(np.sum(np.clip(X[:, 0], 0.0, 1.0)))
    return laplace_mechanism(1.0, eps * (10 - i), c)  # E: DPS305


# D90 (a review of R-if-counted-bounded; R-if-counted had it before): ``u += e`` on a
# 0-d array changes it under every name holding it, and the counted branch rebound u
# alone. was: 0; truth 1.
def counted_into_a_shared_zero_d(X: MetricMatrix[L_inf, Data]) -> Real:  # expect: X=inf
    u = np.where(True, 0.0, 0.0)
    v = u
    for row in X:
        if row[0] > 0.5:
            u += np.clip(row[1], 0.0, 1.0)
    return float(v)


# D91 (the same review; R-if-public-arms had it before): a number's truth (``if y``) flips
# under any change of y, however small: a Real in it is unbounded. was: 2 and 1; truth inf.
def truth_of_a_real_row_entry(X: MetricMatrix[L1, Real]) -> Real:  # expect: X=inf
    total = 0.0
    for row in X:
        total += np.clip(row[1], 0.0, 1.0) if row[0] else 0.0
    return total


def truth_of_a_real(y: Real) -> Real:  # expect: y=inf
    return 1.0 if y else 0.0


# D92 (the same review): a 0-d array chosen by a condition lost its mark where the
# condition's context was added, so op= on it left the arrays it may be unchanged.
# was: 0; truth 5.
def zero_d_chosen_by_a_condition(x: Real) -> Real:  # expect: x=inf
    p = np.where(True, 0.0, 0.0)
    q = np.where(True, 0.0, 0.0)
    r = p if x > 0 else q
    r += 5.0 * x
    return float(p)


# D93: a closure's store into an array the loop reads was not carried: every iteration
# saw the array as it was before the loop (0, truth 1; a release of it eps 0).
def read_before_a_closure_writes(v: MetricVector[L1, Real]) -> Real:  # expect: v=len(v) - 1
    w = np.zeros(1)
    c = 0.0

    def put(e: Real) -> None:
        w[0] = w[0] + e

    for e in v:
        c = float(w[0])  # (truth 1: the coupled loop is loose)
        put(e)
    return c


# D94: a name bound by := in a loop body was not a loop-carried value (eps 0, truth inf).
def rebound_by_walrus(v: MetricVector[L1, Real]) -> Priv[Real]:  # expect: v=(inf, inf); accounting=released  # E: DPS403
    acc = 0.0
    c = 0.0
    for _ in range(3):
        acc = acc + laplace_mechanism(1.0, 1.0, c)
        z = (c := float(v[0]) * 1000.0)  # E: DPS202
    return acc


# D135 (this session): with a count not known, the loop was solved without the walrus's
# binding reaching the next iteration's release: (0, 0), truth 1000·(k − 1).
def rebound_by_walrus_k_times(v: MetricVector[L1, Real], k: Static[int]) -> Priv[Real]:  # expect: v=(inf, inf); k=static; assumes=k >= 0; accounting=released  # E: DPS403
    acc = 0.0
    c = 0.0
    for _ in range(k):
        acc = acc + laplace_mechanism(1.0, 1.0, c)
        z = (c := float(v[0]) * 1000.0)  # E: DPS202
    return acc


# D95: an index that moves with data may be out of range: a privacy function's store
# there may raise, which its caller sees (R-observed; eps, truth inf).
def scattered_without_a_range(v: MetricVector[L1, Data], k: Static[int], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: v=(inf, inf); k=static; eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    counts = np.zeros(k)
    for e in v:
        counts[int(e)] += 1  # E: DPS403
    return laplace_mechanism(2.0, eps, counts)


# D96: a store into a caller's array inside a statement dpsens does not analyze was not
# seen (R-observed): x at (0, 0), truth inf (the caller reads x).
def stored_inside_while(x: Real, out: Static[MetricVector[L1, Real]]) -> Priv[Real]:  # expect: x=(inf, inf); out=static; accounting=released  # E: DPS403
    k = 0
    while k < 1:  # E: DPS201
        out[0] = x
        k = k + 1
    return laplace_mechanism(1.0, 1.0, 0.0)


# D97: op= on a number parameter changes the caller's 0-d array, which the caller sees.
def added_into_a_parameter(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(inf, inf); accounting=released  # E: DPS403
    x += y
    return laplace_mechanism(1.0, 1.0, 0.0)


# D98: a slice through an alias of the index (j = i + 1) escaped "all slices alike".
def batches_through_an_alias(X: MetricMatrix[L_inf, Data], k: Static[int]) -> Real:  # expect: X=k; k=static; assumes=k >= 0
    total = 0.0
    for i in range(k):
        j = i + 1
        a = float(np.sum(np.clip(X[i:i + 1, 0], 0.0, 1.0)))
        b = float(np.sum(np.clip(X[j:j + 1, 0], 0.0, 1.0)))
        total = total + max(a, b)  # (truth 2)
    return total


# D99 (loose): a named scatter index was charged its range, not whether it changes.
def scattered_by_a_named_index(v: MetricVector[L1, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: v=(1, 0); accounting=sequential
    counts = np.zeros(4)
    for e in v:
        j = int(np.clip(int(e), 0, 3))
        counts[j] += 1  # (it was 3)
    return laplace_mechanism(2.0, 1.0, counts)


# D100: a callee changing its number parameter in place (the caller's 0-d array, D78)
# left the caller's own number parameter as it was (0 in k, truth 5), and a counted
# branch's op= in a helper was not seen by a privacy caller (eps 0, truth inf).
def _lowered_if_positive(u: Real, k: Integer) -> Real:  # expect: u=0; k=0
    if k > 0:
        u -= 5.0
    return 0.0


def read_after_the_helper(k: Integer, x: Real) -> Real:  # expect: k=inf; x=inf
    _lowered_if_positive(x, k)
    return x


def released_after_the_helper(d: Data, t: Static[float]) -> Priv[Real]:  # expect: d=(inf, inf); t=static; accounting=released  # E: DPS403
    _raised_if_set(t, d)
    return laplace_mechanism(1.0, 1.0, 0.0)


def _raised_if_set(u: Real, d: Data) -> Real:  # expect: u=0; d=0
    if d > 0.5:
        u += 1.0
    return 0.0


# D137: the vectors of a tuple parameter took the tuple's own size, len(p), which is its
# number of components: np.sum(p[0]) of an (L_inf) vector of 10 entries was 2.
def first_of_a_pair(p: tuple[MetricVector[L_inf, Real], MetricVector[L_inf, Real]]) -> Real:  # expect: p=len(p[0])
    return float(np.sum(p[0]))


def pair_passed(v: MetricVector[L_inf, Real], w: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v); w=0
    return first_of_a_pair((v, w))


def arrays_in_a_list(vs: list[MetricVector[L_inf, Real]]) -> Real:  # expect: vs=inf; returns=unknown  # E: DPS102
    return float(np.sum(vs[0]))  # (their sizes may differ: no one symbol stands for them)  # E: DPS301


# D138: a += through one slot of a list left the other slots holding the same array as
# they were: [w, w] then a[0] += 1000 * x read through a[1] was 0 (truth 1000).
def slots_of_one_array(x: Real) -> Real:  # expect: x=1000
    w = np.zeros(1)
    a = [w, w]
    a[0] += 1000.0 * x
    return float(a[1][0])


def repeated_slots(x: Real) -> Real:  # expect: x=3000
    a = [np.zeros(1)] * 3
    a[0] += 1000.0 * x
    return float(a[0][0] + a[1][0] + a[2][0])


# D139: a list's copy() is shallow, but was taken for numpy's copy, a new array: a store
# into an array of the copy was not seen through the list it came from (0, truth 1000).
def store_through_a_copied_list(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(2)
    a = [w]
    b = a.copy()  # E: DPS203
    b[0][0] = 1000.0 * x
    return float(w[0])


# D140: the sizes of a declared tuple return, len(return[1]), were never given the call's
# values: two calls' components shared the symbol, and len(p[1]) / len(q[1]) cancelled
# (u: 1, truth len(u)/len(w)).
def _pair(a: MetricVector[L_inf, Real], b: MetricVector[L_inf, Real]) -> tuple[MetricVector[L_inf, Real], MetricVector[L_inf, Real]]:  # expect: a=1; b=1
    return (a, b)


def sizes_of_returned_pairs(w: MetricVector[L_inf, Real], u: MetricVector[L_inf, Real]) -> Real:  # expect: w=0; u=len(u)/len(w)
    p = _pair(w, w)
    q = _pair(u, u)
    return float(np.sum(q[1])) / len(p[1])


# D141: a store of a public number into a clip()ped array kept the clip marker, which also
# bounds the entries (bounded products take them as at most 1): with len(v) = 1 and
# u[0] = 7, x moved the result by 7 (reported len(v)).
def store_into_a_clipped_vector(v: MetricVector[L_inf, Real], x: Real) -> Real:  # expect: v=inf; x=inf
    u = clip(L_inf, v)
    u[0] = 7.0
    return float(np.sum(u) * np.clip(x, -1.0, 1.0))


def zero_into_a_clipped_vector(v: MetricVector[L_inf, Real], x: Real) -> Real:  # expect: v=2*len(v); x=len(v)
    u = clip(L_inf, v)
    u[0] = 0.0  # zeroing an entry shrinks every norm: the marker holds
    return float(np.sum(u) * np.clip(x, -1.0, 1.0))


# D142: np.clip kept the clip marker of its input: np.clip(clip(L_inf, v), 5, 6) has
# entries of 5 to 6, and x moved the result by 10 with len(v) = 2 (reported 2).
def clipped_away_from_zero(v: MetricVector[L_inf, Real], x: Real) -> Real:  # expect: v=inf; x=inf
    u = np.sort(np.clip(clip(L_inf, v), 5.0, 6.0))
    return float(np.sum(u) * np.clip(x, -1.0, 1.0))


# D143: a declared `-> Bool` that the body does not keep (DPS104) was still taken as 0 or 1
# by callers, whose discrete cap then bounded it: f moved by 5 (reported 1).
def _flag(i: Integer) -> Bool:  # expect: i=inf; returns=Integer  # E: DPS104
    return i * 5


def called_flag(i: Integer) -> Real:  # expect: i=inf
    return float(_flag(i))


# D144: a bound rounded up to 6 digits (a rational too long to print) went on through a
# loop's products in sympy's 6-digit floats, rounding to nearest: 1.0003**1000 was
# reported 1.34971, below the exact 1.3497981 (and 1.001**1000 as 2.71677 < 2.716924).
def long_growth(x: Real, y: Real) -> Real:  # expect: x=1.34980; y=1166.00
    for _ in range(1000):
        x = 1.0003 * x + y
    return x


def longer_growth(x: Real) -> Real:  # expect: x=2.71693
    for _ in range(1000):
        x = 1.001 * x
    return x


# D145: a branch joining values of two metrics (a number and a tuple) is unbounded, but the
# R-parts pieces of its arms (v[0], (v[0], v[1])) tightened that ∞ back to 1.
def number_or_pair(v: MetricVector[L1, Real], flag: Static[bool]):  # expect: v=inf; flag=static; returns=unknown
    x = v[0] if flag else (v[0], v[1])
    return x


def _applied_twice(fn):  # expect: fn=1  # E: DPS103
    def both(t):
        return fn(fn(t))
    return both


@_applied_twice  # E: DPS201
def _tripled(t):  # expect: t=inf  # E: DPS103
    return 3 * t


# review31 U3: a decorated helper without annotations was inlined as its undecorated body:
# reported 3; truth 9 (the decorator applies it twice).
def through_a_decorator(x: Real) -> Real:  # expect: x=inf
    return _tripled(x)  # E: DPS201


# D148 (U4): np.zeros_like / np.ones_like made float arrays of any argument, so a real
# stored into the zeros of an integer (or bool) array, which numpy truncates, was taken
# as exact: reported 10·len(v) (10 for a histogram's counts); truth inf (int(10·x)
# jumps by 1 under an arbitrarily small move of x).
def real_into_zeros_like_of_counts(v: MetricVector[L_inf, Integer], x: Real) -> Real:  # expect: v=0; x=inf
    out = np.zeros_like(v)
    out[0] = x * 10.0
    return float(np.sum(out))


def real_into_zeros_like_of_a_histogram(v: MetricVector[L_inf, Real], x: Real) -> Real:  # expect: v=0; x=inf
    counts, _ = np.histogram(v, bins=3, range=(0.0, 1.0))
    out = np.zeros_like(counts)
    out[0] = x * 10.0
    return float(np.sum(out))


def real_into_ones_like_of_truth_values(d: MetricVector[L_inf, Data], x: Real) -> Real:  # expect: d=0; x=inf
    out = np.ones_like(d > 2)
    out[0] = x * 10.0
    return float(np.sum(out))


def real_into_zeros_like_of_a_count(n: Integer, x: Real) -> Real:  # expect: n=0; x=inf
    out = np.zeros_like(n)  # a 0-d integer array
    out[()] = x * 10.0
    return float(out)


def real_into_zeros_like_of_records(d: MetricVector[L_inf, Data], x: Real) -> Real:  # expect: d=0; x=inf
    out = np.zeros_like(d)  # the caller's dtype: integers, maybe
    out[0] = x * 10.0
    return float(out[0])


def real_into_int_zeros_like(v: MetricVector[L_inf, Real], x: Real) -> Real:  # expect: v=0; x=inf
    out = np.zeros_like(v, dtype=np.int64)
    out[0] = x * 10.0
    return float(np.sum(out))


def real_into_float_zeros_like_of_counts(v: MetricVector[L1, Integer], x: Real) -> Real:  # expect: v=0; x=10
    out = np.zeros_like(v, dtype=float)  # dtype= decides
    out[0] = x * 10.0
    return float(np.sum(out))


def count_into_zeros_like_of_counts(v: MetricVector[L1, Integer], n: Integer) -> Real:  # expect: v=0; n=1
    out = np.zeros_like(v)  # an integer is stored as it is
    out[0] = n
    return float(np.sum(out))


def real_into_copied_counts(v: MetricVector[L_inf, Integer], x: Real) -> Real:  # expect: v=1; x=inf
    out = v.copy()  # (np.copy and np.array keep the kind too)
    out[0] = x * 10.0
    return float(out[0])


def real_into_an_array_of_counts(x: Real) -> Real:  # expect: x=inf
    out = np.array(np.zeros(3, dtype=int))
    out[0] = x * 10.0
    return float(np.sum(out))


# D149 (U5): a for loop over a list that its body grows was counted at the list's length
# when it started, but Python iterates the appended elements too: reported 1; truth 31.
def iterated_list_appended_to(x: Real) -> Real:  # expect: x=inf; returns=unknown
    xs = [x]
    s = 0.0
    for v in xs:  # E: DPS207
        s = s + v
        if len(xs) < 31:
            xs.append(v)
    return s


def iterated_list_extended_through_an_alias(x: Real) -> Real:  # expect: x=inf; returns=unknown
    xs = [x]
    ys = xs
    s = 0.0
    for v in xs:  # E: DPS207
        s = s + v
        if len(ys) < 31:
            ys += [v]
    return s


def _push_onto(items: list[Real], v: Real) -> None:  # expect: items=0; v=0
    items.append(v)  # E: DPS205


def iterated_list_grown_by_a_helper(x: Real) -> Real:  # expect: x=inf; returns=unknown
    xs = [x]
    s = 0.0
    for v in xs:  # E: DPS207
        s = s + v
        if len(xs) < 31:
            _push_onto(xs, v)
    return s


def iterated_list_repeated(x: Real) -> Real:  # expect: x=inf; returns=unknown
    xs = [x]
    s = 0.0
    for v in xs:  # E: DPS207
        s = s + v
        if len(xs) < 4:
            xs *= 2
    return s


def enumerated_list_appended_through_an_alias(x: Real) -> Real:  # expect: x=inf; returns=unknown
    xs = [x]
    ys = xs
    s = 0.0
    for _, v in enumerate(xs):  # E: DPS207
        s = s + v
        if len(ys) < 31:
            ys.append(v)
    return s


def zipped_list_appended_through_an_alias(x: Real) -> Real:  # expect: x=inf; returns=unknown
    xs = [x]
    ys = xs
    s = 0.0
    for v, w in zip(xs, xs):  # E: DPS207
        s = s + v + w
        if len(ys) < 31:
            ys.append(v)
    return s


# (list *= n repeated the list in place but only under its own name: `ys` kept [x], 1; truth 3)
def list_repeated_in_place(x: Real) -> Real:  # expect: x=inf; returns=unknown
    xs = [x]
    ys = xs
    xs *= 3  # E: DPS202
    return sum(ys)


# Not changed: range(len(xs)) is evaluated once; the arrays a list holds may change in place.
def range_over_a_list_appended_to(x: Real) -> Real:  # expect: x=1
    xs = [x]
    s = 0.0
    for i in range(len(xs)):
        s = s + xs[i]
        xs.append(x)
    return s


def another_list_appended_to(x: Real) -> Real:  # expect: x=4
    xs = [x, x]
    ys = []
    s = 0.0
    for v in xs:
        s = s + v
        ys.append(v)
    return s + sum(ys)


def arrays_of_an_iterated_list_changed(x: Real) -> Real:  # expect: x=4
    a = np.zeros(3)
    b = np.zeros(3)
    for w in [a, b]:
        w[0] = x
    return float(np.sum(a) + np.sum(b))


# D155 (review36 U4): a 0-d array (np.array, np.copy, np.zeros_like of a number) in a list
# slot changed in place through the list (t[0] += y; through a slice, another name, a
# loop's element, a list a helper returned or a loop grew) kept its old value under its
# own name. was: 0 in y (ε 0; e for the np.exp); truth 1 (ε 1; e^101).
def zd_list_slot(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    a = np.array(np.clip(x, 0.0, 1.0))
    t = [a]
    t[0] += y
    return float(a)


def zd_list_slot_released(x: Real, y: Real) -> Priv[Real]:  # expect: x=(2, 0); y=(1, 0); accounting=sequential
    a = np.array(np.clip(x, 0.0, 1.0))
    t = [a]
    t[0] += y
    return laplace_mechanism(1.0, 1.0, float(a))


def zd_list_slot_exp(x: Real) -> Real:  # expect: x=inf
    a = np.array(np.clip(x, 0.0, 1.0))
    t = [a]
    t[0] += 100.0
    return float(np.exp(a))


def zd_list_second_slot(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    a = np.array(x * 1.0)
    t = [a, a]
    t[1] -= y
    return float(a)


def zd_zeros_like_in_a_list(x: Real, y: Real) -> Real:  # expect: x=0; y=1
    a = np.zeros_like(x)
    t = [a]
    t[0] += y
    return float(a)


def zd_hstacked_after_a_slot_change(x: Real, y: Real) -> MetricVector[L1, Real]:  # expect: x=4; y=2
    a = np.array(np.clip(x, 0.0, 1.0))
    t = [a]
    t[0] += y
    return np.hstack([a, a])


def zd_slot_of_a_slice(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    a = np.copy(x)
    t = [a]
    s = t[:]
    s[0] += y
    return float(a)


def zd_slot_under_another_name(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    a = np.array(x * 1.0)
    t = [a]
    u = t
    u[0] += y
    return float(a)


def zd_element_name_then_own_name(x: Real, y: Real, z: Real) -> Real:  # expect: x=3; y=2; z=1
    a = np.array(x * 1.0)
    t = [a]
    b = t[0]
    b += y
    a += z  # still the 0-d array b holds
    return float(b)


def zd_loop_element(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    a = np.array(x * 1.0)
    t = [a]
    for e in t:
        e += y
    return float(a)


def zd_slot_of_a_grown_list(x: Real, y: Real, n: Static[int]) -> Real:  # expect: x=n + 1; y=1; n=static; assumes=n >= 0
    a = np.array(x * 1.0)
    t = []
    for _ in range(n):
        t.append(a)
    t[0] += y
    return float(a)


def _zd_pair(x: Real) -> tuple[Real, Real]:  # expect: x=1
    return (np.array(x * 1.0), 2.0)


def zd_part_of_a_returned_tuple(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    t = _zd_pair(x)
    b = t[0]
    c = b
    b += y
    return float(c)


def zd_repeated_list(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    a = np.array(x * 1.0)
    t = [a] * 2
    t[1] += y
    return float(a)


def zd_default_argument(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    a = np.array(x * 1.0)

    def g(d: Real = a) -> Real:
        return float(d)

    a += y
    return g()


# Not changed: a Python float in a list slot is rebound, not changed in place.
def float_in_a_list_slot(x: Real, y: Real) -> Real:  # expect: x=1; y=0
    a = x * 1.0
    t = [a]
    t[0] += y
    return a


def float_slot_read_back(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    t = [x, 2.0]
    t[0] += y
    return t[0]


def float_element_name(x: Real, y: Real) -> Real:  # expect: x=1; y=0
    t = [x * 1.0]
    b = t[0]
    b += y
    return t[0]


# D156 (review37 F1): a helper's returned pair may hold one array twice (return a, a;
# return a, [a]); unpacked, its names are one alias group, so an in-place change through
# one reaches the other (y was 0, truth 1: here ∞, a store through a possible view).
def _same_array_twice(x: Real) -> tuple[MetricVector[L1, Real], MetricVector[L1, Real]]:  # expect: x=2
    a = np.array([np.clip(x, 0.0, 1.0), 0.0])
    return a, a


def returned_pair_of_one_array(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    a, b = _same_array_twice(x)
    b += y
    return float(a[0])


def _zero_d_and_its_list(x: Real):  # expect: x=2
    a = np.array(np.clip(x, 0.0, 1.0))
    return a, [a]


def returned_zero_d_inside_a_list(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    a, t = _zero_d_and_its_list(x)
    t[0] += y
    return float(a)
