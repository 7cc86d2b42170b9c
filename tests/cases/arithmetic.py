"""Scalar arithmetic: sums add, static factors scale, products of sensitive values are unbounded."""

import math

import numpy as np

from dpsens import Bool, Data, Integer, L1, MetricVector, Real, Static


def add(x: Real, y: Real) -> Real:  # expect: x=1; y=1; returns=Real
    return x + y


def shared(x: Real) -> Real:  # expect: x=3; returns=Real
    return x + 2 * x


def scale(x: Real, c: Static[float]) -> Real:  # expect: x=abs(c); c=static
    return c * x


def divide(x: Real, c: Static[float]) -> Real:  # expect: x=1/abs(c); c=static
    return x / c


def rational(x: Real) -> Real:  # expect: x=11/2
    return 5.5 * x


def negative(x: Real, y: Real) -> Real:  # expect: x=3; y=1
    return -3 * x - y


def product(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    return x * y


def quotient(x: Real, y: Real) -> Real:  # expect: x=inf; y=inf
    return x / y


def modulo(x: Real) -> Real:  # expect: x=inf
    return x % 2


def square(x: Real) -> Real:  # expect: x=inf
    return x**2


def constant(x: Real) -> Real:  # expect: x=0
    return 4.0


def static_product(x: Real, a: Static[float], b: Static[float]) -> Real:  # expect: x=abs(a*b); a=static; b=static
    return (a * b) * x


def integers(n: Integer, m: Integer) -> Integer:  # expect: n=2; m=1; returns=Integer
    return 2 * n + m


def comparison_of_integers(n: Integer) -> bool:  # expect: n=1; returns=Bool
    return n > 3


def comparison_of_reals(x: Real) -> bool:  # expect: x=inf; returns=Bool
    return x > 3.0


def absolute(x: Real, y: Real) -> Real:  # expect: x=1; y=2
    return abs(x - 2 * y)


def maximum(x: Real, y: Real) -> Real:  # expect: x=2; y=1
    return max(2 * x, x + y)


def augmented(x: Real, y: Real) -> Real:  # expect: x=2; y=3
    z = x
    z += x
    z -= 3 * y
    return z


# --- integer division and remainder by a known integer (docs/rules.md L4) -------------------------


def halves(a: Integer) -> Integer:  # expect: a=1; returns=Integer
    return a // 2


def remainder(a: Integer) -> Integer:  # expect: a=4; returns=Integer
    return a % 5  # 4 and 5 are 1 apart; their remainders 4 apart


def negative_divisor(a: Integer) -> Integer:  # expect: a=2; returns=Integer
    return a % -3


def symbolic_remainder(a: Integer, k: Static[int]) -> Integer:  # expect: a=inf; k=static; returns=Integer
    return a % k


def real_floor_division(x: Real) -> Real:  # expect: x=inf; returns=Real
    return x // 2  # 1.999 and 2.0 are close; their floors are not


# --- library constants are public numbers (they were unresolved names, hence inf) -----------


def scaled_by_pi(x: Real) -> Real:  # expect: x=pi; returns=Real
    return math.pi * x


def shifted_by_e(x: Real) -> Real:  # expect: x=1; returns=Real
    return x + np.e



def larger_of_integer_and_real(a: Integer) -> Real:  # expect: a=1; returns=Real
    # an Integer and a Real of one variable: the larger sensitivity, not the sum (L18: 2)
    return max(a, a + 0.5)


# --- float arithmetic on constants is what Python computes (D44) ------------------------------


CANCELLED = (0.1 + 0.2 - 0.3) * 1e20  # 5551.115123125783 in Python, 0 exactly


def scaled_by_a_cancelled_constant(x: Real) -> Real:  # expect: x=5551115123125783/1000000000000; returns=Real
    return CANCELLED * x


def scaled_by_a_float_remainder(x: Real) -> Real:  # expect: x=624999999999999/6250000000000; returns=Real
    return (3.0 % 0.1 * 1000.0) * x  # 99.99999999999984, not 0


def scaled_by_a_third(x: Real) -> Real:  # expect: x=1/3; returns=Real
    return (1 / 3) * x  # the float Python gives is the nearest to 1/3: kept exact


# --- a Static[int] argument must be a whole number (D44) -----------------------------------


def floor_of_scaled(a: Integer, c: Static[int]) -> Real:  # expect: a=abs(c); c=static; returns=Real
    return float((a * c) // 1)


def floor_with_a_fraction(a: Integer) -> Real:  # expect: a=inf; returns=Real
    return floor_of_scaled(a, 0.5)  # E: DPS301, DPS305


def floor_with_a_whole_number(a: Integer) -> Real:  # expect: a=3; returns=Real
    return floor_of_scaled(a, 3)


# bool(x) is x != 0: integers, bools and Data are at least 1 apart when they differ.
def truth_of_data(x: Data) -> Bool:  # expect: x=1
    return bool(x)


def truth_of_integer(i: Integer) -> Real:  # expect: i=1
    return float(bool(i))


def truth_of_real(x: Real) -> Bool:  # expect: x=inf
    return bool(x)


def truth_of_static(k: Static[int], x: Real) -> Real:  # expect: k=static; x=1
    return x * float(bool(k))


def truth_of_vector(v: MetricVector[L1, Real]) -> Bool:  # expect: v=inf; returns=unknown
    return bool(v)  # E: DPS301


# --- float arithmetic on static symbols and at call sites (D46) ------------------------------


def scaled_by_a_cancelling_static(x: Real, c: Static[float]) -> Real:  # expect: x=38900*abs(c) + abs(100000000000000000000*c - 10000000000000000000) + 19450; c=static
    return x * ((c + 0.2 - 0.3) * 1e20)  # at c = 0.1: 5551.1 in Python, 0 exactly


def cancelling_static_at_a_tenth(x: Real) -> Real:  # expect: x=23895.2
    return scaled_by_a_cancelling_static(x, 0.1)  # truth 5551.1


def static_float_remainder(x: Real, c: Static[float]) -> Real:  # expect: x=0.1; c=static
    return x * (c % 0.1)


def static_float_remainder_at_three_tenths(x: Real) -> Real:  # expect: x=0.1
    return static_float_remainder(x, 0.3)  # 0.3 % 0.1 is 0.09999999999999998, not 0


def static_integer_through_floats(x: Real, k: Static[int]) -> Real:  # expect: x=8.9e-16*abs(k) + 8.9; k=static
    return x * ((k + 1e16) - 1e16 - k)


def static_integer_through_floats_at_one(x: Real) -> Real:  # expect: x=8.9
    return static_integer_through_floats(x, 1)  # 1e16 + 1 is 1e16: truth 1


def static_shift_cancelled(x: Real, c: Static[float]) -> Real:  # expect: x=100000*abs(c) + 10000; c=static
    return x * (((c + 0.1) - c - 0.1) * 1e20)  # 2775.6 at c = 0.2


def static_root_squared(x: Real, c: Static[float]) -> Real:  # expect: x=55600*abs(sqrt(c))**2 + 55600*abs(c); c=static
    return x * ((np.sqrt(c) * np.sqrt(c) - c) * 1e20)  # 44408.9 at c = 2


def length_tenths(x: Real, v: MetricVector[L1, Real]) -> Real:  # expect: x=7780*len(v); v=0
    return x * ((len(v) * 0.1 - len(v) / 10) * 1e20)  # 5551.1 at len(v) = 3


def static_plus_a_tenth(x: Real, c: Static[float]) -> Real:  # expect: x=1.67e-16*abs(c) + abs(c + 1/10) + 1.67e-17; c=static
    return (c + 0.1) * x  # 0.1 is not 1/10: near c = -0.1 the float is not c + 1/10


def static_plus_one(x: Real, c: Static[float]) -> Real:  # expect: x=abs(c + 1); c=static
    return (c + 1.0) * x  # both operands are their floats: one rounding, kept exact


def static_plus_one_at_a_computed_float(x: Real) -> Real:  # expect: x=13/10
    return static_plus_one(x, 0.1 + 0.2)  # 1.3000000000000000444: within 1e-12


def divided_by_a_shifted_integer(x: Real, k: Static[int]) -> Real:  # expect: x=1/abs(k + 1/2); k=static
    return x / (k + 0.5)


def divided_by_a_cancelled_static(x: Real, c: Static[float]) -> Real:  # expect: x=inf; c=static
    return x / ((c + 0.1) - c)  # E: DPS305


def tenth_of_a_static(x: Real, c: Static[float]) -> Real:  # expect: x=inf; c=static
    return scaled_by_a_cancelling_static(x, c * 0.1)  # E: DPS305


def divided_by_a_long_fraction(x: Real) -> Real:  # expect: x=1.00001
    # (1 + 1e-200)² is kept exact (Python's float, 1.0, agrees with it), a fraction too
    # long to print, so it is rounded up; a divisor rounded up made x / d 0.99999 (D127).
    a = 1.0 + 1e-200
    d = a * a
    return x / d
