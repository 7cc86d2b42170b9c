"""Which codes a run reports: ruff-style ``select``/``ignore`` by code prefix."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

# Problems with the input itself (crash, unreadable, undecodable, unparsable, names
# Python reads otherwise) are never filtered: hiding them would make an unchecked file
# look clean.
ALWAYS = frozenset({"DPS001", "DPS002", "DPS003", "DPS004", "DPS005", "DPS006", "DPS007"})


def normalize_codes(items: Iterable[str]) -> tuple[str, ...]:
    """Upper-cased code prefixes (``dps2`` -> ``DPS2``; ``ALL`` matches every code).

    Raises ValueError naming an item that is a prefix of no registered code.
    """
    from dpsens.codes import REGISTRY

    out = []
    for item in items:
        prefix = item.strip().upper()
        if prefix != "ALL" and not any(code.startswith(prefix) for code in REGISTRY):
            raise ValueError(f"'{item}' is not a code or prefix of a code "
                             f"(see 'dpsens explain'; codes look like DPS201)")
        out.append(prefix)
    return tuple(out)


@dataclass(frozen=True)
class Selection:
    """The enabled codes: the most specific matching prefix decides, ignore wins ties."""

    select: tuple[str, ...] = ()  # empty: every code
    ignore: tuple[str, ...] = ()

    def enabled(self, code: str) -> bool:
        """Whether diagnostics with this code are reported."""
        if code in ALWAYS:
            return True
        chosen = _longest(code, self.select) if self.select else 0
        if chosen < 0:
            return False
        ignored = _longest(code, self.ignore)
        return ignored < 0 or ignored < chosen

    def narrowed(self, select: tuple[str, ...] | None, ignore: tuple[str, ...]) -> Selection:
        """Command-line flags over the config: --select replaces, --ignore adds (as in ruff)."""
        return Selection(self.select if select is None else select, self.ignore + ignore)


def _longest(code: str, prefixes: tuple[str, ...]) -> int:
    """The length of the longest prefix matching code (ALL counts as 0), or -1."""
    lengths = [0 if p == "ALL" else len(p) for p in prefixes if p == "ALL" or code.startswith(p)]
    return max(lengths, default=-1)


__all__ = ["ALWAYS", "Selection", "normalize_codes"]
