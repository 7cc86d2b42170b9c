# Typing rules of numpy.linalg functions dpsens analyzes.
from typing import Any

from dpsens import Real
from dpsens.stub import rule

@rule("vector_norm")
def norm(x: Any) -> Real:
    """The L2 norm of a vector (reverse triangle inequality)."""
