"""A thin facade over sympy for non-negative sensitivity expressions.

Sensitivities are sympy expressions over static parameter symbols (real) and
dimension symbols such as ``rows(x)`` (positive integers).  The helpers here
keep them small and normalized: anything mentioning infinity *is* infinity
(sensitivities are non-negative, so oo absorbs), and 0 times anything is 0
(a variable the value does not depend on costs nothing, even under oo).
"""

from __future__ import annotations

import math
from functools import lru_cache

import sympy as sp
from sympy.printing.str import StrPrinter

Expr = sp.Expr
ZERO: sp.Expr = sp.Integer(0)
ONE: sp.Expr = sp.Integer(1)
INF: sp.Expr = sp.oo
PI: sp.Expr = sp.pi
EULER: sp.Expr = sp.E
TRUE = sp.true
FALSE = sp.false

# The same few expressions recur in every function of a codebase (2, abs(c), rows(x)),
# and sympy's Max, simplify and printer are slow: the pure helpers below remember
# their results. sympy expressions hash and compare structurally (2.0 != 2 since 1.13).
remembered = lru_cache(maxsize=8192)
# sympy's arithmetic goes through several layers (sympify, its own cache, flatten) even
# for the few dozen distinct operands a codebase has (18,000 calls on benchmark A, 140
# distinct): remembered by type too (an int operand and a sympy Integer stay apart).
remembered_typed = lru_cache(maxsize=8192, typed=True)


@lru_cache(maxsize=None)
def static_symbol(name: str) -> sp.Symbol:
    """The symbol standing for a static (public) parameter."""
    return sp.Symbol(name, real=True)


@lru_cache(maxsize=None)
def dimension(kind: str, variable: str) -> sp.Symbol:
    """``rows(x)``, ``cols(x)`` or ``len(x)``: a positive integer symbol."""
    return sp.Symbol(f"{kind}({variable})", integer=True, positive=True)


def number(value: float | int) -> sp.Expr:
    """An exact sympy number: ints stay ints, floats become exact rationals."""
    if isinstance(value, bool):
        return sp.Integer(int(value))
    if isinstance(value, int):
        return sp.Integer(value)
    value = float(value)  # numpy scalars print as np.float64(...)
    if value != value:
        return INF  # NaN: nothing is known
    if value in (float("inf"), float("-inf")):
        return INF if value > 0 else -INF
    return _exact(value)


@remembered
def _exact(value: float) -> sp.Expr:
    """The shortest decimal that round-trips (repr) as an exact rational: 0.1 -> 1/10."""
    return sp.Rational(repr(value))


def decimal_up(value: float, digits: int = 6) -> sp.Expr:
    """A float result of a numeric accountant, rounded up to a few significant digits.

    Rounding up keeps the reported bound sound; the decimal form tells the
    reader it is a numeric result, unlike exact rationals such as 11/2.
    """
    import math
    from decimal import ROUND_CEILING, Context

    if value != value or math.isinf(value):
        return INF
    rounded = Context(prec=digits, rounding=ROUND_CEILING).create_decimal_from_float(value)
    return sp.Float(str(rounded), digits)


def is_zero(e: sp.Expr) -> bool:
    """Structurally zero."""
    # sympy's zero and oo are singletons (Float(0) != 0 since 1.13): identity is
    # equality here, and sympy's __eq__ costs a microsecond on every hot path.
    return e is ZERO or (type(e) is int and e == 0)


def is_inf(e: sp.Expr) -> bool:
    """Structurally infinite."""
    return e is INF


def _normal(e: sp.Expr) -> sp.Expr:
    if e.has(sp.oo, sp.zoo, sp.nan, sp.I):
        return INF  # a complex value (sqrt of a negative) has no place in a bound
    if e.is_Rational and max(abs(e.p), e.q).bit_length() > 1000:
        return _rounded_up(e)  # too long to print: a short upper bound
    return e


# A rounded-up bound goes on into more arithmetic (a loop's next 1000 products), which
# sympy does in its Float's precision, rounding to nearest: with 120 bits each step errs by
# at most 2**-120 relatively, far below the 2**-40 added to the bound first, so no chain of
# fewer than 2**79 steps brings it below the exact value. At 6 digits (as it was), 1000
# products of 1.0003 fell 7e-5 below the truth.
_ROUNDED_BITS = 120
_MARGIN = 1 + 2.0 ** -40


def _rounded_up(e: sp.Rational) -> sp.Expr:
    """A short number ≥ a non-negative e: TINY below it, a 120-bit float above, else ∞."""
    if e < 0:
        return INF
    if e <= TINY:
        return TINY
    approx = float(e)  # finite here: e is between 2**-1000 and a float's range, or inf
    if approx == math.inf:
        return INF
    return sp.Float(sp.Rational(math.nextafter(approx, math.inf) * _MARGIN), precision=_ROUNDED_BITS)


def add(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """a + b of non-negative sensitivities."""
    if is_zero(a):
        return b
    if is_zero(b):
        return a
    return _sum(a, b)


def mul(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """a * b with 0 * oo = 0."""
    if is_zero(a) or is_zero(b):
        return ZERO
    if a == ONE:
        return b
    if b == ONE:
        return a
    return _product(a, b)


def div(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """a / b for a positive divisor (b = 0 gives oo unless a = 0)."""
    if is_zero(a):
        return ZERO
    if is_zero(b):
        return INF
    return _quotient(a, b)


@remembered_typed
def _sum(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """a + b, normalized."""
    return _normal(a + b)


@remembered_typed
def _product(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """a * b, normalized."""
    return _normal(a * b)


@remembered_typed
def _quotient(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """a / b, normalized."""
    return _normal(a / b)


@remembered
def smax(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """max(a, b), decided where sympy can, kept symbolic otherwise."""
    if a == b or is_zero(b):
        return a
    if is_zero(a):
        return b
    if is_inf(a) or is_inf(b):
        return INF
    if a.is_Number and b.is_Number:
        return a if a >= b else b
    return _normal(sp.Max(a, b))


def smin(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """min(a, b) of non-negative expressions, decided where sympy can, kept symbolic
    otherwise."""
    if a == b or is_inf(b):
        return a
    if is_inf(a):
        return b
    if is_zero(a) or is_zero(b):
        return ZERO
    if a.is_Number and b.is_Number:
        return a if a <= b else b
    return _normal(sp.Min(a, b))


@remembered
def power(base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """base ** exponent for a non-negative base and a non-negative count."""
    if is_zero(exponent):
        return ONE
    if base == ONE or exponent == ONE:
        return base
    if base.is_number and exponent.is_number and base > 1 and \
            float(exponent) * float(sp.log(base, 2)) > 1000:
        return INF  # an exact 2**(3**20) would never finish; it is beyond any float anyway
    if _vanishing(base, exponent):
        return TINY  # an upper bound: 0.5**(10**12) exactly would never finish either
    return _normal(sp.Pow(base, exponent))


# Coefficients of float rounding (infer/floats.py) are decimals of this precision (in
# digits), shown rounded up to 6 significant digits.
SHOWN_PRECISION = 30
_SHOWN_BITS = sp.Float(1, SHOWN_PRECISION)._prec

TINY: sp.Expr = sp.Float(2.0 ** -1000)  # above every power _vanishing accepts


def _vanishing(base: sp.Expr, exponent: sp.Expr) -> bool:
    """base ** exponent with 0 < base < 1 is below 2**-1000."""
    return bool(base.is_number and exponent.is_number and 0 < base < 1
                and float(exponent) * -float(sp.log(base, 2)) > 1000)


@remembered
def geometric(ratio: sp.Expr, count: sp.Expr) -> sp.Expr:
    """sum_{j<count} ratio**j: count when ratio = 1, (r^k - 1)/(r - 1) otherwise."""
    if ratio == ONE:
        return count
    if is_zero(ratio):
        return ONE if count != ZERO else ZERO
    if is_inf(ratio):
        # sympy folds (oo**k - 1)/(oo - 1) to 0; the sum is 0, 1 or oo for k = 0, 1, more.
        if count.is_number:
            return ZERO if count <= 0 else ONE if count == 1 else INF
        return INF
    if _vanishing(ratio, count):
        return 1 / (1 - ratio)  # the whole infinite sum: an upper bound
    if ratio.is_number:
        # No simplify(): it costs ~20 ms a call and sympy already folds the numbers.
        grown = power(ratio, count)
        return INF if is_inf(grown) else _normal((grown - 1) / (ratio - 1))
    closed = (ratio**count - 1) / (ratio - 1)
    return _normal(sp.Piecewise((count, sp.Eq(ratio, 1)), (closed, True)))


@remembered
def absolute(e: sp.Expr) -> sp.Expr:
    """|e| simplified with the symbols' assumptions (a too long number rounded up)."""
    if not e.is_number and (-e).is_nonnegative:
        e = -e  # sympy keeps abs(-abs(θ)) as abs(abs(θ))
    return _normal(e if not e.is_number and e.is_nonnegative else sp.Abs(e))


def over_absolute(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """a / |b|, rounded up only once divided: |b| rounded up first would make the quotient
    smaller than it is ((1 + 1e-200)² has a 1300-bit denominator; its rounded-up
    1.00001 made x / c 0.99999-sensitive, and a loop of them 4.5e-5: D127)."""
    return div(a, sp.Abs(b))


@remembered
def sqrt(e: sp.Expr) -> sp.Expr:
    """The square root of a non-negative expression."""
    return _normal(sp.sqrt(e))


@remembered
def decide_le(a: sp.Expr, b: sp.Expr) -> bool | None:
    """True/False when a <= b is decided for all symbol values, else None."""
    if a == b or is_zero(a):
        return True
    if is_inf(b):
        return True
    if is_inf(a):
        return False
    if a.is_Number and b.is_Number:
        return bool(a <= b)
    # sympy does not simplify differences with Max: max(x, y) <= b when both are; a <= b
    # when a is at most one of b's arguments (of a Max, or of a sum of non-negative terms).
    # Only for a b known non-negative, as sensitivities are: 0 <= b is taken for granted
    # above, which would make max(0, c) <= c for every c.
    if b.is_nonnegative and isinstance(a, sp.Max) and all(decide_le(arg, b) for arg in a.args):
        return True
    if b.is_nonnegative and (isinstance(b, sp.Max) or isinstance(b, sp.Add) and all(
            t.is_nonnegative for t in b.args)) and any(decide_le(a, arg) for arg in b.args):
        return True
    difference = sp.simplify(b - a)
    if difference.is_nonnegative:
        return True
    if difference.is_negative:
        return False
    return None


def substitute(e: sp.Expr, mapping: dict[sp.Symbol, sp.Expr]) -> sp.Expr:
    """Replace symbols (static parameters, dimensions) by call-site values."""
    if not mapping:
        return e
    return _substituted(e, tuple(mapping.items()))


@remembered
def _substituted(e: sp.Expr, mapping: tuple[tuple[sp.Symbol, sp.Expr], ...]) -> sp.Expr:
    return _normal(replace(e, mapping))


@remembered
def replace(e: sp.Basic, mapping: tuple[tuple[sp.Symbol, sp.Expr], ...]) -> sp.Basic:
    """e with the symbols of the mapping (as pairs, to be remembered) replaced."""
    return e.xreplace(dict(mapping))


class _Printer(StrPrinter):
    """Python syntax: inf, abs, max, min; exact rationals stay 11/2."""

    def _print_Infinity(self, expr: sp.Expr) -> str:
        return "inf"

    def _print_NegativeInfinity(self, expr: sp.Expr) -> str:
        return "-inf"

    def _print_Abs(self, expr: sp.Expr) -> str:
        return f"abs({self._print(expr.args[0])})"

    def _print_Equality(self, expr: sp.Expr) -> str:
        return f"{self._print(expr.lhs)} == {self._print(expr.rhs)}"

    def _print_Float(self, expr: sp.Float) -> str:
        if expr._prec == _SHOWN_BITS and expr > 0:  # a float rounding bound (infer/floats.py)
            return _shown(sp.Rational(expr))
        if expr._prec >= _ROUNDED_BITS and expr > 0:  # a rounded-up bound: 6 digits, up
            rounded = decimal_up(math.nextafter(float(expr), math.inf))
            # (beyond the largest float the bound is ∞: printed as such, not as sympy's oo)
            return "inf" if rounded is INF else str(rounded)
        return str(super()._print_Float(expr))

    def _print_Max(self, expr: sp.Expr) -> str:
        return "max(" + ", ".join(self._print(a) for a in _sorted(expr.args)) + ")"

    def _print_Min(self, expr: sp.Expr) -> str:
        return "min(" + ", ".join(self._print(a) for a in _sorted(expr.args)) + ")"


def _sorted(args: tuple[sp.Expr, ...]) -> list[sp.Expr]:
    return sorted(args, key=sp.default_sort_key)


def _shown(exact: sp.Rational) -> str:
    """A positive bound in at most 6 significant digits: the shortest decimal within a
    relative 1e-12 of it (the margin R-float-static leaves), else rounded up."""
    from decimal import ROUND_CEILING, Context

    low, high = exact * (1 - sp.Rational(1, 10**12)), exact * (1 + sp.Rational(1, 10**12))
    for digits in range(1, 7):
        value = Context(prec=digits, rounding=ROUND_CEILING).divide(int(low.p), int(low.q))
        if digits == 6 or sp.Rational(str(value)) <= high:
            break
    if -5 <= value.adjusted() < 16:
        text = format(value, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    mantissa, _, exponent = format(value, "e").partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


_PRINTER = _Printer({"order": None})


@remembered
def render(e: sp.Expr) -> str:
    """The canonical text of an expression, as shown in reports."""
    return str(_PRINTER.doprint(e))


def parse(text: str, symbols: dict[str, sp.Expr]) -> sp.Expr:
    """Parse a report-syntax expression (stub files) over the given names."""
    namespace: dict[str, object] = {
        "inf": INF, "oo": INF, "sqrt": sp.sqrt, "log": sp.log, "exp": sp.exp,
        "abs": sp.Abs, "max": sp.Max, "min": sp.Min, "pi": sp.pi, "E": sp.E,
    }
    namespace.update(symbols)
    return _normal(sp.sympify(text, locals=namespace, rational=True))
