"""Float rounding of public numbers computed from symbols (docs/rules.md R-float-static).

A public number that a float operation computes from static symbols has an exact
value (sympy, the arithmetic of the reals) and a float that Python holds. They
differ by the roundings of the operations, and by the literals' own rounding
(0.1 is not 1/10). For each such number the analysis keeps a `Rounding`:

    |float − value| ≤ rel · scale,   |value| ≤ scale,

with `rel` a number and `scale` an expression. `tight` says scale is |value|:
then the float is the value up to a relative `rel`. Each operation's float is
the exact result of the operands' floats times (1 + δ), |δ| ≤ u = 2⁻⁵³ (round to
nearest; underflow below 2⁻¹⁰²² and overflow are outside this model, like any
float the sensitivity rules meet, docs/rules.md §18.1):

- a ± b: |fl − (A ± B)| ≤ r_a·S_a + r_b·S_b + u·|â ± b̂| ≤ (max(r_a, r_b)(1 + u) + u)(S_a + S_b);
  if both operands are their floats (r = 0) it is u·|A ± B|: tight. Otherwise
  the scale is S_a + S_b, and the value may be far below it: cancellation.
- a · b: |âb̂ − AB| ≤ (r_a + r_b + r_a r_b)S_aS_b, and u|âb̂| ≤ u(1 + r_a)(1 + r_b)S_aS_b:
  rel (1 + r_a)(1 + r_b)(1 + u) − 1, scale S_aS_b (tight if both are).
- a / b, for a tight b with r_b < 1: |â/b̂ − A/B| ≤ S_a(r_a + r_b)/(|B|(1 − r_b)), and
  u|â/b̂| ≤ uS_a(1 + r_a)/(|B|(1 − r_b)): rel (r_a + r_b + u(1 + r_a))/(1 − r_b).
- A factor ±2^k that is its float multiplies and divides without rounding.

A value is kept as the `exact` value of a Value only when it is tight with
rel ≤ 1e-12 (the same margin arith._as_python_computes leaves for numbers);
otherwise `exact` is None and the bound |value| + rel·scale stands for it, while
the Rounding lets later operations continue (so (c + 0.1) − c − 0.1 ends as
0 ± rel·scale, not as a bound that has lost the cancellation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

import sympy as sp

from dpsens import types as T
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.values import Value

U = Fraction(1, 2**53)  # the unit roundoff of round-to-nearest doubles
TOLERANCE = Fraction(1, 10**12)  # relative: kept as exact (also arith._ROUNDING)
TOLERANCE_EXPR = sp.Rational(TOLERANCE.numerator, TOLERANCE.denominator)
_LIBRARY = {"sqrt": U, "exp": 8 * U, "log": 8 * U,  # numpy's error: correctly rounded, ≤ 4 ulp
            "sign": Fraction(0)}  # exact: -1, 0 or 1 of the float held


@dataclass(frozen=True)
class Rounding:
    """|the float Python holds − value| ≤ rel·scale, with |value| ≤ scale."""

    value: E.Expr
    scale: E.Expr
    rel: Fraction
    tight: bool  # scale is |value|
    whole: bool = False  # float(k) of an integer k: exact below 2**53, else rel u


def _tidy(r: Fraction) -> Fraction:
    """r, or a short number just above it (the bounds compound over many operations)."""
    if r.denominator.bit_length() <= 256:
        return r
    return Fraction(math.nextafter(float(r), math.inf))


def view(value: Value, converted: bool = True) -> Rounding | None:
    """The rounding of a public scalar used as a float operand (None: nothing is known).

    A number's float is known (arith._float), so its rel is exact. A Static[float]
    symbol stands for the float the caller passes: rel 0. A symbolic integer is
    converted to a float, exactly below 2⁵³ only: rel u, unless it is a dimension
    (an array's length is below 2⁵³) or ``converted`` is False (int / int is the
    correctly rounded quotient of the integers).
    """
    if value.rounding is not None:
        return value.rounding
    exact = value.exact
    if exact is None or not C.is_public(value.ctx):
        return None
    if exact.is_number:
        return _number(value)
    if converted and T.scalar_kind_of(value.type) in ("Integer", "Bool") and not _dimension(exact):
        return Rounding(exact, E.absolute(exact), U, True, whole=True)
    return Rounding(exact, E.absolute(exact), Fraction(0), True)


def _dimension(e: E.Expr) -> bool:
    return bool(e.is_Symbol and e.is_integer and e.is_positive)


def _held(value: Value) -> float | None:
    """The finite float Python holds for a known public number, or None."""
    from dpsens.infer.arith import _float

    try:
        held = _float(value)
    except (OverflowError, TypeError, ValueError):
        return None
    return None if held != held or abs(held) == math.inf else held


def _number(value: Value) -> Rounding | None:
    exact = value.exact
    assert exact is not None
    held = _held(value)
    if held is None:
        return None
    if exact == 0 and held != 0:  # not kept as exact by arith (never relative)
        exact = E.number(held)
    return Rounding(exact, E.absolute(exact), _relative(exact, held), True)


@E.remembered
def _relative(exact: E.Expr, held: float) -> Fraction:
    """|held − exact| / |exact|, rounded up (remembered: a few numbers, thousands of asks)."""
    if exact.is_Rational:
        target = Fraction(int(exact.p), int(exact.q))
        difference = abs(Fraction(held) - target)
        if difference == 0:
            return Fraction(0)
        return _tidy(difference / abs(target))
    accurate = sp.N(exact, 40)  # pi, e: far more digits than the float's
    nearest = abs(float((sp.Rational(Fraction(held)) - accurate) / accurate))
    return Fraction(math.nextafter(nearest * (1 + 1e-9), math.inf))


def _small_shift(integer: Rounding, shift: Rounding) -> bool:
    """A converted integer and an exact number below 2**52."""
    v = shift.value
    return integer.whole and shift.rel == 0 and bool(v.is_number) and abs(v) <= 2**52


def _power_of_two(r: Rounding) -> bool:
    """A factor ±2^k that is its own float: products and quotients with it are exact."""
    v = r.value
    if r.rel != 0 or not v.is_Rational or v == 0:
        return False
    p, q = abs(int(v.p)), int(v.q)
    return p & (p - 1) == 0 and q & (q - 1) == 0


def operation(op: str, a: Value, b: Value, value: E.Expr) -> Rounding | None:
    """The rounding of the float ``a op b`` whose exact value is `value` (None: unknown)."""
    integers = op == "/" and all(T.scalar_kind_of(v.type) in ("Integer", "Bool") for v in (a, b))
    ra, rb = view(a, not integers), view(b, not integers)
    if ra is None or rb is None:
        return None
    if op in ("+", "-"):
        if E.is_zero(rb.value) and rb.rel == 0:
            return ra  # x ± 0.0 is x
        if E.is_zero(ra.value) and ra.rel == 0:
            return negated(rb) if op == "-" else rb
        if ra.rel == 0 and rb.rel == 0:
            return Rounding(value, E.absolute(value), U, True)
        if _small_shift(ra, rb) or _small_shift(rb, ra):
            # k ± b: float(k) is k below 2**53; above it |k ± b| ≥ |k|/2, so the
            # conversion's u|k| is at most 2u|k ± b|.
            return Rounding(value, E.absolute(value), _tidy(3 * U * (1 + U)), True)
        scale = E.add(ra.scale, rb.scale)
        tight = E.absolute(value) == scale  # the signs agree: no cancellation
        return Rounding(value, scale, _tidy(max(ra.rel, rb.rel) * (1 + U) + U), tight)
    if op == "*":
        rounding = Fraction(0) if _power_of_two(ra) or _power_of_two(rb) else U
        rel = (1 + ra.rel) * (1 + rb.rel) * (1 + rounding) - 1
        return Rounding(value, E.mul(ra.scale, rb.scale), _tidy(rel), ra.tight and rb.tight)
    if op == "/":
        if not rb.tight or rb.rel >= Fraction(1, 2) or E.is_zero(rb.value):
            return None
        rounding = Fraction(0) if _power_of_two(rb) else U
        rel = (ra.rel + rb.rel + rounding * (1 + ra.rel)) / (1 - rb.rel)
        return Rounding(value, E.over_absolute(ra.scale, rb.value), _tidy(rel), ra.tight)
    if op == "**":
        return _power(ra, rb, value)
    return None  # % and //: see remainder_bound


def _power(base: Rounding, exponent: Rounding, value: E.Expr) -> Rounding | None:
    """a ** b through C's pow (below 1 ulp: 2u).

    A known exponent n: a tight base's (1 + θ)^n with |θ| ≤ r is within
    (1 − r)^−|n| − 1 of 1; a loose base's |â^n − A^n| ≤ n·r(1 + r)^(n−1)·S^n (n natural).
    A symbolic exponent n (an integer, exact below 2**53) of a known base b: unless
    the result over- or underflows (outside the model), |n·ln b| ≤ 1100, so
    |n| ≤ 1100/|ln b| bounds what the base's own rounding compounds to, and the
    exponent's conversion moves the result by a relative e^(1100u) − 1 at most.
    """
    n = exponent.value
    if n.is_Rational and exponent.rel == 0:
        return _known_power(base, Fraction(int(n.p), int(n.q)), value)
    if exponent.rel != 0 and not exponent.whole:
        return None
    converted = Fraction(0) if exponent.rel == 0 else Fraction(2200) * U
    if base.rel == 0 and base.tight:
        return Rounding(value, E.absolute(value), _tidy((1 + 2 * U) * (1 + converted) - 1), True)
    b = base.value
    if not (b.is_number and base.tight and base.rel < Fraction(1, 2)):
        return None
    logarithm = abs(math.log(abs(float(b)))) if b != 0 else math.inf
    if logarithm < 1e-3:  # a base near ±1 could be raised to a huge power in range
        return None
    if base.rel >= Fraction(1, 10**6):
        return None
    reach = math.ceil(1100 / (logarithm * (1 - 1e-6)))
    rel = (1 + 2 * U) * (1 + converted) * (1 + _compounded(base.rel, reach)) - 1
    return Rounding(value, E.absolute(value), _tidy(rel), True)


def _compounded(r: Fraction, n: int) -> Fraction:
    """An upper bound on (1 − r)^−n − 1 for 0 ≤ r < 1/2 (log1p and expm1 are within
    an ulp; the factor 1 + 1e-9 covers them)."""
    if r == 0 or n == 0:
        return Fraction(0)
    grown = math.expm1(-n * math.log1p(-float(r) * (1 + 1e-9)))
    return Fraction(math.nextafter(grown * (1 + 1e-9), math.inf))


def _known_power(base: Rounding, count: Fraction, value: E.Expr) -> Rounding | None:
    if base.tight:
        if base.rel >= Fraction(1, 2) or abs(count) > 1024:
            return None
        grown = (1 + 2 * U) * (1 + _compounded(base.rel, math.ceil(abs(count)))) - 1
        return Rounding(value, E.absolute(value), _tidy(grown), True)
    if count.denominator != 1 or not 0 <= count <= 64:
        return None
    k = int(count)
    rel = k * base.rel * (1 + base.rel) ** max(k - 1, 0) + 2 * U * (1 + base.rel) ** k
    return Rounding(value, E.power(base.scale, E.number(k)), _tidy(rel), False)


def negated(r: Rounding) -> Rounding:
    """-x is exact."""
    return replace(r, value=-r.value)


def remainder_bound(divisor: Value) -> E.Expr | None:
    """|a % b| ≤ |b̂| for floats (the result lies between 0 and the divisor)."""
    return magnitude(divisor)


def magnitude(value: Value) -> E.Expr | None:
    """An upper bound on |the float|: |value| + rel·scale, or the known bound."""
    r = view(value, converted=False)
    if r is None:
        return value.magnitude()
    return E.add(E.absolute(r.value), spread(r))


def spread(r: Rounding) -> E.Expr:
    """rel·scale: how far the float may be from the value."""
    if r.rel == 0:
        return E.ZERO
    return E.mul(coefficient(r.rel), r.scale)


def coefficient(rel: Fraction) -> E.Expr:
    """rel as a short decimal above it (3 significant digits, shown as e.g. 3.34e-16)."""
    from decimal import ROUND_CEILING, Context

    text = str(Context(prec=3, rounding=ROUND_CEILING).divide(rel.numerator, rel.denominator))
    return sp.Float(text, E.SHOWN_PRECISION)


def settle(result_type: T.Type, rounding: Rounding) -> Value:
    """The Value of a computed public number: exact when the float is that value up to
    a relative 1e-12, else only bounded (|value| + rel·scale), with the rounding kept."""
    from dpsens.infer.values import Value

    if rounding.tight and rounding.rel <= TOLERANCE:
        return Value(result_type, C.EMPTY, rounding.value,
                     rounding=rounding if rounding.rel else None)
    bound = E.add(E.absolute(rounding.value), spread(rounding))
    return Value(result_type, C.EMPTY, None, bound, rounding=rounding)


def selection(values: list[Value], exact: E.Expr) -> Rounding | None:
    """min, max, abs, clip of public numbers: the float picked is one operand's float
    (or its negation), so it is within max_i rel_i·scale_i of the exact pick."""
    views = [view(v, converted=False) for v in values]
    if any(r is None for r in views):
        return None
    known = [r for r in views if r is not None]
    rel = max(r.rel for r in known)
    if rel == 0:
        return None  # no rounding: the exact pick is the float
    scale = known[0].scale
    for r in known[1:]:
        scale = E.smax(scale, r.scale)
    # abs(x), or a branch join of one value: the scale stays |value|.
    tight = all(r.tight and r.scale == scale for r in known) and E.absolute(exact) == scale
    return Rounding(exact, scale, rel, tight)


def settle_selection(result_type: T.Type, values: list[Value], exact: E.Expr | None) -> Value:
    """The Value of min/max/abs/clip of public numbers with known exact values."""
    from dpsens.infer.values import Value

    if exact is None:
        return Value(result_type, C.EMPTY)
    rounding = selection(values, exact)
    if rounding is None:
        return Value(result_type, C.EMPTY, exact)
    return settle(result_type, rounding)


def library(name: str, argument: Value, exact: E.Expr) -> Rounding | None:
    """np.sqrt, np.exp, np.log, np.sign of a public number (None: the float is not bounded;
    np.sign's only where the float held is the number itself).

    sqrt of a tight x̂ = X(1 + θ): √(1 + θ) is within r of 1; of a loose one,
    |√x̂ − √X| ≤ √|x̂ − X| ≤ √(r·S). log of a tight one is off by |log(1 + θ)| ≤ r/(1 − r),
    an absolute error (scale |log X| + 1). exp of a rounded one is not bounded here.
    """
    x = view(argument)
    if x is None or name not in _LIBRARY:
        return None
    own = _LIBRARY[name]
    if x.rel == 0 and x.tight:
        return Rounding(exact, E.absolute(exact), own, True)
    if name == "sqrt":
        if x.tight:
            return Rounding(exact, E.absolute(exact), _tidy((1 + x.rel) * (1 + own) - 1), True)
        root = Fraction(math.nextafter(math.sqrt(float(x.rel)), math.inf))
        return Rounding(exact, E.sqrt(x.scale), _tidy(root + own * (1 + root)), False)
    if name == "log" and x.tight and x.rel < Fraction(1, 2):
        drift = x.rel / (1 - x.rel)
        return Rounding(exact, E.add(E.absolute(exact), E.ONE),
                        _tidy(drift * (1 + own) + own), False)
    return None


def spread_of_difference(high: Value, low: Value) -> E.Expr | None:
    """An upper bound on |ĥ − l̂| (real subtraction of the two floats)."""
    rh, rl = view(high, converted=False), view(low, converted=False)
    if rh is None or rl is None:
        return None
    width, spreads = E.absolute(rh.value - rl.value), E.add(spread(rh), spread(rl))
    if width.is_number and spreads.is_number and spreads <= TOLERANCE_EXPR * width:
        return width  # np.clip(v, 0.1, 0.9): 4/5 up to a relative 1e-12
    return E.add(width, spreads)


def float_of(value: Value) -> E.Expr | None:
    """The exact rational of the float a known public number holds."""
    if value.exact is None or not value.exact.is_number or value.rounding is not None:
        return None
    held = _held(value)
    if held is None:
        return None
    return _rational(held)


@E.remembered
def _rational(held: float) -> E.Expr:
    """The exact rational a (finite) float holds."""
    numerator, denominator = held.as_integer_ratio()
    return sp.Rational(numerator, denominator)


def shown(number: E.Expr) -> E.Expr:
    """A computed bound, as a short number not below it."""
    if number.is_Rational:
        nearest = float(number)
        for _ in range(4):
            if E.number(nearest) >= number:
                return E.number(nearest)  # the shortest decimal of a float above it
            nearest = math.nextafter(nearest, math.inf)
    return number


def stable_in(e: E.Expr, symbols: set[sp.Symbol]) -> bool:
    """Whether e moves by a small relative amount when the symbols do.

    Built from the symbols by products, quotients, numeric powers, abs, max, min
    and sums of non-negative terms: a relative change θ of a symbol changes each
    such part by a relative O(θ). A sum with a term of unknown sign (c − 1/10),
    or anything else (Mod, floor, exp), may not.
    """
    if not (e.free_symbols & symbols):
        return True
    if e.is_Symbol:
        return True
    if e.is_Mul:
        return all(stable_in(a, symbols) for a in e.args)
    if e.is_Pow:
        return e.exp.is_number and stable_in(e.base, symbols)
    if isinstance(e, sp.Abs):
        return stable_in(e.args[0], symbols)
    if isinstance(e, (sp.Max, sp.Min)):
        return all(stable_in(a, symbols) for a in e.args)
    if e.is_Add:  # |c| + 1 is stable; c + 1 and |c| − 1 cancel near c = −1 and |c| = 1
        return all(bool(a.is_nonnegative) and stable_in(a, symbols) for a in e.args)
    return False
