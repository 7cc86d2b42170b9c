"""Lists that grow: append, extend, +=, concatenation, repetition, and lists of unknown length
(R-list: a list's distance is the sum of its elements' distances, as a tuple's)."""

import numpy as np

from dpsens import (L1, L_inf, Data, Integer, MetricMatrix, MetricVector, Priv, Real, Static, above_threshold,
                    count, laplace_mechanism)


def appended_in_a_loop(x: Real, y: Real, k: Static[int]) -> list[Real]:  # expect: x=1; y=k; k=static; assumes=k >= 0
    out = [x]
    for _ in range(k):
        out.append(y)
    return out


def sum_of_appended(x: Real, y: Real, k: Static[int]) -> Real:  # expect: x=1; y=2*k; k=static; assumes=k >= 0
    out = [x]
    for _ in range(k):
        out.append(2 * y)
    return sum(out)


def max_of_appended(x: Real, y: Real, k: Static[int]) -> Real:  # expect: x=1; y=k; k=static; assumes=k >= 0
    out = []
    for _ in range(k):
        out.append(y)
    out.append(x)
    return max(out)


def iterated_list(x: Real, y: Real, k: Static[int]) -> Real:  # expect: x=3; y=3*k + 3; k=static; assumes=k >= 0
    out = [x, y]
    for _ in range(k):
        out.append(y)
    total = 0.0
    for v in out:
        total = total + 3 * v
    return total


def element_of_a_grown_list(x: Real, y: Real, k: Static[int]) -> Real:  # expect: x=1; y=k; k=static; assumes=k >= 0
    out = [x]
    for _ in range(k):
        out.append(y)
    return out[len(out) - 1]


def appended_straight(x: Real, y: Real) -> Real:  # expect: x=0; y=1
    out = [x]
    out.append(y)
    return out[1]


def extended(x: Real, y: Real) -> Real:  # expect: x=1; y=2
    out = [x]
    out.extend([y, y])
    return sum(out)


def augmented(x: Real, y: Real) -> Real:  # expect: x=1; y=2
    out = [x]
    out += [y, y]
    return sum(out)


def concatenated(x: Real, y: Real) -> Real:  # expect: x=0; y=1
    both = [x] + [y]
    return both[1]


def repeated(x: Real, k: Static[int]) -> list[Real]:  # expect: x=max(0, k); k=static
    return [x] * k


def repeated_known(x: Real) -> Real:  # expect: x=3
    return sum([x] * 3)


def stored_at_a_loop_index(v: MetricVector[L1, Real], k: Static[int]) -> list[Real]:  # expect: v=k; k=static; assumes=k >= 0
    out = [0.0] * k
    for i in range(k):
        out[i] = float(np.sum(v))
    return out


def list_parameter(xs: list[Real]) -> Real:  # expect: xs=2
    return sum(xs) + max(xs)


def list_parameter_element(xs: list[Real], y: Real) -> Real:  # expect: xs=1; y=1
    return xs[0] + y


# Appending to a list shared with another name changes both: the other name is unknown.
def appended_through_an_alias(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf; returns=unknown
    out = [x]
    same = out
    out.append(y)  # E: DPS202
    return same[1]


# The caller's list changes: a parameter may not be appended to.
def appended_to_a_parameter(xs: list[Real]) -> Real:  # expect: xs=inf; returns=unknown
    xs.append(1.0)  # E: DPS205
    return sum(xs)


# The number of appends depends on x: so does the list's length.
def length_from_data(x: Real, y: Real) -> Real:  # expect: x=inf; y=1
    out = [y]
    if x > 0:
        out.append(1.0)
    return sum(out)


# Noised values are public: a list of them is released at the mechanisms' cost.
def noisy_answers(v: MetricVector[L1, Real], eps: Static[float], k: Static[int]) -> Priv[list[Real]]:  # expect: v=(eps*k, 0); eps=static; k=static; accounting=basic; assumes=eps > 0, k >= 0
    answers = []
    for _ in range(k):
        answers.append(laplace_mechanism(1, eps, float(np.sum(v))))
    return answers


def noisy_filled(v: MetricVector[L1, Real], eps: Static[float], k: Static[int]) -> Priv[list[Real]]:  # expect: v=(eps*k, 0); eps=static; k=static; accounting=basic; assumes=eps > 0, k >= 0
    answers = [0.0] * k
    for i in range(k):
        answers[i] = laplace_mechanism(1, eps, float(np.sum(v)))
    return answers


# A list comprehension or generator expression with one `for` is the loop building its
# list (it was DPS202 and ∞): its elements are read once each, and its names are its own.
def sum_of_a_generator(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return sum(e for e in v)


def doubled_by_a_comprehension(v: MetricVector[L1, Real]) -> Real:  # expect: v=2
    return sum([2 * e for e in v])


def comprehension_names_are_its_own(x: Real, v: MetricVector[L1, Real]) -> Real:  # expect: x=10; v=1
    e = x
    s = sum(e for e in v)
    return s + 10 * e


def largest_of_a_generator(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return max(e for e in v)


def nested_comprehension(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return sum(a * b for a in v for b in v)  # E: DPS202


def comprehension_holding_an_array(x: Real) -> Real:  # expect: x=inf
    w = np.zeros(3)
    held = [w for _ in range(2)]
    held[0][0] = x
    return float(np.sum(w))


# D71 (found by an adversarial review): a comprehension whose target stores outside it
# (`for c[0] in …`) lost the store (0, truth 100); a generator expression not consumed
# where it is written reads its names later, when it runs (0, truth 100).
def comprehension_storing_outside(x: Real) -> Real:  # expect: x=inf; returns=unknown
    c = np.zeros(2)
    _ = [0.0 for c[0] in [100.0 * x]]  # E: DPS202
    return float(np.sum(c))


def generator_run_later(x: Real) -> Real:  # expect: x=inf; returns=unknown
    y = 0.0
    g = (y for _ in range(1))  # E: DPS202
    y = 100.0 * x
    return sum(g)


# D72: the length of a list whose appends depend on data is not public (it was 0, truth ∞).
def length_of_a_filtered_list(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    return float(len([e for e in v if e > 0]))


def loop_over_a_filtered_list(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    kept = [e for e in v if e > 0]
    s = 0.0
    for _ in kept:
        s = s + 1000.0
    return s


# D73: a callee's list[T] parameter compares lists of one length, so a list whose length
# depends on data passes its ∞ to the call (count_of(filtered) was 0, truth ∞).
def count_of(xs: list[Real]) -> Real:  # expect: xs=0
    return float(len(xs))


def count_of_a_filtered_list(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    kept = [e for e in v if e > 0]
    return count_of(kept)


# D74: Python's max/min of two tuples or lists returns one of them whole, chosen by
# comparing them entry by entry: it was taken as their concatenation (0, truth ∞).
def larger_of_two_lists(x: Real) -> Real:  # expect: x=inf
    kept = max([x], [0.0, 0.0])
    return float(len(kept))


def larger_of_two_tuples(x: Real) -> Real:  # expect: x=inf
    t = max((x, 0.0), (0.0, 1000.0))
    return t[1]


def queries_built_by_a_comprehension(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Integer]:  # expect: data=(inf, inf); eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    qs = [(lambda d: count(lambda r: r[0] > 1.0, d)) for k in range(3)]  # E: DPS202
    return above_threshold(qs, eps, data, 10.0)  # E: DPS203, DPS404


# A filtered comprehension's list holds numbers of xs, not xs: building it changes
# nothing of xs (it was DPS205 "xs is mutated in place", and xs and y inf).
def filtered_then_the_input(xs: list[Real], y: Real) -> list[Real]:  # expect: xs=1; y=0
    kept = [e for e in xs if e > y]
    return xs


# Three or more arguments: Python's max and min of their tuple, per variable the larger
# sensitivity of the values (2 in b through 2.0 * b), then the difference adds them.
def spread_of_three(a: Real, b: Real, c: Real) -> Real:  # expect: a=2; b=3; c=2
    return max(a, 2.0 * b, c) - min(a, b, c, 5.0)


# sum(xs, start) is start + sum(xs): the start's distance is added (also as start=).
def summed_from_a_start(xs: list[Real], y: Real) -> Real:  # expect: xs=1; y=3
    return sum(xs, 3 * y)


def summed_from_a_keyword_start(xs: list[Real], y: Real) -> Real:  # expect: xs=2; y=1
    return sum(xs + xs, start=y)


# review35: released values appended in a loop, then made an array: a public vector of a
# length no rule needs (it was DPS301, an error that failed the run, with ε right).
def released_rows_as_an_array(data: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: data=(1, 0); accounting=sequential
    out = []
    for r in data:
        out.append(laplace_mechanism(1.0, 1.0, float(np.clip(r[0], 0.0, 1.0))))
    return np.array(out)


# A list of values that are not released stays refused: its length is not known.
def sensitive_list_as_an_array(xs: list[Real]) -> Real:  # expect: xs=inf; returns=unknown
    return float(np.sum(np.array(xs)))  # E: DPS301
