"""The per-function inference pass: expressions (statements and calls in mixins)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, Sequence

import sympy as sp

from dpsens import ir
from dpsens import types as T
from dpsens.codes import severity_of
from dpsens.diagnostics import Span
from dpsens.frontend import choices, tuples
from dpsens.infer import arith, masks, pieces, ranges, rowwise
from dpsens.infer.calls import CallRules
from dpsens.infer.counted import choice_taint
from dpsens.infer.indexing import subscript
from dpsens.infer.mutation import MutationRules
from dpsens.infer.privacy import PrivacyRules, SampleScope
from dpsens.privacy.ledger import Choice, Ledger
from dpsens.infer.stmts import StatementRules
from dpsens.infer.values import (DEPENDS, LOOP_PREFIX, UNKNOWN, Value, decided, detached, join,
                                 number, static, tuple_value, unknown)
from dpsens.sym import context as C
from dpsens.sym import expr as E
from dpsens.sym import facts

if TYPE_CHECKING:
    from dpsens.infer.program import Program

Env = dict[str, Value]
_NORM_NAMES = {"dpsens.L1": "L1", "dpsens.L2": "L2", "dpsens.L_inf": "L_inf", "dpsens.LInf": "L_inf"}
# Library constants, as the exact numbers their floats round (like decimal literals).
_CONSTANTS = {"math.pi": E.PI, "numpy.pi": E.PI, "math.tau": 2 * E.PI,
              "math.e": E.EULER, "numpy.e": E.EULER}


CAUSES = 3  # causes kept per variable for DPS311 notes


@dataclass
class _Shared:
    """State one function's analysis shares with the analyses of its nested bodies."""

    poisoned: bool = False
    trace: list[dict[str, object]] = field(default_factory=list)  # mechanism calls
    samples: list[SampleScope] = field(default_factory=list)  # open sample() scopes
    sample_sources: dict[str, C.Context] = field(default_factory=dict)  # closed ones
    loop_counts: list[E.Expr] = field(default_factory=list)  # enclosing loops' counts
    # A trace entry's repetitions as an expression, by id(entry) (loops._unroll_concretely
    # multiplies it by how many iterations made the same entry).
    repetitions: dict[int, E.Expr] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # name -> root of its alias group
    loop_states: dict[str, C.Context] = field(default_factory=dict)  # carried value -> its bound
    # Findings about a loop-carried value at the start of an iteration (a pseudo
    # variable): (variable, span, code, message), reported only if that value turns
    # out to depend on sensitive inputs (loops.settle_findings).
    deferred: list[tuple[str, Span, str, str]] = field(default_factory=list)
    # Argument types each Callable/PrivacyFunction parameter was called with.
    callable_types: dict[str, list[tuple[T.Type, ...]]] = field(default_factory=dict)
    # Per Callable parameter and argument position, whether a call passed a number that
    # may be held as an integer where the type says Real (R-int-dtype).
    int_callables: dict[str, tuple[bool, ...]] = field(default_factory=dict)
    # Callable parameters passed on to an analyzed function (called there with other types).
    passed_on: set[str] = field(default_factory=set)
    views: set[str] = field(default_factory=set)  # names that may see only part of the root
    # Views laying the root's entries out in other rows (m.T, np.ravel(m)): a store through
    # one of them, or through the root, moves the other beyond the store's own distance.
    reshaped: set[str] = field(default_factory=set)
    mutated: set[str] = field(default_factory=set)  # parameters whose (caller's) arrays change
    # (loop index, container) -> the variable standing for the row or entry read as
    # container[index] in the body of ``for index in range(...)``.
    row_reads: dict[tuple[str, str], tuple[str, Value, Value]] = field(default_factory=dict)
    # What the run shows besides its result (raising, an unknown call's output), and how
    # many such effects were met (stmts.observe).
    observed: C.Context = field(default_factory=dict)
    observations: int = 0
    # What was given to code dpsens cannot see, which may keep it and return it from a
    # later call (R-kept), how many runs of and hand-overs to such code were met, and
    # whether any ran.
    escaped: C.Context = field(default_factory=dict)
    escapes: int = 0
    ran_unknown: bool = False
    # (loop index, array) -> the variable standing for the mask ``array == index`` in the
    # body of ``for index in range(...)``: one cell of a partition (loops.py).
    cell_reads: dict[tuple[str, str], tuple[str, Value, Value]] = field(default_factory=dict)
    # (loop index, matrix) -> the variable standing for this iteration's batch of rows
    # ``matrix[lo:hi, ...]`` in a range loop with a symbolic index (loops.py).
    slice_reads: dict[tuple[str, str], tuple[str, Value, Value]] = field(default_factory=dict)
    unrolling: bool = False  # inside a loop analyzed iteration by iteration (loops.py)
    # id() of an index loop iterators.as_index_loop wrote for ``enumerate(X)``/``zip(X, Y)``
    # -> the names of the objects Python iterates, as they are when the loop starts: a
    # list among them that the body resizes makes the count unknown (loops.py, D149).
    live_lists: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # variable -> where values first became unbounded in it without a diagnostic, and by
    # which rule (at most CAUSES each): DPS311 notes for parameters reported unbounded.
    causes: dict[str, list[tuple[Span, str]]] = field(default_factory=dict)
    reads_state: bool = False  # reads a global some function may change (R-global)
    refusals: int = 0  # calls refused so far (DPS303 and the like): calls.CallRules.refuse
    errors: int = 0  # error diagnostics reported so far
    inlined: int = 0  # closure bodies analyzed so far: calls.CallRules.call_closure
    rebound: set[str] = field(default_factory=set)  # names nested defs may rebind (ir.Function)
    quiet: bool = False  # a black box's body, analyzed only for its effects: no diagnostics
    own: frozenset[str] = frozenset()  # the black box's locals that are not modules (quiet)


@dataclass(frozen=True)
class Closure:
    """A lambda or nested def, analyzed at each call with the caller's values."""

    node: ir.Lambda | ir.Function
    scope: Analysis
    # Default values as evaluated where the function was defined, as Python evaluates them.
    defaults: tuple[tuple[str, Value], ...] = field(default=(), compare=False)


class Analysis(CallRules, StatementRules, MutationRules, PrivacyRules):
    """Infers values for one function body; ``env`` maps names to values."""

    def __init__(self, program: Program, module: ir.Module, qualname: str,
                 var_types: dict[str, T.Type], privacy: bool = False) -> None:
        self.program = program
        self.module = module
        self.qualname = qualname
        self.var_types = var_types  # the metric type of every context variable
        self.privacy = privacy
        self.env: Env = {}
        self.assumptions: list[E.Expr] = []  # sympy relations, substituted at call sites
        self.shared = _Shared()
        self.frame: object = self  # the function activation whose variables closures see
        self.frame_node: ir.Function | None = None  # the nested def this activation runs
        self.outer_frame: object = None  # the activation that def was defined in
        self.foreign: set[str] = set()  # parameters of an inline-analyzed callee (caller's arrays)
        self.static_params: set[str] = set()  # public, but still the caller's arrays
        self.ledger = Ledger()  # what mechanisms charged, in program order
        self.function_span = Span(0, 0, 0, 0)
        # A privacy function's first library random draw, found when a release needs it.
        self.library_noise: Callable[[], str | None] = lambda: None

    @property
    def poisoned(self) -> bool:
        """An unsupported construct may have changed the result (shared with nested bodies)."""
        return self.shared.poisoned

    @poisoned.setter
    def poisoned(self, value: bool) -> None:
        self.shared.poisoned = value

    # -- reporting ---------------------------------------------------------
    def report(self, span: Span, code: str, message: str) -> None:
        """Record a diagnostic at a span of this module."""
        if self.shared.quiet:
            # A black box reading a name the analysis cannot resolve (Store.k) may read
            # what other code kept there (R-kept, R-blackbox).
            self.shared.ran_unknown |= code == "DPS206"
            return
        self.shared.errors += severity_of(code) == "error"
        self.program.report(self.module, span, code, message)

    def unbounded_here(self, span: Span, ctx: C.Context, operands: Sequence[C.Context],
                       reason: str) -> None:
        """Remember that ``ctx`` is unbounded in variables no operand was: the cause a
        DPS311 note gives if a parameter among them is reported unbounded."""
        for name, r in ctx.items():
            if E.is_inf(r) and not any(E.is_inf(o.get(name, E.ZERO)) for o in operands):
                found = self.shared.causes.setdefault(name, [])
                # One per line: a branch on `x > 0` is explained by its comparison.
                if len(found) < CAUSES and all(reason != why and span.line != where.line
                                               for where, why in found):
                    found.append((span, reason))

    def reported_at(self, span: Span, code: str, message: str) -> bool:
        """Whether this module already has this diagnostic at this span."""
        from dpsens.diagnostics import Diagnostic

        here = Diagnostic.at(self.module.path, span, code, message)
        return here in self.program.diagnostics.get(self.module.path, ())

    def diagnostics_seen(self) -> int:
        """How many diagnostics this module has: a rule that reported one explains itself."""
        return len(self.program.diagnostics.get(self.module.path, ()))

    def assume(self, condition: E.Expr) -> None:
        """Record a condition the result relies on that could not be decided.

        One that is false under the signs the recorded assumptions give (``2*abs(s)
        <= s`` after ``s > 0``) is recorded too: the summary's final check
        (facts.violated, in any order) then makes the function unbounded (D47).
        Rules that have a diagnostic for a false condition ask decide() first.
        """
        if condition != E.TRUE and condition not in self.assumptions:
            self.assumptions.append(condition)

    def decide(self, condition: E.Expr) -> bool | None:
        """A condition decided under the sign facts of the assumptions recorded so far
        (``s > 0``, ``eps > 0``, ``k >= 0``, ``1/b > 0``; dimensions are positive)."""
        return facts.decide_under(condition, tuple(self.assumptions))

    def tracked(self) -> C.Context:
        """Every parameter, at sensitivity 1 (what unknown effects may touch).

        Fresh variables (@arg, @loop, ...) stand for values derived from the
        parameters, so unbounded in every parameter covers them too.
        """
        return {name: E.ONE for name in self.var_types if not name.startswith("@")}

    # -- names ---------------------------------------------------------------
    def qualify(self, expr: ir.Expr) -> str | None:
        """The qualified name an expression refers to, unless it is a local value."""
        dotted = ir.dotted_name(expr)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in self.env:
            return None
        return self.program.qualify(self.module, dotted)

    def lookup(self, name: str, span: Span) -> Value:
        """The value of a bare name."""
        if name in self.shared.rebound:
            # A nested def declares it nonlocal or global: any call of it may change it.
            return unknown(self.tracked())
        if name in self.env:
            return self.env[name]
        return self.global_value(name, span)

    def global_value(self, dotted: str, span: Span) -> Value:
        """A module-level name: function, builtin rule, norm, type or constant."""
        qualified = self.program.qualify(self.module, dotted)
        if qualified in self.program.rebound:
            return self.rebound_global(dotted, qualified, span)
        if qualified in _NORM_NAMES:
            return Value(T.NormValue(_NORM_NAMES[qualified]))
        if qualified in self.program.functions or self.program.rules.get(qualified):
            return Value(T.Callable_(qualified))
        constant = self.program.constant(self.module, dotted)
        if constant is not None:
            return constant
        metric = self.program.metric_type(self.module, dotted)
        if metric is not None:
            return Value(T.TypeValue(metric))
        if qualified in _CONSTANTS:
            return static(T.REAL, _CONSTANTS[qualified])
        # A split tuple's component (frontend/tuples.py) is shown as the user wrote it.
        self.report(span, "DPS206", f"unresolved name '{tuples.shown(dotted)}'")
        # It may be a local bound by something not understood (a, *rest = t; case y:).
        return unknown(self.tracked())

    def rebound_global(self, dotted: str, qualified: str, span: Span) -> Value:
        """DPS206: a module-level name bound more than once or changed has no single value.

        Changed only at import time it is public; changed by a function it may hold
        any caller's data, so the function (and every caller) is unbounded in all
        its parameters.
        """
        self.report(span, "DPS206", f"module global '{dotted}' is rebound or changed in place: "
                    "it has no single value")
        if qualified in self.program.shared_state:
            self.read_shared_state()
            return unknown(C.blow_up(self.tracked()))
        return Value(UNKNOWN)

    def read_shared_state(self) -> None:
        """The result may carry data that reached a global through another call."""
        self.shared.reads_state = True
        self.poisoned = True

    # -- expressions ---------------------------------------------------------
    def expr(self, e: ir.Expr) -> Value:
        """The value of an expression."""
        value = self._expr(e)
        if T.is_bounded_by_one(value.type):
            # Distances of the result are at most 1, so a discrete input that
            # changes at all (distance >= 1) moves it by at most its own distance.
            value = value.with_ctx(C.cap(value.ctx, self.discrete_variables()))
        elif isinstance(value.type, T.Scalar) and not value.public and \
                (value.interval is not None or value.bound is not None):
            value = ranges.capped(value, self.discrete_variables())  # R-range
        return value

    def operands(self, exprs: Sequence[ir.Expr],
                 evaluate: Callable[[ir.Expr], Value] | None = None) -> list[Value]:
        """Operands evaluated left to right. Python holds an array by reference, so a later
        operand that writes into it (``z + g()``, g storing into z) changes what an
        earlier one holds: that one takes the array's new value too (a name's, joined
        with its old one, as g may also have rebound it), or is unknown (a view, or an
        array a call returned: ``h() + g()``)."""
        evaluate = evaluate or self.expr
        values: list[Value] = []
        seen: list[dict[str, Value]] = []  # the names' values after each operand
        for position, e in enumerate(exprs):
            values.append(evaluate(e))
            if position < len(exprs) - 1:
                seen.append(dict(self.env))
        for position, before in enumerate(seen):
            values[position] = self.refreshed(values[position], exprs[position], before)
        return values

    def refreshed(self, value: Value, e: ir.Expr, before: dict[str, Value]) -> Value:
        """What the value of ``e``, evaluated when the names held ``before`` (a copy of
        the env), holds now that more code has run: an array is held by reference, so
        code that wrote into it changed it too (a name's takes its new value, joined with
        its old one, as the code may also have rebound the name; a view, or an array a
        call returned, is unknown)."""
        if isinstance(value.type, (T.Scalar, T.Callable_, T.NormValue, T.TypeValue)) \
                and not value.zero_d:
            return value  # numbers do not change
        # What it may hold: the arrays it names, and, through a call of the program's
        # own code, any array (h() may return z).
        held = None if self.may_run_user_code(e) else ir.names_read(e)
        changed = [n for n in self.changed_since(before) if held is None or n in held]
        if not changed:
            return value
        if isinstance(e, ir.Name) and e.id in self.env:
            return join(value, self.env[e.id])
        return unknown(C.add(value.ctx, C.total(self.env[n].ctx for n in changed)))

    def changed_since(self, before: dict[str, Value]) -> list[str]:
        """The names whose values were replaced since ``before`` (a copy of the env)."""
        return [n for n, now in self.env.items() if now is not before.get(n)]

    def may_run_user_code(self, e: ir.Expr) -> bool:
        """Whether evaluating an expression may call the program's own functions or code
        with no dpsens rule (which may write into arrays, or return one it captured)."""
        for node in ir.nodes(e):
            if not isinstance(node, ir.Call):
                continue
            if isinstance(node.func, ir.Attribute) and self._is_method_call(node.func):
                qualified: str | None = f"numpy.{node.func.attr}"
            else:
                qualified = self.qualify(node.func)
            if qualified is None or qualified in self.program.functions or \
                    self.program.rules.get(qualified) is None:
                return True
        return False

    def discrete_variables(self) -> list[str]:
        """The context variables whose distances are 0 or at least 1."""
        return [n for n, t in self.var_types.items() if T.is_discrete_metric(t)]

    def _expr(self, e: ir.Expr) -> Value:
        if isinstance(e, ir.Const):
            if isinstance(e.value, (int, float, bool)):
                return number(e.value)
            return Value(T.Opaque("None" if e.value is None else type(e.value).__name__))
        if isinstance(e, ir.Name):
            return self.lookup(e.id, e.span)
        if isinstance(e, ir.Attribute):
            return self.attribute(e)
        if isinstance(e, ir.BinOp):
            left, right = self.operands((e.left, e.right))
            if e.op != "@":  # entrywise: equal sizes where they may be (a product is not)
                left, right = arith.unify_sizes([left, right], self.assume)
            if e.op in ("&", "|", "^", "*") and _is_mask(e.left, left) and _is_mask(e.right, right):
                left, right = arith.as_truth(left), arith.as_truth(right)  # 0/1 entries
            # ``x * x`` multiplies a number by itself, not two numbers of x's interval.
            same = isinstance(e.left, ir.Name) and isinstance(e.right, ir.Name) and \
                e.left.id == e.right.id
            seen = self.diagnostics_seen()
            result = self.dot(left, right, e.span) if e.op == "@" else \
                arith.binary(e.op, left, right,
                             self._reporter(e.span, C.add(left.ctx, right.ctx)), same)
            if e.op not in ("+", "-") and self.diagnostics_seen() == seen:
                self.unbounded_here(e.span, result.ctx, (left.ctx, right.ctx), (
                    f"'{e.op}' of two values that both depend on inputs has no bounded "
                    "slope (clip both, or keep one public)") if left.ctx and right.ctx else
                    f"'{e.op}' has no bounded slope over all the values its operand may take "
                    "(clip it first)")
            return result
        if isinstance(e, ir.UnaryOp):
            operand = self.expr(e.operand)
            if e.op in ("-", "+"):
                return arith.negate(operand) if e.op == "-" else operand
            if e.op == "~":
                return arith.invert(operand)
            return Value(T.BOOL, arith.truth(operand))
        if isinstance(e, ir.Compare):
            left, right = arith.unify_sizes(self.operands((e.left, e.right)), self.assume)
            compared = arith.compare(left, right, e.op, self._reporter(e.span))
            self.unbounded_here(e.span, compared.ctx, (left.ctx, right.ctx),
                                "a comparison of reals is a step: it flips under an arbitrarily "
                                "small change (compare Data, or use max/min/np.clip)")
            return self._own_cell(e, compared)
        if isinstance(e, ir.BoolOp):
            return self._boolean(e)
        if isinstance(e, ir.IfExp):
            test = self.expr(e.test)
            taken = decided(test)
            if taken is not None:  # a known public Bool: only that arm runs
                return self.expr(e.body if taken else e.orelse)
            outer = self.ledger
            arms = []
            seen = self.effects()
            for arm in (e.body, e.orelse):
                self.ledger = Ledger()  # only one arm runs: its costs are a Choice
                arms.append((self.expr(arm), self.ledger.items))
            self.ledger = outer
            self.reveal(test.ctx, seen)  # which arm's effect happens (R-observed)
            if arms[0][1] or arms[1][1]:
                outer.items.append(Choice((tuple(arms[0][1]), tuple(arms[1][1]))))
            extreme = self._extreme(e, arms[0][0], arms[1][0])
            if extreme is not None:
                return extreme
            branches = join(arms[0][0], arms[1][0])
            taint = choice_taint(self, test, arms[0][0], arms[1][0], e.test.span)
            return branches.with_ctx(C.add(branches.ctx, taint))
        if isinstance(e, ir.Subscript):
            return self.subscript(e)
        if isinstance(e, ir.TupleExpr):
            return tuple_value(tuple(self.operands(e.elts)))
        if isinstance(e, ir.Lambda):
            return self.closure_value(e)
        if isinstance(e, ir.Call):
            return self.call(e)
        return self.unsupported_expr(e)

    def dot(self, left: Value, right: Value, span: Span) -> Value:
        """``a @ b``: the dot-product rule, or np.sum(a * b), the same number, where that is
        bounded more tightly in every variable (two clipped columns of one dataset: a
        changed row moves one product, 2, where the rule's entry bounds give 4)."""
        right = arith.unify_product(left, right, self.assume)
        direct = arith.binary("@", left, right, self._reporter(span, C.add(left.ctx, right.ctx)))
        if not (isinstance(left.type, T.Vector) and isinstance(right.type, T.Vector)) \
                or C.is_public(direct.ctx):
            return direct
        seen = self.diagnostics_seen()
        product = arith.binary("*", left, right, lambda code, message: None)  # (a trial)
        # (np.sum of a vector reports nothing; of anything else it might, and a trial's
        # diagnostic would stay in the report)
        summed = self.apply_rule("numpy.sum", (product,), span) \
            if isinstance(product.type, T.Vector) else None
        if summed is None or self.diagnostics_seen() != seen or \
                not isinstance(summed.type, T.Scalar) or not set(summed.ctx) <= set(direct.ctx) \
                or any(E.decide_le(r, direct.ctx[v]) is not True for v, r in summed.ctx.items()):
            return direct
        return Value(direct.type, summed.ctx, interval=summed.interval)

    def _extreme(self, e: ir.IfExp, first: Value, second: Value) -> Value | None:
        """R-if-extreme: the max or min that a choice between scalars is, or None."""
        if not (isinstance(first.type, T.Scalar) and isinstance(second.type, T.Scalar)):
            return None  # arrays have no truth value; numpy raises
        kind = choices.extreme(e.test, e.body, e.orelse)
        if kind is not None:
            return self.apply_rule(f"builtins.{kind}", (first, second), e.span)
        clamp = choices.clamp(e.test, e.body, e.orelse)
        if clamp is None:
            return None
        outer, bound, other, order = clamp
        b, c = self.expr(bound), self.expr(other)  # numbers or names: read again, unchanged
        if b.exact is None or c.exact is None:
            return None
        holds = (sp.Le if order == "le" else sp.Ge)(c.exact, b.exact)
        if holds is not sp.true:
            return None
        inner = second if choices.same(e.body, bound) else first  # the arm that is not b
        return self.apply_rule(f"builtins.{outer}", (inner, b), e.span)

    def _reporter(self, span: Span, about: C.Context | None = None) -> arith.Report:
        """Reports at span; those about a value (``about``) through report_about."""
        if about is None:
            return lambda code, message: self.report(span, code, message)
        return lambda code, message: self.report_about(span, about, code, message)

    def report_about(self, span: Span, about: C.Context, code: str, message: str) -> None:
        """A finding that matters only if the value it is about depends on inputs: on a
        loop-carried value at the start of an iteration (a pseudo variable), it waits
        until the loop is solved, and is reported only if that value is sensitive (a
        model updated only with noised values is public: loops.settle_findings)."""
        carried = [v for v, r in about.items() if not E.is_zero(r)]
        if code in _ABOUT_VALUES and carried and all(v.startswith(LOOP_PREFIX) for v in carried):
            escaped = message.replace("{", "{{").replace("}", "}}")
            self.shared.deferred.extend((v, span, code, f"{escaped}{DEPENDS}") for v in carried)
        else:
            self.report(span, code, message)

    def unsupported_expr(self, e: ir.Expr) -> Value:
        """DPS202: unbounded in every variable the expression reads."""
        assert isinstance(e, ir.Unsupported)
        if e.comprehension is not None and self._consumed(e.comprehension) \
                and not self._may_write(e.comprehension):
            return self.comprehension(e.comprehension)
        self.report(e.span, "DPS202", f"unsupported expression: {e.kind}")
        if e.assigned:
            # It binds names (``c := f(x)``) that a loop would carry, but the loop rules
            # cannot follow what it binds: every parameter is unbounded (D135).
            self.poisoned = True
        read = C.total(self.env[n].ctx for n in e.names if n in self.env)
        if e.kind == "generator expression":
            read = C.blow_up(self.tracked())  # it reads its names when it runs, later
        self.forget_effects(e.span, e.assigned, e.reached)  # [y := x for ...] binds y
        return unknown(read)

    def _consumed(self, c: ir.Comprehension) -> bool:
        """A list comprehension runs where it is written; a generator expression only where
        it is consumed, which is here when it is the argument of a consuming builtin
        (elsewhere its names could be rebound before it runs)."""
        return not c.generator or c.consumer in _CONSUMERS and \
            self.qualify(ir.Name(c.span, c.consumer)) == f"builtins.{c.consumer}"

    def _may_write(self, c: ir.Comprehension) -> bool:
        """A method call on a local, or a call of a local closure, in the element or the
        tests: it may write into arrays while the list is built (left to DPS202, which
        forgets what it reaches)."""
        for node in ir.nodes((c.elt, c.condition)):
            if isinstance(node, ir.Call):
                head = node.func.value if isinstance(node.func, ir.Attribute) else node.func
                while isinstance(head, ir.Attribute):
                    head = head.value
                if isinstance(head, ir.Name) and head.id in self.env \
                        and (isinstance(node.func, ir.Attribute)
                             or isinstance(self.env[head.id].type, T.Callable_)):
                    return True
        return False

    def comprehension(self, c: ir.Comprehension) -> Value:
        """``[elt for t in X if cond]`` as the loop building its list: ``acc = []; for t in
        X: if cond: acc.append(elt)``, with t the comprehension's own (Python 3 scoping:
        the names it binds are restored afterwards)."""
        from dpsens.infer.mutation import target_names

        self.program.fresh += 1
        hidden = f"comprehension#{self.program.fresh}"  # no Python code can name it
        own = target_names(c.target, stores=True)
        saved = {name: self.env[name] for name in own if name in self.env}
        self.env[hidden] = tuple_value(())
        append: ir.Stmt = ir.ExprStmt(c.span, ir.Call(
            c.span, ir.Attribute(c.span, ir.Name(c.span, hidden), "append"), (c.elt,)))
        if c.condition is not None:
            append = ir.If(c.span, c.condition, (append,), ())
        self.statement(ir.For(c.span, c.target, c.iter, (append,)))
        built = self.env.pop(hidden)
        for name in own:
            if name in saved:
                self.env[name] = saved[name]
            else:
                self.env.pop(name, None)
        return built

    def attribute(self, e: ir.Attribute) -> Value:
        """``x.shape`` and friends on locals; dotted module names otherwise."""
        dotted = ir.dotted_name(e)
        if dotted is not None and dotted.split(".")[0] not in self.env:
            return self.global_value(dotted, e.span)
        base = self.expr(e.value)
        if base.selection is not None and e.attr == "shape":  # R-select: (count, columns)
            t = base.selection.of
            columns = (static(T.INTEGER, t.cols),) if isinstance(t, T.Matrix) else ()
            return tuple_value((base.selection.count, *columns))
        shape = _shape(base.type)
        if e.attr == "shape" and shape is not None:
            return tuple_value(tuple(static(T.INTEGER, d) for d in shape))
        if e.attr in ("size", "ndim") and shape is not None:
            size = shape[0] if len(shape) == 1 else E.mul(shape[0], shape[1])
            return static(T.INTEGER, size if e.attr == "size" else E.number(len(shape)))
        if e.attr == "T" and isinstance(base.type, T.Matrix):
            return transposed(base)
        if e.attr == "T" and isinstance(base.type, T.Vector):
            return base  # numpy's transpose of a 1-D array is the array itself
        self.report(e.span, "DPS202", f"unsupported attribute '.{e.attr}'")
        return unknown(base.ctx)

    def subscript(self, e: ir.Subscript) -> Value:
        """Indexing a container or a tuple."""
        # The base is read before the index: an index that writes into it (z[g()]) changes it.
        parts = [p for i in e.index for p in
                 ((i.lower, i.upper, i.step) if isinstance(i, ir.Slice) else (i,))]
        given = iter(self.operands([e.value, *(p for p in parts if p is not None)]))
        base = next(given)
        index = [tuple(None if p is None else next(given) for p in (i.lower, i.upper, i.step))
                 if isinstance(i, ir.Slice) else next(given) for i in e.index]
        if len(index) == 1 and masks.is_mask(index[0]):
            # v[v > 0] holds the positive entries: its sum is that of np.maximum(v, 0).
            part = choices.extreme(e.index[0], e.value, ir.Const(e.span, 0)) \
                if not isinstance(e.index[0], ir.Slice) else None
            chosen = masks.selected(self, base, index[0], e.span, part)  # type: ignore[arg-type]
            if chosen is not None:
                return chosen
        seen = self.diagnostics_seen()
        whole = pieces.split(base) if isinstance(index[0], tuple) else base
        value = subscript(whole, index, self._reporter(e.span), self.assume)
        if self.diagnostics_seen() == seen:
            self.unbounded_here(e.span, value.ctx, (base.ctx,), "an index that depends on "
                                "inputs picks another entry under any change of them")
        if base.rowwise is not None:
            value = rowwise.indexed(base, index, value)  # X[:, j]: entry i is row i's
        if (isinstance(e.value, ir.Name) and isinstance(e.index[0], ir.Name) and base.ctx
                and value.ctx == base.ctx):
            read = self.shared.row_reads.get((e.index[0].id, e.value.id))
            if read is not None and self.env.get(e.index[0].id) is read[1] \
                    and self.env.get(e.value.id) is read[2]:
                value = value.with_ctx(C.single(read[0]))  # this iteration's own row (loops.py)
        return pieces.read(base, index, self._own_batch(e, base, index, value))

    def _own_batch(self, e: ir.Subscript, base: Value, index: list[object], value: Value) -> Value:
        """``m[lo:hi, ...]`` in a loop whose symbolic index j the bounds follow, where the next
        iteration's slice starts at or after this one's end and no bound is negative:
        the slices of different iterations share no row (loops._sliced_batches)."""
        if not (isinstance(e.value, ir.Name) and isinstance(e.index[0], ir.Slice) and base.ctx
                and value.ctx == base.ctx and isinstance(index[0], tuple)):
            return value
        for (loop_index, name), read in self.shared.slice_reads.items():
            if name != e.value.id or self.env.get(name) is not read[2] \
                    or self.env.get(loop_index) is not read[1]:
                continue
            lower, upper, step = (index[0] + (None, None, None))[:3]
            j = next(v for v in read[1].exact.free_symbols if getattr(v, "name", "") == "slice_index")
            if step is not None or lower is None or upper is None \
                    or lower.exact is None or upper.exact is None:
                return value
            first, end = lower.exact, upper.exact
            apart = sp.expand(first.subs(j, j + 1) - end)  # next start minus this end
            width = sp.expand(end - first)
            if apart.is_nonnegative and first.is_negative is not True \
                    and width.is_negative is not True:
                # With these, start(j) ≤ end(j) ≤ start(j + 1): the slices follow each
                # other; a negative start would count from the end.
                self.assume(sp.Ge(first, 0))
                self.assume(sp.Ge(width, 0))
                return value.with_ctx(C.single(read[0]))
        return value

    def _boolean(self, e: ir.BoolOp) -> Value:
        """``a and b``, ``a or b``: each operand runs only as the ones before it decide."""
        values: list[Value] = []
        for operand in e.values:
            seen = self.effects()
            values.append(self.expr(operand))
            if values[:-1]:  # R-observed
                self.reveal(C.total(arith.truth(v) for v in values[:-1]), seen)
        return arith.boolean(e.op, values)

    def _own_cell(self, e: ir.Compare, value: Value) -> Value:
        """``x == i`` in a loop over i: this iteration's cell of a partition (loops.py)."""
        if e.op != "==" or not value.ctx:
            return value
        from dpsens.infer.loops import base_name, name_of

        for array, index in ((e.left, e.right), (e.right, e.left)):
            key = name_of(array)
            if key is not None and isinstance(index, ir.Name):
                read = self.shared.cell_reads.get((index.id, key))
                if read is not None and self.env.get(index.id) is read[1] \
                        and self.env.get(base_name(key)) is read[2]:
                    # Measured in L1 (entries changed), as the variable is: a mask of an
                    # (L∞, ·) array would otherwise sum to n times its distance.
                    if isinstance(value.type, (T.Vector, T.Matrix)):
                        cell = replace(value.rowwise, cell=read[0]) if value.rowwise else None
                        return Value(replace(value.type, norm="L1"), C.single(read[0]),
                                     bound=value.bound, interval=value.interval,
                                     rowwise=cell)  # (R-cell-values, cells.py)
                    if isinstance(value.type, T.Scalar):  # one truth value, 0 or 1 apart
                        return Value(value.type, C.single(read[0]))
        return value

    def _index_part(self, part: ir.Expr | ir.Slice) -> Value | tuple[Value | None, ...]:
        if isinstance(part, ir.Slice):
            return tuple(None if p is None else self.expr(p) for p in (part.lower, part.upper, part.step))
        return self.expr(part)

    def closure_value(self, node: ir.Lambda | ir.Function) -> Value:
        """A function value whose context is that of the values it captures.

        Calling it analyzes the body; but where it is lost from view (joined
        with another, returned, passed to unknown code) its captures still count.
        """
        defaults = tuple((p.name, detached(self.expr(p.default)))
                         for p in node.params if p.default is not None)
        return Value(T.Callable_(Closure(node, self, defaults)), self.captured_by(node))

    def captured_by(self, node: ir.Lambda | ir.Function) -> C.Context:
        """The contexts of the values of this scope that a lambda or def reads."""
        parameters = {p.name for p in node.params}
        # Defaults are values too (lambda y=x: y captures x), read where it is defined.
        read = ir.names_read(node) - parameters
        read |= ir.names_read(tuple(p.default for p in node.params if p.default is not None))
        return C.total(self.env[n].ctx for n in read if n in self.env)

    def fresh_variable(self, prefix: str, t: T.Type) -> str:
        """A new context variable standing for an argument or a loop-carried value."""
        self.program.fresh += 1
        name = f"@{prefix}{self.program.fresh}"
        self.var_types[name] = t
        return name


# Findings about a value's sensitivity, not about the program (which any value shows).
_ABOUT_VALUES = frozenset({"DPS304", "DPS305"})


def transposed(m: Value) -> Value:
    """``m.T`` (R-transpose): the columns as rows, measured in L1 with their kind. The
    transpose's L1 distance Σ_ij |Δ_ij| is the L1 norm of every row of m summed:
    norm_factor(N, L1, cols) times Σ_i ‖row i of Δ‖_N (1, √cols, cols for L1, L2, L∞;
    Data entries count alike). Its entries are m's, with their bounds."""
    t = m.type
    assert isinstance(t, T.Matrix)
    result = T.Matrix("L1", t.elem, t.cols, t.rows)
    ctx = C.scale(T.norm_factor(t.norm, "L1", t.cols), m.ctx) if not m.public else C.EMPTY
    # m's rows, if read from a dataset's rows one by one, are the columns now (R-gram).
    layout = replace(m.rowwise, by_column=not m.rowwise.by_column) if m.rowwise else None
    # (m's entry bound: its clip marker's 1 too, which the transpose's rows no longer carry)
    return Value(result, ctx, m.exact, m.magnitude(), interval=m.interval, rowwise=layout,
                 integral=m.integral)


def _shape(t: T.Type) -> tuple[E.Expr, ...] | None:
    if isinstance(t, T.Vector):
        return (t.length,)
    if isinstance(t, T.Matrix):
        return (t.rows, t.cols)
    return None


_CONSUMERS = frozenset({"sum", "max", "min", "list", "tuple", "sorted", "any", "all", "len"})


def _is_mask(e: ir.Expr, value: Value | None = None) -> bool:
    """A comparison, or &, |, ^ or * of them, or a value known to be one (a mask kept in a
    name: rowwise.py): truth values, entrywise (0 or 1)."""
    if value is not None and value.rowwise is not None and value.rowwise.binary:
        return True
    if isinstance(e, ir.Compare):
        return True
    if isinstance(e, ir.BinOp) and e.op in ("&", "|", "^", "*"):
        return _is_mask(e.left) and _is_mask(e.right)
    return False  # not ~: on Python's bools it gives -1 and -2, not a truth value
