"""Choices between the two values a comparison compares: max and min written as branches.

``x if x > 0 else 0.0``, ``np.where(a < b, a, b)``, ``if x > 1.0: x = 1.0`` and
``if a > b: return a`` / ``return b`` are max and min (R-if-extreme in
docs/rules.md). The test flips only where the two values are equal, so the
result does not jump there, and the condition costs nothing more than the
values do. This module finds the shape in the IR; the statement forms are
rewritten here into the conditional expression they are equal to, which the
engine analyzes as the max or min.
"""

from __future__ import annotations

import dataclasses

from dpsens import ir

# Which of the compared values `left op right` picks, by op, when the first arm is left.
_LARGER_FIRST = {">": "max", ">=": "max", "<": "min", "<=": "min"}
_SWAPPED = {"max": "min", "min": "max"}
# Operators with no side effects and no hidden reads on numbers and numpy arrays.
_PURE_OPERATORS = frozenset({"+", "-", "*", "/", "//", "%", "**"})


def extreme(test: ir.Expr, first: ir.Expr, second: ir.Expr, differences: bool = True) -> str | None:
    """"max" or "min" when ``first if test else second`` is the larger or smaller of
    two values the test compares (the same expressions, without side effects), else None.
    With ``differences``, also of their difference and 0: ``a - b if a > b else 0.0``
    is max(a − b, 0), since a > b exactly when a − b > 0 (IEEE subtraction of unequal
    numbers is never 0)."""
    if not isinstance(test, ir.Compare) or test.op not in _LARGER_FIRST:
        return None
    if not (_pure(test.left) and _pure(test.right)):
        return None
    if same(first, test.left) and same(second, test.right):
        return _LARGER_FIRST[test.op]
    if same(first, test.right) and same(second, test.left):
        return _SWAPPED[_LARGER_FIRST[test.op]]
    if not differences:
        return None
    for difference, zero in ((first, second), (second, first)):
        if not (_is_zero(zero) and isinstance(difference, ir.BinOp) and difference.op == "-"):
            continue
        if same(difference.left, test.left) and same(difference.right, test.right):
            op = test.op  # a op b is (a − b) op 0
        elif same(difference.left, test.right) and same(difference.right, test.left):
            op = _REVERSED[test.op]  # a op b is (b − a) reversed-op 0
        else:
            continue
        kind = _LARGER_FIRST[op]
        return kind if difference is first else _SWAPPED[kind]
    return None


_REVERSED = {">": "<", ">=": "<=", "<": ">", "<=": ">="}


def _is_zero(e: ir.Expr) -> bool:
    if isinstance(e, ir.UnaryOp) and e.op in ("-", "+"):
        return _is_zero(e.operand)  # -0.0
    return isinstance(e, ir.Const) and _number(e.value) and e.value == 0


def clamp(test: ir.Expr, first: ir.Expr, second: ir.Expr) -> tuple[str, ir.Expr, ir.Expr, str] | None:
    """``hi if x > hi else (lo if x < lo else x)``: one arm is a bound b the test compares
    x with, the other a max or min E of x and another value c (elif chains fold to
    this). Then the whole is outer(E, b) when c is on the right side of b (c ≤ b when E
    is a max, c ≥ b when it is a min): the cases where x passes b take b, the others
    E, which lies on b's side. Returns (outer, b, c, "le" or "ge": the order c must have
    to b), or None."""
    if not isinstance(test, ir.Compare) or test.op not in _LARGER_FIRST:
        return None
    for bound, other in ((first, second), (second, first)):
        if not isinstance(other, ir.IfExp):
            continue
        # (E must be a max or min of x itself: the clamp's proof compares x with b)
        inner = extreme(other.test, other.body, other.orelse, differences=False)
        compared = other.test
        if inner is None or not isinstance(compared, ir.Compare):
            continue
        for x, b in ((test.left, test.right), (test.right, test.left)):
            if not same(bound, b) or not (same(compared.left, x) or same(compared.right, x)):
                continue
            c = compared.right if same(compared.left, x) else compared.left
            outer = extreme(test, x if first is other else first, x if second is other else second,
                            differences=False)
            if outer is not None:
                return outer, b, c, "le" if inner == "max" else "ge"
    return None


def same(a: ir.Expr | ir.Slice | None, b: ir.Expr | ir.Slice | None) -> bool:
    """Whether two pure expressions are written alike (spans aside): they have one value
    wherever both are evaluated with the same names bound."""
    if a is None or b is None:
        return a is b
    if type(a) is not type(b):
        return False
    if isinstance(a, ir.Const):
        assert isinstance(b, ir.Const)
        return _number(a.value) and _number(b.value) and a.value == b.value
    return all(field.name == "span" or _same_field(getattr(a, field.name), getattr(b, field.name))
               for field in dataclasses.fields(a))


def _same_field(a: object, b: object) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same_field(x, y) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a):
        return same(a, b)  # type: ignore[arg-type]
    return a == b


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _pure(e: ir.Expr | ir.Slice | None) -> bool:
    """Names, numbers, arithmetic and indexing of them: evaluating one twice gives the
    same value and changes nothing (no call, attribute or walrus can run code)."""
    if e is None or isinstance(e, ir.Name):
        return True
    if isinstance(e, ir.Const):
        return _number(e.value)
    if isinstance(e, ir.UnaryOp):
        return e.op in ("-", "+") and _pure(e.operand)
    if isinstance(e, ir.BinOp):
        return e.op in _PURE_OPERATORS and _pure(e.left) and _pure(e.right)
    if isinstance(e, ir.Slice):
        return _pure(e.lower) and _pure(e.upper) and _pure(e.step)
    if isinstance(e, ir.Subscript):
        return _pure(e.value) and all(_pure(i) for i in e.index)
    return False


def fold(statements: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
    """The block with each max or min written as an ``if`` replaced by the assignment or
    return of the conditional expression it equals; other statements unchanged."""
    out: list[ir.Stmt] = []
    position = 0
    while position < len(statements):
        statement = statements[position]
        following = statements[position + 1] if position + 1 < len(statements) else None
        folded = _folded(statement, following) if isinstance(statement, ir.If) else None
        if folded is None:
            out.append(statement)
            position += 1
        else:
            out.append(folded[0])
            position += 1 + folded[1]
    return tuple(out)


def _folded(branch: ir.If, following: ir.Stmt | None) -> tuple[ir.Stmt, int] | None:
    """(the statement equal to ``branch``, how many following statements it also
    replaces), or None when the branch is not a max or min."""
    body, orelse = branch.body, branch.orelse
    if len(body) != 1 or len(orelse) > 1:
        return None
    then = body[0]
    if isinstance(then, ir.Return) and then.value is not None:
        # `if t: return a` then `return b` (or `else: return b`): return a if t else b.
        # What follows runs only where t fails, as the else block does: an elif chain of
        # returns ending in a plain return folds from the inside out.
        rest, used = (orelse, 0) if following is None else ((*orelse, following), 1)
        folded = fold(rest)
        other = folded[0] if len(folded) == 1 else None
        if isinstance(other, ir.Return) and other.value is not None \
                and _chooses(branch.test, then.value, other.value):
            return ir.Return(branch.span, ir.IfExp(branch.span, branch.test, then.value,
                                                   other.value)), used
        return None
    name = _assigned_name(then)
    other = orelse[0] if orelse else None
    if name is None or not isinstance(then, ir.Assign):
        return None
    if other is None:
        # `if x > 1.0: x = 1.0` is x = 1.0 if x > 1.0 else x (x is read by the test,
        # so it is bound).
        kept = ir.Name(branch.span, name)
        if _chooses(branch.test, then.value, kept):
            return ir.Assign(branch.span, then.targets,
                             ir.IfExp(branch.span, branch.test, then.value, kept)), 0
        return None
    if _assigned_name(other) == name and isinstance(other, ir.Assign) \
            and _chooses(branch.test, then.value, other.value):
        return ir.Assign(branch.span, then.targets,
                         ir.IfExp(branch.span, branch.test, then.value, other.value)), 0
    return None


def _chooses(test: ir.Expr, first: ir.Expr, second: ir.Expr) -> bool:
    """Whether ``first if test else second`` is a max, a min or a clamp of them."""
    return extreme(test, first, second) is not None or clamp(test, first, second) is not None


def _assigned_name(statement: ir.Stmt) -> str | None:
    """The name ``name = value`` binds (one plain name target), else None."""
    if isinstance(statement, ir.Assign) and len(statement.targets) == 1 \
            and isinstance(statement.targets[0], ir.NameTarget):
        return statement.targets[0].id
    return None


__all__ = ["clamp", "extreme", "fold", "same"]
