"""Resolve annotation expressions (IR) to metric types, with coded diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from dpsens import fastinit, ir
from dpsens import types as T
from dpsens.diagnostics import Span
from dpsens.sym import expr as E

Qualify = Callable[[ir.Expr], "str | None"]

_SCALARS = {
    "dpsens.Real": "Real", "dpsens.Integer": "Integer", "dpsens.Data": "Data",
    "dpsens.Bool": "Bool", "builtins.float": "Real", "builtins.int": "Integer",
    "builtins.bool": "Bool",
}
_NORMS = {"dpsens.L1": "L1", "dpsens.L2": "L2", "dpsens.L_inf": "L_inf", "dpsens.LInf": "L_inf"}
_WRAPPERS = {"dpsens.Static": "static", "dpsens.Priv": "priv", "dpsens.BlackBox": "black_box",
             "dpsens.Local": "local"}
_CONTAINERS = {
    "dpsens.MetricVector": (2, "vector"), "dpsens.MetricMatrix": (2, "matrix"),
    "dpsens.ClippedVector": (3, "vector"), "dpsens.ClippedMatrix": (3, "matrix"),
}
_CALLABLES = {"typing.Callable", "collections.abc.Callable"}
VOCABULARY = {*(n for n in _SCALARS if n.startswith("dpsens.")), *_NORMS, *_WRAPPERS, *_CONTAINERS,
              "dpsens.PrivacyFunction", "dpsens.Norm", "dpsens.Messages"}


@dataclass(frozen=True)
class Annotation:
    """What an annotation says: a metric type and the wrappers around it."""

    type: T.Type
    text: str
    static: bool = False
    priv: bool = False
    black_box: bool = False
    callable_kind: str | None = None  # "sensitivity" | "privacy" for function parameters
    messages: bool = False  # the collected reports of a local randomizer (public)
    local: bool = False  # -> Local[T]: a local randomizer of one record
    bound: float | None = None  # a configured value for a static parameter
    problems: list[tuple[Span, str, str]] = field(default_factory=list)  # span, code, message


def written_key(expr: ir.Expr) -> object:
    """What an annotation made of names, attributes, subscripts and constants says,
    without positions (a cheap ir.written); None for anything else."""
    if isinstance(expr, ir.Name):
        return expr.id
    if isinstance(expr, ir.Attribute):
        inner = written_key(expr.value)
        return None if inner is None else (inner, expr.attr)
    if isinstance(expr, ir.Subscript):
        parts = [written_key(expr.value), *(None if isinstance(i, ir.Slice) else written_key(i)
                                            for i in expr.index)]
        return None if None in parts else ("[]", *parts)
    if isinstance(expr, ir.Const) and isinstance(expr.value, (str, int, float, type(None))):
        return ("const", type(expr.value), expr.value)
    return None


def _holds_arrays(t: T.Type) -> bool:
    """Whether a type is or holds a vector or matrix (which have sizes)."""
    if isinstance(t, (T.Vector, T.Matrix)):
        return True
    if isinstance(t, T.TupleType):
        return any(_holds_arrays(e) for e in t.elts)
    return isinstance(t, T.ListType) and _holds_arrays(t.elem)


class AnnotationResolver:
    """Resolves one annotation; ``owner`` names the dimensions (rows(x), ...)."""

    def __init__(self, qualify: Qualify, owner: str,
                 aliased: Callable[[ir.Expr], ir.Expr | None] | None = None) -> None:
        self.qualify = qualify
        self.owner = owner
        self.problems: list[tuple[Span, str, str]] = []
        # A module-level alias (Row = MetricVector[L_inf, Data]) as the type it names.
        self.aliased = aliased
        self._expanded = 0

    def resolve(self, expr: ir.Expr) -> Annotation:
        """The annotation for a parameter or return annotation."""
        flags = {"static": False, "priv": False, "black_box": False, "local": False}
        expr = self._expanded_alias(self._unquoted(expr))
        while isinstance(expr, ir.Subscript) and self.qualify(expr.value) in _WRAPPERS:
            flags[_WRAPPERS[self.qualify(expr.value) or ""]] = True
            if len(expr.index) != 1 or isinstance(expr.index[0], ir.Slice):
                self._problem(expr, "DPS102", "Static/Priv/BlackBox take exactly one type")
                return Annotation(T.Opaque("?"), "?", problems=self.problems, **flags)
            expr = self._expanded_alias(self._unquoted(expr.index[0]))
        if flags["black_box"]:
            # The result of a black box has no metric until unbox() gives it one.
            text = f"BlackBox[{ir.source_text(expr)}]"
            return Annotation(T.Opaque("BlackBox"), text, problems=self.problems, **flags)
        name = self.qualify(expr)
        if name == "dpsens.PrivacyFunction":
            return Annotation(T.Opaque("PrivacyFunction"), "PrivacyFunction", callable_kind="privacy",
                              problems=self.problems, **flags)
        base = self.qualify(expr.value) if isinstance(expr, ir.Subscript) else name
        if base == "dpsens.Messages" and isinstance(expr, ir.Subscript) and len(expr.index) == 1:
            element = _SCALARS.get(self.qualify(expr.index[0]) or "")  # type: ignore[arg-type]
            if element is not None:
                vector = T.Vector("L1", element, E.dimension("len", self.owner))
                return Annotation(vector, f"Messages[{element}]", messages=True,
                                  problems=self.problems, **flags)
            self._problem(expr, "DPS102", "Messages takes one element type (Real, Integer, Data, Bool)")
        if base in _CALLABLES:
            text = "Callable"
            return Annotation(T.Opaque("Callable"), text, callable_kind="sensitivity",
                              problems=self.problems, **flags)
        metric_type, text = self.metric(expr)
        if flags["static"]:
            text = f"Static[{_python_name(text)}]"
        return Annotation(metric_type, text, problems=self.problems, **flags)

    def _expanded_alias(self, expr: ir.Expr) -> ir.Expr:
        """The type a module-level alias names (``Row = MetricVector[L_inf, Data]``,
        ``Pub = Static[float]``, ``Row2 = Row``), followed to its end."""
        while self.aliased is not None and self._expanded < 10:  # (an alias of itself stops)
            target = self.aliased(expr)
            if target is None:
                break
            self._expanded += 1
            expr = self._unquoted(target)
        return expr

    def _unquoted(self, expr: ir.Expr) -> ir.Expr:
        """A type written as a string (``x: "Real"``, a forward reference) as the expression
        it holds, every part at the string's position; DPS101 if it does not parse."""
        if isinstance(expr, ir.Subscript):  # MetricVector["L1", "Real"]
            index = tuple(p if isinstance(p, ir.Slice) else self._unquoted(p) for p in expr.index)
            return replace(expr, index=index) if index != expr.index else expr
        if not (isinstance(expr, ir.Const) and isinstance(expr.value, str)):
            return expr
        from dpsens.frontend.strings import parsed_string

        parsed = parsed_string(expr.value)
        if parsed is None:
            return expr  # metric() reports it as an unknown annotation
        return self._unquoted(_at(parsed, expr.span))  # type: ignore[arg-type]

    def metric(self, expr: ir.Expr) -> tuple[T.Type, str]:
        """The metric type of a (non-wrapper) annotation and its canonical text."""
        expr = self._expanded_alias(self._unquoted(expr))
        name = self.qualify(expr)
        if name in _SCALARS:
            return T.Scalar(_SCALARS[name]), _SCALARS[name]
        if name is not None and name.startswith("builtins.") and name[9:] in ("str", "None"):
            return T.Opaque(name[9:]), name[9:]
        if isinstance(expr, ir.Const) and expr.value is None:
            return T.Opaque("None"), "None"
        if isinstance(expr, ir.Subscript):
            base = self.qualify(expr.value)
            if base in _CONTAINERS:
                return self._container(expr, base)
            if base == "builtins.tuple":
                # Each component has sizes of its own: len(p[0]), len(p[1]), not len(p).
                owner, parts = self.owner, []
                for position, e in enumerate(i for i in expr.index if not isinstance(i, ir.Slice)):
                    self.owner = f"{owner}[{position}]"
                    parts.append(self.metric(e))
                self.owner = owner
                t = T.TupleType(tuple(p[0] for p in parts))
                return t, "tuple[" + ", ".join(p[1] for p in parts) + "]"
            if base == "builtins.list" and len(expr.index) == 1 \
                    and not isinstance(expr.index[0], ir.Slice):
                elem, text = self.metric(expr.index[0])
                if _holds_arrays(elem):
                    # Its elements may differ in length: no one size stands for them all.
                    self._problem(expr, "DPS102", f"list[{text}]: the arrays of a list may differ "
                                  "in size; use a MetricMatrix (rows of one length) or a tuple")
                    return T.Opaque("?"), f"list[{text}]"
                return T.ListType(elem), f"list[{text}]"
        if name in _CONTAINERS:
            self._problem(expr, "DPS102", f"{name.split('.')[-1]} needs a norm and an element type")
            return T.Opaque("?"), name.split(".")[-1]
        shown = (name or _source_text(expr)).removeprefix("builtins.")
        hint = " (use MetricVector/MetricMatrix to give it a metric)" if "ndarray" in shown else ""
        self._problem(expr, "DPS101", f"unknown annotation '{shown}'{hint}")
        return T.Opaque(shown), shown

    def _container(self, expr: ir.Subscript, base: str) -> tuple[T.Type, str]:
        arity, shape = _CONTAINERS[base]
        short = base.split(".")[-1]
        args = [self.qualify(e) if not isinstance(e, ir.Slice) else None for e in expr.index]
        if len(args) != arity:
            self._problem(expr, "DPS102", f"{short} takes {arity} arguments, got {len(args)}")
            return T.Opaque("?"), short
        *norms, element = args
        element_kind = _SCALARS.get(element or "")
        if element_kind is None or element_kind == "Bool":
            self._problem(expr, "DPS102",
                          f"{short}: the element type must be Real, Integer or Data, "
                          f"got '{_arg_text(expr.index[-1], element)}'")
            return T.Opaque("?"), short
        resolved = [_NORMS.get(n or "") for n in norms]
        for position, norm in enumerate(resolved):
            if norm is None:
                self._problem(expr, "DPS102",
                              f"{short}: expected a norm (L1, L2, L_inf), "
                              f"got '{_arg_text(expr.index[position], norms[position])}'")
                return T.Opaque("?"), short
        clip = resolved[0] if arity == 3 else None
        norm = resolved[-1] or "L1"
        text = f"{short}[{', '.join([*(r or '' for r in resolved), element_kind])}]"
        if shape == "vector":
            return T.Vector(norm, element_kind, E.dimension("len", self.owner), clip), text
        rows, cols = E.dimension("rows", self.owner), E.dimension("cols", self.owner)
        return T.Matrix(norm, element_kind, rows, cols, clip), text

    def _problem(self, expr: ir.Expr, code: str, message: str) -> None:
        self.problems.append((expr.span, code, message))


def _python_name(text: str) -> str:
    return {"Real": "float", "Integer": "int", "Bool": "bool"}.get(text, text)


def _arg_text(expr: ir.Expr | ir.Slice, qualified: str | None) -> str:
    if qualified:
        return qualified.split(".")[-1]
    return _source_text(expr) if not isinstance(expr, ir.Slice) else ":"


def _source_text(expr: ir.Expr) -> str:
    return ir.source_text(expr)


def _at(node: object, span: Span) -> object:
    """An IR tree with every node's span replaced (a string annotation has one position)."""
    if isinstance(node, tuple):
        return tuple(_at(item, span) for item in node)
    if not hasattr(node, "__dataclass_fields__"):
        return node
    changes = {f: _at(getattr(node, f), span) for f in node.__dataclass_fields__ if f != "span"}
    return replace(node, span=span, **changes)  # type: ignore[type-var]


# Frozen dataclasses are built by the ten thousand: store their fields directly (fastinit).
fastinit.faster(vars())
