"""Load stub files (the user vocabulary, parsed never imported) into one rule table."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from dpsens import ir
from dpsens import types as T
from dpsens.infer import dtypes, floats
from dpsens.infer.binding import BindError, bind
from dpsens.infer.values import UNKNOWN, Value, tuple_value, unknown
from dpsens.rules import slopes
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis

from dpsens.rules import stub_files  # noqa: E402


@dataclass(frozen=True)
class RuleParam:
    """One parameter of a stubbed function."""

    name: str
    static: bool
    has_default: bool
    annotation: ir.Expr | None


@dataclass(frozen=True)
class Slope:
    """@slope: sup |f'| over the interval [lo, hi] of the argument, where ``domain`` (f is
    defined on [lo, hi]) holds, and the ends of f's image of [lo, hi] (R-slope)."""

    bound: str
    domain: str | None = None
    low: str | None = None
    high: str | None = None
    floats: bool = True  # False: an integer argument gives integers (np.sign keeps the dtype)


@dataclass
class Rule:
    """The typing rule of one stubbed function."""

    qualname: str
    params: tuple[RuleParam, ...]
    returns: ir.Expr | None
    module: ir.Module
    sensitivity: dict[str, str] = field(default_factory=dict)
    special: str | None = None
    static_value: str | None = None
    typevars: frozenset[str] = frozenset()
    entrywise: bool = False  # a ufunc: an array for its one number is taken entry by entry
    slope: Slope | None = None  # its number's sensitivity is its slope over its interval


class RuleTable:
    """All rules by qualified name (``numpy.sum``, ``dpsens.clip``, ``builtins.abs``)."""

    def __init__(self, stub_dirs: Sequence[Path] = ()) -> None:
        self.rules: dict[str, Rule] = {}
        for path in stub_files(stub_dirs):
            self._load(path)

    def get(self, qualname: str | None) -> Rule | None:
        """The rule of a qualified name, if a stub declares one."""
        return self.rules.get(qualname) if qualname else None

    def _load(self, path: Path) -> None:
        from dpsens.workers import parsed_stub

        module, _ = parsed_stub(path)  # a broken stub is reported by check._broken_stubs
        if module is None:
            return
        typevars = frozenset(
            name for name, value in module.constants.items()
            if isinstance(value, ir.Call) and ir.dotted_name(value.func) in ("TypeVar", "typing.TypeVar")
        )
        for function in module.functions:
            self.rules[f"{path.stem}.{function.name}"] = _rule(function, module, path.stem, typevars)

    def apply(self, a: Analysis, rule: Rule, args: Sequence[Value],
              keywords: dict[str, Value], span: ir.Span) -> Value:
        """The value of a call to a stubbed function, and how it is held (R-int-dtype)."""
        result = self._apply(a, rule, args, keywords, span)
        floats = rule.slope is not None and rule.slope.floats
        return dtypes.by_rule(rule.special, floats, [*args, *keywords.values()], result)

    def _apply(self, a: Analysis, rule: Rule, args: Sequence[Value],
               keywords: dict[str, Value], span: ir.Span) -> Value:
        """The value of a call to a stubbed function."""
        from dpsens.rules import special

        if rule.special == "join" and rule.qualname.startswith("builtins.") \
                and len(args) > 2 and not keywords:
            args = [tuple_value(tuple(args))]  # max(a, b, c) is max((a, b, c))
        try:
            bound = bind([p.name for p in rule.params], [p.has_default for p in rule.params],
                         args, keywords)
        except BindError as error:
            return a.refuse(span, f"{rule.qualname.split('.')[-1]}() {error}",
                            (*args, *keywords.values()))
        values = [v for v in bound.values() if v is not None]
        if any(v.type == UNKNOWN and not v.public for v in values):
            return unknown(C.total(v.ctx for v in values))  # already reported where it arose
        if rule.entrywise:
            array = _entrywise_argument(rule, bound)
            if array is not None:
                return _entrywise(a, rule, bound, array, span)
        for param in rule.params:
            value = bound[param.name]
            if value is not None and _scalar(param) and isinstance(
                    value.type, (T.Vector, T.Matrix, T.TupleType, T.ListType)):
                # numpy would broadcast the other arguments against this array: every
                # rule reads such parameters as one number.
                a.report(span, "DPS301", f"argument '{param.name}' of {rule.qualname.split('.')[-1]}() "
                                         f"must be a scalar, not {value.type.show()}")
                return unknown(C.total(v.ctx for v in values))
        if rule.special is not None:
            return special.RULES[rule.special](a, rule, bound, span)
        return signature_rule(a, rule, bound, span)


def _rule(function: ir.Function, module: ir.Module, stem: str, typevars: frozenset[str]) -> Rule:
    params = tuple(
        RuleParam(p.name, _is_static(p.annotation), p.default is not None, p.annotation)
        for p in function.params
    )
    rule = Rule(f"{stem}.{function.name}", params, function.returns, module, typevars=typevars)
    for decorator in function.decorators:
        if not isinstance(decorator, ir.Call):
            continue
        kind = ir.dotted_name(decorator.func)
        strings = [_text(a) for a in decorator.args]
        if kind == "rule" and strings:
            rule.special = strings[0]
        elif kind == "static_value" and strings:
            rule.static_value = strings[0]
        elif kind == "sensitivity":
            rule.sensitivity = {k.name: _text(k.value) for k in decorator.keywords}
        elif kind == "entrywise":
            rule.entrywise = True
        elif kind == "slope" and strings:
            rule.slope = Slope(strings[0], **{k.name: _text(k.value) for k in decorator.keywords
                                              if k.name in ("domain", "low", "high")},
                               floats=all(k.name != "floats" or _text(k.value) != "False"
                                          for k in decorator.keywords))
    return rule


_SCALARS = ("float", "int", "bool", "Real", "Integer", "Bool")


def _scalar(param: RuleParam) -> bool:
    """A parameter declared one number: Static[float], Static[int], Static[bool], or Real,
    Integer, Data, Bool (numpy would broadcast an array or tuple passed there)."""
    annotation = param.annotation
    if param.static:
        return isinstance(annotation, ir.Subscript) and len(annotation.index) == 1 \
            and isinstance(annotation.index[0], ir.Name) and annotation.index[0].id in _SCALARS
    return isinstance(annotation, ir.Name) and annotation.id in ("Real", "Integer", "Data", "Bool")


def _is_static(annotation: ir.Expr | None) -> bool:
    return isinstance(annotation, ir.Subscript) and (ir.dotted_name(annotation.value) or "").endswith("Static")


def _text(expr: ir.Expr) -> str:
    if isinstance(expr, ir.Const):
        return str(expr.value)
    if isinstance(expr, ir.UnaryOp) and isinstance(expr.operand, ir.Const):
        return f"{expr.op}{expr.operand.value}"
    return "inf"


def bound_dimensions(bound: dict[str, Value | None]) -> dict[str, dict[str, E.Expr]]:
    """Per parameter, the dimensions of its argument (len, rows, cols)."""
    from dpsens import types as T

    out: dict[str, dict[str, E.Expr]] = {}
    for name, value in bound.items():
        if value is None:
            continue
        if isinstance(value.type, T.Vector):
            out[name] = {"len": value.type.length, "rows": value.type.length}
        elif isinstance(value.type, T.Matrix):
            out[name] = {"len": value.type.rows, "rows": value.type.rows, "cols": value.type.cols}
    return out


@lru_cache(maxsize=None)
def _template(text: str, names: tuple[str, ...]) -> E.Expr:
    """A stub expression with placeholders ``§p`` and ``§len(p)`` for later substitution."""
    import sympy as sp

    symbols: dict[str, object] = {n: sp.Symbol(f"§{n}") for n in names}
    for kind in ("len", "rows", "cols"):
        symbols[kind] = lambda s, kind=kind: sp.Symbol(f"§{kind}({str(s)[1:]})")
    return E.parse(text, symbols)


def instantiate(text: str, bound: dict[str, Value | None],
                ends: dict[str, E.Expr] | None = None) -> E.Expr | None:
    """A stub expression at a call site (``ends``: the values of further names, R-slope's
    lo and hi); None when it needs an unknown static value."""
    import sympy as sp

    ends = ends or {}
    template = _template(text, tuple(sorted(bound)) + tuple(sorted(ends)))
    mapping: dict[E.Expr, E.Expr] = {sp.Symbol(f"§{name}"): end for name, end in ends.items()}
    for name, value in bound.items():
        if value is not None and value.exact is not None:
            mapping[sp.Symbol(f"§{name}")] = value.exact
    for name, dims in bound_dimensions(bound).items():
        for kind, dim in dims.items():
            mapping[sp.Symbol(f"§{kind}({name})")] = dim
    result = E.substitute(template, mapping)
    if any(str(s).startswith("§") for s in result.free_symbols):
        return None
    return result


def signature_rule(a: Analysis, rule: Rule, bound: dict[str, Value | None], span: ir.Span) -> Value:
    """Σ_p s_p·Γ_p with the stub's sensitivities (inf where none is declared), or the
    number's slope over its interval (R-slope)."""
    stretch = slopes.stretch(a, rule, bound)
    ctx: C.Context = C.EMPTY
    for param in rule.params:
        value = bound[param.name]
        if value is None:
            continue
        if param.static:
            ctx = C.add(ctx, require_static(a, value, param.name, rule, span))
            continue
        ctx = C.add(ctx, C.scale(_sensitivity(rule, param, bound, stretch), value.ctx))
    result_type = return_type(a, rule, bound)
    exact = None
    if rule.static_value and all(v is None or v.public for v in bound.values()):
        exact = instantiate(rule.static_value, bound)
    if exact is not None and C.is_public(ctx):
        # The library's float of the argument's float (R-float-static).
        rounding = floats.library(rule.qualname.split(".")[-1], first_argument(bound), exact)
        if rounding is not None:
            return floats.settle(result_type, rounding)
    return slopes.imaged(Value(result_type, ctx, None), stretch)


def _sensitivity(rule: Rule, param: RuleParam, bound: dict[str, Value | None],
                 stretch: slopes.Stretch | None) -> E.Expr:
    """A non-static parameter's factor: its slope over its interval (R-slope) for a rule's
    number, else the stub's @sensitivity (inf where none is declared)."""
    if stretch is not None and stretch.param == param.name:
        return stretch.factor
    factor = instantiate(rule.sensitivity.get(param.name, "inf"), bound)
    return E.INF if factor is None else factor


def number_parameter(rule: Rule) -> RuleParam | None:
    """The one non-static parameter of a rule, if it has exactly one."""
    numbers = [p for p in rule.params if not p.static]
    return numbers[0] if len(numbers) == 1 else None


def _entrywise_argument(rule: Rule, bound: dict[str, Value | None]) -> RuleParam | None:
    """The one non-static parameter of an entrywise rule when it is given an array."""
    number = number_parameter(rule)
    value = bound[number.name] if number is not None else None
    return number if value is not None and isinstance(value.type, (T.Vector, T.Matrix)) else None


def _entrywise(a: Analysis, rule: Rule, bound: dict[str, Value | None], param: RuleParam,
               span: ir.Span) -> Value:
    """A ufunc of an array: |f(x_i) − f(y_i)| ≤ s·|x_i − y_i| in every entry, so every norm
    of the change (and a matrix's sum of its rows') grows by at most s; Data entries are
    unbounded reals (as for abs). The result has real entries, no known values; with a
    slope (R-slope), s is the slope over the entries' interval (for Data entries the width
    of the image, which a changed entry's result stays in), and the result's entries lie
    in its image."""
    array = bound[param.name]
    assert array is not None
    ctx = C.EMPTY
    for other in rule.params:
        value = bound[other.name]
        if other.static and value is not None:
            ctx = C.add(ctx, require_static(a, value, other.name, rule, span))
    stretch = slopes.stretch(a, rule, bound)
    factor = _sensitivity(rule, param, bound, stretch)
    if T.scalar_kind_of(array.type) == "Data" and stretch is None:
        factor = E.INF
    result = Value(T.with_real_entries(array.type), C.add(ctx, C.scale(factor, array.ctx)))
    return slopes.imaged(result, stretch)


def first_argument(bound: dict[str, Value | None]) -> Value:
    """The value bound to a rule's first parameter (always given)."""
    value = next(iter(bound.values()))
    assert value is not None
    return value


def require_static(a: Analysis, value: Value, name: str, rule: Rule, span: ir.Span) -> C.Context:
    """DPS304 when a static parameter gets a sensitive value; that value becomes unbounded."""
    if value.public:
        return C.EMPTY
    short = rule.qualname.split(".")[-1]
    a.report_about(span, value.ctx, "DPS304", f"argument '{name}' of {short}() must be "
                   "static (public)")
    return C.blow_up(value.ctx)


def return_type(a: Analysis, rule: Rule, bound: dict[str, Value | None]):  # type: ignore[no-untyped-def]
    """The declared return type: a TypeVar takes its argument's type."""
    from dpsens import types as T

    returns = rule.returns
    if isinstance(returns, ir.Name) and returns.id in rule.typevars:
        for param in rule.params:
            if isinstance(param.annotation, ir.Name) and param.annotation.id == returns.id:
                value = bound[param.name]
                if value is not None:
                    return value.type
    if returns is None:
        return T.REAL
    resolved = a.program.annotation_type(rule.module, returns, None)
    return resolved if resolved is not None else T.REAL
