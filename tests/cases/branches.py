"""Branches: max of the branches, unbounded in a sensitive condition.

Correction: the Julia tool sums the branches (sound but loose).
"""

from dpsens import Data, Integer, Real, Static


def static_condition(x: Real, y: Real, c: Static[float]) -> Real:  # expect: x=2; y=1; c=static
    if c > 0:
        z = 2 * x
    else:
        z = x + y
    return z


def early_return(x: Real, y: Real, c: Static[int]) -> Real:  # expect: x=1; y=3; c=static
    if c > 2:
        return x
    return 3 * y


def elif_chain(x: Real, c: Static[int]) -> Real:  # expect: x=5; c=static
    if c == 0:
        return x
    elif c == 1:
        return 5 * x
    else:
        return 2 * x


def sensitive_condition(x: Real, y: Real) -> Real:  # expect: x=inf; y=2
    if x > 0:
        return y
    return 2 * y


def conditional_expression(x: Real, y: Real, b: Data) -> Real:  # expect: x=1; y=1; b=inf
    return x if b > 0.5 else y


def one_sided(x: Real, c: Static[int]) -> Real:  # expect: x=3; c=static
    z = x
    if c > 0:
        z = 3 * x
    return z


def nested(x: Real, a: Static[int], b: Static[int]) -> Real:  # expect: x=4; a=static; b=static
    if a > 0:
        if b > 0:
            return 4 * x
        return 2 * x
    return x


# R-if-public-arms: both arms public numbers p, q: the result moves by |p - q| where the
# condition flips, which a discrete input does only by changing (at least 1 away).
def indicator(x: Data) -> Real:  # expect: x=1
    return 1.0 if x > 0 else 0.0


def indicator_statement(x: Data) -> Real:  # expect: x=1
    if x > 0:
        return 1.0
    return 0.0


def scaled_indicator(i: Integer, c: Static[float]) -> Real:  # expect: i=abs(c - 2); c=static
    y = 2.0
    if i > 3:
        y = c
    return y


def indicator_of_a_real(x: Real) -> Real:  # expect: x=inf
    return 1.0 if x > 0 else 0.0


def one_arm_sensitive(x: Data, y: Real) -> Real:  # expect: x=inf; y=1
    return y if x > 0 else 0.0


# Arms equal as reals but not as floats: s * 0.1 and s / 10 round differently (at s = 3
# the result below is 5.55 or 0). The gap counts how far rounding may move each arm.
def rounded_arms(x: Data, s: Static[float]) -> Real:  # expect: x=2.79*abs(s); s=static
    y = s * 0.1 if x > 0 else s / 10
    return (y - s / 10) * 1e17


def big_integer_as_a_float(x: Data) -> Real:  # expect: x=2.01762
    y = float(2 ** 53 + 1) if x > 0 else 2 ** 53 + 1
    return y - 2 ** 53
