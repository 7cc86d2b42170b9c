"""The ``dpsens`` command line: check, explain."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from dpsens.check import CheckResult, Settings

FORMATS = ("text", "json", "sarif", "github")


class UsageError(Exception):
    """Bad flags, config or output path: exit 2 with this message."""


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and a one-line message on usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"dpsens: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of all subcommands."""
    parser = _Parser(prog="dpsens", description="Sensitivity and privacy analysis of annotated Python.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = commands.add_parser("check", help="analyze files and report sensitivities and privacy")
    check.add_argument("paths", nargs="*", default=[], help="files or directories (default: .)")
    output = check.add_argument_group("output")
    output.add_argument("--format", choices=FORMATS, default="text", help="output format")
    output.add_argument("-o", "--output", metavar="FILE",
                        help="write the report to FILE (replaced only once it is complete)")
    output.add_argument("--statistics", action="store_true",
                        help="print how often each code was reported instead of the diagnostics")
    loudness = output.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", action="store_true",
                          help="print diagnostics only: no function reports, no summary")
    loudness.add_argument("-v", "--verbose", action="store_true",
                          help="also say on stderr which config, cache and files were used")
    codes = check.add_argument_group("codes")
    codes.add_argument("--select", action="append", metavar="CODES",
                       help="report only these codes or prefixes, comma-separated (DPS2 selects "
                            "DPS2xx); replaces the config's select")
    codes.add_argument("--ignore", action="append", default=[], metavar="CODES",
                       help="do not report these codes or prefixes; adds to the config's ignore")
    analysis = check.add_argument_group("analysis")
    analysis.add_argument("--config", metavar="PYPROJECT",
                          help="the pyproject.toml to read (default: the nearest one with "
                               "[tool.dpsens] above the checked paths)")
    analysis.add_argument("--stubs", action="append", default=[], metavar="DIR",
                          help="an extra directory of .pyi stubs (repeatable)")
    analysis.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                          help="a value for a static parameter or dimension: k=10, "
                               "rows(data)=60000, or function.k=10 (repeatable; sizes are "
                               "positive whole numbers; one no checked function has is warned "
                               "about)")
    analysis.add_argument("--delta-prime", type=_probability, default=None, metavar="D",
                          help="the δ' of advanced composition and zCDP/RDP/PLD (default 1e-5)")
    speed = check.add_argument_group("speed")
    speed.add_argument("-j", "--jobs", type=_positive, default=1, metavar="N",
                       help="analyze in N processes (default 1)")
    speed.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    speed.add_argument("--cache-dir", metavar="DIR",
                       help="where to cache results (default .dpsens_cache beside the config)")
    speed.add_argument("--timeout", type=_limit, default=None, metavar="SECONDS",
                       help="stop analyzing a file after this long, with DPS005 (default 60; "
                            "0: no limit)")
    speed.add_argument("--max-file-size", type=_size, default=None, metavar="BYTES",
                       help="do not parse larger files, with DPS006 (default 1000000; 0: no limit)")
    explain = commands.add_parser("explain", help="print the documentation of a diagnostic code")
    explain.add_argument("code", nargs="?", default="",
                         help="a code such as DPS201; a prefix (DPS4) or nothing lists the codes")
    audit = commands.add_parser(
        "audit", help="run a function on neighbouring inputs to falsify its report",
        description="Runs FUNCTION from PATH (this EXECUTES the user's code) on random and "
                    "adversarial neighbouring inputs and tries to falsify the reported "
                    "sensitivity, or tests the (ε, δ) claim statistically. Exit 1 on a "
                    "counterexample.")
    audit.add_argument("target", metavar="PATH::FUNCTION", help="e.g. examples/column_stats.py::clipped_sum")
    audit.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                       help="a value for a static parameter or dimension (repeatable); "
                            "adds to the config's bindings, winning over them")
    audit.add_argument("--config", metavar="PYPROJECT",
                       help="the pyproject.toml to read (default: the nearest one with "
                            "[tool.dpsens] above PATH); its stubs, bindings, delta_prime, beta, "
                            "timeout and max_file_size apply as in check")
    audit.add_argument("--stubs", action="append", default=[], metavar="DIR",
                       help="an extra directory of .pyi stubs (repeatable)")
    audit.add_argument("--delta-prime", type=_probability, default=None, metavar="D",
                       help="the δ' of advanced composition and zCDP/RDP/PLD (default 1e-5)")
    audit.add_argument("--trials", type=_positive, default=None, metavar="N",
                       help="random input draws (sensitivity) or runs per input (privacy)")
    audit.add_argument("--seed", type=int, default=None, metavar="S",
                       help="make the run reproducible (the seed used is always printed)")
    return parser


def run() -> None:
    """The ``dpsens`` command: main() in a process of its own, then a fast exit.

    The generated code of dataclasses' methods is taken from, and kept in,
    dpsens.code_cache. Two settings only suit a process that ends with the
    command, as mypy's does: the garbage collector runs rarely (parsing and analysis allocate
    millions of long-lived objects that every collection would scan again:
    20-30% of a large run, for 16 MB more memory on benchmark A), and the
    process ends with os._exit, skipping the final collection of everything
    (0.3 s there). ``audit`` exits normally: the user code it ran may have
    exit handlers.
    """
    from dpsens import code_cache

    code_cache.install()
    gc.set_threshold(1_000_000, 100, 100)
    try:
        code = main()
    except KeyboardInterrupt:  # Ctrl-C: workers are ended on the way out; no traceback
        print("dpsens: interrupted", file=sys.stderr)
        code = 130
    code_cache.flush()
    if sys.argv[1:2] == ["audit"]:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away (dpsens check | head): nothing left to say
        pass
    except OSError as error:
        print(f"dpsens: error: cannot write the report: {error}", file=sys.__stderr__)
        code = 2
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (0 clean, 1 findings, 2 usage or internal error)."""
    # Nesting up to the parser's depth limit (dpsens.frontend.syntax.MAX_DEPTH) needs
    # more Python frames than the default allows; the limit stays well below a C overflow.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 6000))
    args = build_parser().parse_args(argv)
    if args.command == "explain":
        return _explain(args.code)
    if args.command == "audit":
        return _audit(args)
    from dpsens.check import NoInputError
    from dpsens.config import ConfigError

    try:
        return _check(args)
    except (UsageError, ConfigError, NoInputError) as error:
        print(f"dpsens: error: {error}", file=sys.stderr)
        return 2


def _explain(code: str) -> int:
    from dpsens.codes import explain, listing

    text = explain(code) or listing(code)
    if text is None:
        print(f"dpsens: error: unknown code '{code}' (`dpsens explain` lists the codes)",
              file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def _audit(args: argparse.Namespace) -> int:
    from dpsens.audit.command import run_audit
    from dpsens.config import ConfigError
    from dpsens.settings import audit_settings

    try:
        settings, binds = audit_settings(args)
    except ConfigError as error:
        print(f"dpsens: error: {error}", file=sys.stderr)
        return 2
    return run_audit(args.target, binds, args.trials, args.seed, sys.stdout, settings=settings)


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1), got {text}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1), got {text}")
    return value


def _limit(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be >= 0 (0: no limit), got {text}")
    return value


def _size(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"must be a whole number of bytes (0: no limit), got {text}")
    return int(text)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return int(text)


def _check(args: argparse.Namespace) -> int:
    from dpsens.check import NoInputError, check_paths
    from dpsens.settings import settings_from

    _conflicts(args)
    settings, notes = settings_from(args)
    if args.verbose:
        for note in notes:
            print(f"dpsens: {note}", file=sys.stderr)
    target = _output_target(args.output)
    try:
        result = check_paths(args.paths or ["."], settings=settings)
    except NoInputError:
        raise
    except Exception as error:  # noqa: BLE001 - never a traceback for the user
        print(f"dpsens: internal error: {type(error).__name__}: {error}; please report this",
              file=sys.stderr)
        return 2
    if args.verbose:
        _describe(result, settings)
    _warn_unmatched(result, args.bind)
    text = _render(result, args, color=target is None and _color(sys.stdout))
    if target is None:
        sys.stdout.write(text)
    else:
        _write_atomically(target, text)
    if result.incomplete:  # a crash, the time or size limit (dpsens.check.TOOL_FAILURES)
        return 2
    return 1 if result.errors else 0


def _warn_unmatched(result: CheckResult, pairs: list[str]) -> None:
    """A --bind that no checked function can use is most likely a typo: say so on stderr.

    Only command-line bindings: the configuration's are project-wide, and a run over some
    files (pre-commit passes the staged ones) would warn about all the others."""
    from dpsens.check import unmatched_bindings

    keys = [pair.partition("=")[0].strip() for pair in pairs]
    for key in unmatched_bindings(result, keys) or ():
        print(f"dpsens: warning: binding '{key}' matches nothing: no checked function has "
              f"such a parameter or size", file=sys.stderr)


def _conflicts(args: argparse.Namespace) -> None:
    if args.no_cache and args.cache_dir:
        raise UsageError("--no-cache and --cache-dir contradict each other")
    if "" in args.paths:  # Path("") is the working directory: an unset variable, most likely
        raise UsageError("an empty path was given (did a shell variable expand to nothing?)")
    if args.statistics and args.format != "text":
        raise UsageError(f"--statistics prints a text table; it cannot be combined with "
                         f"--format {args.format}")


def _render(result: CheckResult, args: argparse.Namespace, color: bool) -> str:
    if args.format == "json":
        from dpsens.report.json_format import render
    elif args.format == "sarif":
        from dpsens.report.sarif import render
    elif args.format == "github":
        from dpsens.report.github import render
    else:
        from dpsens.report import text

        return text.render(result, quiet=args.quiet, color=color, statistics=args.statistics)
    return render(result)


def _color(stream: object) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _output_target(raw: str | None) -> Path | None:
    """Check the --output path before any work, so a bad path costs nothing."""
    if raw is None:
        return None
    path = Path(raw)
    if path.is_dir():
        raise UsageError(f"--output '{raw}' is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"--output '{raw}': directory '{parent.as_posix()}' does not exist")
    if not os.access(parent, os.W_OK):
        raise UsageError(f"--output '{raw}': directory '{parent.as_posix()}' is not writable")
    return path


def _write_atomically(path: Path, text: str) -> None:
    """Write beside the target and rename: readers never see a partial report."""
    import tempfile

    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, _new_file_mode())  # mkstemp makes 0600; a report is shared like any file
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _describe(result: CheckResult, settings: Settings) -> None:
    """--verbose: what the run used (no timings, no absolute paths: logs get compared too)."""
    jobs = f"{settings.jobs} job{'s' if settings.jobs != 1 else ''}"
    print(f"dpsens: {result.checked} files checked, {result.excluded} paths excluded; "
          f"{result.analyzed} units analyzed, {result.cached} from the cache; {jobs}",
          file=sys.stderr)


if __name__ == "__main__":
    run()
