"""dpsens.fastinit: faster constructors build the same objects from the same arguments."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from dpsens import fastinit, ir
from dpsens import types as T
from dpsens.infer import annotations, values


def _parameters(init: object) -> list[tuple[str, object, bool]]:
    return [(p.name, p.kind, p.default is inspect.Parameter.empty)
            for p in inspect.signature(init).parameters.values()]  # type: ignore[arg-type]


def _frozen_dataclasses(module: object) -> list[type]:
    return [c for c in vars(module).values() if isinstance(c, type) and dataclasses.is_dataclass(c)
            and c.__module__ == module.__name__ and c.__dataclass_params__.frozen]  # type: ignore[attr-defined]


@pytest.mark.parametrize("module", [ir, T, values, annotations], ids=lambda m: m.__name__)
def test_every_frozen_dataclass_builds_what_its_own_constructor_builds(module: object) -> None:
    classes = _frozen_dataclasses(module)
    assert classes
    for cls in classes:
        assert cls in fastinit.replaced, cls  # the speed-up did not silently lapse
        original = fastinit.replaced[cls]
        assert _parameters(cls.__init__) == _parameters(original), cls
        required = {f.name: object() for f in dataclasses.fields(cls)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        fast = cls(**required)
        own = cls.__new__(cls)
        original(own, **required)
        assert vars(fast) == vars(own), cls
        name = dataclasses.fields(cls)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(fast, name, 1)


def test_default_factories_give_each_object_its_own_value() -> None:
    first, second = values.Value(T.REAL), values.Value(T.REAL)
    assert first.ctx == {} and first.ctx is not second.ctx


def test_post_init_runs_and_classes_with_init_vars_keep_their_constructor() -> None:
    @dataclasses.dataclass(frozen=True)
    class Checked:
        a: int
        b: list[int] = dataclasses.field(default_factory=list)

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("negative")

    @dataclasses.dataclass(frozen=True)
    class WithInitVar:
        a: int
        scale: dataclasses.InitVar[int] = 1

        def __post_init__(self, scale: int) -> None:
            object.__setattr__(self, "a", self.a * scale)

    namespace = {"__name__": __name__, "Checked": Checked, "WithInitVar": WithInitVar}
    fastinit.faster(namespace)
    assert Checked in fastinit.replaced and WithInitVar not in fastinit.replaced
    assert Checked(2) == Checked(2, []) and Checked(2).b is not Checked(2).b
    with pytest.raises(ValueError):
        Checked(-1)
    assert WithInitVar(2, 3).a == 6


def test_dataclasses_own_factory_sentinel_gives_the_factorys_value() -> None:
    """A caller that read a class's signature before its constructor was replaced passes
    dataclasses' sentinel for a default factory (hypothesmith builds LibCST nodes so)."""
    @dataclasses.dataclass(frozen=True)
    class Holder:
        items: list[int] = dataclasses.field(default_factory=list)

    sentinel = inspect.signature(Holder).parameters["items"].default
    init = fastinit.constructor(Holder, "pass", {})
    assert init is not None
    fastinit.install(Holder, init)
    assert Holder(sentinel).items == [] and Holder().items == []
