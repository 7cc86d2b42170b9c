"""The cache: unchanged trees do no parsing, a change re-analyzes its dependents only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dpsens import workers
from tests.lint.conftest import SCALED, Run, child_env, write

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/base.py": "from dpsens import Real\n\n\ndef double(x: Real) -> Real:\n    return 2 * x\n",
    "pkg/mid.py": "from dpsens import Real\nfrom pkg.base import double\n\n\n"
                  "def twice(x: Real) -> Real:\n    return double(x)\n",
    "pkg/top.py": "from dpsens import Real\nfrom pkg import mid\n\n\n"
                  "def outer(x: Real) -> Real:\n    return mid.twice(x) + x\n",
    "pkg/other.py": "from dpsens import Real\n\n\ndef same(x: Real) -> Real:\n    return x\n",
}


class Spy:
    """Records which modules the driver parses and which units it analyzes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.parsed: list[str] = []
        self.analyzed: list[str] = []
        parse, analyze = workers.parse_task, workers.analyze_task

        def parse_task(shown: str, name: str, text: str) -> Any:
            self.parsed.append(shown)
            return parse(shown, name, text)

        def analyze_task(members: list[Any], *rest: Any) -> Any:
            self.analyzed.extend(row[0] for row in members)
            return analyze(members, *rest)

        monkeypatch.setattr(workers, "parse_task", parse_task)
        monkeypatch.setattr(workers, "analyze_task", analyze_task)

    def take(self) -> tuple[list[str], list[str]]:
        out = sorted(set(self.parsed)), sorted(self.analyzed)
        self.parsed.clear()
        self.analyzed.clear()
        return out


def sensitivity(out: str, function: str) -> str:
    for file in json.loads(out)["files"]:
        for f in file["functions"]:
            if f["qualname"] == function:
                return str(f["params"][0]["sensitivity"])
    raise KeyError(function)


def test_a_warm_run_does_no_libcst_work(project: Path, run: Run,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import libcst

    from dpsens.frontend import parse

    write(project, PACKAGE)
    cold = run("check", "--format", "json", "pkg")
    assert (project / ".dpsens_cache" / ".gitignore").read_text().endswith("*\n")

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("LibCST was used on a cached run")

    monkeypatch.setattr(libcst, "parse_module", forbidden)
    monkeypatch.setattr(parse, "parse_module", forbidden)
    assert run("check", "--format", "json", "pkg") == cold
    code, _, err = run("check", "-v", "pkg")
    assert code == 0 and "0 units analyzed, 4 from the cache" in err


def test_a_warm_run_imports_neither_libcst_nor_sympy(project: Path) -> None:
    write(project, PACKAGE)
    script = ("import sys\nfrom dpsens.cli import main\ncode = main(['check', '-q', 'pkg'])\n"
              "print(code, 'libcst' in sys.modules, 'sympy' in sys.modules)\n")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=child_env(), check=True).stdout for _ in range(2)]
    # The cold run analyzes (sympy); its small parse ran in a child (dpsens.parse_ahead).
    assert runs == ["0 False True\n", "0 False False\n"]


def test_a_change_reanalyzes_the_module_and_its_importers(project: Path, run: Run,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    write(project, PACKAGE)
    spy = Spy(monkeypatch)
    _, out, _ = run("check", "--format", "json", "pkg")
    assert spy.take()[1] == ["pkg/base.py", "pkg/mid.py", "pkg/other.py", "pkg/top.py"]
    assert sensitivity(out, "outer") == "3"

    (project / "pkg" / "base.py").write_text(PACKAGE["pkg/base.py"].replace("2 * x", "4 * x"))
    _, out, _ = run("check", "--format", "json", "pkg")
    # The package's __init__ runs whenever one of its modules is imported: it is part of
    # every closure, and parsed with them.
    assert spy.take() == (["pkg/__init__.py", "pkg/base.py", "pkg/mid.py", "pkg/top.py"],
                          ["pkg/base.py", "pkg/mid.py", "pkg/top.py"])
    assert sensitivity(out, "outer") == "5"  # not a stale result of the old base.py

    (project / "pkg" / "other.py").write_text(PACKAGE["pkg/other.py"] + "\n")
    run("check", "pkg")
    assert spy.take() == (["pkg/__init__.py", "pkg/other.py"], ["pkg/other.py"])

    (project / "pkg" / "top.py").write_text(PACKAGE["pkg/top.py"] + "\n")
    run("check", "pkg")
    # top.py's imports are parsed again (their IR is not cached) but not re-analyzed.
    assert spy.take() == (["pkg/__init__.py", "pkg/base.py", "pkg/mid.py", "pkg/top.py"],
                          ["pkg/top.py"])


def test_unchecked_imported_modules_are_part_of_the_key(project: Path, run: Run) -> None:
    """A pre-commit run checks staged files; an edited unstaged import still counts."""
    write(project, PACKAGE)
    assert sensitivity(run("check", "--format", "json", "pkg/top.py")[1], "outer") == "3"
    (project / "pkg" / "base.py").write_text(PACKAGE["pkg/base.py"].replace("2 * x", "4 * x"))
    assert sensitivity(run("check", "--format", "json", "pkg/top.py")[1], "outer") == "5"


def test_options_stubs_and_the_analyzer_version_invalidate(project: Path, run: Run,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from dpsens import cache

    write(project, {"scaled.py": "import extra\nfrom dpsens import Real, Static\n\n\n"
                                 "def f(x: Real, c: Static[float]) -> Real:\n    return c * x\n\n\n"
                                 "def h(x: Real) -> Real:\n    return extra.halve(x)\n"})
    assert sensitivity(run("check", "--format", "json", "scaled.py")[1], "f") == "abs(c)"
    assert sensitivity(run("check", "--format", "json", "--bind", "c=-3", "scaled.py")[1],
                       "f") == "3"
    (project / "stubs").mkdir()
    assert "1 units analyzed" in run("check", "-v", "--stubs", "stubs", "scaled.py")[2]
    code, out, err = run("check", "-v", "--format", "json", "--stubs", "stubs", "scaled.py")
    assert "0 units analyzed" in err and sensitivity(out, "h") == "inf"
    (project / "stubs" / "extra.pyi").write_text(
        "from dpsens import Real\nfrom dpsens.stub import sensitivity\n\n"
        "@sensitivity(x=\"1/2\")\ndef halve(x: Real) -> Real: ...\n")
    code, out, err = run("check", "-v", "--format", "json", "--stubs", "stubs", "scaled.py")
    assert "1 units analyzed" in err and sensitivity(out, "h") == "1/2"
    monkeypatch.setattr(cache, "tool_fingerprint", lambda: "a newer dpsens")
    assert "1 units analyzed" in run("check", "-v", "--stubs", "stubs", "scaled.py")[2]


def test_the_size_limit_python_and_libraries_invalidate(project: Path, run: Run,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A module above the size limit is not analyzed where it is imported: raising the
    limit must re-analyze its importers (the limit was not in the key); so must another
    Python or library version (CPython's parser decides what is a syntax error)."""
    from dpsens import cache

    write(project, {"a.py": "from dpsens import Real\n\n\ndef f(x: Real) -> Real:\n"
                            "    return x\n" + "# padding\n" * 200,
                    "b.py": "from dpsens import Real\nfrom a import f\n\n\n"
                            "def g(x: Real) -> Real:\n    return f(x)\n"})
    limited = run("check", "--format", "json", "--max-file-size", "1000", "b.py")[1]
    assert sensitivity(limited, "g") == "inf"
    assert sensitivity(run("check", "--format", "json", "b.py")[1], "g") == "1"
    assert "0 units analyzed" in run("check", "-v", "b.py")[2]
    monkeypatch.setattr(cache, "_environment", lambda: "another Python")
    assert "1 units analyzed" in run("check", "-v", "b.py")[2]


def test_an_unreadable_stub_is_reported_with_the_cache_on(project: Path, run: Run) -> None:
    """A dangling stub (or a directory named like one) was read for the cache's key and
    crashed the run; it is a DPS002 as without the cache."""
    write(project, {"e.py": SCALED})
    (project / "typings").mkdir()
    (project / "typings" / "broken.pyi").symlink_to(project / "missing.pyi")
    (project / "typings" / "folder.pyi").mkdir()
    for cached in ((), ("--no-cache",)):
        code, out, err = run("check", *cached, "--stubs", "typings", "e.py")
        assert code == 1 and "internal error" not in err, (out, err)
        assert "typings/broken.pyi:1:1: DPS002" in out


def test_no_cache_writes_nothing(project: Path, run: Run) -> None:
    write(project, PACKAGE)
    assert run("check", "--no-cache", "pkg")[0] == 0
    assert not (project / ".dpsens_cache").exists()


def test_cache_dir_from_flag_environment_and_config(project: Path, run: Run,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    write(project, PACKAGE)
    run("check", "--cache-dir", "flag-cache", "pkg")
    monkeypatch.setenv("DPSENS_CACHE_DIR", "env-cache")
    run("check", "pkg")
    monkeypatch.delenv("DPSENS_CACHE_DIR")
    (project / "pyproject.toml").write_text("[tool.dpsens]\ncache_dir = 'build/cache'\n")
    run("check", "pkg")
    for directory in ("flag-cache", "env-cache", "build/cache"):
        assert (project / directory / "CACHEDIR.TAG").is_file()
    assert not (project / ".dpsens_cache").exists()


def test_a_broken_or_unwritable_cache_is_ignored(project: Path, run: Run) -> None:
    write(project, PACKAGE)
    _, expected, _ = run("check", "--format", "json", "pkg")
    for entry in (project / ".dpsens_cache").rglob("*.json"):
        entry.write_text("{not json")
    assert run("check", "--format", "json", "pkg") == (0, expected, "")
    (project / "blocked").write_text("a file where the cache directory should be\n")
    assert run("check", "--format", "json", "--cache-dir", "blocked", "pkg") == (0, expected, "")


def test_the_cache_directory_ignores_itself(project: Path, run: Run) -> None:
    subprocess.run(["git", "init", "-q"], check=True)
    write(project, PACKAGE)
    run("check", "pkg")
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True).stdout
    assert ".dpsens_cache" not in status and "pkg/base.py" in status


RECURSIVE = {
    "ring/__init__.py": "",
    "ring/a.py": "from dpsens import Real\nfrom ring import b\n\n\n"
                 "def f(x: Real) -> Real:\n    return b.g(x)\n",
    "ring/b.py": "from dpsens import Real\nfrom ring import a\n\n\n"
                 "def g(x: Real) -> Real:\n    return a.f(x)\n",
    "ring/c.py": "from dpsens import Real\nfrom ring import b\n\n\n"
                 "def h(x: Real) -> Real:\n    return b.g(x) + 1\n",
}


def test_parallel_runs_match_serial_ones(project: Path, run: Run) -> None:
    examples = Path(__file__).parents[2] / "examples"
    write(project, {**RECURSIVE, **{f"ex/{p.name}": p.read_text() for p in examples.glob("*.py")
                                    if p.name != "__init__.py"}})
    serial = run("check", "--no-cache", "--format", "json", ".")
    assert "DPS204" in serial[1]
    assert run("check", "--no-cache", "--format", "json", "-j", "3", ".") == serial
    assert run("check", "--format", "json", "-j", "2", ".") == serial  # cold cache
    assert run("check", "--format", "json", "-j", "2", ".") == serial  # warm cache
