"""Typing rules of calls: analyzed functions, closures, stubbed builtins, unknowns."""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, Sequence

from dpsens import ir
from dpsens import types as T
from dpsens.frontend import choices
from dpsens.frontend.globals import RUNTIME_MODULES
from dpsens.infer import dtypes
from dpsens.infer.binding import BindError, bind
from dpsens.infer.call_site import CallSite
from dpsens.infer.values import UNKNOWN, Value, is_list, join, tuple_value, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis, Env
    from dpsens.infer.summary import Summary


# Functions that keep no state between calls beyond the objects they are given (R-kept):
# builtins and numpy's, but for numpy.random's generator.
_STATELESS = ("builtins.", "numpy.", "math.")
_UNTRUSTED = frozenset({"numpy", "builtins", "dpsens"})  # known code: its effects count (R-blackbox)
_STATEFUL = ("numpy.random", "numpy.save", "numpy.load", "numpy.savetxt", "numpy.loadtxt",
             "numpy.genfromtxt", "numpy.fromfile", "numpy.memmap", "numpy.lib")  # files


class CallRules:
    """Mixin of Analysis: the call rule Σᵢ sᵢ·Γ(argᵢ) and its variants."""

    def call(self: Analysis, e: ir.Call) -> Value:
        """The value of a call expression."""
        if isinstance(e.func, ir.Attribute) and self._is_method_call(e.func):
            return self._method_call(e)
        qualified = self.qualify(e.func)
        # A library a setattr with a computed name may have patched anywhere is listed whole;
        # dpsens's builtins are patched by any change to what their noise is made with.
        patched = qualified is not None and self.program.patched and (
            qualified in self.program.patched
            or any(qualified.startswith(f"{p}.") for p in self.program.patched)
            or qualified.startswith("dpsens.") and any(
                p.split(".")[0] in RUNTIME_MODULES for p in self.program.patched))
        if patched:
            made_with = sorted(p for p in self.program.patched if p.split(".")[0] in
                               RUNTIME_MODULES and not qualified.startswith(f"{p}."))  # type: ignore[union-attr]
            self.report(e.span, "DPS206", f"'{qualified}' is replaced by the program (an "
                        "assignment to it): its dpsens rule does not describe it"
                        if qualified in self.program.patched or not made_with else
                        f"'{qualified}' is made with what the program replaces "
                        f"('{made_with[0]}'): its dpsens rule does not describe it")
        known = qualified is not None and qualified not in self.program.rebound and (
            qualified in self.program.functions or self.program.rules.get(qualified) is not None)
        if patched or (qualified is not None and not known and qualified not in self.program.rebound
                       and self.program.constant(self.module, ir.dotted_name(e.func) or "") is None):
            callee = Value(T.Callable_(None))  # an unknown function
        else:
            callee = self.expr(e.func)
        before_arguments = dict(self.env)
        given = self.operands([*e.args, *(k.value for k in e.keywords)], self.argument)
        ref = getattr(callee.type, "ref", None)
        if (callee.type == UNKNOWN or getattr(ref, "scope", self) is not self) and \
                self.changed_since(before_arguments):
            # A function made elsewhere (mk(z)(g())) holds the arrays it captured as they
            # were: the arguments wrote into this function's arrays meanwhile.
            callee = unknown(C.add(callee.ctx, C.total(v.ctx for v in self.env.values())))
        args = given[:len(e.args)]
        keywords = {k.name: value for k, value in zip(e.keywords, given[len(e.args):])}
        label = ir.dotted_name(e.func) or _shown_callee(e.func)
        if qualified and not qualified.startswith("builtins."):
            label = qualified
        if qualified is not None and (qualified in _FRAME_READERS
                                      or qualified.startswith(_FRAME_READER_MODULES)):
            # They reach every local by name, whatever their arguments: eval("x") is x.
            self.report(e.span, "DPS203", f"call to '{label}' reads or changes the function's "
                        "variables by name: every parameter becomes unbounded")
            self.poisoned = True
            return unknown(C.blow_up(self.tracked()))
        if not self._analyzable(callee) or "out" in keywords:
            # A stateless function given an unknown object may run its code (next(it),
            # map(store.put, ...), print(x, file=store.BUF)).
            stateless = (qualified or "").startswith(_STATELESS) \
                and not (qualified or "").startswith(_STATEFUL) \
                and not any(v.type == UNKNOWN for v in (*args, *keywords.values()))
            return self._unknown_call(e, callee, args, keywords, label, keeps=not stateless)
        if ref == "numpy.where" and len(e.args) == 3 and not keywords \
                and not any(is_list(v) for v in args[1:]):
            # np.where(a > b, a, b): R-if-extreme (of arrays or numbers: two lists compare
            # whole, and the whole of one is chosen)
            part = choices.extreme(*e.args)
            if part is not None and self.program.rules.get(f"numpy.{part}imum") is not None:
                callee, args = Value(T.Callable_(f"numpy.{part}imum"), callee.ctx), args[1:]
        refusals, inlined, before = self.shared.refusals, self.shared.inlined, dict(self.env)
        seen = self.diagnostics_seen()
        result = self.call_value(callee, args, keywords, e.span, label)
        inputs = C.total(a.ctx for a in (callee, *args, *keywords.values()))
        if self.diagnostics_seen() == seen:
            self.unbounded_here(e.span, result.ctx, [a.ctx for a in (
                callee, *args, *keywords.values())], f"'{label}' is unbounded in its arguments "
                "(its rule, or its own report, says so)")
        if self.shared.refusals > refusals:
            # Not understood (np.abs(v, w) writes w): any array it was given may have changed.
            for expr in (*e.args, *(k.value for k in e.keywords)):
                self.invalidate(expr, C.blow_up(inputs))
        elif self._forget_mutated_arguments(e, callee, args, keywords, inputs):
            # The callee read its parameter as a number it could only rebind: what it
            # returns after changing the 0-d array in place is not known (D81).
            result = unknown(C.blow_up(inputs))
        if not self._inlines(callee):
            self._forget_closure_writes(e, [*args, *keywords.values()], before,
                                        self.shared.inlined > inlined, inputs)
        return result

    def _inlines(self: Analysis, callee: Value) -> bool:
        """Whether a call analyzes its callee's body on the actual arguments."""
        ref = callee.type.ref if isinstance(callee.type, T.Callable_) else None
        if isinstance(ref, str) and ref in self.program.functions:
            return any(p.annotation is None for p in self.program.functions[ref][1].params)
        return hasattr(ref, "scope")

    def _forget_closure_writes(self: Analysis, e: ir.Call, args: Sequence[Value], before: Env,
                               applied: bool, inputs: C.Context) -> None:
        """A closure passed to a call may be applied any number of times, to anything the
        call is given: the arrays it writes are unknown afterwards (D41)."""
        closures = [a for a in args if hasattr(getattr(a.type, "ref", None), "node")]
        if not closures:
            return
        # Its analysis here (with stand-in arguments) shows what it writes; a closure the
        # call did not analyze (passed on, stored) may write anything it captures.
        changed = {n for n, v in before.items() if self.env.get(n) is not v}
        if not applied:
            changed |= set().union(*(self.closure_arrays(c) for c in closures))
        if not changed:
            return
        captured = C.total(self.captured_by(c.type.ref.node) for c in closures)  # type: ignore[union-attr]
        ctx = C.blow_up(C.add(inputs, captured))
        for name in changed:
            self.env[name] = before[name]  # the stand-in arguments mean nothing here
        self.invalidate_names(changed, e.span, ctx)

    def refuse(self: Analysis, span: ir.Span, message: str, inputs: Sequence[Value],
               code: str = "DPS303", trusted: bool = False) -> Value:
        """A call that does not fit its rule or signature: unknown; ``call`` forgets its
        arguments (it may write into them). Code ``trusted`` (a library in a black box:
        R-blackbox) keeps and shows nothing."""
        self.report(span, code, message)
        self.shared.refusals += 1  # (``call`` forgets the arguments: it may write into them)
        if trusted:
            return unknown(C.total(v.ctx for v in inputs))
        # DPS203: code dpsens cannot see, which may keep what it is given (R-kept)
        result = self.run_unknown(C.total(v.ctx for v in inputs), keeps=code == "DPS203")
        # The call still runs: code of its own (DPS203), or a closure it is given, may
        # raise or print, and a refused builtin may raise on what it is given.
        self.observe(C.blow_up(result.ctx))
        return result

    def _forget_mutated_arguments(self: Analysis, e: ir.Call, callee: Value,
                                  args: Sequence[Value], keywords: dict[str, Value],
                                  inputs: C.Context) -> bool:
        """An analyzed callee that changes its array parameters changes the caller's arrays;
        one that changes a number parameter in place changes only a 0-d array (D81).
        Whether it was given one there."""
        ref = callee.type.ref if isinstance(callee.type, T.Callable_) else None
        summary = self.program.summaries.get(ref) if isinstance(ref, str) else None
        if summary is None or not summary.mutated:
            return False
        params = {p.name: p for p in summary.params}
        given = [(p.name, a, v) for p, a, v in zip(summary.params, e.args, args)]
        given += [(k.name, k.value, keywords[k.name]) for k in e.keywords]
        zero_d = False
        for name, expr, value in given:
            if name not in summary.mutated:
                continue
            zero_d = zero_d or value.zero_d
            if isinstance(params[name].type, T.Scalar):
                if isinstance(expr, ir.Name) and expr.id in self.env:
                    # A parameter of this function passed on may be a caller's 0-d array,
                    # which the callee changes: so does this function's value of it.
                    passed_on = {n for n in self.alias_group(expr.id)[1] if self.is_parameter(n)}
                    self.shared.mutated |= passed_on
                    if self.env[expr.id].zero_d:
                        self.invalidate(expr, C.blow_up(inputs) if inputs else C.EMPTY)
                    elif passed_on:  # a number here, maybe an array there: it may have moved
                        for member in self.alias_group(expr.id)[1]:
                            old = self.env[member]
                            self.env[member] = Value(old.type, C.add(old.ctx, C.blow_up(inputs)))
                continue
            self.invalidate(expr, C.blow_up(inputs) if inputs else C.EMPTY)
        return zero_d

    def trusts(self: Analysis, label: str) -> bool:
        """In a black box's body, a third-party library (neither numpy nor Python's own
        modules, which may print, seed or keep) is trusted not to keep or show what it
        is given (it may still write into it): the contract BlackBox declares
        (R-blackbox)."""
        top = label.split(".")[0]
        return self.shared.quiet and "." in label and top not in _UNTRUSTED \
            and top not in sys.stdlib_module_names and not self.program.in_project(top)

    def _own_object(self: Analysis, receiver: ir.Expr) -> bool:
        """A local object of the black box that is not an array or a container (made by a
        library call there): its methods run the library's code (R-blackbox). Not a
        parameter (the caller's object), a module or a global (state that lives on)."""
        if not isinstance(receiver, ir.Name) or receiver.id not in self.shared.own \
                or receiver.id not in self.env:
            return False
        return self.env[receiver.id].type == UNKNOWN

    def _analyzable(self: Analysis, callee: Value) -> bool:
        ref = callee.type.ref if isinstance(callee.type, T.Callable_) else None
        if isinstance(ref, str):
            return ref in self.program.functions or self.program.rules.get(ref) is not None
        return ref is not None

    def _unknown_call(self: Analysis, e: ir.Call, callee: Value, args: Sequence[Value],
                      keywords: dict[str, Value], label: str, keeps: bool = True) -> Value:
        """DPS203: unbounded in every input; arrays passed in may be changed in place.
        ``keeps``: code that may keep state between calls (R-kept; builtins keep none
        beyond the objects they are given)."""
        inputs = [callee, *args, *keywords.values()]
        captured: C.Context = C.EMPTY
        closures = False
        for value in inputs:
            ref = value.type.ref if isinstance(value.type, T.Callable_) else None
            if hasattr(ref, "node"):  # a closure: the unknown code may call it with anything
                captured = C.add(captured, self.captured_by(ref.node))
                closures = True
        given = C.total([captured, *(v.ctx for v in inputs)])
        # A library trusted in a black box keeps and shows nothing, but may still write
        # into what it is given (an output argument), and a closure it calls is code
        # of the project's (R-blackbox).
        trusted = self.trusts(label) and not closures
        result = unknown(given) if trusted else self.run_unknown(given, keeps)
        if not result.ctx:
            # Only public inputs: whatever the function does, the result is public, and so
            # is what it may write into them, but no longer known (random.shuffle(L)).
            # That it runs may still be seen (print, sys.exit): under a test on data, it
            # shows the test (R-observed).
            if not trusted:
                self.observe(C.EMPTY)
            for expr in (*e.args, *(k.value for k in e.keywords)):
                self.forget_contents(expr)
            return result
        self.report(e.span, "DPS203", f"call to '{label}' has no dpsens rule or analyzable body")
        if not trusted:
            self.observe(result.ctx)  # it may print or send what it is given
        for expr in (*e.args, *(k.value for k in e.keywords)):
            self.invalidate(expr, result.ctx)
        return result

    def argument(self: Analysis, e: ir.Expr) -> Value:
        """An argument; metric types written as values (unbox) are allowed here.

        A type may be written directly, as a module-level alias (which mypy
        accepts as a value) or as a string.
        """
        if isinstance(e, ir.Const) and isinstance(e.value, str):
            from dpsens.frontend.strings import parsed_string

            parsed = parsed_string(e.value)
            if parsed is not None:
                metric = self.program.annotation_type(self.module, parsed, None, quiet=True)
                if metric is not None:
                    return Value(T.TypeValue(metric))
        if isinstance(e, ir.Subscript) and (self.qualify(e.value) or "").startswith("dpsens."):
            metric = self.program.annotation_type(self.module, e, self.report)
            if metric is not None:
                return Value(T.TypeValue(metric))
        return self.expr(e)

    def call_value(self: Analysis, callee: Value, args: Sequence[Value],
                   keywords: dict[str, Value], span: ir.Span, label: str) -> Value:
        """Apply a function value to argument values."""
        ref = callee.type.ref if isinstance(callee.type, T.Callable_) else None
        if isinstance(ref, str) and ref in self.program.functions:
            module, function = self.program.functions[ref]
            if any(p.annotation is None for p in function.params):
                # Unannotated helpers are analyzed at each call with the actual arguments.
                from dpsens.infer.engine import Analysis, Closure

                scope = Analysis(self.program, module, function.qualname, self.var_types, self.privacy)
                scope.shared = self.shared
                scope.assumptions = self.assumptions  # what the helper assumes, the caller does
                return self.call_closure(Closure(function, scope), args, keywords, span)
            return self.call_summary(self.program.summary(ref, span, self), args, keywords, span)
        if isinstance(ref, str):
            rule = self.program.rules.get(ref)
            if rule is not None:
                return self.program.rules.apply(self, rule, args, keywords, span)
        if ref is not None and hasattr(ref, "scope"):
            return self.call_closure(ref, args, keywords, span)
        if isinstance(ref, tuple) and ref[0] == "parameter":
            return self.call_function_parameter(ref[1], ref[2], args, span)
        return self.refuse(span, f"call to '{label}' has no dpsens rule or analyzable body",
                           (callee, *args, *keywords.values()), code="DPS203",
                           trusted=self.trusts(label))

    def apply_rule(self: Analysis, qualname: str, arguments: Sequence[Value],
                   span: object) -> Value | None:
        """The value of a call of a stubbed function on these arguments (None: no rule, as
        when a stub directory replaced numpy's)."""
        rule = self.program.rules.get(qualname)
        if rule is None:
            return None
        return self.program.rules.apply(self, rule, list(arguments), {}, span)  # type: ignore[arg-type]

    # -- analyzed top-level functions ----------------------------------------
    def call_summary(self: Analysis, summary: Summary, args: Sequence[Value],
                     keywords: dict[str, Value], span: ir.Span) -> Value:
        """Σᵢ sᵢ·Γ(argᵢ), with static parameters and dimensions taken from the call site."""
        names = [p.name for p in summary.params]
        if summary.reads_state:
            self.read_shared_state()  # the callee may read what this function put in a global
        try:
            bound = bind(names, [p.has_default for p in summary.params], args, keywords)
        except BindError as error:
            return self.refuse(span, f"{summary.name}() {error}", (*args, *keywords.values()))
        given = dtypes.given_integers(summary.params, bound, summary.defaults)
        if given is not None and summary.builds_arrays:
            return _given_integers(self, bound)
        site = CallSite(self, summary, bound, span)
        if site.given_integers is not None and summary.builds_arrays:
            return _given_integers(self, bound)  # a function passed returns an int (R-int-dtype)
        if site.given_integers is not None:
            given = site.given_integers if given is None else C.add(given, site.given_integers)
        result = dtypes.returned(site.result(), given, summary.ret_integral,
                                 summary.ret_part_integrals)
        if summary.runs_unknown:  # R-kept: it may return what unknown code was given before
            kept = self.kept()
            if kept:
                result = result.with_ctx(C.add(result.ctx, kept))
        if summary.escaped:  # R-kept: what the callee handed to unknown code
            self.escape(C.total(bound[name].ctx for name in sorted(summary.escaped)  # type: ignore[union-attr]
                                if bound.get(name) is not None))
        if summary.observes:  # R-observed: what the callee shows besides its result
            statics = {p.name for p in summary.params if p.static}  # (data given for one: DPS304)
            shown = C.total(bound[name].ctx for name in sorted(summary.observed | statics)  # type: ignore[union-attr]
                            if bound.get(name) is not None)
            self.observe(C.blow_up(shown))
        return result

    # -- lambdas and nested functions -----------------------------------------
    def call_closure(self: Analysis, closure: object, args: Sequence[Value],
                     keywords: dict[str, Value], span: ir.Span) -> Value:
        """Analyze a closure's body with the argument values bound to its parameters."""
        node, scope = closure.node, closure.scope  # type: ignore[attr-defined]
        if isinstance(node, ir.Function) and node.decorators:
            # The name is bound to what the decorator returned, not to this body (review31
            # U3: a decorator applying the body twice made 3x into 9x).
            self.report(span, "DPS201", f"'{node.name}' is decorated: the decorator may "
                        "change what calling it does, so its body is not analyzed here")
            return unknown(C.blow_up(C.add(C.total(a.ctx for a in (*args, *keywords.values())),
                                           self.captured_by(node))))
        names = [p.name for p in node.params]
        try:
            bound = bind(names, [p.default is not None for p in node.params], args, keywords)
        except BindError as error:
            refused = self.refuse(span, f"call {error}", (*args, *keywords.values()))
            return unknown(C.add(refused.ctx, self.captured_by(node)))
        # Python closures read their enclosing function's variables when called:
        # in the same activation those are this analysis's current values.
        if scope.frame is self.frame:
            child = self.child()
        else:
            # Called from another activation (a nested def): the closure reads its
            # creator's variables as they are now, which may be the creating block's
            # copy (a loop body still running) or the frame's later values.
            child = scope.child()
            for name, now in _live_values(scope.frame).items():
                if name in child.env and child.env[name] is not now:
                    child.env[name] = join(child.env[name], now)
        child.ledger, child.shared = self.ledger, self.shared  # spends happen where it is called
        child.foreign = {p.name for p in node.params}
        if isinstance(node, ir.Function):
            child.frame, child.frame_node, child.outer_frame = child, node, scope.frame
            self.shared.rebound |= set(node.rebound)  # an inlined top-level helper's own
        defaults = dict(getattr(closure, "defaults", ()))
        for param in node.params:
            value = bound[param.name]
            if value is None:
                value = _default(child, param, defaults.get(param.name))
            child.env[param.name] = value
        captured = {n: v for n, v in child.env.items() if n not in names}
        if node in self.program.inline_stack:  # g = lambda t: g(t), or through a def
            shown = "a lambda" if isinstance(node, ir.Lambda) else f"'{node.name}'"
            self.report(span, "DPS204", f"recursive call of {shown}")
            return unknown(C.add(C.total(a.ctx for a in args), child.captured_by(node)))
        self.program.inline_stack.append(node)
        self.shared.inlined += 1
        try:
            result = child.expr(node.body) if isinstance(node, ir.Lambda) else child.run_body(node.body)
        finally:
            self.program.inline_stack.pop()
        self._keep_closure_stores(node, scope, child, captured)
        return result

    def _keep_closure_stores(self: Analysis, node: ir.Lambda | ir.Function, scope: Analysis,
                             child: Analysis, captured: dict[str, Value]) -> None:
        """Stores a closure made into arrays it captured change them for the caller too."""
        from dpsens.infer.mutation import assigned_names

        local = assigned_names(node)
        changed = [n for n, v in captured.items() if n not in local and child.env.get(n) is not v]
        if not changed:
            return
        if scope.frame is not self.frame:
            self.poisoned = True  # another activation's arrays changed: not tracked
            return
        for name in changed:
            if name in self.env:
                self.env[name] = child.env[name]

    def call_function_parameter(self: Analysis, name: str, kind: str, args: Sequence[Value],
                                span: ir.Span) -> Value:
        """A call of a Callable parameter: sens(f, i) per argument position, symbolically."""
        self.shared.callable_types.setdefault(name, []).append(tuple(a.type for a in args))
        _note_integers(self.shared.int_callables, name, args)
        if kind == "privacy":
            return self.privacy_parameter_call(name, args, span)
        ctx: C.Context = C.EMPTY
        for position, value in enumerate(args):
            ctx = C.add(ctx, C.scale(E.static_symbol(f"sens({name}, {position})"), value.ctx))
        if captures_of(name) in self.var_types:  # what the function passed for it captures
            ctx = C.add(ctx, C.single(captures_of(name)))
        return Value(T.REAL, ctx)

    def function_sensitivity(self: Analysis, function: Value, arg_types: Sequence[T.Type],
                             span: ir.Span, sources: Sequence[Value | None] = (),
                             repetitions: E.Expr | None = None,
                             given: dict[int, Value] | None = None,
                             writes_reported: bool = True,
                             held: Sequence[bool] = ()) -> tuple[list[E.Expr], Value]:
        """Per-position sensitivities of a function value, and its result (other ctx = captures).

        A builtin that applies the function once per row passes ``sources`` (the
        container each argument is a row or entry of) and the number of
        applications: privacy spent on an argument is then paid once by its
        source, at the distance its elements move together (each row is used by
        one application: parallel composition) when that cost is linear in the
        distance, else once per application at the container's distance
        (privacy.paid_once); privacy spent on captured values once per application.
        ``given`` holds public values for some positions (an exponential mechanism's
        candidate): they are passed as they are, and the function is 0-sensitive there.
        What the function writes from its arguments into values it captures is unbounded
        (DPS405 for a builtin's function; ``writes_reported`` is False where the caller
        reports writes itself, or the function is passed to the project's own code).
        """
        from dpsens.infer.privacy import paid_once
        from dpsens.privacy.ledger import Event, Ledger, Loop, retarget

        names = [self.fresh_variable("arg", t) for t in arg_types]
        # A tuple of numbers (fold's accumulator) gets a variable per component: a result
        # Σ_j c_j·d(part_j) is at most max_j c_j·d(tuple), the tuple's distance being the
        # sum of its parts' ((acc[0] + e, acc[1] + 2e) is 1 in acc, not 2).
        components = {n: [self.fresh_variable("arg", e) for e in t.elts]
                      for i, (t, n) in enumerate(zip(arg_types, names))
                      if i not in (given or {}) and isinstance(t, T.TupleType) and t.elts
                      and all(isinstance(e, T.Scalar) for e in t.elts)}
        args = [(given or {}).get(i) or (
            tuple_value(tuple(Value(e, C.single(c)) for e, c in zip(t.elts, components[n])))  # type: ignore[union-attr]
            if n in components else Value(t, C.single(n), input_of=n))
            for i, (t, n) in enumerate(zip(arg_types, names))]
        args = dtypes.held_as_integers(args, held)
        outer, self.ledger = self.ledger, Ledger()
        before = dict(self.env)
        try:
            result = self.call_value(function, args, {}, span, "function argument")
            spent = self.ledger.items
        finally:
            self.ledger = outer
        self._settle_writes(function, before, {*names, *(c for p in components.values() for c in p)},
                            sources if len(sources) == len(names) else (), span, writes_reported)
        if components:
            # A component moves at most as far as its tuple: spends on it are the tuple's.
            spent = retarget(spent, {c: {n: E.ONE} for n, parts in components.items()
                                     for c in parts})
            ctx = dict(result.ctx)
            for n, parts in components.items():
                slopes = [ctx.pop(c, E.ZERO) for c in parts]
                if any(not E.is_zero(r) for r in slopes):
                    ctx[n] = functools.reduce(E.smax, slopes)
            result = Value(result.type, ctx, integral=result.integral)
        if spent:
            containers = list(sources)
            each: dict[str, dict[str, E.Expr]] = {}  # arguments paid once per application
            if repetitions is None or len(containers) < len(names) or \
                    any(c is None for c in containers):
                self.report(span, "DPS405", "privacy is spent inside a function this builtin "
                            "applies an unknown number of times to unknown data")
                self.ledger.items.extend(retarget(
                    spent, {n: dict(C.blow_up(self.tracked())) for n in names}))
                repetitions = E.INF
            else:
                once, each = paid_once(spent, [(n, t, c) for n, t, c in  # type: ignore[misc]
                                               zip(names, arg_types, containers)], set(names))
                for name, history, distance in once:
                    self.ledger.items.extend(retarget([Event({name: history})],
                                                      {name: dict(distance)}))
            others = [i for i in _without(spent, set(names)) if i is not None]
            others += retarget(spent, each)
            if others:
                self.ledger.items.append(Loop(repetitions, tuple(others)))
        sensitivities = [result.ctx.get(n, E.ZERO) for n in names]
        captured = {k: v for k, v in result.ctx.items() if k not in names}
        return sensitivities, _without_arguments(result.with_ctx(captured), names)

    def _settle_writes(self: Analysis, function: Value, before: dict[str, Value],
                       variables: set[str], sources: Sequence[Value | None], span: ir.Span,
                       reported: bool) -> None:
        """Values a function given to a builtin wrote from what it was given (``w[0] = d[0]``
        in a query): the builtin runs it once per row, query or candidate, each run writing
        over or adding to the last, so they are unbounded in what the arguments come from
        (the sources' contexts, one per argument, or every parameter)."""
        written = [name for name in self.changed_since(before)
                   if any(v in variables for v in self.env[name].ctx)]
        if not written:
            return
        known = bool(sources) and all(s is not None for s in sources)
        origin = C.blow_up(C.total(s.ctx for s in sources if s is not None) if known
                           else self.tracked())
        for name in written:
            # Unknown, not only re-measured: a closure it holds may still read an argument.
            kept = {v: r for v, r in self.env[name].ctx.items() if v not in variables}
            self.env[name] = unknown(C.add(kept, origin))
        if not reported or not isinstance(function.type, T.Callable_):
            return  # (an unknown function: what it may change is reported as such)
        shown = ", ".join(f"'{name}'" for name in sorted(written))
        self.report(span, "DPS405", f"a function given to this builtin writes what it is given "
                    f"into {shown}, which it captures: the builtin runs it many times, so "
                    f"{shown} {'is' if len(written) == 1 else 'are'} not bounded")

    # -- methods ----------------------------------------------------------------
    def _is_method_call(self: Analysis, func: ir.Attribute) -> bool:
        dotted = ir.dotted_name(func)
        return dotted is None or dotted.split(".")[0] in self.env

    def _method_call(self: Analysis, e: ir.Call) -> Value:
        """``x.sum(axis=0)`` is ``numpy.sum(x, axis=0)`` when numpy's stub has it."""
        assert isinstance(e.func, ir.Attribute)
        operands = [e.func.value, *e.args, *(k.value for k in e.keywords)]
        given = self.operands(operands, lambda x: self.expr(x) if x is operands[0]
                              else self.argument(x))
        receiver, args = given[0], given[:len(e.args) + 1]
        keywords = {k.name: value for k, value in zip(e.keywords, given[len(e.args) + 1:])}
        if e.func.attr in LIST_GROWERS and is_list(receiver) and isinstance(e.func.value, ir.Name) \
                and len(e.args) == 1 and not e.keywords:
            added = args[1] if e.func.attr == "extend" else tuple_value((args[1],))
            self.grow_list(e.func.value.id, added, e.args[0], e.span)
            return Value(T.Opaque("None"), C.EMPTY)
        rule = self.program.rules.get(f"numpy.{e.func.attr}")
        if rule is not None and (isinstance(receiver.type, (T.Vector, T.Matrix))
                                 or receiver.selection is not None) \
                and "out" not in keywords and e.func.attr not in _IN_PLACE_METHODS:
            refusals = self.shared.refusals
            result = self.program.rules.apply(self, rule, args, keywords, e.span)
            if self.shared.refusals == refusals:
                return result
            # v.clip(0, 1, w) does not fit the rule, and numpy writes w.
        elif isinstance(e.func.value, ir.Name) and e.func.value.id.startswith("comprehension#"):
            # (the append is the analysis's own: the user wrote a comprehension)
            self.report(e.span, "DPS202", f"a list of {args[1].type.show()} built by a "
                        "comprehension is not analyzed: write its elements as a tuple")
            result = unknown(C.total(a.ctx for a in (*args, *keywords.values())))
        else:
            self.report(e.span, "DPS203", f"method '.{e.func.attr}()' has no dpsens rule")
            given = C.total(a.ctx for a in (*args, *keywords.values()))
            if self.shared.quiet and self._own_object(e.func.value):
                # An object the black box made with a library: it keeps and shows nothing,
                # but may write into what it is given or shares (R-blackbox, below).
                result = unknown(given)
            else:
                # An object's method may keep state (R-kept); an array's or a container's
                # keeps none beyond the object itself.
                result = self.run_unknown(given, keeps=receiver.type == UNKNOWN
                                          or isinstance(receiver.type, T.Opaque))
        # The method may mutate its receiver and any array it is given (an out) in place;
        # with only public inputs, what it writes into its arguments is public.
        for expr in (*e.args, *(k.value for k in e.keywords)) if result.ctx else ():
            self.invalidate(expr, result.ctx)
        for expr in (e.func.value, *(k.value for k in e.keywords if k.name == "out")):
            self.invalidate(expr, result.ctx)
            if any(self.owned_elsewhere(n) for source, _ in self.alias_sources(expr)
                   for n in self.alias_group(source)[1] | {self.alias_group(source)[0]}):
                self.poisoned = True  # a caller's array may have changed
        return result


_FRAME_READERS = frozenset({
    "builtins.eval", "builtins.exec", "builtins.locals", "builtins.vars", "builtins.globals",
    "builtins.breakpoint", "builtins.__import__", "sys._getframe", "sys._current_frames",
    "sys.exc_info", "sys.exception", "traceback.extract_stack", "traceback.walk_stack",
    "gc.get_objects", "gc.get_referrers", "gc.get_referents",
})
_FRAME_READER_MODULES = ("inspect.", "ctypes.")  # every function of these may reach frames

# List methods with a rule: they add elements at the end (MutationRules.grow_list).
LIST_GROWERS = frozenset({"append", "extend"})

# ndarray methods that change their receiver instead of returning numpy's function of it
# (v.sort() sorts v and returns None): never the rule of the function of the same name.
_IN_PLACE_METHODS = frozenset({"sort", "partition", "fill", "put", "resize", "itemset"})


def _live_values(frame: object) -> dict[str, Value]:
    """The variables a closure made in an activation reads, as they are now: that
    activation's own, and the enclosing activations' for the names it does not bind
    (a lambda made by a nested def reads its creator's creator's variables late)."""
    from dpsens.infer.mutation import assigned_names

    live: dict[str, Value] = {}
    while frame is not None and hasattr(frame, "env"):
        node = getattr(frame, "frame_node", None)
        owned = None if node is None else {p.name for p in node.params} | assigned_names(node)
        for name, value in frame.env.items():
            if name not in live and (owned is None or name in owned):
                live[name] = value
        frame = getattr(frame, "outer_frame", None)
    return live


def _default(child: Analysis, param: ir.Param, defined: Value | None) -> Value:
    """A parameter's default: a number as evaluated where the function was defined; an
    object (an array, a 0-d one too) is the one bound then, with what was stored into it
    since, so the value now under the default's names is joined in."""
    if defined is not None and isinstance(defined.type, T.Scalar) and not defined.zero_d:
        return defined
    now = child.expr(param.default)  # type: ignore[arg-type]
    return now if defined is None else join(defined, now)


def _without(items: object, variables: set[str]) -> list[object]:
    """Ledger items without the charges of some variables."""
    from dpsens.infer.privacy import _drop

    return [_drop(item, variables) for item in items]  # type: ignore[attr-defined]


def _shown_callee(func: ir.Expr) -> str:
    """A callee that is not a name, as the user wrote it (`make(6.0)(x)` calls what
    make returns: a returned function is not analyzed). No dot: it is never taken for a
    library's qualified name (``trusts``)."""
    inner = func.func if isinstance(func, ir.Call) else func.value \
        if isinstance(func, ir.Subscript) else None
    name = ir.dotted_name(inner) if inner is not None else None
    if name is None:
        return "a computed function"
    name = name.rpartition(".")[2]
    return f"the function {name}() returns" if isinstance(func, ir.Call) else f"{name}[...]"


def captures_of(name: str) -> str:
    """The variable standing for what the function passed for a Callable parameter
    captures, one call's worth (R-captures); not an identifier, so no name clashes."""
    return f"{name}()"


def _note_integers(found: dict[str, tuple[bool, ...]], name: str, args: Sequence[Value]) -> None:
    """Record which arguments of a call of Callable parameter ``name`` may be integers held
    as Reals: the function passed is analyzed with floats there unless told (R-int-dtype;
    an Integer's type already says so)."""
    held = tuple(T.scalar_kind_of(a.type) not in ("Integer", "Bool", "Data")
                 and dtypes.possible(a) is not None for a in args)
    before = found.get(name, ())
    width = max(len(before), len(held))
    found[name] = tuple((i < len(before) and before[i]) or (i < len(held) and held[i])
                        for i in range(width))


def _without_arguments(result: Value, names: Sequence[str]) -> Value:
    """A function value's result without the variables standing for its arguments in what
    decides whether it is an integer (the caller adds what it passes)."""
    if result.integral is None:
        return result
    return dtypes.marked(result, {k: v for k, v in result.integral.items() if k not in names})


def _given_integers(a: Analysis, bound: dict[str, Value | None]) -> Value:
    """A call giving an int where the callee took a float: it may change the arrays the
    callee makes and writes (R-int-dtype), so what it computes, and whether it raises,
    is not known."""
    inputs = C.blow_up(C.total(v.ctx for v in bound.values() if v is not None))
    a.observe(inputs)
    return unknown(inputs)
