"""The ``[tool.dpsens]`` table of ``pyproject.toml``: found, parsed and validated."""

from __future__ import annotations

import difflib
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from dpsens.selection import normalize_codes


class ConfigError(Exception):
    """A configuration problem; the message names the file and the key."""


@dataclass(frozen=True)
class Budget:
    """A privacy budget for the functions whose qualified name matches ``pattern``."""

    pattern: str
    epsilon: float | None = None
    delta: float | None = None


@dataclass(frozen=True)
class Config:
    """Validated settings; ``root`` is the directory globs and stub paths are relative to."""

    root: Path
    source: Path | None = None  # the pyproject.toml read, if any
    include: tuple[str, ...] = ("*.py",)
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    stubs: tuple[Path, ...] = ()
    delta_prime: float | None = None
    beta: float | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    bindings: tuple[tuple[str, float], ...] = ()
    budgets: tuple[Budget, ...] = ()
    cache_dir: Path | None = None
    timeout: float | None = None  # seconds per file; 0 disables the limit
    max_file_size: int | None = None  # bytes; 0 disables the limit


def find_config(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` with a ``[tool.dpsens]`` table.

    Like ruff, a pyproject.toml without the table is passed over, so a
    sub-package's own packaging file does not hide the project's settings.
    """
    directory = start.resolve()
    if not directory.is_dir():
        directory = directory.parent
    for candidate in (directory, *directory.parents):
        path = candidate / "pyproject.toml"
        if path.is_file() and "dpsens" in _tool(path):
            return path
    return None


def load_config(path: Path | None, default_root: Path) -> Config:
    """The settings of a pyproject.toml (defaults when ``path`` is None)."""
    if path is None:
        return Config(root=default_root)
    table = _tool(path).get("dpsens", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{_shown(path)}: [tool.dpsens] must be a table")
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        hint = difflib.get_close_matches(unknown[0], list(_KEYS), n=1)
        suggestion = f" (did you mean '{hint[0]}'?)" if hint else ""
        raise ConfigError(f"{_shown(path)}: unknown key 'tool.dpsens.{unknown[0]}'{suggestion}")
    values: dict[str, Any] = {}
    for key, raw in table.items():
        try:
            values[_FIELDS.get(str(key), str(key))] = _KEYS[key](raw, path.parent)
        except _Bad as error:
            where = f"tool.dpsens.{key}{error.subkey}"
            raise ConfigError(f"{_shown(path)}: '{where}' {error}") from None
    return Config(root=path.parent, source=path, **values)


def _tool(path: Path) -> dict[str, Any]:
    """The ``[tool]`` table of a pyproject.toml (empty when there is none)."""
    tool = _read(path).get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{_shown(path)}: 'tool' must be a table, got {_kind(tool)}")
    return tool


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{_shown(path)}: invalid TOML: {error}") from None
    except UnicodeDecodeError as error:  # TOML is UTF-8; tomllib does not wrap this one
        line = error.object[:error.start].count(b"\n") + 1
        byte = error.object[error.start:error.start + 1].hex()
        raise ConfigError(f"{_shown(path)}: invalid TOML: not UTF-8 text "
                          f"(byte 0x{byte} on line {line})") from None
    except RecursionError:
        raise ConfigError(f"{_shown(path)}: invalid TOML: nested too deeply") from None
    except OSError as error:
        raise ConfigError(f"{_shown(path)}: cannot read: {error.strerror}") from None


def _kind(value: object) -> str:
    """How a TOML value is described in messages: 'a string', 'an integer', ..."""
    names = {str: "a string", bool: "a boolean", int: "an integer", float: "a float",
             list: "an array"}
    return names.get(type(value), f"a {type(value).__name__}")


def _shown(path: Path) -> str:
    from dpsens.files import display

    return display(path)


class _Bad(ValueError):
    """A bad value; ``subkey`` locates it inside a table (``."pattern".epsilon``)."""

    def __init__(self, message: str, subkey: str = "") -> None:
        super().__init__(message)
        self.subkey = subkey


def _strings(raw: object, root: Path) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise _Bad("must be a list of strings")
    return tuple(raw)


def _stubs(raw: object, root: Path) -> tuple[Path, ...]:
    given = _strings(raw, root)
    for item in given:
        if not (root / item).is_dir():
            raise _Bad(f"names '{item}', which is not a directory (paths are relative to "
                       f"the pyproject.toml)")
    return tuple(root / item for item in given)


def _number(raw: object, subkey: str = "") -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or math.isnan(raw):
        raise _Bad(f"must be a number, got {raw!r}", subkey)
    return float(raw)


def _limit(raw: object, root: Path) -> float:
    value = _number(raw)
    if value < 0 or math.isinf(value):
        raise _Bad(f"must be a number >= 0 (0: no limit), got {raw!r}")
    return value


def _size(raw: object, root: Path) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise _Bad(f"must be a whole number of bytes >= 0 (0: no limit), got {raw!r}")
    return raw


def _probability(raw: object, root: Path) -> float:
    value = _number(raw)
    if not 0 < value < 1:
        raise _Bad(f"must be in (0, 1), got {raw!r}")
    return value


def _codes(raw: object, root: Path) -> tuple[str, ...]:
    try:
        return normalize_codes(_strings(raw, root))
    except ValueError as error:
        raise _Bad(str(error)) from None


def _bindings(raw: object, root: Path) -> tuple[tuple[str, float], ...]:
    from dpsens.options import dimension_problem

    if not isinstance(raw, dict):
        raise _Bad('must be a table of name = number, e.g. "rows(data)" = 60000')
    out = []
    for name, value in raw.items():
        number = _number(value, f'."{name}"')
        problem = dimension_problem(name, number)
        if problem is not None:
            raise _Bad(problem, f'."{name}"')
        if math.isinf(number):
            raise _Bad(f"must be a finite number, got {value!r}", f'."{name}"')
        out.append((name, number))
    return tuple(out)


def _budgets(raw: object, root: Path) -> tuple[Budget, ...]:
    if not isinstance(raw, dict):
        raise _Bad('must be a table of glob = {epsilon = ..., delta = ...}')
    budgets = []
    for pattern, limits in raw.items():
        where = f'."{pattern}"'
        if not isinstance(limits, dict) or not limits:
            raise _Bad("must be a table with epsilon and/or delta", where)
        extra = sorted(set(limits) - {"epsilon", "delta"})
        if extra:
            raise _Bad("is unknown (a budget has 'epsilon' and 'delta')", f"{where}.{extra[0]}")
        found = {}
        for key, value in limits.items():
            number = _number(value, f"{where}.{key}")
            if number < 0:
                raise _Bad(f"must not be negative, got {value!r}", f"{where}.{key}")
            found[key] = number
        budgets.append(Budget(pattern, found.get("epsilon"), found.get("delta")))
    return tuple(budgets)


def _flag(raw: object, root: Path) -> bool:
    if not isinstance(raw, bool):
        raise _Bad(f"must be true or false, got {raw!r}")
    return raw


def _directory(raw: object, root: Path) -> Path:
    if not isinstance(raw, str) or not raw:
        raise _Bad("must be a path (a string)")
    return root / raw


_KEYS: dict[str, Callable[[Any, Path], Any]] = {
    "include": _strings, "exclude": _strings, "respect_gitignore": _flag, "stubs": _stubs,
    "delta_prime": _probability, "beta": _probability, "select": _codes, "ignore": _codes,
    "bindings": _bindings, "budget": _budgets, "cache_dir": _directory, "timeout": _limit,
    "max_file_size": _size,
}


# The key reads naturally in TOML ([tool.dpsens.budget]); the field holds several.
_FIELDS: dict[str, str] = {"budget": "budgets"}


__all__ = ["Budget", "Config", "ConfigError", "find_config", "load_config"]
