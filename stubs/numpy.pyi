# Typing rules of the numpy subset dpsens analyzes.  Calls to numpy
# functions not listed here are unbounded (inf) and reported (DPS203).
from typing import Any, TypeVar

from dpsens import Integer, Real, Static
from dpsens.stub import entrywise, rule, slope, static_value

T = TypeVar("T")

@rule("sum")
def sum(a: Any, axis: Static[int] = ...) -> Any:
    """Sum of entries; axis=0 sums the rows of a matrix, axis=1 each row."""

@rule("mean")
def mean(a: Any, axis: Static[int] = ...) -> Any:
    """The sum divided by the public number of summed terms."""

@rule("elementwise_lipschitz")
def clip(a: T, a_min: Static[float], a_max: Static[float]) -> T:
    """Entrywise clamp into [a_min, a_max]: 1-Lipschitz in every norm."""

@rule("elementwise_lipschitz")
def abs(x: T) -> T:
    """Entrywise absolute value."""

@rule("elementwise_lipschitz")
def absolute(x: T) -> T:
    """Entrywise absolute value."""

@rule("extreme")
def max(a: Any) -> Any:
    """The largest entry: one entry moves by at most the distance, in every metric."""

@rule("extreme")
def min(a: Any) -> Any:
    """The smallest entry."""

@rule("extreme")
def amax(a: Any) -> Any:
    """The largest entry (np.max)."""

@rule("extreme")
def amin(a: Any) -> Any:
    """The smallest entry (np.min)."""

@rule("sort")
def sort(a: T) -> T:
    """Entries (of each row) in increasing order: 1-Lipschitz on reals in every norm."""

@rule("variance")
def var(a: Any, axis: Static[Any] = ..., dtype: Static[Any] = ..., out: Static[Any] = ...,
        ddof: Static[float] = ...) -> Real:
    """The mean squared distance to the mean, of entries in a known range (np.clip first);
    ddof=k divides by n - k. numpy's order of parameters: axis comes second."""

@rule("standard_deviation")
def std(a: Any, axis: Static[Any] = ..., dtype: Static[Any] = ..., out: Static[Any] = ...,
        ddof: Static[float] = ...) -> Real:
    """The root of var: moves by at most |delta|_2 / sqrt(n), with no range needed."""

@rule("order_statistic")
def median(a: Any) -> Real:
    """The middle entry (or the mean of the two middle ones): 1-Lipschitz in l_inf."""

@rule("order_statistic")
def percentile(a: Any, q: Static[Any]) -> Any:
    """An interpolated order statistic: 1-Lipschitz in l_inf."""

@rule("order_statistic")
def quantile(a: Any, q: Static[Any]) -> Any:
    """An interpolated order statistic: 1-Lipschitz in l_inf."""

@rule("ravel")
def ravel(a: Any) -> Any:
    """The entries, row after row, as one vector (in the rows' norm)."""

@rule("ravel")
def flatten(a: Any) -> Any:
    """The method m.flatten(): a copy of np.ravel(m)."""

@rule("dot")
def matmul(a: Any, b: Any) -> Any:
    """a @ b."""

@rule("dot")
def dot(a: Any, b: Any) -> Any:
    """a @ b: a dot product of vectors (one side public, its entries bounded)."""

@rule("histogram")
def histogram(a: Any, bins: Static[Any] = ..., range: Static[Any] = ...) -> Any:
    """(counts, edges): how many entries fall in each of `bins` equal bins of a public range,
    or in the bins between public edges."""

@rule("count_nonzero")
def count_nonzero(a: Any, axis: Static[int] = ...) -> Any:
    """How many entries are not zero: np.sum(a != 0)."""

@rule("where")
def where(condition: Any, x: Any, y: Any) -> Any:
    """x where the condition holds, else y, entrywise."""

@rule("diff")
def diff(a: Any) -> Any:
    """Differences of neighbouring entries: at most twice the distance, in every norm."""

@rule("flip")
def flip(m: T) -> T:
    """Entries and rows in reverse order: an isometry."""

@rule("cumsum")
def cumsum(a: Any) -> Any:
    """Running sums of a vector: len(v) in L1 and L_inf, ||L_n||_2 in L2."""

@rule("join")
def maximum(a: T, b: T) -> T:
    """Entrywise maximum."""

@rule("join")
def minimum(a: T, b: T) -> T:
    """Entrywise minimum."""

# R-slope: each is sup |f'|-sensitive over the interval its argument lies in (lo, hi
# from np.clip, ...), ∞ where that is unknown or reaches a singularity; results lie in
# the image of the interval.
@entrywise()
@static_value("sqrt(x)")
@slope("1/(2*sqrt(lo))", domain="lo >= 0", low="sqrt(lo)", high="sqrt(hi)")
def sqrt(x: Real) -> Real:
    """Square root, entrywise on arrays: slope 1/(2·sqrt(lo)), unbounded near 0."""

@entrywise()
@static_value("exp(x)")
@slope("exp(hi)", low="exp(lo)", high="exp(hi)")
def exp(x: Real) -> Real:
    """Exponential, entrywise on arrays: slope exp(hi), unbounded without an upper end."""

@entrywise()
@static_value("exp(x) - 1")
@slope("exp(hi)", low="exp(lo) - 1", high="exp(hi) - 1")
def expm1(x: Real) -> Real:
    """exp(x) - 1, entrywise on arrays: slope exp(hi)."""

@entrywise()
@static_value("log(x)")
@slope("1/lo", domain="lo > 0", low="log(lo)", high="log(hi)")
def log(x: Real) -> Real:
    """Natural logarithm, entrywise on arrays: slope 1/lo, unbounded near 0."""

@entrywise()
@static_value("log(x)/log(2)")
@slope("1/(lo*log(2))", domain="lo > 0", low="log(lo)/log(2)", high="log(hi)/log(2)")
def log2(x: Real) -> Real:
    """Base-2 logarithm, entrywise on arrays: slope 1/(lo·ln 2)."""

@entrywise()
@static_value("log(x)/log(10)")
@slope("1/(lo*log(10))", domain="lo > 0", low="log(lo)/log(10)", high="log(hi)/log(10)")
def log10(x: Real) -> Real:
    """Base-10 logarithm, entrywise on arrays: slope 1/(lo·ln 10)."""

@entrywise()
@static_value("log(1 + x)")
@slope("1/(1 + lo)", domain="lo > -1", low="log(1 + lo)", high="log(1 + hi)")
def log1p(x: Real) -> Real:
    """log(1 + x), entrywise on arrays: slope 1/(1 + lo), unbounded near -1."""

@entrywise()
@static_value("tanh(x)")
@slope("1 - tanh(max(0, lo, -hi))**2", low="tanh(lo)", high="tanh(hi)")
def tanh(x: Real) -> Real:
    """Hyperbolic tangent, entrywise on arrays: slope 1 - tanh(m)², m the interval's
    distance from 0 (at most 1); results in (-1, 1)."""

@entrywise()
@static_value("atan(x)")
@slope("1/(1 + max(0, lo, -hi)**2)", low="atan(lo)", high="atan(hi)")
def arctan(x: Real) -> Real:
    """Arc tangent, entrywise on arrays: slope 1/(1 + m²), m the interval's distance from 0
    (at most 1); results in (-pi/2, pi/2)."""

@entrywise()
@static_value("sin(x)")
@slope("1", low="-1", high="1")
def sin(x: Real) -> Real:
    """Sine, entrywise on arrays: 1-Lipschitz, results in [-1, 1]."""

@entrywise()
@static_value("cos(x)")
@slope("1", low="-1", high="1")
def cos(x: Real) -> Real:
    """Cosine, entrywise on arrays: 1-Lipschitz, results in [-1, 1]."""

@entrywise()
@static_value("sign(x)")
@slope("oo", low="-1", high="1", floats=False)
def sign(x: Real) -> Real:
    """Sign (-1, 0 or 1; an integer array stays one), entrywise on arrays: it jumps at 0,
    so no slope bounds it in a real argument; a changed Data entry moves it by at most 2."""

@rule("array")
def array(x: Any, dtype: Static[Any] = ..., copy: Static[Any] = ...) -> Any:
    """A vector of a tuple or list of numbers (L1: the sum of the entries' distances); a
    copy of an array (copy=False may return the array itself: see mutation.is_fresh)."""

@rule("astype")
def astype(x: Any, dtype: Static[Any], order: Static[Any] = ..., casting: Static[Any] = ...,
           subok: Static[Any] = ..., copy: Static[Any] = ...) -> Any:
    """An array's entries as another kind (``x.astype(float)``; numpy 2's ``np.astype``):
    counts as floats are the same numbers; floats truncated to integers are unbounded."""

@rule("array")
def copy(a: Any) -> Any:
    """A copy of an array (``np.copy(a)``, ``a.copy()``): the same value in new memory."""

@rule("array")
def asarray(a: Any, dtype: Static[Any] = ...) -> Any:
    """An array as it is (the same memory: a view for the aliasing rules), a tuple of
    numbers as np.array makes it."""

@rule("transpose")
def transpose(a: Any) -> Any:
    """A matrix's columns as rows (``a.T``, in L1: R-transpose); a vector is itself."""

@rule("concatenate")
def concatenate(arrays: Any, axis: Static[Any] = ...) -> Any:
    """Arrays joined along an existing axis: vectors end to end (distances combine in the
    norm: sum, root of squares, max), matrices by rows (axis=0) or columns (axis=1);
    axis=None flattens each first (R-concat, R-stack-rows, R-stack-columns)."""

@rule("hstack")
def hstack(tup: Any) -> Any:
    """Vectors (and numbers) end to end; matrices side by side (np.concatenate, axis=1)."""

@rule("vstack")
def vstack(tup: Any) -> Any:
    """Matrices one above the other, each vector (or number) one row: distances add."""

@rule("stack")
def stack(arrays: Any, axis: Static[Any] = ...) -> Any:
    """Vectors as the rows (axis=0) or the columns (axis=1) of a matrix; numbers as a vector."""

@rule("column_stack")
def column_stack(tup: Any) -> Any:
    """Each vector (or number) one column, matrices side by side: rows measured in L1."""

@rule("square")
def square(x: Any) -> Any:
    """x ** 2, entrywise."""

@rule("zeros_like")
def zeros_like(a: Any, dtype: Static[Any] = ...) -> Any:
    """A public array of zeros of a's shape (shapes are public) and of a's kind of entries
    (numpy: a's dtype), unless dtype= says another."""

@rule("zeros_like")
def ones_like(a: Any, dtype: Static[Any] = ...) -> Any:
    """A public array of ones of a's shape and kind of entries (or dtype=)."""

@rule("zeros")
def zeros(shape: Static[Any], dtype: Static[Any] = ...) -> Any:
    """A public array of zeros."""

@rule("zeros")
def ones(shape: Static[Any], dtype: Static[Any] = ...) -> Any:
    """A public array of ones."""

@rule("float")
def float64(x: Any) -> Real:
    """numpy's float scalar of a number: identity, measured as a real."""

@rule("int")
def int64(x: Any) -> Integer:
    """numpy's integer scalar of a number: truncated as int() does (wraparound of values
    beyond 2**63 is outside the model)."""
