"""Random sources for the runtime mechanisms: the OS CSPRNG by default, a seeded Generator in tests.

Every sampler in dpsens consumes randomness only as exact uniform integers
(``randbelow(n)`` for a Python int ``n`` of any size); no sampler ever draws a
random float.  The default source reads ``secrets`` (i.e. ``os.urandom``), so
no global or reproducible seed exists.  A numpy Generator seeded from
``secrets`` would not do: PCG64 is not a cryptographic generator (its future
outputs are predictable from past ones), and any generator's *floats* feed
the float transforms that Mironov's 2012 attack exploits.  Tests pass ``rng=np.random.default_rng(seed)``,
which is wrapped into the same integer interface.
"""

from __future__ import annotations

import secrets
from typing import Protocol

import numpy as np

__all__ = [
    "RandomSource", "SystemSource", "GeneratorSource", "as_source",
    "permutation", "sample_indices",
]

# numpy's Generator.integers is exact (Lemire's unbiased method) below 2**63.
_NUMPY_EXACT_LIMIT = 1 << 62


class RandomSource(Protocol):
    """Anything that draws uniform integers in [0, n)."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n); n >= 1."""
        ...


class SystemSource:
    """Uniform integers from the operating system's CSPRNG (``secrets``)."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n) read from os.urandom."""
        return secrets.randbelow(n)


class GeneratorSource:
    """Uniform integers from a numpy Generator (deterministic, for tests only)."""

    def __init__(self, generator: np.random.Generator) -> None:
        self._gen = generator

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), exact for every n (rejection on random bytes)."""
        if n <= _NUMPY_EXACT_LIMIT:
            return int(self._gen.integers(0, n))
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        while True:  # rejection sampling: uniform on [0, 2**bits), keep values below n
            r = int.from_bytes(self._gen.bytes(nbytes), "little") >> (8 * nbytes - bits)
            if r < n:
                return r


_SYSTEM = SystemSource()


def as_source(rng: np.random.Generator | None) -> RandomSource:
    """The integer source behind a mechanism's ``rng=`` keyword (None: the OS CSPRNG)."""
    if rng is None:
        return _SYSTEM
    if isinstance(rng, np.random.Generator):
        return GeneratorSource(rng)
    raise TypeError(f"rng must be a numpy.random.Generator or None, got {type(rng).__name__}")


def sample_indices(n: int, k: int, src: RandomSource) -> list[int]:
    """k distinct indices of range(n), uniformly random and in random order (partial Fisher-Yates)."""
    if not 0 <= k <= n:
        raise ValueError(f"cannot draw {k} distinct indices out of {n}")
    pool: dict[int, int] = {}  # sparse Fisher-Yates: only displaced slots are stored
    out = []
    for i in range(k):
        j = i + src.randbelow(n - i)
        out.append(pool.get(j, j))
        pool[j] = pool.get(i, i)
    return out


def permutation(n: int, src: RandomSource) -> list[int]:
    """A uniformly random permutation of range(n)."""
    return sample_indices(n, n, src)
