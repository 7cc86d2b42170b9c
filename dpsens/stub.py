"""Decorators that stub files use to state typing rules (no-ops at run time).

A stub is a ``.pyi`` file written in the user vocabulary.  Its signatures give
parameter types; these decorators add what a signature cannot say:

* ``@sensitivity(x=1, v="sqrt(len(v))")`` - the function is that sensitive in
  each named parameter (expressions in the report syntax; missing means 0 for
  static parameters and ``inf`` for the others);
* ``@rule("name")`` - the rule is the special Python rule ``name`` of
  ``dpsens.rules.special``;
* ``@static_value("sqrt(x)")`` - with only static arguments the result is
  static with this symbolic value;
* ``@entrywise()`` - the function (a numpy ufunc) also takes an array for its one
  non-static number and applies to each entry: its sensitivity there is the
  number's, in the array's own metric.
"""

from __future__ import annotations

from typing import Callable, TypeVar

_F = TypeVar("_F", bound=Callable[..., object])


def sensitivity(**per_parameter: object) -> Callable[[_F], _F]:
    """Declare the sensitivity of a stubbed function in each parameter."""
    return _identity


def rule(name: str) -> Callable[[_F], _F]:
    """Delegate a stubbed function to a special rule written in Python."""
    return _identity


def static_value(expression: str) -> Callable[[_F], _F]:
    """Declare the symbolic value of the function on static arguments."""
    return _identity


def entrywise() -> Callable[[_F], _F]:
    """Declare that the function applies to each entry of an array it is given."""
    return _identity


def slope(bound: str, domain: str | None = None, low: str | None = None,
          high: str | None = None, floats: bool = True) -> Callable[[_F], _F]:
    """Declare sup |f'| over the argument's interval [lo, hi], and f's image of it;
    ``floats=False`` where an integer argument gives integers."""
    return _identity


def _identity(function: _F) -> _F:
    return function
