"""Settings that change analysis results (and so key the cache)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase

# A size binding: rows(x), cols(x), len(x), plain or after a function's (qualified) name.
DIMENSION = re.compile(r"(?:^|\.)(rows|cols|len)\((\w+)\)$")


def dimension_problem(key: str, value: float) -> str | None:
    """Why ``value`` cannot be bound to ``key`` when the key is a size (None: it can)."""
    if DIMENSION.search(key) and not (math.isfinite(value) and value >= 1 and float(value).is_integer()):
        return f"is a size and must be a positive whole number, got {value:g}"
    return None


@dataclass(frozen=True)
class Options:
    """Analysis settings that change results (part of the cache key)."""

    delta_prime: float = 1e-5  # the δ' of advanced composition and of zCDP/RDP/PLD conversions
    beta: float = 0.05  # the failure probability of reported accuracy bounds
    # Values for static parameters and dimensions: "k", "rows(data)", or "module.function.k".
    bindings: tuple[tuple[str, float], ...] = ()
    # (glob, δ) of the configured budgets that bound δ: a function they match is accounted
    # at that δ where it can be (compose.account_within), not only at delta_prime.
    budget_deltas: tuple[tuple[str, float], ...] = ()

    def budget_delta(self, *qualnames: str) -> float | None:
        """The smallest δ of a budget whose glob matches one of the names (as budget.py
        matches them), or None."""
        found = [delta for pattern, delta in self.budget_deltas
                 if any(fnmatchcase(name, pattern) for name in qualnames)]
        return min(found) if found else None

    def bindings_for(self, *qualnames: str) -> dict[str, float]:
        """The bindings that apply in one function: plain keys, then qualified ones."""
        found = {k: v for k, v in self.bindings if "." not in k.split("(")[0]}
        for qualname in qualnames:
            prefix = qualname + "."
            found.update({k[len(prefix):]: v for k, v in self.bindings if k.startswith(prefix)})
        return found
