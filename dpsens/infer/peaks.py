"""R-peak: a vector's L∞ sensitivity kept beside its context, for its L2 and L∞ moves.

A histogram's counts move by 2 in L1 when one record changes bins, but no count moves
by more than 1: the L1 context alone would say 2 in L2 and in L∞ too. Hölder's
inequality gives ‖Δ‖₂² = Σ Δᵢ² ≤ max|Δᵢ| · Σ|Δᵢ| = ‖Δ‖∞ · ‖Δ‖₁, so a vector that
is s₁-sensitive in L1 and s∞-sensitive in L∞ in a variable is √(s₁·s∞)-sensitive in L2
in it: √2 for the counts, which is exact (one record moving from bin a to bin b).
Several variables changing at once are bounded one at a time by the triangle
inequality, as every context is, since each bound holds at every point.
"""

from __future__ import annotations

from dpsens import types as T
from dpsens.infer.values import Value
from dpsens.sym import context as C
from dpsens.sym import expr as E


def remeasured(value: Value, norm: str) -> C.Context | None:
    """The value's context in ``norm`` (L2 or L_inf) from its peak, where that is tighter
    than re-measuring its L1 context alone; None when there is nothing to gain."""
    t, entry = value.type, largest_entry_move(value)
    if entry is None or not isinstance(t, T.Vector) or t.norm != "L1" or norm not in ("L2", "L_inf"):
        return None
    if norm == "L_inf":
        return entry
    # (where no peak below the L1 move is known, the move itself: L1 → L2 costs 1)
    return {variable: total if entry[variable] == total else E.sqrt(E.mul(total, entry[variable]))
            for variable, total in value.ctx.items()}


def largest_entry_move(value: Value) -> C.Context | None:
    """Per variable, how far any one entry of a vector moves (None when not known): its
    peak where that is below its move, else the move (an entry is at most the vector
    away in every norm)."""
    if value.peak is None or not isinstance(value.type, T.Vector):
        return None
    return {variable: value.peak[variable]
            if variable in value.peak and E.decide_le(value.peak[variable], total) is True
            else total for variable, total in value.ctx.items()}


def scaled(factor: E.Expr, value: Value, result: Value) -> Value:
    """``result`` (c·value or value/c, of the same vector shape) with value's peak scaled
    by |c|, as its context is."""
    if value.peak is None or not isinstance(result.type, T.Vector) \
            or not isinstance(value.type, T.Vector):
        return result
    return Value(result.type, result.ctx, result.exact, result.bound, result.parts,
                 interval=result.interval, peak=C.scale(factor, value.peak))
