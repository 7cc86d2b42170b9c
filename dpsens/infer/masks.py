"""R-select: ``x[mask]``, the entries of a vector or the rows of a matrix where a mask holds.

Its length depends on the data, so no metric of dpsens measures the selection
itself: its context is unbounded in everything it depends on. Two things about it
are exact functions of values dpsens does measure, and keep their bounds:

- ``len(x[m])`` and ``x[m].shape[0]`` are Σ m_i, the mask's sum (R-sum);
- ``np.sum(x[m])`` of a vector is Σ_i m_i·x_i, the sum of ``np.where(m, x, 0)``
  (R-where, then R-sum).

numpy raises IndexError when the mask's length is not x's: that is assumed equal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from dpsens import types as T
from dpsens.infer.values import Selection, Value, number
from dpsens.sym import context as C

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis

SELECTED = T.Opaque("mask selection")


def is_mask(value: object) -> bool:
    """A vector numpy holds as bools: a comparison's result, or &, | of them (rowwise.mask
    marks those alone; an array of 0/1 integers would pick entries 0 and 1 instead)."""
    return isinstance(value, Value) and isinstance(value.type, T.Vector) \
        and value.rowwise is not None and value.rowwise.binary


def selected(a: Analysis, base: Value, mask: Value, span: object,
             part: str | None = None) -> Value | None:
    """``base[mask]`` for a vector or matrix base, or None (another kind of base).
    ``part`` is "max" when the mask is ``base > 0`` (or ``>=``), "min" when it is
    ``base < 0``: the entries kept are then those of np.maximum(base, 0) or np.minimum
    that are not 0 (R-select)."""
    t, m = base.type, mask.type
    if not isinstance(t, (T.Vector, T.Matrix)) or not isinstance(m, T.Vector):
        return None
    count = a.apply_rule("numpy.sum", (mask,), span)
    if count is None:
        return None  # no rule for np.sum (a stub directory replaced numpy's)
    length = t.length if isinstance(t, T.Vector) else t.rows
    if m.length != length:
        a.assume(sp.Eq(length, m.length))  # numpy raises IndexError otherwise
    masked = None
    if isinstance(t, T.Vector):
        masked = a.apply_rule(f"numpy.{part}imum", (base, number(0)), span) if part \
            else a.apply_rule("numpy.where", (mask, base, number(0)), span)
    return Value(SELECTED, C.blow_up(C.add(base.ctx, mask.ctx)),
                 selection=Selection(masked, count, t))


__all__ = ["SELECTED", "is_mask", "selected"]
