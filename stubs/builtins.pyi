# Typing rules of the Python builtins in the analyzable subset.
from typing import Any, TypeVar

from dpsens import Bool, Integer, Real, Static
from dpsens.stub import rule, sensitivity, static_value

T = TypeVar("T")

@rule("elementwise_lipschitz")
def abs(x: T) -> T:
    """Absolute value: 1-Lipschitz, entrywise on containers."""

@rule("len")
def len(x: Any) -> Static[Integer]:
    """The public length of x."""

@rule("join")
def max(a: T, b: T = ...) -> T:
    """The larger of two or more values, or of a tuple or list of them: per variable the larger sensitivity."""

@rule("join")
def min(a: T, b: T = ...) -> T:
    """The smaller of two or more values, or of a tuple or list of them: per variable the larger sensitivity."""

@rule("float")
def float(x: Any) -> Real:
    """Identity on numbers; the result is measured as a real."""

@rule("int")
def int(x: Any) -> Integer:
    """Truncation: 1-sensitive on integers, unbounded on reals."""

@rule("bool")
def bool(x: Any) -> Bool:
    """x != 0: 1-sensitive on integers, bools and Data; jumps on reals."""

@rule("sum")
def sum(m: Any, start: Any = ...) -> Any:
    """Sum of the rows of a matrix or the entries of a vector, added to start (0)."""

@rule("range")
def range(a: Static[Integer], b: Static[Integer] = ..., step: Static[Integer] = ...) -> Any:
    """Only as the iterable of a for loop."""
