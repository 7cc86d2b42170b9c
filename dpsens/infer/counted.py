"""R-if-counted: a branch on discrete data that only adds public amounts to numbers.

``if r[0] > 0.5: count += 1`` with r a Data row: where the condition is the
same on both inputs, both branches move ``count`` alike; where it flips, the
outcomes differ by the public difference of what the branches add, and it
can flip only if a variable it depends on changed, which for a discrete
metric is a change of at least 1. So count gains D·Σ_{x ∈ V_c} d(x) instead of
∞·Γ_c (docs/rules.md R-if-counted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from dpsens import ir
from dpsens import types as T
from dpsens.infer.values import Value, join_types
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis

def counted_branch(a: Analysis, statement: ir.If, test: Value) -> bool:
    """Apply R-if-counted to the statement if it has that shape; False when it does not."""
    if not test.ctx or not all(T.is_discrete_metric(a.var_types.get(v, T.REAL)) for v in test.ctx):
        return False
    offsets = [_offsets(a, body) for body in (statement.body, statement.orelse)]
    if offsets[0] is None or offsets[1] is None:
        return False
    flips = {variable: E.ONE for variable in test.ctx}  # 1{c flips} <= sum of d(x), x in V_c
    for name in sorted(set(offsets[0]) | set(offsets[1])):
        old = a.env.get(name)
        if old is None or not isinstance(old.type, T.Scalar) or old.type.kind not in ("Real", "Integer"):
            return False
        gap = _difference(offsets[0].get(name), offsets[1].get(name))
        if gap is None:
            return False
        kind: T.Type = old.type
        for amount in (offsets[0].get(name), offsets[1].get(name)):
            if amount is not None:  # 0.001 added to an int makes a float
                kind = join_types(kind, amount.type) or T.REAL
        offsets[0][name] = Value(kind, C.add(old.ctx, C.scale(gap, flips)))
    for name, value in offsets[0].items():
        a.assign(ir.NameTarget(statement.span, name), value)
    return True


def _offsets(a: Analysis, body: Sequence[ir.Stmt]) -> dict[str, Value] | None:
    """name -> the public amount the body adds to it, if the body only does ``u += e``."""
    added: dict[str, Value] = {}
    for statement in body:
        found = _increment(statement)
        if found is None or found[0] in added:
            return None
        name, amount, sign = found
        if not _effect_free(amount) or ir.names_read(amount) & ({name} | set(added)):
            return None
        value = a.expr(amount)
        if not value.public or value.magnitude() is None or not isinstance(value.type, T.Scalar):
            return None
        if value.type.kind != "Integer" and not _literal(amount) and \
                not (value.exact is not None and value.exact.is_Symbol):
            # A computed float is not its exact value: (1e16 + 3.0) - 1e16 is 4.0 in
            # Python and 3 exactly, so only literals and static parameters (whose
            # symbol is the float the caller passes) are taken as known real amounts.
            return None
        exact = None if value.exact is None else E.mul(E.number(sign), value.exact)
        added[name] = Value(value.type, C.EMPTY, exact, value.magnitude() if exact is None else None)
    return added


def _effect_free(expr: ir.Expr) -> bool:
    """Only constants, names and arithmetic on them, all the way down (no calls)."""
    if isinstance(expr, (ir.Const, ir.Name)):
        return True
    if isinstance(expr, ir.BinOp):
        return _effect_free(expr.left) and _effect_free(expr.right)
    if isinstance(expr, ir.UnaryOp):
        return _effect_free(expr.operand)
    return False


def _literal(expr: ir.Expr) -> bool:
    """A number literal, possibly negated."""
    if isinstance(expr, ir.UnaryOp) and expr.op in ("-", "+"):
        return _literal(expr.operand)
    return isinstance(expr, ir.Const) and isinstance(expr.value, (int, float)) \
        and not isinstance(expr.value, bool)


def _increment(statement: ir.Stmt) -> tuple[str, ir.Expr, int] | None:
    """(u, e, ±1) for ``u += e``, ``u -= e``, ``u = u + e``, ``u = e + u``, ``u = u - e``."""
    if isinstance(statement, ir.AugAssign) and isinstance(statement.target, ir.NameTarget) \
            and statement.op in ("+", "-"):
        return statement.target.id, statement.value, 1 if statement.op == "+" else -1
    if not (isinstance(statement, ir.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ir.NameTarget)
            and isinstance(statement.value, ir.BinOp) and statement.value.op in ("+", "-")):
        return None
    name, value = statement.targets[0].id, statement.value
    if isinstance(value.left, ir.Name) and value.left.id == name:
        return name, value.right, 1 if value.op == "+" else -1
    if value.op == "+" and isinstance(value.right, ir.Name) and value.right.id == name:
        return name, value.left, 1
    return None


def _difference(first: Value | None, second: Value | None) -> E.Expr | None:
    """A bound on |first − second| for public amounts (None: not bounded)."""
    if first is not None and second is not None and first.exact is not None \
            and second.exact is not None:
        return E.absolute(first.exact - second.exact)
    bounds = [v.magnitude() if v is not None else E.ZERO for v in (first, second)]
    if any(b is None for b in bounds):
        return None
    return E.add(bounds[0], bounds[1])


def choice_taint(a: Analysis, test: Value, first: Value | None, second: Value | None) -> C.Context:
    """What the condition adds to a value it chooses between two arms (R-if-public-arms).

    When both arms are public numbers p and q, the result moves by |p − q| where the
    condition flips and not at all elsewhere; a condition on discrete variables flips
    only if one of them changed, by at least 1, and any other by at most Γ_c (∞ for a
    comparison of reals). Otherwise ∞·Γ_c (R-if).
    """
    gap = _arm_gap(first, second)
    if gap is None:
        return C.blow_up(test.ctx)
    flips = {v: E.ONE if T.is_discrete_metric(a.var_types.get(v, T.REAL)) else r
             for v, r in test.ctx.items()}
    return C.scale(gap, flips)


def _arm_gap(first: Value | None, second: Value | None) -> E.Expr | None:
    """A bound on |p̂ − q̂|, the floats Python holds for two public numbers: their exact
    difference plus how far rounding may have moved each (R-float-static), so that
    ``s * 0.1`` and ``s / 10``, equal as reals, are not taken as the same float."""
    from dpsens.infer import floats

    for arm in (first, second):
        if arm is None or not arm.public or arm.computed is not None or arm.exact is None \
                or not isinstance(arm.type, T.Scalar) or arm.type.kind not in ("Real", "Integer", "Bool"):
            return None
    return floats.spread_of_difference(first, second)  # type: ignore[arg-type]


__all__ = ["choice_taint", "counted_branch"]
