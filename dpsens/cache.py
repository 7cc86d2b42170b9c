"""The on-disk cache: parse facts per file and reports per analysis unit, as JSON.

Entries are keyed by content digests, never by modification times (CI
checkouts reset them). Every key includes a fingerprint of the analyzer's own
code, so an upgrade (or an edit of an editable install) starts afresh.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterable, Sequence

from dpsens.diagnostics import Diagnostic

FORMAT = "1"  # bump when the layout of entries changes
_GITIGNORE = "# Automatically created by dpsens.\n*\n"
_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
        "# This file is a cache directory tag created by dpsens.\n")


class Cache:
    """Read and write entries under one directory; any I/O problem is a miss, never a failure."""

    def __init__(self, directory: Path, tool: str, analysis: str) -> None:
        self.directory = directory
        self.tool = tool  # fingerprint of the analyzer code: keys parse facts
        self.analysis = analysis  # + stubs and options: keys unit reports
        self.writable = True
        self.hits = 0
        self.misses = 0

    def load(self, kind: str, identity: str, key: str) -> dict[str, Any] | None:
        """The entry stored for ``identity`` if it was stored under ``key``."""
        try:
            entry = json.loads(self._path(kind, identity).read_text())
        except (OSError, ValueError):
            entry = None
        if isinstance(entry, dict) and entry.get("key") == key:
            self.hits += 1
            return entry
        self.misses += 1
        return None

    def store(self, kind: str, identity: str, key: str, entry: dict[str, Any]) -> None:
        """Write an entry atomically (a concurrent reader sees the old or the new one)."""
        if not self.writable:
            return
        path = self._path(kind, identity)
        try:
            self._prepare(path.parent)
            handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(handle, "w") as out:
                json.dump({**entry, "key": key}, out, separators=(",", ":"))
            os.replace(temporary, path)
        except OSError:
            self.writable = False  # a read-only checkout: run uncached, do not fail

    def _path(self, kind: str, identity: str) -> Path:
        name = hashlib.sha256(identity.encode()).hexdigest()[:32]
        return self.directory / f"v{FORMAT}" / kind / name[:2] / f"{name}.json"

    def _prepare(self, directory: Path) -> None:
        if directory.is_dir():
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        for name, content in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _TAG)):
            marker = self.directory / name
            if not marker.exists():
                marker.write_text(content)
        directory.mkdir(parents=True, exist_ok=True)


def digest(*parts: object) -> str:
    """A stable hash of JSON-able parts."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def tool_fingerprint() -> str:
    """The analyzer version, the digest of its source files, and the versions of Python
    and of the libraries results depend on."""
    import dpsens

    package = Path(dpsens.__file__).parent
    hasher = hashlib.sha256(f"{FORMAT}:{dpsens.__version__}:{_environment()}".encode())
    for path in sorted(package.rglob("*.py")):
        hasher.update(path.relative_to(package).as_posix().encode())
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


# CPython's parser decides what is a syntax error, LibCST what a module is, sympy the
# algebra, dp-accounting the PLD accountant's ε, numpy what `dpsens audit` runs.
_LIBRARIES = ("libcst", "sympy", "dp_accounting", "numpy")


def _environment() -> str:
    """Python's version and the installed versions of the libraries, read from their
    dist-info directories (importlib.metadata would cost 40 ms a run)."""
    found = [sys.version]
    listings: dict[Path, list[str]] = {}
    for name in _LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            found.append(f"{name}: not installed")
            continue
        site = Path(spec.origin).parent.parent
        if site not in listings:
            try:
                listings[site] = sorted(os.listdir(site))
            except OSError:
                listings[site] = []
        versions = [entry for entry in listings[site]
                    if entry.lower().startswith(f"{name}-") and entry.endswith(".dist-info")]
        found.append(f"{name}: {versions or spec.origin}")
    return "; ".join(found)


def analysis_fingerprint(tool: str, stub_dirs: Sequence[Path], options: object) -> str:
    """The tool fingerprint plus every stub file's content and the analysis options (an
    unreadable stub counts by its error: the run reports it)."""
    hasher = hashlib.sha256(f"{tool}:{options!r}".encode())
    for directory in stub_dirs:
        for path in sorted(Path(directory).glob("*.pyi")):
            hasher.update(path.name.encode())
            try:
                hasher.update(path.read_bytes())
            except OSError as error:
                hasher.update(type(error).__name__.encode())
    return hasher.hexdigest()


def encode_diagnostics(items: Iterable[Diagnostic]) -> list[list[Any]]:
    """Diagnostics as compact JSON rows (the path is the key they are stored under)."""
    return [[d.line, d.column, d.code, d.message, d.severity, d.end_line, d.end_column]
            for d in items]


def decode_diagnostics(path: str, rows: Iterable[list[Any]]) -> list[Diagnostic]:
    """The inverse of encode_diagnostics."""
    return [Diagnostic(path, line, column, code, message, severity, end_line, end_column)
            for line, column, code, message, severity, end_line, end_column in rows]


__all__ = ["Cache", "analysis_fingerprint", "decode_diagnostics", "digest",
           "encode_diagnostics", "tool_fingerprint"]
