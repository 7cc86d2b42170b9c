"""R-if-counted: branches on discrete data that only add public amounts (docs/rules.md).

Where the condition flips, the outcomes differ by the public difference of
the amounts, and a discrete input that changes is at least 1 away.
"""

import numpy as np

from dpsens import L1, L_inf, Data, Integer, MetricMatrix, MetricVector, Priv, Real, Static, laplace_mechanism


def count_rows_above(d: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: d=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    counter = 0
    for r in d:
        if r[0] > 0.5:
            counter = counter + 1
    return laplace_mechanism(1.0, eps, counter)


def score_entries(v: MetricVector[L1, Data]) -> Real:  # expect: v=3
    total = 0.0
    for e in v:
        if e > 3.0:
            total += 2.0
        else:
            total -= 1.0
    return total


def step_integer(k: Integer) -> Real:  # expect: k=1
    out = 0.0
    if k > 0:
        out += 1.0
    return out


def two_counters(k: Integer, c: Static[float]) -> Real:  # expect: k=abs(c) + 1; c=static
    low, high = 0.0, 0.0
    if k > 0:
        high = high + c
    else:
        low = 1.0 + low
    return low + high


def step_real(x: Real) -> Real:  # expect: x=inf
    out = 0.0
    if x > 0:  # a real input may change by 1e-9 and flip the branch
        out += 1.0
    return out


def sensitive_amount(k: Integer, y: Real) -> Real:  # expect: k=inf; y=1
    out = 0.0
    if k > 0:
        out += y  # not a public amount: the general rule
    return out


def other_statements(k: Integer) -> Real:  # expect: k=2
    out = 0.0
    if k > 0:
        out += 1.0
        out = 2.0 * out  # not an addition, but out is public 2 or 0 after the branch (R-if-public-arms)
    return out


def fractional_amount_is_real(k: Integer) -> Integer:  # expect: k=inf; returns=Real  # E: DPS104
    u = 0
    if k > 0:
        u += 0.5  # u becomes a float: 0.5 apart, not an Integer at least 1 apart
    return u


# R-if-counted does not take the computed amount; R-if-public-arms takes out's value
# as Python computes it (4.0, tracked since D44, not the exact 3): the gap is 3.
def computed_float_amount(k: Integer) -> Real:  # expect: k=3
    out = 0.0
    if k > 0:
        out += (1e16 + 3.0) - 1e16  # 4.0 in Python, 3 exactly
    else:
        out += 1.0
    return out


def call_in_the_amount(k: Integer) -> Real:  # expect: k=inf
    w = np.zeros(3)

    def bump() -> float:
        w[0] = 5.0
        return 0.0

    u = 0.0
    if k > 0:
        u += 1.0 + bump()  # a call runs only in one branch: the general rule
    return w[0]


# An elif chain is one branch with several paths (D64: was ∞, no diagnostic).
def histogram_bin(d: MetricMatrix[L_inf, Data]) -> Integer:  # expect: d=1
    h1 = 0
    for r in d:
        if r[0] < 1.0:
            pass
        elif r[0] < 2.0:
            h1 += 1
    return h1


def three_bins(d: MetricMatrix[L_inf, Data]) -> tuple[Integer, Integer, Integer]:  # expect: d=3
    h0, h1, h2 = 0, 0, 0
    for r in d:
        if r[0] < 1.0:
            h0 += 1
        elif r[1] < 2.0:
            h1 += 1
        else:
            h2 += 1
    return (h0, h1, h2)


def graded_scores(v: MetricVector[L1, Data], bonus: Static[float]) -> Real:  # expect: v=max(3, abs(bonus), abs(bonus - 3)); bonus=static
    total = 0.0
    for e in v:
        if e > 3.0:
            total += 3.0
        elif e > 1.0:
            total += bonus
    return total


def public_test_inside(d: MetricMatrix[L_inf, Data], k: Static[int]) -> Integer:  # expect: d=2; k=static
    n = 0
    for r in d:
        if r[0] > 0.5:
            n += 1
        elif k > 2:
            n -= 1
    return n


def real_test_inside(k: Integer, x: Real) -> Integer:  # expect: k=1; x=inf
    n = 0
    if k > 0:
        n += 1
    elif x > 0.5:
        n += 1
    return n  # R-if (inf); n lies in [0, 1], so k, discrete, moves it by at most 1


def effect_in_the_nested_test(k: Integer, v: MetricVector[L1, Real]) -> Integer:  # expect: k=2; v=inf
    n = 0
    if k > 0:
        n += 1
    elif np.sum(v) > 0.5:
        n += 2
    return n  # R-if (inf); n lies in [0, 2], so k, discrete, moves it by at most 2


# R-if-counted-bounded: amounts that are not public but lie in a known interval (a
# clipped entry of the row the test reads): a flip moves the sum by at most the width of
# the hull of what the paths add. Conditional sums were inf.
def conditional_clipped_sum(X: MetricMatrix[L_inf, Data]) -> Real:  # expect: X=1
    total = 0.0
    for row in X:
        if row[0] > 0.5:
            total += np.clip(row[1], 0.0, 1.0)
    return total


def released_conditional_sum(X: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: X=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    total = 0.0
    for row in X:
        if row[0] > 0.5:
            total += np.clip(row[1], 0.0, 1.0)
    return laplace_mechanism(1.0, eps, total)


def two_conditional_sums(X: MetricMatrix[L_inf, Data]) -> Real:  # expect: X=3
    a = 0.0
    b = 0.0
    for row in X:
        if row[0] > 0.5:
            a += np.clip(row[1], 0.0, 1.0)
        else:
            b += np.clip(row[1], 0.0, 2.0)
    return a + b  # 1 + 2 (truth 2: a row adds to one of them)


def subtracted_or_added(v: MetricVector[L_inf, Data]) -> Real:  # expect: v=3
    total = 0.0
    if v[0] > 0.5:
        total -= np.clip(v[1], 0.0, 1.0)
    else:
        total += np.clip(v[2], 0.0, 2.0)
    return total  # from -1 to 2: exact


def real_in_the_amount(X: MetricMatrix[L_inf, Data], y: Real) -> Real:  # expect: X=1; y=rows(X)
    total = 0.0
    for row in X:
        if row[0] > 0.5:
            total += np.clip(y, 0.0, 1.0)  # y is in no test: every row's amount moves
    return total


def bounded_amount_on_a_real_test(x: Real) -> Real:  # expect: x=inf
    total = 0.0
    if x > 0.5:
        total += np.clip(x, 0.0, 1.0)
    return total


# R-if-bounded-arms: the conditional expression of two bounded numbers.
def conditional_clipped_choice(X: MetricMatrix[L_inf, Data]) -> Real:  # expect: X=1
    total = 0.0
    for row in X:
        total += np.clip(row[1], 0.0, 1.0) if row[0] > 0.5 else 0.0
    return total  # the value lies in [0, 1]: R-range caps the row at 1, exact


def counted_or_kept(d: MetricMatrix[L_inf, Data]) -> Integer:  # expect: d=1; returns=Integer
    c = 0
    for r in d:  # the Julia tool's issue 174 (its else branch clones the counter): was inf
        if r[0] > 0:
            c = c + 1
        else:
            c = c
    return c
