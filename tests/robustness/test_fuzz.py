"""Fuzz the analyzer: generated programs and mutated examples never crash it.

Three sources of programs:

* ``hypothesmith`` (Python's grammar, behind a dpsens import so that the
  file is analyzed, not skipped; test_fuzz_hypothesmith.py),
* a generator of programs in the dpsens subset (``generate.program``:
  annotations, builtins, mechanisms, loops, branches, calls, mistakes),
* the bundled examples with lines deleted, duplicated, swapped, re-indented
  and random tokens inserted (``generate.mutate``).

For every file: no exception out of ``check_paths``, no DPS001 (internal
error), every diagnostic coded and located, and at most PER_FILE_SECONDS.

CI runs a bounded, fixed set of examples; a longer run with fresh ones:
    DPSENS_FUZZ_EXAMPLES=2000 DPSENS_FUZZ_RANDOM=1 python -m pytest tests/robustness/test_fuzz*.py
A failure prints the seed (or the program); replay a seed with
``generate.program(random.Random(seed))``.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.robustness.generate import mutate, program
from tests.robustness.harness import PER_FILE_SECONDS, ROOT, analyze

EXAMPLES = int(os.environ.get("DPSENS_FUZZ_EXAMPLES", "50"))
# CI draws the same programs every run (a red CI means a change broke something); the
# longer run draws new ones each time: DPSENS_FUZZ_EXAMPLES=2000 DPSENS_FUZZ_RANDOM=1.
DERANDOMIZE = not os.environ.get("DPSENS_FUZZ_RANDOM")
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=DERANDOMIZE,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])
SOURCES = sorted(p for p in (ROOT / "examples").glob("*.py") if p.name != "__init__.py")
SCRATCH = Path(tempfile.mkdtemp(prefix="dpsens-fuzz-"))


def _check(text: str, name: str = "fuzzed.py") -> None:
    path = SCRATCH / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    outcome = analyze(path)
    assert not outcome.problems(), (outcome.problems(), text)
    assert outcome.seconds <= PER_FILE_SECONDS


@pytest.mark.filterwarnings("ignore::SyntaxWarning", "ignore::DeprecationWarning")
@FUZZ
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_generated_dpsens_programs(seed: int) -> None:
    _check(program(random.Random(seed)))


@pytest.mark.filterwarnings("ignore::SyntaxWarning", "ignore::DeprecationWarning")
@FUZZ
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(SOURCES))
def test_mutated_examples(seed: int, source: Path) -> None:
    _check(mutate(source.read_text(), random.Random(seed)))


def test_generator_covers_the_subset() -> None:
    """The generated programs are analyzed, not just parsed: they produce reports and findings."""
    functions, codes = 0, set()
    for seed in range(15):
        path = SCRATCH / f"cover_{seed}.py"
        path.write_text(program(random.Random(seed)))
        outcome = analyze(path)
        assert not outcome.problems()
        functions += len(outcome.functions)
        codes |= outcome.codes
    assert functions >= 20
    assert len(codes) >= 4, codes  # several kinds of findings, not one parse error
