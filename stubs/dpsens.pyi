# Typing rules of the dpsens sensitivity builtins, in the user vocabulary.
# Parsed by dpsens (never imported).  One line of rule per builtin; what a
# signature cannot say is a special rule in dpsens/rules/special.py, named
# by @rule.  The proofs are in docs/rules.md.
from typing import Any, Callable, TypeVar

from dpsens import Data, Integer, Norm, Real, Static
from dpsens.stub import rule, sensitivity, static_value

T = TypeVar("T")

@rule("clip")
def clip(norm: Static[Norm], v: T) -> T:
    """Scale v (or every row of a matrix v) into the unit ball of `norm`."""

@rule("norm_convert")
def norm_convert(norm: Static[Norm], v: T) -> T:
    """The identity on values; re-measures v (or its rows) in `norm`."""

@sensitivity(x="inf")
def discrete(x: Real) -> Data:
    """Re-measure a real in the discrete metric."""

@sensitivity(x="inf")
def undisc(x: Data) -> Real:
    """Re-measure a discrete value in the real metric."""

@rule("undisc_container")
def undisc_container(m: T) -> T:
    """Re-measure clipped discrete rows in the real metric of the clip norm."""

@rule("count")
def count(pred: Callable[[Any], bool], v: T) -> Integer:
    """The number of entries (vector) or rows (matrix) satisfying pred."""

@rule("map_rows")
def map_rows(f: Callable[[Any], Any], m: T) -> Any:
    """Apply f to every row (matrix) or entry (vector)."""

@rule("fold")
def fold(f: Callable[[Any, Any], Any], init: Any, m: T) -> Any:
    """Left fold: acc = f(acc, row) over the rows of m, starting at init."""

@rule("rows")
def rows(x: Any) -> Static[int]:
    """The public number of rows (or entries) of x."""

@rule("cols")
def cols(x: Any) -> Static[int]:
    """The public number of columns of x."""

@rule("unbox")
def unbox(value: Any, t: Any, shape: Any) -> Any:
    """Give a black-box result the type t, checking its shape at run time."""
