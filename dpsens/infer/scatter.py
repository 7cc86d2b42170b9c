"""R-store-scatter: ``x[i] += e`` at an index that moves with discrete data (a histogram
built by hand: ``counts[int(v)] += 1`` for each entry v)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from dpsens import ir
from dpsens import types as T
from dpsens.infer import ranges
from dpsens.infer.counted import PURE, effect_free
from dpsens.infer.values import Value, is_list
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis

# Calls an index may make: pure, and what they return depends on their arguments only.
INDEX_CALLS = PURE | {"builtins.int", "builtins.round", "builtins.len", "builtins.bool"}


def scatter_increment(a: Analysis, target: ir.StoreTarget, statement: ir.AugAssign) -> bool:
    """Apply R-store-scatter to ``x[i] += e`` / ``x[i] -= e`` (every axis indexed by one
    integer position, some index not public); False, with nothing done, when the store
    has another shape."""
    store = target.target
    if statement.op not in ("+", "-") or not (
            isinstance(store, ir.Subscript) and isinstance(store.value, ir.Name)
            and store.value.id == target.base and target.base in a.env):
        return False
    container = a.env[target.base]
    t = container.type
    if not isinstance(t, (T.Vector, T.Matrix)) or is_list(container) \
            or t.elem not in ("Real", "Integer"):
        return False
    rank = 1 if isinstance(t, T.Vector) else 2
    if len(store.index) != rank or not all(
            not isinstance(p, ir.Slice) and effect_free(p, a, INDEX_CALLS) for p in store.index):
        return False
    # (effect-free, and no slices: evaluating them twice is safe)
    parts = [a.expr(p) for p in store.index if not isinstance(p, ir.Slice)]
    if not all(isinstance(p.type, T.Scalar) and p.type.kind in ("Integer", "Data") for p in parts):
        return False  # a Boolean is a 0-d mask: it may write every entry
    flips = _flips(a, parts)
    if C.is_public(flips):
        return False  # a public index: the store rule applies as it is
    sizes = (t.length,) if isinstance(t, T.Vector) else (t.rows, t.cols)
    if not all(_within(p, size) for p, size in zip(parts, sizes)):
        # An index out of range raises, and a privacy function's caller sees that it did
        # (R-observed): only an index known to lie in range shows nothing.
        a.observe(C.blow_up(flips))
        if a.privacy:
            a.report(target.span, "DPS403", "this index moves with the data and may be out "
                     "of range (IndexError), which the caller sees: np.clip it into range")
    operand = a.expr(statement.value)
    bound = operand.magnitude() if isinstance(operand.type, T.Scalar) else None
    a.mutate(target, operand, scatter=(flips, E.INF if bound is None else bound))
    return True


def _within(index: Value, size: E.Expr) -> bool:
    """Whether an index is known to lie in [−size, size − 1] (numpy raises outside it)."""
    found = ranges.of(index)
    return found is not None and E.decide_le(-size, found[0]) is True \
        and E.decide_le(found[1], size - 1) is True


def _flips(a: Analysis, parts: list[Value]) -> C.Context:
    """A bound on 1{the index differs on neighbouring inputs}, per unit of each input's
    distance: changing the inputs one at a time, an integer (or Data) index that changes
    moves by at least 1, so by its context it changes at most c_v·d(v) times for input v;
    and an input of a discrete metric that changes is at least 1 away, so at most d(v)
    times: min(c_v, 1) for those."""
    total = C.total(p.ctx for p in parts)
    return {v: sp.Min(s, E.ONE) if v in a.var_types and T.is_discrete_metric(a.var_types[v])
            else s for v, s in total.items()}


def scatter_spread(t: T.Type, bound: E.Expr) -> E.Expr:
    """How far the container moves when the increment (|e| ≤ bound) lands on another
    position: 2·bound in L1 and in a matrix (two entries, in one row or two), √2·bound in
    L2, bound in L∞."""
    if isinstance(t, T.Vector) and t.norm == "L2":
        return E.mul(E.sqrt(E.number(2)), bound)
    if isinstance(t, T.Vector) and t.norm == "L_inf":
        return bound
    return E.mul(E.number(2), bound)
