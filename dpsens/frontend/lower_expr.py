"""Lowering of LibCST expressions to IR expressions."""

from __future__ import annotations

from dataclasses import replace

import ast
from typing import Callable

import libcst as cst

from dpsens import ir
from dpsens.diagnostics import NO_SPAN, Span
from dpsens.frontend.positions import LazySpan, ModulePositions

_BINARY = {
    cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/",
    cst.FloorDivide: "//", cst.Modulo: "%", cst.Power: "**", cst.MatrixMultiply: "@",
    cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^", cst.LeftShift: "<<",
    cst.RightShift: ">>",
}
_UNARY = {cst.Minus: "-", cst.Plus: "+", cst.Not: "not", cst.BitInvert: "~"}
_COMPARE = {
    cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
    cst.GreaterThan: ">", cst.GreaterThanEqual: ">=", cst.Is: "is", cst.IsNot: "is not",
    cst.In: "in", cst.NotIn: "not in",
}
_CONSTANT_NAMES = {"True": True, "False": False, "None": None}


def _string_value(literal: str) -> object:
    """The value of a string literal. One without a prefix, escapes or carriage returns
    (most docstrings) is its text between the quotes; literal_eval parses a module for
    each (2,000 docstrings on benchmark A: 15 ms)."""
    if literal[:1] in ("'", '"') and "\\" not in literal and "\r" not in literal:
        quotes = 3 if literal[:3] in ("'''", '"""') else 1
        return literal[quotes:-quotes]
    return ast.literal_eval(literal)


class ExprLowerer:
    """Turns LibCST expression nodes into IR, using a node -> span map."""

    def __init__(self, positions: ModulePositions | None) -> None:
        self.positions = positions
        self.current_line = 0  # the line of the statement being lowered

    def span(self, node: cst.CSTNode) -> Span:
        """The (lazily resolved) span of a node; NO_SPAN when positions are not tracked."""
        if self.positions is None:
            return NO_SPAN
        return LazySpan(node, self.positions, self.current_line)  # type: ignore[return-value]

    def lower(self, node: cst.BaseExpression) -> ir.Expr:
        """Lower one expression; constructs outside the subset become Unsupported."""
        method: Callable[[ExprLowerer, cst.BaseExpression], ir.Expr] | None
        method = _DISPATCH.get(type(node))
        if method is None:
            found = self.unsupported(node, _describe(node))
            if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
                found = replace(found, comprehension=self._comprehension(node))
            return found
        return method(self, node)

    def _comprehension(self, node: cst.ListComp | cst.GeneratorExp) -> ir.Comprehension | None:
        """One ``for`` over an iterable, with optional ``if`` tests and no ``:=`` (which
        would bind outside it): the loop that builds the list; else None."""
        clause = node.for_in
        if clause.inner_for_in is not None or clause.asynchronous is not None \
                or effects_of(node)[0] or not hasattr(self, "target") \
                or not _names_only(clause.target):  # `for c[0] in …` stores outside it
            return None
        tests = [self.lower(test.test) for test in clause.ifs]
        condition = None if not tests else tests[0] if len(tests) == 1 else \
            ir.BoolOp(self.span(node), "and", tuple(tests))
        return ir.Comprehension(self.span(node), self.lower(node.elt),
                                self.target(clause.target),
                                self.lower(clause.iter), condition,
                                generator=isinstance(node, cst.GeneratorExp))

    def unsupported(self, node: cst.CSTNode, kind: str) -> ir.Unsupported:
        """An Unsupported node remembering the names it reads."""
        return ir.Unsupported(self.span(node), kind, names_in(node), *effects_of(node))

    def _literal(self, node: cst.BaseExpression) -> ir.Expr:
        # int()/float() read every Python numeral (0x, _ separators) at a tenth of literal_eval's
        # cost. type() is: parser output has exact classes (a failing isinstance on LibCST's
        # abstract node classes costs 8x more).
        if type(node) is cst.Integer:
            return ir.Const(self.span(node), int(node.value, 0))
        if type(node) is cst.Float:
            return ir.Const(self.span(node), float(node.value))
        assert isinstance(node, (cst.SimpleString, cst.Imaginary))
        return ir.Const(self.span(node), _string_value(node.value))

    def _name(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.Name)
        if node.value in _CONSTANT_NAMES:
            return ir.Const(self.span(node), _CONSTANT_NAMES[node.value])
        return ir.Name(self.span(node), node.value)

    def _attribute(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.Attribute)
        return ir.Attribute(self.span(node), self.lower(node.value), node.attr.value)

    def _call(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.Call)
        args: list[ir.Expr] = []
        keywords: list[ir.Keyword] = []
        for arg in node.args:
            if arg.star:
                return self.unsupported(node, "call with *args or **kwargs")
            value = self.lower(arg.value)
            if isinstance(value, ir.Unsupported) and value.comprehension is not None \
                    and value.comprehension.generator and isinstance(node.func, cst.Name) \
                    and len(node.args) == 1:  # consumed by the call (if the callee is a consumer)
                value = replace(value, comprehension=replace(value.comprehension,
                                                             consumer=node.func.value))
            if arg.keyword is not None:
                keywords.append(ir.Keyword(arg.keyword.value, value))
            else:
                args.append(value)
        return ir.Call(self.span(node), self.lower(node.func), tuple(args), tuple(keywords))

    def _binary(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.BinaryOperation)
        op = _BINARY[type(node.operator)]
        return ir.BinOp(self.span(node), op, self.lower(node.left), self.lower(node.right))

    def _unary(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.UnaryOperation)
        op = _UNARY[type(node.operator)]
        return ir.UnaryOp(self.span(node), op, self.lower(node.expression))

    def _comparison(self, node: cst.BaseExpression) -> ir.Expr:
        # a < b < c is (a < b) and (b < c); b is evaluated once, which is the
        # same value for the analysis since expressions have no effects.
        assert isinstance(node, cst.Comparison)
        parts: list[ir.Expr] = []
        left = self.lower(node.left)
        for target in node.comparisons:
            right = self.lower(target.comparator)
            op = _COMPARE[type(target.operator)]
            parts.append(ir.Compare(self.span(node), op, left, right))
            left = right
        if len(parts) == 1:
            return parts[0]
        return ir.BoolOp(self.span(node), "and", tuple(parts))

    def _boolean(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.BooleanOperation)
        op = "and" if isinstance(node.operator, cst.And) else "or"
        values = []
        for side in (node.left, node.right):
            lowered = self.lower(side)
            if isinstance(lowered, ir.BoolOp) and lowered.op == op:
                values.extend(lowered.values)
            else:
                values.append(lowered)
        return ir.BoolOp(self.span(node), op, tuple(values))

    def _if_exp(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.IfExp)
        return ir.IfExp(
            self.span(node), self.lower(node.test), self.lower(node.body), self.lower(node.orelse)
        )

    def _subscript(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.Subscript)
        index: list[ir.Expr | ir.Slice] = []
        for element in node.slice:
            part = element.slice
            if isinstance(part, cst.Index):
                if part.star is not None:
                    return self.unsupported(node, "starred subscript")
                index.append(self.lower(part.value))
            else:
                index.append(
                    ir.Slice(
                        self.span(part),
                        self._optional(part.lower),
                        self._optional(part.upper),
                        self._optional(part.step),
                    )
                )
        return ir.Subscript(self.span(node), self.lower(node.value), tuple(index))

    def _optional(self, node: cst.BaseExpression | None) -> ir.Expr | None:
        return None if node is None else self.lower(node)

    def _tuple(self, node: cst.BaseExpression) -> ir.Expr:
        """A tuple display; a list display reads the same (what would change a list, a
        store or a method, is refused or unbounded on a tuple value)."""
        assert isinstance(node, (cst.Tuple, cst.List))
        elts: list[ir.Expr] = []
        for element in node.elements:
            if isinstance(element, cst.StarredElement):
                return self.unsupported(node, "starred element")
            elts.append(self.lower(element.value))
        return ir.TupleExpr(self.span(node), tuple(elts), isinstance(node, cst.List))

    def _lambda(self, node: cst.BaseExpression) -> ir.Expr:
        assert isinstance(node, cst.Lambda)
        params = node.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT and params.star_arg is not None:
            return self.unsupported(node, "lambda with *args")
        if params.star_kwarg is not None or params.kwonly_params or params.posonly_params:
            return self.unsupported(node, "lambda with special parameters")
        lowered = tuple(ir.Param(self.span(p), p.name.value,
                                 default=self.lower(p.default) if p.default is not None else None)
                        for p in params.params)
        return ir.Lambda(self.span(node), lowered, self.lower(node.body))


def names_in(node: cst.CSTNode) -> tuple[str, ...]:
    """All names read or written anywhere inside a node, sorted."""
    collector = _NameCollector()
    node.visit(collector)
    return tuple(sorted(collector.names))


class _NameCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        # Only the base of a.b.c is a variable; attribute names are not.
        node.value.visit(self)
        return False


def effects_of(node: cst.CSTNode) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Names an unsupported construct may (re)bind, and names whose arrays it may write into."""
    collector = _EffectCollector()
    node.visit(collector)
    return tuple(sorted(collector.assigned)), tuple(sorted(collector.reached))


class _EffectCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.assigned: set[str] = set()
        self.reached: set[str] = set()

    def _add(self, target: cst.CSTNode) -> None:
        if isinstance(target, (cst.Subscript, cst.Attribute)):
            self._reach(target)
        while isinstance(target, (cst.Subscript, cst.Attribute)):
            target = target.value
        if isinstance(target, cst.Name):
            self.assigned.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._add(element.value)
        elif isinstance(target, cst.StarredElement):
            self._add(target.value)

    def _reach(self, expr: cst.CSTNode) -> None:
        while isinstance(expr, (cst.Subscript, cst.Attribute)):
            expr = expr.value
        if isinstance(expr, cst.Name):
            self.reached.add(expr.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._add(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._add(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._add(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._add(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._add(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._add(node.target)

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self._add(node.name)

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self._add(node.name)

    def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self._add(node.rest)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._add(node.name)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._add(node.name)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        if node.asname is None:  # import a.b binds a
            name: cst.BaseExpression = node.name
            while isinstance(name, cst.Attribute):
                name = name.value
            self._add(name)

    def visit_Global(self, node: cst.Global) -> None:
        self.assigned.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.assigned.update(n.name.value for n in node.names)

    def visit_Call(self, node: cst.Call) -> None:
        # A method call may mutate its receiver (x.sort()), any call its arguments, and
        # a called closure the arrays it captures (D41).
        if isinstance(node.func, cst.Attribute):
            self._reach(node.func.value)
        elif isinstance(node.func, cst.Name):
            self._reach(node.func)
        for arg in node.args:
            self._reach(arg.value)

    def visit_Del(self, node: cst.Del) -> None:
        self._add(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        # Its names are its own (Python 3); a subscript or attribute target stores outside.
        if not _names_only(node.target):
            self._add(node.target)


def _names_only(target: cst.BaseExpression) -> bool:
    """A target that only binds names (``t``, ``a, b``), storing into nothing."""
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_names_only(element.value) for element in target.elements) \
            and not has_starred(target)
    return False


def has_starred(target: cst.BaseExpression) -> bool:
    """An unpacking target with a ``*name`` at any depth: the name takes a list of what
    is left, which ir.TupleTarget does not describe."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(isinstance(element, cst.StarredElement) or has_starred(element.value)
                   for element in target.elements)
    return False


def _describe(node: cst.CSTNode) -> str:
    """A readable name for an unsupported construct."""
    names = {
        cst.ListComp: "list comprehension", cst.GeneratorExp: "generator expression",
        cst.DictComp: "dict comprehension", cst.SetComp: "set comprehension",
        cst.List: "list display", cst.Dict: "dict display", cst.Set: "set display",
        cst.NamedExpr: "assignment expression", cst.Await: "await", cst.Yield: "yield",
        cst.FormattedString: "f-string", cst.ConcatenatedString: "concatenated string",
    }
    return names.get(type(node), type(node).__name__)


_DISPATCH: dict[type, Callable[[ExprLowerer, cst.BaseExpression], ir.Expr]] = {
    cst.Integer: ExprLowerer._literal,
    cst.Float: ExprLowerer._literal,
    cst.Imaginary: ExprLowerer._literal,
    cst.SimpleString: ExprLowerer._literal,
    cst.Name: ExprLowerer._name,
    cst.Attribute: ExprLowerer._attribute,
    cst.Call: ExprLowerer._call,
    cst.BinaryOperation: ExprLowerer._binary,
    cst.UnaryOperation: ExprLowerer._unary,
    cst.Comparison: ExprLowerer._comparison,
    cst.BooleanOperation: ExprLowerer._boolean,
    cst.IfExp: ExprLowerer._if_exp,
    cst.Subscript: ExprLowerer._subscript,
    cst.Tuple: ExprLowerer._tuple,
    cst.List: ExprLowerer._tuple,
    cst.Lambda: ExprLowerer._lambda,
}
