"""R-parts: reads of disjoint parts of one input are charged once (Fuzz's tensor rule).

A tuple's distance is the sum of its components' distances, an L1 vector's the sum of
its entries', a matrix's the sum of its rows'. Write d_k for the distance of part k of
an input x and d = Σ_k d_k for x's. A value that moves by at most c·d + Σ_k c_k·d_k
moves by at most (c + max_k c_k)·d, since Σ_k c_k·d_k ≤ max_k c_k · Σ_k d_k: so
``p[0] + p[1]`` is 1-sensitive in a tuple p, not 2, and so is ``(p[1], p[0])``.

A value's pieces record, per variable, the coefficient c_k of each part it reads (key
None: the whole input, c). They are a second bound beside its context, which they
tighten where the rules below combine values: a + b and a − b (triangle inequality),
c·a and −a, tuples (a sum of their components' distances), branches (the larger
coefficient of each part, the value being one of the two) and calls (Σ s_p times the
arguments' pieces). A value carries them only with the very context they were made
for: any rule that makes another context, knowing nothing of pieces, leaves only that
context, a sound bound of its own.

Parts are known only where the index is a known integer and the container is the
input itself (the value bound to a parameter, or to a builtin's function argument,
marked by Value.input_of): ``v[0]`` of a reversed copy of v is not v's entry 0, nor is
``w[0]`` of ``w = v if flag else v[::-1]``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Optional, Union

from dpsens import types as T
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.values import Value

# A part's position (the sum's parts: a tuple's components, an L1 vector's entries, a
# matrix's rows), ("L2", position) for an entry of an L2 vector, None for the whole input.
Key = Optional[Union[int, tuple[str, int]]]
Pieces = Mapping[str, Mapping[Key, E.Expr]]


def of(value: Value) -> Pieces:
    """The value's pieces, or its context read as whole inputs."""
    if _has(value):
        return value.pieces[1]  # type: ignore[index]
    return {variable: {None: r} for variable, r in value.ctx.items()}


def _has(value: Value) -> bool:
    return value.pieces is not None and value.pieces[0] is value.ctx


def bound(pieces: Pieces) -> C.Context:
    """Per variable, the whole input's coefficient, plus the largest part's, plus the L2 norm
    of the L2 entries' (each group bounds its own terms, so their sum bounds all)."""
    out = {}
    for variable, parts in pieces.items():
        largest = functools.reduce(_larger, (r for k, r in parts.items() if isinstance(k, int)),
                                   E.ZERO)
        squares = [E.mul(r, r) for k, r in parts.items() if isinstance(k, tuple)]
        l2 = E.sqrt(functools.reduce(E.add, squares)) if squares else E.ZERO
        out[variable] = E.add(E.add(parts.get(None, E.ZERO), largest), l2)
    return out


def _larger(a: E.Expr, b: E.Expr) -> E.Expr:
    """max(a, b), decided under the symbols' signs where sympy's Max is not (1/cols ≤ 1)."""
    if E.decide_le(a, b) is True:
        return b
    return a if E.decide_le(b, a) is True else E.smax(a, b)


def attach(value: Value, pieces: Pieces, complete: bool = False) -> Value:
    """The value with these pieces, its context tightened to their bound where it is
    provably smaller (both bound the same value); ``complete`` pieces name every
    variable the value moves with, so the others' coefficients are 0."""
    if not complete and not any(k is not None for parts in pieces.values() for k in parts):
        return value
    tight, ctx = bound(pieces), dict(value.ctx)
    for variable, r in value.ctx.items():
        if variable not in pieces and complete:
            del ctx[variable]
        elif variable not in pieces:
            pieces = {**pieces, variable: {None: r}}  # (a rule's own, looser term)
        elif _smaller(tight[variable], r, pieces[variable]):
            ctx[variable] = tight[variable]
    return replace(value, ctx=ctx, pieces=(ctx, pieces))


def _smaller(tight: E.Expr, r: E.Expr, parts: Mapping[Key, E.Expr]) -> bool:
    """Whether the parts' bound is below the rule's r (an equal bound keeps its form). A
    rule's r that is the parts' sum is above it by construction (a maximum and an L2
    norm are at most the sum of their terms), which sympy does not always see
    (√(k² + 1) ≤ |k| + 1)."""
    if tight == r:
        return False
    if r == functools.reduce(E.add, parts.values(), E.ZERO):
        return True
    return E.decide_le(tight, r) is True and E.decide_le(r, tight) is not True


def summed(value: Value, terms: Iterable[tuple[E.Expr, Value]], extra: C.Context = C.EMPTY) -> Value:
    """``value`` is at most Σ factor·operand away (a + b, a call's result): its pieces are
    the operands' so scaled and added."""
    terms = list(terms)
    if not any(_has(operand) for _, operand in terms):
        return value
    return combined(value, [(factor, of(operand)) for factor, operand in terms], extra)


def combined(value: Value, terms: Iterable[tuple[E.Expr, Pieces]], extra: C.Context = C.EMPTY,
             complete: bool = False) -> Value:
    """``value`` is at most Σ factor·(what the pieces bound) away (``complete``: and its
    context names nothing else it moves with)."""
    out: dict[str, dict[Key, E.Expr]] = {v: {None: r} for v, r in extra.items()}
    for factor, operand in terms:
        if E.is_zero(factor):
            continue
        for variable, parts in operand.items():
            mine = out.setdefault(variable, {})
            for key, r in parts.items():
                scaled = E.mul(factor, r)
                mine[key] = E.add(mine[key], scaled) if key in mine else scaled
    return attach(value, out, complete)


def kept(value: Value, operand: Value) -> Value:
    """``value``, a 1-Lipschitz image of ``operand`` with its very context (-a, |a|, an
    entry of a part), keeps its pieces."""
    if not _has(operand) or value.ctx is not operand.ctx and value.ctx != operand.ctx:
        return value
    return replace(value, ctx=operand.ctx, pieces=operand.pieces)


def joined(value: Value, a: Value, b: Value) -> Value:
    """A branch's value (a or b, the same on both neighbours): each part's larger
    coefficient."""
    if not (_has(a) or _has(b)):
        return value
    first, second = of(a), of(b)
    out = {}
    for variable in dict.fromkeys([*first, *second]):  # (in a fixed order: no set)
        mine, theirs = first.get(variable, {}), second.get(variable, {})
        out[variable] = {key: E.smax(mine.get(key, E.ZERO), theirs.get(key, E.ZERO))
                         for key in dict.fromkeys([*mine, *theirs])}
    return attach(value, out)


def capped(value: Value, before: Value, discrete: set[str], span: E.Expr) -> Value:
    """``value`` is ``before``, a number within an interval of that width, capped at the
    width in discrete variables (R-range): so is each part's coefficient, since a changed
    part of a discrete input is at least 1 away (a sum of capped terms is at least the
    width as soon as one of them is capped, and is the sum before otherwise)."""
    if not _has(before):
        return value
    return attach(value, {variable: {key: E.smin(r, span) for key, r in parts.items()}
                          if variable in discrete else parts
                          for variable, parts in of(before).items()})


def read(base: Value, index: Sequence[object], value: Value) -> Value:
    """``base[index]`` where base is an input itself and the index a known integer: the
    value reads that part of it (a component, an entry of an L1 or L2 vector, a row)."""
    if _has(value):
        return value  # a tuple's component, with its own
    variable = _input(base)
    if variable is None or len(value.ctx) != 1 or variable not in value.ctx \
            or not index or isinstance(index[0], tuple):
        return kept(value, base)
    key = _part(base.type, index[0].exact, len(index))  # type: ignore[attr-defined]
    if key is None:
        return value
    return replace(value, pieces=(value.ctx, {variable: {key: value.ctx[variable]}}))


def unpacked(base: Value, parts: list[Value]) -> list[Value]:
    """``a, b = p`` for an input p: each name reads its component."""
    variable = _input(base)
    if variable is None or not isinstance(base.type, T.TupleType):
        return parts
    return [replace(part, pieces=(part.ctx, {variable: {k: part.ctx[variable]}}))
            if part.ctx == base.ctx else part for k, part in enumerate(parts)]


def split(value: Value) -> Value:
    """An input tuple as the tuple of its components, each reading its part (for a slice
    ``p[0:2]`` of it); any other value as it is."""
    from dpsens.infer.values import Value, tuple_value

    if value.parts is not None or not isinstance(value.type, T.TupleType) \
            or _input(value) is None:
        return value
    return tuple_value(tuple(unpacked(value, [Value(t, value.ctx) for t in value.type.elts])))


def _input(value: Value) -> str | None:
    """The variable the value is, when it is an input itself."""
    variable = value.input_of
    return variable if variable is not None and value.ctx == {variable: E.ONE} else None


def part_of(value: Value, key: Key) -> Pieces | None:
    """The pieces of part ``key`` of a value passed for a parameter whose parts a callee
    reads: a tuple's component, or that part of an input; None when the value has no
    parts to tell apart."""
    if value.parts is not None:
        return of(value.parts[key]) if isinstance(key, int) and 0 <= key < len(value.parts) \
            else None
    variable = _input(value)
    if variable is None:
        return None
    return {variable: {key: value.ctx[variable]}}


def of_params(value: Value, params: Iterable[str]) -> Pieces | None:
    """The pieces of a function's result over its parameters, when it reads parts of any."""
    if not _has(value):
        return None
    names = set(params)
    found = {v: dict(parts) for v, parts in of(value).items() if v in names}
    return found if any(k is not None for parts in found.values() for k in parts) else None


def _part(t: T.Type, position: E.Expr | None, indices: int) -> Key:
    """Which part an index names, when the container's distance sums over its parts."""
    if position is None or not position.is_Integer:
        return None
    if isinstance(t, T.TupleType) and indices == 1:
        size: E.Expr = E.number(len(t.elts))
    elif isinstance(t, T.Vector) and t.norm in ("L1", "L2") and indices == 1:
        size = t.length
    elif isinstance(t, T.Matrix):
        size = t.rows  # a row, or entries of one row
    else:
        return None
    if position < 0:
        # Counted from the end: the same part as size + position, known only for a known size.
        position = size + position
        if not position.is_Integer or position < 0:
            return None
    # An L2 vector's entries: Σ_k c_k·d_k ≤ ‖c‖₂·√(Σ_k d_k²), by Cauchy–Schwarz.
    return ("L2", int(position)) if isinstance(t, T.Vector) and t.norm == "L2" else int(position)
