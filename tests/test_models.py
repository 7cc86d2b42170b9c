"""The shuffle model's central guarantee, and reported accuracy against real estimates."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dpsens.check import check_paths
from dpsens.options import Options
from dpsens.sym import expr as E


def _function(name: str, bindings: tuple[tuple[str, float], ...] = ()) -> dict[str, Any]:
    [file] = check_paths(["examples/local_model.py"], options=Options(bindings=bindings)).files
    return next(f for f in file.functions if f["name"] == name)


def fmt_closed_form(eps0: float, n: int, delta: float) -> float:
    """Feldman–McMillan–Talwar's closed form as in the authors' reference analysis."""
    a = 8 * math.sqrt(math.exp(eps0) * math.log(4 / delta) / n)
    c = 8 * math.exp(eps0) / n
    e = math.log(1 + a + c)
    return math.log(1 + (1 - math.exp(-eps0)) / (1 + math.exp(-eps0 - e)) * (a + c))


@pytest.mark.parametrize("n", [2000, 10**5])
def test_shuffled_epsilon_matches_the_closed_form(n: int) -> None:
    report = _function("shuffled_reports", (("shuffled_reports.len(values)", float(n)),))
    [values] = report["params"]
    assert float(values["epsilon"]) == pytest.approx(fmt_closed_form(2.0, n, 1e-5), rel=1e-5)
    assert float(values["epsilon"]) >= fmt_closed_form(2.0, n, 1e-5)  # rounded up, never down
    assert values["delta"] == "1/100000"


def test_outside_the_valid_range_the_local_guarantee_is_reported() -> None:
    # eps0 = 2 needs n >= 16 e^2 log(4/δ) ≈ 1,525; 1,000 users are too few: each
    # record's report is paid once (parallel composition), eps0 for a changed record.
    report = _function("shuffled_reports", (("shuffled_reports.len(values)", 1000.0),))
    [values] = report["params"]
    assert (values["epsilon"], values["delta"]) == ("2", "0")
    shuffle = next(m for m in report["mechanisms"] if m["kind"] == "shuffle")
    assert shuffle["bound"] == "parallel (outside the FMT range)"


def test_symbolic_size_lists_the_validity_condition() -> None:
    report = _function("shuffled_bits")
    assert report["assumptions"] == ["1 <= log(len(bits)/(16*log(400000)))"]


def test_local_model_pays_the_local_epsilon() -> None:
    [values] = _function("local_reports")["params"]
    assert (values["epsilon"], values["delta"]) == ("2", "0")


def test_reported_accuracy_holds_for_the_shuffled_estimator() -> None:
    from examples.local_model import frequencies, shuffled_reports

    n = 2000
    report = _function("shuffled_reports", (("shuffled_reports.len(values)", float(n)),))
    shuffle = next(m for m in report["mechanisms"] if m["kind"] == "shuffle")
    alpha, beta = float(E.parse(shuffle["alpha"], {})), float(E.parse(shuffle["beta"], {}))
    rng = np.random.default_rng(7)
    values = rng.integers(0, 4, size=n)
    truth = np.bincount(values, minlength=4)
    failures = sum(
        bool(np.max(np.abs(frequencies(shuffled_reports(values), 2.0) - truth)) > alpha)
        for _ in range(25))
    assert failures <= 2  # beta = 5% of 25 runs, with room for sampling error
    assert alpha < n / 4  # and the bound says something


def test_a_randomizer_that_ignores_its_record_costs_the_records_nothing(tmp_path: Path) -> None:
    """Its local epsilon is 0; with a numeric n the shuffle bound used to crash (eps0 > 0)."""
    program = tmp_path / "ignores.py"
    program.write_text(
        "from dpsens import Data, L_inf, MetricVector, Priv, Real, local_laplace, shuffle\n\n"
        "def noisy_x(x: Real, bits: MetricVector[L_inf, Data]) -> Priv[Real]:\n"
        "    return shuffle(lambda b: local_laplace(1.0, x, 0.0, 1.0), bits)\n")
    [file] = check_paths([str(program)], options=Options(bindings=(("len(bits)", 1000.0),))).files
    assert not file.diagnostics
    params = {p["name"]: (p["epsilon"], p["delta"]) for p in file.functions[0]["params"]}
    assert params["bits"] == ("0", "0")
    assert float(params["x"][0]) <= 1000  # one local_laplace per row, each eps 1 on x


def test_a_vacuous_delta_is_reported_as_one(tmp_path: Path) -> None:
    """Group privacy over 10,000 entries makes δ astronomically large; (ε, 1) says the same."""
    program = tmp_path / "group.py"
    program.write_text(
        "from dpsens import Data, L_inf, MetricVector, Priv, Real, randomized_response, shuffle\n\n"
        "def shuffled(v: MetricVector[L_inf, Data]) -> Priv[Real]:\n"
        "    return shuffle(lambda b: randomized_response(1.0, b), v)\n")
    [file] = check_paths([str(program)], options=Options(bindings=(("len(v)", 10000.0),))).files
    [v] = file.functions[0]["params"]
    assert v["delta"] == "1"


def _local_epsilon(name: str) -> float:
    [file] = check_paths(["tests/cases/models.py"]).files
    report = next(f for f in file.functions if f["name"] == name)
    return float(E.parse(report["params"][0]["epsilon"], {}))


def test_unary_encodings_local_epsilon_holds_for_every_pair_of_values() -> None:
    """The exact likelihood ratio of `unary_encoding`'s reports (RR(1/2) on each of 4
    one-hot bits), over every pair of values and every report, is at most the reported ε₀
    (it was 1/2 where two values differ in two bits: ratio e, review35)."""
    keep = math.exp(0.5) / (1 + math.exp(0.5))

    def probability(value: int, report: int) -> float:
        bits = [(report >> (3 - j)) & 1 for j in range(4)]
        return math.prod(keep if bit == (value == j) else 1 - keep for j, bit in enumerate(bits))

    worst = max(math.log(probability(a, r) / probability(b, r))
                for a in range(5) for b in range(5) for r in range(16))  # 4: no bit set
    assert worst == pytest.approx(1.0) and worst <= _local_epsilon("unary_encoding") + 1e-12


def test_a_clamped_laplaces_local_epsilon_holds_for_records_far_apart() -> None:
    """`wide_clamp` is local_laplace(1, x, 0, 10): records 0 and 10 (or beyond) give
    Laplace(10) centred 10 apart, a density ratio of e at most, whatever x's distance."""
    scale = 10.0
    worst = max(abs(min(max(a, 0.0), 10.0) - min(max(b, 0.0), 10.0)) / scale
                for a in (-5.0, 0.0, 3.0, 10.0, 50.0) for b in (-5.0, 0.0, 7.0, 10.0, 1e6))
    assert worst == pytest.approx(1.0) and worst <= _local_epsilon("wide_clamp") + 1e-12
