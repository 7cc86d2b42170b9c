"""Faster constructors for frozen dataclasses, with the same parameters and the same objects.

A frozen dataclass's generated ``__init__`` stores every field through
``object.__setattr__``, looked up again per field: for the analyzer's values
(35,000 of them on benchmark A, 11 fields each) and LibCST's nodes (about
300,000) that is a measurable share of a run. The constructors made here store
each field through its slot's descriptor, or straight into the instance's dict,
which is what ``object.__setattr__`` ends up doing when no data descriptor is in
the way. A class with anything else (init=False or keyword-only fields, InitVars,
a property over a field) keeps its own constructor.
"""

from __future__ import annotations

import dataclasses
import types
from functools import lru_cache
from typing import Any, Callable

from dpsens import code_cache


# The classes given a faster constructor, with their own (the tests compare the two).
replaced: dict[type, Callable[..., None]] = {}


class _Factory:
    """The parameter default of a field with a default factory (dataclasses' own sentinel
    is private)."""


def constructor(cls: type, finish: str, scope: dict[str, Any]) -> Callable[..., None] | None:
    """An ``__init__`` for a dataclass taking the same arguments as its own: it stores the
    fields, then runs ``finish`` (a line of code over the names in ``scope``); None when
    the class's fields are not all plain ones."""
    fields = dataclasses.fields(cls)
    names = tuple(f.name for f in fields)
    own = cls.__init__.__code__  # type: ignore[misc]
    if own.co_varnames[1:own.co_argcount + own.co_kwonlyargcount] != names:
        return None  # InitVar parameters, keyword-only fields
    # (dataclasses' own sentinel too: a caller that read the class's signature before its
    # constructor was replaced, such as hypothesmith, passes it for a factory's default)
    scope = {**scope, "_Factory": _Factory,
             "_Sentinel": getattr(dataclasses, "_HAS_DEFAULT_FACTORY", _Factory)}
    shape: list[tuple[bool, bool]] = []  # (a default factory, stored in the dict) per field
    defaults: list[Any] = []
    for i, field in enumerate(fields):
        if not field.init or field.kw_only or not field.name.isidentifier():
            return None
        store = _store(cls, field.name)
        if store is None:
            return None
        if store == "dict":
            scope[f"_key{i}"] = field.name
        else:
            scope[f"_set{i}"] = store
        factory = field.default_factory is not dataclasses.MISSING
        if field.default is not dataclasses.MISSING:
            defaults.append(field.default)
        elif factory:
            scope[f"_factory{i}"] = field.default_factory
            defaults.append(_Factory)
        shape.append((factory, store == "dict"))
    code = _template(tuple(shape), finish)
    code = code.replace(co_varnames=("self", *names, *code.co_varnames[len(names) + 1:]),
                        co_name="__init__", co_qualname=f"{cls.__qualname__}.__init__")
    return types.FunctionType(code, scope, "__init__", tuple(defaults) or None)


def faster(classes: dict[str, Any]) -> None:
    """Give every frozen dataclass defined in a module (its ``vars()``) a faster
    constructor; ``__post_init__`` still runs after the fields are stored."""
    module = classes.get("__name__")
    for cls in list(classes.values()):
        if isinstance(cls, type) and cls.__module__ == module and "__init__" in cls.__dict__ \
                and dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            finish = "self.__post_init__()" if hasattr(cls, "__post_init__") else "pass"
            init = constructor(cls, finish, {})
            if init is not None:
                install(cls, init)


def install(cls: type, init: Callable[..., None]) -> None:
    """Make ``init`` the class's constructor, remembering its own."""
    replaced[cls] = cls.__init__  # type: ignore[misc]
    cls.__init__ = init  # type: ignore[misc]


@lru_cache(maxsize=None)
def _template(shape: tuple[tuple[bool, bool], ...], finish: str) -> types.CodeType:
    """The code of a constructor for fields of this shape, parameters named p0, p1, ...;
    defaults are the function's, not the code's (compiling one constructor per class
    cost 21 ms for LibCST's ~320 classes, which have far fewer shapes)."""
    body = []
    for i, (factory, in_dict) in enumerate(shape):
        value = f"_factory{i}() if p{i} is _Factory or p{i} is _Sentinel else p{i}" \
            if factory else f"p{i}"
        body.append(f"    self.__dict__[_key{i}] = {value}" if in_dict else f"    _set{i}(self, {value})")
    params = ", ".join(f"p{i}" for i in range(len(shape)))
    source = f"def __init__(self, {params}):\n" + "\n".join(body) + f"\n    {finish}\n"
    scope: dict[str, Any] = {}
    exec(code_cache.compiled(source, "<dpsens constructor>"), scope)
    return scope["__init__"].__code__  # type: ignore[no-any-return]


def _store(cls: type, name: str) -> Callable[[Any, Any], None] | str | None:
    """How ``object.__setattr__`` stores a field: its slot's ``__set__``, "dict" (no data
    descriptor, and instances have a dict), or None (anything else)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            attribute = klass.__dict__[name]
            if type(attribute).__name__ == "member_descriptor":
                return attribute.__set__  # type: ignore[no-any-return]
            if hasattr(type(attribute), "__set__"):
                return None  # a property or another data descriptor
            break
    return "dict" if cls.__dictoffset__ else None


__all__ = ["constructor", "faster", "install", "replaced"]
