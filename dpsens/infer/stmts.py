"""Typing rules of statements: assignment, branches, returns, nested defs, loops."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Sequence

from dpsens import ir
from dpsens import types as T
from dpsens.infer import dtypes, pieces
from dpsens.infer.counted import choice_taint, counted_branch
from dpsens.infer.masks import SELECTED
from dpsens.infer.mutation import join_unpacked
from dpsens.infer.values import (UNKNOWN, Value, decided, detached, element_of, is_list, join,
                                 numpy_array, tuple_value, unknown)
from dpsens.privacy.ledger import Choice, Ledger
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis, Env


@dataclass
class Flow:
    """What a block leaves: the environment if it falls through, the returned value if any."""

    env: Env | None
    returned: Value | None = None


class StatementRules:
    """Mixin of Analysis: blocks are processed forward over the environment."""

    def child(self: Analysis) -> Analysis:
        """An analysis of a nested body that sees (a copy of) this environment."""
        from dpsens.infer.engine import Analysis

        nested = Analysis(self.program, self.module, self.qualname, self.var_types, self.privacy)
        nested.env = dict(self.env)
        nested.assumptions = self.assumptions
        nested.shared = self.shared
        nested.frame = self.frame
        nested.foreign = self.foreign
        nested.static_params = self.static_params
        nested.ledger = self.ledger
        return nested

    def run_body(self: Analysis, body: Sequence[ir.Stmt]) -> Value:
        """Analyze a function body; the value it returns (None falls through)."""
        flow = self.block(body)
        if flow.returned is None:
            return Value(T.Opaque("None"))
        return flow.returned

    def block(self: Analysis, body: Sequence[ir.Stmt]) -> Flow:
        """Run statements in order; an ``if`` that may return takes the rest into its branches."""
        for position, statement in enumerate(body):
            if isinstance(statement, ir.If) and _may_return(statement):
                rest = tuple(body[position + 1:])
                statement = ir.If(statement.span, statement.test,
                                  statement.body + rest, statement.orelse + rest)
                return self.branch(statement)
            if isinstance(statement, ir.Return):
                value = self.expr(statement.value) if statement.value is not None else None
                return Flow(None, value if value is not None else Value(T.Opaque("None")))
            if isinstance(statement, ir.Raise):
                self.raised(statement)
                return Flow(None)  # nothing after it runs, and nothing is returned
            self.statement(statement)
        return Flow(self.env)

    def raised(self: Analysis, statement: ir.Raise) -> None:
        """``raise e`` ends the run: a sensitivity function returns nothing there (its bound
        holds wherever it returns), but that a privacy function raises is seen, and so is
        the exception, which may print data (R-observed)."""
        value = self.expr(statement.value) if statement.value is not None else None
        self.observe(C.EMPTY if value is None else C.blow_up(value.ctx))

    def observed_inputs(self: Analysis) -> C.Context:
        """The parameters what the run shows besides its result depends on, unbounded (a
        loop's or an element's variable in it may stand for any of them)."""
        return self.inputs_in(self.shared.observed)

    def inputs_in(self: Analysis, ctx: C.Context) -> C.Context:
        """The parameters a context of the run's effects depends on, unbounded (a loop's
        or an element's variable in it may stand for any of them)."""
        seen = C.substitute(ctx, self.shared.sample_sources)
        if any(v.startswith("@") and not E.is_zero(s) for v, s in seen.items()):
            return C.blow_up(self.tracked())
        return C.blow_up({v: s for v, s in seen.items() if v in self.var_types})

    def observe(self: Analysis, ctx: C.Context) -> None:
        """An effect seen outside the returned value (a raise, an unknown call's output):
        it reveals ctx and, through the branches around it, their tests."""
        self.shared.observed = C.add(self.shared.observed, ctx)
        self.shared.observations += 1

    def escape(self: Analysis, ctx: C.Context) -> None:
        """ctx handed to code dpsens cannot see, which may keep it: what unknown code
        returns from now on may be it (R-kept)."""
        self.shared.escaped = C.add(self.shared.escaped, C.blow_up(ctx))
        self.shared.escapes += 1
        # An unknown object made before may be a view of the state that keeps it
        # (b = store.make(); store.put(x); b.v): what it holds may now be ctx.
        if ctx:
            for name, value in self.env.items():
                if value.type == UNKNOWN:
                    self.env[name] = value.with_ctx(C.add(value.ctx, C.blow_up(ctx)))

    def run_unknown(self: Analysis, given: C.Context, keeps: bool) -> Value:
        """The result of code dpsens cannot see given ``given``: unknown in it and, when
        the code may keep state, in what was handed to such code before, which it may
        return; what it is given now is handed over (R-kept)."""
        result = unknown(C.add(given, self.kept()) if keeps else given)
        if given and keeps:
            self.escape(given)
        return result

    def kept(self: Analysis) -> C.Context:
        """What unknown code run now may return besides its inputs (R-kept). That it runs
        is handed to it too: under a test, the test (``reveal``)."""
        self.shared.ran_unknown = True
        self.shared.escapes += 1
        # A loop's or a builtin's own variable handed over may outlive them there: it
        # stands for something of the parameters, so unbounded in every one (D136).
        return self.inputs_in(self.shared.escaped)

    def effects(self: Analysis) -> tuple[int, int]:
        """How many effects (observations, runs of and hand-overs to unknown code) were
        met so far."""
        return self.shared.observations, self.shared.escapes

    def reveal(self: Analysis, test: C.Context, seen: tuple[int, int]) -> None:
        """Effects met since ``seen`` happened only as a test went: whoever sees them, or
        the unknown code they reached, learns the test."""
        observations, escapes = seen
        if self.shared.observations != observations:
            self.observe(C.blow_up(test))
        if self.shared.escapes != escapes:
            self.escape(test)

    def branch(self: Analysis, statement: ir.If) -> Flow:
        """max(Γ_A, Γ_B) + ∞·Γ_c for everything either branch assigns or returns."""
        test = self.expr(statement.test)
        taken = decided(test)
        if taken is not None:  # a known public Bool: only that branch runs
            flow = self.child().block(statement.body if taken else statement.orelse)
            if flow.env is not None:
                self.env = flow.env
            return Flow(flow.env, flow.returned)
        if counted_branch(self, statement, test):
            return Flow(self.env)
        flows = []
        spent: list[list[object]] = []
        seen = self.effects()
        for body in (statement.body, statement.orelse):
            nested = self.child()
            nested.ledger = Ledger()
            flows.append(nested.block(body))
            spent.append(nested.ledger.items)
        self.reveal(test.ctx, seen)  # whether it happened depends on the test
        if any(spent):
            self.ledger.items.append(Choice((tuple(spent[0]), tuple(spent[1]))))  # type: ignore[arg-type]
        envs = [f.env for f in flows if f.env is not None]
        returned = [f.returned for f in flows if f.returned is not None]
        if envs:
            self.env = _join_envs(self.env, envs, lambda first, second: choice_taint(
                self, test, first, second, statement.test.span))
        result = None
        if returned:
            result = returned[0] if len(returned) == 1 else join(returned[0], returned[1])
            gap = choice_taint(self, test, *returned, statement.test.span) if len(returned) == 2 \
                else choice_taint(self, test, None, None, statement.test.span)
            result = result.with_ctx(C.add(result.ctx, gap))
        return Flow(self.env if envs else None, result)

    def statement(self: Analysis, statement: ir.Stmt) -> None:
        """Run one statement that does not return."""
        if isinstance(statement, ir.Assign):
            if self.bound_from_display(statement) or self.entry_incremented(statement):
                return
            value = self.expr(statement.value)
            before = dict(self.env)  # targets bind left to right: an earlier one's store
            for target in statement.targets:  # may write into the array the value holds
                self.bind(target, value, statement.value, before=before)
            names = [t.id for t in statement.targets if isinstance(t, ir.NameTarget)]
            for other in names[1:]:  # a = b = np.zeros(3): one array under two names
                self.join_groups(other, names[0], partial=False)
        elif isinstance(statement, ir.AugAssign):
            self.augmented(statement)
        elif isinstance(statement, ir.ExprStmt):
            self.expr(statement.value)
        elif isinstance(statement, ir.If):
            self.branch(statement)
        elif isinstance(statement, ir.For):
            self.loop(statement)
        elif isinstance(statement, ir.FunctionDef):
            self.define(statement.function)
        elif isinstance(statement, ir.UnsupportedStmt):
            self.report(statement.span, "DPS201", f"unsupported statement: {statement.kind}")
            self.forget_effects(statement.span, statement.assigned, statement.reached)
            if statement.exits:
                self.poisoned = True
            if statement.observed:  # not analyzed: it may show anything it can reach
                self.observe(C.blow_up(self.tracked()))

    def entry_incremented(self: Analysis, statement: ir.Assign) -> bool:
        """``x[i] = x[i] + e`` (or − e) on a numpy float array, one position per axis, is
        ``x[i] += e``: the entry is a number, so both store x[i] + e, and an index of
        names, constants and pure calls gives the same position when it is read again
        (then R-store-scatter may apply). False, with nothing done, otherwise."""
        from dpsens.infer.counted import effect_free
        from dpsens.infer.scatter import INDEX_CALLS

        [target] = statement.targets if len(statement.targets) == 1 else [None]
        value = statement.value
        if not (isinstance(target, ir.StoreTarget) and isinstance(target.target, ir.Subscript)
                and isinstance(value, ir.BinOp) and value.op in ("+", "-")
                and ir.written(value.left) == ir.written(target.target)
                and target.base in self.env):
            return False
        store, container = target.target, self.env[target.base]
        rank = {T.Vector: 1, T.Matrix: 2}.get(type(container.type))
        # (a float array: an integer one would truncate a stored float, where += refuses)
        if rank is None or is_list(container) or getattr(container.type, "elem", None) != "Real" \
                or len(store.index) != rank or not all(
                not isinstance(p, ir.Slice) and effect_free(p, self, INDEX_CALLS)
                for p in store.index) or target.base in ir.names_read(value.right):
            return False
        self.augmented(ir.AugAssign(statement.span, target, value.op, value.right))
        return True

    def bound_from_display(self: Analysis, statement: ir.Assign) -> bool:
        """``a, b = e1, e2``: names bound straight from a tuple display take their parts
        whole, as no store comes between (a tuple's parts lose what holds only of an
        array's present contents: values.detached). False (nothing done) otherwise."""
        [target] = statement.targets if len(statement.targets) == 1 else [None]
        source = statement.value
        if not isinstance(target, ir.TupleTarget) or not isinstance(source, ir.TupleExpr) \
                or len(source.elts) != len(target.elts) \
                or not all(isinstance(t, ir.NameTarget) for t in target.elts):
            return False
        parts = self.operands(source.elts)  # all evaluated before any is bound
        for position, later in enumerate(source.elts[1:]):
            if self.may_run_user_code(later):
                # A later call may write into the arrays the earlier parts hold: what
                # holds only of their contents before it is dropped.
                parts[:position + 1] = map(detached, parts[:position + 1])
        for name, part, expression in zip(target.elts, parts, source.elts):
            self.env[name.id] = part  # type: ignore[union-attr]
            self.record_target_aliases(name, expression)
        return True

    def define(self: Analysis, function: ir.Function) -> None:
        """A nested def binds a closure; a decorated one, whatever its decorators return."""
        closure = self.closure_value(function)
        if not function.decorators:
            self.env[function.name] = closure
            return
        self.report(function.span, "DPS201", f"decorated nested def '{function.name}' is not analyzed")
        decorators = [self.expr(d) for d in function.decorators]
        self.env[function.name] = unknown(C.total([closure.ctx, *(d.ctx for d in decorators),
                                                   self.tracked()]))

    def forget_effects(self: Analysis, span: ir.Span, assigned: Sequence[str],
                       reached: Sequence[str]) -> None:
        """What an unsupported construct binds or may write into is ∞ in every parameter."""
        everything = self.tracked()
        for name in reached:
            if name in self.env:
                self.invalidate(ir.Name(span, name), C.blow_up(everything))
        for name in assigned:
            self.env[name] = unknown(everything)
            # It may now be any array of this scope (``[d := c]``, ``case d:``): a store
            # through it may change every one of them.
            for other in sorted(self.env):
                if other != name and not isinstance(
                        self.env[other].type, (T.Scalar, T.Callable_, T.NormValue, T.TypeValue)):
                    self.join_groups(name, other, partial=True)

    def assign(self: Analysis, target: ir.Target, value: Value) -> None:
        """Bind a target; tuple targets unpack component by component."""
        if isinstance(target, ir.NameTarget):
            self.env[target.id] = value
        elif isinstance(target, ir.TupleTarget):
            for element, part in zip(target.elts, self._unpacked(target, value)):
                self.assign(element, part)
        else:
            self.mutate(target, value)

    def bind(self: Analysis, target: ir.Target, value: Value, source: ir.Expr,
             partial: bool = False, before: dict[str, Value] | None = None) -> None:
        """``target = source`` (of that value), with its aliases: a tuple target one
        component after the other, as Python assigns them (``a, a[0] = b, v`` stores
        into b). ``before`` is the env when the value was computed: what an earlier
        target's store or index wrote into an array the value holds, it holds too."""
        if not isinstance(target, ir.TupleTarget):
            if isinstance(target, ir.StoreTarget):
                self.mutate(target, value, source, before)
            else:
                if before is not None:
                    value = self.refreshed(value, source, before)
                self.assign(target, value)
            self.record_target_aliases(target, source, partial)
            return
        paired = isinstance(source, ir.TupleExpr) and len(source.elts) == len(target.elts)
        for position, (element, part) in enumerate(zip(target.elts, self._unpacked(target, value))):
            self.bind(element, part, source.elts[position] if paired else source,  # type: ignore[union-attr]
                      partial or not paired, before)
        if not paired:
            join_unpacked(self, target)

    def _unpacked(self: Analysis, target: ir.TupleTarget, value: Value) -> list[Value]:
        parts = _unpack(value, len(target.elts))
        if parts is not None:
            parts = pieces.unpacked(value, parts)
        if parts is None and value.type == UNKNOWN:
            parts = [unknown(value.ctx)] * len(target.elts)  # already reported where it arose
        if parts is None:
            self.report(target.span, "DPS301",
                        f"cannot unpack {value.type.show()} into {len(target.elts)} names")
            parts = [unknown(value.ctx)] * len(target.elts)
        return parts

    def augmented(self: Analysis, statement: ir.AugAssign) -> None:
        """``x op= e`` is ``x = x op e``."""
        from dpsens.infer import arith
        from dpsens.infer.scatter import scatter_increment

        if not isinstance(statement.target, ir.NameTarget):
            target = statement.target
            listed: str | None = None
            if isinstance(target, ir.StoreTarget) and scatter_increment(self, target, statement):
                return
            if isinstance(target, ir.StoreTarget) and target.target is not None:
                # x[i] op= e stores x[i] op e, not e. Python reads x[i] (running the
                # index) before it evaluates e, which sees what the index code wrote.
                current = self.expr(target.target)
                current, operand = arith.unify_sizes([current, self.expr(statement.value)],
                                                     self.assume)
                increment = operand
                _raises_in_place(self, statement.op, current, operand)
                operand = arith.binary(statement.op, current, operand,
                                       self._reporter(statement.span))
                if current.zero_d and isinstance(current.type, T.Scalar):
                    operand = replace(operand, zero_d=True)  # the same 0-d array, changed
                container = self.env.get(target.base) if target.base is not None else None
                # (a list's slot is replaced by what is stored: its old value must be in it)
                stored = _moved_by_increment(statement.op, current, increment, operand) \
                    if container is not None and isinstance(container.type, (T.Vector, T.Matrix)) \
                    else operand
                if _changes_in_place(current) and target.base is not None \
                        and target.base in self.env and is_list(self.env[target.base]):
                    listed = target.base  # an array of this list changed in place
                    self.changed_element(listed, operand, statement.span)
            else:
                operand = stored = self.expr(statement.value)
            self.mutate(target, stored)  # type: ignore[arg-type]
            if listed is not None:
                self.rejoin_list_parts(listed, operand)
            return
        name = statement.target.id
        current = self.lookup(name, statement.target.span)
        callers = set()
        if isinstance(current.type, T.Scalar):
            # A parameter held under this name may be a caller's 0-d array (np.where of
            # numbers): op= changes it in place (calls.CallRules._forget_mutated_arguments).
            callers = {n for n in self.alias_group(name)[1] if self.is_parameter(n)}
            self.shared.mutated |= callers
        if statement.op == "+" and is_list(current):
            # A list's += extends it in place (a tuple's makes a new one: also covered).
            self.grow_list(name, self.expr(statement.value), statement.value, statement.span)
            return
        operand = self.expr(statement.value)
        if self.env.get(name, current) is not current:
            # The value wrote into the array (z += g()): the op sees its new contents.
            current = join(current, self.env[name])
        current, operand = arith.unify_sizes([current, operand], self.assume)
        _raises_in_place(self, statement.op, current, operand)
        new = arith.binary(statement.op, current, operand, self._reporter(statement.span))
        if statement.op == "*" and is_list(current):
            # A list's *= repeats it in place (D149): the names sharing it see it too.
            self.grow_list(name, new, None, statement.span, result=new)
            return
        if callers:  # that array, the caller's, now holds the new value (R-observed)
            self.observe(C.blow_up(new.ctx))
        if not self.mutate_in_place(name, new, statement.span):
            self.env[name] = new

    def loop(self: Analysis, statement: ir.For) -> None:
        """A for loop: the loop rules live in loops.py."""
        from dpsens.infer.loops import run_loop

        run_loop(self, statement)


def _changes_in_place(current: Value) -> bool:
    """Whether ``op=`` changes the object itself, which every name holding it sees: an
    array, a selection by a mask, or a 0-d array (a number is rebound, D155)."""
    return numpy_array(current) or current.type == SELECTED


def _raises_in_place(a: Analysis, op: str, current: Value, operand: Value) -> None:
    """``x op= v`` on an array (or numpy's 0-d array) that may be held in an integer
    dtype raises when the result is a float: that it raises is seen, so what decides
    the dtype is (R-int-dtype, R-observed)."""
    if not numpy_array(current):
        return  # a number is rebound, whatever it becomes (a list or tuple is not numpy's)
    deciding = dtypes.raises_in_place(op, current, operand)
    if deciding is not None and not C.is_public(deciding):
        a.observe(C.blow_up(deciding))


def _moved_by_increment(op: str, current: Value, increment: Value, result: Value) -> Value:
    """``x[i] += e`` (or ``-=``) into an array stores x[i] + e: the array's entries there
    move by their own move plus e's, which the array's context already counts for the
    first (R-store-increment): the stored value, measured by e's move alone. Storing
    x[i] + e with its whole context counted the old entries twice (2**k - 1 for k
    increments). Not for a list: its slot is replaced by the stored value itself."""
    from dpsens.infer import arith

    if op not in ("+", "-") or result.type == UNKNOWN \
            or T.scalar_kind_of(result.type) not in ("Real", "Integer"):
        return result
    moved = arith.binary(op, Value(current.type), increment, lambda code, message: None)
    if moved.type != result.type:
        return result
    return result.with_ctx(moved.ctx)


def _may_return(statement: ir.Stmt) -> bool:
    if isinstance(statement, ir.Return):
        return True
    if isinstance(statement, ir.If):
        return any(_may_return(s) for s in (*statement.body, *statement.orelse))
    return False


def _unpack(value: Value, count: int) -> list[Value] | None:
    if value.parts is not None:
        return list(value.parts) if len(value.parts) == count else None
    if isinstance(value.type, T.TupleType) and len(value.type.elts) == count:
        # Without the parts, each component moves at most as far as the whole tuple.
        return [element_of(value, t, value.ctx) for t in value.type.elts]
    return None


def _join_envs(before: Env, envs: list[Env],
               taint: Callable[[Value | None, Value | None], C.Context]) -> Env:
    """Each name's join over the branches, plus what the condition adds to it."""
    if len(envs) == 1:
        envs = [envs[0], before]
    first, second = envs
    out: Env = {}
    for name in first.keys() | second.keys():
        a, b = first.get(name), second.get(name)
        if a is not None and a is b:
            out[name] = a
            continue
        joined = join(a, b) if a is not None and b is not None else (a or b)
        assert joined is not None
        out[name] = joined.with_ctx(C.add(joined.ctx, taint(a, b)))
    return out


__all__ = ["Flow", "StatementRules", "tuple_value"]
