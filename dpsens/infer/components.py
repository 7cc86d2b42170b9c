"""R-components: a tuple parameter of a sensitivity function, one variable per component.

A tuple's distance is the sum of its components' distances. Analyzed with one
variable p#i per component of p, the body's context bounds the result's move by
Σ_i c_i·d_i, where d_i is component i's distance, and Σ_i c_i·d_i ≤ (max_i c_i)·d(p):
p's sensitivity is its largest component's. Unlike R-parts, which keeps the parts'
coefficients beside one value's context and loses them in the rules that do not know
parts, the components are ordinary variables, which every rule (loops, branches,
calls, closures' captures) keeps apart: `a, b = b, a + b` five times from p is 5, not 8.

A privacy function's charges to two components do not combine by their maximum in
general (a mechanism's cost need not be linear in the distance, and two components may
move at once). They do where every component's distance is a whole number of unit
steps (Data, Integer, datasets of records): a neighbour, at distance at most 1, moves
exactly one component by one step, so the cost in p is the largest component's
(`finish_privacy`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dpsens import types as T
from dpsens.frontend import tuples
from dpsens.infer import pieces
from dpsens.infer.pieces import Pieces
from dpsens.sym import context as C
from dpsens.sym import expr as E

# Per split parameter, its components' types.
Split = Mapping[str, tuple[T.Type, ...]]


def candidates(params: Iterable[tuple[str, T.Type]], private: bool) -> dict[str, int]:
    """The tracked tuple parameters to split, with their arities: all of a sensitivity
    function's; of a privacy function's, those whose components are all at distance 0 or
    at least 1 by unit steps (so that a neighbour moves one component only)."""
    return {name: len(t.elts) for name, t in params if isinstance(t, T.TupleType) and t.elts
            and (not private or all(map(_unit_steps, t.elts)))}


def _unit_steps(t: T.Type) -> bool:
    """Distances are whole numbers, each a number of unit steps: Data, Bool and Integer
    numbers, and L1 or L∞ containers of Data or Integer entries (not L2: √2 is two)."""
    return T.is_discrete_metric(t) and getattr(t, "norm", "L1") != "L2" \
        and not isinstance(t, (T.TupleType, T.ListType))


def names(name: str, split: Split) -> list[str]:
    """The variables a parameter is analyzed as: its components', or its own."""
    if name not in split:
        return [name]
    return [tuples.component(name, i) for i in range(len(split[name]))]


def variables(split: Split) -> dict[str, T.Type]:
    """The component variables with their types."""
    return {tuples.component(name, i): t for name, elts in split.items()
            for i, t in enumerate(elts)}


def owner(variable: str, split: Split) -> str:
    """The parameter a variable belongs to (a component's tuple, else itself)."""
    whole, separator, _ = variable.rpartition(tuples.SEPARATOR)
    return whole if separator and whole in split else variable


def collapsed(ctx: C.Context, split: Split) -> C.Context:
    """A context over the components as one over the parameters: each tuple's largest."""
    if not split:
        return ctx
    kept = {v: r for v, r in ctx.items() if owner(v, split) == v}
    found = of_components(ctx, split)
    return {**kept, **pieces.bound(found)} if found else kept


def of_components(ctx: C.Context, split: Split) -> Pieces:
    """Per split parameter, the coefficient of each component the context names (R-parts'
    pieces: callers map them onto the argument's components)."""
    out: dict[str, dict[pieces.Key, E.Expr]] = {}
    for name, elts in split.items():
        found: dict[pieces.Key, E.Expr] = {i: ctx[v] for i in range(len(elts))
                 if not E.is_zero(ctx.get(v := tuples.component(name, i), E.ZERO))}
        if found:
            out[name] = found
    return out


def owners(names: Iterable[str], split: Split) -> frozenset[str]:
    """The parameters a set of variables belong to."""
    return frozenset(owner(name, split) for name in names)
