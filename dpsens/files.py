"""Find the Python files to check (exclude globs, .gitignore) and name their modules."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

SKIPPED_DIRS = {"__pycache__", ".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv",
                "env", "build", "dist", "node_modules", ".mypy_cache", ".pytest_cache",
                "site-packages", ".eggs", ".dpsens_cache"}

# Reading a named pipe blocks until a writer appears and a device may never end,
# so only regular files are read; other kinds of file are reported with this reason.
NOT_REGULAR = "not a regular file"


@dataclass(frozen=True)
class WalkRules:
    """What a directory walk keeps; globs are gitignore-style, relative to ``root``."""

    root: Path = field(default_factory=Path.cwd)
    include: tuple[str, ...] = ("*.py",)
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True


@dataclass
class Collected:
    """The files to check and what went wrong finding them."""

    files: list[Path] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # paths that do not exist
    empty: list[str] = field(default_factory=list)  # directories without Python files
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (directory or special file, reason)
    excluded: int = 0  # paths passed over because of exclude globs or .gitignore


def collect(paths: Iterable[str], rules: WalkRules | None = None) -> Collected:
    """Python files under the given paths (sorted by displayed path, unique).

    Exclude globs apply to files named on the command line too (pre-commit
    passes every staged file, and an excluded file should stay excluded);
    .gitignore and include globs only filter what a directory walk finds.
    """
    rules = rules or WalkRules()
    _work_tree.cache_clear()  # .gitignore files may have changed since an earlier call
    _ignore_spec.cache_clear()
    matcher = _Matcher(rules)
    out = Collected()
    found: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw)
        try:
            mode = os.stat(path).st_mode  # follows symlinks, as reading does
        except OSError as error:
            _stat_failed(raw, error, out)
            continue
        if matcher.excluded(path, stat.S_ISDIR(mode)):
            out.excluded += 1
        elif stat.S_ISDIR(mode):
            before = len(found)
            for file in _walk(path, matcher, out):
                found.setdefault(str(resolved(file)), file)
            if len(found) == before:
                out.empty.append(raw)
        elif stat.S_ISREG(mode):
            found.setdefault(str(resolved(path)), path)
        else:
            out.unreadable.append((display(path), NOT_REGULAR))
    out.files = sorted(found.values(), key=display)
    return out


def _stat_failed(raw: str, error: OSError, out: Collected) -> None:
    """Record a command-line path that cannot be examined: missing (a dangling symlink too), or why not."""
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        out.missing.append(raw)
    else:  # a symlink loop, a directory on the way that denies access
        out.unreadable.append((display(Path(raw)), error.strerror or type(error).__name__))


def _readable_kind(path: Path, out: Collected) -> bool:
    """Whether a file found by the walk may be read; a pipe, socket or device is recorded as unreadable."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # a dangling or looping symlink: reading it fails at once, reported as unreadable file
        return True
    if stat.S_ISREG(mode):
        return True
    out.unreadable.append((display(path), NOT_REGULAR))
    return False


def _walk(root: Path, matcher: _Matcher, out: Collected) -> Iterator[Path]:
    """The included, not excluded, readable files under root, skipping SKIPPED_DIRS and hidden directories."""
    seen: set[tuple[int, int]] = set()

    def unreadable(error: OSError) -> None:
        out.unreadable.append((display(Path(error.filename)), error.strerror or "unreadable"))

    for directory, subdirs, files in os.walk(root, followlinks=True, onerror=unreadable):
        try:
            info = os.stat(directory)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) in seen:  # a symlink loop
            subdirs[:] = []
            continue
        seen.add((info.st_dev, info.st_ino))
        base = Path(directory)
        kept = []
        for name in sorted(subdirs):
            if name in SKIPPED_DIRS or name.startswith("."):
                continue
            if matcher.excluded(base / name, True, walking=True):
                out.excluded += 1
                continue
            kept.append(name)
        subdirs[:] = kept
        for name in sorted(files):
            if not matcher.included(base / name):
                continue
            if matcher.excluded(base / name, False, walking=True):
                out.excluded += 1
                continue
            if _readable_kind(base / name, out):
                yield base / name


class _Matcher:
    """Include/exclude globs relative to the root, and .gitignore files of the git work tree."""

    def __init__(self, rules: WalkRules) -> None:
        self.root = resolved(rules.root)
        # The defaults need no glob engine: importing pathspec is a tenth of a warm run.
        self.include = None if rules.include == ("*.py",) else _spec(rules.include)
        self.exclude = _spec(rules.exclude) if rules.exclude else None
        self.gitignore = rules.respect_gitignore

    def included(self, path: Path) -> bool:
        if self.include is None:
            return path.name.endswith(".py")
        return self.include.match_file(self._relative(resolved(path), self.root))

    def excluded(self, path: Path, is_dir: bool, walking: bool = False) -> bool:
        absolute = resolved(path)
        if self.exclude is not None:
            relative = self._relative(absolute, self.root) + ("/" if is_dir else "")
            if self.exclude.match_file(relative):
                return True
        return walking and self.gitignore and _git_ignored(absolute, is_dir)

    @staticmethod
    def _relative(path: Path, root: Path) -> str:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            return display(path)


def _spec(lines: tuple[str, ...]) -> GitIgnoreSpec:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _git_ignored(path: Path, is_dir: bool) -> bool:
    """Whether the .gitignore files from the work tree's root down to ``path`` ignore it.

    As in git, the deepest file with a matching pattern decides, and a
    ``!pattern`` re-includes. Outside a git work tree nothing is ignored.
    """
    top = _work_tree(path.parent)
    if top is None:
        return False
    decision = False
    directories = [top, *reversed([d for d in path.parents if top in d.parents])]
    for directory in directories:
        spec = _ignore_spec(directory, directory == top)
        if spec is None:
            continue
        relative = path.relative_to(directory).as_posix() + ("/" if is_dir else "")
        result = spec.check_file(relative).include
        if result is not None:
            decision = result
    return decision


@lru_cache(maxsize=None)
def _work_tree(directory: Path) -> Path | None:
    if (directory / ".git").exists():
        return directory
    return None if directory.parent == directory else _work_tree(directory.parent)


@lru_cache(maxsize=None)
def _ignore_spec(directory: Path, top: bool) -> GitIgnoreSpec | None:
    import pathspec

    lines: list[str] = []
    sources = [directory / ".git" / "info" / "exclude"] if top else []
    for source in (*sources, directory / ".gitignore"):
        try:
            lines.extend(source.read_text(errors="replace").splitlines())
        except OSError:
            continue
    return pathspec.GitIgnoreSpec.from_lines(lines) if lines else None


def display(path: Path) -> str:
    """The path as shown in output: relative to the working directory, POSIX style."""
    try:
        shown = os.path.relpath(path)
    except ValueError:
        shown = path.name
    return Path(shown).as_posix()


def from_repository_root(shown: str) -> str:
    """A displayed (working-directory-relative) path relative to the enclosing repository
    root instead (the nearest directory upward holding ``.git``), as SARIF's %SRCROOT% and
    GitHub's annotations expect; unchanged outside a repository or outside its root."""
    here = Path.cwd()
    root = next((d for d in (here, *here.parents) if (d / ".git").exists()), None)
    if root is None or root == here:
        return shown
    target = Path(os.path.normpath(here / shown))
    try:
        return target.relative_to(root).as_posix()
    except ValueError:  # a file outside the repository: keep what was displayed
        return shown


def resolved(path: Path) -> Path:
    """The absolute path without symlinks; a symlink loop stays as it is (reading it fails)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python 3.11)
        return Path(os.path.abspath(path))


def module_name(path: Path) -> str:
    """The dotted module name, walking up through packages (directories with __init__.py)."""
    path = resolved(path)
    parts = [] if path.stem == "__init__" else [path.stem]
    directory = path.parent
    while (directory / "__init__.py").exists():
        parts.append(directory.name)
        directory = directory.parent
    return ".".join(reversed(parts)) or path.stem


__all__ = ["Collected", "WalkRules", "collect", "display", "module_name", "resolved"]
