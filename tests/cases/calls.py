"""Calls: Σᵢ sᵢ·Γ(argᵢ) with static arguments substituted; closures at their call site."""

import numpy as np

import dpsens as dp
from dpsens import L1, L2, L_inf, MetricVector, Real, Static


def scale(x: Real, c: Static[float]) -> Real:  # expect: x=abs(c); c=static
    return c * x


def caller(a: Real, b: Real) -> Real:  # expect: a=3; b=1/2
    return scale(a, 3) + scale(b, 0.5)


def static_through(a: Real, k: Static[float]) -> Real:  # expect: a=2*abs(k); k=static
    return scale(a, 2 * k)


def vector_sum(v: MetricVector[L1, Real]) -> Real:  # expect: v=1
    return dp.fold(lambda acc, e: acc + e, 0.0, v)


def dimension_through(w: MetricVector[L2, Real]) -> Real:  # expect: w=sqrt(len(w))
    return vector_sum(w)


def pair(x: Real, y: Real) -> tuple[Real, Real]:  # expect: x=2; y=1; returns=tuple[Real, Real]
    return (2 * x, y)


def unpack(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    a, b = pair(x, y)
    return a + b


def swapped(x: Real, y: Real) -> Real:  # expect: x=2; y=2
    a, b = pair(y, x)
    return a + 2 * b


def nested(x: Real, c: Static[float]) -> Real:  # expect: x=3*abs(c) + 2; c=static
    def inner(a):
        return a * c + x
    return inner(x) + inner(2 * x)


def with_lambda(x: Real) -> Real:  # expect: x=6
    twice = lambda a: 2 * a
    return twice(twice(x)) + twice(x)


def keywords(x: Real) -> Real:  # expect: x=5
    return scale(c=5, x=x)


def recursive(x: Real, n: Static[int]) -> Real:  # expect: x=inf; n=static
    return recursive(x, n - 1)  # E: DPS204


def recursive_lambda(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf; returns=unknown
    g = lambda t: y
    g = lambda t: g(t) + y  # E: DPS204
    return g(x)


def mutually_recursive_lambdas(x: Real) -> Real:  # expect: x=inf; returns=unknown
    f = lambda t: 0.0
    g = lambda t: f(t)  # E: DPS204
    f = lambda t: g(t)
    return f(x)


def unknown_function(x: Real) -> Real:  # expect: x=inf; returns=unknown
    return undefined_helper(x)  # E: DPS203


def wrong_arity(x: Real) -> Real:  # expect: x=inf; returns=unknown
    return scale(x)  # E: DPS303


def higher_order(f: dp.PrivacyFunction, x: Real) -> Real:  # expect: x=0; f=static
    return 1.0


# A tuple accumulator: each component is 1-sensitive in its own part, so f is 1 in the
# tuple (its distance sums the parts'), not 2; the fold grew as 2^n (6*2**(len(v) - 1)).
# The unpacked parts each carry the whole fold's bound (3), hence 6 for their sum.
def running_pair_by_fold(v: MetricVector[L1, Real]) -> Real:  # expect: v=6
    total, scaled = dp.fold(lambda acc, e: (acc[0] + e, acc[1] + 2 * e), (0.0, 0.0), v)
    return total + scaled


def pair_that_swaps_and_doubles(v: MetricVector[L1, Real]) -> Real:  # expect: v=2*2**(len(v) - 1)
    # (a, b) -> (2b + e, a): a part has slope 2, so the tuple may double each step (sound;
    # the truth grows as 2^(len(v)/2))
    total, other = dp.fold(lambda acc, e: (2 * acc[1] + e, acc[0]), (0.0, 0.0), v)
    return total + other


# R-fold-extreme: a running maximum of f(e) moves by at most the largest move of a term:
# 1 over an (L_inf, Real) vector (the general rule's n), its captures once.
def running_max_by_fold(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=1
    return dp.fold(lambda acc, e: max(acc, e), -100.0, v)


def running_min_of_doubles(v: MetricVector[L_inf, Real], x: Real) -> Real:  # expect: v=2; x=1
    return dp.fold(lambda best, e: min(2 * e + x, best), 100.0, v)


def running_max_that_reads_the_accumulator(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v)
    # max(acc, acc + e) is not a running maximum of the elements (each e adds on)
    return dp.fold(lambda acc, e: max(acc, acc + e), 0.0, v)


def running_max_of_a_stateful_term(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v)
    # g keeps a running sum: its terms are prefix sums, not one function of each element
    # (a review's witness: R-fold-extreme claimed 1, the truth is len(v)).
    s = np.zeros(1)

    def g(e: float) -> float:
        s[0] = s[0] + e
        return float(s[0])

    return dp.fold(lambda acc, e: max(acc, g(e)), -1000.0, v)  # E: DPS405


def running_max_by_a_conditional_fold(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=1
    # the conditional expression R-if-extreme reads as max(e, acc), as a loop's body is
    return dp.fold(lambda acc, e: e if e > acc else acc, -100.0, v)
