"""Applying a callee's summary at one call site: Σ_p s_p·Γ(arg_p).

Static parameters and dimensions take their call-site values; arguments are
re-measured in the declared parameter metrics; function arguments replace the
symbols ``sens(f, i)`` / ``eps(f)``, ``delta(f)`` of higher-order callees; the
callee's assumptions are checked with the call-site values.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping

import sympy as sp

from dpsens import types as T
from dpsens.infer import dtypes, floats, pieces, ranges
from dpsens.infer.binding import conversion, dimension_mapping, substitute_type
from dpsens.infer.pieces import Pieces
from dpsens.infer.values import UNKNOWN, Value, list_length, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.diagnostics import Span
    from dpsens.infer.engine import Analysis
    from dpsens.infer.summary import Summary

_FUNCTION_SYMBOL = re.compile(r"^(sens|eps|delta)\((\w+)(?:, (\d+))?\)$")


class CallSite:
    """One call of a summarized function with bound argument values."""

    def __init__(self, caller: Analysis, summary: Summary, bound: dict[str, Value | None],
                 span: Span) -> None:
        self.caller, self.summary, self.span = caller, summary, span
        self.values = {name: value if value is not None else summary.defaults.get(name)
                       for name, value in bound.items()}
        self.mapping: dict[E.Expr, E.Expr] = {}
        self.unknown_statics: set[E.Expr] = set()
        self.held: dict[E.Expr, E.Expr] = {}  # static symbol -> the float passed, if not exact
        self.unheld: set[E.Expr] = set()  # static symbols whose float is not known exactly
        self.extra: C.Context = C.EMPTY  # what the call costs beyond Σ s_p·Γ_p
        # R-int-dtype: what decides whether a function passed here returns an integer the
        # callee took for a float (None: each returns floats).
        self.given_integers: C.Context | None = None
        self.factors: dict[str, E.Expr] = {}
        self._bind_statics()
        self._bind_functions()
        self._measure_arguments()

    def _bind_statics(self) -> None:
        for param in self.summary.params:
            value = self.values.get(param.name)
            if value is None or param.callable_kind is not None:
                continue
            if not param.static:
                self.mapping.update(dimension_mapping(param.type, value.type))
                continue
            if not value.public:
                self.caller.report_about(self.span, value.ctx, "DPS304", f"argument "
                                         f"'{param.name}' of {self.summary.name}() must be static")
                self.extra = C.add(self.extra, C.blow_up(value.ctx))
            symbol = E.static_symbol(param.name)
            if value.exact is not None and T.integral_violated(param.type, value.exact):
                # The callee's integer rules (a // k, a % k) took it for a whole number.
                self.caller.report(self.span, "DPS301", f"argument '{param.name}' of "
                                   f"{self.summary.name}() is {param.text} but gets "
                                   f"{E.render(value.exact)}")
                self.unknown_statics.add(symbol)
            elif value.exact is not None:
                self.mapping[symbol] = value.exact
                self._note_float(symbol, value, param.type)
            else:
                self.unknown_statics.add(symbol)

    def _note_float(self, symbol: E.Expr, value: Value, declared: T.Type) -> None:
        """Where the float passed is not the exact value (0.1, 0.1 + 0.2, d * 0.1): the
        callee's bounds are functions of the float its parameter holds (R-float-static)."""
        if T.scalar_kind_of(value.type) in ("Integer", "Bool"):
            # Python passes the integer itself. A callee taking a float analyzed it as
            # one: numpy converts it (np.clip(v, lo, hi)), exactly only below 2^53 or so,
            # while Python's integer arithmetic stays exact. Neither the integer nor its
            # float is what such a callee's bounds are functions of.
            rounding = floats.view(value)
            if T.scalar_kind_of(declared) not in ("Integer", "Bool") and \
                    (rounding is None or rounding.rel != 0):
                self.unheld.add(symbol)
            return
        held = floats.float_of(value)
        if held is not None:
            if held != value.exact:
                self.held[symbol] = held
            return
        rounding = floats.view(value)
        if rounding is None or rounding.rel != 0:
            self.unheld.add(symbol)  # a symbolic value whose float is not known exactly

    def _bind_functions(self) -> None:
        """Instantiate sens(f, i), eps(f), delta(f) with the function passed for f.

        What the passed function captures from the caller is unbounded: the callee
        may call it any number of times, with a cost that shows in none of its
        parameters (sens(f, i) is only in a parameter when f is called on it).
        This holds for every function argument, whether or not the callee's
        results mention f (DPS307).
        """
        bound: dict[E.Expr, E.Expr] = {}
        pending: list[tuple[str, C.Context, C.Context]] = []  # R-captures, once f is bound
        for param in self.summary.params:
            function = self.values.get(param.name)
            if param.callable_kind is None or function is None or \
                    not isinstance(function.type, T.Callable_) or param.name not in self.summary.read:
                continue
            calls = self.summary.callable_types.get(param.name, [])
            ref = function.type.ref
            if isinstance(ref, tuple) and ref[0] == "parameter":
                self.caller.shared.passed_on.add(ref[1])  # (R-captures: its calls are not all seen)
            # The callee writes into arrays it is given, which the closure may read: its
            # captures are then no longer what they were here, nor their moves.
            changed_captures = hasattr(ref, "node") and bool(self.summary.mutated)
            if changed_captures:
                self._report_captures(param.name, "reads values the callee may change")
                self.extra = C.add(self.extra, C.blow_up(C.total(
                    v.ctx for v in self.values.values() if v is not None)))
            # Never called directly (passed on, or stored): what its body reads counts.
            captured: C.Context = C.EMPTY if calls else function.ctx
            per_call: C.Context = C.EMPTY  # the most one call's captures move
            # Whether one call's move may not bound every call's, or is no number's.
            unfit = changed_captures
            held = self.summary.int_callables.get(param.name, ())  # R-int-dtype: as it passes
            for types in calls:
                if param.callable_kind == "privacy":
                    epsilon, delta, exposed, integers = self.caller.function_privacy(
                        function, list(types), self.span, held)
                    if integers:
                        self._returns_integers(C.EMPTY)
                    for symbol, cost in ((f"eps({param.name})", epsilon),
                                         (f"delta({param.name})", delta)):
                        key = E.static_symbol(symbol)
                        bound[key] = E.smax(bound.get(key, E.ZERO), cost)
                    captured = C.add(captured, exposed)
                    continue
                before = dict(self.caller.env)
                sensitivities, result = self.caller.function_sensitivity(
                    function, list(types), self.span, writes_reported=False, held=held)
                self._returns_integers(dtypes.possible(result))
                # A function that writes into what it captures moves differently at each
                # call (a running total): one call's move does not bound the next's.
                unfit |= bool(self.caller.changed_since(before))
                unfit |= not isinstance(result.type, T.Scalar)
                # The callee uses f's result as a Real (call_function_parameter): a Data
                # result re-measured as a Real, or an array taken for a number, is unbounded.
                kind = T.scalar_kind_of(result.type) or "Real"
                factor = T.element_factor(kind, "Real") if isinstance(result.type, T.Scalar) \
                    else E.INF
                for position, sensitivity in enumerate(sensitivities):
                    key = E.static_symbol(f"sens({param.name}, {position})")
                    bound[key] = E.smax(bound.get(key, E.ZERO), E.mul(factor, sensitivity))
                captured = C.add(captured, result.ctx)
                per_call = C.join(per_call, result.ctx)
            if C.is_public(captured):
                continue
            if calls and not unfit and param.name in self.summary.captures:
                pending.append((param.name, captured, per_call))
                continue
            self._report_captures(param.name, captured)
            self.extra = C.add(self.extra, C.blow_up(captured))
        for symbol in self._function_symbols():
            self.mapping[symbol] = bound.get(symbol, E.INF)
        for name, captured, per_call in pending:
            # R-captures: the callee's result moves by its coefficient of the captures (at
            # the sensitivities of the functions passed here) times one call's move.
            instance = self.instance(self.summary.captures[name])
            if instance is None or E.is_inf(instance) or instance.free_symbols & (
                    self.unknown_statics | self._function_symbols()):
                self._report_captures(name, captured)
                self.extra = C.add(self.extra, C.blow_up(captured))
            else:
                self.extra = C.add(self.extra, C.scale(instance, per_call))

    def _returns_integers(self, held: C.Context | None) -> None:
        """A function passed may return an integer where the callee took a float: what its
        arguments (anything the call is given) and ``held`` decide."""
        if held is None:
            return
        given = C.total(v.ctx for v in self.values.values() if v is not None)
        self.given_integers = C.blow_up(C.total([self.given_integers or C.EMPTY, given, held]))

    def _report_captures(self, name: str, captured: C.Context | str) -> None:
        """DPS307: what the function passed for ``name`` captures becomes unbounded."""
        if isinstance(captured, str):
            why = captured
        else:
            # '@loop3' and the like stand for values of the enclosing loop or rows.
            names = sorted(v for v in captured if not E.is_zero(captured[v]))
            why = "uses " + (", ".join(f"'{v}'" for v in names if not v.startswith("@"))
                             or "values of an enclosing loop")
        self.caller.report(self.span, "DPS307", f"the function passed for '{name}' of "
                           f"{self.summary.name}() {why}, which become unbounded: the callee "
                           "may call it any number of times")

    def _parsed(self) -> list[tuple[str, str, str]]:
        return [_FUNCTION_SYMBOL.match(s.name).groups() for s in self._function_symbols()]  # type: ignore[union-attr,attr-defined,misc]

    def _function_symbols(self) -> set[E.Expr]:
        found: set[E.Expr] = set()
        exprs = [p.sensitivity for p in self.summary.params] + list(self.summary.conditions)
        for part in self.summary.ret_parts or []:
            exprs.extend(part.values())
        for param in self.summary.params:
            exprs.extend(p for p in (param.epsilon, param.delta))
        for history in self.summary.histories.values():
            exprs.extend(_history_exprs(history))
        for expr in exprs:
            # A symbol's name, not str(): sympy's printer costs ~10 µs a symbol.
            found |= {s for s in getattr(expr, "free_symbols", set())
                      if _FUNCTION_SYMBOL.match(s.name)}
        return found

    def _measure_arguments(self) -> None:
        for param in self.summary.params:
            value = self.values.get(param.name)
            if value is None or param.static:
                continue
            if _holds_a_list(value.type):
                # The callee's metric compares lists of one length; a list whose length
                # depends on data (D72) may change what it computes in any way (D73).
                self.extra = C.add(self.extra, list_length(value))
            factor = conversion(value.type, param.type)
            if factor is None:
                self.caller.report(self.span, "DPS301", f"argument '{param.name}' of "
                                   f"{self.summary.name}(): expected {param.type.show()}, "
                                   f"got {value.type.show()}")
                factor = E.INF
            self.factors[param.name] = factor

    def context(self, sensitivities: C.Context) -> C.Context:
        """Σ_p s_p·conversion_p·Γ(arg_p) for per-parameter sensitivities of the callee."""
        return self._sum(self._terms(sensitivities))

    def _sum(self, terms: list[tuple[str, E.Expr, Value]]) -> C.Context:
        return C.total([self.extra, *(C.scale(factor, value.ctx) for _, factor, value in terms)])

    def _terms(self, sensitivities: C.Context) -> list[tuple[str, E.Expr, Value]]:
        """Per argument of a non-static parameter: its name, s_p·conversion_p, the value."""
        terms = []
        for param in self.summary.params:
            value = self.values.get(param.name)
            if value is None or param.static:
                continue
            sensitivity = self.instance(sensitivities.get(param.name, E.ZERO))
            if sensitivity is None:
                self.caller.report(self.span, "DPS305", f"the sensitivity of "
                                   f"{self.summary.name}() depends on the float a static "
                                   "argument holds, which is not known exactly here")
                sensitivity = E.INF
            elif sensitivity.free_symbols & self.unknown_statics:
                self.caller.report(self.span, "DPS305", f"the sensitivity of "
                                   f"{self.summary.name}() depends on a static argument whose "
                                   "value is not known")
                sensitivity = E.INF
            terms.append((param.name, E.mul(sensitivity, self.factors[param.name]), value))
        return terms

    def instance(self, bound: E.Expr) -> E.Expr | None:
        """A callee's bound at this call: its static symbols take the values passed.

        The bound is a function of the floats the parameters hold. Where a float passed
        is not its exact value (0.1), the exact value serves if the bound is stable in
        that symbol (floats.stable_in: |c|, 1/|c|, not |c − 1/10|); otherwise the
        bound is evaluated at the float itself, and shown at the exact value only when
        the two agree to a relative 1e-12. None when that float is not known.
        """
        plain = E.substitute(bound, self.mapping)
        moved = {s for s in bound.free_symbols if s in self.held or s in self.unheld}
        if not moved or floats.stable_in(bound, moved):
            return plain
        if moved & self.unheld:
            return None
        held = E.substitute(bound, {**self.mapping, **{s: self.held[s] for s in moved}})
        if not held.is_number:
            return held
        if plain.is_number and abs(held - plain) <= floats.TOLERANCE_EXPR * abs(plain):
            return plain
        return floats.shown(held)

    def _unbound_sizes(self) -> bool:
        """Whether a size of the callee's parameters got no value here (its argument is
        not a container of the declared shape): the callee's results speak of its own
        len(a), which would leak into the caller as a symbol of the caller's."""
        sizes = set()
        for param in self.summary.params:
            if not param.static and param.callable_kind is None and self.values.get(param.name) is not None:
                sizes |= set(dimension_mapping(param.type, param.type))
        return any(size not in self.mapping for size in sizes)

    def conditions_hold(self) -> bool:
        """Check the callee's assumptions here; undecided ones become the caller's.

        Every analysis takes its parameters' sizes to be at least 1 (the closed
        form of ``for e in v: s = e`` is e's, not s's), so a call must pass sizes
        of at least 1 too (``f(x, v[0:0])`` gets DPS306).
        """
        sizes = [(sp.Ge(declared, 1, evaluate=False), _at_least_one(actual))
                 for declared, actual in self.mapping.items()
                 if isinstance(declared, sp.Symbol) and declared.is_positive]
        conditions = [(c, E.replace(c, tuple(self.mapping.items()))) for c in self.summary.conditions]
        for condition, instance in [*sizes, *conditions]:
            # Decided under the caller's sign facts too (its s > 0, k >= 0): D47.
            unknown = instance.free_symbols & self.unknown_statics
            if instance == sp.false or unknown or self.caller.decide(instance) is False:
                shown = E.render(condition)
                why = "which this call does not satisfy" if not unknown else (
                    "which cannot be checked here: " + ", ".join(
                        f"'{s}'" for s in sorted(map(str, unknown))) +
                    " has no single known value (a value chosen by a branch, or computed "
                    "from floats)")
                self.caller.report(self.span, "DPS306", f"{self.summary.name}() is only bounded "
                                   f"when {shown}, {why}")
                return False
            self.caller.assume(instance)
        return True

    def result(self) -> Value:
        """The value of the call."""
        everything = C.total(v.ctx for v in self.values.values() if v is not None)
        ret_type = substitute_type(self.summary.ret_type, self.mapping)
        if _has_function(ret_type) or self._unbound_sizes() or not self.conditions_hold():
            # A returned closure would be analyzed in the callee's variables.
            return unknown(everything)
        if self.summary.kind in ("privacy", "local_randomizer"):
            return self.caller.privacy_call(self.summary, self.values, self.span, ret_type,
                                            self.mapping, self.factors, self.extra,
                                            self.instance)
        terms = self._terms({p.name: p.sensitivity for p in self.summary.params})
        whole = self._sum(terms)
        if self.summary.ret_parts is not None and isinstance(ret_type, T.TupleType):
            read = self.summary.part_pieces or [None] * len(ret_type.elts)
            parts = tuple(self._component(t, part, parted) for t, part, parted
                          in zip(ret_type.elts, self.summary.ret_parts, read))
            return self._parted(Value(ret_type, whole, parts=parts), terms,
                                self.summary.ret_pieces)
        if ret_type == UNKNOWN:
            return unknown(whole)
        return self._parted(ranges.ranged(Value(ret_type, whole, zero_d=self.summary.ret_zero_d),
                                          self._returned_interval()), terms,
                            self.summary.ret_pieces)

    def _component(self, t: T.Type, sensitivities: C.Context, read: Pieces | None) -> Value:
        """A returned tuple's component, with the pieces of what it is computed from (a 0-d
        array when the returned tuple may hold one: D155)."""
        terms = self._terms(sensitivities)
        zero_d = self.summary.ret_zero_d and isinstance(t, (T.Scalar, T.TupleType, T.ListType))
        return self._parted(Value(t, self._sum(terms), zero_d=zero_d), terms, read)

    def _parted(self, value: Value, terms: list[tuple[str, E.Expr, Value]],
                read: Pieces | None) -> Value:
        """The call's value with the pieces of the arguments it reads (R-parts): where the
        callee reads parts of a parameter, the same parts of its argument."""
        if read is None and not any(argument.pieces is not None for _, _, argument in terms):
            return value
        weighted: list[tuple[E.Expr, Pieces]] = []
        for name, factor, argument in terms:
            split = self._split(name, argument, (read or {}).get(name))
            weighted += split if split is not None else [(factor, pieces.of(argument))]
        # Every argument and the extra are counted: a variable none of them names (one
        # component of a tuple passed whole, of which the callee reads another) is not moved.
        return pieces.combined(value, weighted, self.extra, complete=True)

    def _split(self, name: str, argument: Value, read: Mapping[pieces.Key, E.Expr] | None
               ) -> list[tuple[E.Expr, Pieces]] | None:
        """Per part of the parameter the callee reads, its coefficient here and the pieces
        of the argument's same part; None when the argument's parts are not known (or the
        parameter's metric is not the argument's)."""
        declared = next(param.type for param in self.summary.params if param.name == name)
        if not read or all(key is None for key in read) or self.factors[name] != E.ONE \
                or type(declared) is not type(argument.type):
            return None
        split = []
        for key, coefficient in read.items():
            here = self.instance(coefficient)
            part = pieces.of(argument) if key is None else pieces.part_of(argument, key)
            if here is None or here.free_symbols & self.unknown_statics or part is None:
                return None
            split.append((here, part))
        return split

    def _returned_interval(self) -> ranges.Interval | None:
        """Where the callee's returned number lies at this call, when every symbol of its
        interval gets a value here (others are the callee's, not the caller's)."""
        if self.summary.ret_interval is None:
            return None
        ends = []
        for end in self.summary.ret_interval:
            if not end.free_symbols <= set(self.mapping) or end.free_symbols & self.unheld:
                return None
            # At the floats passed, not their decimals: np.clip(v, lo, hi) with 0.3 and
            # 0.30000000000000004 clips between floats 5.55e-17 apart, not 4e-17.
            ends.append(E.substitute(end, {**self.mapping, **self.held}))
        return ends[0], ends[1]  # lo ≤ value ≤ hi held for every static value


def _at_least_one(size: E.Expr) -> sp.Basic:
    """``size >= 1``, readable: max(0, n - 1) >= 1 is n >= 2."""
    if isinstance(size, sp.Max) and len(size.args) == 2 and E.ZERO in size.args:
        size = size.args[0] if size.args[1] == E.ZERO else size.args[1]
    constant, rest = size.as_coeff_Add()
    return sp.Ge(rest, 1 - constant)


def _holds_a_list(t: T.Type) -> bool:
    """A list of unknown length, or a tuple holding one."""
    if isinstance(t, T.ListType):
        return True
    return isinstance(t, T.TupleType) and any(map(_holds_a_list, t.elts))


def _has_function(t: T.Type) -> bool:
    """A returned function (alone or in a tuple) would be analyzed in the callee's variables."""
    if isinstance(t, T.Callable_):
        return True
    if isinstance(t, T.ListType):
        return _has_function(t.elem)
    return isinstance(t, T.TupleType) and any(_has_function(e) for e in t.elts)


def _history_exprs(history: tuple[object, ...]) -> list[E.Expr]:
    out: list[E.Expr] = []
    for item in history:
        for name in ("epsilon", "delta", "count", "size", "population", "distance"):
            value = getattr(item, name, None)
            if value is not None:
                out.append(value)
        for name in ("body",):
            out.extend(_history_exprs(getattr(item, name, ())))
        for branch in getattr(item, "branches", ()):
            out.extend(_history_exprs(branch))
    return out

