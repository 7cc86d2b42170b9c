"""`sample(10, X, y)` of column slices of one dataset, checked against its exact loss.

`mechanisms._joint_source` charges `sample(k, X, y)` with `X, y = data[:, :1], data[:, 1:]`
as one joint row of the source (as `sample(k, data, data)`), and `X, y = data[:, :1],
data[::-1, 1:]` as a group of 2. This module runs the case functions
`sampled_columns_of_one_dataset` and `sampled_columns_in_other_rows` of
tests/cases/privacy_regressions.py, and the reference `sample(10, data, data)`, with the
real runtime, and compares the analyzer's ε with the exact loss on neighbours
(MetricMatrix[L_inf, Data]: replace one row by anything).

The exact output distribution. `sample` draws one uniformly random ordered k-tuple of
distinct rows (`rng.sample_indices`, a partial Fisher-Yates) and indexes both inputs with
it, so every k-subset S is equally likely, 1/C(n, k). The release is
c_S = Σ_{i∈S} w_i, w_i ∈ {0, 1, 2} the joint row's weight ([X_i > .5] + [y_i > .5]), so
P[c] is a multivariate hypergeometric law of the histogram of the weights (rows are
exchangeable). `laplace_mechanism(1.0, 1.0, c)` adds discrete Laplace noise on the grid
g = 2**-40, P[o = c + g z] = κ exp(-g|z|/b), b = (s + g)/ε; every count is a grid point, so
κ is the same for every c and, on the grid,

    p(o) / p'(o) = Σ_c P(c) e^(-|o-c|/b) / Σ_c P'(c) e^(-|o-c|/b).

Between two consecutive integers each sum is A e^(-o/b) + B e^(o/b), so the ratio is a
Möbius map of e^(2o/b), monotone: its extremes are at the integers. Below 0 and above 2k
(past every atom) it is constant. The supremum over outputs is therefore the maximum over
o ∈ {0, ..., 2k}, which lie on the grid; the final rounding to float merges grid points,
post-processing, which cannot raise it. A fine grid and the tail limits check this.

The worst pair over every dataset. The release depends on a dataset only through the
histogram of its joint weights, and a replaced record moves one joint row (any w -> w')
when X and y are slices of the same rows, or two joint rows by at most one part each
(|Δ| <= 1; for odd n the middle record is one joint row read twice) when y is reversed.
Every histogram and every such move is searched, so the maximum found is the exact
worst-case loss over all neighbouring datasets of n rows, not a sample of pairs.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator
from unittest import mock

import numpy as np
import pytest

from dpsens.audit.metric_types import parse
from dpsens.audit.neighbours import measure
from dpsens.check import check_paths
from dpsens.runtime import mechanisms
from dpsens.runtime.rng import sample_indices

from case_files import CASES, claims_at  # type: ignore[import-not-found]

K = 10  # the case functions' sample size
CASE_FILE = CASES / "privacy_regressions.py"
JOINT, OTHER, REFERENCE = "sampled_columns_of_one_dataset", "sampled_columns_in_other_rows", \
    "sampled_rows_of_one_dataset"
# The reference: the same release of sample(10, data, data), the rule's model of a joint row.
REFERENCE_SOURCE = f'''
def {REFERENCE}(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:
    bx, by = sample(10, data, data)
    return laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.5, bx) + count(lambda r: r[1] > 0.5, by))
'''
ROWS = (10, 11, 12, 13, 20, 40)  # 10 = k (q = 1), odd and even n (other rows), and wider
ENUMERATED = (11, 12, 13)  # row counts where every subset is run through the real program
METRIC = parse("MetricMatrix[L_inf, Data]")
TOLERANCE = 1e-9
SUBGRID = 64  # fine-grid points per unit between atoms (a check of the atom argument)


# --- the programs and their reports ----------------------------------------------------

def _case_source() -> tuple[str, dict[str, str]]:
    """The case file's imports and the two case functions' text, verbatim."""
    text = CASE_FILE.read_text()
    tree = ast.parse(text)
    header = "\n".join(ast.get_source_segment(text, node) or "" for node in tree.body
                       if isinstance(node, (ast.Import, ast.ImportFrom)))
    functions = {node.name: ast.get_source_segment(text, node) or "" for node in tree.body
                 if isinstance(node, ast.FunctionDef) and node.name in (JOINT, OTHER)}
    return header, functions


def _expected(name: str) -> str:
    """The case file's `# expect:` claim for data, as "(ε, δ)"."""
    line = next(ln for ln in CASE_FILE.read_text().splitlines() if ln.startswith(f"def {name}("))
    found = re.search(r"expect: data=(\(.*\)); accounting", line)
    assert found, line
    return found.group(1)


@dataclass(frozen=True)
class Program:
    """A sampling program: the function to run and the analyzer's report of it."""

    name: str
    function: Callable[..., Any]
    report: dict[str, Any]

    def reported_epsilon(self, n: int) -> float:
        """The reported ε of data at rows(data) = n (δ must be 0: a pure claim)."""
        epsilon, delta = claims_at(self.report, {}, {"data": np.zeros((n, 2))})["data"]
        assert delta == 0, self.report
        return float(epsilon)


def _load(path: Path) -> ModuleType:
    """The programs' module, imported from its file."""
    spec = importlib.util.spec_from_file_location("joint_sample_programs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Program]:
    """The case functions, copied out of the case file (analyzing all of it takes 6 s), and
    the reference, analyzed and loaded."""
    header, functions = _case_source()
    path = tmp_path_factory.mktemp("joint") / "joint_sample_programs.py"
    path.write_text(header + "\n\n" + "\n\n".join(functions[n] for n in (JOINT, OTHER))
                    + "\n" + REFERENCE_SOURCE)
    reports = {f["name"]: f for f in check_paths([str(path)]).files[0].functions}
    module = _load(path)
    return {name: Program(name, getattr(module, name), reports[name])
            for name in (JOINT, OTHER, REFERENCE)}


# --- the program run on every sample, with the real runtime -----------------------------

class Tape:
    """The runtime with its index draw scripted and its Laplace noise left out: the exact
    mean and scale laplace_mechanism computes are recorded instead."""

    def __init__(self) -> None:
        self.subset: tuple[int, ...] = ()
        self.draws = 0
        self.releases: list[tuple[float, Fraction]] = []

    def indices(self, n: int, k: int, _source: Any) -> list[int]:
        """Stands for sample_indices: the scripted subset."""
        assert k == len(self.subset) and max(self.subset) < n, (n, k, self.subset)
        self.draws += 1
        return list(self.subset)

    # laplace_mechanism's own helpers are replaced, so that its grid and s + g are the real ones
    @staticmethod
    def draw(scale_units: Fraction, _rng: Any) -> Fraction:
        """Stands for _laplace_draw: the scale in grid steps instead of a sampler."""
        return scale_units  # in place of the sampler: the scale, in grid steps

    def add_noise(self, arr: np.ndarray, grid: Any, draw: Fraction) -> Any:
        """Stands for _add_noise: records the mean and b, returns the mean."""
        assert arr.size == 1
        self.releases.append((float(arr.ravel()[0]), draw * grid.step))  # b = s_eff/ε
        return float(arr.ravel()[0])

    def run(self, function: Callable[..., Any], data: np.ndarray,
            subset: tuple[int, ...]) -> tuple[float, Fraction]:
        """(released mean, Laplace scale b) of one run whose sample is `subset`."""
        self.subset, self.draws, self.releases = subset, 0, []
        function(data)
        # One draw serves both outputs: a second draw would be a second, independent sample.
        assert self.draws == 1, f"{self.draws} index draws in one run"
        assert len(self.releases) == 1, self.releases
        return self.releases[0]


def run_distribution(function: Callable[..., Any], data: np.ndarray) -> tuple[dict[int, Fraction], Fraction]:
    """The exact law of the released count over every k-subset, and the noise scale b."""
    tape = Tape()
    n = data.shape[0]
    law: dict[int, Fraction] = {}
    scales = set()
    with mock.patch.object(mechanisms, "sample_indices", tape.indices), \
            mock.patch.object(mechanisms, "_laplace_draw", tape.draw), \
            mock.patch.object(mechanisms, "_add_noise", tape.add_noise):
        for subset in itertools.combinations(range(n), K):
            mean, scale = tape.run(function, data, subset)
            # a subset stands for its k! equally likely orders: the reversed one must agree
            assert tape.run(function, data, subset[::-1])[0] == mean
            assert mean == int(mean)
            law[int(mean)] = law.get(int(mean), Fraction(0)) + Fraction(1, math.comb(n, K))
            scales.add(scale)
    assert len(scales) == 1, scales
    return law, scales.pop()


# --- the exact law from the joint weights ----------------------------------------------

def joint_weights(name: str, data: np.ndarray) -> np.ndarray:
    """Each joint row's weight [X_i > .5] + [y_i > .5], X and y sliced as the program does."""
    x = data[:, :1]
    y = data[::-1, 1:] if name == OTHER else data[:, 1:]
    weights: np.ndarray = (x[:, 0] > 0.5).astype(int) + (y[:, 0] > 0.5).astype(int)
    return weights


@functools.lru_cache(maxsize=None)
def law_of(histogram: tuple[int, int, int]) -> tuple[Fraction, ...]:
    """P[c = Σ_{i∈S} w_i], S a uniform k-subset, for n0, n1, n2 rows of weight 0, 1, 2."""
    n0, n1, n2 = histogram
    total = math.comb(n0 + n1 + n2, K)
    law = [Fraction(0)] * (2 * K + 1)
    for ones in range(min(n1, K) + 1):
        for twos in range(min(n2, K - ones) + 1):
            ways = math.comb(n1, ones) * math.comb(n2, twos) * math.comb(n0, K - ones - twos)
            law[ones + 2 * twos] += Fraction(ways, total)
    return tuple(law)


def histogram(weights: np.ndarray) -> tuple[int, int, int]:
    """How many joint rows weigh 0, 1 and 2."""
    counts = np.bincount(weights, minlength=3)
    return int(counts[0]), int(counts[1]), int(counts[2])


def as_vector(law: dict[int, Fraction] | tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """A law as its probabilities of the counts 0..2k."""
    items = law.items() if isinstance(law, dict) else enumerate(law)
    vector = [Fraction(0)] * (2 * K + 1)
    for c, p in items:
        vector[c] += p
    return tuple(vector)


# --- the exact loss of two Laplace mixtures on the counts 0..2k -------------------------

def _log_density(law: np.ndarray, at: np.ndarray, b: float) -> np.ndarray:
    """log Σ_c P(c) e^(-|o - c|/b) at every o (the normalizer, common to both, left out)."""
    counts = np.arange(2 * K + 1)
    terms = -np.abs(at[:, None] - counts[None, :]) / b
    with np.errstate(divide="ignore"):
        logs = np.log(law)[None, :] + terms
    top = np.max(logs, axis=1, keepdims=True)
    total: np.ndarray = np.squeeze(top, 1) + np.log(np.sum(np.exp(logs - top), axis=1))
    return total


def atom_losses(laws: np.ndarray, b: float) -> np.ndarray:
    """log p(o) at the atoms o = 0..2k, one row per law: the loss of a pair is the largest
    difference of two rows (the module docstring's argument)."""
    rows: np.ndarray = np.stack([_log_density(law, np.arange(2 * K + 1, dtype=float), b) for law in laws])
    return rows


def exact_loss(p: tuple[Fraction, ...], q: tuple[Fraction, ...], b: float) -> float:
    """sup_o |log p(o)/q(o)|: the largest at the atoms 0..2k."""
    rows = atom_losses(np.array([[float(v) for v in p], [float(v) for v in q]]), b)
    return float(np.max(np.abs(rows[0] - rows[1])))


def grid_and_tail_loss(p: tuple[Fraction, ...], q: tuple[Fraction, ...], b: float) -> tuple[float, float]:
    """(the largest |log ratio| on a fine grid over [-3, 2k + 3], the larger tail limit
    log Σ P(c) e^(±c/b) - log Σ Q(c) e^(±c/b))."""
    lp, lq = (np.array([float(v) for v in law]) for law in (p, q))
    at = np.linspace(-3.0, 2 * K + 3.0, (2 * K + 6) * SUBGRID + 1)
    grid = float(np.max(np.abs(_log_density(lp, at, b) - _log_density(lq, at, b))))
    counts = np.arange(2 * K + 1)
    with np.errstate(divide="ignore"):
        tails = [abs(float(np.log(np.sum(lp * np.exp(sign * counts / b)))
                           - np.log(np.sum(lq * np.exp(sign * counts / b))))) for sign in (1, -1)]
    return grid, max(tails)


# --- every neighbouring pair, as moves of the weight histogram ---------------------------

@dataclass(frozen=True)
class Move:
    """Joint rows whose weights a replaced record changes: ((w, w'), ...) and the rest."""

    changed: tuple[tuple[int, int], ...]
    rest: tuple[int, int, int]  # histogram of the unchanged joint rows

    def histograms(self) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        before, after = list(self.rest), list(self.rest)
        for w, w2 in self.changed:
            before[w] += 1
            after[w2] += 1
        return tuple(before), tuple(after)  # type: ignore[return-value]


def _rests(n: int) -> Iterator[tuple[int, int, int]]:
    """Every histogram of n joint rows."""
    for n0 in range(n + 1):
        for n1 in range(n + 1 - n0):
            yield n0, n1, n - n0 - n1


def moves(name: str, n: int) -> Iterator[Move]:
    """Every way one replaced record moves the joint weights of an n-row dataset."""
    weights = range(3)
    one_row = name != OTHER or n % 2 == 1  # the same rows, or the middle record read twice
    if one_row:
        for rest in _rests(n - 1):
            for w, w2 in itertools.permutations(weights, 2):
                yield Move(((w, w2),), rest)
    if name == OTHER:
        steps = [(w, w2) for w in weights for w2 in weights if abs(w - w2) <= 1]
        for rest in _rests(n - 2):
            for first, second in itertools.product(steps, repeat=2):
                if first[0] != first[1] or second[0] != second[1]:
                    yield Move((first, second), rest)


@functools.lru_cache(maxsize=None)
def worst_pair(name: str, n: int, b: float) -> tuple[float, Move]:
    """The largest exact loss over every neighbouring pair of n-row datasets, and its move."""
    found = list(moves(name, n))
    index: dict[tuple[int, int, int], int] = {}
    pairs = []
    for move in found:
        pairs.append(tuple(index.setdefault(h, len(index)) for h in move.histograms()))
    laws = np.array([[float(v) for v in law_of(h)] for h in index])
    logs = atom_losses(laws, b)
    first, second = np.array(pairs).T
    losses = np.max(np.abs(logs[first] - logs[second]), axis=1)
    best = int(np.argmax(losses))
    return float(losses[best]), found[best]


# --- a move as concrete datasets -----------------------------------------------------

def _parts(w: int, w2: int) -> tuple[int, int, int]:
    """(x, x', fixed) with x + fixed = w and x' + fixed = w2: one part changes."""
    return next((x, x2, f) for f in (0, 1) for x in (0, 1) for x2 in (0, 1)
                if x + f == w and x2 + f == w2)


def realize(name: str, n: int, move: Move) -> tuple[np.ndarray, np.ndarray]:
    """Neighbouring n x 2 datasets (0/1 entries) whose joint weights make the move."""
    data = np.zeros((n, 2))
    other = np.zeros((n, 2))
    if name != OTHER or len(move.changed) == 1:
        # one joint row, both of whose parts are one record (OTHER: the middle record)
        j = 0 if name != OTHER else (n - 1) // 2
        (w, w2), = move.changed
        data[j] = [w >= 1, w == 2]
        other[j] = [w2 >= 1, w2 == 2]
        free = [i for i in range(n) if i != j]
    else:
        # record 0 is joint row 0's X part and joint row n-1's y part
        (x, x2, fy), (y, y2, fx) = _parts(*move.changed[0]), _parts(*move.changed[1])
        data[0], other[0] = [x, y], [x2, y2]
        data[n - 1] = other[n - 1] = [fx, fy]
        free = list(range(1, n - 1))
    weights = [w for w, count in enumerate(move.rest) for _ in range(count)]
    for i, w in zip(free, weights):
        # joint row i reads X from record i and y from record i (or n-1-i when reversed)
        partner = n - 1 - i if name == OTHER else i
        data[i, 0] = other[i, 0] = float(w >= 1)
        data[partner, 1] = other[partner, 1] = float(w == 2)
    return data, other


# --- the tests -------------------------------------------------------------------------

def runtime_scale(programs: dict[str, Program]) -> float:
    """The Laplace scale b the runtime uses for these releases (s = ε = 1: b = 1 + 2**-40)."""
    _, b = run_distribution(programs[JOINT].function, np.zeros((K, 2)))
    return float(b)


def test_the_reports_are_the_case_files_claims(programs: dict[str, Program]) -> None:
    """The functions analyzed on their own get the claims the case file pins; the reference
    sample(10, data, data) gets the joint row's."""
    for name in (JOINT, OTHER):
        param, = programs[name].report["params"]
        assert f"({param['epsilon']}, {param['delta']})" == _expected(name)
    assert programs[REFERENCE].report["params"][0]["epsilon"] == \
        programs[JOINT].report["params"][0]["epsilon"]


def test_the_runtime_draws_the_same_rows_for_both_outputs() -> None:
    """sample(k, X, y) returns the rows of X and of y at the same drawn indices, with the
    real random source: each output row pair comes from one record (or, when y is reversed,
    from records i and n-1-i)."""
    n = 12
    data = np.column_stack([np.arange(n), 100 + np.arange(n)]).astype(float)
    seen = set()
    for seed in range(40):
        bx, by = mechanisms.sample(5, data[:, :1], data[:, 1:], rng=np.random.default_rng(seed))
        assert np.array_equal(by[:, 0], 100 + bx[:, 0])
        rx, ry = mechanisms.sample(5, data[:, :1], data[::-1, 1:], rng=np.random.default_rng(seed))
        assert np.array_equal(ry[:, 0], 100 + (n - 1 - rx[:, 0]))
        assert np.array_equal(rx, bx)  # the draw does not depend on the data
        assert len(set(bx[:, 0])) == 5  # without replacement
        seen.add(frozenset(bx[:, 0]))
    assert len(seen) > 30  # the draws vary


@pytest.mark.parametrize("n,k", [(5, 3), (4, 4), (6, 1)])
def test_the_index_draw_is_uniform_over_ordered_tuples(n: int, k: int) -> None:
    """Every path of randbelow outcomes (each of probability (n-k)!/n!) gives a different
    ordered k-tuple of distinct indices: the draw is exactly uniform, so every k-subset has
    probability 1/C(n, k)."""
    class Path:
        def __init__(self, choices: tuple[int, ...]) -> None:
            self.choices, self.bounds = list(choices), list[int]()

        def randbelow(self, m: int) -> int:
            self.bounds.append(m)
            return self.choices[len(self.bounds) - 1]

    bounds = [n - i for i in range(k)]  # partial Fisher-Yates: randbelow(n - i) at step i
    tuples = []
    for choices in itertools.product(*(range(m) for m in bounds)):
        path = Path(choices)
        tuples.append(tuple(sample_indices(n, k, path)))
        assert path.bounds == bounds
    assert sorted(tuples) == sorted(itertools.permutations(range(n), k))


@pytest.mark.parametrize("name", [JOINT, OTHER, REFERENCE])
def test_the_weight_model_is_the_program(programs: dict[str, Program], name: str) -> None:
    """The program's release, run on every subset with the real runtime, has the law the
    weight histogram gives, on random datasets (entries around the threshold 0.5)."""
    rng = np.random.default_rng(11)
    for n in ENUMERATED[:2]:
        for _ in range(2):
            data = rng.normal(0.5, 1.0, size=(n, 2))
            law, b = run_distribution(programs[name].function, data)
            assert as_vector(law) == law_of(histogram(joint_weights(name, data)))
            assert b == 1 + Fraction(1, 2**40)  # (s + g)/ε, s = ε = 1, g = 2**-40


def test_the_loss_is_attained_at_the_atoms() -> None:
    """The atom argument: on random laws a fine grid never exceeds the atoms' maximum, and
    the tail limits equal it or less."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        p, q = (tuple(Fraction(x).limit_denominator(10**9) for x in rng.dirichlet(np.ones(2 * K + 1)))
                for _ in range(2))
        atoms = exact_loss(p, q, 1.0)
        grid, tails = grid_and_tail_loss(p, q, 1.0)
        assert grid <= atoms + 1e-12 and tails <= atoms + 1e-12
        assert grid >= atoms - 1e-12  # the atoms are grid points
    # one Laplace against its shift by 2: loss 2/b exactly
    point, shifted = as_vector({0: Fraction(1)}), as_vector({2: Fraction(1)})
    assert exact_loss(point, shifted, 1.0) == pytest.approx(2.0, abs=1e-12)


@dataclass(frozen=True)
class Outcome:
    """One case at one row count: the exact worst loss, the reported ε and the move."""

    name: str
    n: int
    exact: float
    reported: float
    move: Move


def outcomes(programs: dict[str, Program]) -> list[Outcome]:
    """The worst pair of every case at every row count, with the reported ε."""
    b = runtime_scale(programs)
    found = []
    for name in (JOINT, OTHER, REFERENCE):
        for n in ROWS:
            exact, move = worst_pair(name, n, b)
            found.append(Outcome(name, n, exact, programs[name].reported_epsilon(n), move))
    return found


@pytest.fixture(scope="module")
def measured(programs: dict[str, Program]) -> list[Outcome]:
    """The outcomes, printed (pytest -s) with the ratio exact / reported."""
    found = outcomes(programs)
    for o in found:
        print(f"{o.name} n={o.n}: exact {o.exact:.6f}, reported {o.reported:.6f},"
              f" ratio {o.exact / o.reported:.4f}, worst move {o.move}")
    return found


def test_the_reported_epsilon_is_sound(measured: list[Outcome]) -> None:
    """No neighbouring pair loses more than the reported ε, at any row count."""
    unsound = [o for o in measured if o.exact > o.reported + TOLERANCE]
    assert not unsound, unsound


def test_the_joint_row_claim_is_tight(measured: list[Outcome]) -> None:
    """For X, y slices of one dataset (and the reference) the worst pair -- a record moved
    between counted in both columns and counted in neither -- loses log(1 + q(e^(2/b) - 1)),
    the reported log(1 + q(e^2 - 1)) up to b = 1 + 2**-40."""
    for o in measured:
        if o.name != OTHER:
            q = K / o.n
            assert o.exact == pytest.approx(math.log(1 + q * (math.exp(2 / (1 + 2**-40)) - 1)), abs=1e-12)
            assert o.exact >= o.reported * (1 - 1e-9), o


def test_rows_read_in_another_order_need_more_than_one_joint_row(measured: list[Outcome]) -> None:
    """With y reversed a record changes two joint rows. The worst pair: every other record
    counted in both columns, records j and n-1-j in neither, then j in both; N, the number of
    j and n-1-j sampled, is hypergeometric and the loss (at o -> -inf) is
    log(E e^(2N/b) / E e^(N/b)). It exceeds the joint row's log(1 + q(e^2 - 1)) whenever
    q < 1: the group of 2 is needed (the larger of the two contexts would be unsound)."""
    b = 1 + 2**-40
    for o in measured:
        if o.name != OTHER:
            continue
        n = o.n
        sampled = [math.comb(2, m) * math.comb(n - 2, K - m) / math.comb(n, K) for m in range(3)]
        moment = [sum(p * math.exp(t * m / b) for m, p in enumerate(sampled)) for t in (1, 2)]
        assert o.exact == pytest.approx(math.log(moment[1] / moment[0]), abs=1e-12), o
        joint = math.log(1 + K / n * (math.exp(2) - 1))
        if n > K:
            assert o.exact > joint + 1e-2, o


@pytest.mark.parametrize("name", [JOINT, OTHER, REFERENCE])
def test_the_worst_pairs_run_as_found(programs: dict[str, Program], measured: list[Outcome],
                                      name: str) -> None:
    """Each worst move, realized as two concrete neighbouring datasets and run through the
    program on every sample with the real runtime, loses exactly what the search found."""
    for o in measured:
        if o.name != name:
            continue
        data, other = realize(name, o.n, o.move)
        assert METRIC is not None and measure(METRIC, data, other) == 1
        if o.n in ENUMERATED:
            (ran, b), (ran2, b2) = (run_distribution(programs[name].function, d) for d in (data, other))
            assert b == b2
            p, q = as_vector(ran), as_vector(ran2)
        else:  # C(40, 10) subsets is too many to run: the weight model, checked above
            p, q = (law_of(histogram(joint_weights(name, d))) for d in (data, other))
            b = 1 + Fraction(1, 2**40)
        assert exact_loss(p, q, float(b)) == pytest.approx(o.exact, abs=1e-12)
        grid, tails = grid_and_tail_loss(p, q, float(b))
        assert grid <= o.exact + 1e-12 and tails <= o.exact + 1e-12
