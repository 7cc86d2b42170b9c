"""Generate the annotated benchmark corpus (corpus A): many modules calling each other."""

from __future__ import annotations

import random
from pathlib import Path

HEADER = '''"""Generated benchmark module {index}."""

import numpy as np

from dpsens import (
    Data, L1, L2, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, clip, count,
    gaussian_mechanism_zcdp, laplace_mechanism, map_rows, norm_convert, undisc_container,
)
{imports}
'''

TEMPLATES = [
    '''
def scaled_{n}(x: Real, y: Real, c: Static[float]) -> Real:
    """A linear combination."""
    z = c * x + {a} * y
    if c > 1:
        z = z - y
    return z
''',
    '''
def loop_{n}(x: Real, y: Real, k: Static[int]) -> Real:
    """An iterated affine update."""
    for _ in range(k):
        x = {a} * x + y
    return x
''',
    '''
def column_sum_{n}(data: MetricMatrix[L_inf, Data], upper: Static[float]) -> Real:
    """A clamped column sum."""
    values = np.clip(data[:, {col}], 0.0, upper)
    return float(np.sum(values))
''',
    '''
def row_mean_{n}(data: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Real]:
    """The mean of clipped rows."""
    rows_ = undisc_container(clip(L2, data))
    return np.mean(rows_, axis=0)
''',
    '''
def private_sum_{n}(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:
    """A Laplace-noised clamped sum."""
    total = float(np.sum(np.clip(data[:, 0], 0.0, 1.0)))
    return laplace_mechanism(1.0, eps, total)
''',
    '''
def private_loop_{n}(data: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L2, Real]]:
    """A few Gaussian steps."""
    total = np.sum(undisc_container(clip(L2, data)), axis=0)
    acc = 0.0 * total
    for _ in range({k}):
        acc = acc + gaussian_mechanism_zcdp(2.0, 0.1, total)
    return acc
''',
    '''
def counted_{n}(v: MetricVector[L1, Data]) -> int:
    """A count of large entries."""
    return count(lambda e: e > {a}, v)
''',
    '''
def mapped_{n}(m: MetricMatrix[L2, Real], shift: Real) -> MetricVector[L1, Real]:
    """Per-row sums plus a shift."""
    return map_rows(lambda r: np.sum(r) + shift, m)
''',
]

CALLER = '''
def caller_{n}(x: Real, y: Real) -> Real:
    """Calls into another module."""
    return {module}.scaled_{target}(x, y, 2.0) + {module}.loop_{loop}(x, y, 3)
'''


def generate(root: Path, modules: int = 200, per_module: int = 10, seed: int = 0) -> list[Path]:
    """Write the corpus under root (a package) and return the file paths."""
    rng = random.Random(seed)
    package = root / "corpus"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("")
    paths = []
    for index in range(modules):
        # A tree of imports towards m0, like a package whose modules use a core.
        other = index // 2
        imports = f"from corpus import m{other}\n" if index else ""
        body = [HEADER.format(index=index, imports=imports)]
        for slot in range(per_module - 1):
            n = index * per_module + slot
            template = TEMPLATES[slot % len(TEMPLATES)] if slot < 2 else rng.choice(TEMPLATES)
            body.append(template.format(n=n, a=rng.choice([2, 3, 0.5]), col=rng.randrange(3),
                                        k=rng.randrange(2, 6)))
        target = other * per_module
        if index:
            body.append(CALLER.format(n=index, module=f"m{other}", target=target, loop=target + 1))
        path = package / f"m{index}.py"
        path.write_text("".join(body))
        paths.append(path)
    return paths
