"""Loops that drive public values (counters, step sizes, range indices) keep exact values;
one-line suites are analyzed like indented blocks.

A short loop with a known count whose iterations change a public scalar, or
read a range index, is analyzed iteration by iteration (docs/rules.md R-loop-concrete),
so the results below are the exact sensitivities, not ∞ or max |i|.
"""

import numpy as np

from dpsens import (
    L1, L2, L_inf, Data, Integer, MetricMatrix, MetricVector, Priv, Real, Static, clip, gaussian_mechanism,
    laplace_mechanism, rows, undisc_container,
)


def counter(x: Real) -> Real:  # expect: x=6
    s = 0.0
    k = 0
    for _ in range(3):
        k = k + 1
        s = s + k * x
    return s


def step_size_decay(x: Real) -> Real:  # expect: x=7/4
    lr = 1.0
    s = 0.0
    for _ in range(3):
        s = s + lr * x
        lr = lr * 0.5
    return s


def stepped_index(x: Real) -> Real:  # expect: x=18
    s = 0.0
    for i in range(0, 10, 3):
        s = s + i * x
    return s


def indexed_entries(v: MetricVector[L1, Real]) -> Real:  # expect: v=3
    s = 0.0  # entries of an L1 vector are disjoint parts: max(1, 2, 3), not 1 + 2 + 3 (R-parts)
    for i in range(3):
        s = s + (i + 1) * v[i]
    return s


def symbolic_count_is_not_unrolled(x: Real, k: Static[int]) -> Real:  # expect: x=inf; k=static; assumes=k >= 0
    s = 0.0  # once reported 0: sympy folded (oo**k - 1)/(oo - 1) to 0
    c = 0
    for _ in range(k):
        c = c + 1
        s = s + c * x  # E: DPS305
    return s


def noisy_running_sum(x: Real) -> Priv[Real]:  # expect: x=(55, 0); accounting=sequential
    acc = x
    out = 0.0
    for _ in range(10):
        out = out + laplace_mechanism(1.0, 1.0, acc)  # charged 1, 2, ..., 10
        acc = acc + x
    return out


def long_loops_keep_the_closed_form(x: Real) -> Real:  # expect: x=200
    s = 0.0
    k = 0
    for _ in range(100):
        k = 2
        s = s + k * x
    return s


# --- one-line suites (docs/rules.md L15) ----------------------------------------------------------


def one_line(x: Real) -> Real: return 2 * x  # expect: x=2


def one_line_loop(x: Real, k: Static[int]) -> Real:  # expect: x=2**k; k=static; assumes=k >= 0
    for _ in range(k): x = 2 * x
    return x


def one_line_if(x: Real, c: Static[bool]) -> Real:  # expect: x=3; c=static
    if c: return 3 * x
    else: return x


def two_statements(x: Real) -> Real: y = 2 * x; return y + x  # expect: x=3


def one_line_unsupported(x: Real) -> Real: del x  # expect: x=0; returns=None  # E: DPS201


# --- loops over rows and entries: each element is read once (docs/rules.md R-loop-elements) -------


def row_sum(m: MetricMatrix[L1, Real]) -> MetricVector[L1, Real]:  # expect: m=1; assumes=cols(m) == 3
    acc = np.zeros(3)
    for r in m:
        acc = acc + r
    return acc


def clipped_row_sum(m: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Real]:  # expect: m=2; assumes=cols(m) == 4
    acc = np.zeros(4)
    for r in undisc_container(clip(L2, m)):
        acc = acc + r
    return acc


def entries_l1(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    s = 0.0
    for e in v:
        s = s + e
    return s


def entries_l2(v: MetricVector[L2, Real]) -> Real:  # expect: v=sqrt(len(v))
    s = 0.0
    for e in v:
        s = s + e
    return s


def entries_linf(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=2*len(v)
    s = 0.0
    for e in v:
        s = s + 2 * e
    return s


def growing_carry_keeps_the_old_rule(v: MetricVector[L1, Real]) -> Real:  # expect: v=2**len(v) - 1
    s = 0.0
    for e in v:
        s = 2 * s + e
    return s


def last_element_local(v: MetricVector[L1, Real]) -> Real:  # expect: v=4
    s = 0.0
    last = 0.0
    for e in v:
        last = 3 * e
        s = s + e
    return s + last


def noisy_rows(m: MetricMatrix[L1, Real]) -> Priv[Real]:  # expect: m=(1, 0); accounting=sequential
    out = 0.0
    for r in m:  # parallel composition: each row is released once
        out = out + laplace_mechanism(1.0, 1.0, np.sum(np.clip(r, 0.0, 1.0)))
    return out


def noisy_entries_linf(v: MetricVector[L_inf, Real]) -> Priv[Real]:  # expect: v=(len(v)/2, 0); accounting=sequential
    out = 0.0
    for e in v:  # every entry may move by d(v): F = len(v)
        out = out + laplace_mechanism(1.0, 0.5, e)
    return out


def gaussian_rows_in_parallel(m: MetricMatrix[L1, Real]) -> Priv[Real]:  # expect: m=(0.872471, 1/100000); accounting=gdp
    out = 0.0
    for r in m:  # one Gaussian per row: together one Gaussian (GDP), read at delta' = 1e-5
        out = out + gaussian_mechanism(1.0, 1.0, 1e-6, np.sum(np.clip(r, 0.0, 1.0)))
    return out


def symbolic_gaussian_rows(m: MetricMatrix[L1, Real], eps: Static[float], dl: Static[float]) -> Priv[Real]:  # expect: m=(eps, dl); eps=static; dl=static; assumes=dl < 1, dl > 0, eps > 0; accounting=sequential
    out = 0.0
    for r in m:  # a Gaussian per row with symbolic (eps, dl): still one charge (parallel)
        out = out + gaussian_mechanism(1.0, eps, dl, np.sum(np.clip(r, 0.0, 1.0)))
    return out


def symbolic_gaussian_rows_caller(m: MetricMatrix[L1, Real]) -> Priv[Real]:  # expect: m=(0.872471, 1/100000); accounting=gdp
    return symbolic_gaussian_rows(m, 1.0, 1e-6)  # the call makes sigma a number: exact GDP


def branch_rows_stay_per_iteration(m: MetricMatrix[L1, Real], flag: Static[bool]) -> Priv[Real]:  # expect: m=(1, 0); flag=static; accounting=sequential
    out = 0.0
    for r in m:
        if flag:  # R-loop-unswitch: if flag: for r in m: ... (it was rows(m), per iteration)
            out = out + laplace_mechanism(1.0, 1.0, np.sum(np.clip(r, 0.0, 1.0)))
    return out


def released_prefix_sums(v: MetricVector[L1, Real]) -> Priv[Real]:  # expect: v=(len(v) + 1, 0); accounting=basic
    s = 0.0
    out = 0.0
    for e in v:  # s depends on every earlier entry: charged through the carried value
        s = s + e
        out = out + laplace_mechanism(1.0, 1.0, s)
    return out


# --- range loops that read their own row or entry: m[i], v[i] (docs/rules.md R-loop-elements) -----


def index_sum(v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: v=1; k=static; assumes=k >= 0
    s = 0.0
    for i in range(k):
        s = s + v[i]
    return s


def first_entries_of_a_max_vector(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=min(3, len(v))
    s = 0.0
    for i in range(3):  # three entries, each at most the vector's L∞ distance away
        s = s + v[i]
    return s


def small_index_sum(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    s = 0.0
    for i in range(3):
        s = s + v[i]
    return s


def own_entry_and_a_fixed_one(v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: v=k + 1; k=static; assumes=k >= 0
    s = 0.0
    for i in range(k):
        s = s + v[i] + v[0]  # v[0] is read in every iteration
    return s


def closure_in_the_body(v: MetricVector[L1, Real], k: Static[int]) -> Real:  # expect: v=k; k=static; assumes=k >= 0
    s = 0.0
    for i in range(k):
        g = lambda i: v[i]  # noqa: E731  (its i is any index)
        s = s + g(0)
    return s


def negative_start_may_repeat(v: MetricVector[L1, Real]) -> Real:  # expect: v=4
    s = 0.0  # v[0..2] are parts (R-parts): 1; v[-3..-1] of an unknown length are not: 3
    for i in range(-3, 3):  # v[-3] may be v[0] (at most 2, with len(v) in (3, 4))
        s = s + v[i]
    return s


def noisy_indexed_rows(m: MetricMatrix[L1, Real], k: Static[int]) -> Priv[Real]:  # expect: m=(1, 0); k=static; accounting=sequential; assumes=k >= 0
    out = 0.0
    for i in range(k):
        out = out + laplace_mechanism(1.0, 1.0, np.sum(np.clip(m[i], 0.0, 1.0)))
    return out


def first_iteration_branch(x: Real, y: Real) -> Real:  # expect: x=1; y=4
    acc = 0.0
    for i in range(5):
        if i == 0:  # a known index decides the branch: only one runs
            acc = x
        else:
            acc = acc + y
    return acc


def even_iterations(x: Real) -> Real:  # expect: x=2
    out = 0.0
    for k in range(4):
        out = out + (x if k % 2 == 0 else 0.0)
    return out


def never_taken(a: Integer) -> Integer:  # expect: a=0
    x = 0
    for i in range(1, 11):  # DiffPrivacyInference's demutation test 03d: i == 0 never holds
        if i == 0:
            x = a
        else:
            a = 2 * a
    return x


def float_equality_stays_undecided(x: Real) -> Real:  # expect: x=5
    if 0.1 + 0.2 == 0.3:  # False for floats, True for exact rationals: both branches count
        return 5.0 * x
    return x


def truncated_float_count(x: Real) -> Real:  # expect: x=inf
    s = 0.0
    for _ in range(int(3.0 - 1e-17)):  # 3 in Python, 2.999... exactly: the count is unknown
        s = s + x
    return s


def store_into_the_iterated_vector(v: MetricVector[L1, Real]) -> Priv[Real]:  # expect: v=(len(v)*(len(v)**(len(v) - 1) + 1), 0); accounting=basic
    # later entries become this one: it is released again, every iteration pays (truth
    # len(v)); each element is read from w as the stores left it, and a store adds its
    # value's distance without subtracting the part it overwrites (R-loop-live)
    out = 0.0
    w = np.clip(v, 0.0, 1.0)
    for e in w:
        out = out + laplace_mechanism(1.0, 1.0, e)
        w[1:] = e
    return out


def store_through_a_view_of_the_rows(m: MetricMatrix[L1, Real]) -> Priv[Real]:  # expect: m=(rows(m)*(2**(rows(m) - 1) + 1), 0); accounting=basic
    # truth 2: w is carried as the stores leave it, each store adding the row it copies
    out = 0.0
    w = np.clip(m, 0.0, 1.0)
    for i in range(rows(m)):
        out = out + laplace_mechanism(1.0, 1.0, np.sum(w[i]))
        later = w[1]
        later[:] = w[0]  # a view made in the body: row 0 is read again
    return out


def released_by_a_generator(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: m=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return sum(laplace_mechanism(1.0, eps, float(np.clip(r[0], 0.0, 1.0))) for r in m)


# A name i rebound inside the body (a comprehension's target, a closure's parameter) is
# another index: v[i] there is not this iteration's own entry (it was 2, truth len(v) + 1).
def index_rebound_by_a_comprehension(v: MetricVector[L1, Real]) -> Real:  # expect: v=len(v) + 1
    s = 0.0
    for i in range(len(v)):
        s = s + v[i] + sum([v[i] for i in range(-1, 0)])
    return s


def index_named_by_a_closure(v: MetricVector[L1, Real]) -> Real:  # expect: v=len(v) + 1
    g = lambda i: v[i]  # noqa: E731
    s = 0.0
    for i in range(len(v)):
        s = s + v[i] + g(0)
    return s


def container_named_by_a_closure(v: MetricVector[L1, Real], w: MetricVector[L1, Real]) -> Real:  # expect: v=1; w=1000*len(v)
    g = lambda i, v: v[i]  # noqa: E731  (its v is another array)
    s = 0.0
    for i in range(len(v)):
        s = s + v[i] + 1000.0 * g(i, w)
    return s
