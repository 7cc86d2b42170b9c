"""Which files are checked: walks, exclude globs, .gitignore, and bad input."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.lint.conftest import SCALED, Run, pyproject, write


def checked(out: str) -> list[str]:
    """Files that have a function report in the text output."""
    return sorted(line for line in out.splitlines() if line.endswith(".py"))


def test_walk_respects_exclude_globs_and_gitignore(project: Path, run: Run) -> None:
    subprocess.run(["git", "init", "-q"], check=True)
    pyproject(project, 'exclude = ["generated/", "*_pb2.py"]')
    (project / ".gitignore").write_text("scratch/\n*.tmp.py\n")
    (project / "lib" / "vendor").mkdir(parents=True)
    (project / "lib" / "vendor" / ".gitignore").write_text("*.py\n!kept.py\n")
    write(project, {name: SCALED for name in (
        "app.py", "messages_pb2.py", "generated/api.py", "scratch/try.py", "lib/x.tmp.py",
        "lib/vendor/dropped.py", "lib/vendor/kept.py", ".hidden/h.py", "venv/v.py")})
    code, out, err = run("check", "--no-cache", "-v")
    assert code == 0
    assert checked(out) == ["app.py", "lib/vendor/kept.py"]
    assert "(checked 2 source files)" in out
    assert "5 paths excluded" in err


def test_gitignore_can_be_turned_off(project: Path, run: Run) -> None:
    subprocess.run(["git", "init", "-q"], check=True)
    pyproject(project, "respect_gitignore = false")
    (project / ".gitignore").write_text("scratch/\n")
    write(project, {"scratch/try.py": SCALED})
    assert checked(run("check", "--no-cache")[1]) == ["scratch/try.py"]


def test_gitignore_outside_a_repository_is_not_used(project: Path, run: Run) -> None:
    (project / ".gitignore").write_text("*.py\n")
    write(project, {"app.py": SCALED})
    assert checked(run("check", "--no-cache")[1]) == ["app.py"]


def test_include_globs_choose_the_walked_files(project: Path, run: Run) -> None:
    pyproject(project, 'include = ["src/**/*.py"]')
    write(project, {"src/a/one.py": SCALED, "tools/two.py": SCALED})
    assert checked(run("check", "--no-cache")[1]) == ["src/a/one.py"]


def test_explicit_files_still_honour_exclude(project: Path, run: Run) -> None:
    """pre-commit passes every staged file; an excluded one must stay excluded."""
    pyproject(project, 'exclude = ["generated/"]')
    write(project, {"generated/api.py": "def broken(:\n", "app.py": SCALED})
    code, out, _ = run("check", "--no-cache", "generated/api.py", "app.py")
    assert code == 0 and "(checked 1 source file)" in out


def test_directory_without_python_exits_two(project: Path, run: Run) -> None:
    write(project, {"docs/index.md": "# docs\n", "app.py": SCALED})
    code, out, err = run("check", "--no-cache", "--output", "report.json", "--format", "json",
                         "app.py", "docs")
    assert code == 2
    assert err == "dpsens: error: no Python files found in 'docs' (after exclusions)\n"
    assert out == "" and not (project / "report.json").exists()


def test_missing_path_is_a_finding(project: Path, run: Run) -> None:
    code, out, _ = run("check", "--no-cache", "nope.py")
    assert code == 1 and "nope.py:1:1: DPS002 no such file or directory" in out


def test_unreadable_file_is_a_finding(project: Path, run: Run,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    write(project, {"secret.py": SCALED, "ok.py": SCALED})
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "secret.py":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    code, out, _ = run("check", "--no-cache")
    assert code == 1
    assert "secret.py:1:1: DPS002 cannot read file: Permission denied" in out
    assert "ok.py\n  scaled (line 4)" in out  # the other file is still analyzed


def test_dangling_symlink_in_a_walk_is_a_finding(project: Path, run: Run) -> None:
    write(project, {"ok.py": SCALED})
    (project / "gone.py").symlink_to(project / "deleted.py")
    code, out, _ = run("check", "--no-cache")
    assert code == 1 and "gone.py:1:1: DPS002 cannot read file: No such file or directory" in out


def test_symlink_loops_terminate(project: Path, run: Run) -> None:
    write(project, {"pkg/ok.py": SCALED})
    (project / "pkg" / "loop").symlink_to(project / "pkg")
    code, out, _ = run("check", "--no-cache")
    assert code == 0 and "(checked 1 source file)" in out
