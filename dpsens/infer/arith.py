"""Typing rules of the arithmetic, comparison and boolean operators (docs/rules.md §3–§5)."""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import replace
from typing import Callable, Sequence

import sympy as sp

from dpsens import types as T
from dpsens.infer import cells, dtypes, floats, peaks, pieces, ranges, rowwise
from dpsens.infer.values import UNKNOWN, Value, concatenate, is_list, join, repeated
from dpsens.sym import context as C
from dpsens.sym import expr as E

Report = Callable[[str, str], None]  # (code, message)

_EXACT = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "//": lambda a, b: sp.floor(a / b), "%": lambda a, b: sp.Mod(a, b),
    "**": lambda a, b: a**b,
}
_INTEGER_OPS = ("+", "-", "*", "//", "%", "**", "&", "|", "^")
_LOGICAL = ("&", "|", "^", "*")  # on Bool operands
_RANK = {T.Scalar: 0, T.Vector: 1, T.Matrix: 2}


def binary(op: str, a: Value, b: Value, report: Report, same: bool = False) -> Value:
    """The value of ``a op b``, with the interval of its entries where one is known
    (R-range: entrywise operations, so not ``@``); ``same``: b is a itself (``x * x``)."""
    result = _ranged(op, a, b, report, same)
    if not isinstance(result.type, (T.Scalar, T.Vector, T.Matrix)):
        return result  # (lists and tuples: concatenate and repeated say what they hold)
    # R-int-dtype: Python's and numpy's / make floats; the rest a float when either is one.
    return dtypes.marked(result, None if op == "/" else dtypes.upcast([a, b]))


def _ranged(op: str, a: Value, b: Value, report: Report, same: bool) -> Value:
    """``a op b`` with the interval of its entries where one is known."""
    result = _binary(op, a, b, report)
    if op in ("*", "&"):  # a value of a dataset's rows kept inside a partition's cell
        result = cells.kept_inside(result, a, b) or cells.kept_inside(result, b, a) or result
    if result.exact is not None or op == "@" or result.public or \
            not isinstance(result.type, (T.Scalar, T.Vector, T.Matrix)) or \
            T.scalar_kind_of(result.type) == "Data":
        return result
    if op in _LOGICAL and T.scalar_kind_of(a.type) == T.scalar_kind_of(b.type) == "Bool":
        return ranges.ranged(result, ranges.UNIT)  # truth values and masks stay 0 or 1
    interval = ranges.binary(op, ranges.of(a), ranges.of(b), same) or \
        ranges.binary(op, ranges.symmetric(a), ranges.symmetric(b), same)
    return ranges.ranged(result, interval)


def _binary(op: str, a: Value, b: Value, report: Report) -> Value:
    """``a op b`` without its interval."""
    if a.type == UNKNOWN or b.type == UNKNOWN:
        return Value(UNKNOWN, C.blow_up(C.add(a.ctx, b.ctx)))
    joined = _list_operation(op, a, b)
    if joined is not None:
        return joined
    if op == "@":
        return _matmul(a, b, report)
    if not (_numeric(a.type) and _numeric(b.type)):
        report("DPS301", f"operator '{op}' is not defined on {a.type.show()} and {b.type.show()}")
        return Value(UNKNOWN, C.blow_up(C.add(a.ctx, b.ctx)))
    shape = broadcast_shape([a.type, b.type])
    if isinstance(shape, str):  # why the shape is not known
        report("DPS301", shape)
        return Value(UNKNOWN, C.blow_up(C.add(a.ctx, b.ctx)))
    result_type = result_type_of(op, [a, b], shape)
    if a.public and b.public:
        return _static(op, a, b, result_type)
    if T.scalar_kind_of(result_type) == "Data":
        return rowwise.summed(_discrete(a, b, result_type), (a, b), None)
    if op in _LOGICAL and T.scalar_kind_of(a.type) == T.scalar_kind_of(b.type) == "Bool":
        # Entrywise on truth values: |p∘q − p'∘q'| ≤ |p − p'| + |q − q'| for ∘ in and, or,
        # xor (and * of 0/1), so every norm of the difference is at most the sum (R-bool).
        # A mask (a container of them) is an Integer container, as comparisons make it.
        result_type = shaped_type(shape, getattr(result_type, "norm", "L1"),
                                  "Bool" if not shape else "Integer")
        ctx = C.add(C.scale(embed_factor(a.type, result_type), a.ctx),
                    C.scale(embed_factor(b.type, result_type), b.ctx))
        return rowwise.mask(Value(result_type, ctx), (a, b))
    if op in ("+", "-"):
        terms = ((embed_factor(a.type, result_type), a), (embed_factor(b.type, result_type), b))
        ctx = C.total(C.scale(factor, operand.ctx) for factor, operand in terms)
        ma, mb = a.magnitude(), b.magnitude()  # bounded entries stay bounded (R-bounded-product)
        return pieces.summed(rowwise.summed(Value(result_type, ctx, bound=E.add(ma, mb) if ma is
                                                  not None and mb is not None else None), (a, b)),
                             terms)
    if op == "*" and (a.public or b.public):
        factor, other = (a, b) if a.public else (b, a)
        return rowwise.summed(_scaled(factor, other, result_type, report, divide=False),
                              (factor, other), _scale_of(factor, divide=False))
    bounded = _bounded_product(op, a, b, result_type)
    if bounded is not None:
        return rowwise.product(bounded, a, b) if op == "*" else rowwise.powered(bounded, a, b)
    if op == "/" and b.public:
        return rowwise.summed(_scaled(b, a, result_type, report, divide=True), (a, b),
                              _scale_of(b, divide=True))
    if op in ("//", "%") and b.public and T.scalar_kind_of(result_type) == "Integer":
        factor = _integer_division_factor(op, b)
        if factor is not None:
            return Value(result_type, C.scale(factor, a.ctx))
    return Value(result_type, C.blow_up(C.add(a.ctx, b.ctx)))


def as_truth(value: Value) -> Value:
    """A comparison's result (a Bool, or a mask typed Integer) as truth values."""
    t = value.type
    if isinstance(t, (T.Vector, T.Matrix)):
        return replace(value, type=replace(t, elem="Bool"))
    return replace(value, type=T.BOOL) if isinstance(t, T.Scalar) else value


def _matmul(a: Value, b: Value, report: Report) -> Value:
    """``a @ b``: a dot product of vectors, Σ a_i·b_i − a'_i·b'_i ≤ B_b·‖Δa‖₁ + B_a·‖Δb‖₁
    with B the other side's entry bound (R-bounded-product), a public side moving by
    nothing; a vector times a matrix is R-gram, a matrix times either R-matmul; Data
    entries and unknown bounds are ∞."""
    if isinstance(a.type, T.Vector) and isinstance(b.type, T.Matrix):
        return _vector_times_matrix(a, b, report)
    if isinstance(a.type, T.Matrix) and isinstance(b.type, (T.Vector, T.Matrix)):
        return _contraction(a, b, report)
    ctx = C.add(a.ctx, b.ctx)
    if not (isinstance(a.type, T.Vector) and isinstance(b.type, T.Vector)):
        report("DPS301", f"a @ b of {a.type.show()} and {b.type.show()} is not analyzed "
               "(products of vectors and matrices are)")
        return Value(UNKNOWN, C.blow_up(ctx))
    if "Data" in (a.type.elem, b.type.elem):  # any reals: clip them first, as for sums
        return Value(T.REAL, C.blow_up(ctx))
    if not equal_sizes(a.type.length, b.type.length):
        report("DPS301", f"a @ b of vectors of lengths {E.render(a.type.length)} and "
               f"{E.render(b.type.length)} that are not known to be equal")
        return Value(UNKNOWN, C.blow_up(ctx))
    terms = []
    for moving, other in ((a, b), (b, a)):
        if moving.public:
            continue
        bound = other.magnitude()
        if bound is None:
            report("DPS305", "a dot product with a vector whose largest entry is not known")
            return Value(T.REAL, C.blow_up(ctx))
        length = moving.type.length  # type: ignore[union-attr]
        factor = T.norm_factor(moving.type.norm, "L1", length)  # type: ignore[union-attr]
        dual = _dual_norm(other, moving.type.norm) if other.public else None  # type: ignore[union-attr]
        terms.append(C.scale(dual if dual is not None else E.mul(bound, factor), moving.ctx))
    return Value(T.REAL, C.total(terms))


def _dual_norm(public: Value, norm: str) -> E.Expr | None:
    """‖c‖ in the dual of ``norm`` for a public vector whose entries are known (a literal):
    |Σ c_i·Δv_i| ≤ ‖c‖_q·‖Δv‖_p with 1/p + 1/q = 1 (Hölder), exact for some Δv, where the
    entry bound times the norm conversion gives max|c_i|·√n (L2) or max|c_i|·n (L∞)."""
    if public.parts is None:
        return None
    entries = [part.magnitude() for part in public.parts]
    known = [entry for entry in entries if entry is not None]
    if len(known) != len(entries) or not known:
        return None
    if norm == "L1":
        return functools.reduce(E.smax, known)
    if norm == "L2":
        return E.sqrt(functools.reduce(E.add, (E.mul(c, c) for c in known)))
    return functools.reduce(E.add, known)


def _vector_times_matrix(v: Value, m: Value, report: Report) -> Value:
    """R-gram: ``v @ M`` is Σ_i v_i·M_i over the rows the two share, an (L1, ℝ) vector
    of M's width w. Row by row, v_i·M_i − v'_i·M'_i = Δv_i·M_i + v'_i·ΔM_i, whose L1
    norm is at most |Δv_i|·w·B_M + B_v·‖ΔM_i‖₁ (B: the entry bound); summed over the
    rows, Σ_i ‖ΔM_i‖₁ ≤ N(norm → L1)·d(M) and Σ_i |Δv_i| ≤ N(norm → L1)·d(v)."""
    assert isinstance(v.type, T.Vector) and isinstance(m.type, T.Matrix)
    if not equal_sizes(v.type.length, m.type.rows):
        report("DPS301", f"a product of {v.type.show()} and {m.type.show()} whose rows are "
               "not known to be as many")
        return Value(UNKNOWN, C.blow_up(C.add(v.ctx, m.ctx)))
    width = m.type.cols
    return _bilinear(v, m, T.Vector("L1", "Real", width), E.mul(width, _to_l1(v.type)),
                     _to_l1(m.type), v.type.length, report)


def _contraction(a: Value, b: Value, report: Report) -> Value:
    """R-matmul: ``A @ b`` (m×k times k) and ``A @ B`` (m×k times k×n) into an (L1, ℝ)
    vector or matrix. (A − A')B entry (i, l) is at most B_B·‖ΔA_i‖₁, so its L1 norm is
    at most n·B_B·Σ_i ‖ΔA_i‖₁; A'(B − B') entry (i, l) at most B_A·Σ_j |ΔB_jl|, so m·B_A
    times Σ_j ‖ΔB_j‖₁ (a vector b: n = 1, its entries its rows)."""
    assert isinstance(a.type, T.Matrix)
    inner = _rows(b.type)
    if inner is None or not equal_sizes(a.type.cols, inner):
        report("DPS301", f"a @ b of {a.type.show()} and {b.type.show()} whose inner sizes "
               "are not known to be equal")
        return Value(UNKNOWN, C.blow_up(C.add(a.ctx, b.ctx)))
    width = _width(b.type)
    result = T.Matrix("L1", "Real", a.type.rows, width) if isinstance(b.type, T.Matrix) \
        else T.Vector("L1", "Real", a.type.rows)
    product = _bilinear(a, b, result, E.mul(width, _to_l1(a.type)),
                        E.mul(a.type.rows, _to_l1(b.type)), inner, report)
    dual = _dual_norm(b, a.type.norm) if b.public and isinstance(b.type, T.Vector) \
        and a.type.elem != "Data" else None
    if dual is not None:
        # Row by row (Hölder): Σ_i |⟨ΔA_i, b⟩| ≤ ‖b‖_q·Σ_i ‖ΔA_i‖_p = ‖b‖_q·d(A).
        product = replace(product, ctx=C.scale(dual, a.ctx))
    return _outer_products(a, b, product, E.mul(a.type.rows, width))


def _outer_products(a: Value, b: Value, product: Value, entries: E.Expr) -> Value:
    """R-gram: ``M.T @ B`` is Σ_i outer(M_i, B_i). Where M's rows and B's are read from a
    dataset's rows one by one (R-rowwise), a changed row of it changes one outer product,
    whose ``entries`` each move by at most the spread of a product of entries: the
    width of their interval, or B_M·s_B + B_B·s_M (|mb − m'b'| ≤ |m||Δb| + |b'||Δm|)."""
    ra, rb = a.rowwise, b.rowwise
    if ra is None or rb is None or not ra.by_column or rb.by_column:
        return product
    params = {p for p in ra.params | rb.params
              if (p in ra.params or p not in a.ctx) and (p in rb.params or p not in b.ctx)}
    spreads = [rowwise.spread_of(v, frozenset(params)) for v in (a, b)]
    bounds = [a.magnitude(), b.magnitude()]
    candidates = []
    if None not in spreads and None not in bounds:
        candidates.append(E.add(E.mul(bounds[0], spreads[1]), E.mul(bounds[1], spreads[0])))
    interval = ranges.binary("*", ranges.of(a), ranges.of(b))
    if interval is not None and ranges.finite(interval) is not None:
        candidates.append(ranges.width(interval))
    ctx = dict(product.ctx)
    for name in params:
        for spread in candidates:
            moved = E.mul(entries, spread)
            if name in ctx and E.decide_le(moved, ctx[name]) is True:
                ctx[name] = moved
    return replace(product, ctx=ctx)


def _bilinear(a: Value, b: Value, result: T.Type, factor_a: E.Expr, factor_b: E.Expr,
              summed: E.Expr, report: Report) -> Value:
    """A product linear in each side: side x moves the result by at most F_x·B_other·Γ_x
    (F_x: ``factor_x``); an entry is a sum of ``summed`` products, each
    at most B_a·B_b. A public side moves nothing but needs the other's bound."""
    ctx = C.add(a.ctx, b.ctx)
    if "Data" in (T.scalar_kind_of(a.type), T.scalar_kind_of(b.type)):
        return Value(result, C.blow_up(ctx))  # any reals: clip them first, as for sums
    bounds = a.magnitude(), b.magnitude()
    entry = E.mul(summed, E.mul(*bounds)) if None not in bounds else None  # type: ignore[arg-type]
    if a.public and b.public:
        return Value(result, bound=entry)
    terms = []
    for moving, factor, other in ((a, factor_a, bounds[1]), (b, factor_b, bounds[0])):
        if moving.public:
            continue
        if other is None:
            report("DPS305", "a matrix product with a side whose largest entry is not known "
                   "(clip it)")
            return Value(result, C.blow_up(ctx))
        terms.append(C.scale(E.mul(factor, other), moving.ctx))
    return Value(result, C.total(terms), bound=entry)


def _rows(t: T.Type) -> E.Expr | None:
    """The rows of a matrix, the entries of a vector (a product sums over them)."""
    return t.rows if isinstance(t, T.Matrix) else t.length if isinstance(t, T.Vector) else None


def _width(t: T.Type) -> E.Expr:
    """Entries per row: a matrix's columns; a vector's rows are single entries."""
    return t.cols if isinstance(t, T.Matrix) else E.ONE


def _to_l1(t: T.Type) -> E.Expr:
    """N with Σ_i ‖Δ row i‖₁ ≤ N·d: a matrix's rows re-measured in L1, a vector's entries."""
    if isinstance(t, T.Matrix):
        return T.norm_factor(t.norm, "L1", t.cols)
    assert isinstance(t, T.Vector)
    return T.norm_factor(t.norm, "L1", t.length)


def _bounded_product(op: str, a: Value, b: Value, result_type: T.Type) -> Value | None:
    """``a * b`` and ``a ** k`` of sensitive values whose entries are bounded (np.clip):
    |ab − a'b'| ≤ |a|·|b − b'| + |b'|·|a − a'| ≤ B_a·d(b) + B_b·d(a) entrywise, and
    |a^k − a'^k| ≤ k·B^(k−1)·|a − a'| for a whole k ≥ 1 (R-bounded-product); None otherwise."""
    ma, mb = a.magnitude(), b.magnitude()
    if op == "*" and ma is not None and mb is not None:
        ctx = C.add(C.scale(E.mul(mb, embed_factor(a.type, result_type)), a.ctx),
                    C.scale(E.mul(ma, embed_factor(b.type, result_type)), b.ctx))
        return Value(result_type, ctx, bound=E.mul(ma, mb))
    k = b.exact
    if op == "**" and ma is not None and b.public and k is not None and k.is_Integer and k >= 1:
        slope = E.mul(k, E.power(ma, k - 1))
        return Value(result_type, C.scale(E.mul(slope, embed_factor(a.type, result_type)), a.ctx),
                     bound=E.power(ma, k))
    return None


def _list_operation(op: str, a: Value, b: Value) -> Value | None:
    """``a + b`` on two lists (concatenation), ``a * n`` and ``n * a`` on a list (n copies);
    None for other operands."""
    if op == "+" and is_list(a) and is_list(b):
        return concatenate(a, b)
    if op == "*" and is_list(a) != is_list(b):
        items, count = (a, b) if is_list(a) else (b, a)
        return repeated(items, count)
    return None


def _integer_division_factor(op: str, divisor: Value) -> E.Expr | None:
    """Integers a, a' and a known integer k ≠ 0: |⌊a/k⌋ − ⌊a'/k⌋| ≤ ⌈|a − a'|/|k|⌉ ≤
    |a − a'| (distances between integers are 0 or ≥ 1), and a % k, a' % k both lie in
    an interval of |k| integers, so they are at most |k| − 1 ≤ (|k| − 1)·|a − a'| apart."""
    k = divisor.exact
    if k is None or not k.is_integer or k == 0:
        return None
    return E.ONE if op == "//" else E.absolute(k) - 1


def _numeric(t: T.Type) -> bool:
    return isinstance(t, (T.Scalar, T.Vector, T.Matrix))


def result_type_of(op: str, operands: Sequence[Value],
                   shape: tuple[E.Expr, ...] | str | None = None) -> T.Type:
    """Shape (numpy's broadcast shape, unless the caller computed it), metric and element
    kind of an entrywise operation.

    The element kind and the norm come from the sensitive operands: a public
    operand is 0 away from itself in every metric, so its own metric is moot.
    UNKNOWN when the shapes do not broadcast to a known shape.
    """
    sensitive = [v for v in operands if not v.public] or list(operands)
    shaped = max(operands, key=lambda v: (_RANK[type(v.type)], not v.public))
    kinds = [T.scalar_kind_of(v.type) or "Real" for v in sensitive]
    all_kinds = {T.scalar_kind_of(v.type) or "Real" for v in operands}
    if "Data" in kinds:
        kind = "Data"
    elif all_kinds <= {"Integer", "Bool"} and op in _INTEGER_OPS and \
            (op != "**" or _natural(operands[-1])):  # 10 ** -6 is a float
        kind = "Integer"
    else:
        kind = "Real"
    normed = [v.type for v in sensitive if isinstance(v.type, (T.Vector, T.Matrix))]
    norm = normed[0].norm if normed else getattr(shaped.type, "norm", "L1")
    if shape is None:
        shape = broadcast_shape([v.type for v in operands])
    return shaped_type(shape, norm, kind)


def shaped_type(shape: tuple[E.Expr, ...] | str, norm: str, kind: str) -> T.Type:
    """The scalar, vector or matrix of a broadcast shape (UNKNOWN for a failure)."""
    if isinstance(shape, str):
        return UNKNOWN
    if len(shape) == 2:
        return T.Matrix(norm, kind, shape[0], shape[1])
    if len(shape) == 1:
        return T.Vector(norm, kind, shape[0])
    return T.Scalar(kind)


def _axes(t: T.Type) -> list[str]:
    """The size attributes of t in numpy's axis order (a vector is one row)."""
    if isinstance(t, T.Matrix):
        return ["rows", "cols"]
    if isinstance(t, T.Vector):
        return ["length"]
    return []


@E.remembered
def equal_sizes(a: E.Expr, b: E.Expr) -> bool:
    """Sizes decided equal for every value of their symbols."""
    return bool(a == b or sp.Eq(a, b) == sp.true)


@E.remembered
def different_sizes(a: E.Expr, b: E.Expr) -> bool:
    """Sizes decided different for every value of their symbols (``min(2, cols(m))``
    is never 5)."""
    if sp.Eq(a, b) == sp.false:
        return True
    for x, y in ((a, b), (b, a)):
        upper = _upper_bound(x)
        if upper is not None and upper < _lower_bound(y):
            return True
    return False


def _upper_bound(size: E.Expr) -> E.Expr | None:
    """A number no size of this form exceeds, where min/max of numbers show one."""
    if size.is_Number:
        return size
    if isinstance(size, sp.Min):
        known = [b for b in (_upper_bound(arg) for arg in size.args) if b is not None]
        return min(known) if known else None
    if isinstance(size, sp.Max):
        bounds = [_upper_bound(arg) for arg in size.args]
        return None if any(b is None for b in bounds) else max(bounds)  # type: ignore[type-var]
    return None


def _lower_bound(size: E.Expr) -> E.Expr:
    """A number every size of this form reaches: a size is never negative, and a
    dimension symbol is positive."""
    if size.is_Number:
        return size
    if size.is_positive and size.is_integer:
        return E.ONE
    if isinstance(size, sp.Max):
        return max(_lower_bound(arg) for arg in size.args)
    if isinstance(size, sp.Min):
        return min(_lower_bound(arg) for arg in size.args)
    return E.ZERO


def is_one(size: E.Expr) -> bool:
    """A size decided to be 1 (numpy stretches such an axis)."""
    return equal_sizes(size, E.ONE)


def broadcast_shape(types: Sequence[T.Type]) -> tuple[E.Expr, ...] | str:
    """numpy's broadcast shape of operands of these types, or why it is not known.

    Trailing axes are aligned (a vector is one row against a matrix); on each
    axis every size decided to be 1 stretches to the others, which must be
    decided equal; when they are not (``n`` against ``n + 1``: either may be 1),
    the size of the result is unknown.
    """
    rank = max((len(_axes(t)) for t in types), default=0)
    shape: list[E.Expr] = []
    for position in range(rank):  # position from the end
        sizes = [getattr(t, _axes(t)[-1 - position]) for t in types
                 if len(_axes(t)) > position]
        stretched = [s for s in sizes if not is_one(s)]
        if not stretched:
            shape.append(E.ONE)
            continue
        size = stretched[0]
        for other in stretched[1:]:
            if not equal_sizes(other, size):
                return (f"operands of shapes {_show_shapes(types)} broadcast to a shape "
                        f"that is not known: sizes {E.render(size)} and {E.render(other)} "
                        "are not known to be equal, or one of them 1")
        shape.append(size)
    return tuple(reversed(shape))


def _show_shapes(types: Sequence[T.Type]) -> str:
    return " and ".join(
        "(" + ", ".join(E.render(getattr(t, axis)) for axis in _axes(t))
        + ("," if len(_axes(t)) == 1 else "") + ")" for t in types)


def _natural(value: Value) -> bool:
    """A public value known to be a non-negative integer."""
    return value.public and value.exact is not None and bool(value.exact.is_integer) \
        and bool(value.exact.is_nonnegative)


def unify_sizes(operands: Sequence[Value], assume: Callable[[E.Expr], None]) -> list[Value]:
    """Aligned axes whose sizes are not known to match are assumed to match.

    numpy aligns trailing axes (a vector's length with a matrix's columns).
    On each axis the first operand whose size is not decided to be 1 is the
    reference; another size that is neither decided 1 (numpy stretches it,
    priced in embed_factor) nor provably different from the reference (the
    broadcast shape is then unknown: broadcast_shape) is assumed equal to it,
    and the assumption is reported: it says the bound relies on the sizes being
    equal (without it, a size-1 operand could move every entry, or widen the
    result).
    """
    out = list(operands)
    rank = max((len(_axes(v.type)) for v in out), default=0)
    for position in range(rank):
        members = [(i, _axes(v.type)[-1 - position]) for i, v in enumerate(out)
                   if len(_axes(v.type)) > position]
        members = [(i, axis) for i, axis in members if not is_one(getattr(out[i].type, axis))]
        if len(members) < 2:
            continue
        first, first_axis = members[0]
        theirs = getattr(out[first].type, first_axis)
        for i, axis in members[1:]:
            t = out[i].type
            mine = getattr(t, axis)
            if mine == theirs:
                continue
            if different_sizes(mine, theirs):
                continue  # the broadcast shape is unknown (broadcast_shape says why)
            if not equal_sizes(mine, theirs):
                assume(sp.Eq(mine, theirs))
            out[i] = Value(replace(t, **{axis: theirs}), out[i].ctx, out[i].exact, out[i].bound,
                           out[i].parts, rowwise=out[i].rowwise)
    return out


def unify_product(a: Value, b: Value, assume: Callable[[E.Expr], None]) -> Value:
    """b with the axis ``a @ b`` sums over sized as a's: numpy raises unless they are
    equal, so sizes not decided different are assumed equal, and the assumption is
    reported as unify_sizes does."""
    axis_a = "cols" if isinstance(a.type, T.Matrix) else "length"
    axis_b = "rows" if isinstance(b.type, T.Matrix) else "length"
    if not (isinstance(a.type, (T.Vector, T.Matrix)) and isinstance(b.type, (T.Vector, T.Matrix))):
        return b
    theirs, mine = getattr(a.type, axis_a), getattr(b.type, axis_b)
    if mine == theirs or different_sizes(mine, theirs):
        return b  # (different: a's size is kept, and the product says it is not analyzed)
    if not equal_sizes(mine, theirs):
        assume(sp.Eq(mine, theirs))
    return replace(b, type=replace(b.type, **{axis_b: theirs}))


def embed_factor(source: T.Type, target: T.Type) -> E.Expr:
    """Sensitivity of using an operand of type source, broadcast, as a value of type target."""
    n = getattr(target, "length", None) or getattr(target, "cols", E.ONE)
    if isinstance(target, T.Matrix):
        if isinstance(source, T.Matrix):
            factor = _stretched(source.norm, target.norm, source.cols, target.cols)
            # Rows broadcast from a single row move every row.
            return factor if equal_sizes(source.rows, target.rows) else E.mul(target.rows, factor)
        per_row = embed_factor(source, T.Vector(target.norm, target.elem, target.cols))
        return E.mul(target.rows, per_row)  # the same scalar or row moves every row
    if isinstance(target, T.Vector):
        if isinstance(source, T.Vector):
            return _stretched(source.norm, target.norm, source.length, n)
        return T.norm_factor("L_inf", target.norm, n)  # a scalar moves all n entries
    return E.ONE


def _stretched(source: str, target: str, size: E.Expr, full: E.Expr) -> E.Expr:
    """Re-measuring n entries in another norm; a size that may be 1 may broadcast."""
    factor = T.norm_factor(source, target, full)
    if equal_sizes(size, full):
        return factor
    if is_one(size):  # one entry copied to all: its distance is that entry's
        return T.norm_factor("L_inf", target, full)
    return E.smax(factor, T.norm_factor("L_inf", target, full))


def _static(op: str, a: Value, b: Value, result_type: T.Type) -> Value:
    if T.scalar_kind_of(result_type) != "Integer" and not _numbers(a, b):
        return _symbolic_float(op, a, b, result_type)
    exact, bound = None, None
    if a.exact is not None and b.exact is not None and op in _EXACT:
        try:
            exact = _EXACT[op](a.exact, b.exact)
        except (ZeroDivisionError, TypeError, ValueError):
            exact = None
        if exact is not None and exact.has(sp.zoo, sp.nan, sp.oo):
            exact = None
        if exact is not None and T.scalar_kind_of(result_type) != "Integer":
            exact, computed = _as_python_computes(op, a, b, exact)
            if exact is not None:
                return Value(result_type, C.EMPTY, exact, computed=computed)
    if exact is None and a.magnitude() is not None and b.magnitude() is not None:
        ma, mb = a.magnitude() or E.ZERO, b.magnitude() or E.ZERO
        bound = {"+": E.add(ma, mb), "-": E.add(ma, mb), "*": E.mul(ma, mb)}.get(op)
    return Value(result_type, C.EMPTY, exact, bound)


def _numbers(a: Value, b: Value) -> bool:
    """Both operands are known numbers whose floats are known (arith._float)."""
    return all(v.exact is not None and v.exact.is_number and v.rounding is None for v in (a, b))


def _symbolic_float(op: str, a: Value, b: Value, result_type: T.Type) -> Value:
    """A float operation on public values, one of them symbolic or rounded (R-float-static):
    the exact result is kept only while the float is that up to a relative 1e-12."""
    ra, rb = floats.view(a), floats.view(b)
    if ra is not None and rb is not None and op in _EXACT and op not in ("%", "//"):
        try:
            exact = _EXACT[op](ra.value, rb.value)
        except (ZeroDivisionError, TypeError, ValueError):
            exact = None
        if exact is not None and not exact.has(sp.zoo, sp.nan, sp.oo):
            rounding = floats.operation(op, a, b, exact)
            if rounding is not None:
                return floats.settle(result_type, rounding)
    bound = None
    ma, mb = floats.magnitude(a), floats.magnitude(b)
    if ma is not None and mb is not None and op in ("+", "-", "*"):
        bound = E.add(ma, mb) if op != "*" else E.mul(ma, mb)
    elif op == "%":
        bound = floats.remainder_bound(b)  # the result lies between 0 and b
    return Value(result_type, C.EMPTY, None, bound)


_FLOAT = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow}


def _as_python_computes(op: str, a: Value, b: Value, exact: E.Expr
                        ) -> tuple[E.Expr | None, float | None]:
    """(value, float) of a float operation as Python runs it, from the operands' floats.

    The value stays exact while the float is that up to rounding (a relative 1e-12,
    which the rounding caveat covers: 1.1 * 1.1 stays 121/100); once they part, it is
    the float (shortest decimal), since rounding compounds: (0.1 + 0.2 - 0.3) * 1e20 is
    5551.1 in Python, 0 exactly. (None, None) when the float is not known.
    """
    assert a.exact is not None and b.exact is not None
    if not (a.exact.is_number and b.exact.is_number and exact.is_number):
        return exact, None
    try:
        computed = _FLOAT[op](_float(a), _float(b))
    except (OverflowError, ZeroDivisionError, ValueError, TypeError):
        return None, None
    if isinstance(computed, complex) or computed != computed or abs(computed) == math.inf:
        return None, None
    nearest = float(exact)
    if abs(computed - nearest) <= _ROUNDING * abs(nearest):
        return exact, (computed if computed != nearest else None)
    return E.number(computed), None


def _float(value: Value) -> float:
    """The float Python holds for a known public number."""
    return value.computed if value.computed is not None else float(value.exact)  # type: ignore[arg-type]


# relative: many roundings of 2**-53; cancellation is far above it (one margin for all
# of R-float-static: floats.TOLERANCE)
_ROUNDING = float(floats.TOLERANCE)


def _discrete(a: Value, b: Value, result_type: T.Type) -> Value:
    """Data results: only a changed Data operand moves them, by at most one per entry."""
    ctx: C.Context = C.EMPTY
    for operand in (a, b):
        if operand.public:
            continue
        if T.scalar_kind_of(operand.type) != "Data":
            # A real operand that moves by a tiny amount changes Data entries by 1.
            ctx = C.add(ctx, C.blow_up(operand.ctx))
        else:
            ctx = C.add(ctx, C.scale(embed_factor(operand.type, result_type), operand.ctx))
    return Value(result_type, ctx)


def _scale_of(factor: Value, divide: bool) -> E.Expr | None:
    """How much multiplying by a public factor (dividing by it) scales each entry at most."""
    if isinstance(factor.type, (T.Vector, T.Matrix)):
        return None if divide else factor.bound
    if divide:
        return E.over_absolute(E.ONE, factor.exact) if factor.exact is not None else None
    return factor.magnitude()


def _scaled(factor: Value, other: Value, result_type: T.Type, report: Report,
            divide: bool) -> Value:
    """c·a or a/c with c public: |c|·s_a or s_a/|c|.

    A public array c: |c_i·Δa_i| ≤ B·|Δa_i| entrywise for entries at most B (np.ones:
    1), so every norm of the product's difference is at most B times a's. Dividing
    needs a lower bound on |c|; only the exact value of a number gives one.
    """
    scale = _scale_of(factor, divide)
    if scale is None:
        report("DPS305", "entrywise product with a public array: its largest entry is not known"
               if isinstance(factor.type, (T.Vector, T.Matrix)) else
               "the value of this public factor is not known")
        return Value(result_type, C.blow_up(other.ctx))
    factor = E.mul(scale, embed_factor(other.type, result_type))
    return pieces.summed(peaks.scaled(scale, other, Value(result_type, C.scale(factor, other.ctx))),
                         ((factor, other),))


def truth(value: Value) -> C.Context:
    """The context of a value used as a condition: 1 for discrete scalars, else unbounded."""
    if isinstance(value.type, T.Scalar) and T.is_discrete_metric(value.type):
        return value.ctx
    return C.blow_up(value.ctx)


_INTEGER_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y,
}


def compare(a: Value, b: Value, op: str | None = None, report: Report | None = None) -> Value:
    """``a < b``: a Bool (entrywise: a Data container), continuous only in discrete operands.

    Public integers with known values compare to a known Bool (1 or 0): Python's
    integers are exact, like sympy's (floats are not, so their results stay unknown).
    """
    if op in _INTEGER_COMPARISONS and all(_known_integer(v) for v in (a, b)):
        outcome = _INTEGER_COMPARISONS[op](int(a.exact), int(b.exact))  # type: ignore[arg-type]
        return Value(T.BOOL, C.EMPTY, exact=E.number(outcome))
    operands = [a, b]
    shaped = max(operands, key=lambda v: (_RANK.get(type(v.type), 0), not v.public)).type
    result_type: T.Type = T.BOOL
    if isinstance(shaped, (T.Vector, T.Matrix)):
        shape = broadcast_shape([v.type for v in operands if _numeric(v.type)])
        if isinstance(shape, str):
            if report is not None:
                report("DPS301", shape)
            return Value(UNKNOWN, C.blow_up(C.add(a.ctx, b.ctx)))
        result_type = shaped_type(shape, shaped.norm, "Data")
    ctx: C.Context = C.EMPTY
    for operand in operands:
        if T.is_discrete_metric(operand.type) and _numeric(operand.type):
            ctx = C.add(ctx, C.scale(embed_factor(operand.type, result_type), operand.ctx))
        else:
            ctx = C.add(ctx, C.blow_up(operand.ctx))
    if isinstance(result_type, (T.Vector, T.Matrix)):
        # Entries are 0 or 1: the discrete distance of the Data container (how many entries
        # differ, in the norm) is the distance of the same 0/1 entries as integers, so the
        # mask is an Integer container, which sums and means like numbers (L22).
        result_type = shaped_type(shape, shaped.norm, "Integer")
    return rowwise.mask(Value(result_type, ctx, bound=E.ONE, interval=ranges.UNIT),
                        operands)  # 0 or 1 (entrywise)


def _known_integer(value: Value) -> bool:
    return isinstance(value.type, T.Scalar) and value.type.kind in ("Integer", "Bool") \
        and value.public and value.exact is not None and bool(value.exact.is_Integer)


def boolean(op: str, values: Sequence[Value]) -> Value:
    """``a and b`` returns one of its operands; which one depends on the earlier ones' truth."""
    if all(v.type == T.BOOL for v in values):
        return Value(T.BOOL, C.total(truth(v) for v in values))
    result = values[-1]
    for value in reversed(values[:-1]):
        result = join(value, result)
    choice = C.total(C.blow_up(v.ctx) for v in values[:-1])
    return result.with_ctx(C.add(result.ctx, choice))


def invert(value: Value) -> Value:
    """``~x`` = -x - 1 on integers and bools: 1-sensitive."""
    if T.scalar_kind_of(value.type) in ("Integer", "Bool"):
        t = T.INTEGER if isinstance(value.type, T.Scalar) else value.type
        exact = -value.exact - 1 if value.exact is not None else None
        return Value(t, value.ctx, exact)
    return Value(UNKNOWN, C.blow_up(value.ctx))


def negate(value: Value) -> Value:
    """-x: 1-sensitive in every metric."""
    exact = -value.exact if value.exact is not None else None
    computed = -value.computed if value.computed is not None else None
    rounding = floats.negated(value.rounding) if value.rounding is not None else None
    # (no parts: an array's entries, kept by np.array, are negated too; -tuple is an error)
    return pieces.kept(Value(value.type, value.ctx, exact, value.bound, computed=computed,
                             rounding=rounding, rowwise=value.rowwise,
                             interval=ranges.negated(value.interval),
                             integral=value.integral), value)
