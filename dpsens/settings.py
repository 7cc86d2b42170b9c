"""Command-line flags over ``[tool.dpsens]``: the settings of one check run."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import TypeVar

from dpsens.check import Settings
from dpsens.config import Config, ConfigError, find_config, load_config
from dpsens.files import WalkRules, display
from dpsens.options import Options, dimension_problem
from dpsens.selection import Selection, normalize_codes

CACHE_DIR = ".dpsens_cache"
T = TypeVar("T", int, float)


def settings_from(args: argparse.Namespace) -> tuple[Settings, list[str]]:
    """The run's settings, and notes for --verbose (raises ConfigError for bad input)."""
    config = _config(args.config, args.paths)
    notes = [f"config: {display(config.source)}" if config.source else "config: none found"]
    options = Options(
        delta_prime=args.delta_prime or config.delta_prime or Options.delta_prime,
        beta=config.beta or Options.beta,
        bindings=config.bindings + _bindings(args.bind),
        budget_deltas=tuple((b.pattern, b.delta) for b in config.budgets if b.delta is not None),
    )
    selection = Selection(config.select, config.ignore).narrowed(
        _codes(args.select, "--select") if args.select else None, _codes(args.ignore, "--ignore"))
    cache_dir = _cache_dir(args, config)
    notes.append(f"cache: {display(cache_dir)}" if cache_dir else "cache: off")
    settings = Settings(
        stub_dirs=(*config.stubs, *(Path(d) for d in args.stubs)),
        options=options,
        selection=selection,
        budgets=config.budgets,
        walk=WalkRules(config.root, config.include, config.exclude, config.respect_gitignore),
        cache_dir=cache_dir,
        jobs=args.jobs,
        progress=not args.quiet,
        time_limit=_limit(args.timeout, config.timeout, Settings.time_limit),
        max_file_size=_limit(args.max_file_size, config.max_file_size, Settings.max_file_size),
    )
    _check_stubs(settings.stub_dirs)
    return settings, notes


def audit_settings(args: argparse.Namespace) -> tuple[Settings, dict[str, float]]:
    """The settings of ``dpsens audit`` and its bindings: the configuration check would use
    for the audited file (stubs, bindings, delta_prime, beta, limits), flags over it.

    The bindings are returned apart (configured ones first, --bind winning): the audit
    also needs them to call the function; the settings' options carry none.  Neither
    include/exclude nor the cache apply: the audited file is analyzed as named.
    """
    path = args.target.rpartition("::")[0]
    config = _config(args.config, [path] if path else [])
    bindings = dict(config.bindings)
    bindings.update(_bindings(args.bind))
    settings = Settings(
        stub_dirs=(*config.stubs, *(Path(d) for d in args.stubs)),
        options=Options(delta_prime=args.delta_prime or config.delta_prime or Options.delta_prime,
                        beta=config.beta or Options.beta),
        time_limit=_limit(None, config.timeout, Settings.time_limit),
        max_file_size=_limit(None, config.max_file_size, Settings.max_file_size),
    )
    _check_stubs(settings.stub_dirs)
    return settings, bindings


def _check_stubs(directories: tuple[Path, ...]) -> None:
    for directory in directories:
        if not directory.is_dir():
            raise ConfigError(f"--stubs '{directory}' is not a directory")


def _limit(flag: T | None, configured: T | None, default: T | None) -> T | None:
    """The flag, else the config, else the default; 0 means no limit (None)."""
    value = flag if flag is not None else configured if configured is not None else default
    return value or None


def _config(flag: str | None, paths: list[str]) -> Config:
    """--config's file, else the nearest pyproject.toml with [tool.dpsens] above ``paths``."""
    if flag:
        path = Path(flag)
        if not path.is_file():
            raise ConfigError(f"--config '{flag}' is not a file")
        return load_config(path, path.parent)
    return load_config(find_config(_start(paths)), Path.cwd())


def _start(paths: list[str]) -> Path:
    """Where the config search starts: the deepest directory holding every checked path."""
    if not paths:
        return Path.cwd()
    absolute = [os.path.abspath(p) for p in paths]
    common = Path(os.path.commonpath(absolute))
    return common if common.is_dir() else common.parent


def _cache_dir(args: argparse.Namespace, config: Config) -> Path | None:
    if args.no_cache:
        return None
    if args.cache_dir:
        return Path(args.cache_dir)
    if os.environ.get("DPSENS_CACHE_DIR"):
        return Path(os.environ["DPSENS_CACHE_DIR"])
    return config.cache_dir or config.root / CACHE_DIR


def _codes(values: list[str], flag: str) -> tuple[str, ...]:
    items = [item for value in values for item in value.split(",") if item.strip()]
    try:
        return normalize_codes(items)
    except ValueError as error:
        raise ConfigError(f"{flag}: {error}") from None


def _bindings(pairs: list[str]) -> tuple[tuple[str, float], ...]:
    out = []
    for pair in pairs:
        name, sep, value = pair.partition("=")
        try:
            number = float(value)
        except ValueError:
            sep = ""
        if not sep or not name.strip() or math.isnan(number):
            raise ConfigError(f"--bind expects NAME=NUMBER, got '{pair}'")
        problem = dimension_problem(name.strip(), number)
        if problem is not None:
            raise ConfigError(f"--bind '{pair}': {name.strip()} {problem}")
        if math.isinf(number):
            raise ConfigError(f"--bind '{pair}': a static value must be a finite number")
        out.append((name.strip(), number))
    return tuple(out)


__all__ = ["CACHE_DIR", "audit_settings", "settings_from"]
