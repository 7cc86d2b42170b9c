# Typing rules of Python's math module: functions of one number (math's functions take no
# arrays).  R-slope: each is sup |f'|-sensitive over the interval its argument lies in,
# as numpy's functions of the same names are (stubs/numpy.pyi).  Functions not listed
# here are unbounded (inf) and reported (DPS203).
from dpsens import Real
from dpsens.stub import slope, static_value

@static_value("sqrt(x)")
@slope("1/(2*sqrt(lo))", domain="lo >= 0", low="sqrt(lo)", high="sqrt(hi)")
def sqrt(x: Real) -> Real:
    """Square root: slope 1/(2·sqrt(lo)), unbounded near 0."""

@static_value("exp(x)")
@slope("exp(hi)", low="exp(lo)", high="exp(hi)")
def exp(x: Real) -> Real:
    """Exponential: slope exp(hi), unbounded without an upper end."""

@static_value("exp(x) - 1")
@slope("exp(hi)", low="exp(lo) - 1", high="exp(hi) - 1")
def expm1(x: Real) -> Real:
    """exp(x) - 1: slope exp(hi)."""

@static_value("log(x)")
@slope("1/lo", domain="lo > 0", low="log(lo)", high="log(hi)")
def log(x: Real) -> Real:
    """Natural logarithm (no base argument): slope 1/lo, unbounded near 0."""

@static_value("log(x)/log(2)")
@slope("1/(lo*log(2))", domain="lo > 0", low="log(lo)/log(2)", high="log(hi)/log(2)")
def log2(x: Real) -> Real:
    """Base-2 logarithm: slope 1/(lo·ln 2)."""

@static_value("log(x)/log(10)")
@slope("1/(lo*log(10))", domain="lo > 0", low="log(lo)/log(10)", high="log(hi)/log(10)")
def log10(x: Real) -> Real:
    """Base-10 logarithm: slope 1/(lo·ln 10)."""

@static_value("log(1 + x)")
@slope("1/(1 + lo)", domain="lo > -1", low="log(1 + lo)", high="log(1 + hi)")
def log1p(x: Real) -> Real:
    """log(1 + x): slope 1/(1 + lo), unbounded near -1."""

@static_value("tanh(x)")
@slope("1 - tanh(max(0, lo, -hi))**2", low="tanh(lo)", high="tanh(hi)")
def tanh(x: Real) -> Real:
    """Hyperbolic tangent: slope 1 - tanh(m)², m the interval's distance from 0."""

@static_value("atan(x)")
@slope("1/(1 + max(0, lo, -hi)**2)", low="atan(lo)", high="atan(hi)")
def atan(x: Real) -> Real:
    """Arc tangent: slope 1/(1 + m²), m the interval's distance from 0."""

@static_value("sin(x)")
@slope("1", low="-1", high="1")
def sin(x: Real) -> Real:
    """Sine: 1-Lipschitz, results in [-1, 1]."""

@static_value("cos(x)")
@slope("1", low="-1", high="1")
def cos(x: Real) -> Real:
    """Cosine: 1-Lipschitz, results in [-1, 1]."""
