"""Faster construction of the LibCST nodes its parser builds, with the same trees.

LibCST's nodes are frozen dataclasses with slots. Two costs of their generated
constructors are only needed for trees built by hand:

- every constructor re-checks the node's invariants (``CSTNode.__post_init__``),
  which the parser's output satisfies by construction (17% of parsing: 1.74 s →
  1.45 s of CPU on benchmark A's 200 files; LibCST's own comment there says as much);
- a frozen dataclass stores each field through ``object.__setattr__``, looked up
  again per field (dpsens.fastinit stores them directly: 8–12% of parsing).

``trusted()`` skips the first while the parser runs. The constructors are replaced
once per process (assigning class attributes per file would invalidate the type
caches of every node class, 2 ms a time); hand-built nodes are validated as before.
A class whose fields are not all plain positional ones keeps LibCST's constructor.
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from typing import Iterator

from libcst import CSTNode

from dpsens import fastinit

_state = {"trusting": False, "installed": False}


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
                and getattr(cls, "__post_init__", None) is post_init:
            constructor = fastinit.constructor(
                cls, "if not _state['trusting']: _validate(self)",
                {"_state": _state, "_validate": original})
            if constructor is not None:
                fastinit.install(cls, constructor)


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


__all__ = ["trusted"]
