"""R-cell-values: values of a dataset's rows kept only inside one cell of a partition.

In a loop over i, ``m[:, j] == i`` is iteration i's cell of a partition of m's rows
(R-loop-partition, loops.py). Its variable d_i counts the records that change and lie in
cell i before or after the change: a record lies in one cell each time, so Σ_i d_i ≤ 2c
and d_i ≤ c for c changed records, the facts the loop pays the cells with. A value x
whose entry r reads row r of m alone (R-rowwise), kept only inside the cell
(``x * cell``, ``np.where(cell, x, 0)``, ``cell & x``), changes only at the records that
changed and lie in the cell before or after: at most d_i entries, each by at most
max(s, B) (s: how far an entry of x moves; B: a bound on its entries, for a record that
enters or leaves the cell). So it is max(s, B)-sensitive in d_i and in nothing of m:
per-group sums of clipped values released group by group cost 2ε, not (k + 2)ε.
"""

from __future__ import annotations

from dpsens import types as T
from dpsens.infer.values import Value
from dpsens.sym import context as C
from dpsens.sym import expr as E

def kept_inside(result: Value, mask: Value, other: Value) -> Value | None:
    """``result`` (other kept where mask holds, 0 elsewhere) measured by the mask's cell,
    or None when mask is no cell or other does not read the cell's rows one by one."""
    cell = _cell_of(mask)
    rows = other.rowwise
    # Entry r of each is record r: vectors only (a matrix's cells are its entries, and a
    # matrix x broadcast against a vector cell has a row's entries per record).
    if cell is None or rows is None or rows.by_column or not rows.params \
            or mask.rowwise is None or not rows.params <= mask.rowwise.params \
            or not all(isinstance(v.type, T.Vector) for v in (mask, other, result)):
        return None
    bound = other.magnitude()
    if bound is None:
        return None
    move = E.smax(E.mul(E.number(2), bound) if rows.spread is None else rows.spread, bound)
    outside = {v: r for v, r in other.ctx.items() if v not in rows.params}
    return Value(result.type, C.add(outside, {cell: move}), bound=result.bound,
                 interval=result.interval)


def _cell_of(mask: Value) -> str | None:
    """The cell variable of the mask R-loop-partition reads as one iteration's cell (marked
    where it is read: ``cell == False`` has the same context, and is the complement)."""
    rows = mask.rowwise
    if rows is None or rows.cell is None or not rows.binary or mask.ctx != {rows.cell: E.ONE}:
        return None
    return rows.cell
