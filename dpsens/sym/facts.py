"""Deciding a condition under the sign facts of the assumptions already recorded (D47).

A summary's assumptions are reported and checked at call sites, but each was
decided alone: ``2*abs(s) <= s`` is undecided for a real ``s``, yet false once
``s > 0`` (the mechanism's own assumption) is recorded too. Here the recorded
single-symbol relations (``s > 0``, ``eps > 0``, ``k >= 0``, ``1/b > 0``) give
sign facts; the condition is re-decided with those symbols replaced by symbols
carrying the signs. Dimension symbols (``rows(x)``) are positive already.
"""

from __future__ import annotations

import sympy as sp
from sympy.core.relational import Relational

from dpsens.sym.expr import remembered

_SIGNS = ("positive", "nonnegative", "negative", "nonpositive")


@remembered
def _fact(relation: sp.Basic) -> tuple[sp.Symbol, str] | None:
    """The sign a single-symbol relation gives its symbol (x > c with c >= 0, c/x**odd > 0)."""
    if not isinstance(relation, Relational) or isinstance(relation, (sp.Eq, sp.Ne)):
        return None
    if isinstance(relation, (sp.Gt, sp.Ge)):
        d, strict = relation.lhs - relation.rhs, isinstance(relation, sp.Gt)
    else:
        d, strict = relation.rhs - relation.lhs, isinstance(relation, sp.Lt)
    symbols = d.free_symbols
    if len(symbols) != 1 or d.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return None
    x = next(iter(symbols))
    if not x.is_real:  # symbols stand for real statics and positive dimensions
        return None
    # d > 0 (or >= 0) with d = a*x + b: x beyond -b/a.
    slope = sp.diff(d, x)
    if slope.is_number and slope != 0:
        rest = sp.expand(d - slope * x)
        if not rest.free_symbols and rest.is_number:
            threshold = -rest / slope
            if slope.is_positive:  # x > threshold (x >= threshold)
                if threshold.is_positive or (threshold.is_zero and strict):
                    return x, "positive"
                if threshold.is_zero:
                    return x, "nonnegative"
            elif slope.is_negative:  # x < threshold (x <= threshold)
                if threshold.is_negative or (threshold.is_zero and strict):
                    return x, "negative"
                if threshold.is_zero:
                    return x, "nonpositive"
            return None
    # d = c * x**p with an odd integer p: x has the sign of c (strictly when p < 0).
    coefficient, term = d.as_coeff_Mul()
    base, exponent = term.as_base_exp()
    if (base == x and coefficient.is_number and coefficient != 0 and exponent.is_integer
            and exponent.is_number and int(exponent) % 2 == 1):
        if coefficient.is_positive:
            return x, "positive" if strict or exponent.is_negative else "nonnegative"
        if coefficient.is_negative:
            return x, "negative" if strict or exponent.is_negative else "nonpositive"
    return None


@remembered
def sign_facts(known: tuple[sp.Basic, ...]) -> tuple[tuple[sp.Symbol, str, sp.Basic], ...]:
    """(symbol, sign, the relation that says it) for each sign the relations give."""
    out = []
    for relation in known:
        fact = _fact(relation)
        if fact is not None:
            out.append((fact[0], fact[1], relation))
    return tuple(out)


@remembered
def _signed(known: tuple[sp.Basic, ...]) -> tuple[tuple[sp.Symbol, sp.Symbol], ...]:
    """Each symbol with a known sign, and a symbol of the same name that carries it.

    Conflicting signs (s > 0 and s < 0) are left out: the relations themselves
    then contradict each other, which deciding each under the others finds.
    """
    signs: dict[sp.Symbol, set[str]] = {}
    for symbol, sign, _ in sign_facts(known):
        signs.setdefault(symbol, set()).add(sign)
    out = []
    for symbol, found in signs.items():
        upper = found & {"negative", "nonpositive"}
        lower = found & {"positive", "nonnegative"}
        if upper and lower:
            continue  # contradictory (or x = 0): no sign to substitute
        sign = next(s for s in _SIGNS if s in found)
        if getattr(symbol, f"is_{sign}"):
            continue  # already known (rows(x) is positive)
        assumptions = {sign: True}
        if symbol.is_integer:
            assumptions["integer"] = True
        out.append((symbol, sp.Symbol(symbol.name, **assumptions)))
    return tuple(out)


def _decided(relation: sp.Basic) -> bool | None:
    if relation is sp.true:
        return True
    if relation is sp.false:
        return False
    if not isinstance(relation, Relational) or relation.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return None
    difference = sp.simplify(relation.lhs - relation.rhs)
    if isinstance(relation, sp.Eq):
        return None if difference.is_zero is None else bool(difference.is_zero)
    if isinstance(relation, sp.Ne):
        return None if difference.is_zero is None else not difference.is_zero
    if isinstance(relation, (sp.Lt, sp.Le)):
        difference = -difference  # rhs - lhs
    strict = isinstance(relation, (sp.Lt, sp.Gt))
    if (difference.is_positive if strict else difference.is_nonnegative):
        return True
    if (difference.is_nonpositive if strict else difference.is_negative):
        return False
    return None


@remembered
def decide_under(condition: sp.Basic, known: tuple[sp.Basic, ...]) -> bool | None:
    """True/False when the condition is decided given the sign facts of ``known``, else None.

    Only the signs single-symbol relations give are used: sound (a value the
    assumptions allow satisfies the signs), and cheap (None at once when the
    condition mentions no signed symbol).
    """
    if condition is sp.true or condition is sp.false:
        return condition is sp.true
    mapping = dict(_signed(known))
    if not mapping or not (getattr(condition, "free_symbols", set()) & mapping.keys()):
        return None
    return _decided(condition.xreplace(mapping))


def violated(known: list[sp.Basic] | tuple[sp.Basic, ...]) -> tuple[sp.Basic, tuple[sp.Basic, ...]] | None:
    """An assumption that is false given the others (and the relations giving the signs used).

    Order-independent: each is decided under all the others, so a mechanism's
    ``s > 0`` recorded after ``2*abs(s) <= s`` still rules the latter out.
    """
    for condition in known:
        if condition is sp.false or _false_at_every_size(condition):
            return condition, ()
        others = tuple(c for c in known if c is not condition and c != condition)
        if decide_under(condition, others) is False:
            return condition, reasons(condition, others)
    return None


def reasons(condition: sp.Basic, known: tuple[sp.Basic, ...]) -> tuple[sp.Basic, ...]:
    """The relations whose signs bear on the condition's symbols (for messages)."""
    symbols: set[sp.Basic] = getattr(condition, "free_symbols", set())
    seen: list[sp.Basic] = []
    for symbol, _, relation in sign_facts(tuple(known)):
        if symbol in symbols and relation not in seen:
            seen.append(relation)
    return tuple(seen)


# Sizes a condition on dimensions alone is tried at: every whole number up to 64, then
# larger ones up to 2**40 (two sizes: a grid of the first of every three).
_SIZES = (*range(1, 65), 100, 128, 1000, 2**16, 10**6, 2**20, 2**30, 2**40)


@remembered
def _false_at_every_size(condition: sp.Basic) -> bool:
    """An inequality on the sizes of inputs alone (rows(x), cols(x), len(x): one or two of
    them) that is false at every size tried (``4*cols(data)**(3/2) <= 1``, a mechanism's
    noise for a sensitivity that grows with the columns): it is taken never to hold.
    Sound whatever sizes it may hold at: a condition taken as false leaves the function
    unbounded, never less (D47, review35)."""
    points = _sizes_of(condition)
    return bool(points) and all(_holds(condition, p) is False for p in points)


@remembered
def false_at_large_sizes(condition: sp.Basic) -> dict[sp.Symbol, int] | None:
    """The smallest sizes tried at which an inequality on sizes alone is false, when it is
    false at the largest ones too but holds at some (``2*cols(data) - 1 <= 1``): a bound
    that holds for small inputs only; None otherwise."""
    points = _sizes_of(condition)
    if not points or _holds(condition, points[-1]) is not False \
            or not any(_holds(condition, p) for p in points):
        return None
    return next(p for p in points if _holds(condition, p) is False)


def _sizes_of(condition: sp.Basic) -> list[dict[sp.Symbol, int]]:
    """The sizes to try an inequality whose only symbols are one or two sizes at, smallest
    first ([] for any other condition: an equation holds at one size, which no list of
    sizes need hold)."""
    if not isinstance(condition, Relational) or isinstance(condition, (sp.Eq, sp.Ne)):
        return []
    symbols = condition.free_symbols
    if not symbols or len(symbols) > 2 or not all(
            s.is_integer and s.is_positive and s.name.startswith(("rows(", "cols(", "len("))
            for s in symbols):
        return []
    ordered = sorted(symbols, key=lambda s: s.name)
    few = _SIZES[::3]
    points = [(n,) for n in _SIZES] if len(ordered) == 1 else [(n, m) for n in few for m in few]
    return [dict(zip(ordered, point)) for point in points]


def _holds(condition: sp.Basic, sizes: dict[sp.Symbol, int]) -> bool | None:
    """The condition at these sizes (None: not decided there, which no caller takes as
    false)."""
    value = condition.xreplace({s: sp.Integer(n) for s, n in sizes.items()})
    return True if value is sp.true else False if value is sp.false else None
