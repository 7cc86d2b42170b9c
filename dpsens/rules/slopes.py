"""R-slope: a function of one number is as sensitive as its steepest slope over the
interval its argument is known to lie in (docs/rules.md R-slope).

A stub declares ``@slope(bound, domain=..., low=..., high=...)`` over the names lo and
hi, the ends of the argument's interval (ranges.of): ``bound`` is sup |f'| over [lo, hi]
where ``domain`` (f is defined and differentiable inside [lo, hi]) holds, and f maps
[lo, hi] into [low, high]. An argument with no known interval is taken over (−∞, ∞), so
that exp is ∞ there and tanh still 1 with results in [−1, 1]. A Data argument, whose
changed entry may be anything, moves its result by at most the image's width (np.sin: 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import sympy as sp

from dpsens import types as T
from dpsens.infer import ranges
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.infer.values import Value
    from dpsens.rules.table import Rule


@dataclass(frozen=True)
class Stretch:
    """What R-slope gives a call: its number's factor and where the results lie."""

    param: str
    factor: E.Expr
    image: ranges.Interval | None


def stretch(a: Analysis, rule: Rule, bound: dict[str, Value | None]) -> Stretch | None:
    """The factor and image of a @slope rule's call (None: not one, or no number given)."""
    if rule.slope is None:  # (most rules: asked on every call of a stubbed function)
        return None
    from dpsens.rules.table import number_parameter  # (table imports this module)

    number = number_parameter(rule)
    value = bound.get(number.name) if number is not None else None
    if number is None or value is None:
        return None
    lo, hi = ranges.finite(ranges.of(value)) or (-E.INF, E.INF)
    ends = {"lo": lo, "hi": hi}
    kind = T.scalar_kind_of(value.type)
    data = kind == "Data"
    if not _defined(a, rule.slope.domain, bound, ends, sensitive=not value.public and not data):
        return Stretch(number.name, E.INF, None)
    image = _image(rule, bound, ends)
    width = E.INF if image is None else E.absolute(E.add(image[1], -image[0]))  # (any order)
    if data:
        # A changed Data entry may be any value of the interval, so no slope bounds its
        # result's move; the image does: both results lie in it (as np.clip's on Data).
        return Stretch(number.name, width, image)
    factor = _at(rule.slope.bound, bound, ends)
    factor = E.INF if factor is None else factor
    if kind in ("Integer", "Bool"):
        # Two different integers are at least 1 apart, so the image's width bounds the
        # move per unit of distance too (np.sign of integers: 2, where no slope bounds it).
        factor = E.smin(factor, width)
    return Stretch(number.name, factor, image)


def _defined(a: Analysis, domain: str | None, bound: dict[str, Value | None],
             ends: dict[str, E.Expr], sensitive: bool) -> bool:
    """Whether the domain holds: decided here, or (for a sensitive argument, whose factor
    depends on it) assumed; an undecided one of a public argument only loses the image."""
    if domain is None:
        return True
    condition = _at(domain, bound, ends)
    if condition is sp.true or condition is sp.false:
        return bool(condition)
    if not isinstance(condition, sp.core.relational.Relational):
        return False  # an unknown static value, or not a condition at all
    decided = a.decide(condition)
    if decided is not None:
        return decided
    if sensitive:
        a.assume(condition)
    return sensitive


def _image(rule: Rule, bound: dict[str, Value | None], ends: dict[str, E.Expr]
           ) -> ranges.Interval | None:
    """[low, high] when both are declared and finite."""
    assert rule.slope is not None
    if rule.slope.low is None or rule.slope.high is None:
        return None
    low, high = (_at(text, bound, ends) for text in (rule.slope.low, rule.slope.high))
    return ranges.finite((low, high)) if low is not None and high is not None else None


def _at(text: str, bound: dict[str, Value | None], ends: dict[str, E.Expr]) -> E.Expr | None:
    """A stub expression at the call, lo and hi the ends of the argument's interval."""
    from dpsens.rules.table import instantiate  # (table imports this module)

    return instantiate(text, bound, ends)


def imaged(value: Value, found: Stretch | None) -> Value:
    """The value with its entries in the image of the argument's interval. Not a public
    one: what is known of a public number is its float's (R-float-static), and the image
    holds the reals f(lo), f(hi), which the library's float may miss by a few units."""
    return ranges.ranged(value, found.image) if found is not None and not value.public else value
