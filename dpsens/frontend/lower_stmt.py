"""Lowering of LibCST statements and function definitions to the IR."""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from dpsens import ir
from dpsens.frontend import choices, tuples
from dpsens.frontend.lower_expr import ExprLowerer, effects_of, has_starred

_UNSUPPORTED_STATEMENTS = {
    cst.While: "while loop", cst.Try: "try statement", cst.With: "with statement",
    cst.ClassDef: "class definition", cst.Del: "del statement", cst.Global: "global statement",
    cst.Nonlocal: "nonlocal statement", cst.Break: "break",
    cst.Continue: "continue", cst.Import: "import inside a function",
    cst.ImportFrom: "import inside a function", cst.Match: "match statement",
}


class StmtLowerer(ExprLowerer):
    """Turns LibCST statements into IR statements."""

    lines: dict[cst.CSTNode, int] = {}  # statement -> line, when known
    may_rebind = True  # whether nested functions may declare nonlocal or global (else skipped)
    may_yield = True  # whether functions may yield (else not searched: a visit costs ~0.3 ms)
    tuple_bound = False  # whether the function being lowered assigns a tuple display

    def function(self, node: cst.FunctionDef, prefix: str) -> ir.Function:
        """Lower a def; ``prefix`` is the qualified name of the enclosing scope."""
        qualname = f"{prefix}.{node.name.value}" if prefix else node.name.value
        params = node.params
        special: list[str] = []
        if type(params.star_arg) is cst.Param:  # else a sentinel (an exact class: fast)
            special.append(params.star_arg.name.value)
        if params.star_kwarg is not None:
            special.append(params.star_kwarg.name.value)
        lowered = tuple(
            self._param(p)
            for p in (*params.posonly_params, *params.params, *params.kwonly_params)
        )
        returns = None if node.returns is None else self.lower(node.returns.annotation)
        outer, self.tuple_bound = self.tuple_bound, False
        body = self.block(node.body, f"{qualname}.<locals>")
        if self.tuple_bound:  # (a walk of every body costs 3% of a run: only where needed)
            body = tuples.split(body, lowered, special)
        self.tuple_bound = outer or self.tuple_bound
        if node.asynchronous is not None or self.may_yield and _is_generator(node):
            # Calling it returns a coroutine or a generator, not what the body returns.
            kind = "async function" if node.asynchronous is not None else "generator function"
            body = (ir.UnsupportedStmt(self.span(node), kind, exits=True),)
        decorators = tuple(self.lower(d.decorator) for d in node.decorators)
        return ir.Function(
            self.span(node), node.name.value, qualname, lowered, returns, body, tuple(special),
            decorators, rebound=rebound_by_nested(node.body) if self.may_rebind else (),
        )

    def _param(self, param: cst.Param) -> ir.Param:
        annotation = None if param.annotation is None else self.lower(param.annotation.annotation)
        default = None if param.default is None else self.lower(param.default)
        return ir.Param(self.span(param), param.name.value, annotation, default)

    def block(self, node: cst.BaseSuite, scope: str) -> tuple[ir.Stmt, ...]:
        """Lower an indented block or a one-line suite."""
        if type(node) is cst.SimpleStatementSuite:  # def f(x): return x (an exact class: fast)
            out_suite: list[ir.Stmt] = []
            for part in node.body:
                self.current_line = self.lines.get(part, self.current_line)
                out_suite.append(self.small(part))
            return choices.fold(tuple(out_suite))
        statements: Sequence[cst.CSTNode] = node.body
        out: list[ir.Stmt] = []
        for statement in statements:
            out.extend(self.statement(statement, scope))
        return choices.fold(tuple(out))

    def statement(self, node: cst.CSTNode, scope: str) -> list[ir.Stmt]:
        """Lower one statement (a simple line may hold several)."""
        if type(node) is cst.SimpleStatementLine:  # parser output: an exact class
            out = []
            for part in node.body:
                self.current_line = self.lines.get(part, self.current_line)
                out.append(self.small(part))
            return out
        self.current_line = self.lines.get(node, self.current_line)
        if isinstance(node, cst.If):
            return [self._if(node, scope)]
        if isinstance(node, cst.For):
            return self._for(node, scope)
        if isinstance(node, cst.FunctionDef):
            return [ir.FunctionDef(self.span(node), self.function(node, scope))]
        kind = _UNSUPPORTED_STATEMENTS.get(type(node), type(node).__name__)
        return [ir.UnsupportedStmt(self.span(node), kind, *effects_of(node), exits=_exits(node),
                                  observed=_observed(node))]

    def small(self, node: cst.BaseSmallStatement) -> ir.Stmt:
        """Lower a simple statement."""
        span = self.span(node)
        # type() is: parser output has exact classes (a failing isinstance on LibCST's
        # abstract node classes costs 8x more), and mypy narrows on it too.
        if type(node) is cst.Assign:
            if any(has_starred(t.target) for t in node.targets):
                return ir.UnsupportedStmt(span, "starred assignment", *effects_of(node),
                                          exits=_exits(node), observed=_observed(node))
            targets = tuple(self.target(t.target) for t in node.targets)
            value = self.lower(node.value)
            if type(value) is ir.TupleExpr:
                self.tuple_bound = True  # the function may hold a tuple in a name (tuples.py)
            return ir.Assign(span, targets, value)
        if type(node) is cst.AnnAssign:
            if node.value is None:
                return ir.ExprStmt(span, ir.Const(span, None))
            return ir.Assign(span, (self.target(node.target),), self.lower(node.value))
        if type(node) is cst.AugAssign:
            op = _augmented_operator(node.operator)
            return ir.AugAssign(span, self.target(node.target), op, self.lower(node.value))
        if type(node) is cst.Return:
            return ir.Return(span, None if node.value is None else self.lower(node.value))
        if type(node) is cst.Raise:
            raised = [e for e in (node.exc, node.cause.item if node.cause else None) if e is not None]
            value = None if not raised else self.lower(raised[0]) if len(raised) == 1 else \
                ir.TupleExpr(span, tuple(self.lower(e) for e in raised))
            return ir.Raise(span, value)
        if type(node) is cst.Assert:
            # Python's own meaning: the message is evaluated only when the test fails.
            failed = ir.Raise(span, None if node.msg is None else self.lower(node.msg))
            return ir.If(span, ir.UnaryOp(span, "not", self.lower(node.test)), (failed,), ())
        if type(node) is cst.Pass or type(node) is cst.Expr and isinstance(node.value, cst.Ellipsis):
            return ir.ExprStmt(span, ir.Const(span, None))  # ``...`` as a statement does nothing
        if type(node) is cst.Expr:
            return ir.ExprStmt(span, self.lower(node.value))
        kind = _UNSUPPORTED_STATEMENTS.get(type(node), type(node).__name__)
        return ir.UnsupportedStmt(span, kind, *effects_of(node), exits=_exits(node),
                                  observed=_observed(node))

    def target(self, node: cst.BaseExpression) -> ir.Target:
        """Lower an assignment target."""
        if isinstance(node, cst.Name):
            return ir.NameTarget(self.span(node), node.value)
        if isinstance(node, (cst.Tuple, cst.List)):
            elts = tuple(
                self.target(e.value)
                for e in node.elements
                if not isinstance(e, cst.StarredElement)
            )
            return ir.TupleTarget(self.span(node), elts)
        base = node
        while isinstance(base, (cst.Subscript, cst.Attribute)):
            base = base.value
        name = base.value if isinstance(base, cst.Name) else None
        return ir.StoreTarget(self.span(node), name, self.lower(node))

    def _if(self, node: cst.If, scope: str) -> ir.If:
        orelse: tuple[ir.Stmt, ...] = ()
        if isinstance(node.orelse, cst.If):
            orelse = choices.fold((self._if(node.orelse, scope),))
        elif isinstance(node.orelse, cst.Else):
            orelse = self.block(node.orelse.body, scope)
        return ir.If(self.span(node), self.lower(node.test), self.block(node.body, scope), orelse)

    def _for(self, node: cst.For, scope: str) -> list[ir.Stmt]:
        span = self.span(node)
        if node.orelse is not None or node.asynchronous is not None or has_starred(node.target):
            kind = "for-else" if node.orelse is not None else "async for" \
                if node.asynchronous is not None else "for loop with a starred target"
            return [ir.UnsupportedStmt(span, kind, *effects_of(node), exits=_exits(node),
                                  observed=_observed(node))]
        body = self.block(node.body, scope)
        body = without_continue(body) or body
        target, iterable = self.target(node.target), self.lower(node.iter)
        before: list[ir.Stmt] = []
        after: list[ir.Stmt] = []
        if any(_holds(s, "return") for s in body):
            # R-loop-return: ``return e`` in the body is ``value = e; returned = True;
            # break``, and the loop is followed by ``if returned: return value``.
            returned, value = f"return@{_place(span)}", f"value@{_place(span)}"
            body = _returning(body, returned, value)
            before.append(_set(returned, False, span))
            after.append(ir.If(span, ir.Name(span, returned),
                               (ir.Return(span, ir.Name(span, value)),), ()))
        if not any(_holds(s, "break") for s in body):
            return [*before, ir.For(span, target, iterable, body), *after]
        # After a break the target keeps the item it had: the loop binds a hidden name,
        # and the target takes it only while no break has happened.
        flag, item = f"break@{_place(span)}", f"item@{_place(span)}"
        taken = ir.Assign(span, (target,), ir.Name(span, item))
        return [*before, _set(flag, False, span),
                ir.For(span, ir.NameTarget(span, item), iterable,
                       (_unless(flag, (taken, *_stopping(body, flag)), span),)), *after]


# Statements a loop body may grow to when ``continue`` is removed (each if that holds one
# takes a copy of the statements after it): above this the continue stays unsupported.
_CONTINUE_LIMIT = 200


def without_continue(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...] | None:
    """A loop body with its ``continue`` statements turned into branches, or None.

    ``if c: A; continue`` followed by B is ``if c: A else: B`` (and so on nested):
    the same statements run in the same order, so every rule applies unchanged.
    None when the body has no continue outside nested loops, or the copies would be
    too many.
    """
    if not any(_holds(s, "continue") for s in body):
        return None
    rewritten = _then(body, ())
    if rewritten is None or _size(rewritten) > _CONTINUE_LIMIT:
        return None
    return rewritten


def _then(stmts: tuple[ir.Stmt, ...], rest: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...] | None:
    """stmts followed by rest, where a continue in stmts skips the rest of the body."""
    for position, statement in enumerate(stmts):
        if isinstance(statement, ir.UnsupportedStmt) and statement.kind == "continue":
            return stmts[:position]
        if isinstance(statement, ir.If) and _holds(statement, "continue"):
            after = _then(stmts[position + 1:], rest)
            body = None if after is None else _then(statement.body, after)
            orelse = None if after is None else _then(statement.orelse, after)
            if body is None or orelse is None:
                return None
            return (*stmts[:position], ir.If(statement.span, statement.test, body, orelse))
    return (*stmts, *rest)


def _stopping(stmts: tuple[ir.Stmt, ...], flag: str) -> tuple[ir.Stmt, ...]:
    """A loop body's statements with each ``break`` setting the flag (False before the
    loop), and what follows an ``if`` that may break guarded by it: once the flag is set,
    nothing of the body runs again, which is what ``break`` does. The flag's name is not
    an identifier, so it cannot meet the program's own names."""
    for position, statement in enumerate(stmts):
        if isinstance(statement, ir.UnsupportedStmt) and statement.kind == "break":
            span = statement.span
            return (*stmts[:position], _set(flag, True, span))
        if isinstance(statement, ir.If) and _holds(statement, "break"):
            branch = ir.If(statement.span, statement.test, _stopping(statement.body, flag),
                           _stopping(statement.orelse, flag))
            rest = _stopping(stmts[position + 1:], flag)
            guarded = (_unless(flag, rest, statement.span),) if rest else ()
            return (*stmts[:position], branch, *guarded)
    return stmts


def _place(span: ir.Span) -> str:
    """line:column, for hidden names (only when needed: a span resolves its position
    lazily, and the first resolution in a module costs about as much as parsing it)."""
    return f"{span.line}:{span.column}"


def _returning(stmts: tuple[ir.Stmt, ...], returned: str, value: str) -> tuple[ir.Stmt, ...]:
    """A loop body's statements with each ``return e`` (in it or its branches) keeping e
    in ``value``, setting ``returned`` and breaking; what follows a return never runs."""
    out: list[ir.Stmt] = []
    for statement in stmts:
        if isinstance(statement, ir.Return):
            span = statement.span
            kept = statement.value if statement.value is not None else ir.Const(span, None)
            return (*out, ir.Assign(span, (ir.NameTarget(span, value),), kept),
                    _set(returned, True, span), ir.UnsupportedStmt(span, "break", exits=True))
        if isinstance(statement, ir.If) and _holds(statement, "return"):
            statement = ir.If(statement.span, statement.test,
                              _returning(statement.body, returned, value),
                              _returning(statement.orelse, returned, value))
        out.append(statement)
    return tuple(out)


def _set(name: str, truth: bool, span: ir.Span) -> ir.Assign:
    return ir.Assign(span, (ir.NameTarget(span, name),), ir.Const(span, truth))


def _unless(flag: str, stmts: tuple[ir.Stmt, ...], span: ir.Span) -> ir.If:
    return ir.If(span, ir.UnaryOp(span, "not", ir.Name(span, flag)), stmts, ())


def _holds(statement: ir.Stmt, kind: str) -> bool:
    """Whether the statement is, or its branches hold, a break, continue or return of the
    enclosing loop (one inside a with or try block stays in that unsupported statement,
    which may exit; a nested loop's return is rewritten by that loop into an if)."""
    if isinstance(statement, ir.Return):
        return kind == "return"
    if isinstance(statement, ir.UnsupportedStmt):
        return statement.kind == kind
    if isinstance(statement, ir.If):
        return any(_holds(s, kind) for s in (*statement.body, *statement.orelse))
    return False


def _size(stmts: tuple[ir.Stmt, ...]) -> int:
    return sum(1 + (_size(s.body) + _size(s.orelse) if isinstance(s, ir.If) else 0)
               for s in stmts)


def _augmented_operator(operator: cst.BaseAugOp) -> str:
    """The binary operator text of an augmented assignment operator."""
    return {
        cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*",
        cst.DivideAssign: "/", cst.FloorDivideAssign: "//", cst.ModuloAssign: "%",
        cst.PowerAssign: "**", cst.MatrixMultiplyAssign: "@", cst.BitAndAssign: "&",
        cst.BitOrAssign: "|", cst.BitXorAssign: "^", cst.LeftShiftAssign: "<<",
        cst.RightShiftAssign: ">>",
    }[type(operator)]


def _exits(node: cst.CSTNode) -> bool:
    """Whether a statement may leave its block early (return, break, continue, yield)."""
    if isinstance(node, (cst.Return, cst.Break, cst.Continue)):
        return True
    return _contains(node, (cst.Return, cst.Break, cst.Continue, cst.Yield))


def _observed(node: cst.CSTNode) -> bool:
    """Whether an unsupported statement may do what a privacy function's caller sees
    (R-observed): raise, fail an assert, call code (which may raise or print), bind a
    global, or store (into a caller's array)."""
    return isinstance(node, (cst.Global, cst.Nonlocal)) or _contains(
        node, (cst.Raise, cst.Assert, cst.Call, cst.Global, cst.Nonlocal,
               cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Del))  # (stores: a caller's array)


def _is_generator(node: cst.FunctionDef) -> bool:
    """A def whose own body yields (not a nested def's or lambda's)."""
    return _contains(node.body, (cst.Yield,))


def _contains(node: cst.CSTNode, kinds: tuple[type[cst.CSTNode], ...]) -> bool:
    """Whether a node of these kinds is under node, outside nested defs and lambdas (their
    returns and yields are their own)."""
    finder = _Finder(kinds)
    node.visit(finder)
    return finder.found


class _Finder(cst.CSTVisitor):
    def __init__(self, kinds: tuple[type[cst.CSTNode], ...]) -> None:
        self.kinds, self.found = kinds, False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            return False
        self.found = self.found or isinstance(node, self.kinds)
        return not self.found


def rebound_by_nested(body: cst.BaseSuite) -> tuple[str, ...]:
    """Names that functions or classes nested in a body declare nonlocal or global, sorted."""
    finder = _ReboundFinder()
    body.visit(finder)
    return tuple(sorted(finder.names))


class _ReboundFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.depth = 0  # nested scopes entered

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.depth += 1

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.depth -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.depth += 1

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.depth -= 1

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        if self.depth:
            self.names.update(n.name.value for n in node.names)

    def visit_Global(self, node: cst.Global) -> None:
        if self.depth:
            self.names.update(n.name.value for n in node.names)
