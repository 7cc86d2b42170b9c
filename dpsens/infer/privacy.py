"""Privacy functions: mechanism charges, privacy calls, samples and the final accounting.

Values keep sensitivity contexts; a mechanism's output is public (post-
processing is free) and what it costs goes into the ledger, per variable.
docs/privacy.md states the theorems.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

import sympy as sp

from dpsens import ir
from dpsens import types as T
from dpsens.frontend import tuples
from dpsens.infer import components, dtypes
from dpsens.infer.values import Value, sampled, unknown
from dpsens.privacy import ledger as L
from dpsens.sym import context as C
from dpsens.sym import expr as E
from dpsens.text import top_level_items

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.infer.summary import Summary


@dataclass
class SampleScope:
    """A ``sample`` call: spends on its pseudo variables are amplified when it closes."""

    size: E.Expr
    population: E.Expr
    sources: dict[str, C.Context]  # pseudo variable -> the context of the sampled matrix


class PrivacyRules:
    """Mixin of Analysis for calls that spend privacy."""

    def require_privacy(self: Analysis, span: ir.Span, what: str) -> bool:
        """DPS302 unless this is a privacy function."""
        if not self.privacy:
            self.report(span, "DPS302", f"{what} is randomized; it can only be used in a "
                        "function declared -> Priv[...]")
        return self.privacy

    def spend(self: Analysis, span: ir.Span, charges: dict[str, tuple[L.VarItem, ...]],
              entry: dict[str, Any]) -> None:
        """Record a mechanism call: its trace entry and what it charges each variable."""
        line = getattr(span, "statement_line", 0) or span.line  # avoids resolving positions
        entry = {"kind": entry.pop("kind"), "line": line, **entry}
        # What this call charges each parameter, once (an accountant re-composes these).
        charged = {tuples.shown(v): _shown_cost(h) for v, h in sorted(charges.items())
                   if not v.startswith("@")}
        if charged:
            entry["charged"] = charged
        count = _product(self.shared.loop_counts)
        if count != E.ONE:
            entry["repetitions"] = E.render(count)
            self.shared.repetitions[id(entry)] = count
        self.shared.trace.append(entry)
        self.ledger.charge(charges)

    def privacy_call(self: Analysis, summary: Summary, bound: dict[str, Value | None],
                     span: ir.Span, result_type: T.Type,
                     mapping: dict[E.Expr, E.Expr] | None = None,
                     factors: dict[str, E.Expr] | None = None,
                     extra: C.Context = C.EMPTY,
                     at: Callable[[E.Expr], E.Expr | None] | None = None) -> Value:
        """A call of a privacy function: its per-parameter histories, paid by the arguments;
        the variables of ``extra`` (captured by function arguments, or passed for static
        parameters) pay (∞, ∞)."""
        if not self.require_privacy(span, f"{summary.name}()"):
            return unknown(C.total(v.ctx for v in bound.values() if v is not None))
        # Per variable, one history per parameter it reaches: the call is one release, so
        # a variable passed for two parameters moves both at once (merged, not composed).
        charges: dict[str, list[tuple[L.VarItem, ...]]] = {}
        for param in summary.params:
            value = bound.get(param.name)
            if value is None or param.static:
                continue
            factor = (factors or {}).get(param.name, E.ONE)
            history = L.substitute(summary.histories.get(param.name, ()), mapping or {}, at)
            by_part = self._paid_by_component(summary, param, value, factor, mapping or {}, at)
            for variable, r in value.ctx.items():
                if variable in by_part:
                    charges.setdefault(variable, []).extend(by_part[variable])
                    continue
                distance = E.mul(factor, r)
                if _counts_by_square(param.type):
                    # (L2, Data) distance is √(changed entries): a distance d is d²
                    # unit steps, not ⌈d⌉ (one entry changes per step).
                    distance = E.mul(distance, distance)
                charges.setdefault(variable, []).append(L.in_group(history, distance))
        for variable, r in extra.items():
            if not E.is_zero(r):
                charges.setdefault(variable, []).append((L.Charge(E.INF, E.INF),))
        self.spend(span, {v: L.merged(h) for v, h in charges.items()},
                   {"kind": "call", "function": summary.qualname,
                    "mechanisms": _instantiate(summary.mechanisms, mapping or {})})
        return Value(result_type)

    def _paid_by_component(self: Analysis, summary: Summary, param: Any, value: Value,
                           factor: E.Expr, mapping: dict[E.Expr, E.Expr],
                           at: Callable[[E.Expr], E.Expr | None] | None
                           ) -> dict[str, list[tuple[L.VarItem, ...]]]:
        """Per variable of a tuple passed for a split parameter (R-components), each
        component's own history at the distance of the value passed for it (the tuple's
        conversion factor is its components' worst). Only where that is one component,
        or several moved by at most 1 each (merged item by item); the others pay the
        whole tuple's history at the sum of the distances (a group over histories of
        different shapes would pay for every step of all of them)."""
        parts = summary.part_histories.get(param.name)
        if parts is None or value.parts is None or len(value.parts) != len(parts):
            return {}
        reached: dict[str, list[tuple[Any, E.Expr]]] = {}  # (a history, a distance)
        for history, part in zip(parts, value.parts):
            for variable, r in part.ctx.items():
                if not E.is_zero(r):
                    reached.setdefault(variable, []).append((history, E.mul(factor, r)))
        return {variable: [L.in_group(L.substitute(h, mapping, at), d) for h, d in paid]
                for variable, paid in reached.items()
                if len(paid) == 1 or all(E.decide_le(d, E.ONE) is True for _, d in paid)}

    def privacy_parameter_call(self: Analysis, name: str, args: Sequence[Value],
                               span: ir.Span) -> Value:
        """A call of a PrivacyFunction parameter: it costs the symbols eps(f), delta(f)."""
        if not self.require_privacy(span, f"'{name}'"):
            return unknown(C.total(a.ctx for a in args))
        # eps(f) is f's cost at distance 1, with nothing known of smaller moves.
        cost = L.Charge(E.static_symbol(f"eps({name})"), E.static_symbol(f"delta({name})"),
                        slope=E.INF)
        charges = {v: L.in_group((cost,), r) for v, r in C.total(a.ctx for a in args).items()}
        self.spend(span, charges, {"kind": "call", "function": name})
        return Value(T.REAL)

    def function_privacy(self: Analysis, function: Value, arg_types: Sequence[T.Type],
                         span: ir.Span, held: Sequence[bool] = ()
                         ) -> tuple[E.Expr, E.Expr, C.Context, bool]:
        """The (ε, δ) a privacy function costs its first argument (basic composition), the
        context of what else it depends on (the variables it captures and spends privacy
        on, or releases), and whether its result may be an integer held as a Real
        (R-int-dtype). ``held``: per argument, whether the caller may pass an integer."""
        from dpsens.privacy.compose import basic

        names = [self.fresh_variable("arg", t) for t in arg_types]
        outer, self.ledger = self.ledger, L.Ledger()
        privacy, self.privacy = self.privacy, True
        try:
            arguments = dtypes.held_as_integers(  # (R-int-dtype: as passed)
                [Value(t, C.single(n)) for t, n in zip(arg_types, names)], held)
            result = self.call_value(function, arguments, {}, span, "function")
            spent = self.ledger.items
        finally:
            self.ledger, self.privacy = outer, privacy
        released = {v for v, r in result.ctx.items() if not E.is_zero(r)}
        exposed = {v: E.INF for v in sorted((L.variables(spent) | released) - set(names))}
        integers = dtypes.possible(result) is not None
        if not E.is_zero(result.ctx.get(names[0], E.ZERO)):
            return E.INF, E.INF, exposed, integers  # it releases its argument without noise
        epsilon, delta = basic(L.project(spent, names[0]))
        return epsilon, delta, exposed, integers

    def open_sample(self: Analysis, scope: SampleScope) -> None:
        """Start amplifying what is spent on a sample's pseudo variables."""
        self.shared.samples.append(scope)

    def close_samples(self: Analysis, items: list[L.Item], since: int) -> list[L.Item]:
        """Re-charge spends on samples opened since index ``since`` to the sampled inputs."""
        scopes = self.shared.samples[since:]
        del self.shared.samples[since:]
        # Latest first: a sample of a sample moves its spends onto the outer sample's
        # variable, which the outer scope then amplifies again.
        for scope in reversed(scopes):
            pseudo = set(scope.sources)
            if self._mixed(items, scope, scopes):
                # A release that reads the sample and its source (or another sample of
                # it) reveals rows of the sample: no amplification for this scope.
                items = L.substituted(items, dict(scope.sources))
            else:
                kept = [_drop(item, pseudo) for item in items]
                moved = L.retarget(items, dict(scope.sources), _sampled(scope))
                items = [i for i in kept if i is not None] + moved
            for name, source in scope.sources.items():
                self.shared.sample_sources[name] = source
        return items

    def _mixed(self: Analysis, items: list[L.Item], scope: SampleScope,
               closing: list[SampleScope]) -> bool:
        """Whether an event charges one of the scope's pseudo variables together with
        something else that stands for the same sampled data (its source, another
        sample of it, directly or through samples of samples)."""
        def roots(variable: str, depth: int = 0) -> set[str]:
            source = self.shared.sample_sources.get(variable)
            for other in (*closing, *self.shared.samples):
                source = other.sources.get(variable, source)
            if source is None or depth > 20:
                return {variable}
            return set().union(*(roots(v, depth + 1) for v in source))

        mine = {p: roots(p) for p in scope.sources}
        for charged in L.events(items):
            names = set(charged)
            for p in names & mine.keys():
                if any(roots(v) & mine[p] for v in names - {p}):
                    return True
        return False

    def larger(self: Analysis, a: E.Expr, b: E.Expr) -> E.Expr:
        """max(a, b), decided under the recorded assumptions where it can be (eps > 0:
        2·eps, not max(eps, 2·eps))."""
        if self.decide(sp.Le(a, b)) is True:
            return b
        return a if self.decide(sp.Le(b, a)) is True else E.smax(a, b)

    def _attribute(self: Analysis, items: list[L.Item], summary: Summary,
                   split: components.Split) -> list[L.Item]:
        """Every charge ends on a parameter (or a split tuple's component): samples used
        after their scope closed pay their source unamplified; anything else left over
        is an internal error."""
        parameters = {v for p in summary.params for v in components.names(p.name, split)}
        escaped = {v: dict(src) for v, src in self.shared.sample_sources.items()
                   if v in L.variables(items)}
        if escaped:
            items = L.substituted(items, escaped)
        stray = _unattributed(items, parameters)
        if stray:
            self.report(self.function_span, "DPS001", "internal error: privacy charged to "
                        f"{', '.join(sorted(stray))} could not be attributed to parameters; "
                        "every parameter is reported unbounded; please report this")
            items = items + [L.Event({p: (L.Charge(E.INF, E.INF),) for p in parameters})]
        return items

    def finish_privacy(self: Analysis, summary: Summary, result: Value,
                       split: components.Split) -> None:
        """Per-parameter (ε, δ): released sensitive values cost (∞, ∞). A split tuple
        (R-components) costs its dearest component: a neighbour moves one of them."""
        from dpsens.privacy.compose import account, account_within

        items = self.close_samples(list(self.ledger.items), 0)
        items = self._attribute(items, summary, split)
        released = C.substitute(result.ctx, self.shared.sample_sources)
        stray = {v: r for v, r in released.items() if v.startswith("@")}
        if stray:  # a builtin's or a loop's own variable no parameter stands for: any of them
            released = C.add(released, self.inputs_in(stray))
        released = components.collapsed(released, split)
        seen = components.collapsed(self.observed_inputs(), split)
        methods = set()
        for param in summary.params:
            if param.static:
                continue
            histories = [L.project(items, v) for v in components.names(param.name, split)]
            leak = released.get(param.name, E.ZERO)
            if not E.is_zero(leak) or not E.is_zero(seen.get(param.name, E.ZERO)):
                why = "the returned value depends on it" if not E.is_inf(leak) else \
                    ("the returned value may depend on it without bound (through noise-free "
                     "arithmetic, or a construct the analysis could not follow: see the "
                     "other diagnostics of this function)")
                if E.is_zero(leak):  # R-observed
                    why = ("whether the function raises (an assert, a raise, an index out "
                           "of range), or what a call it cannot analyze is given, depends on it")
                elif (noise := self.library_noise()) is not None:
                    why += (f"; noise from {noise}() is not a dpsens mechanism, "
                            "and floating-point samples leak the value they are added to: "
                            "use laplace_mechanism, gaussian_mechanism, ...")
                self.report(self.function_span, "DPS403", f"'{param.name}' is released without "
                            f"noise: {why}")
                param.epsilon, param.delta = E.INF, E.INF
                summary.histories[param.name] = (L.Charge(E.INF, E.INF),)  # callers pay it too
                methods.add("released")
                continue
            options = self.program.options
            budget = options.budget_delta(self.qualname, f"{self.module.name}.{self.qualname}")
            # A local randomizer's ε₀ holds for any two records, however far apart (local DP);
            # callers keep the history per unit of distance (summary.histories, below).
            shown = [L.any_change(h, T.unit_steps(param.type)) for h in histories] \
                if summary.kind == "local_randomizer" else histories
            costs = [account(h, options.delta_prime) if budget is None else
                     account_within(h, options.delta_prime, budget) for h in shown]
            param.epsilon = functools.reduce(self.larger, (c.epsilon for c in costs))
            param.delta = functools.reduce(self.larger, (c.delta for c in costs))
            if not E.is_inf(param.delta) and E.decide_le(E.ONE, param.delta) is True:
                param.delta = E.ONE  # every mechanism is (ε, 1)-DP: a larger δ says nothing more
            methods |= {c.method for c, h in zip(costs, histories) if h}
            charged = [h for h in histories if h]
            # Callers pay the dearest component, in (ε, δ), where two or more are charged.
            summary.histories[param.name] = (L.Charge(param.epsilon, param.delta),) \
                if len(charged) > 1 else charged[0] if charged else ()
            if param.name in split:
                summary.part_histories[param.name] = histories
        unbounded = [p.name for p in summary.params if not p.static and not E.is_inf(
            released.get(p.name, E.ZERO)) and (E.is_inf(p.epsilon) or E.is_inf(p.delta))]
        if unbounded and not self.shared.errors:
            # Where no error fails the run already (a warning may be about another
            # parameter, or suppressed), an ∞ would otherwise pass a CI run by.
            why = ("a local randomizer's ε₀ holds for any two records, and no bound on "
                   "how far they may be apart covers its charges (capped mechanisms: "
                   "local_laplace, randomized_response)") if summary.kind == "local_randomizer" \
                else ("the sensitivity of a noised value has no bound the analysis could show "
                      "(each mechanism's 'charged' says which)")
            self.report(self.function_span, "DPS409", f"the privacy cost in "
                        f"{', '.join(repr(n) for n in unbounded)} is unbounded: {why}")
        summary.accounting = ", ".join(sorted(methods)) if methods else "none"
        summary.mechanisms = self.shared.trace


def _counts_by_square(t: T.Type) -> bool:
    """Metrics whose unit steps are fewer than their distance suggests: (L2, Data)."""
    return isinstance(t, (T.Vector, T.Matrix)) and t.norm == "L2" and t.elem == "Data"


def _unattributed(items: list[L.Item], parameters: set[str]) -> set[str]:
    return L.variables(items) - parameters


def _instantiate(entries: list[dict[str, Any]], mapping: dict[E.Expr, E.Expr]) -> list[dict[str, Any]]:
    """A callee's mechanism trace with the call's static values substituted."""
    names = {str(k): v for k, v in mapping.items()}
    out = []
    for entry in entries:
        copy: dict[str, Any] = {}
        for key, value in entry.items():
            if key == "mechanisms":
                copy[key] = _instantiate(value, mapping)
            elif isinstance(value, str) and key not in ("kind", "function", "bound") and names:
                copy[key] = _substituted(value, names)
            elif key == "charged" and names:  # the callee's parameters: (eps, 0) at this call
                copy[key] = {param: _substituted(cost, names) for param, cost in value.items()}
            else:
                copy[key] = value
        out.append(copy)
    return out


def _substituted(text: str, names: dict[str, E.Expr]) -> str:
    """A trace expression (or an (epsilon, delta) pair of them) at a call's static values."""
    if text.startswith("(") and text.endswith(")"):
        parts = top_level_items(text[1:-1])
        return "(" + ", ".join(_substituted(part, names) for part in parts) + ")"
    try:
        return E.render(E.parse(text, dict(names)))
    except (SyntaxError, TypeError, ValueError, AttributeError):
        return text


def _product(counts: list[E.Expr]) -> E.Expr:
    total = E.ONE
    for count in counts:
        total = E.mul(total, count)
    return total


def _sampled(scope: SampleScope):  # type: ignore[no-untyped-def]
    """Amplify a history spent on a sample (of rows at most 1 apart: rules.mechanisms.sample)."""
    def wrap(history: tuple[L.VarItem, ...]) -> tuple[L.VarItem, ...]:
        return (L.VarSampled(scope.size, scope.population, history),)
    return wrap


def _drop(item: L.Item, variables: set[str]) -> L.Item | None:
    """An item without the charges of some variables (None when nothing is left)."""
    if isinstance(item, L.Event):
        kept = {v: h for v, h in item.charges.items() if v not in variables}
        return L.Event(kept) if kept else None
    if isinstance(item, L.Loop):
        body = [b for b in (_drop(i, variables) for i in item.body) if b is not None]
        return L.Loop(item.count, tuple(body)) if body else None
    branches = tuple(tuple(b for b in (_drop(i, variables) for i in branch) if b is not None)
                     for branch in item.branches)
    return L.Choice(branches) if any(branches) else None  # type: ignore[arg-type]


def paid_once(spent: list[L.Item], elements: list[tuple[str, T.Type, Value]],
              own: set[str]) -> tuple[list[tuple[str, tuple[L.VarItem, ...], C.Context]],
                                      dict[str, dict[str, E.Expr]]]:
    """How charges on the elements a function is applied to, once per element (map_rows,
    parallel_fold_rows: (variable, type, container) each), are paid: per group of
    containers sharing a variable, (its first variable, the history paid once, at the
    distance its elements move together) when that is linear in the distance
    (ledger.linear); the others, variable -> its container's context, every application.

    What the function captures from a container moves with its elements, and containers
    sharing a variable may hold one element twice: an event charging them is one release
    (R-merge). ``own`` are the function's other argument variables (not captures).
    """
    from dpsens.rules.higher_order import per_element

    related = frozenset(v for v in L.variables(spent) if v not in own and (
        v.startswith("@") or any(v in c.ctx for _, _, c in elements)))
    once, each = [], {}
    for group in C.sharing([c.ctx for _, _, c in elements]):
        members = [elements[i] for i in group]
        names = frozenset(name for name, _, _ in members)
        history = L.linear(L.project(spent, names, related),
                           all(T.has_whole_steps(t) for _, t, _ in members))
        if any(sampled(c.ctx) for _, _, c in members) and L.variables(spent) - names:
            history = None  # rows of a sample beside anything else (R-merge)
        if history is None:  # one element is at most its container away
            each.update({name: dict(c.ctx) for name, _, c in members})
            continue
        distance: C.Context = C.EMPTY
        for _, _, c in members:
            distance = C.join(distance, per_element(c))
        once.append((members[0][0], history, distance))
    return once, each


def _shown_cost(history: tuple[L.VarItem, ...]) -> str:
    """``(ε, δ)`` of one call's charges to a variable, by basic composition."""
    from dpsens.privacy.compose import basic

    epsilon, delta = basic(history)
    return f"({E.render(epsilon)}, {E.render(delta)})"
