"""Programs from Python's grammar (hypothesmith) never crash the analyzer.

Each program is put behind a dpsens import, so the analyzer does not skip
the file as unrelated.  Generation only (no shrinking: a failing program is
printed whole).  Longer run:
    DPSENS_FUZZ_EXAMPLES=2000 DPSENS_FUZZ_RANDOM=1 python -m pytest tests/robustness/test_fuzz_hypothesmith.py
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from tests.robustness.test_fuzz import DERANDOMIZE, EXAMPLES, _check

hypothesmith = pytest.importorskip("hypothesmith")


pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning", "ignore::DeprecationWarning")


@settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.generate],
          derandomize=DERANDOMIZE,
          suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar(auto_target=False))
def test_grammar_programs(source: str) -> None:
    _check("from dpsens import Real, Static, Priv, laplace_mechanism\n" + source, "grammar.py")


@settings(max_examples=max(10, EXAMPLES // 5), deadline=None, database=None, phases=[Phase.generate],
          derandomize=DERANDOMIZE,
          suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_node())
def test_syntax_tree_programs(source: str) -> None:
    _check("from dpsens import Real, Static, Priv, laplace_mechanism\n" + source, "nodes.py")
