"""Faster construction of the LibCST nodes its parser builds, with the same trees.

LibCST's nodes are frozen dataclasses with slots. Two costs of their generated
constructors are only needed for trees built by hand:

- every constructor re-checks the node's invariants (``CSTNode.__post_init__``),
  which the parser's output satisfies by construction (17% of parsing: 1.74 s →
  1.45 s of CPU on benchmark A's 200 files; LibCST's own comment there says as much);
- a frozen dataclass stores each field through ``object.__setattr__``, looked up
  again per field; storing through the slot's own descriptor (or into the instance's
  dict, for fields without a slot) gives the same object.

``trusted()`` skips the first while the parser runs. The constructors are replaced
once per process (assigning class attributes per file would invalidate the type
caches of every node class, 2 ms a time); hand-built nodes are validated as before.
A class whose fields are not all plain positional ones keeps LibCST's constructor.
"""

from __future__ import annotations

import dataclasses
import types
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Callable, Iterator

from libcst import CSTNode

_state = {"trusting": False, "installed": False}
# LibCST's own constructors of the classes given faster ones (the tests compare them).
replaced: dict[type, Callable[..., None]] = {}


@contextmanager
def trusted() -> Iterator[None]:
    """Build nodes without LibCST's validation (for the parser's own output only)."""
    _install()
    _state["trusting"] = True
    try:
        yield
    finally:
        _state["trusting"] = False


def _install() -> None:
    """Replace the constructors of LibCST's node classes, once per process."""
    if _state["installed"]:
        return
    _state["installed"] = True
    original = CSTNode.__dict__.get("__post_init__")
    if original is None:
        return  # a LibCST without the validation hook: nothing to skip

    def post_init(self: CSTNode) -> None:
        if not _state["trusting"]:
            original(self)

    CSTNode.__post_init__ = post_init  # type: ignore[method-assign]
    for cls in _node_classes():
        if "__init__" in cls.__dict__ and dataclasses.is_dataclass(cls) \
                and cls.__post_init__ is post_init:
            constructor = _constructor(cls, original)
            if constructor is not None:
                replaced[cls] = cls.__init__  # type: ignore[misc]
                cls.__init__ = constructor  # type: ignore[misc]


def _node_classes() -> list[type]:
    """Every subclass of CSTNode, at any depth."""
    found: dict[type, None] = {}
    stack = [CSTNode]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in found:
                found[sub] = None
                stack.append(sub)
    return list(found)


class _Factory:
    """The default of a field with a default factory (dataclasses' own sentinel is private)."""


def _constructor(cls: type, validate: Callable[[Any], None]) -> Callable[..., None] | None:
    """``__init__`` with the dataclass's parameters and defaults, storing each field
    through its slot, or in the instance's dict for a class without slots for it; None
    when a field is not a plain positional one or a class attribute intercepts stores."""
    scope: dict[str, Any] = {"_state": _state, "_validate": validate, "_Factory": _Factory}
    shape: list[tuple[bool, bool]] = []  # (a default factory, stored in the dict) per field
    defaults: list[Any] = []
    names: list[str] = []
    for i, field in enumerate(dataclasses.fields(cls)):
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
        names.append(field.name)
    code = _template(tuple(shape))
    code = code.replace(co_varnames=("self", *names, *code.co_varnames[len(names) + 1:]),
                        co_name="__init__", co_qualname=f"{cls.__qualname__}.__init__")
    return types.FunctionType(code, scope, "__init__", tuple(defaults) or None)


@lru_cache(maxsize=None)
def _template(shape: tuple[tuple[bool, bool], ...]) -> types.CodeType:
    """The code of a constructor for fields of this shape, parameters named p0, p1, ...;
    defaults are the function's, not the code's (compiling one constructor per class
    took 21 ms a run: ~320 classes have far fewer shapes)."""
    body = []
    for i, (factory, in_dict) in enumerate(shape):
        value = f"_factory{i}() if p{i} is _Factory else p{i}" if factory else f"p{i}"
        body.append(f"    self.__dict__[_key{i}] = {value}" if in_dict else f"    _set{i}(self, {value})")
    params = ", ".join(f"p{i}" for i in range(len(shape)))
    source = (f"def __init__(self, {params}):\n" + "\n".join(body) +
              "\n    if not _state['trusting']:\n        _validate(self)\n")
    scope: dict[str, Any] = {}
    exec(compile(source, "<dpsens node constructor>", "exec"), scope)
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
    return "dict" if cls.__dictoffset__ else None  # type: ignore[attr-defined]


__all__ = ["trusted"]
