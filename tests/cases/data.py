"""Data (the discrete metric): every Data -> Data function is 1-sensitive.

Correction: the Julia tool charges c (or 1/c) for c·a on Data, unsound for c < 1.
"""

from dpsens import Data, Real, discrete, undisc


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
