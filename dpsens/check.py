"""The check pipeline: files -> import graph -> units (cached or analyzed) -> per-file reports."""

from __future__ import annotations

import ast
import functools
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from dpsens import ir
from dpsens.config import Budget
from dpsens.diagnostics import Diagnostic
from dpsens.files import WalkRules, collect, display, module_name
from dpsens.graph import Bindings, Facts, ModuleGraph, Source, Unit, read
from dpsens.options import Options
from dpsens.rules import BUNDLED_STUBS
from dpsens.report.model import FileReport
from dpsens.selection import Selection

if TYPE_CHECKING:
    from dpsens.cache import Cache
    from dpsens.infer.program import Program
    from dpsens.rules.table import RuleTable
    from dpsens.workers import Runner


class NoInputError(Exception):
    """A directory given to check holds no Python files (a mistyped path in CI, usually)."""


@dataclass(frozen=True)
class Settings:
    """How a run finds files, what it reports, and where it caches."""

    stub_dirs: tuple[Path, ...] = ()
    options: Options = field(default_factory=Options)
    selection: Selection = field(default_factory=Selection)
    budgets: tuple[Budget, ...] = ()
    walk: WalkRules | None = None
    cache_dir: Path | None = None  # None: no cache (the library default; the CLI caches)
    jobs: int = 1
    progress: bool = False
    time_limit: float | None = 60.0  # seconds of analysis per file (DPS005); None: no limit
    max_file_size: int | None = 1_000_000  # bytes; larger files are not parsed (DPS006)


@dataclass
class CheckResult:
    """Everything a run found, in output order."""

    files: list[FileReport] = field(default_factory=list)
    checked: int = 0  # source files looked at
    analyzed: int = 0  # units analyzed in this run
    cached: int = 0  # units whose reports came from the cache
    excluded: int = 0  # paths passed over by exclude globs or .gitignore
    modules: dict[str, str] = field(default_factory=dict)  # shown path -> module name

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for f in self.files for d in f.diagnostics]

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def incomplete(self) -> bool:
        """The analyzer could not do its job somewhere (exit 2; SARIF executionSuccessful false)."""
        return any(d.code in TOOL_FAILURES for d in self.diagnostics)


def mentions_dpsens(text: str) -> bool:
    """The cheap pre-filter: a file that never names dpsens has nothing to analyze,
    unless it imports a module that does (found later: ModuleGraph.include_importers)."""
    return "dpsens" in text


def check_paths(paths: Sequence[str], stub_dirs: Sequence[Path] = (),
                options: Options | None = None, settings: Settings | None = None) -> CheckResult:
    """Analyze every file under the paths (raises NoInputError for a directory without Python)."""
    from dpsens.workers import Runner, forget, progress_stream

    settings = settings or Settings(tuple(stub_dirs), options or Options())
    runner = Runner(settings.jobs, progress_stream(settings.progress),
                    functools.partial(_prepare, stub_directories(settings.stub_dirs)))
    try:
        runner.start()  # with workers, their imports begin on the other core as files are read
        return _check(paths, settings, runner)
    finally:
        runner.close()
        forget()


def _check(paths: Sequence[str], settings: Settings, runner: Runner) -> CheckResult:
    """check_paths with its runner: collect, analyze, report."""
    from dpsens.postprocess import finish

    collected = collect(paths, settings.walk)
    if collected.empty:
        where = ", ".join(f"'{p}'" for p in collected.empty)
        raise NoInputError(f"no Python files found in {where} (after exclusions)")
    result = CheckResult(checked=len(collected.files), excluded=collected.excluded)
    for raw in collected.missing:
        shown = Path(raw).as_posix()
        result.files.append(FileReport(shown, diagnostics=[
            Diagnostic(shown, 1, 1, "DPS002", "no such file or directory")]))
    for shown, reason in collected.unreadable:
        result.files.append(FileReport(shown, diagnostics=[
            Diagnostic(shown, 1, 1, "DPS002", f"cannot read file: {reason}")]))
    result.files.extend(_broken_stubs(settings.stub_dirs))
    sources = [_checked(path) for path in collected.files]
    result.modules = {source.shown: source.name for source in sources}
    graph, reports = _run(sources, settings, runner, result)
    result.files.extend(reports)
    _report_shadowing(sources, result)
    finish(result, graph, settings)
    result.files.sort(key=lambda f: f.path)
    return result


def _report_shadowing(sources: list[Source], result: CheckResult) -> None:
    """DPS008 on a checked top-level module named like one the mechanisms are built on
    (``secrets.py``): a script run beside it imports it in place of the library, and
    its functions become the noise source (review34)."""
    from dpsens.frontend.globals import RUNTIME_MODULES

    for source in sources:
        if "." in source.name or source.name not in RUNTIME_MODULES - {"dpsens"}:
            continue
        finding = Diagnostic(source.shown, 1, 1, "DPS008", f"this module shadows the library "
                             f"'{source.name}', which dpsens's mechanisms are built on: a script "
                             "run beside it makes their noise with it (rename the module)")
        report = next((f for f in result.files if f.path == source.shown), None)
        if report is None:
            result.files.append(FileReport(source.shown, diagnostics=[finding]))
        else:
            report.diagnostics.append(finding)


def unmatched_bindings(result: CheckResult, keys: Sequence[str]) -> list[str] | None:
    """The binding keys that apply to no parameter or size of any reported function, as
    Options.bindings_for and the analysis apply them; None when that cannot be known
    (a file was not analyzed, or not to the end: its functions are missing)."""
    from dpsens.selection import ALWAYS

    if any(d.code in ALWAYS for d in result.diagnostics):
        return None
    functions = [(f, (f["qualname"], f"{result.modules.get(file.path, '')}.{f['qualname']}"))
                 for file in result.files for f in file.functions]
    unmatched = []
    for key in dict.fromkeys(keys):
        options = Options(bindings=((key, 0.0),))
        if not any(_applies(options.bindings_for(*names), f) for f, names in functions):
            unmatched.append(key)
    return unmatched


def _applies(bindings: dict[str, float], function: dict[str, Any]) -> bool:
    names = {p["name"] for p in function["params"]}
    return any(key in names or f"{kind}({name})" == key
               for key in bindings for name in names for kind in ("rows", "cols", "len"))


def _broken_stubs(stub_dirs: Sequence[Path]) -> list[FileReport]:
    """Reports of the user's stub files that cannot be read or parsed: their rules would
    be missing without a word (the bundled stubs are tested)."""
    from dpsens.frontend.syntax import checked_syntax
    from dpsens.rules import stub_files

    reports = []
    for path in stub_files(stub_dirs, bundled=False):
        source = read(path, display(path))
        problems = list(source.problems)
        if source.text is not None:
            checked = checked_syntax(source.text, source.shown)
            problems += [checked] if isinstance(checked, Diagnostic) else []
        if problems:
            reports.append(FileReport(source.shown, diagnostics=problems))
    return reports


def _checked(path: Path) -> Source:
    source = read(path, display(path))
    source.name = module_name(path)
    source.reported = source.text is None or mentions_dpsens(source.text)
    return source


def _run(sources: list[Source], settings: Settings, runner: Runner,
         result: CheckResult) -> tuple[ModuleGraph, list[FileReport]]:
    """Resolve imports, take unchanged units from the cache, analyze the others."""
    cache = _open_cache(settings)
    graph = ModuleGraph(sources)
    stubs = stub_directories(settings.stub_dirs)

    def cached(source: Source) -> Facts | None:
        entry = cache.load("facts", *_facts_key(source, cache)) if cache else None
        return _facts_from(source.shown, entry) if entry is not None else None

    rounds = 0

    def provide(needed: list[Source]) -> dict[str, Facts]:
        nonlocal rounds
        rounds += 1
        found: dict[str, Facts] = {}
        unknown: list[Source] = []
        for source in needed:
            too_large = _too_large(source, settings.max_file_size)
            if too_large is not None:  # before the cache: an entry may come from a higher limit
                found[source.shown] = Facts((), False, (too_large,))
                continue
            facts = cached(source)
            if facts is None:
                unknown.append(source)
            else:
                found[source.shown] = facts
        for source, facts in zip(unknown, _discover(unknown, settings.jobs)):
            if cache is not None:
                cache.store("facts", *_facts_key(source, cache), _facts_entry(facts))
            found[source.shown] = facts
        return found

    def bindings(sources: list[Source]) -> dict[str, Bindings | None]:
        return {s.shown: _bindings_of(s, cache, settings.max_file_size) for s in sources}

    graph.include_importers(bindings)
    graph.expand(provide)
    reports = {s.shown: FileReport(s.shown, diagnostics=[*s.problems, *graph.problems(s.shown)])
               for s in sources if s.reported}
    records, dirty = _cached_units(graph.units(), cache)
    if dirty:
        # A module without IR that runs (DPS007, refused by LibCST) still changes other
        # modules' objects: the worker takes them from CPython's parser (R-global).
        calls = [([_row(s) for s in unit.members],
                  [_row(s) for s in unit.closure
                   if graph.parsed(s.shown) or graph.writes(s.shown)],
                  stubs, settings.options, settings.time_limit) for _, unit in dirty]
        bundles = _bundles([unit for _, unit in dirty], runner.jobs) if runner.jobs > 1 else None
        if runner.jobs <= 1:
            _parse_ahead(calls, stubs)
        found = runner.map(_analyze_unit, calls, "analyzing", bundles, _parse_chunk)
        for (index, unit), record in zip(dirty, found):
            records[index] = record
            if cache is not None and not _incomplete(record):
                cache.store("units", _unit_identity(unit), _unit_key(unit, cache), {"files": record})
    result.analyzed, result.cached = len(dirty), len(records) - len(dirty)
    return graph, _merge(reports, [records[i] for i in sorted(records)])


def _bindings_of(source: Source, cache: Cache | None, limit: int | None) -> Bindings | None:
    """What a module's top-level imports bind, from CPython's parser (or the cache): whether
    a file that does not name dpsens takes dpsens's names from an analyzed module decides
    whether it is analyzed. None for a file that does not parse (it cannot run either) or
    is above the size limit."""
    if _too_large(source, limit) is not None:
        return None
    identity, key = _facts_key(source, cache) if cache is not None else ("", "")
    entry = cache.load("bindings", identity, key) if cache is not None else None
    if entry is not None:
        try:
            if entry["names"] is None:
                return None
            return Bindings({str(k): str(v) for k, v in entry["names"].items()},
                            tuple(map(str, entry["stars"])), frozenset(map(str, entry["defined"])))
        except (KeyError, TypeError, AttributeError):
            pass  # an entry of the wrong shape is a miss
    from dpsens.frontend.syntax import relative_origin, top_level_bindings

    try:
        found: Bindings | None = Bindings(*top_level_bindings(
            ast.parse(source.text or ""), relative_origin(source.shown, source.name)))
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        found = None
    if cache is not None:
        cache.store("bindings", identity, key, {"names": None} if found is None else {
            "names": found.names, "stars": list(found.stars), "defined": sorted(found.defined)})
    return found


def _facts_key(source: Source, cache: Cache) -> tuple[str, str]:
    """(identity, key) of a module's facts: its path and name, the tool and its content."""
    return f"{source.shown}:{source.name}", f"{cache.tool}:{source.digest}"


def _row(source: Source) -> tuple[str, str, str, str]:
    return source.shown, source.name, source.digest, source.text or ""


def _discover(sources: list[Source], jobs: int) -> list[Facts]:
    """The facts of modules the cache does not know.

    One process LibCST-parses them (the IR is kept for their analysis), unless
    they are few enough to be parsed ahead (dpsens.parse_ahead). Then, and with
    workers, only their imports are found here, with CPython's parser (15x faster
    than LibCST), and each worker LibCST-parses what its units need.
    """
    from dpsens.parse_ahead import worthwhile

    if jobs <= 1 and not worthwhile(len(source.text or "") for source in sources):
        return [_parse(source) for source in sources]
    return _scan_all([(source.text or "", source.shown, source.name) for source in sources])


def _parse_ahead(calls: list[tuple[Any, ...]], stubs: tuple[Path, ...]) -> None:
    """In a small cold run, LibCST-parse the units' modules and the stubs in a forked
    child while this process loads sympy and the rule modules (dpsens.parse_ahead)."""
    from dpsens.parse_ahead import start
    from dpsens.rules import stub_files

    rows = list(dict.fromkeys(row for members, closure, *_ in calls for row in (*members, *closure)))
    ahead = start(rows, stub_files(stubs))
    if ahead is None:
        return
    try:
        import dpsens.infer.program  # noqa: F401  (sympy)
        import dpsens.rules.table  # noqa: F401
    except BaseException:  # interrupted: the child must not outlive the run
        ahead.abandon()
        raise
    ahead.collect()


def _parse(source: Source) -> Facts:
    """LibCST-parse a module (kept for its analysis in this run): its imports and problems.

    A module LibCST refuses but CPython runs still imports and changes what it does:
    those come from CPython's parser, as they do in runs that scan (workers,
    dpsens.parse_ahead), so that every run follows the same imports.
    """
    from dpsens.workers import parsed

    module, problems = parsed(_row(source))
    if module is None:
        from dpsens.frontend.syntax import scan_imports

        imports, writes, _, patches = scan_imports(source.text or "", source.shown, source.name)
        return Facts(imports or (), False, tuple(problems), writes, patches)
    return Facts(module.imported, True, tuple(problems), tuple(sorted(module.foreign_changed)),
                 tuple(sorted(module.patched)))


def _scan_all(texts: list[tuple[str, str, str]]) -> list[Facts]:
    """Modules' imports from CPython's parser; LibCST-only failures surface in the workers."""
    from dpsens.frontend.syntax import scan_imports

    found = []
    for text, shown, name in texts:
        imports, writes, problems, patches = scan_imports(text, shown, name)
        found.append(Facts(imports or (), imports is not None, tuple(problems), writes, patches))
    return found


def _facts_entry(facts: Facts) -> dict[str, Any]:
    from dpsens.cache import encode_diagnostics

    return {"imports": list(facts.imports), "parsed": facts.parsed, "writes": list(facts.writes),
            "patches": list(facts.patches),
            "problems": encode_diagnostics(list(facts.problems))}


def _bundles(units: list[Unit], jobs: int) -> list[list[int]]:
    """Units split into one bundle per worker, each unit where most of the modules it
    needs are already needed (a module parsed by two workers is parsed twice), within
    an even share of the units."""
    share = -(-len(units) // jobs)
    needed: list[set[str]] = [set() for _ in range(jobs)]
    bundles: list[list[int]] = [[] for _ in range(jobs)]
    # Depth-first order of the imports: a unit's key is its closure from the most needed
    # module down (a module imports none that more units need), then itself, so units
    # under a common import are neighbours (benchmark A's tree of imports: 206 parses for
    # 200 modules with two workers, 210 when keyed by the closure's names alone). Counted
    # over the units being bundled, so modules that are not among them count too.
    needers = Counter(s.shown for unit in units for s in unit.closure)

    def key(index: int) -> tuple[tuple[int, str], ...]:
        unit = units[index]
        return tuple(sorted((-needers[s.shown], s.shown) for s in unit.closure)) + \
            tuple(sorted((-needers[s.shown], s.shown) for s in unit.members))

    order = sorted(range(len(units)), key=key)
    for index in order:
        wanted = {s.shown for s in (*units[index].members, *units[index].closure)}
        open_ = [w for w in range(jobs) if len(bundles[w]) < share]
        worker = min(open_, key=lambda w: (len(wanted - needed[w]), len(bundles[w]), w))
        bundles[worker].append(index)
        needed[worker] |= wanted
    return [b for b in bundles if b]


def _prepare(stubs: tuple[Path, ...]) -> None:
    """Imports and the rule table, done once before forking workers that all need them.

    dp-accounting (1 s to import) is not among them: Gaussian-only histories are
    accounted exactly without it, so most runs never load it.
    """
    import dpsens.infer.program  # noqa: F401  (sympy)
    from dpsens.workers import rules

    rules(stubs)


def _parse_chunk(calls: list[tuple[Any, ...]]) -> None:
    """A worker parses the modules its units need (its whole bundle first) before it
    analyzes them: LibCST's parses one after another, not one between two analyses, took
    the two workers of benchmark A 2.6 s of CPU instead of 3.1 s (docs/performance.md)."""
    from dpsens.workers import parsed

    for members, closure, *_ in calls:
        for row in (*members, *closure):
            parsed(row)


def _analyze_unit(*call: Any) -> dict[str, Any]:
    from dpsens.workers import analyze_task

    return analyze_task(*call)



def _open_cache(settings: Settings) -> Cache | None:
    if settings.cache_dir is None:
        return None
    from dpsens.cache import Cache, analysis_fingerprint, tool_fingerprint

    tool = tool_fingerprint()
    stubs = (BUNDLED_STUBS, *stub_directories(settings.stub_dirs))
    # A size limit decides which imported modules are analyzed (DPS006) in a unit's results.
    analysis = analysis_fingerprint(tool, stubs, (settings.options, settings.max_file_size))
    return Cache(settings.cache_dir, tool, analysis)


def stub_directories(extra: Sequence[Path]) -> tuple[Path, ...]:
    """The stub directories to load besides the rule table's bundled ones (dpsens/stubs)."""
    return tuple(extra)


def _facts_from(shown: str, entry: dict[str, Any]) -> Facts | None:
    """Facts from a cache entry; None (a miss) for an entry of the wrong shape."""
    from dpsens.cache import decode_diagnostics

    try:
        return Facts(tuple(map(str, entry["imports"])), bool(entry["parsed"]),
                     tuple(decode_diagnostics(shown, entry["problems"])),
                     tuple(map(str, entry["writes"])), tuple(map(str, entry["patches"])))
    except (KeyError, TypeError, ValueError):
        return None


def _cached_units(units: list[Unit], cache: Cache | None
                  ) -> tuple[dict[int, dict[str, Any]], list[tuple[int, Unit]]]:
    """Records of units whose inputs are unchanged, and the units to analyze."""
    records: dict[int, dict[str, Any]] = {}
    dirty: list[tuple[int, Unit]] = []
    for index, unit in enumerate(units):
        entry = cache.load("units", _unit_identity(unit), _unit_key(unit, cache)) if cache else None
        if entry is not None and _well_formed(entry.get("files")):
            records[index] = entry["files"]
        else:
            dirty.append((index, unit))
    return records, dirty


def _well_formed(record: object) -> bool:
    """A stored unit record has the shape _merge reads (anything else is a miss)."""
    return isinstance(record, dict) and all(
        isinstance(data, dict) and isinstance(data.get("functions"), list)
        and isinstance(data.get("diagnostics"), list)
        and all(isinstance(row, list) and len(row) == 7 for row in data["diagnostics"])
        for data in record.values())


def _unit_identity(unit: Unit) -> str:
    return "\n".join(f"{s.shown}:{s.name}" for s in unit.members)


def _unit_key(unit: Unit, cache: Cache) -> str:
    """Changes with the analyzer, stubs, options, and the content of every module involved."""
    from dpsens.cache import digest

    def rows(sources: Sequence[Source]) -> list[list[str]]:
        return [[s.shown, s.name, s.digest] for s in sources]

    return digest(cache.analysis, rows(unit.members), rows(unit.closure))


INCOMPLETE = ("DPS001", "DPS005")  # an internal error or the time limit: not a result of the code
# The analyzer could not do its job (a crash, the time or size limit): exit 2, not 1.
TOOL_FAILURES = (*INCOMPLETE, "DPS006")


def _incomplete(record: dict[str, Any]) -> bool:
    """A crashed or timed-out analysis is not cached: the next run tries again."""
    return any(row[2] in INCOMPLETE for file in record.values() for row in file["diagnostics"])


def _too_large(source: Source, limit: int | None) -> Diagnostic | None:
    """A DPS006 for a file above the size limit (LibCST needs ~600 bytes of memory and
    ~8 µs per byte of source on large modules: 5 MB is 40 s and 3 GB)."""
    if limit is None or source.text is None or len(source.text) <= limit:
        return None
    size = len(source.text.encode("utf-8", "surrogatepass"))
    if size <= limit:
        return None
    return Diagnostic(source.shown, 1, 1, "DPS006",
                      f"file is {_megabytes(size)}, above the {_megabytes(limit)} limit; it is not "
                      "analyzed (raise max_file_size in [tool.dpsens] or --max-file-size)")


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size:,} bytes"


def _merge(reports: dict[str, FileReport], records: list[dict[str, Any]]) -> list[FileReport]:
    """Per-file reports from unit records; diagnostics landing in imported files are kept."""
    from dpsens.cache import decode_diagnostics

    for record in records:
        for path, data in record.items():
            report = reports.setdefault(path, FileReport(path))
            report.functions.extend(data["functions"])
            report.diagnostics.extend(decode_diagnostics(path, data["diagnostics"]))
    for report in reports.values():
        report.diagnostics = sorted(set(report.diagnostics))
    return list(reports.values())


def _analyze(modules: list[ir.Module], helpers: list[ir.Module], reports: dict[str, FileReport],
             rules: RuleTable, options: Options, seconds: float | None = None) -> None:
    """Summaries of the reported modules' functions, each file within ``seconds``."""
    from dpsens.infer.program import Program

    program = Program(modules + helpers, rules, options)
    for module in modules:  # defs no analysis reaches: in a class, under a module-level `if`
        program.report_unanalyzed(module)
    by_file: dict[str, list[tuple[str, ir.Module, ir.Function]]] = {}
    for qualname, (module, function) in program.functions.items():
        if module.path in reports:  # helper modules are analyzed at their call sites only
            by_file.setdefault(module.path, []).append((qualname, module, function))
    for path, functions in by_file.items():
        _analyze_file(program, functions, reports[path], seconds)
    for module in modules + helpers:
        found = program.diagnostics.get(module.path, set())
        if module.path not in reports:
            if not found:
                continue
            reports[module.path] = FileReport(module.path)
        reports[module.path].diagnostics.extend(found)


def _analyze_file(program: Program, functions: list[tuple[str, ir.Module, ir.Function]],
                  report: FileReport, seconds: float | None) -> None:
    """Report one file's functions; past the time limit, DPS005 names where it stopped."""
    from dpsens.deadline import TimeLimitExceeded, time_limit
    from dpsens.report.model import function_report

    done = 0
    try:
        with time_limit(seconds) as deadline:
            for qualname, module, function in functions:
                deadline.check()
                try:
                    summary = program.summary(qualname, function.span, None)  # type: ignore[arg-type]
                except Exception as error:  # noqa: BLE001 - every crash becomes a finding
                    program.summaries.pop(qualname, None)
                    _internal_error(program, module, function, error)
                else:
                    report.functions.append(function_report(summary))
                done += 1
    except TimeLimitExceeded:
        program.active.clear()  # the interrupted summaries never finished
        _, module, function = functions[done]
        rest = len(functions) - done - 1
        after = f" and the {rest} function{'s' if rest != 1 else ''} after it are" if rest else " is"
        program.report(module, function.span, "DPS005",
                       f"the analysis of this file took longer than {seconds:g} s, the per-file time "
                       f"limit; '{function.name}'{after} not reported (raise timeout in "
                       "[tool.dpsens] or --timeout)")


def _internal_error(program: object, module: ir.Module, function: ir.Function,
                    error: Exception) -> None:
    frame = traceback.extract_tb(error.__traceback__)[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno}"
    message = (f"internal error while analyzing '{function.name}': {type(error).__name__}: "
               f"{error} (at {where}); please report this to the dpsens developers")
    program.report(module, function.span, "DPS001", message)  # type: ignore[attr-defined]


__all__ = ["CheckResult", "NoInputError", "Settings", "TOOL_FAILURES", "check_paths",
           "mentions_dpsens", "stub_directories", "unmatched_bindings"]
