"""Loops over ``enumerate(X)`` and ``zip(X, Y, ...)``, analyzed as the index loops they are.

``for i, r in enumerate(X): body`` runs body with r = X[i] for i = 0, …, len(X) − 1,
and ``for a, b in zip(X, Y): body`` with a = X[k], b = Y[k] for k < min(len(X), len(Y)).
Python iterates the objects X and Y themselves (a store into X is seen by later
iterations, as ``X[i]`` sees it), so the rewriting is exact as long as the body does
not rebind the names X and Y (Python would keep iterating the old objects); anything
else is left to the general loop rules (DPS201). Written as an index loop, the body's
reads ``X[i]`` get the parallel composition of R-loop-elements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpsens import ir

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis

def as_index_loop(a: Analysis, s: ir.For, assigned: set[str]) -> list[ir.Stmt] | None:
    """The statements an ``enumerate``/``zip`` loop stands for (each iterated expression
    that is not a name bound to a hidden one first, as Python evaluates it once, then the
    index loop), or None."""
    call = s.iter
    if not (isinstance(call, ir.Call) and not call.keywords and isinstance(s.target, ir.TupleTarget)
            and all(isinstance(t, ir.NameTarget) for t in s.target.elts)
            and not any(isinstance(arg, ir.Name) and arg.id in assigned for arg in call.args)):
        return None
    if a.qualify(ir.Name(s.span, "range")) != "builtins.range" \
            or a.qualify(ir.Name(s.span, "len")) != "builtins.len":
        return None  # the names the rewriting uses are the builtins
    kind = a.qualify(call.func)
    names = [t.id for t in s.target.elts]  # type: ignore[union-attr]
    if kind == "builtins.enumerate" and len(call.args) == 1 and len(names) == 2:
        index, targets = names[0], names[1:]
    elif kind == "builtins.zip" and len(call.args) == len(names) >= 1:
        index, targets = _hidden(a, "index"), names
    else:
        return None
    named = {arg.id for arg in call.args if isinstance(arg, ir.Name)}
    if index in assigned or len(set(names)) != len(names) or named & set(names):
        return None
    span = s.span
    prelude: list[ir.Stmt] = []
    sources: list[ir.Name] = []
    for arg in call.args:
        if not isinstance(arg, ir.Name):
            hidden = ir.Name(span, _hidden(a, "iterated"))
            prelude.append(ir.Assign(span, (ir.NameTarget(span, hidden.id),), arg))
            arg = hidden
        sources.append(arg)
    lengths: list[ir.Expr] = [ir.Call(span, ir.Name(span, "len"), (x,), ()) for x in sources]
    count = lengths[0] if len(lengths) == 1 else \
        ir.Call(span, ir.Name(span, "min"), tuple(lengths), ())
    reads = tuple(ir.Assign(span, (ir.NameTarget(span, name),),
                            ir.Subscript(span, x, (ir.Name(span, index),)))
                  for name, x in zip(targets, sources))
    loop = ir.For(span, ir.NameTarget(span, index),
                  ir.Call(span, ir.Name(span, "range"), (count,), ()), reads + s.body)
    # Python iterates the objects, up to their current ends: a list the body makes longer
    # gives more iterations than range(len(X)) (loops.py checks, R-loop-grown-list).
    a.shared.live_lists[id(loop)] = tuple(x.id for x in sources)
    return [*prelude, loop]


def _hidden(a: Analysis, what: str) -> str:
    """A fresh name no Python code can write."""
    a.program.fresh += 1
    return f"{what}#{a.program.fresh}"
