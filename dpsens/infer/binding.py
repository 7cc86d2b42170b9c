"""Binding call arguments to parameters, and moving values between metric types."""

from __future__ import annotations

from typing import Sequence

from dpsens import types as T
from dpsens.infer.values import UNKNOWN, Value
from dpsens.sym import expr as E


class BindError(Exception):
    """The arguments do not fit the parameters (DPS303)."""


def bind(names: Sequence[str], has_default: Sequence[bool], args: Sequence[Value],
         keywords: dict[str, Value]) -> dict[str, Value | None]:
    """Parameter name -> argument (None where the default applies)."""
    if len(args) > len(names):
        raise BindError(f"takes {len(names)} arguments but {len(args)} were given")
    bound: dict[str, Value | None] = dict(zip(names, args))
    for name, value in keywords.items():
        if name not in names:
            raise BindError(f"got an unexpected keyword argument '{name}'")
        if name in bound:
            raise BindError(f"got multiple values for argument '{name}'")
        bound[name] = value
    for name, default in zip(names, has_default):
        if name not in bound:
            if not default:
                raise BindError(f"missing argument '{name}'")
            bound[name] = None
    return bound


# ||x||_inf <= ||x||_2 <= ||x||_1: a row clipped in one norm is clipped in every later one.
_CLIP_ORDER = ("L1", "L2", "L_inf")


def clip_implies(source: str | None, target: str | None) -> bool:
    """Whether rows clipped to the unit ball of ``source`` are in that of ``target``."""
    if not target or source == target:
        return True
    if source not in _CLIP_ORDER or target not in _CLIP_ORDER:
        return False
    return _CLIP_ORDER.index(source) <= _CLIP_ORDER.index(target)


def conversion(source: T.Type, target: T.Type) -> E.Expr | None:
    """Sensitivity of re-measuring a source-typed value in the target type, None if unfit."""
    if source == target or target == UNKNOWN:
        return E.ONE
    if isinstance(source, T.Scalar) and isinstance(target, T.Scalar):
        return T.element_factor(source.kind, target.kind)
    if isinstance(source, T.Vector) and isinstance(target, T.Vector):
        if not clip_implies(source.clip, target.clip):
            return None
        return E.mul(T.element_factor(source.elem, target.elem),
                     T.norm_factor(source.norm, target.norm, source.length))
    if isinstance(source, T.Matrix) and isinstance(target, T.Matrix):
        if not clip_implies(source.clip, target.clip):
            return None
        return E.mul(T.element_factor(source.elem, target.elem),
                     T.norm_factor(source.norm, target.norm, source.cols))
    if isinstance(source, (T.TupleType, T.ListType)) and isinstance(target, T.ListType):
        # Each element re-measured: the sum of their distances grows by the worst factor.
        elements = source.elts if isinstance(source, T.TupleType) else (source.elem,)
        return conversion(T.TupleType(elements), T.TupleType((target.elem,) * len(elements)))
    if isinstance(source, T.TupleType) and isinstance(target, T.TupleType):
        if len(source.elts) != len(target.elts):
            return None
        factors = [conversion(s, t) for s, t in zip(source.elts, target.elts)]
        if any(f is None for f in factors):
            return None
        worst = E.ZERO
        for factor in factors:
            worst = E.smax(worst, factor or E.ZERO)
        return worst
    return None


def dimension_mapping(declared: T.Type, actual: T.Type) -> dict[E.Expr, E.Expr]:
    """The call-site values of the symbolic dimensions of a declared parameter type."""
    if isinstance(declared, T.Vector) and isinstance(actual, T.Vector):
        return {declared.length: actual.length}
    if isinstance(declared, T.Matrix) and isinstance(actual, T.Matrix):
        return {declared.rows: actual.rows, declared.cols: actual.cols}
    if isinstance(declared, T.TupleType) and isinstance(actual, T.TupleType) \
            and len(declared.elts) == len(actual.elts):
        mapping: dict[E.Expr, E.Expr] = {}
        for part, given in zip(declared.elts, actual.elts):
            mapping.update(dimension_mapping(part, given))
        return mapping
    return {}


def substitute_type(t: T.Type, mapping: dict[E.Expr, E.Expr]) -> T.Type:
    """A type with its symbolic dimensions replaced."""
    if isinstance(t, T.Vector):
        return T.Vector(t.norm, t.elem, E.substitute(t.length, mapping), t.clip)
    if isinstance(t, T.Matrix):
        return T.Matrix(t.norm, t.elem, E.substitute(t.rows, mapping),
                        E.substitute(t.cols, mapping), t.clip)
    if isinstance(t, T.TupleType):
        return T.TupleType(tuple(substitute_type(e, mapping) for e in t.elts))
    if isinstance(t, T.ListType):
        return T.ListType(substitute_type(t.elem, mapping))
    return t
