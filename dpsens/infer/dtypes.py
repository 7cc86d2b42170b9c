"""R-int-dtype (docs/rules.md D154): where a value the analysis calls Real may be held as
a Python or numpy integer, and an array of reals in an integer dtype.

A Real kind says what a value is measured as, not how Python holds it: ``max(0, y)``,
``0 if c else y`` and a name bound to 0 on one branch and to a float on the other give
the int operand for some data, and numpy makes an int64 array of numbers that are all
ints. Such an array truncates a real stored into it and raises on ``w += 0.5``. Every
value records in ``Value.integral`` whether it may be so held: None when it is certainly
a float (a float literal, a Real parameter, a ``/`` result, ``float(...)``, a mechanism's
output, any arithmetic with a float), else the inputs that decide whether it is (public
ones only: the empty context). The contexts are kept blown up (only their variables
matter: a store whose truncation they decide is a step in them).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Optional, Sequence

from dpsens import ir
from dpsens import types as T
from dpsens.sym import context as C

if TYPE_CHECKING:
    from dpsens.infer.summary import ParamSummary
    from dpsens.infer.values import Value

Integral = Optional[C.Context]
_UNKNOWN = T.Opaque("unknown")


def holds_reals(t: T.Type) -> bool:
    """A number or array of the Real kind, or a tuple or list that may hold one."""
    if isinstance(t, (T.TupleType, T.ListType)):
        return True
    return T.scalar_kind_of(t) == "Real"


def possible(value: Value) -> Integral:
    """What decides whether ``value`` is held as an integer (for a tuple or list: any of
    its elements); None when it certainly is not. Integers, truth values and Data (the
    caller's dtype) are integers for every input: the empty context."""
    kind = T.scalar_kind_of(value.type)
    if kind in ("Integer", "Bool", "Data") or value.type == _UNKNOWN:
        return C.EMPTY  # (what the analysis does not know may be an int: K.ZERO, D156)
    if kind == "Real" or isinstance(value.type, (T.TupleType, T.ListType)):
        return value.integral
    return None


def _union(found: Iterable[C.Context]) -> C.Context:
    return C.blow_up(C.total(found))


def upcast(values: Iterable[Value]) -> Integral:
    """numpy's and Python's arithmetic on these operands: a float if any is one; else an
    integer when they all are, which their own deciding inputs decide."""
    found = [possible(v) for v in values if T.scalar_kind_of(v.type) is not None
             or isinstance(v.type, (T.TupleType, T.ListType))]  # numpy makes arrays of them
    if not found or any(p is None for p in found):
        return None
    return _union(p for p in found if p is not None)


def chosen(values: Iterable[Value], deciding: C.Context) -> Integral:
    """One of the values, as Python picks it (max, min, a branch): an integer when an
    integer may be picked, which their own deciding inputs and ``deciding`` (what picks
    one) decide."""
    found = [possible(v) for v in values]
    if all(p is None for p in found):
        return None
    return _union([*(p for p in found if p is not None), deciding])


def elements(parts: Iterable[Value]) -> Integral:
    """A list's: an integer among its elements (None when none may be one)."""
    found = [p for p in map(possible, parts) if p is not None]
    return _union(found) if found else None


def marked(value: Value, integral: Integral) -> Value:
    """The value with ``integral`` recorded where it means something (Real numbers and
    arrays, tuples and lists): an Integer's kind already says what it is."""
    if not holds_reals(value.type):
        integral = None
    if integral is not None:
        integral = C.blow_up(integral)
    if integral == value.integral:
        return value
    return replace(value, integral=integral)


def joined(a: Value, b: Value, result: Value) -> Value:
    """A branch's join of two values: either one, as it was held (what chose it is added
    to the join's context, and so to this, by with_ctx)."""
    if isinstance(result.type, (T.TupleType, T.ListType)):
        return marked(result, elements([a, b]))
    return marked(result, chosen([a, b], C.EMPTY))


def _real_held_whole(value: Value) -> bool:
    """A Real (array) that may be held as an integer; an Integer array's kind says so."""
    return value.integral is not None and T.scalar_kind_of(value.type) == "Real"


def truncates(container: Value, stored: Value) -> C.Context | None:
    """R-int-dtype for ``x[i] = v``: when x may be an integer array and v is not an integer,
    the store may truncate (∞ in v, as the Integer rule says) and whether it does is a
    step in what decides x's dtype; None when it cannot truncate."""
    if not _real_held_whole(container) or T.scalar_kind_of(stored.type) in ("Integer", "Bool"):
        return None
    return container.integral


def raises_in_place(op: str, current: Value, operand: Value) -> C.Context | None:
    """What decides whether ``x op= v`` raises on an array (or numpy's 0-d array) held in
    an integer dtype: numpy will not cast a float result back into it. None when it
    cannot raise for this reason."""
    if not _real_held_whole(current):
        return None
    kind = T.scalar_kind_of(operand.type)
    if op != "/" and kind in ("Integer", "Bool"):
        return None  # an integer result fits an integer array
    return _union([current.integral or C.EMPTY, possible(operand) or C.EMPTY])


# Rules whose results are floats whatever they are given (a mean, a mechanism's noisy
# output), or integers, or that say themselves how theirs are held.
_OWN_RULES = frozenset({
    "join", "elementwise_lipschitz", "sum", "array", "zeros_like", "zeros", "astype", "float",
    "int", "bool", "len", "rows", "cols", "range", "histogram", "count", "count_nonzero",
    "mean", "variance", "standard_deviation", "order_statistic", "vector_norm", "clip",
    "laplace_mechanism", "gaussian_mechanism", "gaussian_mechanism_zcdp", "local_laplace",
    "report_noisy_max", "randomized_response", "kary_randomized_response",
    "concatenate", "hstack", "vstack", "stack", "column_stack"})
# Rules that return what a function of the user made (or their init for no rows).
_FOLDS = frozenset({"fold", "map_rows", "parallel_fold_rows"})


def by_rule(special: str | None, floats: bool, args: Iterable[Value], result: Value) -> Value:
    """How a stubbed function's result is held: as its rule says, a float where ``floats``
    (exp, log, sqrt, ...: numpy's and math's give floats of integers too); else as numpy
    promotes its arguments (an integer when none is a float). A fold's, or a map's, is
    what the user's function made: any number may be an integer."""
    if special in _OWN_RULES or floats or result.integral is not None \
            or not isinstance(result.type, (T.Scalar, T.Vector, T.Matrix, T.ListType)):
        return result
    args = list(args)
    if special in _FOLDS:
        return marked(result, _union([C.EMPTY, *(v.ctx for v in args)]))
    return marked(result, upcast(args))


# Calls that make an array of numbers, or of an array's dtype.
_ARRAY_MAKERS = frozenset({"array", "asarray", "copy", "zeros_like", "ones_like", "where",
                           "full", "full_like", "empty_like", "fromiter", "stack", "hstack",
                           "vstack", "column_stack", "concatenate"})


def builds_arrays(body: Sequence[ir.Stmt], analyzed: Callable[[ir.Expr], bool]) -> bool:
    """Whether a body may make or write arrays whose dtype a Real value's being a Python
    int would change: stores, op=, the array makers, and calls of ``analyzed`` functions
    (another function of the program may, and so may one passed for a Callable parameter:
    ``analyzed`` says which names those are)."""
    for node in ir.nodes(body):
        if isinstance(node, (ir.StoreTarget, ir.AugAssign)):
            return True
        if isinstance(node, ir.Call):
            func = node.func
            if isinstance(func, ir.Attribute) and func.attr in _ARRAY_MAKERS or \
                    isinstance(func, ir.Name) and func.id in _ARRAY_MAKERS or analyzed(func):
                return True
    return False


def _declares_reals(t: T.Type) -> bool:
    """A declared Real number or array, or a tuple or list with one among its parts."""
    if isinstance(t, T.TupleType):
        return any(map(_declares_reals, t.elts))
    if isinstance(t, T.ListType):
        return _declares_reals(t.elem)
    return T.scalar_kind_of(t) == "Real"


def given_integers(params: Iterable[ParamSummary], bound: dict[str, Value | None],
                   defaults: Mapping[str, Value]) -> Integral:
    """What decides whether a call passes an integer for a Real parameter, or leaves one
    its integer default (None: it passes floats there). A parameter whose default may be
    an integer was analyzed as one (``ParamSummary.integral``): an integer whose being one
    nothing the caller has decides is no news to it."""
    found = []
    for param in params:
        value = bound.get(param.name)
        value = defaults.get(param.name) if value is None else value
        if value is not None and not param.static and _declares_reals(param.type):
            held = possible(value)
            if held is not None and not (param.integral and C.is_public(held)):
                found.append(held)
    return _union(found) if found else None


def defaulted(default: Value | None) -> Integral:
    """How a Real parameter is held in its own body: as its default may be (an int
    default: an integer whenever a caller leaves it out, which no input decides)."""
    if default is None or possible(default) is None:
        return None
    return C.EMPTY


def held_parts(value: Value) -> tuple[bool, ...] | None:
    """Per part of a returned tuple whose parts are known, whether it may be an integer."""
    if value.parts is None:
        return None
    return tuple(possible(part) is not None for part in value.parts)


def returned(result: Value, given: Integral, own: bool,
             parts: tuple[bool, ...] | None = None) -> Value:
    """A call's result: an integer where the callee's may be one (decided by what it was
    given), or where it was given integers for Real parameters (it may return them). A
    declared ``-> Real`` does not make an int returned a float: ``own`` is the body's."""
    if given is None and not own:
        return result
    deciding = _union([given or C.EMPTY, result.ctx])
    if result.parts is not None and parts is not None and len(parts) == len(result.parts):
        # Each part as the body returned it; an integer given may end up in any of them.
        result = replace(result, parts=tuple(
            marked(part, deciding) if given is not None or mine else part
            for part, mine in zip(result.parts, parts)))
    elif result.parts is not None:
        result = replace(result, parts=tuple(marked(part, deciding) for part in result.parts))
    return marked(result, deciding)


def held_as_integers(args: Sequence[Value], held: Sequence[bool]) -> list[Value]:
    """Arguments a caller may pass as integers held as Reals, marked so."""
    return [marked(a, C.EMPTY) if i < len(held) and held[i] else a for i, a in enumerate(args)]
