"""Special rules for re-measuring containers: clip, norm_convert, undisc_container.

Proof sketches are in docs/rules.md; the names of the functions are the
names used by ``@rule(...)`` in the stubs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpsens import types as T
from dpsens.infer import peaks
from dpsens.infer.values import Value, unknown
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.rules.table import Rule

Bound = dict[str, "Value | None"]


def row_length(t: T.Type) -> E.Expr:
    """The number of entries one row (or the vector) has."""
    if isinstance(t, T.Vector):
        return t.length
    assert isinstance(t, T.Matrix)
    return t.cols


def norm_argument(a: Analysis, value: Value | None, span: object, name: str) -> str | None:
    """The norm passed as a static first argument, or None after a DPS301."""
    if value is not None and isinstance(value.type, T.NormValue):
        return value.type.norm
    a.report(span, "DPS301", f"{name}() needs one of L1, L2, L_inf as its first argument")  # type: ignore[arg-type]
    return None


def require_container(a: Analysis, value: Value, span: object, name: str) -> bool:
    """Whether the value is a vector or matrix (a DPS301 when it is not)."""
    if isinstance(value.type, (T.Vector, T.Matrix)):
        return True
    a.report(span, "DPS301", f"{name}() needs a MetricVector or MetricMatrix, "  # type: ignore[arg-type]
             f"got {value.type.show()}")
    return False


def with_metric(t: T.Type, norm: str, elem: str, clip: str | None) -> T.Type:
    """The same shape measured differently."""
    if isinstance(t, T.Vector):
        return T.Vector(norm, elem, t.length, clip)
    assert isinstance(t, T.Matrix)
    return T.Matrix(norm, elem, t.rows, t.cols, clip)


def clip_factor(clip: str, norm: str, elem: str, n: E.Expr) -> E.Expr:
    """Sensitivity of scaling rows into the unit ball of ``clip``, measured in ``norm``."""
    if elem == "Data":
        # A changed row may change in all n entries: (L_inf, Data) 1, (L2, Data)
        # sqrt(n), (L1, Data) n (the seed note's [1,1] vs [1,0] counterexample).
        return T.norm_factor("L_inf", norm, n)
    # Radial projection onto a unit ball is 2-Lipschitz in its own norm and
    # 1-Lipschitz for L2 (projection onto a closed convex set of a Hilbert space).
    own = E.ONE if clip == "L2" else E.number(2)
    return E.mul(E.mul(T.norm_factor(norm, clip, n), own), T.norm_factor(clip, norm, n))


def clip(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """clip(c, v): rows scaled into the unit ball of c; the metric is kept."""
    norm, v = norm_argument(a, bound["norm"], span, "clip"), bound["v"]
    assert v is not None
    if norm is None or not require_container(a, v, span, "clip"):
        return unknown(v.ctx)
    t = v.type
    assert isinstance(t, (T.Vector, T.Matrix))
    elem = "Real" if t.elem == "Integer" else t.elem
    factor = clip_factor(norm, t.norm, t.elem, row_length(t))
    # Clipping works row by row, so no more rows differ than in v, and a changed
    # Data row is at least 1 away in any Data metric: v's context bounds them.
    rows = (v.rows if v.rows is not None else v.ctx) if t.elem == "Data" else None
    return Value(with_metric(t, t.norm, elem, norm), C.scale(factor, v.ctx), rows=rows)


def norm_convert(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """norm_convert(N', v): identity on values, distances re-measured in N'."""
    norm, v = norm_argument(a, bound["norm"], span, "norm_convert"), bound["v"]
    assert v is not None
    if norm is None or not require_container(a, v, span, "norm_convert"):
        return unknown(v.ctx)
    t = v.type
    assert isinstance(t, (T.Vector, T.Matrix))
    factor = T.norm_factor(t.norm, norm, row_length(t))
    ctx = peaks.remeasured(v, norm)
    return Value(with_metric(t, norm, t.elem, t.clip),
                 C.scale(factor, v.ctx) if ctx is None else ctx, peak=v.peak)


def undisc_container(a: Analysis, rule: Rule, bound: Bound, span: object) -> Value:
    """Clipped Data rows re-measured as real rows in the clip norm: 2-sensitive."""
    m = bound["m"]
    assert m is not None
    if not require_container(a, m, span, "undisc_container"):
        return unknown(m.ctx)
    t = m.type
    assert isinstance(t, (T.Vector, T.Matrix))
    if t.elem != "Data" or t.clip is None:
        a.report(span, "DPS301", "undisc_container() needs clipped Data rows "  # type: ignore[arg-type]
                 f"(clip them first), got {t.show()}")
        return unknown(m.ctx)
    # Two rows of norm <= 1 are at most 2 apart in that norm; rows that differ
    # are at least 1 apart in any Data metric, and m.rows (from clip) bounds their
    # number directly: one changed entry of an (L2, Data) row is one changed row,
    # though √cols(m) away once clipped (docs/rules.md L19).
    changed = m.rows if m.rows is not None else m.ctx
    return Value(with_metric(t, t.clip, "Real", t.clip), C.scale(E.number(2), changed))
