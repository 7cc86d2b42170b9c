"""Compiled code of generated source, kept between runs as bytecode is.

Importing LibCST and dpsens's own modules defines about 270 dataclasses, and
dataclasses writes each one's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` as source text and compiles
it: about 1,000 compilations, 85 ms of the 0.42 s a run spends importing
(measured on this machine: 0.415 s without this module, 0.330 s with it). The
text depends only on the class's fields and options, so its code object can be
kept, like a module's bytecode, in a file in dpsens's ``__pycache__``, keyed by
the text: ``install`` gives dataclasses an ``exec`` that takes the kept code
object for a text it has compiled before. The code is the one ``compile`` gives
for that text (same file name, flags and optimization level), so every class is
built exactly as without the cache.

Only the classes of dpsens and LibCST are kept (``KEPT``): the user code that
``dpsens audit`` runs may define dataclasses too, and their field names are not
written into the installed package. The file is written, as bytecode is, only
when ``sys.dont_write_bytecode`` is unset (``prepare`` writes it regardless, as
compileall does); a missing, unreadable, foreign or damaged file (a checksum
guards its content) only means compiling again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

# The packages whose dataclasses' generated code is kept.
KEPT = ("dpsens", "libcst")
# Above this many entries, a save keeps only the texts this process used, so that the
# file cannot grow without bound across library upgrades.
LIMIT = 5_000
# Named as bytecode is: code compiled under -O or -OO is kept apart.
FILE = Path(__file__).parent / "__pycache__" / (
    f"generated-code.{sys.implementation.cache_tag}"
    f"{f'.opt-{sys.flags.optimize}' if sys.flags.optimize else ''}.bin")

_CHECKSUM_SIZE = 16  # bytes of blake2b after the magic number

_known: dict[tuple[str, str], CodeType] = {}
_used: set[tuple[str, str]] = set()
_state = {"new": 0, "owner": 0}


def install() -> None:
    """Load the kept code and let dataclasses use it (once a process; ``flush`` keeps
    what was compiled since)."""
    if _state["owner"]:
        return
    _state["owner"] = os.getpid()
    _known.update(_load(FILE))
    # dataclasses calls exec by its global name: a module global shadows the builtin.
    dataclasses.exec = _dataclasses_exec  # type: ignore[attr-defined]


def flush() -> None:
    """Write the file when something new was compiled, as bytecode is written: by the
    installing process (not forked workers), unless dont_write_bytecode is set."""
    if _state["new"] and os.getpid() == _state["owner"] and not sys.dont_write_bytecode:
        save(FILE)


def compiled(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")`` without inherited flags, remembered."""
    key = (filename, source)
    _used.add(key)
    code = _known.get(key)
    if code is None:
        code = _known[key] = compile(source, filename, "exec", dont_inherit=True)
        _state["new"] += 1
    return code


def prepare() -> None:
    """Compile what a run of the analyzer imports and write the file, as compileall
    writes bytecode (benchmarks and installs call it; it ignores dont_write_bytecode)."""
    import contextlib
    import importlib
    import io
    import tempfile

    install()  # before the imports below, whose classes are to be kept
    from dpsens.cli import main
    from dpsens.frontend.parse import parse_module

    # LibCST's classes and faster constructors: a run as small as the one below parses in
    # a child process, whose compilations are not kept.
    parse_module("x = 1\n", "prepare.py", "prepare")
    importlib.import_module("dpsens.privacy.dp_events")  # (a run with a PLD imports it)
    with tempfile.TemporaryDirectory() as directory:  # what a run imports and builds
        example = Path(directory) / "example.py"
        example.write_text(
            "from dpsens import Priv, Real, Static, laplace_mechanism\n\n\n"
            "def f(x: Real) -> Real:\n    return 2 * x\n\n\n"
            "def g(x: Real, eps: Static[float]) -> Priv[Real]:\n"
            "    return laplace_mechanism(2.0, eps, f(x))\n")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--no-cache", str(example)])
    save(FILE)


def save(path: Path) -> None:
    """Write the kept code (only this process's when there is too much); errors are
    ignored, as for bytecode."""
    keep = _known if len(_known) <= LIMIT else {k: _known[k] for k in _used if k in _known}
    temporary = path.with_name(f"{path.name}.{os.getpid()}")
    try:
        payload = marshal.dumps(keep)
        path.parent.mkdir(exist_ok=True)
        temporary.write_bytes(MAGIC_NUMBER + _checksum(payload) + payload)
        os.replace(temporary, path)  # atomic: a concurrent run reads the old or the new file
    except (OSError, ValueError):
        try:
            temporary.unlink()
        except OSError:
            pass
        return
    _state["new"] = 0


def _dataclasses_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """``exec`` as dataclasses calls it, with the kept code for a text."""
    if globals is None:  # exec's default: the caller's globals, which are dataclasses'
        globals = vars(dataclasses)
    if type(source) is str and str(globals.get("__name__", "")).partition(".")[0] in KEPT:
        source = compiled(source, "<string>")
    exec(source, globals, locals)


def _checksum(payload: bytes) -> bytes:
    """A digest of the file's content: a damaged file is not loaded (1.5 ms for 1 MB)."""
    return hashlib.blake2b(payload, digest_size=_CHECKSUM_SIZE).digest()


def _load(path: Path) -> dict[tuple[str, str], CodeType]:
    """The kept code of a file; empty when it is missing, foreign or damaged."""
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    header = len(MAGIC_NUMBER) + _CHECKSUM_SIZE
    payload = data[header:]
    if data[:header] != MAGIC_NUMBER + _checksum(payload):
        return {}
    try:
        found = marshal.loads(payload)
    except Exception:  # noqa: BLE001 - marshal raises SystemError too on some damage
        return {}
    if type(found) is not dict:
        return {}
    return {key: code for key, code in found.items()
            if type(key) is tuple and len(key) == 2 and type(key[0]) is str
            and type(key[1]) is str and type(code) is CodeType}


__all__ = ["FILE", "LIMIT", "compiled", "flush", "install", "prepare", "save"]
