"""In-place mutation: stores into containers, augmented assignment of arrays, aliases.

numpy arrays are shared: ``b = a``, ``b = a[0:2]`` and ``b = a.T`` make ``b``
and ``a`` the same memory, so a store through one changes the other.  Names
that may share memory form an alias group (kept for the whole function, which
over-approximates and so stays sound).  Mutating a parameter is DPS205.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from dpsens import ir
from dpsens import types as T
from dpsens.frontend import tuples
from dpsens.aliasing import FRESH_RESULTS, RESHAPING, VIEW_RESULTS
from dpsens.infer import arith, dtypes
from dpsens.infer.masks import SELECTED
from dpsens.infer.values import (UNKNOWN, Value, concatenate, detached, is_list, join, list_type,
                                 numpy_array, tuple_value, unknown, with_element)
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.diagnostics import Span
    from dpsens.infer.engine import Analysis

# Builtins whose iteration yields the elements of their arguments.
ITERATION_WRAPPERS = frozenset({"builtins.enumerate", "builtins.zip", "builtins.reversed",
                                "builtins.iter"})


class MutationRules:
    """Mixin of Analysis for stores and aliases."""

    def record_alias(self: Analysis, target: str, value: ir.Expr, partial: bool = False) -> None:
        """Remember that ``target = value`` may share memory with other names."""
        sources = self.alias_sources(value)
        for source, view in sources:
            self.join_groups(target, source, partial or view)
        if any(source in self.shared.reshaped for source, _ in sources) or \
                sources and self._reshapes(value):
            self.shared.reshaped.add(target)  # (a row of m.T is a column of m)

    def _reshapes(self: Analysis, value: ir.Expr, depth: int = 0) -> bool:
        """Whether an expression may lay an array out in other rows: ``m.T``, a reshape, or
        a call of a function that returns one (a helper's ``return w.T``, unknown code)."""
        for node in ir.nodes(value):
            if isinstance(node, ir.Attribute) and node.attr == "T":
                return True
            if isinstance(node, ir.Call) and self._call_reshapes(node, depth):
                return True
        return False

    def _call_reshapes(self: Analysis, call: ir.Call, depth: int) -> bool:
        func = call.func
        if isinstance(func, ir.Lambda):
            return self._reshapes(func.body, depth + 1)
        if isinstance(func, ir.Attribute) and self._is_method_call(func):
            return func.attr in RESHAPING
        if isinstance(func, ir.Name) and func.id in self.env:  # a nested def or lambda
            node = getattr(getattr(self.env[func.id].type, "ref", None), "node", None)
            return node is None or self._returns_reshaped(node, depth)
        name = self.program.qualify_expr(self.module, func)
        if name is None:
            return False  # a factory's closure (make(w)()): its captures are aliased (D41)
        if name in self.program.functions:
            return self._returns_reshaped(self.program.functions[name][1], depth)
        if name.startswith("numpy.") or self.program.rules.get(name) is not None:
            return name.rsplit(".", 1)[-1] in RESHAPING
        return True  # code with no rule may return any view

    def _returns_reshaped(self: Analysis, node: object, depth: int) -> bool:
        """Whether a def or lambda may return a reshaping view (deep chains: assumed so)."""
        if depth >= 5:
            return True
        if isinstance(node, ir.Lambda):
            return self._reshapes(node.body, depth + 1)
        returned = [n.value for n in ir.nodes(getattr(node, "body", ()))
                    if isinstance(n, ir.Return) and n.value is not None]
        return any(self._reshapes(e, depth + 1) for e in returned)

    def _reshaped_pair(self: Analysis, one: str, other: str) -> bool:
        """Two names of one alias group, one of which lays the entries out in other rows."""
        return one != other and (one in self.shared.reshaped or other in self.shared.reshaped)

    def record_target_aliases(self: Analysis, target: ir.Target, value: ir.Expr,
                              partial: bool = False) -> None:
        """Aliases of every name a target binds: tuple parts pairwise where they line up."""
        if isinstance(target, ir.NameTarget):
            self.record_alias(target.id, value, partial)
        elif isinstance(target, ir.TupleTarget):
            if isinstance(value, ir.TupleExpr) and len(value.elts) == len(target.elts):
                for element, part in zip(target.elts, value.elts):
                    self.record_target_aliases(element, part, partial)
            else:  # b, c = pair: each name may be any array the value holds
                for element in target.elts:
                    self.record_target_aliases(element, value, True)
                join_unpacked(self, target)

    def record_loop_aliases(self: Analysis, target: ir.Target, iterable: ir.Expr) -> None:
        """``for r in m``: each r is a row of m (a view); enumerate and zip pass rows on."""
        if isinstance(iterable, ir.Call) and self.program.qualify_expr(
                self.module, iterable.func) in ITERATION_WRAPPERS:
            for argument in iterable.args:
                self.record_target_aliases(target, argument, True)
        else:
            self.record_target_aliases(target, iterable, True)

    def alias_sources(self: Analysis, value: ir.Expr) -> list[tuple[str, bool]]:
        """Names whose memory a value may share, each with whether it may be only a part.

        Over-approximates: both arms of a conditional, every array in a tuple,
        the arrays given to numpy functions that return views, and the
        arguments of user functions that may return one of their parameters.
        """
        captured: list[str] = []

        def may_alias(call: ir.Call) -> bool:
            # A lambda or nested def may also return (a view of) an array it captures,
            # and a factory's closure the arrays it was joined with (D41).
            arrays = self._captured_arrays(call)
            if isinstance(call.func, ir.Name) and call.func.id in self.env:
                arrays += sorted(self.alias_group(call.func.id)[1] - {call.func.id})
            captured.extend(arrays)
            return self._may_return_an_argument(call) or bool(arrays)

        def list_name(name: str) -> bool:
            return name in self.env and is_list(self.env[name])

        sources = array_sources(value, may_alias, list_name) + [(name, True) for name in captured]
        return [(name, partial) for name, partial in sources if name in self.env]

    def _captured_arrays(self: Analysis, call: ir.Call) -> list[str]:
        """The arrays of this scope that a called lambda or nested def reads."""
        func = call.func
        if isinstance(func, ir.Lambda):  # (lambda: w)(): called where it is written
            node: object = func
        elif isinstance(func, ir.Name) and func.id in self.env:
            node = getattr(getattr(self.env[func.id].type, "ref", None), "node", None)
        else:
            return []
        if node is None:
            return []
        free = ir.names_read(node) - assigned_names(node)  # type: ignore[arg-type]
        return sorted(n for n in free if n in self.env and n != getattr(func, "id", None)
                      and (isinstance(self.env[n].type, (T.Vector, T.Matrix))
                           or self.env[n].type == SELECTED or self.env[n].zero_d))

    def _may_return_an_argument(self: Analysis, call: ir.Call) -> bool:
        """Whether a call's result may share memory with an array it was given."""
        func = call.func
        if isinstance(func, ir.Attribute) and self._is_method_call(func):
            if isinstance(func.value, ir.Name) and func.value.id in self.env and (
                    is_list(self.env[func.value.id]) or self.env[func.value.id].type == UNKNOWN):
                return True  # a list's copy() is shallow: its arrays are the receiver's
            return not is_fresh(func.attr, call, self.program.rules.get(f"numpy.{func.attr}"))
        if isinstance(func, ir.Name) and func.id in self.env:  # a lambda or nested def
            node = getattr(getattr(self.env[func.id].type, "ref", None), "node", None)
            return node is None or returns_a_parameter(node)
        qualified = self.program.qualify_expr(self.module, func)
        if qualified is None or qualified in self.program.rebound:
            return True
        if qualified.startswith("numpy."):
            return not is_fresh(qualified.rsplit(".", 1)[1], call, self.program.rules.get(qualified))
        if qualified in ("builtins.max", "builtins.min"):
            return True  # one of its arguments itself (a 0-d array among them)
        if qualified in self.program.functions:
            return returns_a_parameter(self.program.functions[qualified][1])
        return self.program.rules.get(qualified) is None  # unknown code may return anything

    def join_groups(self: Analysis, target: str, source: str, partial: bool) -> None:
        """Put two names in one alias group; a caller's array stays the group's root."""
        aliases = self.shared.aliases
        kept, merged = aliases.get(source, source), aliases.get(target, target)
        if self.owned_elsewhere(merged) and not self.owned_elsewhere(kept):
            kept, merged = merged, kept
        if kept != merged:
            for name, root in list(aliases.items()):
                if root == merged:
                    aliases[name] = kept
            aliases[merged] = kept
        if target != kept:
            aliases[target] = kept
        if partial or source in self.shared.views:
            self.shared.views.add(target)

    def alias_group(self: Analysis, name: str) -> tuple[str, set[str]]:
        """The root of a name's alias group and the group's names that are bound here."""
        root = self.shared.aliases.get(name, name)
        group = {n for n, r in self.shared.aliases.items() if r == root} | {name, root}
        return root, {n for n in group if n in self.env}

    def invalidate(self: Analysis, expr: ir.Expr, ctx: C.Context) -> None:
        """Unknown code may change every array an expression reaches: each becomes unknown.

        When one of them belongs to a caller (an inline-analyzed helper's
        parameter), the caller's array changes untracked: the function is poisoned.
        """
        for source, _ in self.alias_sources(expr):
            value = self.env[source]
            if isinstance(value.type, T.Callable_):
                # Calling a closure may write into the arrays it captures (D41).
                reached = self.closure_arrays(value) | self.alias_group(source)[1]
                self.invalidate_names(reached, expr.span, ctx)
            if isinstance(value.type, (T.Scalar, T.Callable_, T.NormValue, T.TypeValue)) \
                    and not value.zero_d:
                continue
            root, group = self.alias_group(source)
            for name in group:
                self.env[name] = unknown(C.add(self.env[name].ctx, ctx))
            if any(n in self.foreign for n in (root, *group)):
                self.poisoned = True
            self.shared.mutated |= {n for n in (root, *group) if self.is_parameter(n)}

    def forget_contents(self: Analysis, expr: ir.Expr) -> None:
        """Code that may write public values into the arrays and lists an expression reaches:
        they keep their types and contexts, but not their known entries or bounds."""
        for source, _ in self.alias_sources(expr):
            value = self.env[source]
            if isinstance(value.type, (T.Scalar, T.Callable_, T.NormValue, T.TypeValue)):
                continue  # immutable, or a closure (calling it is analyzed where it is called)
            for name in self.alias_group(source)[1]:
                old = self.env[name]
                kind = old.type
                if isinstance(kind, T.TupleType):  # a list display: its length may change too
                    kind = list_type(kind) or UNKNOWN
                self.env[name] = Value(kind, old.ctx, zero_d=old.zero_d)

    def invalidate_names(self: Analysis, names: set[str], span: Span, ctx: C.Context) -> None:
        """invalidate() each named array (closures among them are not arrays: skipped)."""
        for name in sorted(names):
            if not isinstance(self.env[name].type, T.Callable_):
                self.invalidate(ir.Name(span, name), ctx)

    def closure_arrays(self: Analysis, value: Value, seen: set[int] | None = None) -> set[str]:
        """The names of this scope a closure may write into: the values it captures, and
        those of the closures it reads (with their alias groups: a factory's result)."""
        node = getattr(getattr(value.type, "ref", None), "node", None)
        seen = set() if seen is None else seen
        if node is None or id(node) in seen:
            return set()
        seen.add(id(node))
        out: set[str] = set()
        for name in ir.names_read(node) - assigned_names(node):
            if name not in self.env:
                continue
            if isinstance(self.env[name].type, T.Callable_):
                out |= self.closure_arrays(self.env[name], seen) | self.alias_group(name)[1]
            elif not isinstance(self.env[name].type, (T.Scalar, T.NormValue, T.TypeValue)) \
                    or self.env[name].zero_d:
                out.add(name)
        return out

    def mutate(self: Analysis, target: ir.StoreTarget, value: Value,
               source: ir.Expr | None = None, before: dict[str, Value] | None = None,
               scatter: tuple[C.Context, E.Expr] | None = None) -> None:
        """``x[i] = v``: the container moves by at most the stored part's distance.

        Python evaluates the target (the container ``x``, with any index inside it,
        then ``i``) after the value (of ``source``, when the env was ``before``) and
        stores what the value holds then: index code that writes into that array
        (``out[0:g()] = z``) changes what is stored. An index inside the container
        (``out[i][0] = v``) picks the part written: data in it may write anywhere.
        ``scatter`` (R-store-scatter: x[i] += value at an index that may differ, how
        often, and |value|'s bound) makes value the increment."""
        base = target.base
        if base is None or base not in self.env:
            self.report(target.span, "DPS205", "assignment to an element of an unknown object")
            self.poisoned = True  # a global or an object of the caller's changes untracked
            return
        store = target.target
        if before is None and source is not None:  # (op= stores no source: nothing to refresh)
            before = dict(self.env)
        inner = C.blow_up(C.total(_part_ctx(self._index_part(p)) for p in _inner_index(store)))
        parts = [self._index_part(p) for p in store.index] if isinstance(store, ir.Subscript) else []
        if source is not None and before is not None:
            value = self.refreshed(value, source, before)
        if not C.is_public(inner):
            value = value.with_ctx(C.add(value.ctx, inner))
        root, group = self.alias_group(base)
        if is_list(self.env[base]) and isinstance(store, ir.Subscript) \
                and isinstance(store.value, ir.Name) and store.value.id == base:
            # a[i] = v on a list (a tuple takes no stores); a[i][j] = v writes into an element
            self._store_into_list(target, group, value, parts)
            return
        if self.owned_elsewhere(root):
            where = C.total(_part_ctx(p) for p in parts)  # a sensitive index says where
            self._parameter_mutated(target.span, root, group, C.add(value.ctx, where))
            return
        added = self._store_ctx(store, parts, self.env[base], value, scatter)
        if isinstance(store, ir.Subscript) and self._reshapes(store.value):
            # m.T[0] = v writes a column of m: its distance is not the stored row's.
            added = C.blow_up(C.add(added, value.ctx))
        self.unbounded_here(target.span, added, (value.ctx,), "this store may move the array "
                            "without bound (an index that depends on inputs, an entry kind that "
                            "truncates or re-measures the value, or a view of other rows)")
        for name in group:
            old = self.env[name]
            if self._reshaped_pair(name, base):
                # The store's distance is measured in base's rows, not in this name's.
                self.env[name] = unknown(C.add(old.ctx, C.blow_up(added)))
                continue
            # A sensitive value that is not clipped as the rows are may leave their ball;
            # a tuple holding the array would keep its old parts: both are dropped.
            kept = tuple(map(detached, old.parts)) if C.is_public(added) and old.parts \
                and isinstance(old.type, T.TupleType) else None  # an array's entries changed
            self.env[name] = Value(_unclipped_by(old.type, value), C.add(old.ctx, added), parts=kept,
                                   integral=old.integral, zero_d=old.zero_d)  # (its dtype stays)
            if isinstance(old.type, T.Callable_):  # a factory's closure may return what it holds
                self.env[name] = unknown(C.add(old.ctx, added))

    def _store_into_list(self: Analysis, target: ir.StoreTarget, group: set[str],
                         value: Value, parts: list[Value | tuple[Value | None, ...]]) -> None:
        """``a[i] = v`` on a list replaces an element: the list object changes, under every
        name holding it, but not the elements' own objects (arrays it holds stay as they
        are; ``a[i][j] = v`` writes into one and is a store into an array, not this). A known position replaces that part; any other public index gives a list
        within the old distance plus v's; a sensitive index, anything."""
        base = target.base
        assert base is not None
        old = self.env[base]
        index = parts[0] if len(parts) == 1 and isinstance(parts[0], Value) else None
        position = index.exact if index is not None and index.public else None
        size = len(old.parts) if old.parts is not None else 0
        if position is not None and position.is_Integer and -size <= int(position) < size:
            replaced = list(old.parts)  # type: ignore[arg-type]
            replaced[int(position)] = value
            new = tuple_value(tuple(replaced))
        elif all(isinstance(p, Value) and p.public for p in parts):
            new = with_element(old, value) or unknown(C.add(old.ctx, value.ctx))
        else:
            new = unknown(C.blow_up(C.total([old.ctx, value.ctx, *(_part_ctx(p) for p in parts)])))
        for name in group:
            member = self.env[name]
            if name != base and not is_list(member) and member.type != UNKNOWN:
                continue  # an element's own object: not changed by replacing it in the list
            if self.owned_elsewhere(name):
                self._parameter_mutated(target.span, name, {name}, value.ctx)
                continue
            self.env[name] = new if name == base else unknown(C.add(member.ctx, new.ctx))

    def grow_list(self: Analysis, name: str, added: Value, source: ir.Expr | None,
                  span: ir.Span, result: Value | None = None) -> None:
        """``a.append(v)``, ``a.extend(b)``, ``a += b``: the list under ``name`` grows by the
        added elements' distances, under every name holding it; it now also holds what
        ``source`` holds (a store into an appended array changes the list). ``result``:
        what the list becomes instead (``a *= n`` repeats it in place, D149).

        Every other name that may hold the list, or a list holding it, becomes unknown:
        its length may have changed (loops.py relies on it, R-loop-grown-list)."""
        old = self.env[name]
        # (evaluating the argument may have made the list unknown: lst.append(w.fill(x)))
        grown = result if result is not None else \
            concatenate(old, added) if is_list(old) and is_list(added) else None
        if grown is None:
            self.report(span, "DPS301", f"cannot add {added.type.show()} to {old.type.show()}")
            grown = unknown(C.add(old.ctx, added.ctx))
        for member in self.alias_group(name)[1]:
            value = self.env[member]
            if member != name and not (is_list(value) or value.type == UNKNOWN):
                continue  # an element's own object: not changed by adding to the list
            if self.owned_elsewhere(member):
                self._parameter_mutated(span, member, {member}, added.ctx)
            elif member == name:
                self.env[member] = grown
            else:  # the same list, or one holding it: its new contents are not followed
                if not member.startswith("@"):  # (a loop's hidden name is not the user's)
                    self.report(span, "DPS202", f"'{member}' shares the list that grows "
                                "here: what it holds is no longer known (add to the list "
                                "under one name)")
                self.env[member] = unknown(C.add(value.ctx, grown.ctx))
        if source is not None and not (added.parts is not None and all(
                isinstance(p.type, T.Scalar) and not p.zero_d for p in added.parts)):
            # (numbers are not objects a later store changes: a list of them shares nothing
            # with where they came from, as a filtered comprehension's own list does not)
            self.record_alias(name, source, partial=True)

    def changed_element(self: Analysis, base: str, new: Value, span: ir.Span) -> None:
        """``a[i] op= e`` with a[i] an array of the list a: numpy changes that array in
        place, so every array the list may hold moves by at most the new value's distance
        (``w = np.zeros(3); a = [w]; a[0] += x`` changes w)."""
        for member in self.alias_group(base)[1] - {base}:
            old = self.env[member]
            if not may_change_in_place(old):
                continue
            if self.owned_elsewhere(member):
                self._parameter_mutated(span, member, {member}, new.ctx)
            else:  # (a 0-d array stays one: D155)
                self.env[member] = Value(_unclipped_by(old.type, new), C.add(old.ctx, new.ctx),
                                         zero_d=old.zero_d)

    def rejoin_list_parts(self: Analysis, base: str, new: Value) -> None:
        """After ``a[i] op= e`` changed an array of the list a in place: any other slot may
        hold the same array (``[w, w]``, ``[w] * 3``), so each array slot (a 0-d array's
        too, D155) is either as it was or the new array (their join)."""
        for name in self.alias_group(base)[1] | {base}:
            value = self.env[name]
            if is_list(value) and value.parts is not None:
                self.env[name] = tuple_value(tuple(
                    join(part, new) if may_change_in_place(part) else part
                    for part in value.parts))

    def mutate_in_place(self: Analysis, name: str, new: Value, span: ir.Span) -> bool:
        """``a op= b`` on an array changes it in place; False when it is not an array."""
        root, group = self.alias_group(name)
        current = self.env.get(name, Value(T.REAL))
        kind = current.type
        # What a view's change does to the arrays it is part of is measured in the view's
        # own metric (a column view counts the rows in L1, as its matrix does), not in the
        # result's: c += v with v in L∞ moves every row of the matrix (D108).
        change = new.ctx
        if isinstance(kind, (T.Vector, T.Matrix)) and isinstance(new.type, (T.Vector, T.Matrix)) \
                and type(new.type) is type(kind) and new.type.norm != kind.norm:
            change = C.scale(arith.embed_factor(new.type, replace(new.type, norm=kind.norm)),
                             new.ctx)
        if current.zero_d:
            new = replace(new, zero_d=True)  # still the 0-d array, changed in place
        elif not isinstance(kind, (T.Vector, T.Matrix)) and kind != SELECTED \
                and not (kind == UNKNOWN and len(group) > 1):
            # An unknown value sharing memory with arrays may be an array too; a selection
            # by a mask is a new array, which its aliases hold too.
            return False
        if self.owned_elsewhere(root):
            self._parameter_mutated(span, root, group, new.ctx)
            return True
        for member in group:
            shares_all = member not in self.shared.views and name not in self.shared.views
            if self._reshaped_pair(member, name):  # the change is measured in name's rows
                self.env[member] = unknown(C.add(self.env[member].ctx, C.blow_up(new.ctx)))
            elif member == name or shares_all:
                self.env[member] = new
            elif isinstance(self.env[member].type, T.Callable_):  # a closure holding the array
                self.env[member] = unknown(C.add(self.env[member].ctx, new.ctx))
            else:
                old = self.env[member]
                self.env[member] = Value(_unclipped_by(old.type, new), C.add(old.ctx, change),
                                         integral=old.integral, zero_d=old.zero_d)
        return True

    def owned_elsewhere(self: Analysis, root: str) -> bool:
        """The array belongs to a caller: a parameter of this function or of an inline call."""
        return self.is_parameter(root) or root in self.foreign

    def is_parameter(self: Analysis, name: str) -> bool:
        """A parameter of the analyzed function; a static one is public but the caller's too."""
        return name in self.var_types or name in self.static_params

    def _parameter_mutated(self: Analysis, span: ir.Span, root: str, group: set[str],
                           stored: C.Context) -> None:
        self.report(span, "DPS205", f"parameter '{tuples.shown(root)}' is mutated in place")
        self.observe(C.blow_up(stored))  # the caller's array now holds it (R-observed)
        if self.is_parameter(root):
            self.shared.mutated.add(root)  # callers must forget what they knew of the argument
        if root in self.foreign:
            # The caller's array changes too, and it is not tracked here.
            self.poisoned = True
        own = C.single(root) if root in self.var_types else C.EMPTY  # a static has no variable
        for name in group:
            self.env[name] = unknown(C.total([self.env[name].ctx, stored, own]))

    def _store_ctx(self: Analysis, target: ir.Expr | None,
                   parts: list[Value | tuple[Value | None, ...]], container: Value,
                   value: Value, scatter: tuple[C.Context, E.Expr] | None = None) -> C.Context:
        """How far a store at the index ``parts`` can move the container, in the
        container's metric."""
        if not isinstance(target, ir.Subscript) or container.type == UNKNOWN \
                or value.type == UNKNOWN:
            return C.blow_up(C.total([container.ctx, value.ctx, *map(_part_ctx, parts)]))
        index_ctx = C.blow_up(C.total(_part_ctx(p) for p in parts))
        t = container.type
        rank = 1 if isinstance(t, T.Vector) else 2 if isinstance(t, T.Matrix) else 0
        kinds = (T.scalar_kind_of(value.type) or "Real", T.scalar_kind_of(t) or "Real")
        held = dtypes.truncates(container, value)
        if held is not None:
            # An integer array truncates the real stored (the Integer rule), and whether it
            # is one is a step in what decides its dtype (R-int-dtype).
            kinds = (kinds[0], "Integer")
            index_ctx = C.add(index_ctx, held)
        element = T.element_factor(*kinds)
        if scatter is not None and all(_one_position(p) for p in parts) and len(parts) == rank:
            # x[i] += e: where i = i', the entry moves by |e − e'|; else e lands on one
            # entry and e' on another (R-store-scatter).
            from dpsens.infer.scatter import scatter_spread

            flips, bound = scatter
            factor = element if isinstance(value.type, T.Scalar) else E.INF
            # d ≤ d(x) + max(|e − e'|, spread·1{i ≠ i'}), and a max of two sums is below the
            # sum of the larger coefficients.
            return C.join(C.scale(factor, value.ctx), C.scale(scatter_spread(t, bound), flips))
        if all(_one_position(p) for p in parts) and len(parts) == rank:
            factor = element if isinstance(value.type, T.Scalar) else E.INF
        elif rank:
            # A store writes part of the container: the value (broadcast) into
            # that part, whose distance in the container's norm is at most the
            # container's; writing it into all of it moves the container further.
            # Masks, integer arrays, None and () may write anywhere (D52).
            written = _written_part(t, parts, self.assume) \
                if all(_one_position(p) or isinstance(p, tuple) for p in parts) else t
            factor = E.mul(element, arith.embed_factor(value.type, written))
        else:
            factor = E.INF
        return C.add(C.scale(factor, value.ctx), index_ctx)


def may_change_in_place(value: Value) -> bool:
    """Whether a value may be an object that ``op=`` on another name holding it changes:
    an array, a selection, something unknown, or a 0-d array (not a number, D155)."""
    return numpy_array(value) or value.type in (UNKNOWN, SELECTED)


def _inner_index(store: ir.Expr | None) -> list[ir.Expr | ir.Slice]:
    """The index parts inside a store's container (``i`` of ``out[i][0]``, ``out.a[i].b``),
    in the order Python evaluates them."""
    found: list[ir.Expr | ir.Slice] = []
    node = store.value if isinstance(store, (ir.Subscript, ir.Attribute)) else None
    while isinstance(node, (ir.Subscript, ir.Attribute)):
        if isinstance(node, ir.Subscript):
            found[:0] = node.index
        node = node.value
    return found


def _unclipped_by(container: T.Type, stored: Value) -> T.Type:
    """The container's type after a store: without its clip marker unless the stored
    value is clipped at least as tightly, or is zero (which shrinks every norm). A public
    value is the same on both sides, but the marker also bounds the entries (bounded
    products take them as at most 1): ``u[0] = 7.0`` breaks that."""
    from dpsens.infer.binding import clip_implies
    from dpsens.rules.containers import with_metric

    if not isinstance(container, (T.Vector, T.Matrix)) or container.clip is None or (
            stored.public and stored.exact is not None and E.is_zero(stored.exact)):
        return container
    if clip_implies(getattr(stored.type, "clip", None), container.clip):
        return container
    return with_metric(container, container.norm, container.elem, None)


def _written_part(container: T.Type, parts: list[object],
                  assume: Callable[[E.Expr], None]) -> T.Type:
    """The type of the part a store writes, measured as the container measures it: a row
    of a matrix (``m[i] = r``) or part of one, a column or part of one (``m[:, j] = x``:
    one entry of each written row, so the rows' distances add up as an L1 vector's), a
    block of rows and columns, an exact slice of a vector (``v[0:2] = w``); else the
    whole container."""
    from dpsens.infer.indexing import UnknownLength, slice_length

    try:
        if isinstance(container, T.Vector) and len(parts) == 1 and isinstance(parts[0], tuple):
            return T.Vector(container.norm, container.elem,
                            slice_length(parts[0], container.length, assume))
        if isinstance(container, T.Matrix) and len(parts) in (1, 2):
            rows, cols = (*parts, (None, None, None))[:2]
            n_cols = container.cols if isinstance(cols, Value) else \
                slice_length(cols, container.cols, assume)  # type: ignore[arg-type]
            if isinstance(rows, Value):  # (part of) one row, in the rows' norm
                return T.Vector(container.norm, container.elem, n_cols)
            n_rows = slice_length(rows, container.rows, assume)  # type: ignore[arg-type]
            if isinstance(cols, Value):  # one entry of each row
                return T.Vector("L1", container.elem, n_rows)
            return T.Matrix(container.norm, container.elem, n_rows, n_cols)
    except UnknownLength:
        return container
    return container


def _one_position(part: object) -> bool:
    """An index that picks one position on its axis: an integer, not a Boolean (a 0-d
    mask), an array, a mask, None (a new axis) or ()."""
    return isinstance(part, Value) and isinstance(part.type, T.Scalar) and part.type.kind != "Bool"


def _part_ctx(part: object) -> C.Context:
    if isinstance(part, Value):
        return part.ctx
    return C.total(p.ctx for p in part if p is not None)  # type: ignore[attr-defined]


_RETURNS_PARAMETER: dict[int, bool] = {}


def returns_a_parameter(function: ir.Function | ir.Lambda) -> bool:
    """Whether a function may return (a view of) one of its parameters, found syntactically.

    Names assigned from a parameter, a view of one, or a conditional or tuple
    holding one are followed to a fixpoint; any call in a returned expression
    counts as possibly returning its arguments unless it is a fresh numpy result.
    """
    key = id(function)
    if key not in _RETURNS_PARAMETER:
        _RETURNS_PARAMETER[key] = _returns_a_parameter(function)
    return _RETURNS_PARAMETER[key]


def _returns_a_parameter(function: ir.Function | ir.Lambda) -> bool:
    params = {p.name for p in function.params}
    if isinstance(function, ir.Lambda):
        return bool(_reaches(function.body, params))
    statements = list(nested_statements(function.body))
    # A nested def may hold any parameter: returning it returns them (D41).
    reaching = params | {s.function.name for s in statements if isinstance(s, ir.FunctionDef)}
    changed = True
    while changed:
        changed = False
        for statement in statements:
            if isinstance(statement, ir.Assign) and _reaches(statement.value, reaching):
                for target in statement.targets:
                    names = target_names(target) - reaching
                    if names:
                        reaching |= names
                        changed = True
            elif isinstance(statement, ir.For) and _reaches(statement.iter, reaching):
                names = target_names(statement.target) - reaching
                if names:
                    reaching |= names
                    changed = True
    return any(isinstance(s, ir.Return) and s.value is not None and _reaches(s.value, reaching)
               for s in statements)


def array_sources(value: ir.Expr, may_alias: Callable[[ir.Call], bool],
                  list_name: Callable[[str], bool] = lambda name: False
                  ) -> list[tuple[str, bool]]:
    """Names an expression may evaluate to (part of), each with whether only a part.

    Both arms of a conditional, every array in a tuple, the operands of a list
    concatenation or repetition (``list_name`` says which names hold lists), and
    the arguments (and method receiver) of a call that ``may_alias`` says may
    return one of them.
    """
    def sources(e: ir.Expr) -> list[tuple[str, bool]]:
        return array_sources(e, may_alias, list_name)

    if isinstance(value, ir.Name):
        return [(value.id, False)]
    if isinstance(value, (ir.Subscript, ir.Attribute)):
        return [(name, True) for name, _ in sources(value.value)]
    if isinstance(value, ir.IfExp):
        return sources(value.body) + sources(value.orelse)
    if isinstance(value, ir.TupleExpr):
        return [(name, True) for e in value.elts for name, _ in sources(e)]
    if isinstance(value, ir.Unsupported):  # a dict display, a comprehension: may hold them all
        return [(name, True) for name in value.names]
    if isinstance(value, ir.BinOp) and _may_be_list(value, list_name):
        # [w] + [v] and [w] * 2 hold the very objects their operands hold.
        return [(name, True) for e in (value.left, value.right) for name, _ in sources(e)]
    if isinstance(value, ir.Call) and may_alias(value):
        inputs = [*value.args, *(k.value for k in value.keywords if k.name not in _FLAGS)]
        if not isinstance(value.func, ir.Name):
            inputs.append(value.func)  # a method's receiver; mk(w)() returns what mk(w) holds
        return [(name, True) for e in inputs for name, _ in sources(e)]
    return []


# Keywords of numpy's conversions that say how to convert, never what is returned.
_FLAGS = frozenset({"copy", "dtype", "order", "casting", "subok", "ndmin"})


def _may_be_list(value: ir.Expr, list_name: Callable[[str], bool]) -> bool:
    """A list display, a name holding a list, or a concatenation or repetition of one."""
    if isinstance(value, ir.TupleExpr):
        return True
    if isinstance(value, ir.Name):
        return list_name(value.id)
    return isinstance(value, ir.BinOp) and value.op in ("+", "*") and (
        _may_be_list(value.left, list_name) or _may_be_list(value.right, list_name))


def _reaches(value: ir.Expr, names: set[str]) -> bool:
    """Whether an expression may evaluate to (part of) an array bound to one of the names,
    or to a lambda (which may hold any of them)."""
    if isinstance(value, ir.IfExp):
        return _reaches(value.body, names) or _reaches(value.orelse, names)
    if isinstance(value, ir.TupleExpr):
        return any(_reaches(e, names) for e in value.elts)
    return isinstance(value, ir.Lambda) or any(
        name in names for name, _ in array_sources(value, _may_alias_syntactically))


def _may_alias_syntactically(call: ir.Call) -> bool:
    """Without an analysis: only numpy functions and methods known to be fresh are."""
    dotted = ir.dotted_name(call.func) or ""
    if dotted.startswith(("np.", "numpy.")):
        return not is_fresh(dotted.rsplit(".", 1)[1], call)
    if isinstance(call.func, ir.Attribute):
        return not is_fresh(call.func.attr, call)  # a method
    return True


def is_fresh(name: str, call: ir.Call, rule: object = None) -> bool:
    """Whether a numpy function or array method surely returns a new array (D42)."""
    if name in VIEW_RESULTS or not (rule is not None or name in FRESH_RESULTS):
        return False
    # copy=False (or None) lets np.array, .astype, np.nan_to_num return their argument;
    # ndarray.astype takes it positionally too, after dtype, order, casting and subok.
    if name == "astype" and len(call.args) > _ASTYPE_COPY:
        copy = call.args[_ASTYPE_COPY]
        if not (isinstance(copy, ir.Const) and copy.value is True):
            return False
    return all(k.name != "copy" or (isinstance(k.value, ir.Const) and k.value.value is True)
               for k in call.keywords)


_ASTYPE_COPY = 4  # the position of copy among ndarray.astype's arguments


def assigned_names(function: ir.Lambda | ir.Function) -> set[str]:
    """The names a function body binds (its locals), parameters included."""
    names = {p.name for p in function.params}
    if isinstance(function, ir.Function):
        for statement in nested_statements(function.body):
            if isinstance(statement, ir.Assign):
                names |= set().union(*(target_names(t) for t in statement.targets))
            elif isinstance(statement, (ir.For, ir.AugAssign)):
                names |= target_names(statement.target)
            elif isinstance(statement, ir.FunctionDef):
                names.add(statement.function.name)
            elif isinstance(statement, ir.UnsupportedStmt):
                names |= set(statement.assigned)
    return names


def target_names(target: ir.Target, stores: bool = False) -> set[str]:
    """The names a target binds; with ``stores``, also the containers it stores into."""
    if isinstance(target, ir.NameTarget):
        return {target.id}
    if isinstance(target, ir.TupleTarget):
        return set().union(*(target_names(t, stores) for t in target.elts))
    return {target.base} if stores and target.base else set()


def nested_statements(body: tuple[ir.Stmt, ...]) -> list[ir.Stmt]:
    """Every statement of a body, nested blocks included (not nested functions)."""
    out: list[ir.Stmt] = []
    for statement in body:
        out.append(statement)
        if isinstance(statement, ir.If):
            out += nested_statements(statement.body) + nested_statements(statement.orelse)
        elif isinstance(statement, ir.For):
            out += nested_statements(statement.body)
    return out


def join_unpacked(a: Analysis, target: ir.TupleTarget) -> None:
    """``b, c = pair``: b and c may be one array (or b one inside c: a pair made by
    ``return a, a`` or ``return a, [a]``), so they are one alias group (D156)."""
    names = [e.id for e in target.elts if isinstance(e, ir.NameTarget)]
    for name in names[1:]:
        a.join_groups(name, names[0], True)
