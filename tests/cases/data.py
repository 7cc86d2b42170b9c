"""Data (the discrete metric): every Data -> Data function is 1-sensitive.

Correction: the Julia tool charges c (or 1/c) for c·a on Data, unsound for c < 1.
"""

import numpy as np

from dpsens import L_inf, Data, Integer, MetricMatrix, Real, discrete, undisc


def half(d: Data) -> Data:  # expect: d=1; returns=Data
    return 0.5 * d


def double(d: Data) -> Data:  # expect: d=1; returns=Data
    return 2 * d


def divide(d: Data) -> Data:  # expect: d=1
    return d / 10


def sum_of_data(d: Data, e: Data) -> Data:  # expect: d=1; e=1
    return d + e


def product_of_data(d: Data, e: Data) -> Data:  # expect: d=1; e=1
    return d * e


def capped(d: Data) -> Data:  # expect: d=1
    return d + d + d


def to_data(x: Real) -> Data:  # expect: x=inf; returns=Data
    return discrete(x)


def to_real(d: Data) -> Real:  # expect: d=inf
    return undisc(d)


def float_of_data(d: Data) -> Real:  # expect: d=inf
    return float(d)


def data_predicate(d: Data) -> bool:  # expect: d=1; returns=Bool
    return d > 0.5


def mixed(d: Data, x: Real) -> Data:  # expect: d=1; x=inf
    return d + x


# R-bool: and, or, xor (and *) of truth values move by at most the sum of their
# operands' moves, entrywise: conjunctive counting queries (they were ∞, no diagnostic).
# Masks of columns of one dataset are row-wise (R-rowwise): one changed row moves one
# entry of the conjunction by at most 1 (they were 2).
def conjunction_count(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    return float(np.sum((data[:, 0] > 0.5) & (data[:, 1] < 0.2)))


def product_of_masks(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    return float(np.sum((data[:, 0] > 0.5) * (data[:, 1] < 0.2)))


def either_flag(d: Data, e: Data) -> Real:  # expect: d=3; e=3
    return float((d > 0.5) | (e > 0.5)) * 3


def bitwise_integers(k: Integer, j: Integer) -> Integer:  # expect: k=inf; j=inf
    return k & j


def inverted_flags(i: Integer, j: Integer) -> Real:  # expect: i=inf; j=inf
    return float(~(i > 0) * ~(j > 0))  # ~True is -2: not a truth value
