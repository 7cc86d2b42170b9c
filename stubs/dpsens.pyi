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
    """Give a black-box result the type t; at run time a result that breaks t's shape or kind is replaced by a fixed one."""

# --- Mechanisms: callable only in functions declared -> Priv[...] (docs/privacy.md) ---

@rule("laplace_mechanism")
def laplace_mechanism(s: Static[float], eps: Static[float], x: T, rng: Static[Any] = ...) -> T:
    """x plus Laplace(s/eps) noise; x real or (L1, Real); costs eps*r/s."""

@rule("laplace_mechanism")
def laplacian_mechanism(s: Static[float], eps: Static[float], x: T, rng: Static[Any] = ...) -> T:
    """Alias of laplace_mechanism."""

@rule("gaussian_mechanism")
def gaussian_mechanism(s: Static[float], eps: Static[float], delta: Static[float], x: T,
                       rng: Static[Any] = ...) -> T:
    """x plus analytic-Gaussian noise; x real or (L2, Real), r <= s; costs (eps, delta)."""

@rule("gaussian_mechanism_zcdp")
def gaussian_mechanism_zcdp(s: Static[float], rho: Static[float], x: T, rng: Static[Any] = ...) -> T:
    """x plus N(0, s^2/(2 rho)); costs rho*(r/s)^2-zCDP."""

@rule("exponential_mechanism")
def exponential_mechanism(s: Static[float], eps: Static[float], candidates: Static[Any],
                          utility: Callable[[Any, Any], float], data: Any,
                          rng: Static[Any] = ...) -> Any:
    """A candidate drawn with probability ∝ exp(eps*u(data, c)/(2s)); costs eps*r/s."""

@rule("report_noisy_max")
def report_noisy_max(s: Static[float], eps: Static[float], scores: Any, rng: Static[Any] = ...) -> Integer:
    """The index of the largest score plus Laplace(2s/eps); costs eps*r/s."""

@rule("above_threshold")
def above_threshold(queries: Any, eps: Static[float], data: Any, threshold: Static[float],
                    rng: Static[Any] = ...) -> Integer:
    """Sparse vector: the first 1-sensitive query above a noisy threshold; costs eps."""

@rule("randomized_response")
def randomized_response(eps: Static[float], bit: T, rng: Static[Any] = ...) -> T:
    """Keep a Data bit with probability e^eps/(1+e^eps); costs eps."""

@rule("sample")
def sample(k: Static[int], m1: Any, m2: Any, rng: Static[Any] = ...) -> Any:
    """k rows without replacement, the same rows of m1 and m2; amplifies what is spent on them."""

@rule("parallel_fold_rows")
def parallel_fold_rows(f: Any, init: Any, m1: Any, m2: Any) -> Any:
    """acc = f(acc, r1, r2) over disjoint rows: each row's cost is paid once."""

# --- Local and shuffle models (docs/models.md) ---

@rule("kary_randomized_response")
def kary_randomized_response(eps: Static[float], value: Integer, k: Static[int],
                             rng: Static[Any] = ...) -> Integer:
    """k-ary randomized response: an eps-local randomizer of a discrete value."""

@rule("local_laplace")
def local_laplace(eps: Static[float], x: Any, lower: Static[float], upper: Static[float],
                  rng: Static[Any] = ...) -> Real:
    """x clamped into [lower, upper] plus Laplace((upper-lower)/eps): eps-local."""

@rule("shuffle")
def shuffle(randomizer: Any, data: Any, rng: Static[Any] = ...) -> Any:
    """A local randomizer applied to every row, the reports uniformly permuted."""
