"""Loops: s^k on the carried value, Σ_{j<k} s^j on everything else.

Correction: the Julia tool charges k for y in x = 2x + y, but three rounds
give 7·y (x3 = 8·x0 + 7·y).
"""

import random

import numpy as np

from dpsens import L1, L_inf, Data, Integer, MetricMatrix, MetricVector, Priv, Real, Static, laplace_mechanism


def three_rounds(x: Real, y: Real) -> Real:  # expect: x=8; y=7
    for _ in range(3):
        x = 2 * x + y
    return x


def k_rounds(x: Real, y: Real, k: Static[int]) -> Real:  # expect: x=2**k; y=2**k - 1; k=static; assumes=k >= 0
    for _ in range(k):
        x = 2 * x + y
    return x


def accumulate(x: Real, y: Real, k: Static[int]) -> Real:  # expect: x=1; y=k; k=static; assumes=k >= 0
    for _ in range(k):
        x = x + y
    return x


def halving(x: Real, y: Real) -> Real:  # expect: x=1/16; y=15/8
    for _ in range(4):
        x = x / 2 + y
    return x


def symbolic_ratio(x: Real, c: Static[float], k: Static[int]) -> Real:  # expect: x=abs(c)**k; c=static; k=static; assumes=k >= 0
    for _ in range(k):
        x = c * x
    return x


def two_bounds(x: Real) -> Real:  # expect: x=8
    for _ in range(2, 5):
        x = 2 * x
    return x


def coupled(a: Real, b: Real) -> Real:  # expect: a=1; b=2
    for _ in range(3):
        a, b = b, a + b
    return a


def coupled_symbolic(a: Real, b: Real, k: Static[int]) -> Real:  # expect: a=2**k; b=2**k; k=static; assumes=k >= 0
    for _ in range(k):
        a, b = b, a + b
    return a


def loop_local(x: Real) -> Real:  # expect: x=4
    for _ in range(3):
        y = 2 * x
        x = x + 0
    return y + 2 * x


def unknown_count_shrinks(x: Real, n: Integer) -> Real:  # expect: x=1; n=inf
    for _ in range(n):
        x = x / 2
    return x


def unknown_count_adds(x: Real, y: Real, n: Integer) -> Real:  # expect: x=1; y=inf; n=inf
    for _ in range(n):
        x = x + y
    return x


def unknown_count_grows(x: Real, n: Integer) -> Real:  # expect: x=inf; n=inf
    for _ in range(n):  # E: DPS207
        x = 3 * x
    return x


def unknown_count_symbolic(x: Real, n: Integer, c: Static[float]) -> Real:  # expect: x=1; n=inf; c=static; assumes=abs(c) <= 1
    for _ in range(n):
        x = c * x
    return x


# A count with no exact value but a public bound (an outer index): at most that many
# iterations (it was ∞). Each of the 70 outer iterations is charged 70 inner ones.
def triangular(x: Real) -> Real:  # expect: x=2415
    s = 0.0
    for i in range(70):
        for _ in range(i):
            s = s + x
    return s


def triangular_k(x: Real, k: Static[int]) -> Real:  # expect: x=k**2/2 - k/2; k=static; assumes=k >= 0
    s = 0.0
    for i in range(k):
        for _ in range(i):
            s = s + x
    return s


# The start's factor 1/2^j is largest at j = 0: a shrinking carry keeps its start once.
def shrinking_inner(x: Real, y: Real) -> Real:  # expect: x=1; y=1180591620717411303423/590295810358705651712
    s = 0.0
    for i in range(70):
        s = x
        for _ in range(i):
            s = s / 2 + y
    return s


# A shrinking carry over the elements: element t is weighed by 0.5^(k-1-t), so the
# elements add at most 0.5·Σ_j 0.5^j ≤ 1, not 0.5 per element (it was len(v)/2).
def exponential_average(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=min(2, len(v))/2
    s = 0.0
    for e in v:
        s = 0.5 * s + 0.5 * e
    return s


# D67: a carried value another one reads (t = t + s) kept the elements' share out of the
# states the other one sums (len(v), truth len(v)·(len(v) + 1)/2); such chains are now
# summed in order, exactly (they were bounded as a coupled system: 2·2^len(v) − 2).
def prefix_of_prefix_sums(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v)*(len(v) + 1)/2
    s = 0.0
    t = 0.0
    for e in v:
        s = s + e
        t = t + s
    return t


def decayed_prefix_sums(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=2*len(v) - 2 + 2/2**len(v)
    s = 0.0
    t = 0.0
    for e in v:
        s = 0.5 * s + e
        t = t + s
    return t


# R-loop-index is undone when the body changes anything but its sums and locals (an
# array written by a call, found by an adversarial review: 0, truth 1000), and when a
# local keeps the index (a closure's default: the internal index symbol leaked).
def index_loop_writing_through_a_closure(x: Real) -> Real:  # expect: x=100000
    w = np.zeros(3)

    def put(t: float) -> None:
        w[0] = t

    s = 0.0
    for i in range(100):
        s = s + i * x
        put(1000.0 * x)
    return float(np.sum(w))


def index_kept_by_a_default(x: Real) -> Real:  # expect: x=100
    s = 0.0
    for i in range(100):
        f = lambda t=i: t * x  # noqa: E731
        s = s + 0.0 * i
    return f()


# R-loop-continue: ``if c: A; continue`` then B is ``if c: A else: B``.
def skipped_every_other(v: MetricVector[L1, Real], n: Static[int]) -> Real:  # expect: v=2*n; n=static; assumes=n >= 0
    total = 0.0
    for i in range(n):
        if i % 2 == 0:
            continue
        total += 2.0 * v[0]
    return total


def skipped_after_work(x: Real, n: Static[int]) -> Real:  # expect: x=3*n; n=static; assumes=n >= 0
    total = 0.0
    for i in range(n):
        if i > 2:
            if i > 5:
                total += 3.0 * x
                continue
            total += x
        total += x
    return total


def skipped_released(X: MetricMatrix[L_inf, Data], eps: Static[float], k: Static[int]) -> Priv[Real]:  # expect: X=(eps*k, 0); eps=static; k=static; assumes=eps > 0, k >= 0; accounting=basic
    out = 0.0
    for j in range(k):
        s = laplace_mechanism(1.0, eps, float(np.sum(np.clip(X[:, 0], 0.0, 1.0))))
        if s < 0:
            out += 1.0
            continue
        out += s
    return out


def skipped_on_data(X: MetricMatrix[L_inf, Data]) -> Real:  # expect: X=1
    count = 0
    for row in X:
        if row[0] > 0.5:
            continue
        count += 1
    return count


def continue_in_nested_loop(x: Real, n: Static[int]) -> Real:  # expect: x=2*n; n=static; assumes=n >= 0
    total = 0.0
    for i in range(n):
        for j in range(2):
            if j == 0:
                continue
            total += x
        total += x
    return total


# R-loop-break: ``break`` sets a flag, and what would run after it runs only while the
# flag is unset (the loop_break of earlier versions was DPS201 and inf).
def halved_until_a_static(x: Real, c: Static[int]) -> Real:  # expect: x=1; c=static
    for i in range(10):
        if i > c:
            break
        x = x / 2
    return x


def summed_until_the_fourth(x: Real, n: Static[int]) -> Real:  # expect: x=n; n=static; assumes=n >= 0
    y = 0.0
    for i in range(n):
        y = y + x
        if i >= 3:
            break  # (truth min(n, 4): the flag's value is not followed)
    return y


def counted_until_a_data_row(X: MetricMatrix[L_inf, Data]) -> Real:  # expect: X=inf
    total = 0.0
    for row in X:
        if row[0] > 0.5:
            break  # the first row that stops it moves the count by up to rows(X)
        total += 1.0
    return total


def released_until_a_noisy_value(X: MetricMatrix[L_inf, Data], eps: Static[float], k: Static[int]) -> Priv[Real]:  # expect: X=(eps*k, 0); eps=static; k=static; assumes=eps > 0, k >= 0; accounting=basic
    out = 0.0
    for j in range(k):
        s = laplace_mechanism(1.0, eps, float(np.sum(np.clip(X[:, 0], 0.0, 1.0))))
        out += s
        if s > 10.0:
            break
    return out


def released_until_a_raw_value(X: MetricMatrix[L_inf, Data], eps: Static[float], k: Static[int]) -> Priv[Real]:  # expect: X=(inf, inf); eps=static; k=static; assumes=eps > 0, k >= 0; accounting=released # E: DPS403
    out = 0.0
    for j in range(k):
        raw = float(np.sum(np.clip(X[:, 0], 0.0, 1.0)))
        if raw > 10.0 + j:
            break  # stopping on the raw sum tells it
        out += laplace_mechanism(1.0, eps, raw)
    return out


def break_and_continue(x: Real, n: Static[int]) -> Real:  # expect: x=3*n; n=static; assumes=n >= 0
    total = 0.0
    for i in range(n):
        if i % 2 == 0:
            total += x
            continue
        if i > 7:
            break
        total += 3.0 * x
    return total


# R-loop-return: ``return e`` in a loop body is ``value = e; returned = True; break``,
# and the loop is followed by ``if returned: return value`` (it was DPS201 and inf).
def returned_at_a_static_index(x: Real, k: Static[int]) -> Real:  # expect: x=3; k=static; assumes=k >= 0
    for i in range(k):
        if i == 3:
            return 3 * x
    return x


def returned_from_a_nested_loop(x: Real, k: Static[int]) -> Real:  # expect: x=2; k=static; assumes=k >= 0
    for i in range(k):
        for j in range(k):
            if i + j == 5:
                return x * 2
    return x


def returned_midway(x: Real, k: Static[int]) -> Real:  # expect: x=2*k; k=static; assumes=k >= 0
    s = 0.0
    for i in range(k):
        s = s + x
        if i == 2:
            return s  # 3x; the loop's own bound covers it (truth 5 for k >= 3, else 2k)
        s = s + x
    return s


def returned_on_a_data_entry(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    for i in range(len(v)):
        if v[i] > 0:
            return v[i]  # which entry returns moves with the data
    return 0.0


def returned_on_a_noisy_value(X: MetricMatrix[L_inf, Data], eps: Static[float], k: Static[int]) -> Priv[Integer]:  # expect: X=(eps*k, 0); eps=static; k=static; assumes=eps > 0, k >= 0; accounting=basic
    for j in range(k):
        s = laplace_mechanism(1.0, eps, float(np.sum(np.clip(X[:, 0], 0.0, 1.0))))
        if s > 10.0 + j:
            return j  # post-processing of the releases so far
    return -1


def returned_raw_in_a_loop(X: MetricMatrix[L_inf, Data], k: Static[int]) -> Priv[Real]:  # expect: X=(inf, inf); k=static; assumes=k >= 0; accounting=released # E: DPS403
    for j in range(k):
        if j == 1:
            return float(np.sum(X))
    return 0.0


def returned_from_an_unsupported_loop(x: Real) -> Real:  # expect: x=inf
    for c in "ab":  # E: DPS201
        return x
    return 0.0


# R-loop-unswitch: a public test no iteration changes picks one arm for the whole loop.
def doubled_or_summed(x: Real, y: Real, flag: Static[bool], k: Static[int]) -> Real:  # expect: x=max(1, 2**k); y=k; flag=static; k=static; assumes=k >= 0
    for _ in range(k):
        if flag:
            x = 2 * x
        else:
            x = x + y  # (it was 2**k - 1 in y: the larger arm in every iteration)
    return x


def flag_changed_in_the_loop(x: Real, y: Real, flag: Static[bool], k: Static[int]) -> Real:  # expect: x=2**k; y=2**k - 1; flag=static; k=static; assumes=k >= 0
    f = flag
    for _ in range(k):
        if f:
            x = 2 * x
        else:
            x = x + y
        f = not f  # the arms alternate: not unswitched
    return x


def test_on_data_in_the_loop(x: Real, y: Real, k: Static[int]) -> Real:  # expect: x=2**k; y=inf; k=static; assumes=k >= 0
    for _ in range(k):
        if y > 0.0:  # not public: not unswitched (either way the choice moves with y)
            x = 2 * x
        else:
            x = x + y
    return x


def index_plus_a_static_float(y: Real, k: Static[int], c: Static[float]) -> Real:  # expect: y=0.5*k**2 + 1*k*abs(c) - 0.5*k; k=static; c=static; assumes=k >= 0
    # Σ_{i<k} |c + i| ≤ Σ (i + |c|): sympy summed |i + c| only by case splits and
    # recursed without end (DPS001 after 35 s).
    s = 0.0
    for i in range(k):
        s = s + (c + i) * y
    return s


# A tuple held in a local name is split into one name per component (frontend/tuples.py):
# each component is 1-sensitive in its own, not 2 in the whole (the loop grew as 2^n).
def running_pair_in_a_tuple(v: MetricVector[L1, Real]) -> Real:  # expect: v=3
    acc = (0.0, 0.0)
    for e in v:
        acc = (acc[0] + e, acc[1] + 2 * e)
    return acc[0] + acc[-1]


def tuple_returned_whole(x: Real, y: Real) -> tuple[Real, Real]:  # expect: x=3; y=1
    pair = (x, y)
    pair = (pair[0] + 2 * x, pair[1])
    return pair


def component_array_changed_in_place(v: MetricVector[L1, Real], x: Real) -> Real:  # expect: v=inf; x=inf
    # a store into a component's array keeps the tuple whole (it is not split), and the
    # array it changes is v's, whose caller sees it
    acc = (v, 0.0)
    acc[0][0] = x  # E: DPS205
    return float(np.sum(acc[0]))


def list_display_changed_by_a_call(x: Real) -> Real:  # expect: x=inf
    weights = [1.0, 2.0]  # a list: not split (random.shuffle reorders it)
    random.shuffle(weights)
    return weights[0] * x  # E: DPS305


# R-loop-extreme: a running max or min moves by at most the largest move of a term, and
# an (L_inf, Real) vector's entries each by at most its distance (the general rule
# summed the entries: len(v)).
def running_max_by_loop(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=2
    best = -100.0
    for e in v:
        best = max(best, 2 * e)
    return best


def running_max_by_branch(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=1
    best = -100.0
    for e in v:
        if e > best:  # R-if-extreme makes it best = max(e, best)
            best = e
    return best


def largest_magnitude_by_index(v: MetricVector[L_inf, Real], n: Static[int]) -> Real:  # expect: v=1; n=static; assumes=n >= 0
    best = 0.0
    for i in range(n):
        best = max(best, abs(v[i]))
    return best


def running_max_of_partial_sums(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v)
    best = 0.0
    for e in v:
        best = max(best, best + e)  # reads best: every entry adds on, the general rule
    return best


def row_of_a_running_max_written_later(m: MetricMatrix[L_inf, Real]) -> Real:  # expect: m=101
    # A row is a view of the matrix: a write through it after the loop changes w (a
    # review's witness: R-loop-extreme lost the view, 1 where the truth is 100).
    w = np.clip(m, 0.0, 1.0)
    best = 0.0
    for r in w:
        best = max(best, 0.0)
    r[0] = 100.0 * r[1]
    return float(w[-1, 0])
