"""The analyzable subset as frozen dataclasses; every node carries its span."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Callable, Union

from dpsens import fastinit
from dpsens.diagnostics import Span as Span  # re-exported: ir.Span in signatures


@dataclass(frozen=True)
class Const:
    """A literal number, bool, string or None."""

    span: Span
    value: object


@dataclass(frozen=True)
class Name:
    """A bare name; resolved by inference (locals first, then module scope)."""

    span: Span
    id: str


@dataclass(frozen=True)
class Attribute:
    """``value.attr``."""

    span: Span
    value: Expr
    attr: str


@dataclass(frozen=True)
class Keyword:
    """One ``name=value`` argument of a call."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Call:
    """A call with positional and keyword arguments (no ``*args``)."""

    span: Span
    func: Expr
    args: tuple[Expr, ...]
    keywords: tuple[Keyword, ...] = ()


@dataclass(frozen=True)
class BinOp:
    """Binary arithmetic; op is the Python operator text (``+``, ``*``, ...)."""

    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class UnaryOp:
    """``-x``, ``+x`` or ``not x``."""

    span: Span
    op: str
    operand: Expr


@dataclass(frozen=True)
class Compare:
    """One comparison ``left op right`` (chains are lowered to ``and``)."""

    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class BoolOp:
    """``and`` / ``or`` over two or more values."""

    span: Span
    op: str
    values: tuple[Expr, ...]


@dataclass(frozen=True)
class IfExp:
    """``body if test else orelse``."""

    span: Span
    test: Expr
    body: Expr
    orelse: Expr


@dataclass(frozen=True)
class Slice:
    """``lower:upper:step`` inside a subscript; missing parts are None."""

    span: Span
    lower: Expr | None
    upper: Expr | None
    step: Expr | None


@dataclass(frozen=True)
class Subscript:
    """``value[i]``, ``value[i, j]``, ``value[i, :]`` (also type annotations)."""

    span: Span
    value: Expr
    index: tuple[Expr | Slice, ...]


@dataclass(frozen=True)
class TupleExpr:
    """A tuple display (or a list display, which reads the same until changed)."""

    span: Span
    elts: tuple[Expr, ...]
    is_list: bool = False  # a list: calls and methods may change it in place


@dataclass(frozen=True)
class Lambda:
    """``lambda a, b: body``."""

    span: Span
    params: tuple[Param, ...]
    body: Expr


@dataclass(frozen=True)
class Unsupported:
    """An expression outside the subset; ``kind`` names the construct."""

    span: Span
    kind: str
    names: tuple[str, ...] = ()  # the names it reads, which become unbounded
    assigned: tuple[str, ...] = ()  # names it binds (``:=`` leaves a comprehension)
    reached: tuple[str, ...] = ()  # names whose arrays its calls may write into
    # A list comprehension or generator expression with one ``for``: analyzed as the
    # loop that builds its list (infer.engine.comprehension), where it is evaluated.
    comprehension: Comprehension | None = None


@dataclass(frozen=True)
class Comprehension:
    """``[elt for target in iter if condition]`` (or a generator expression)."""

    span: Span
    elt: Expr
    target: Target
    iter: Expr
    condition: Expr | None
    # A generator expression runs where it is consumed: analyzed only as the direct
    # argument of this builtin (``sum(e for e in v)``), which consumes it at once.
    consumer: str | None = None
    generator: bool = False


Expr = Union[
    Const, Name, Attribute, Call, BinOp, UnaryOp, Compare, BoolOp, IfExp,
    Subscript, TupleExpr, Lambda, Unsupported,
]


@dataclass(frozen=True)
class Param:
    """A function parameter with its annotation (as an expression) and default."""

    span: Span
    name: str
    annotation: Expr | None = None
    default: Expr | None = None


@dataclass(frozen=True)
class NameTarget:
    """An assignment target that binds a name."""

    span: Span
    id: str


@dataclass(frozen=True)
class TupleTarget:
    """A tuple-unpacking assignment target."""

    span: Span
    elts: tuple[Target, ...]


@dataclass(frozen=True)
class StoreTarget:
    """A subscript or attribute target: an in-place mutation of ``base``."""

    span: Span
    base: str | None
    target: Expr | None = None  # the subscript or attribute expression stored into


Target = Union[NameTarget, TupleTarget, StoreTarget]


@dataclass(frozen=True)
class Assign:
    """``t1 = t2 = value``."""

    span: Span
    targets: tuple[Target, ...]
    value: Expr


@dataclass(frozen=True)
class AugAssign:
    """``target op= value``."""

    span: Span
    target: Target
    op: str
    value: Expr


@dataclass(frozen=True)
class Return:
    """``return value`` (value None for a bare return)."""

    span: Span
    value: Expr | None


@dataclass(frozen=True)
class Raise:
    """``raise value`` (value None for a bare raise); ``assert t, m`` is ``if not t: raise m``."""

    span: Span
    value: Expr | None


@dataclass(frozen=True)
class If:
    """``if test: body else: orelse`` (elif is a nested If in orelse)."""

    span: Span
    test: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@dataclass(frozen=True)
class For:
    """``for target in iter: body``."""

    span: Span
    target: Target
    iter: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class ExprStmt:
    """An expression evaluated for its effect (docstrings included)."""

    span: Span
    value: Expr


@dataclass(frozen=True)
class FunctionDef:
    """A nested ``def``."""

    span: Span
    function: Function


@dataclass(frozen=True)
class UnsupportedStmt:
    """A statement outside the subset; ``assigned`` names become unbounded."""

    span: Span
    kind: str
    assigned: tuple[str, ...] = ()
    reached: tuple[str, ...] = ()  # names whose arrays its calls or stores may write into
    exits: bool = False  # may return, break or continue: the whole result is unknown
    observed: bool = False  # may raise, call code or bind a global: seen by a caller


Stmt = Union[Assign, AugAssign, Return, Raise, If, For, ExprStmt, FunctionDef, UnsupportedStmt]


@dataclass(frozen=True)
class Function:
    """A ``def`` with its qualified name within the module."""

    span: Span
    name: str
    qualname: str
    params: tuple[Param, ...]
    returns: Expr | None
    body: tuple[Stmt, ...]
    unsupported_params: tuple[str, ...] = ()  # *args, **kwargs
    decorators: tuple[Expr, ...] = ()
    line: int = 0  # the line of ``def`` (known without resolving positions)
    rebound: tuple[str, ...] = ()  # names nested defs declare nonlocal or global


@dataclass(frozen=True)
class Unanalyzed:
    """A ``def`` no analysis reaches: in a class body (a method, at any nesting), or under a
    module-level compound statement (``if``, ``try``, ...). It is reported (DPS201) when its
    signature uses the dpsens vocabulary, and is otherwise silent."""

    span: Span  # its name, on the ``def`` line
    qualname: str  # as Python's __qualname__: ``Model.release``, ``Model.fit.<locals>.step``
    where: str  # "method" (directly in a class body), "class" (deeper), or a statement kind
    annotations: tuple[Expr, ...]  # of its parameters and return


@dataclass(frozen=True)
class Module:
    """One analyzed file: imports, constant globals and top-level functions."""

    path: str
    name: str
    imports: dict[str, str] = field(default_factory=dict)  # local alias -> qualified name
    constants: dict[str, Expr] = field(default_factory=dict)  # globals assigned once
    functions: tuple[Function, ...] = ()
    star_imports: tuple[str, ...] = ()  # modules imported with ``from m import *``
    # Every module an import statement may load: ``import a.b.c`` binds only ``a`` but
    # needs a.b.c; ``from m import *`` binds nothing by name but needs m.
    imported: tuple[str, ...] = ()
    # Module-level names without a single value (bound twice, changed in place: R-global),
    # and those of them a function may change (they may hold any caller's data).
    rebound: frozenset[str] = frozenset()
    changed_in_functions: frozenset[str] = frozenset()
    # Other modules' objects (qualified dotted names) it may change, those it assigns or
    # deletes as attributes (``m.X = v``), and those its functions may change.
    foreign_changed: frozenset[str] = frozenset()
    foreign_stored: frozenset[str] = frozenset()
    foreign_in_functions: frozenset[str] = frozenset()
    # For a module reaching modules by name (exec, sys.modules, importlib: a write into
    # "*"), the words of its text: the modules it may name.
    named: frozenset[str] = frozenset()
    # Names bound once to an immutable value (a literal, a tuple of them, a type alias):
    # other modules' uses of them cannot change them (only ``m.X = v`` rebinds one).
    values: frozenset[str] = frozenset()
    patched: frozenset[str] = frozenset()  # library functions it replaces (``np.sum = f``)
    # Names bound to values holding other mutable globals (``B = (A, 1)``: B -> {A}).
    held: dict[str, frozenset[str]] = field(default_factory=dict)
    unanalyzed: tuple[Unanalyzed, ...] = ()  # defs in classes or module-level blocks


def dotted_name(expr: Expr) -> str | None:
    """``a.b.c`` for a chain of attributes over a name, else None."""
    parts: list[str] = []
    while isinstance(expr, Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, Name):
        parts.append(expr.id)
        return ".".join(reversed(parts))
    return None


def source_text(expr: Expr | Slice) -> str:
    """A readable rendering of an annotation-like expression (names, subscripts, constants)."""
    if isinstance(expr, Slice):
        return ":"
    dotted = dotted_name(expr)
    if dotted is not None:
        return dotted
    if isinstance(expr, Subscript):
        return f"{source_text(expr.value)}[{', '.join(source_text(i) for i in expr.index)}]"
    if isinstance(expr, Const):
        return repr(expr.value)
    if isinstance(expr, TupleExpr):
        return ", ".join(source_text(e) for e in expr.elts)
    if isinstance(expr, BinOp) and expr.op == "|":  # a union: Real | None
        return f"{source_text(expr.left)} | {source_text(expr.right)}"
    return "..."


def written(node: object) -> object:
    """An IR node as nested tuples without its positions: equal for code written alike."""
    if hasattr(node, "__dataclass_fields__"):
        return (type(node).__name__, *(written(getattr(node, f))
                                       for f in node.__dataclass_fields__ if f != "span"))
    if isinstance(node, (tuple, list)):
        return tuple(written(x) for x in node)
    return node


def names_read(node: object) -> set[str]:
    """Every bare name an IR subtree mentions (a closure's possible captures)."""
    return {n.id for n in nodes(node) if isinstance(n, Name)}


def nodes(node: object) -> list[object]:
    """Every IR node under a node (itself included), nested functions and lambdas too.

    The list is shared by later calls on the same node (loop rules ask up to seven
    times about one body): callers must not change it.
    """
    key = id(node)
    known = _NODES.get(key)
    if known is not None and known[0] is node:
        return known[1]
    out: list[object] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (tuple, list)):
            stack.extend(item)
            continue
        children = _CHILDREN.get(type(item), _UNSEEN)
        if children is _UNSEEN:
            children = _CHILDREN[type(item)] = _children_getter(type(item))
        if children is not None:
            out.append(item)
            stack.extend(children(item))
    if len(_NODES) >= _NODES_KEPT:
        _NODES.clear()
    _NODES[key] = (node, out)  # the node is kept too, so its id is not reused meanwhile
    return out


def _children_getter(cls: type) -> Callable[[object], tuple[object, ...]] | None:
    """What holds a node's children (every field but its span); None for a leaf value."""
    if not hasattr(cls, "__dataclass_fields__"):
        return None
    names = [f for f in cls.__dataclass_fields__ if f != "span"]
    if len(names) == 1:
        single = attrgetter(names[0])
        return lambda item: (single(item),)
    return attrgetter(*names) if names else (lambda item: ())


_UNSEEN = object()
_CHILDREN: dict[type, Callable[[object], tuple[object, ...]] | None] = {}
_NODES: dict[int, tuple[object, list[object]]] = {}
_NODES_KEPT = 4096  # walks remembered; a loop's repeated questions come close together


# Frozen dataclasses are built by the ten thousand: store their fields directly (fastinit).
fastinit.faster(vars())
