"""The pre-commit hook, run for real: a repository stages a privacy bug, the commit check fails.

pre-commit installs the hook the way a user's machine does: it clones this
checkout at a commit and pip-installs it into a fresh virtualenv. The working
tree may hold uncommitted changes, so the test commits a snapshot of it (the
files git would track) into a scratch repository and points the config there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from pre_commit.clientlib import load_manifest

from tests.lint.conftest import child_env

ROOT = Path(__file__).resolve().parents[2]
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "dpsens tests", "GIT_AUTHOR_EMAIL": "tests@dpsens.invalid",
    "GIT_COMMITTER_NAME": "dpsens tests", "GIT_COMMITTER_EMAIL": "tests@dpsens.invalid",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}
LIB = "def halve(v):\n    return v / 2\n"  # no dpsens import: read from disk when called
LEAK = (
    "import lib\nfrom dpsens import Priv, Real, Static, laplace_mechanism\n\n\n"
    "def release(x: Real, eps: Static[float]) -> Priv[Real]:\n"
    "    return lib.halve(x)\n"
)
FIXED = LEAK.replace("return lib.halve(x)", "return laplace_mechanism(1, eps, lib.halve(x))")
BUDGET = ('[tool.dpsens.bindings]\n"release.eps" = 1.0\n\n'
          '[tool.dpsens.budget]\n"release.release" = { epsilon = 1.0 }\n')


def test_the_manifest_declares_the_hook() -> None:
    [hook] = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    assert hook["id"] == "dpsens" and hook["entry"] == "dpsens check"
    assert hook["language"] == "python" and hook["types"] == ["python"]
    # The whole tree: a staged change reaches callers that are not staged.
    assert hook["require_serial"] is True and hook["pass_filenames"] is False


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True,
                            env=child_env(**GIT_IDENTITY))
    return result.stdout.strip()


def snapshot(target: Path) -> str:
    """Commit the checkout's working tree (tracked and unignored files) into ``target``."""
    listed = git(ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not os.path.lexists(source):
            continue  # deleted in the working tree
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination, follow_symlinks=False)
    git(target, "init", "-q")
    git(target, "add", "-A")
    git(target, "commit", "-q", "-m", "snapshot")
    return git(target, "rev-parse", "HEAD")


def pre_commit(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["pre-commit", "run", "--color", "never"], cwd=repo, capture_output=True,
                          text=True, timeout=600,
                          env=child_env(PRE_COMMIT_HOME=str(home), **GIT_IDENTITY))


def test_pre_commit_fails_on_a_staged_privacy_bug_and_passes_once_fixed(tmp_path: Path) -> None:
    hooks = tmp_path / "dpsens-checkout"
    revision = snapshot(hooks)
    repo = tmp_path / "user-repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hooks.as_posix()}\n  rev: {revision}\n  hooks:\n  - id: dpsens\n")
    (repo / "lib.py").write_text(LIB)
    (repo / "pyproject.toml").write_text(BUDGET)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")

    (repo / "release.py").write_text(LEAK)
    git(repo, "add", "release.py")  # only release.py is staged; lib.py is read from disk
    failed = pre_commit(repo, tmp_path / "pre-commit-home")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "dpsens (sensitivity and privacy)" in failed.stdout and "Failed" in failed.stdout
    assert "- exit code: 1" in failed.stdout
    assert "release.py:5:1: DPS403 'x' is released without noise" in failed.stdout

    (repo / "release.py").write_text(FIXED)
    git(repo, "add", "release.py")
    passed = pre_commit(repo, tmp_path / "pre-commit-home")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout
    assert git(repo, "status", "--porcelain") == "A  release.py"  # the cache ignores itself
    git(repo, "commit", "-q", "-m", "release")

    # Only the callee is staged: its caller, unchanged, now exceeds its budget.
    (repo / "lib.py").write_text(LIB.replace("v / 2", "4 * v"))
    git(repo, "add", "lib.py")
    exceeded = pre_commit(repo, tmp_path / "pre-commit-home")
    assert exceeded.returncode == 1, exceeded.stdout + exceeded.stderr
    assert "DPS501 'release' exceeds its privacy budget" in exceeded.stdout
    assert "epsilon of 'x' is 4" in exceeded.stdout
