"""mypy --strict accepts the examples and the stubs, and plain numpy callers of annotated code."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy(*targets: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *targets],
        cwd=cwd, capture_output=True, text=True, env={"MYPYPATH": str(ROOT), "PATH": ""},
    )


def test_examples_and_vocabulary_type_check() -> None:
    result = _mypy("examples", "dpsens/lang.py", "dpsens/stub.py", "dpsens/runtime")
    assert result.returncode == 0, result.stdout


def test_stubs_type_check(tmp_path: Path) -> None:
    # Stubs are named after the modules they describe (numpy.pyi, builtins.pyi),
    # which mypy would take for the real modules; check copies under other names.
    for stub in (ROOT / "stubs").glob("*.pyi"):
        shutil.copy(stub, tmp_path / f"stub_{stub.stem.replace('.', '_')}.pyi")
    result = _mypy(str(tmp_path))
    assert result.returncode == 0, result.stdout


def test_plain_ndarray_callers_type_check(tmp_path: Path) -> None:
    caller = tmp_path / "caller.py"
    caller.write_text(
        "import numpy as np\n"
        "from examples.column_stats import clipped_sum\n"
        "from examples.normalize import mean_normalized_row\n"
        "total: float = clipped_sum(np.zeros((3, 2)), 0, 1.0)\n"
        "mean = mean_normalized_row(np.ones((2, 2)))\n"
        "print(total, mean.shape)\n"
    )
    result = _mypy(str(caller))
    assert result.returncode == 0, result.stdout


def test_mypy_rejects_misuse(tmp_path: Path) -> None:
    """The check is real: a wrongly typed call fails."""
    caller = tmp_path / "misuse.py"
    caller.write_text("from examples.column_stats import clipped_sum\nclipped_sum('rows', 0, 1.0)\n")
    result = _mypy(str(caller))
    assert result.returncode != 0
    assert "arg-type" in result.stdout
