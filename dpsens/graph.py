"""The import graph of the checked modules, and the units analyzed (and cached) together."""

from __future__ import annotations

import hashlib
import io
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from dpsens.diagnostics import Diagnostic
from dpsens.files import display, resolved


@dataclass
class Source:
    """One file: its text (None if unreadable), content digest and module name."""

    path: Path
    shown: str
    name: str
    text: str | None
    digest: str
    problems: list[Diagnostic] = field(default_factory=list)  # reading or decoding
    reported: bool = False  # a checked file that names dpsens (or could not be read)


@dataclass(frozen=True)
class Facts:
    """What parsing a module tells the driver: its imports, and whether it parsed."""

    imports: tuple[str, ...]
    parsed: bool
    problems: tuple[Diagnostic, ...] = ()
    writes: tuple[str, ...] = ()  # other modules' objects it may change (R-global)


@dataclass(frozen=True)
class Unit:
    """Reported modules analyzed in one program: one strongly connected import component.

    Modules that import each other are analyzed together so that recursion
    through them is found from the same entry point, however they are reached.
    """

    members: tuple[Source, ...]
    closure: tuple[Source, ...]  # every other module the members import, transitively


def read(path: Path, shown: str) -> Source:
    """Read and decode a file (as the frontend does), with the digest of its bytes."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return Source(path, shown, "", None, "", [Diagnostic(shown, 1, 1, "DPS002",
                                                              f"cannot read file: {reason}")])
    digest = hashlib.sha256(raw).hexdigest()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        text = raw.decode(encoding)
    except (SyntaxError, LookupError) as error:
        return Source(path, shown, "", None, digest,
                      [Diagnostic(shown, 1, 1, "DPS003", f"cannot decode file: {error}")])
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        message = f"file is not valid {error.encoding}: byte 0x{raw[error.start]:02x}"
        return Source(path, shown, "", None, digest, [Diagnostic(shown, line, column, "DPS003",
                                                                 message)])
    return Source(path, shown, "", text[1:] if text.startswith("\ufeff") else text, digest)


class ModuleGraph:
    """Checked and imported modules, resolved the way the analysis resolves them."""

    def __init__(self, checked: Iterable[Source]) -> None:
        self.sources: dict[str, Source] = {}
        self.by_name: dict[str, Source] = {}
        self._by_path: dict[Path, Source] = {}
        self._looked_up: dict[tuple[Path, str], Source | None] = {}  # imports repeat across files
        self._resolved: dict[tuple[Path, str], Source | None] = {}
        self._roots: dict[str, Path] = {}
        for source in sorted(checked, key=lambda s: (not s.reported, s.shown)):
            self._add(source)
            self.by_name.setdefault(source.name, source)  # the first reported file wins
        self.facts: dict[str, Facts] = {}
        self.edges: dict[str, tuple[str, ...]] = {}
        self.writers: dict[str, set[str]] = {}  # module -> modules that may change its objects

    def parsed(self, shown: str) -> bool:
        """Whether the module parsed (an unreadable or unparsable one has no IR)."""
        return shown in self.facts and self.facts[shown].parsed

    def problems(self, shown: str) -> tuple[Diagnostic, ...]:
        """The parse problems of a module (a syntax error, a NUL byte)."""
        return self.facts[shown].problems if shown in self.facts else ()

    def _add(self, source: Source) -> None:
        self.sources[source.shown] = source
        self._by_path[resolved(source.path)] = source

    def expand(self, provide: Callable[[list[Source]], dict[str, Facts]]) -> None:
        """Resolve imports breadth first from the reported modules; ``provide`` parses."""
        frontier = [s for s in self.sources.values() if s.reported and s.text is not None]
        while frontier:
            missing = [s for s in frontier if s.shown not in self.facts and s.text is not None]
            self.facts.update(provide(missing) if missing else {})
            following: dict[str, Source] = {}
            for source in frontier:
                facts = self.facts.get(source.shown, Facts((), False))
                targets = (self._resolve(source, t) for t in facts.imports)
                deps = sorted({d.shown for d in targets if d is not None and d is not source})
                self.edges[source.shown] = tuple(deps)
                for write in facts.writes:  # `cfg.ARR`, not `cfg` (a call `cfg.f()`)
                    written = self._resolve(source, write)
                    if written is not None and written is not source and written.name != write:
                        self.writers.setdefault(written.shown, set()).add(source.shown)
                for dep in deps:
                    if dep not in self.edges:
                        following[dep] = self.sources[dep]
            frontier = list(following.values())

    def _resolve(self, importer: Source, qualified: str) -> Source | None:
        """The module an import names: ``pkg.mod.func`` may name pkg.mod.func or pkg.mod."""
        root = self._root(importer)
        key = (root, qualified)
        if key not in self._resolved:  # every file of a package imports the same names
            self._resolved[key] = self._lookup(root, qualified)
        return self._resolved[key]

    def _lookup(self, root: Path, qualified: str) -> Source | None:
        parts = qualified.split(".")
        for name in (".".join(parts[:i]) for i in range(len(parts), 0, -1)):
            if name in self.by_name:
                return self.by_name[name]
            found = self._on_disk(root, name)
            if found is not None:
                return found
        return None

    def _root(self, importer: Source) -> Path:
        """The directory the importer's top-level package sits in."""
        if importer.shown not in self._roots:
            depth = len(importer.name.split("."))
            root = importer.path.parent
            if importer.path.name == "__init__.py":
                depth -= 1
            for _ in range(depth - 1):
                root = root.parent
            self._roots[importer.shown] = root
        return self._roots[importer.shown]

    def _on_disk(self, root: Path, name: str) -> Source | None:
        """A module beside the importer's package root (pre-commit passes only staged files)."""
        key = (root, name)
        if key not in self._looked_up:
            self._looked_up[key] = self._find(root, name)
        return self._looked_up[key]

    def _find(self, root: Path, name: str) -> Source | None:
        relative = Path(*name.split("."))
        for candidate in (root / relative.with_suffix(".py"), root / relative / "__init__.py"):
            if candidate.is_file():
                known = self._by_path.get(resolved(candidate))
                if known is None:
                    known = read(candidate, display(candidate))
                    known.name = name
                    self._add(known)
                    self.by_name.setdefault(name, known)
                    self._resolved.clear()  # a name found nowhere before may resolve now
                return known
        return None

    def units(self) -> list[Unit]:
        """The units to analyze, in a deterministic order."""
        parsed = {s for s in self.facts if self.parsed(s)}
        self._add_writers()
        units = []
        for component in _strongly_connected(sorted(parsed), self.edges):
            members = tuple(self.sources[s] for s in sorted(component) if self.sources[s].reported)
            if not members:
                continue
            reached = self._closure(component) - set(component)
            units.append(Unit(members, tuple(self.sources[s] for s in sorted(reached))))
        return sorted(units, key=lambda u: u.members[0].shown)

    def _add_writers(self) -> None:
        """A module that may change another's objects is analyzed with it (R-global): an
        edge to the writer from the written module and from everything it imports (the
        object may be re-exported from there)."""
        extra: dict[str, set[str]] = {}
        for written, writers in self.writers.items():
            for node in self._closure([written]):
                extra.setdefault(node, set()).update(writers)
        for node, writers in extra.items():
            self.edges[node] = tuple(sorted({*self.edges.get(node, ()), *writers} - {node}))
        self.writers = {}

    def _closure(self, roots: Iterable[str]) -> set[str]:
        seen: set[str] = set()
        pending = list(roots)
        while pending:
            node = pending.pop()
            if node not in seen:
                seen.add(node)
                pending.extend(self.edges.get(node, ()))
        return seen


def _strongly_connected(nodes: list[str], edges: dict[str, tuple[str, ...]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (import chains may be deeper than the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    node_set = set(nodes)
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(edges.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next((c for c in children if c in node_set), None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    out.append(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(edges.get(child, ()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


__all__ = ["Facts", "ModuleGraph", "Source", "Unit", "read"]
