"""The import graph of the checked modules, and the units analyzed (and cached) together."""

from __future__ import annotations

import hashlib
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from dpsens.diagnostics import Diagnostic
from dpsens.files import display, resolved
from dpsens.text import line_and_column


@dataclass
class Source:
    """One file: its text (None if unreadable), content digest and module name."""

    path: Path
    shown: str
    name: str
    text: str | None
    digest: str
    problems: list[Diagnostic] = field(default_factory=list)  # reading or decoding
    # a checked file that names dpsens (or could not be read), or that imports a reported
    # module of the checked set (ModuleGraph.include_importers)
    reported: bool = False


@dataclass(frozen=True)
class Facts:
    """What parsing a module tells the driver: its imports, and whether it parsed."""

    imports: tuple[str, ...]
    parsed: bool
    problems: tuple[Diagnostic, ...] = ()
    writes: tuple[str, ...] = ()  # other modules' objects it may change (R-global)
    patches: tuple[str, ...] = ()  # library functions it replaces (``numpy.sum``: R-patched)


@dataclass(frozen=True)
class Bindings:
    """What a module's top-level statements bind, from CPython's parser: whether it takes
    something of dpsens through another module (ModuleGraph.include_importers)."""

    names: dict[str, str]  # name -> the qualified name an import binds it to
    stars: tuple[str, ...] = ()  # modules imported with ``from m import *``
    defined: frozenset[str] = frozenset()  # names bound otherwise (def, class, assignment)


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
        line, column = line_and_column(raw, error.start)
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
        self._checked = sorted(checked, key=lambda s: s.shown)
        for source in sorted(self._checked, key=lambda s: not s.reported):
            self._add(source)
            self.by_name.setdefault(source.name, source)  # the first reported file wins
        self.facts: dict[str, Facts] = {}
        self.edges: dict[str, tuple[str, ...]] = {}
        self.writers: dict[str, set[str]] = {}  # module -> modules that may change its objects
        self._bindings: dict[str, Bindings | None] = {}  # include_importers: what imports bind
        self._scan: Callable[[list[Source]], dict[str, Bindings | None]] = lambda _: {}

    def parsed(self, shown: str) -> bool:
        """Whether the module parsed (an unreadable or unparsable one has no IR)."""
        return shown in self.facts and self.facts[shown].parsed

    def writes(self, shown: str) -> tuple[str, ...]:
        """The other modules' objects a module may change (R-global), as its facts say."""
        facts = self.facts.get(shown)
        return facts.writes if facts is not None else ()

    def problems(self, shown: str) -> tuple[Diagnostic, ...]:
        """The parse problems of a module (a syntax error, a NUL byte)."""
        return self.facts[shown].problems if shown in self.facts else ()

    def _add(self, source: Source) -> None:
        self.sources[source.shown] = source
        self._by_path[resolved(source.path)] = source

    def include_importers(self, scan: Callable[[list[Source]], dict[str, Bindings | None]]
                          ) -> None:
        """Report, besides the checked files that name dpsens, those that take something of
        dpsens from a reported module of the checked set, to a fixpoint: ``from pkg.vocab
        import Priv`` where pkg/vocab.py says ``from dpsens import Priv``, ``vocab.Priv``
        after ``from pkg import vocab``, ``from pkg.vocab import *``, and files importing
        those in turn. A file that only calls a reported module's own functions (an
        application using an analyzed library) is not reported.

        Most files of a large tree never get here: a file is a candidate only when its text
        contains the last part of a newly reported module's name (``vocab`` for pkg.vocab;
        any relative import for a package's ``__init__``), and only candidates, and the
        reported modules their imports reach, are parsed (``scan``: what their top-level
        imports bind, None when they do not parse). With no file naming dpsens, nothing is
        read twice.
        """
        pending = [s for s in self._checked if not s.reported and s.text is not None]
        new = [s for s in self._checked if s.reported and s.text is not None]
        self._scan = scan
        words: dict[str, frozenset[str]] = {}  # identifiers of a pending text, when many names
        while new and pending:
            names = {s.name.rpartition(".")[2] for s in new} - {""}
            relative = any(s.path.name == "__init__.py" for s in new)
            candidates = [s for s in pending if _may_import(s, names, relative, words)]
            self._scanned(candidates)
            prefixes = {".".join(p[:i]) for s in self.sources.values() if s.reported
                        for p in [s.name.split(".")] for i in range(1, len(p) + 1)}
            new = [s for s in candidates if self._takes_dpsens(s, prefixes)]
            if new:
                for source in new:
                    source.reported = True
                pending = [s for s in pending if not s.reported]
                self._rank()

    def _scanned(self, sources: list[Source]) -> list[Bindings | None]:
        unknown = [s for s in sources if s.shown not in self._bindings]
        if unknown:
            self._bindings.update(self._scan(unknown))
        return [self._bindings.get(s.shown) for s in sources]

    def _takes_dpsens(self, source: Source, prefixes: set[str]) -> bool:
        """Whether a module's imports bind something of dpsens through reported modules."""
        [bindings] = self._scanned([source])
        if bindings is None:
            return False
        text = source.text or ""
        for name, qualified in bindings.names.items():
            if self._leads_to_dpsens(source, qualified):
                return True
            target = self._resolve(source, qualified)
            if qualified in prefixes or (target is not None and target.reported):
                # a module (or something of one) used through attributes: `v.Priv`
                pattern = re.compile(rf"(?<![\w.]){re.escape(name)}((?:\s*\.\s*\w+)+)")
                for match in pattern.finditer(text):
                    used = qualified + re.sub(r"\s+", "", match.group(1))
                    if self._leads_to_dpsens(source, used):
                        return True
        return any(self._star_gives_dpsens(source, star) for star in bindings.stars)

    def _star_gives_dpsens(self, importer: Source, module: str, depth: int = 0) -> bool:
        """Whether ``from module import *`` may bind a name of dpsens."""
        if module == "dpsens" or module.startswith("dpsens."):
            return True
        target = self._resolve(importer, module)
        if depth > 10 or target is None or target.name != module or not target.reported:
            return False
        [bindings] = self._scanned([target])
        if bindings is None:
            return False
        return any(not name.startswith("_") and self._leads_to_dpsens(target, qualified)
                   for name, qualified in bindings.names.items()) or any(
            self._star_gives_dpsens(target, star, depth + 1) for star in bindings.stars)

    def _leads_to_dpsens(self, importer: Source, qualified: str, depth: int = 0) -> bool:
        """Whether a qualified name stands for something of dpsens, following the imports
        of reported modules (re-exports of re-exports, ``from m import *``)."""
        if qualified == "dpsens" or qualified.startswith("dpsens."):
            return True
        target = self._resolve(importer, qualified)
        if depth > 10 or target is None or not target.reported or target.text is None \
                or not qualified.startswith(f"{target.name}."):
            return False  # outside the reported modules, or a module itself
        rest = qualified[len(target.name) + 1:]
        head, _, tail = rest.partition(".")
        [bindings] = self._scanned([target])
        if bindings is None:
            return False
        if head in bindings.names:
            base = bindings.names[head]
            return self._leads_to_dpsens(target, f"{base}.{tail}" if tail else base, depth + 1)
        if head in bindings.defined:
            return False
        return any(self._leads_to_dpsens(target, f"{star}.{rest}", depth + 1)
                   for star in bindings.stars)

    def _rank(self) -> None:
        """Module names resolve to the first reported checked file, as in __init__."""
        by_name: dict[str, Source] = {}
        for source in sorted(self._checked, key=lambda s: not s.reported):
            by_name.setdefault(source.name, source)
        for name, source in self.by_name.items():  # modules found on disk
            by_name.setdefault(name, source)
        self.by_name = by_name
        self._resolved.clear()

    def expand(self, provide: Callable[[list[Source]], dict[str, Facts]]) -> None:
        """Resolve imports breadth first from the reported modules, then from the checked
        files that change their objects without naming dpsens; ``provide`` parses."""
        self._walk([s for s in self.sources.values() if s.reported and s.text is not None],
                   provide)
        self._walk(self._unreported_writers(provide), provide, direct=True)

    def _unreported_writers(self, provide: Callable[[list[Source]], dict[str, Facts]]
                            ) -> list[Source]:
        """Checked files that do not name dpsens but change an analyzed module's objects
        (``cfg.SCALE = 100.0`` in a script importing cfg, R-global): a file is parsed only
        when its text names an analyzed module (none in a tree without dpsens). Only their
        direct writes count (a store, an assignment): what an application hands to code
        dpsens cannot see (a module object, ``cfg.*``) would make every analyzed global
        unknown wherever an application uses the analyzed library."""
        analyzed = set(self.facts)
        names = {self.sources[shown].name.rpartition(".")[2] for shown in analyzed} - {""}
        pending = [s for s in self._checked
                   if not s.reported and s.text is not None and s.shown not in analyzed]
        words: dict[str, frozenset[str]] = {}
        candidates = [s for s in pending if names and _may_import(s, names, False, words)]
        if not candidates:
            return []
        self.facts.update(provide(candidates))
        return [s for s in candidates if any(
            (written := self._resolve(s, write)) is not None and written.shown in analyzed
            for write in self.facts[s.shown].writes if not write.endswith("*"))]

    def _walk(self, frontier: list[Source], provide: Callable[[list[Source]], dict[str, Facts]],
              direct: bool = False) -> None:
        while frontier:
            missing = [s for s in frontier if s.shown not in self.facts and s.text is not None]
            self.facts.update(provide(missing) if missing else {})
            following: dict[str, Source] = {}
            for source in frontier:
                facts = self.facts.get(source.shown, Facts((), False))
                targets = [self._resolve(source, t) for t in facts.imports]
                # Importing pkg.cfg runs pkg/__init__.py first: what it imports and changes
                # happens too, whoever imports pkg.cfg (this module is imported so too).
                targets += [self._resolve(source, package) for d in [source, *targets]
                            if d is not None for package in _packages(d.name)]
                deps = sorted({d.shown for d in targets if d is not None and d is not source})
                self.edges[source.shown] = tuple(deps)
                for write in facts.writes:  # `cfg.ARR`, not `cfg` (a call `cfg.f()`)
                    if direct and write.endswith("*"):
                        continue
                    written = self._resolve(source, write)
                    if written is not None and written is not source and written.name != write:
                        self.writers.setdefault(written.shown, set()).add(source.shown)
                    if write.endswith("*"):  # a package object: its modules are attributes
                        for module in self._submodules(write[:-2]) if write != "*" \
                                else self._named_in(source):
                            if module is not source:
                                self.writers.setdefault(module.shown, set()).add(source.shown)
                for dep in deps:
                    if dep not in self.edges:
                        following[dep] = self.sources[dep]
            frontier = list(following.values())

    def _named_in(self, source: Source) -> list[Source]:
        """The modules code reaching modules by name (exec, sys.modules, importlib: a
        write into "*") may change: those whose name's last part its text holds as a word
        (``exec("from pkg import cfg; ...")``, ``sys.modules["pkg.cfg"]``, its imports).
        dpsens's own package loads its vocabulary so and changes nothing of yours."""
        if source.name == "dpsens" or source.name.startswith("dpsens."):
            return []
        named = frozenset(_IDENTIFIER.findall(source.text or ""))  # as globals.words
        return [module for module in self.sources.values()
                if module.name.rpartition(".")[2] in named]

    def _submodules(self, package: str) -> list[Source]:
        """The known modules inside a package (``pkg.cfg`` for ``pkg``)."""
        return [source for name, source in self.by_name.items() if name.startswith(package + ".")]

    def _resolve(self, importer: Source, qualified: str) -> Source | None:
        """The module an import names: ``pkg.mod.func`` may name pkg.mod.func or pkg.mod."""
        root = self._root(importer)
        key = (root, qualified)
        if key not in self._resolved:  # every file of a package imports the same names
            self._resolved[key] = self._lookup(root, qualified)
        return self._resolved[key]

    def _lookup(self, root: Path, qualified: str) -> Source | None:
        parts = qualified.split(".")
        if parts[0] == "dpsens":
            return None  # the vocabulary and builtins, read from the stubs (even in dpsens's own tree)
        for name in (".".join(parts[:i]) for i in range(len(parts), 0, -1)):
            # The importer's own root first, as Python's sys.path[0]: a module of that
            # name elsewhere in the checked set is another program's.
            found = self._on_disk(root, name)
            if found is not None:
                return found
            if name in self.by_name:
                return self.by_name[name]
        return None

    def _root(self, importer: Source) -> Path:
        """The directory the importer's top-level package sits in."""
        if importer.shown not in self._roots:
            # pkg/mod.py (pkg.mod) and pkg/mod/__init__.py (pkg.mod) both sit two names
            # below the root; the package directory is itself one of the names.
            depth = len(importer.name.split("."))
            root = importer.path.parent
            for _ in range(depth if importer.path.name == "__init__.py" else depth - 1):
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
        if "" in name.split("."):  # `from . import *` outside a package: Python raises
            return None
        relative = Path(*name.split("."))
        # A package before a module of the same name, as Python's path finder takes them.
        for candidate in (root / relative / "__init__.py", root / relative.with_suffix(".py")):
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
        self._add_patchers()
        self._add_writers()
        units = []
        for component in _strongly_connected(sorted(parsed), self.edges):
            members = tuple(self.sources[s] for s in sorted(component) if self.sources[s].reported)
            if not members:
                continue
            # The component's unreported modules (a package's __init__ in a cycle with it)
            # are needed as the rest of the closure is.
            reached = self._closure(component) - {s.shown for s in members}
            units.append(Unit(members, tuple(self.sources[s] for s in sorted(reached))))
        return sorted(units, key=lambda u: u.members[0].shown)

    def _add_patchers(self) -> None:
        """A module replacing a library's function (``np.sum = f``, R-patched) changes what
        every module using that library calls: it is analyzed with them, as a writer
        (builtins: every module)."""
        for patcher, facts in self.facts.items():
            roots = {patch.split(".")[0] for patch in facts.patches}
            if not roots:
                continue
            for shown, used in self.facts.items():
                if shown != patcher and ("builtins" in roots or any(
                        imported.split(".")[0] in roots for imported in used.imports)):
                    self.writers.setdefault(shown, set()).add(patcher)

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


_RELATIVE = re.compile(r"\bfrom\s*\.")
_IDENTIFIER = re.compile(r"\w+")


def _packages(name: str) -> list[str]:
    """The packages Python imports before a module: ``a`` and ``a.b`` for ``a.b.c``."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _may_import(source: Source, names: set[str], relative: bool,
                words: dict[str, frozenset[str]]) -> bool:
    """The textual test of include_importers: whether the text may import one of the
    modules whose names end in ``names`` (or, with ``relative``, a package, relatively).

    A few names are searched for directly; many are looked up among the text's
    identifiers, collected once per file (one pass instead of one per name).
    """
    text = source.text or ""
    if len(names) <= 8:
        found = any(name in text for name in names)
    else:
        if source.shown not in words:
            words[source.shown] = frozenset(_IDENTIFIER.findall(text))
        found = not words[source.shown].isdisjoint(names)
    return found or (relative and _RELATIVE.search(text) is not None)


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


__all__ = ["Bindings", "Facts", "ModuleGraph", "Source", "Unit", "read"]
