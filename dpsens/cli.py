"""The ``dpsens`` command line: check, explain."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

FORMATS = ("text", "json")


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
    check.add_argument("paths", nargs="*", default=["."], help="files or directories (default: .)")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format")
    check.add_argument("--stubs", action="append", default=[], metavar="DIR",
                       help="an extra directory of .pyi stubs (repeatable)")
    check.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                       help="a value for a static parameter or dimension: k=10, rows(data)=60000, "
                            "or function.k=10 (repeatable)")
    check.add_argument("--delta-prime", type=_probability, default=None, metavar="D",
                       help="the δ' of advanced composition and zCDP/RDP/PLD (default 1e-5)")
    explain = commands.add_parser("explain", help="print the documentation of a diagnostic code")
    explain.add_argument("code", help="a code such as DPS201")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (0 clean, 1 findings, 2 usage or internal error)."""
    args = build_parser().parse_args(argv)
    if args.command == "explain":
        return _explain(args.code)
    return _check(args)


def _explain(code: str) -> int:
    from dpsens.codes import explain

    text = explain(code)
    if text is None:
        print(f"dpsens: error: unknown code '{code}'", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def _probability(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1), got {text}")
    return value


def _bindings(pairs: list[str]) -> tuple[tuple[str, float], ...]:
    out = []
    for pair in pairs:
        name, sep, value = pair.partition("=")
        try:
            out.append((name.strip(), float(value)))
        except ValueError:
            sep = ""
        if not sep or not name.strip():
            raise SystemExit(f"dpsens: error: --bind expects NAME=NUMBER, got '{pair}'")
    return tuple(out)


def _check(args: argparse.Namespace) -> int:
    from dpsens.check import check_paths
    from dpsens.options import Options

    try:
        bindings = _bindings(args.bind)
    except SystemExit as error:
        print(error, file=sys.stderr)
        return 2
    options = Options(delta_prime=args.delta_prime or Options.delta_prime, bindings=bindings)
    try:
        result = check_paths(args.paths, [Path(d) for d in args.stubs], options)
    except Exception as error:  # noqa: BLE001 - never a traceback for the user
        print(f"dpsens: internal error: {type(error).__name__}: {error}; please report this",
              file=sys.stderr)
        return 2
    if args.format == "json":
        from dpsens.report.json_format import render
    else:
        from dpsens.report.text import render
    sys.stdout.write(render(result))
    if any(d.code == "DPS001" for d in result.diagnostics):
        return 2
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
