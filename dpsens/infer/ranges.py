"""R-range: an interval [lo, hi] holding every entry of a value, and the cap it gives.

np.clip with known bounds puts every entry in [lo, hi]; comparisons in [0, 1]; the
arithmetic below carries intervals through (interval arithmetic, exact on the reals
like every other rule). A value whose entries all lie in an interval of width w moves
by at most w, whatever its inputs do, so:

- a number in [lo, hi] is at most (hi − lo)-sensitive in every *discrete* variable
  (distances 0 or ≥ 1: Data, integers, Data containers): if such a variable changes
  at all, the bound Σ Γ(x)·d(x) is already ≥ hi − lo. ``clip(x, -1, 1) *
  clip(y, -2, 2)`` on Data entries is 4, not 8 (R-bounded-product's 1·4 + 2·2);
- an entry of a row-wise vector (R-rowwise) moves by at most hi − lo, so that is
  its spread: ``np.clip(X[:, 0], 0, 3) ** 2`` has spread 9, not 2·3·3 = 18.

Endpoints are sympy expressions. Where an endpoint's order is not decided (symbolic
signs), the interval is dropped: no interval is always sound.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

import sympy as sp

from dpsens import types as T
from dpsens.infer import floats, pieces, rowwise
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.values import Value

Interval = tuple[E.Expr, E.Expr]
UNIT: Interval = (E.ZERO, E.ONE)  # truth values and masks


def of(value: Value) -> Interval | None:
    """Where every entry of a value lies: its interval, its exact value, or ±its bound."""
    if value.interval is not None:
        return value.interval
    if value.exact is not None:
        return _known(value)
    return _around_zero(value)


def symmetric(value: Value) -> Interval | None:
    """[−B, B] for a bound B on |value|: looser than an interval whose ends' order is not
    known (np.clip(x, 0, b): [min(0, b), b]), but one the arithmetic can go on with.
    A known number is itself."""
    return _known(value) if value.exact is not None else _around_zero(value)


def _known(value: Value) -> Interval | None:
    """A known number's float (0.1 is not 1/10), or a static symbol: the float the caller
    passes."""
    assert value.exact is not None
    if value.exact.is_number:
        held = floats.float_of(value)
        return (held, held) if held is not None else None
    if value.rounding is None and value.computed is None:
        return value.exact, value.exact
    return None


def _around_zero(value: Value) -> Interval | None:
    """[−B, B] for the value's bound B."""
    bound = value.magnitude()
    return (-bound, bound) if bound is not None and not E.is_inf(bound) else None


def width(interval: Interval) -> E.Expr:
    """hi − lo: the furthest two entries of the interval are apart."""
    return E.add(interval[1], -interval[0])


@E.remembered
def _le(a: E.Expr, b: E.Expr) -> bool:
    """a ≤ b is known: numbers, or the symbols' assumptions decide b − a ≥ 0 (no simplify,
    which costs ~20 ms a call: an undecided order only loses an interval)."""
    if a == b:
        return True
    if a.is_Number and b.is_Number:
        return bool(a <= b)
    return bool(E.add(b, -a).is_nonnegative)


def ordered(lo: E.Expr, hi: E.Expr) -> Interval | None:
    """[lo, hi] when lo ≤ hi is known; [hi, lo] when the reverse is; else None."""
    if _le(lo, hi):
        return lo, hi
    if _le(hi, lo):
        return hi, lo
    return None


@E.remembered
def least(a: E.Expr, b: E.Expr) -> E.Expr:
    """min(a, b), decided where the order is known (sympy's Min is slow: remembered)."""
    order = ordered(a, b)
    return order[0] if order is not None else sp.Min(a, b)


def _least(values: Iterable[E.Expr]) -> E.Expr | None:
    """The smallest of the values, when their order is decided."""
    out: E.Expr | None = None
    for v in values:
        if out is None or _le(v, out):
            out = v
        elif not _le(out, v):
            return None
    return out


def _greatest(values: Iterable[E.Expr]) -> E.Expr | None:
    """The largest of the values, when their order is decided."""
    smallest = _least(-v for v in values)
    return None if smallest is None else -smallest


def hull(a: Interval | None, b: Interval | None) -> Interval | None:
    """The smallest interval holding both (a branch, np.where)."""
    if a is None or b is None:
        return None
    lo, hi = _least((a[0], b[0])), _greatest((a[1], b[1]))
    return (lo, hi) if lo is not None and hi is not None else None


def negated(a: Interval | None) -> Interval | None:
    """−x."""
    return None if a is None else (-a[1], -a[0])


def absolute(a: Interval | None) -> Interval | None:
    """|x|: itself if non-negative, negated if non-positive, else [0, max(−lo, hi)]."""
    if a is None:
        return None
    if _le(E.ZERO, a[0]):
        return a
    if _le(a[1], E.ZERO):
        return negated(a)
    top = _greatest((-a[0], a[1]))
    return (E.ZERO, top) if top is not None else None


def binary(op: str, a: Interval | None, b: Interval | None,
           same: bool = False) -> Interval | None:
    """The interval of a op b for + − * /, and ** with a whole exponent b ≥ 1; ``same``:
    both operands are one number (``x * x`` is x², ``x - x`` is 0)."""
    if a is None or b is None:
        return None
    if same and op == "*":
        return _power(a, E.number(2))
    if same and op == "-":
        return E.ZERO, E.ZERO
    if op == "+":
        return E.add(a[0], b[0]), E.add(a[1], b[1])
    if op == "-":
        return E.add(a[0], -b[1]), E.add(a[1], -b[0])
    if op == "*":
        corners = [E.mul(x, y) for x in a for y in b]
        lo, hi = _least(corners), _greatest(corners)
        if lo is not None and hi is not None:
            return lo, hi
        # Corners of unknown order (a static factor θ of unknown sign): |xy| is at most
        # the largest |x| times the largest |y| (θ·clip(x, -1, 1) lies in [-|θ|, |θ|]).
        most = E.mul(E.absolute(sp.Max(sp.Abs(a[0]), sp.Abs(a[1]))),
                     E.absolute(sp.Max(sp.Abs(b[0]), sp.Abs(b[1]))))
        return (-most, most) if not E.is_inf(most) else None
    if op == "/" and b[0] == b[1] and not E.is_zero(b[0]):
        return binary("*", a, (E.div(E.ONE, b[0]),) * 2)
    if op == "**" and b[0] == b[1] and b[0].is_Integer and 1 <= b[0] <= 64:
        return _power(a, b[0])
    return None


def _power(a: Interval, k: E.Expr) -> Interval | None:
    """x**k for a whole k ≥ 1: monotone for odd k; for even k, |x|**k."""
    if k % 2 == 1:
        lo, hi = _odd_power(a[0], k), _odd_power(a[1], k)
        return (lo, hi) if lo is not None and hi is not None else None
    magnitude = absolute(a)
    if magnitude is None:
        return None
    return E.power(magnitude[0], k), E.power(magnitude[1], k)


def _odd_power(x: E.Expr, k: E.Expr) -> E.Expr | None:
    """x**k for an odd k, when x's sign is known."""
    if _le(E.ZERO, x):
        return E.power(x, k)
    if _le(x, E.ZERO):
        return -E.power(-x, k)
    return None


def summed(a: Interval | None, terms: E.Expr) -> Interval | None:
    """The sum of `terms` entries (terms ≥ 0) of an interval."""
    return None if a is None else (E.mul(terms, a[0]), E.mul(terms, a[1]))


def finite(interval: Interval | None) -> Interval | None:
    """The interval when both its ends are finite, else None."""
    if interval is None or any(E.is_inf(end) or end.has(E.INF, -E.INF) for end in interval):
        return None
    return interval


def ranged(value: Value, interval: Interval | None) -> Value:
    """The value with its entries' interval; a row-wise value's spread is at most its
    width (R-range)."""
    if finite(interval) is None:
        return value
    value = replace(value, interval=interval)
    spread = value.rowwise.spread if value.rowwise is not None else None
    if value.rowwise is not None and value.rowwise.params and \
            (spread is None or _le(width(interval), spread) and width(interval) != spread):
        value = rowwise.mark(value, value.rowwise.params, width(interval),
                             value.rowwise.binary)
    return value


def capped(value: Value, discrete: Iterable[str]) -> Value:
    """A number in [lo, hi] is at most (hi − lo)-sensitive in each discrete variable."""
    interval = of(value)
    if interval is None or not isinstance(value.type, T.Scalar) or value.public:
        return value
    span = width(interval)
    ctx = dict(value.ctx)
    for name in discrete:
        current = ctx.get(name)
        if current is not None and current != span and not E.is_zero(current) \
                and _le(span, current):
            ctx[name] = span
    return pieces.capped(value if ctx == value.ctx else replace(value, ctx=ctx), value,
                         set(discrete), span)


__all__ = ["Interval", "UNIT", "absolute", "least", "symmetric", "binary", "capped", "finite", "hull",
           "negated", "of", "ordered", "ranged", "summed", "width"]
