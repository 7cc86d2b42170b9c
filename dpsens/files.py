"""Find the Python files to check and name their modules."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

SKIPPED_DIRS = {"__pycache__", ".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv",
                "env", "build", "dist", "node_modules", ".mypy_cache", ".pytest_cache",
                "site-packages", ".eggs"}


def collect(paths: Iterable[str]) -> tuple[list[Path], list[str]]:
    """Python files under the given paths (sorted, unique) and the paths that do not exist."""
    found: dict[str, Path] = {}
    missing: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for file in _walk(path):
                found.setdefault(str(file.resolve()), file)
        elif path.is_file() or path.suffix in (".py", ".pyi"):
            if not path.exists():
                missing.append(raw)
                continue
            found.setdefault(str(path.resolve()), path)
        else:
            missing.append(raw)
    return sorted(found.values(), key=display), missing


def _walk(root: Path) -> Iterable[Path]:
    seen: set[tuple[int, int]] = set()
    for directory, subdirs, files in os.walk(root, followlinks=True):
        try:
            info = os.stat(directory)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) in seen:  # a symlink loop
            subdirs[:] = []
            continue
        seen.add((info.st_dev, info.st_ino))
        subdirs[:] = sorted(d for d in subdirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                yield Path(directory) / name


def display(path: Path) -> str:
    """The path as shown in output: relative to the working directory, POSIX style."""
    try:
        shown = os.path.relpath(path)
    except ValueError:
        shown = path.name
    return Path(shown).as_posix()


def module_name(path: Path) -> str:
    """The dotted module name, walking up through packages (directories with __init__.py)."""
    path = path.resolve()
    parts = [] if path.stem == "__init__" else [path.stem]
    directory = path.parent
    while (directory / "__init__.py").exists():
        parts.append(directory.name)
        directory = directory.parent
    return ".".join(reversed(parts)) or path.stem
