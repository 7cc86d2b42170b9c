"""In-place mutation: stores into containers, augmented assignment of arrays, aliases.

numpy arrays are shared: ``b = a``, ``b = a[0:2]`` and ``b = a.T`` make ``b``
and ``a`` the same memory, so a store through one changes the other.  Names
that may share memory form an alias group (kept for the whole function, which
over-approximates and so stays sound).  Mutating a parameter is DPS205.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpsens import ir
from dpsens import types as T
from dpsens.infer import arith
from dpsens.infer.values import UNKNOWN, Value, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis


class MutationRules:
    """Mixin of Analysis for stores and aliases."""

    def record_alias(self: Analysis, target: str, value: ir.Expr) -> None:
        """Remember that ``target = value`` may share memory with a name."""
        view = not isinstance(value, ir.Name)
        while isinstance(value, (ir.Subscript, ir.Attribute)):
            value = value.value
        if isinstance(value, ir.Name) and value.id in self.env:
            root = self.shared.aliases.get(value.id, value.id)
            self.shared.aliases[target] = root
            if view or value.id in self.shared.views:
                self.shared.views.add(target)

    def alias_group(self: Analysis, name: str) -> tuple[str, set[str]]:
        """The root of a name's alias group and the group's names that are bound here."""
        root = self.shared.aliases.get(name, name)
        group = {n for n, r in self.shared.aliases.items() if r == root} | {name, root}
        return root, {n for n in group if n in self.env}

    def mutate(self: Analysis, target: ir.StoreTarget, value: Value) -> None:
        """``x[i] = v``: the container moves by at most the stored part's distance."""
        base = target.base
        if base is None or base not in self.env:
            self.report(target.span, "DPS205", "assignment to an element of an unknown object")
            return
        root, group = self.alias_group(base)
        if self.owned_elsewhere(root):
            self._parameter_mutated(target.span, root, group, value.ctx)
            return
        added = self._store_ctx(target.target, self.env[base], value)
        for name in group:
            old = self.env[name]
            self.env[name] = Value(old.type, C.add(old.ctx, added), parts=old.parts)

    def mutate_in_place(self: Analysis, name: str, new: Value, span: ir.Span) -> bool:
        """``a op= b`` on an array changes it in place; False when it is not an array."""
        if not isinstance(self.env.get(name, Value(T.REAL)).type, (T.Vector, T.Matrix)):
            return False
        root, group = self.alias_group(name)
        if self.owned_elsewhere(root):
            self._parameter_mutated(span, root, group, new.ctx)
            return True
        for member in group:
            shares_all = member not in self.shared.views and name not in self.shared.views
            if member == name or shares_all:
                self.env[member] = new
            else:
                old = self.env[member]
                self.env[member] = Value(old.type, C.add(old.ctx, new.ctx))
        return True

    def owned_elsewhere(self: Analysis, root: str) -> bool:
        """The array belongs to a caller: a parameter of this function or of an inline call."""
        return root in self.var_types or root in self.foreign

    def _parameter_mutated(self: Analysis, span: ir.Span, root: str, group: set[str],
                           stored: C.Context) -> None:
        self.report(span, "DPS205", f"parameter '{root}' is mutated in place")
        if root in self.foreign:
            # The caller's array changes too, and it is not tracked here.
            self.poisoned = True
        for name in group:
            self.env[name] = unknown(C.total([self.env[name].ctx, stored, C.single(root)]))

    def _store_ctx(self: Analysis, target: ir.Expr | None, container: Value,
                   value: Value) -> C.Context:
        """How far a store can move the container, in the container's metric."""
        if not isinstance(target, ir.Subscript) or container.type == UNKNOWN \
                or value.type == UNKNOWN:
            return C.blow_up(C.add(container.ctx, value.ctx))
        parts = [self._index_part(p) for p in target.index]
        index_ctx = C.blow_up(C.total(_part_ctx(p) for p in parts))
        t = container.type
        rank = 1 if isinstance(t, T.Vector) else 2 if isinstance(t, T.Matrix) else 0
        kinds = (T.scalar_kind_of(value.type) or "Real", T.scalar_kind_of(t) or "Real")
        element = T.element_factor(*kinds)
        if all(isinstance(p, Value) for p in parts) and len(parts) == rank:
            factor = element if isinstance(value.type, T.Scalar) else E.INF
        elif rank:
            # A slice store writes part of the container; writing the value
            # (broadcast) into all of it moves the container at least as far.
            factor = E.mul(element, arith.embed_factor(value.type, t))
        else:
            factor = E.INF
        return C.add(C.scale(factor, value.ctx), index_ctx)


def _part_ctx(part: object) -> C.Context:
    if isinstance(part, Value):
        return part.ctx
    return C.total(p.ctx for p in part if p is not None)  # type: ignore[attr-defined]
