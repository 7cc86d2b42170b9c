"""Tuples held in a local name, split into one name per component.

`acc = (0.0, 0.0)` then `acc = (acc[0] + e, acc[1] + 2 * e)` in a loop carries one
value whose distance is the sum of its components'. Analyzed whole, each component
is 1-sensitive in acc, so the new tuple is 2-sensitive in it and the loop grows
as 2^n (R-loop). Split, `acc#0, acc#1 = acc#0 + e, acc#1 + 2 * e` is the same
program over two names, and each component is 1-sensitive in its own: 3 over
the whole vector, as `s, t = s + e, t + 2 * e` is. The tuple metric is the sum
of the components' distances, so the two readings measure alike.

A name is split only where the rewrite is the same program: every binding is a
tuple display of one arity k (Python makes the name local to the function), it
is read as `name[c]` with c a whole number in [-k, k) or whole (rebuilt as a
display of the component names: a tuple is immutable, so an equal one serves),
and nothing else binds, stores into, or reads it (no closure, comprehension,
unpacking, augmented assignment, `global`, `del` or unsupported construct).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from dpsens import ir

SEPARATOR = "#"  # not in Python identifiers: the component names cannot clash


def split(body: tuple[ir.Stmt, ...], params: tuple[ir.Param, ...],
          special: list[str] | tuple[str, ...] = ()) -> tuple[ir.Stmt, ...]:
    """The body with each splittable tuple-valued local replaced by its components
    (``special``: the *args and **kwargs names, parameters too)."""
    arities = _display_bindings(body)
    if not arities:
        return body
    for name in {p.name for p in params} | set(special):
        arities.pop(name, None)
    for name in _disqualified(body, arities):
        arities.pop(name, None)
    if not arities:
        return body
    return tuple(_rewrite(statement, arities) for statement in body)  # type: ignore[misc]


def split_parameters(body: tuple[ir.Stmt, ...], arities: dict[str, int]
                     ) -> tuple[tuple[ir.Stmt, ...], dict[str, int]]:
    """The body with tuple parameters (name -> arity, from their annotations) read as one
    name per component where the rewrite is the same program, and which were split.

    A parameter is bound on entry, so only its rebindings must be displays of its arity;
    the caller binds the component names (R-components in docs/rules.md)."""
    displays = _display_arities(body)
    candidates = {name: arity for name, arity in arities.items()
                  if displays.get(name, arity) == arity}
    for name in _disqualified(body, candidates):
        candidates.pop(name, None)
    if not candidates:
        return body, {}
    return tuple(_rewrite(statement, candidates) for statement in body), candidates  # type: ignore[misc]


def component(name: str, position: int) -> str:
    """The name standing for one component of a split tuple."""
    return f"{name}{SEPARATOR}{position}"


def shown(name: str) -> str:
    """A component's name as the user wrote it (`p#0` is `p[0]`)."""
    whole, separator, position = name.rpartition(SEPARATOR)
    return f"{whole}[{position}]" if separator and position.isdigit() else name


def _display_bindings(body: tuple[ir.Stmt, ...]) -> dict[str, int]:
    """Names bound by `name = (a, b, ...)`, with the arity when it is always the same."""
    return {name: arity for name, arity in _display_arities(body).items() if arity is not None}


def _display_arities(body: tuple[ir.Stmt, ...]) -> dict[str, int | None]:
    """Names bound by `name = (a, b, ...)`: the arity, or None when it differs."""
    found: dict[str, int | None] = {}
    for node in ir.nodes(body):
        if isinstance(node, ir.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ir.NameTarget) \
                and isinstance(node.value, ir.TupleExpr) and node.value.elts \
                and not node.value.is_list:
            name, arity = node.targets[0].id, len(node.value.elts)
            found[name] = arity if found.get(name, arity) == arity else None
    return found


def _disqualified(body: tuple[ir.Stmt, ...], arities: dict[str, int]) -> set[str]:
    """Candidates used otherwise than the rewrite keeps equal."""
    bad: set[str] = set()
    for node in ir.nodes(body):
        if isinstance(node, (ir.Lambda, ir.FunctionDef, ir.Unanalyzed)) or \
                isinstance(node, ir.Unsupported):
            # Closures read the name when called, a nested def may have a local of the
            # same name, and unsupported constructs may bind it.
            bad |= (ir.names_read(node) | _bound_within(node)) & arities.keys()
            if isinstance(node, ir.Unsupported):
                bad |= set(node.names + node.assigned + node.reached) & arities.keys()
        elif isinstance(node, ir.UnsupportedStmt):
            bad |= set(node.assigned + node.reached) & arities.keys()
        elif isinstance(node, ir.Assign):
            display = len(node.targets) == 1 and isinstance(node.targets[0], ir.NameTarget) \
                and isinstance(node.value, ir.TupleExpr) and not node.value.is_list
            if not display:
                bad |= _bound(node.targets) & arities.keys()
        elif isinstance(node, ir.AugAssign):
            bad |= _bound((node.target,)) & arities.keys()
        elif isinstance(node, ir.For):
            bad |= _bound((node.target,)) & arities.keys()
        elif isinstance(node, ir.Subscript) and isinstance(node.value, ir.Name) \
                and node.value.id in arities and _position(node, arities[node.value.id]) is None:
            bad.add(node.value.id)  # acc[i]: a computed component
    return bad


def _bound_within(node: object) -> set[str]:
    """Names assignments anywhere under a node bind."""
    return set().union(*(_bound(n.targets) for n in ir.nodes(node) if isinstance(n, ir.Assign)))


def _bound(targets: tuple[ir.Target, ...]) -> set[str]:
    """Names a target binds or stores into."""
    names: set[str] = set()
    for target in targets:
        if isinstance(target, ir.NameTarget):
            names.add(target.id)
        elif isinstance(target, ir.TupleTarget):
            names |= _bound(target.elts)
        elif target.base is not None:
            names.add(target.base)
    return names


def _position(node: ir.Subscript, arity: int) -> int | None:
    """c of `name[c]` for a whole-number constant in [-arity, arity), else None."""
    index = node.index[0] if len(node.index) == 1 else None
    negated = isinstance(index, ir.UnaryOp) and index.op == "-"
    if negated:
        index = index.operand  # type: ignore[union-attr]
    if not isinstance(index, ir.Const):
        return None
    value = -index.value if negated and isinstance(index.value, int) else index.value
    if isinstance(value, bool) or not isinstance(value, int) or not -arity <= value < arity:
        return None
    return value % arity


def _rewrite(node: object, arities: dict[str, int]) -> object:
    """The node with the split names' bindings and reads replaced."""
    def replacement(item: object) -> object | None:
        if isinstance(item, ir.Assign) and len(item.targets) == 1 \
                and isinstance(item.targets[0], ir.NameTarget) and item.targets[0].id in arities:
            target = item.targets[0]
            parts = tuple(ir.NameTarget(target.span, component(target.id, i))
                          for i in range(arities[target.id]))
            return ir.Assign(item.span, (ir.TupleTarget(target.span, parts),),
                             _rewrite(item.value, arities))  # type: ignore[arg-type]
        if isinstance(item, ir.Subscript) and isinstance(item.value, ir.Name) \
                and item.value.id in arities:
            position = _position(item, arities[item.value.id])
            assert position is not None  # others were disqualified
            return ir.Name(item.span, component(item.value.id, position))
        if isinstance(item, ir.Name) and item.id in arities:
            return ir.TupleExpr(item.span, tuple(ir.Name(item.span, component(item.id, i))
                                                 for i in range(arities[item.id])))
        return None
    return _mapped(node, replacement)


def _mapped(node: object, replacement: Callable[[object], object | None]) -> object:
    """A copy of an IR tree with nodes replaced where ``replacement`` gives one."""
    new = replacement(node)
    if new is not None:
        return new
    if isinstance(node, tuple):
        items = tuple(_mapped(item, replacement) for item in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {}
    for field in dataclasses.fields(node):
        if field.name == "span":
            continue
        value = getattr(node, field.name)
        mapped = _mapped(value, replacement)
        if mapped is not value:
            changes[field.name] = mapped
    return dataclasses.replace(node, **changes) if changes else node


__all__ = ["component", "shown", "split", "split_parameters"]
