"""dpsens benchmarks: python benchmarks/run.py [--quick]

Builds its corpora itself and prints, for each figure, dpsens's time next to a
reference measured in the same run, and their ratio (README: Performance).

A  annotated corpus (200 files, 2,000 functions): dpsens vs LibCST parse-only
B  numpy's own sources (never mention dpsens): dpsens vs LibCST parse, vs mypy
C  pre-commit latency on one annotated file: cold and warm, vs mypy
D  re-runs of A: nothing changed, one file changed
   peak memory of A and B; --jobs 2 on A, next to what two processes gain here
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import generate  # noqa: E402

PARSE_ONLY = """
import sys, libcst
from pathlib import Path
for path in sys.argv[1:]:
    for file in sorted(Path(path).rglob("*.py")):
        try:
            libcst.parse_module(file.read_text(encoding="utf-8", errors="replace"))
        except Exception:
            pass
"""

# Pure-Python work of about a second, for the machine's own parallel ceiling.
SPIN = "total = 0\nfor i in range(15_000_000):\n    total += i"

# A command (argv[2:]) twice, one after the other (argv[1] == "serial") or at the same time.
PAIR = """
import subprocess, sys
command, quiet = sys.argv[2:], subprocess.DEVNULL
if sys.argv[1] == "serial":
    subprocess.run(command, stdout=quiet); subprocess.run(command, stdout=quiet)
else:
    first = subprocess.Popen(command, stdout=quiet); subprocess.run(command, stdout=quiet)
    first.wait()
"""

MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{elapsed} {peak} {code}")
"""


REPEAT = 1  # runs per figure (--repeat); the median is reported


def measure(command: list[str], cwd: Path, repeat: int | None = None) -> tuple[float, float]:
    """(median wall seconds, peak MB) of a command, each run a fresh process; exit codes
    above 1 abort. Wall times on a shared machine vary by ±30%, hence the median."""
    times, peaks = [], []
    for _ in range(repeat or REPEAT):
        out = subprocess.run([sys.executable, "-c", MEASURE, *command], cwd=cwd,
                             capture_output=True, text=True, check=True).stdout.split()
        if int(out[2]) > 1 and "mypy" not in command:
            raise SystemExit(f"benchmark command failed with exit {out[2]}: {' '.join(command)}")
        times.append(float(out[0]))
        peaks.append(float(out[1]))
    return statistics.median(times), max(peaks)


def dpsens(*args: str) -> list[str]:
    return [sys.executable, "-m", "dpsens", "check", *args]


def mypy(*args: str) -> list[str]:
    return [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--follow-imports=silent",
            *args]


def row(label: str, mine: float, reference: float, reference_name: str, target: str,
        name: str = "dpsens") -> dict:
    ratio = reference / mine if mine else float("inf")
    print(f"{label:<44} {name} {mine:8.2f} s   {reference_name} {reference:8.2f} s   "
          f"ratio {ratio:6.2f}x   target {target}")
    return {"figure": label, name: mine, reference_name: reference, "ratio": ratio}


def machine_ceiling(work: Path, command: list[str], label: str, name: str) -> dict:
    """How much faster two copies of a CPU-bound command finish together than one after
    the other: the most --jobs 2 can gain here (a shared or virtual machine gives less
    than 2x, and less again for work that reads much memory)."""
    serial, _ = measure([sys.executable, "-c", PAIR, "serial", *command], work)
    parallel, _ = measure([sys.executable, "-c", PAIR, "parallel", *command], work)
    return row(label, parallel, serial, "in-turn", "none (--jobs 2 cannot beat it)", name=name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smaller corpus and no mypy on numpy")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per dpsens figure and its LibCST reference; the median counts")
    args = parser.parse_args()
    global REPEAT
    REPEAT = max(1, args.repeat)
    results = []
    # An installed package has its bytecode compiled; with PYTHONDONTWRITEBYTECODE set (as
    # in some shells and CI images) an editable checkout would recompile every changed
    # module in every measured process (38 modules: 0.08 s of each run here).
    import compileall
    import importlib.util

    package = importlib.util.find_spec("dpsens")
    if package is None or package.origin is None:
        parser.error("dpsens is not installed in this Python: run `pip install -e .` first")
    compileall.compile_dir(str(Path(package.origin).parent), quiet=1)
    # Likewise the kept code of generated dataclass methods (dpsens.code_cache), which a
    # first run writes beside the bytecode unless bytecode writing is off.
    subprocess.run([sys.executable, "-c", "from dpsens import code_cache; code_cache.prepare()"],
                   check=True)
    work = Path(tempfile.mkdtemp(prefix="dpsens-bench-"))
    try:
        modules = 40 if args.quick else 200
        generate(work / "a", modules=modules, per_module=10)
        corpus = str(work / "a" / "corpus")
        (work / "a" / "pyproject.toml").write_text("[tool.dpsens]\n")
        # The parse, one process and two, one run of each in turn, --repeat times: a shared
        # machine drifts over minutes (the ratio of medians measured apart moved by 0.2).
        parses, ones, twos, memory_a = [], [], [], 0.0
        for _ in range(REPEAT):
            parses.append(measure([sys.executable, "-c", PARSE_ONLY, corpus], work, repeat=1)[0])
            seconds, peak = measure(dpsens("--no-cache", corpus), work / "a", repeat=1)
            ones.append(seconds)
            memory_a = max(memory_a, peak)
            twos.append(measure(dpsens("--no-cache", "--jobs", "2", corpus), work / "a", repeat=1)[0])
        parse_a, cold_a = statistics.median(parses), statistics.median(ones)
        results.append(row(f"A  {modules} files, {modules * 10} functions",
                           cold_a, parse_a, "libcst-parse", ">= 0.5x"))
        results.append(row("A  --jobs 2 vs --jobs 1", statistics.median(twos), cold_a, "jobs-1",
                           ">= 1.6x"))
        results.append(machine_ceiling(work, [sys.executable, "-c", SPIN],
                                       "A  machine ceiling: 2 processes vs 1", "spins "))
        # The same for A's own work: two whole --jobs 1 runs, which share nothing.
        results.append(machine_ceiling(work / "a", dpsens("--no-cache", corpus),
                                       "A  ceiling for A's work: 2 runs vs 1", "2 runs"))

        import numpy
        numpy_dir = Path(numpy.__file__).parent
        tree = work / "b" / "src" / "numpy"  # not importable from the working directory
        shutil.copytree(numpy_dir, tree, ignore=shutil.ignore_patterns("*.so", "*.pyc", "tests"))
        lines = sum(p.read_text(errors="replace").count("\n") for p in tree.rglob("*.py"))
        parse_b, _ = measure([sys.executable, "-c", PARSE_ONLY, str(tree)], work)
        cold_b, memory_b = measure(dpsens("--no-cache", str(tree)), work / "b")
        results.append(row(f"B  numpy sources, {lines} lines", cold_b, parse_b, "libcst-parse",
                           ">= 20x"))
        if not args.quick:
            mypy_b, _ = measure(mypy("--no-incremental", str(tree)), work / "b", repeat=1)
            results.append(row("B  numpy sources vs mypy (cold)", cold_b, mypy_b, "mypy", ">= 10x"))

        one = work / "c"
        one.mkdir()
        shutil.copy(HERE.parent / "examples" / "column_stats.py", one / "single.py")
        cold_c, _ = measure(dpsens("--no-cache", "single.py"), one)
        measure(dpsens("single.py"), one, repeat=1)  # fill the cache
        warm_c, _ = measure(dpsens("single.py"), one)
        mypy_cold, _ = measure(mypy("--no-incremental", "single.py"), one)
        measure(mypy("single.py"), one, repeat=1)
        mypy_warm, _ = measure(mypy("single.py"), one)
        results.append(row("C  one file, cold (target <= 0.5 s)", cold_c, mypy_cold, "mypy-cold",
                           "<= 0.5 s"))
        results.append(row("C  one file, warm cache (target <= 0.2 s)", warm_c, mypy_warm,
                           "mypy-warm", "<= 0.2 s"))

        measure(dpsens(corpus), work / "a", repeat=1)  # fill the cache
        rerun, _ = measure(dpsens(corpus), work / "a")
        results.append(row("D  re-run, nothing changed", rerun, cold_a, "cold-run", ">= 10x"))
        changed = work / "a" / "corpus" / f"m{modules - 1}.py"  # a leaf: nothing imports it
        changed.write_text(changed.read_text() + "\n\ndef extra(x: Real) -> Real:\n    return 2 * x\n")
        one_changed, _ = measure(dpsens(corpus), work / "a", repeat=1)  # later runs find it cached
        results.append(row("D  re-run, one file changed", one_changed, cold_a, "cold-run", ">> 1x"))
        print(f"peak memory: A {memory_a:.0f} MB, B {memory_b:.0f} MB (target B <= 300 MB)")
        results.append({"figure": "peak memory MB", "A": memory_a, "B": memory_b})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
