"""Helpers for the lint-shell tests: a throw-away project as the working directory, and the CLI."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest

from dpsens.cli import main

PRIVATE = (
    "from dpsens import Priv, Real, Static, laplace_mechanism\n\n\n"
    "def release(x: Real, eps: Static[float]) -> Priv[Real]:\n"
    "    return laplace_mechanism(1, eps, x)\n"
)
LEAKY = (
    "from dpsens import Priv, Real\n\n\n"
    "def leak(x: Real) -> Priv[Real]:\n"
    "    return x\n"
)
SCALED = (
    "from dpsens import Real, Static\n\n\n"
    "def scaled(x: Real, c: Static[float]) -> Real:\n"
    "    return c * x\n"
)

Run = Callable[..., "tuple[int, str, str]"]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory, made the working directory (displayed paths are relative)."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    monkeypatch.delenv("DPSENS_CACHE_DIR", raising=False)
    return root


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """Run ``dpsens`` in this process: (exit code, stdout, stderr)."""

    def invoke(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as exit_:  # argparse usage errors
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


def write(root: Path, files: dict[str, str]) -> None:
    """Create files (and their directories) under root."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


def pyproject(root: Path, table: str) -> None:
    """A pyproject.toml whose [tool.dpsens] table has the given body."""
    (root / "pyproject.toml").write_text(f"[project]\nname = 'demo'\n\n[tool.dpsens]\n{table}\n")


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a subprocess, without the suite's NO_COLOR."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(extra)
    return env
