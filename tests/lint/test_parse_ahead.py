"""Small cold runs parse in a forked child (dpsens.parse_ahead): the same report, no LibCST here."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from dpsens import ir
from dpsens.frontend.parse import parse_module
from dpsens.parse_ahead import LIMIT, ParseAhead
from tests.lint.conftest import LEAKY, PRIVATE, SCALED, Run, child_env, write

MODULES = {
    "pkg/__init__.py": "",
    "pkg/base.py": SCALED,
    "pkg/priv.py": PRIVATE,
    "pkg/leaky.py": LEAKY,
    "pkg/bad.py": "from dpsens import Real\n\ndef broken(x: Real) -> Real\n    return x\n",
    "pkg/uses.py": ("from dpsens import Real, Priv, Static, laplace_mechanism\nfrom pkg import base\n\n\n"
                    "def twice(x: Real, eps: Static[float]) -> Priv[Real]:\n"
                    "    y = base.scaled(x, 2.0)\n"
                    "    return laplace_mechanism(\n        1, eps, y)\n\n\n"
                    "def odd(x: Real) -> Real:\n    return [x for x in range(3) if x].count(1)\n"),
    "pkg/quoted.py": ('from dpsens import Real\n\n\ndef half(x: "Real") -> "Real":\n'
                      '    return x / 2\n'),
    "stubs/extra.pyi": "def wrong(x: Real -> Real: ...\n",
}

# The CLI in a fresh process; stderr's last line says whether LibCST was loaded there.
CLI = ("import sys\nfrom dpsens.cli import main\n{patch}code = main(sys.argv[1:])\n"
       "print('libcst loaded:', 'libcst' in sys.modules, file=sys.stderr)\nsys.exit(code)\n")
ARGS = ("check", "--no-cache", "--format", "json", "--stubs", "stubs", "pkg")


def fresh(project: Path, patch: str = "") -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-c", CLI.format(patch=patch), *ARGS], cwd=project,
                          capture_output=True, text=True, env=child_env(), timeout=120)
    return done.returncode, done.stdout, done.stderr.splitlines()[-1]


def test_a_parse_ahead_run_reports_exactly_what_parsing_here_does(project: Path, run: Run) -> None:
    write(project, MODULES)
    assert sum(len(text) for text in MODULES.values()) <= LIMIT
    code, out, loaded = fresh(project)
    here = run(*ARGS)  # LibCST is loaded in this process: nothing is parsed ahead
    assert (code, out) == here[:2]
    assert loaded == "libcst loaded: False"  # the child parsed everything, strings too
    for found in ('"half"', '"DPS004"', '"DPS403"', '"end_column": 13', '"twice"', '"stubs/extra.pyi"'):
        assert found in out


def test_a_failed_child_leaves_the_parsing_to_this_process(project: Path, run: Run) -> None:
    write(project, MODULES)
    patch = ("import dpsens.parse_ahead as ahead\n"
             "def failing(rows, stubs): raise MemoryError\n"
             "ahead._parse_all = failing\n")
    code, out, loaded = fresh(project, patch)
    assert (code, out) == run(*ARGS)[:2]
    assert loaded == "libcst loaded: True"


def test_imports_of_a_module_only_cpython_parses_are_followed(project: Path, run: Run) -> None:
    """LibCST 1.0 refuses ``(X): int = 3``, which CPython runs: its imports still run (and
    here rebind a global), in a parse-ahead run (which scans) as in one that parses."""
    write(project, {
        "cfg.py": "from dpsens import Real\n\nSCALE = 1.0\n\n\n"
                  "def scaled(x: Real) -> Real:\n    return SCALE * x\n",
        "main.py": "from dpsens import Real\nimport cfg\nimport h\n\n\n"
                   "def f(x: Real) -> Real:\n    return cfg.scaled(x)\n",
        "h.py": "import k\n(LIMIT): int = 3\n",
        "k.py": "import cfg\ncfg.SCALE = 100.0\n",
    })
    args = ("check", "--no-cache", "--format", "json", "cfg.py", "main.py")
    done = subprocess.run([sys.executable, "-m", "dpsens", *args], cwd=project, capture_output=True,
                          text=True, env=child_env(), timeout=120)
    here = run(*args)
    assert (done.returncode, done.stdout) == here[:2]
    assert '"DPS206"' in done.stdout  # k.py rebinds cfg.SCALE


def test_an_abandoned_child_is_stopped_and_reaped() -> None:
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # a child that would block on a full pipe forever
        try:
            os.close(reader)
            os.write(writer, b"x" * (1 << 20))
        finally:
            os._exit(0)
    os.close(writer)
    ParseAhead(pid, reader).abandon()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_spans_cross_processes_resolved() -> None:
    text = "def f(x):\n    y = (x +\n         1)\n    return g(y,\n             2)\n"
    module, _ = parse_module(text, "m.py", "m")
    assert module is not None
    sent = pickle.loads(pickle.dumps(module))
    pairs = list(zip(ir.nodes(module), ir.nodes(sent)))
    assert len(pairs) > 10
    for original, copy in pairs:
        if hasattr(original, "span"):
            here, there = original.span, copy.span
            assert (there.line, there.column, there.end_line, there.end_column) == \
                (here.line, here.column, here.end_line, here.end_column)
            assert getattr(there, "statement_line", 0) == getattr(here, "statement_line", 0)
