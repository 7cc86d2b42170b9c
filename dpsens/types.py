"""Metric types of values and the sensitivity of moving between them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from dpsens import fastinit
from dpsens.sym import expr as E

NORMS = ("L1", "L2", "L_inf")
ELEMENTS = ("Real", "Integer", "Data")
DISCRETE = ("Data", "Bool")


@dataclass(frozen=True)
class Scalar:
    """A number measured with the metric of its kind."""

    kind: str  # Real | Integer | Data | Bool

    def show(self) -> str:
        return self.kind


@dataclass(frozen=True)
class Vector:
    """A 1-D array measured in (norm, elem); clip: a norm the value has at most 1 in."""

    norm: str
    elem: str
    length: E.Expr
    clip: str | None = None

    def show(self) -> str:
        if self.clip:
            return f"ClippedVector[{self.clip}, {self.norm}, {self.elem}]"
        return f"MetricVector[{self.norm}, {self.elem}]"


@dataclass(frozen=True)
class Matrix:
    """A 2-D array whose rows are measured in (norm, elem) and summed."""

    norm: str
    elem: str
    rows: E.Expr
    cols: E.Expr
    clip: str | None = None

    def show(self) -> str:
        if self.clip:
            return f"ClippedMatrix[{self.clip}, {self.norm}, {self.elem}]"
        return f"MetricMatrix[{self.norm}, {self.elem}]"


@dataclass(frozen=True)
class TupleType:
    """A tuple: its distance is the sum of its components' distances."""

    elts: tuple[Type, ...]

    def show(self) -> str:
        return "tuple[" + ", ".join(t.show() for t in self.elts) + "]"


@dataclass(frozen=True)
class ListType:
    """A list whose length the analysis does not know (it grew in a loop), every element of
    type elem; its distance is the sum of its elements' distances, as a tuple's.

    Neighbouring runs build lists of the same length: a length that depends on
    sensitive values comes from a branch or a loop count that depends on them,
    and those make the list unbounded in them.
    """

    elem: Type

    def show(self) -> str:
        return f"list[{self.elem.show()}]"


@dataclass(frozen=True)
class NormValue:
    """One of the norm classes used as a value (the first argument of clip)."""

    norm: str

    def show(self) -> str:
        return "Norm"


@dataclass(frozen=True)
class TypeValue:
    """A metric type used as a value (the second argument of unbox)."""

    type: Type

    def show(self) -> str:
        return "type"


@dataclass(frozen=True)
class Callable_:
    """A function value; ``ref`` identifies it for the inference engine."""

    ref: object

    def show(self) -> str:
        return "Callable"


@dataclass(frozen=True)
class Opaque:
    """A value with no metric (black-box results, strings, None)."""

    what: str

    def show(self) -> str:
        return self.what


Type = Union[Scalar, Vector, Matrix, TupleType, ListType, NormValue, TypeValue, Callable_, Opaque]

REAL = Scalar("Real")
INTEGER = Scalar("Integer")
DATA = Scalar("Data")
BOOL = Scalar("Bool")


def is_discrete_metric(t: Type) -> bool:
    """Distances are 0 or >= 1 (so any change is a change of at least 1)."""
    if isinstance(t, Scalar):
        return t.kind in ("Data", "Bool", "Integer")
    if isinstance(t, (Vector, Matrix)):
        return t.elem in ("Data", "Integer")
    if isinstance(t, TupleType):
        return all(is_discrete_metric(e) for e in t.elts)
    if isinstance(t, ListType):
        return is_discrete_metric(t.elem)
    return False


def unit_rows(t: Type) -> bool:
    """Any two rows are at most 1 apart (entries, of a vector): a Data matrix measured in
    L∞ (a changed record), an (L1, Data) vector."""
    if isinstance(t, Matrix):
        return t.elem == "Data" and t.norm == "L_inf"
    return isinstance(t, Vector) and t.elem == "Data" and t.norm == "L1"


def has_whole_steps(t: Type) -> bool:
    """Distances are whole numbers d, and values d apart are joined by d moves of 1, so
    group privacy costs at most d units ((L2, ·) is not: √k apart is k moves apart)."""
    if isinstance(t, (Vector, Matrix)) and t.norm == "L2":
        return False
    if isinstance(t, TupleType):
        return all(has_whole_steps(e) for e in t.elts)
    if isinstance(t, ListType):
        return has_whole_steps(t.elem)
    return is_discrete_metric(t)


def unit_steps(t: Type) -> E.Expr:
    """How many moves of at most 1 join any two values of the type (inf: unbounded)."""
    if isinstance(t, Scalar) and t.kind in ("Data", "Bool"):
        return E.ONE
    if isinstance(t, Vector) and t.elem == "Data":
        return E.ONE if t.norm == "L_inf" else t.length  # L1 and L2: one entry per move
    return E.INF


def is_bounded_by_one(t: Type) -> bool:
    """Every distance is at most 1 (discrete scalars, (L_inf, Data) vectors)."""
    if isinstance(t, Scalar):
        return t.kind in ("Data", "Bool")
    if isinstance(t, Vector):
        return t.elem == "Data" and t.norm == "L_inf"
    return False


def norm_factor(source: str, target: str, n: E.Expr) -> E.Expr:
    """The smallest c with d_target <= c * d_source on n entries (Real or Data)."""
    if source == target:
        return E.ONE
    order = {"L1": 0, "L2": 1, "L_inf": 2}
    if order[source] < order[target]:
        return E.ONE  # ||.||_inf <= ||.||_2 <= ||.||_1
    if (source, target) == ("L_inf", "L1"):
        return n
    return E.sqrt(n)  # L2 -> L1 and L_inf -> L2 by Cauchy-Schwarz


def element_factor(source: str, target: str) -> E.Expr:
    """The sensitivity of re-measuring one entry from kind source to kind target."""
    if source == target:
        return E.ONE
    if (source, target) in {("Integer", "Real"), ("Integer", "Data"), ("Bool", "Data"),
                            ("Bool", "Integer"), ("Bool", "Real")}:
        return E.ONE  # integer distances are 0 or >= 1
    return E.INF  # Real <-> Data needs discrete()/undisc(): unbounded


def with_real_entries(t: Type) -> Type:
    """The same shape and norm with real entries (no clip marker); a number: Real."""
    if isinstance(t, Vector):
        return Vector(t.norm, "Real", t.length)
    if isinstance(t, Matrix):
        return Matrix(t.norm, "Real", t.rows, t.cols)
    return REAL


def integral_violated(declared: Type, value: E.Expr) -> bool:
    """A known value that is not a whole number, for a parameter declared Integer."""
    return scalar_kind_of(declared) == "Integer" and bool(value.is_number) and not value.is_integer


def scalar_kind_of(t: Type) -> str | None:
    """The element kind of a scalar or container type."""
    if isinstance(t, Scalar):
        return t.kind
    if isinstance(t, (Vector, Matrix)):
        return t.elem
    return None


# Frozen dataclasses are built by the ten thousand: store their fields directly (fastinit).
fastinit.faster(vars())
