"""R-if-counted: a branch on discrete data that adds public or bounded amounts to numbers.

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
from dpsens.infer import ranges
from dpsens.infer.values import Value, decided, join_types
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.diagnostics import Span
    from dpsens.infer.engine import Analysis

def counted_branch(a: Analysis, statement: ir.If, test: Value) -> bool:
    """Apply R-if-counted to the statement if it has that shape; False when it does not."""
    if not _discrete(a, test):
        return False
    first, second = _paths(a, statement.body), _paths(a, statement.orelse)
    if first is None or second is None:
        return False
    paths = first[0] + second[0]
    # 1{the runs take different paths} <= sum of d(x) over the variables of every test
    flips = {variable: E.ONE for variable in sorted({*test.ctx, *first[1], *second[1]})}
    updated: dict[str, Value] = {}
    for name in sorted(set().union(*paths)):
        old = a.env.get(name)
        if old is None or not isinstance(old.type, T.Scalar) or old.type.kind not in ("Real", "Integer") \
                or old.zero_d:  # a 0-d array: u += e changes it under every name holding it
            return False
        if any(a.is_parameter(n) for n in a.alias_group(name)[1]):
            return False  # a caller's 0-d array, maybe, changed in place: op= as written
            # (stmts.augmented marks it changed, and what it shows: R-observed)
        amounts = [path.get(name) for path in paths]
        if all(amount is None or amount.public for amount in amounts):
            gap = _spread(amounts)
            moved = None if gap is None else C.scale(gap, flips)
        else:
            moved = _bounded_moves(a, amounts, flips)
        if moved is None:
            return False
        kind: T.Type = old.type
        for path in paths:
            if name in path:  # 0.001 added to an int makes a float
                kind = join_types(kind, path[name].type) or T.REAL
        updated[name] = Value(kind, C.add(old.ctx, moved))
    for name, value in updated.items():
        a.assign(ir.NameTarget(statement.span, name), value)
    return True


MAX_PATHS = 64  # an elif chain this long is a histogram; more paths cost quadratic time


def _discrete(a: Analysis, test: Value) -> bool:
    """A test that depends on data, only through discrete variables (a flip costs >= 1)."""
    return bool(test.ctx) and all(T.is_discrete_metric(a.var_types.get(v, T.REAL)) for v in test.ctx)


def _paths(a: Analysis, body: Sequence[ir.Stmt]) -> tuple[list[dict[str, Value]], set[str]] | None:
    """What each way through a branch adds (name -> public amount), and the variables of
    the tests met on the way: a branch is increments only, or one nested ``if`` (an
    ``elif``) on public or discrete values whose test has no effects."""
    if len(body) == 1 and isinstance(body[0], ir.If):
        nested = body[0]
        if not _pure_test(nested.test):
            return None
        test = a.expr(nested.test)
        taken = decided(test)
        if taken is not None:
            return _paths(a, nested.body if taken else nested.orelse)
        if not test.public and not _discrete(a, test):
            return None
        first, second = _paths(a, nested.body), _paths(a, nested.orelse)
        if first is None or second is None or len(first[0]) + len(second[0]) > MAX_PATHS:
            return None
        return first[0] + second[0], {*test.ctx, *first[1], *second[1]}
    offsets = _offsets(a, body)
    return None if offsets is None else ([offsets], set())


def _pure_test(expr: ir.Expr | ir.Slice) -> bool:
    """Comparisons, Boolean operators, subscripts and arithmetic of names and constants."""
    if isinstance(expr, (ir.Const, ir.Name)):
        return True
    if isinstance(expr, ir.Compare):
        return _pure_test(expr.left) and _pure_test(expr.right)
    if isinstance(expr, ir.BoolOp):
        return all(map(_pure_test, expr.values))
    if isinstance(expr, ir.Subscript):
        return _pure_test(expr.value) and all(map(_pure_test, expr.index))
    if isinstance(expr, ir.Slice):
        return all(_pure_test(part) for part in (expr.lower, expr.upper, expr.step) if part is not None)
    return effect_free(expr)


def _offsets(a: Analysis, body: Sequence[ir.Stmt]) -> dict[str, Value] | None:
    """name -> the public amount the body adds to it, if the body only does ``u += e``."""
    added: dict[str, Value] = {}
    for statement in body:
        if isinstance(statement, ir.ExprStmt) and isinstance(statement.value, ir.Const):
            continue  # pass, ..., a docstring
        if _self_assignment(statement):
            continue  # u = u names the same object again (the Julia tool's issue 174: a clone)
        found = _increment(statement)
        if found is None or found[0] in added:
            return None
        name, amount, sign = found
        if not effect_free(amount, a) or ir.names_read(amount) & ({name} | set(added)):
            return None
        value = a.expr(amount)
        if not isinstance(value.type, T.Scalar):
            return None
        if not value.public:  # R-if-counted-bounded: its interval bounds it
            interval = _interval(value, sign)
            if interval is None:
                return None
            added[name] = Value(value.type, value.ctx, interval=interval)
            continue
        if value.magnitude() is None:
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


def effect_free(expr: ir.Expr | ir.Slice, a: Analysis | None = None,
                pure: frozenset[str] | None = None) -> bool:
    """Only constants, names and arithmetic on them, all the way down; with the analysis,
    also subscripts and calls of pure numeric builtins (np.clip(r[1], 0.0, 1.0); ``pure``
    names them, PURE by default)."""
    if isinstance(expr, (ir.Const, ir.Name)):
        return True
    if isinstance(expr, ir.BinOp):
        return effect_free(expr.left, a, pure) and effect_free(expr.right, a, pure)
    if isinstance(expr, ir.UnaryOp):
        return effect_free(expr.operand, a, pure)
    if a is None:
        return False
    if isinstance(expr, ir.Subscript):
        return effect_free(expr.value, a, pure) and all(effect_free(p, a, pure) for p in expr.index)
    if isinstance(expr, ir.Slice):
        return all(effect_free(p, a, pure) for p in (expr.lower, expr.upper, expr.step)
                   if p is not None)
    if isinstance(expr, ir.Call) and not expr.keywords and a.qualify(expr.func) in (pure or PURE):
        return all(effect_free(arg, a, pure) for arg in expr.args)
    return False


# Builtins whose calls neither change anything nor spend privacy.
PURE = frozenset({"numpy.clip", "builtins.abs", "numpy.abs", "numpy.absolute", "builtins.float",
                   "builtins.min", "builtins.max", "numpy.minimum", "numpy.maximum"})


def _interval(value: Value, sign: int) -> ranges.Interval | None:
    """The interval of ±value, with finite ends."""
    found = ranges.finite(ranges.of(value))
    if found is None:
        return None
    return found if sign > 0 else (-found[1], -found[0])


def _bounded_moves(a: Analysis, amounts: list[Value | None], flips: C.Context) -> C.Context | None:
    """How far u moves when some path adds an amount that is not public (R-if-counted-bounded).

    Every path's increment (0 where it adds nothing) lies in the hull [lo, hi] of the
    amounts' intervals, the same on both runs. A discrete variable that changes (by at
    least 1) moves it by at most hi − lo, whichever paths the runs take; a variable of
    another metric is in no test, so the runs take the same path and it moves the
    amount by its own sensitivity (the largest over the paths)."""
    spread = _hull_width([(E.ZERO, E.ZERO) if v is None else ranges.of(v) for v in amounts])
    if spread is None:
        return None
    moved: C.Context = C.scale(spread, flips)
    for amount in amounts:
        if amount is None:
            continue
        for variable, rate in amount.ctx.items():
            if T.is_discrete_metric(a.var_types.get(variable, T.REAL)):
                moved = C.join(moved, {variable: spread})
            else:
                moved = C.join(moved, {variable: rate})
    return moved


def _literal(expr: ir.Expr) -> bool:
    """A number literal, possibly negated."""
    if isinstance(expr, ir.UnaryOp) and expr.op in ("-", "+"):
        return _literal(expr.operand)
    return isinstance(expr, ir.Const) and isinstance(expr.value, (int, float)) \
        and not isinstance(expr.value, bool)


def _self_assignment(statement: ir.Stmt) -> bool:
    """``u = u``."""
    return isinstance(statement, ir.Assign) and len(statement.targets) == 1 \
        and isinstance(statement.targets[0], ir.NameTarget) \
        and isinstance(statement.value, ir.Name) and statement.value.id == statement.targets[0].id


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


def _spread(amounts: list[Value | None]) -> E.Expr | None:
    """A bound on how far apart any two of these public amounts (None: 0) are."""
    gap = E.ZERO
    for i, first in enumerate(amounts):
        for second in amounts[i + 1:]:
            pair = _difference(first, second)
            if pair is None:
                return None
            gap = E.smax(gap, pair)
    return gap


def _difference(first: Value | None, second: Value | None) -> E.Expr | None:
    """A bound on |first − second| for public amounts (None: not bounded)."""
    if first is not None and second is not None and first.exact is not None \
            and second.exact is not None:
        return E.absolute(first.exact - second.exact)
    bounds = [v.magnitude() if v is not None else E.ZERO for v in (first, second)]
    if any(b is None for b in bounds):
        return None
    return E.add(bounds[0], bounds[1])


def choice_taint(a: Analysis, test: Value, first: Value | None, second: Value | None,
                 span: Span | None = None) -> C.Context:
    """What the condition adds to a value it chooses between two arms (R-if-public-arms).

    When both arms are public numbers p and q, the result moves by |p − q| where the
    condition flips and not at all elsewhere; a condition on discrete variables flips
    only if one of them changed, by at least 1, and any other by at most Γ_c (∞ for a
    comparison of reals). Otherwise ∞·Γ_c (R-if).
    """
    gap = _arm_gap(first, second)
    if gap is None:
        gap = _hull_gap(first, second)
    if gap is None:
        taint = C.blow_up(test.ctx)
        if span is not None:
            a.unbounded_here(span, taint, (test.ctx,), "a value chosen by this condition is unbounded "
                             "in what the condition depends on: it may flip, and the value jumps")
        return taint
    # A Bool's own distance bounds how often it flips; a number's truth (``if y``) is a
    # step: it flips under any change, however small, of a variable that is not discrete.
    boolean = isinstance(test.type, T.Scalar) and test.type.kind == "Bool"
    flips = {v: E.ONE if T.is_discrete_metric(a.var_types.get(v, T.REAL))
             else r if boolean else E.INF for v, r in test.ctx.items()}
    return C.scale(gap, flips)


def _hull_gap(first: Value | None, second: Value | None) -> E.Expr | None:
    """hi − lo of the hull of two numbers' intervals (R-if-bounded-arms): where the
    condition flips, the value moves from one arm's value to the other's, both in it."""
    if first is None or second is None or not isinstance(first.type, T.Scalar) \
            or not isinstance(second.type, T.Scalar) or first.zero_d or second.zero_d:
        return None
    return _hull_width([_interval(first, 1), _interval(second, 1)])


def _hull_width(intervals: list[ranges.Interval | None]) -> E.Expr | None:
    """hi − lo of the smallest interval holding them all (None: one is not known)."""
    hull = intervals[0]
    for interval in intervals[1:]:
        hull = ranges.hull(hull, interval)
    return None if hull is None else ranges.width(hull)


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


__all__ = ["PURE", "choice_taint", "counted_branch", "effect_free"]
