"""Time per file: well below dpsens's own per-file limit (DPS005); this documents the cost.

Each file is analyzed alone (a fresh check_paths call; library code already
imported) and must finish within PER_FILE_SECONDS (tests/robustness/harness.py,
DPSENS_PER_FILE_SECONDS to change).  ``pytest -s`` prints the table.  The
inputs that exceed it (deeply nested loops, multi-megabyte modules) are in
test_hostile_files, where they end with DPS005 or DPS006.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.robustness.harness import PER_FILE_SECONDS, ROOT, analyze

EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.py") if p.name != "__init__.py")

GENERATED = {
    "1,000 statements": "from dpsens import Real\n\n\ndef f(x: Real) -> Real:\n"
                        + "    x = x + 1.0\n" * 1000 + "    return x\n",
    "1,000 functions": "from dpsens import Real\n" + "".join(
        f"\n\ndef g{i}(x: Real) -> Real:\n    return x + {i}.0\n" for i in range(1000)),
    "chain of 300 calls": "from dpsens import Real\n\n\ndef g0(x: Real) -> Real:\n    return 2.0 * x\n"
                          + "".join(f"\n\ndef g{i}(x: Real) -> Real:\n    return g{i - 1}(x)\n"
                                    for i in range(1, 300)),
    "sum of 200 terms": "from dpsens import Real\n\n\ndef f(x: Real) -> Real:\n    return x"
                        + " + x" * 200 + "\n",
    "3 nested 60-iteration index loops": "from dpsens import Real\n\n\ndef f(x: Real) -> Real:\n"
                                          "    s = 0.0\n" + "".join(
        " " * (4 + 4 * i) + f"for i{i} in range(60):\n" for i in range(3))
        + " " * 16 + "s = s + i0 * i1 * i2 * x\n    return s\n",
    "6 nested loops": "from dpsens import Real\n\n\ndef f(x: Real) -> Real:\n" + "".join(
        " " * (4 + 4 * i) + "for _ in range(3):\n" for i in range(6)) + " " * 28 + "x = 2.0 * x\n"
        + "    return x\n",
}

TIMES: dict[str, float] = {}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_file_time(path: Path) -> None:
    outcome = analyze(path)
    assert not outcome.problems(), outcome.problems()
    TIMES[f"examples/{path.name}"] = outcome.seconds
    assert outcome.seconds <= PER_FILE_SECONDS


@pytest.mark.parametrize("name", GENERATED, ids=list(GENERATED))
def test_generated_file_time(name: str, tmp_path: Path) -> None:
    path = tmp_path / "generated.py"
    path.write_text(GENERATED[name])
    outcome = analyze(path)
    assert not outcome.problems(), outcome.problems()
    TIMES[f"{name} ({len(GENERATED[name]) // 1024} KB)"] = outcome.seconds
    assert outcome.seconds <= PER_FILE_SECONDS


def test_print_the_table() -> None:
    """Shown with pytest -s (after the timing tests above, in file order)."""
    for name, seconds in TIMES.items():
        print(f"{seconds:7.2f} s  {name}")
