"""Exact discrete samplers (Canonne-Kamath-Steinke 2020) and the power-of-two grid.

Why: Mironov (CCS 2012) showed that textbook floating-point Laplace noise
(``-b*log(U)``) leaks the input through the pattern of representable outputs.
Following Canonne, Kamath and Steinke, "The Discrete Gaussian for Differential
Privacy" (NeurIPS 2020, Algorithms 1-3) and OpenDP, every sampler here uses
only exact integer/rational arithmetic on uniform integers:

* ``bernoulli_exp(n, d)``: Bernoulli(exp(-n/d)) (CKS Alg. 1);
* ``discrete_laplace(t, s)``: P[Z = z] proportional to exp(-|z| s / t) on the integers (CKS Alg. 2);
* ``discrete_gaussian(a, b)``: P[Z = z] proportional to exp(-z^2 / (2 a/b)) (CKS Alg. 3).

Real values are mapped to integers on a grid of granularity 2**k (``Grid``):
a value is rounded to the nearest grid point, integer noise is added, and
the exact rational result is rounded to the nearest float.  The last step is
post-processing of a DP output, so it costs no privacy.  The first step may
move each coordinate by up to one grid step, which the mechanisms pay for by
calibrating the noise to ``s + (coordinates) * 2**k`` instead of ``s``.
"""

from __future__ import annotations

import math
from fractions import Fraction

from dpsens.runtime.rng import RandomSource

__all__ = [
    "bernoulli", "bernoulli_exp", "discrete_laplace", "discrete_gaussian",
    "Grid", "GRID_BITS",
]

# The grid is 2**GRID_BITS times finer than the sensitivity: the rounding of
# the input enlarges the calibrated sensitivity by a relative 2**-GRID_BITS.
GRID_BITS = 40


def bernoulli(n: int, d: int, src: RandomSource) -> bool:
    """Bernoulli(n/d) for integers 0 <= n <= d, d >= 1."""
    return src.randbelow(d) < n


def _bernoulli_exp_unit(n: int, d: int, src: RandomSource) -> bool:
    """Bernoulli(exp(-n/d)) for 0 <= n/d <= 1 (CKS Alg. 1, first case)."""
    k = 1
    while src.randbelow(d * k) < n:  # A ~ Bernoulli(gamma / k); stop at the first A = 0
        k += 1
    return k % 2 == 1


def bernoulli_exp(n: int, d: int, src: RandomSource) -> bool:
    """Bernoulli(exp(-n/d)) for integers n >= 0, d >= 1 (CKS Alg. 1)."""
    whole, rest = divmod(n, d)
    for _ in range(whole):  # exp(-gamma) = exp(-1)**floor(gamma) * exp(-frac(gamma))
        if not _bernoulli_exp_unit(1, 1, src):
            return False
    return _bernoulli_exp_unit(rest, d, src)


def discrete_laplace(t: int, s: int, src: RandomSource) -> int:
    """Discrete Laplace with scale t/s: P[z] proportional to exp(-|z| s/t) (CKS Alg. 2)."""
    while True:
        u = src.randbelow(t)
        if not bernoulli_exp(u, t, src):
            continue
        v = 0
        while bernoulli_exp(1, 1, src):
            v += 1
        y = (u + t * v) // s  # u + t*v is geometric with ratio exp(-1/t)
        negative = src.randbelow(2) == 1
        if negative and y == 0:  # reject -0 so that 0 is not counted twice
            continue
        return -y if negative else y


def discrete_gaussian(a: int, b: int, src: RandomSource) -> int:
    """Discrete Gaussian with variance parameter sigma^2 = a/b on the integers (CKS Alg. 3)."""
    t = math.isqrt(a // b) + 1  # floor(sigma) + 1
    while True:
        y = discrete_laplace(t, 1, src)
        # accept with probability exp(-(|y| - sigma^2/t)^2 / (2 sigma^2)), as one fraction
        num = (abs(y) * b * t - a) ** 2
        den = 2 * a * b * t * t
        if bernoulli_exp(num, den, src):
            return y


class Grid:
    """The grid of multiples of 2**exponent used to carry reals into the integer samplers."""

    def __init__(self, exponent: int) -> None:
        self.exponent = exponent
        self.step = Fraction(2) ** exponent

    @classmethod
    def for_sensitivity(cls, s: float, coords: int = 1) -> Grid:
        """A grid fine enough that rounding `coords` values moves them by <= 2**-GRID_BITS * s in total."""
        _, e = math.frexp(s)  # s = m * 2**e with 0.5 <= m < 1, so 2**(e-1) <= s
        return cls(e - 1 - GRID_BITS - (coords - 1).bit_length())

    def to_units(self, x: float) -> int:
        """The nearest grid point to x, as an integer number of steps."""
        return round(Fraction(x) / self.step)

    def to_float(self, units: int) -> float:
        """The float nearest to units * 2**exponent (correctly rounded)."""
        return float(units * self.step)

    def units(self, value: float | Fraction) -> Fraction:
        """value / 2**exponent as an exact fraction."""
        return Fraction(value) / self.step
