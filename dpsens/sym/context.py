"""Contexts: maps from variable names to sensitivities, with their algebra.

A context Γ for a value v says: if each variable x moves by d_x, v moves by at
most Σ_x Γ(x)·d_x.  Absent variables have sensitivity 0.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Iterable, Mapping

from dpsens.sym import expr as E

Context = Mapping[str, E.Expr]
EMPTY: Context = MappingProxyType({})


def single(name: str, sensitivity: E.Expr = E.ONE) -> Context:
    """The context of a variable itself."""
    return {name: sensitivity}


def add(a: Context, b: Context) -> Context:
    """Γ_a + Γ_b: sharing a variable adds its sensitivities."""
    return _merge(a, b, E.add)


def _merge(a: Context, b: Context, combine: Callable[[E.Expr, E.Expr], E.Expr]) -> Context:
    """Per variable, combine the two sensitivities (absent means 0)."""
    if not a:
        return b
    if not b:
        return a
    out = dict(a)
    for name, value in b.items():
        out[name] = combine(out[name], value) if name in out else value
    return out


def total(contexts: Iterable[Context]) -> Context:
    """The sum of several contexts."""
    out: Context = EMPTY
    for context in contexts:
        out = add(out, context)
    return out


def scale(factor: E.Expr, a: Context) -> Context:
    """s·Γ: composing with an s-sensitive function."""
    if E.is_zero(factor):
        return EMPTY
    if factor == E.ONE:
        return a
    return {name: E.mul(factor, value) for name, value in a.items() if not E.is_zero(value)}


def join(a: Context, b: Context) -> Context:
    """max(Γ_a, Γ_b) per variable."""
    return _merge(a, b, E.smax)


def sharing(contexts: list[Context]) -> list[list[int]]:
    """Positions of the contexts, grouped so that contexts sharing a variable are together."""
    groups: list[list[int]] = []
    for position, ctx in enumerate(contexts):
        touching = [g for g in groups if any(set(contexts[i]) & set(ctx) for i in g)]
        groups = [g for g in groups if g not in touching] + \
            [sorted([i for g in touching for i in g] + [position])]
    return sorted(groups)


def blow_up(a: Context) -> Context:
    """∞·Γ: every variable the value depends on becomes unbounded."""
    return {name: E.INF for name, value in a.items() if not E.is_zero(value)}


def cap(a: Context, names: Iterable[str]) -> Context:
    """min(Γ(x), 1) for the given discrete variables (positive stays positive)."""
    chosen = set(names)
    return {
        name: (E.ONE if name in chosen and not E.is_zero(value) else value)
        for name, value in a.items()
    }


def is_public(a: Context) -> bool:
    """The value does not depend on any tracked variable."""
    return not a or all(map(E.is_zero, a.values()))  # asked ~60,000 times on benchmark A


def substitute(a: Context, mapping: Mapping[str, Context]) -> Context:
    """Replace variables by their own contexts: Σ_x Γ(x)·Γ_x."""
    out: Context = EMPTY
    for name, value in a.items():
        replacement = mapping.get(name)
        out = add(out, scale(value, replacement) if replacement is not None else {name: value})
    return out
