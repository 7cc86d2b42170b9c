"""Typing rules of the arithmetic, comparison and boolean operators."""

from __future__ import annotations

from typing import Callable

import sympy as sp

from dpsens import types as T
from dpsens.infer.values import UNKNOWN, Value
from dpsens.sym import context as C
from dpsens.sym import expr as E

Report = Callable[[str, str], None]  # (code, message)

_EXACT = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "//": lambda a, b: sp.floor(a / b), "%": lambda a, b: sp.Mod(a, b),
    "**": lambda a, b: a**b,
}


def binary(op: str, a: Value, b: Value, report: Report) -> Value:
    """The value of ``a op b``."""
    if a.type is UNKNOWN or b.type is UNKNOWN:
        return Value(UNKNOWN, C.blow_up(C.add(a.ctx, b.ctx)))
    if not (_numeric(a.type) and _numeric(b.type)):
        report("DPS301", f"operator '{op}' is not defined on {a.type.show()} and {b.type.show()}")
        return Value(UNKNOWN, C.blow_up(C.add(a.ctx, b.ctx)))
    if a.public and b.public:
        return _static(op, a, b)
    if op in ("+", "-"):
        return _additive(a, b, report)
    if op == "*" and (a.public or b.public):
        scalar, other = (a, b) if a.public else (b, a)
        return _scaled(scalar, other, None, report)
    if op == "/" and b.public:
        return _scaled(b, a, "divide", report)
    return _discontinuous(op, a, b)


def _numeric(t: T.Type) -> bool:
    return isinstance(t, (T.Scalar, T.Vector, T.Matrix))


def _static(op: str, a: Value, b: Value) -> Value:
    result_type = _result_type(op, a.type, b.type)
    exact = None
    if a.exact is not None and b.exact is not None and op in _EXACT:
        try:
            exact = sp.nsimplify(_EXACT[op](a.exact, b.exact), rational=True)
        except (ZeroDivisionError, TypeError, ValueError):
            exact = None
        if exact is not None and exact.has(sp.zoo, sp.nan):
            exact = None
    return Value(result_type, C.EMPTY, exact)


def _result_type(op: str, a: T.Type, b: T.Type) -> T.Type:
    """Shape and element kind of an entrywise operation."""
    kind_a, kind_b = T.scalar_kind_of(a) or "Real", T.scalar_kind_of(b) or "Real"
    kinds = {kind_a, kind_b}
    if "Data" in kinds:
        kind = "Data"
    elif kinds <= {"Integer", "Bool"} and op in ("+", "-", "*", "//", "%", "**"):
        kind = "Integer"
    else:
        kind = "Real"
    shaped = a if isinstance(a, (T.Vector, T.Matrix)) else b
    if isinstance(shaped, T.Vector):
        return T.Vector(shaped.norm, kind, shaped.length)
    if isinstance(shaped, T.Matrix):
        return T.Matrix(shaped.norm, kind, shaped.rows, shaped.cols)
    return T.Scalar(kind)


def _is_data(v: Value) -> bool:
    return T.scalar_kind_of(v.type) == "Data"


def _additive(a: Value, b: Value, report: Report) -> Value:
    """a ± b: distances add (triangle inequality), after bringing both to one metric."""
    # The metric of the sensitive operand wins: a public operand has distance 0
    # in every metric, so measuring the sum in its metric would only cost.
    first, second = (b, a) if a.public else (a, b)
    result_type = _result_type("+", first.type, second.type)
    ctx = C.EMPTY
    for operand in (a, b):
        if _is_data(Value(result_type)) and not (_is_data(operand) or operand.public):
            # A real operand that moves by a tiny amount changes Data entries by 1.
            ctx = C.add(ctx, C.blow_up(operand.ctx))
        else:
            ctx = C.add(ctx, C.scale(_embed_factor(operand.type, result_type, report), operand.ctx))
    return Value(result_type, ctx)


def _embed_factor(source: T.Type, target: T.Type, report: Report) -> E.Expr:
    """Sensitivity of using an operand of type source as a value of type target."""
    if isinstance(source, T.Scalar) and isinstance(target, T.Vector):
        return T.norm_factor("L_inf", target.norm, target.length)  # broadcast to n entries
    if isinstance(source, T.Scalar) and isinstance(target, T.Matrix):
        return E.mul(target.rows, T.norm_factor("L_inf", target.norm, target.cols))
    if isinstance(source, T.Vector) and isinstance(target, T.Matrix):
        # A row broadcast to every row of the matrix moves each row.
        return E.mul(target.rows, T.norm_factor(source.norm, target.norm, target.cols))
    if isinstance(source, T.Vector) and isinstance(target, T.Vector):
        return T.norm_factor(source.norm, target.norm, target.length)
    if isinstance(source, T.Matrix) and isinstance(target, T.Matrix):
        return T.norm_factor(source.norm, target.norm, target.cols)
    return E.ONE


def _scaled(scalar: Value, other: Value, mode: str | None, report: Report) -> Value:
    """c·a or a/c with c public: |c|·s_a or s_a/|c| on reals; 1 on Data."""
    result_type = _result_type("/" if mode else "*", scalar.type, other.type)
    if isinstance(scalar.type, (T.Vector, T.Matrix)):
        report("DPS305", "entrywise product with a public array: its largest entry is not tracked")
        return Value(result_type, C.blow_up(other.ctx))
    if _is_data(other):
        # Any function from Data to Data is 1-sensitive (distances are 0 or 1).
        return Value(result_type, other.ctx)
    magnitude = scalar.magnitude()
    if magnitude is None:
        report("DPS305", "the value of this public factor is not known")
        return Value(result_type, C.blow_up(other.ctx))
    factor = E.div(E.ONE, magnitude) if mode == "divide" else magnitude
    if isinstance(result_type, T.Scalar) and result_type.kind == "Integer" and mode:
        result_type = T.REAL
    return Value(result_type, C.scale(factor, other.ctx))


def _discontinuous(op: str, a: Value, b: Value) -> Value:
    """Products and quotients of two sensitive values: unbounded (Data: discrete)."""
    result_type = _result_type(op, a.type, b.type)
    if _is_data(a) and _is_data(b):
        return Value(result_type, C.add(a.ctx, b.ctx))
    return Value(result_type, C.blow_up(C.add(a.ctx, b.ctx)))


def truth(value: Value) -> C.Context:
    """The context of a value used as a condition or a Bool: 1 for discrete, else unbounded."""
    if T.is_discrete_metric(value.type) and isinstance(value.type, T.Scalar):
        return value.ctx
    return C.blow_up(value.ctx)


def compare(a: Value, b: Value) -> Value:
    """``a < b`` and friends: a Bool, continuous only in discrete operands."""
    return Value(T.BOOL, C.add(truth(a), truth(b)))


def negate(value: Value) -> Value:
    """-x: 1-sensitive in every metric."""
    exact = -value.exact if value.exact is not None else None
    return Value(value.type, value.ctx, exact, value.bound, value.parts)
