"""dpsens.code_cache: kept code builds the same dataclasses, and a bad file only costs time."""

from __future__ import annotations

import dataclasses
import marshal
import os
import re
import subprocess
import sys
import textwrap
import types
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsens import code_cache

_FLAGS = ("frozen", "eq", "order", "unsafe_hash", "repr", "slots")


@st.composite
def _dataclass_sources(draw: st.DrawFn) -> tuple[str, list[int]]:
    """Source of a dataclass with drawn fields and options, and arguments for it."""
    count = draw(st.integers(0, 5))
    names = draw(st.lists(st.sampled_from("abcdefgh"), min_size=count, max_size=count,
                          unique=True))
    defaults = draw(st.integers(0, count))  # the last ones have defaults
    flags = {flag: draw(st.booleans()) for flag in _FLAGS}
    flags["order"] = flags["order"] and flags["eq"]  # order needs eq
    lines = [f"@dataclasses.dataclass({', '.join(f'{k}={v}' for k, v in flags.items())})",
             "class Made:"]
    for i, name in enumerate(names):
        default = f" = {i}" if i >= count - defaults else ""
        lines.append(f"    {name}: int{default}")
    if not names:
        lines.append("    pass")
    return "\n".join(lines) + "\n", draw(st.lists(st.integers(-3, 3), min_size=count,
                                                  max_size=count))


def _define(source: str, module: str = "dpsens.made_by_tests") -> Any:
    """The class Made defined by the source in a module of that name (dataclasses reads
    the module's globals from sys.modules; only dpsens's and LibCST's are kept)."""
    made = types.ModuleType(module)
    made.dataclasses = dataclasses  # type: ignore[attr-defined]
    sys.modules[module] = made
    try:
        exec(compile(source, "<made>", "exec"), vars(made))
    finally:
        del sys.modules[module]
    return vars(made)["Made"]


def _methods(cls: type) -> dict[str, Any]:
    return {name: (getattr(cls, name).__code__, getattr(cls, name).__annotations__) for name in
            ("__init__", "__repr__", "__eq__", "__lt__", "__hash__", "__setattr__",
             "__delattr__") if hasattr(getattr(cls, name, None), "__code__")}


def _observed(cls: type, arguments: list[int]) -> tuple[Any, ...]:
    """What a user sees of two instances: repr, equality, order, hash and mutability."""
    first, second = cls(*arguments), cls(*arguments[::-1])
    seen: list[Any] = [re.sub(r"0x[0-9a-f]+", "0x", repr(first)), first == second,
                       vars(first) if hasattr(first, "__dict__") else None]
    for probe in (lambda: first < second, lambda: hash(first) == hash(cls(*arguments)),
                  lambda: setattr(first, "a", 9)):
        try:
            seen.append(probe())
        except Exception as error:  # noqa: BLE001 - the exception is part of the behaviour
            seen.append(type(error).__name__)
    return tuple(seen)


@pytest.fixture()
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The cache installed in this process with an empty file of its own."""
    monkeypatch.setattr(code_cache, "_known", {})
    monkeypatch.setattr(code_cache, "_used", set())
    monkeypatch.setattr(code_cache, "_state", {"new": 0, "owner": 0})
    monkeypatch.setattr(code_cache, "FILE", tmp_path / "generated.bin")
    monkeypatch.delattr(dataclasses, "exec", raising=False)
    yield code_cache.FILE
    monkeypatch.delattr(dataclasses, "exec", raising=False)


@settings(max_examples=60, deadline=None)
@given(_dataclass_sources())
def test_kept_code_builds_the_class_compile_builds(made: tuple[str, list[int]]) -> None:
    source, arguments = made
    plain = _define(source)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(code_cache, "_known", {})
        patch.setattr(code_cache, "_used", set())
        patch.setattr(code_cache, "_state", {"new": 0, "owner": 1})
        patch.setattr(dataclasses, "exec", code_cache._dataclasses_exec, raising=False)
        _define(source)  # compiles and keeps
        stored = marshal.loads(marshal.dumps(code_cache._known))
        patch.setattr(code_cache, "_known", stored)  # as a later process loads them
        new_before = code_cache._state["new"]
        cached = _define(source)
        assert code_cache._state["new"] == new_before  # nothing compiled again
    assert _methods(cached) == _methods(plain)
    assert _observed(cached, arguments) == _observed(plain, arguments)


def test_a_file_written_by_one_process_serves_the_next(kept: Path) -> None:
    source = "@dataclasses.dataclass(frozen=True)\nclass Made:\n    kept_field_x: int\n"
    code_cache.install()
    _define(source)
    assert code_cache._state["new"] > 0
    code_cache.save(kept)
    script = textwrap.dedent(f"""
        import dataclasses, sys
        from pathlib import Path
        from dpsens import code_cache
        code_cache.FILE = Path({str(kept)!r})
        code_cache.install()
        sys.modules["dpsens.made"] = made = type(sys)("dpsens.made")
        made.dataclasses = dataclasses
        exec({source!r}, vars(made))
        print(code_cache._state["new"])
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True)
    assert run.stdout.strip() == "0"


def _system_error_payload() -> bytes:
    """Marshal data of a code object damaged so that ``marshal.loads`` raises SystemError."""
    source = "def __create_fn__():\n def f(self):\n  return self.a\n return f"
    good = marshal.dumps({("<string>", source): compile(source, "<string>", "exec")})
    for position in range(len(good)):
        for value in (0xFF, 0x00, 0x29):
            bad = bytearray(good)
            bad[position] = value
            try:
                marshal.loads(bytes(bad))
            except SystemError:
                return bytes(bad)
            except Exception:  # noqa: BLE001 - other damage: keep looking
                continue
    raise AssertionError("no damage found that raises SystemError")


def _sealed(payload: bytes) -> bytes:
    """A file with a right header and checksum around any payload."""
    return MAGIC_NUMBER + code_cache._checksum(payload) + payload


@pytest.mark.parametrize("content", [
    b"", b"garbage", MAGIC_NUMBER + b"\xff\x00", b"\x00\x00\x00\x00{}",
    _sealed(marshal.dumps([1])), _sealed(marshal.dumps({1: 2})), _sealed(b"\xff\x00"),
    _sealed(_system_error_payload()),
], ids=["empty", "garbage", "short", "foreign", "list", "wrong-keys", "bad-marshal",
        "system-error"])
def test_a_damaged_or_foreign_file_is_ignored(kept: Path, content: bytes) -> None:
    kept.write_bytes(content)
    code_cache.install()
    assert code_cache._known == {}
    assert _define("@dataclasses.dataclass\nclass Made:\n    a: int\n")(1).a == 1


def test_a_changed_byte_is_caught_by_the_checksum(kept: Path) -> None:
    code_cache.compiled("x = 1\n", "<now>")
    code_cache.save(kept)
    assert code_cache._load(kept)  # the file as written loads
    data = bytearray(kept.read_bytes())
    for position in range(len(MAGIC_NUMBER), len(data), 7):
        damaged = bytearray(data)
        damaged[position] ^= 0x55
        kept.write_bytes(bytes(damaged))
        assert code_cache._load(kept) == {}, position


def test_only_dpsens_and_libcst_classes_are_kept(kept: Path) -> None:
    # dpsens audit runs the user's code: its dataclasses' fields stay out of the file.
    code_cache.install()
    user = _define("@dataclasses.dataclass\nclass Made:\n    secret_field_name: int\n",
                   "user_module")
    _define("@dataclasses.dataclass\nclass Made:\n    our_field_name: int\n")
    sources = [source for _, source in code_cache._known]
    assert not any("secret_field_name" in source for source in sources)
    assert any("our_field_name" in source for source in sources)
    assert user(3).secret_field_name == 3


def test_flush_writes_only_when_bytecode_may_be_written(kept: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    code_cache.install()
    _define("@dataclasses.dataclass\nclass Made:\n    flushed_field: int\n")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    code_cache.flush()
    assert not kept.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setitem(code_cache._state, "owner", os.getpid() + 1)  # a forked worker
    code_cache.flush()
    assert not kept.exists()
    monkeypatch.setitem(code_cache._state, "owner", os.getpid())
    code_cache.flush()
    assert kept.exists() and code_cache._state["new"] == 0
    assert any("flushed_field" in source for _, source in code_cache._load(kept))


def test_an_unwritable_place_is_not_an_error(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code_cache.install()
    _define("@dataclasses.dataclass\nclass Made:\n    a: int\n")
    blocked = kept.parent / "file" / "generated.bin"
    (kept.parent / "file").write_text("a file where a directory should be")
    code_cache.save(blocked)
    assert not blocked.exists() and code_cache._state["new"] > 0


def test_a_large_file_keeps_only_what_this_process_used(kept: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(code_cache, "LIMIT", 3)
    for i in range(5):
        code_cache.compiled(f"x = {i}\n", "<old>")
    code_cache._used.clear()  # as if loaded from an earlier process's file
    code_cache.compiled("y = 1\n", "<now>")
    code_cache.save(kept)
    assert list(code_cache._load(kept)) == [("<now>", "y = 1\n")]


def test_without_globals_the_text_runs_in_dataclasses_globals_as_exec_would_there() -> None:
    names: dict[str, Any] = {}
    code_cache._dataclasses_exec("where = __name__\n", None, names)
    assert names["where"] == "dataclasses"


def test_prepare_compiles_what_a_run_compiles(tmp_path: Path) -> None:
    kept = tmp_path / "generated.bin"
    examples = Path(__file__).resolve().parent.parent / "examples"
    setup = f"from pathlib import Path\nfrom dpsens import code_cache\ncode_cache.FILE = Path({str(kept)!r})\n"
    subprocess.run([sys.executable, "-c", setup + "code_cache.prepare()"], check=True,
                   cwd=tmp_path)
    run = setup + textwrap.dedent(f"""
        import contextlib, io, sys
        from dpsens.cli import main
        code_cache.install()
        with contextlib.redirect_stdout(io.StringIO()):
            main(["check", "--no-cache", {str(examples)!r}])
        print(code_cache._state["new"], len(code_cache._known))
    """)
    new, known = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True,
                                check=True, cwd=tmp_path).stdout.split()
    assert int(known) > 1000 and int(new) == 0
