"""The runtime mechanisms refuse parameters that would silently break their guarantee.

ε <= 0, δ outside (0, 1), sensitivity <= 0, NaN/inf in parameters or data,
text, None or complex values as data, and mismatched shapes must raise a
ValueError that names the culprit, never return noise calibrated to
nonsense.  Numpy 0-d arrays, numpy scalars, Fractions and Decimals are
numbers like any other and must be accepted.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import numpy as np
import pytest

from dpsens.lang import L1
from dpsens.runtime import builtins as B
from dpsens.runtime import local as L
from dpsens.runtime import mechanisms as M

NAN, INF = math.nan, math.inf
V = np.array([1.0, 2.0, 3.0])


def _util(d: Any, r: int) -> float:
    return float(r)


def _returning(value: Any) -> Callable[..., Any]:
    """A utility or query that returns value whatever it is asked (typed Any: the value is the bad input)."""
    return lambda *args: value


REFUSED: list[tuple[str, Callable[[], Any], str]] = [
    # epsilon <= 0 or not finite
    *[(f"laplace eps={e}", lambda e=e: M.laplace_mechanism(1.0, e, 1.0), "eps") for e in (0.0, -1.0, NAN, INF)],
    *[(f"gaussian eps={e}", lambda e=e: M.gaussian_mechanism(1.0, e, 1e-5, 1.0), "eps") for e in (0.0, -0.5, NAN)],
    *[(f"exponential eps={e}", lambda e=e: M.exponential_mechanism(1.0, e, [0, 1], _util, None), "eps")
      for e in (0.0, -1.0, INF)],
    *[(f"noisy max eps={e}", lambda e=e: M.report_noisy_max(1.0, e, V), "eps") for e in (0.0, NAN)],
    *[(f"above threshold eps={e}", lambda e=e: M.above_threshold([lambda d: 1.0], e, None, 0.5), "eps")
      for e in (0.0, -2.0)],
    *[(f"randomized response eps={e}", lambda e=e: M.randomized_response(e, 1), "eps") for e in (0.0, NAN)],
    ("k-ary randomized response eps=0", lambda: L.kary_randomized_response(0.0, 1, 4), "eps"),
    ("local laplace eps=0", lambda: L.local_laplace(0.0, 0.5, 0.0, 1.0), "eps"),
    ("zCDP rho=0", lambda: M.gaussian_mechanism_zcdp(1.0, 0.0, 1.0), "rho"),
    ("zCDP rho=-1", lambda: M.gaussian_mechanism_zcdp(1.0, -1.0, 1.0), "rho"),
    ("eps=True", lambda: M.laplace_mechanism(1.0, True, 1.0), "eps"),
    # delta outside (0, 1)
    *[(f"gaussian delta={d}", lambda d=d: M.gaussian_mechanism(1.0, 1.0, d, 1.0), "delta")
      for d in (0.0, 1.0, -0.1, 1.5, NAN)],
    # sensitivity <= 0 or not finite
    *[(f"laplace s={s}", lambda s=s: M.laplace_mechanism(s, 1.0, 1.0), "s") for s in (0.0, -1.0, NAN, INF)],
    ("gaussian s=0", lambda: M.gaussian_mechanism(0.0, 1.0, 1e-5, 1.0), "s"),
    ("zCDP s=-2", lambda: M.gaussian_mechanism_zcdp(-2.0, 0.5, 1.0), "s"),
    ("exponential s=0", lambda: M.exponential_mechanism(0.0, 1.0, [0, 1], _util, None), "s"),
    ("noisy max s=-1", lambda: M.report_noisy_max(-1.0, 1.0, V), "s"),
    ("laplace s='1'", lambda: M.laplace_mechanism("1", 1.0, 1.0), "s"),  # type: ignore[arg-type]
    # NaN / inf data
    ("laplace x=nan", lambda: M.laplace_mechanism(1.0, 1.0, NAN), "x"),
    ("laplace x with inf", lambda: M.laplace_mechanism(1.0, 1.0, np.array([1.0, INF])), "x"),
    ("gaussian x with nan", lambda: M.gaussian_mechanism(1.0, 1.0, 1e-5, [1.0, NAN]), "x"),
    ("zCDP x=-inf", lambda: M.gaussian_mechanism_zcdp(1.0, 1.0, -INF), "x"),
    ("noisy max nan score", lambda: M.report_noisy_max(1.0, 1.0, [1.0, NAN]), "scores"),
    ("exponential nan utility", lambda: M.exponential_mechanism(1.0, 1.0, [0, 1], lambda d, r: NAN, None),
     "utility"),
    ("above threshold nan threshold", lambda: M.above_threshold([lambda d: 1.0], 1.0, None, NAN), "threshold"),
    ("above threshold inf query", lambda: M.above_threshold([lambda d: INF], 1.0, None, 0.5), "query"),
    ("local laplace infinite bound", lambda: L.local_laplace(1.0, 0.5, 0.0, INF), "upper"),
    ("laplace x=complex", lambda: M.laplace_mechanism(1.0, 1.0, 1 + 2j), "x"),
    ("laplace ragged x", lambda: M.laplace_mechanism(1.0, 1.0, [[1.0], [1.0, 2.0]]), "x"),
    # text, bytes, None and other non-numbers as data (numpy would parse "3" as 3.0, None as NaN)
    ("laplace x='3'", lambda: M.laplace_mechanism(1.0, 1.0, "3"), "x"),
    ("laplace x=b'3'", lambda: M.laplace_mechanism(1.0, 1.0, b"3"), "x"),
    ("laplace x=['1', '2']", lambda: M.laplace_mechanism(1.0, 1.0, ["1", "2"]), "x"),
    ("laplace x=None", lambda: M.laplace_mechanism(1.0, 1.0, None), "None"),
    ("laplace x=[1.0, None]", lambda: M.laplace_mechanism(1.0, 1.0, [1.0, None]), "None"),
    ("laplace x=object()", lambda: M.laplace_mechanism(1.0, 1.0, object()), "x"),
    ("laplace x=10**400", lambda: M.laplace_mechanism(1.0, 1.0, 10**400), "too large"),
    ("gaussian x='1'", lambda: M.gaussian_mechanism(1.0, 1.0, 1e-5, "1"), "x"),
    ("zCDP x=None", lambda: M.gaussian_mechanism_zcdp(1.0, 1.0, None), "None"),
    ("zCDP complex x", lambda: M.gaussian_mechanism_zcdp(1.0, 1.0, np.array([1 + 0j])), "x"),
    ("zCDP ragged x", lambda: M.gaussian_mechanism_zcdp(1.0, 1.0, [[1.0, 2.0], [3.0]]), "x"),
    ("noisy max text scores", lambda: M.report_noisy_max(1.0, 1.0, ["1", "2"]), "scores"),
    ("exponential vector utility",
     lambda: M.exponential_mechanism(1.0, 1.0, [0, 1], _returning([1.0, 2.0]), None), "utility"),
    ("exponential text utility", lambda: M.exponential_mechanism(1.0, 1.0, [0, 1], _returning("1"), None),
     "utility"),
    ("exponential None utility", lambda: M.exponential_mechanism(1.0, 1.0, [0, 1], _returning(None), None),
     "utility"),
    ("exponential candidates=None",
     lambda: M.exponential_mechanism(1.0, 1.0, None, _util, None), "candidates"),  # type: ignore[arg-type]
    ("above threshold vector query",
     lambda: M.above_threshold([_returning([1.0, 2.0])], 1.0, None, 0.5), "query"),
    ("above threshold None query", lambda: M.above_threshold([_returning(None)], 1.0, None, 0.5), "query"),
    ("above threshold text threshold",
     lambda: M.above_threshold([lambda d: 1.0], 1.0, None, "0.5"), "threshold"),  # type: ignore[arg-type]
    ("above threshold queries=None",
     lambda: M.above_threshold(None, 1.0, None, 0.5), "queries"),  # type: ignore[arg-type]
    ("randomized response array bit", lambda: M.randomized_response(1.0, np.array([1, 0])), "bit"),
    ("randomized response bit='1'", lambda: M.randomized_response(1.0, "1"), "bit"),
    ("randomized response bit=None", lambda: M.randomized_response(1.0, None), "bit"),
    ("randomized response complex bit", lambda: M.randomized_response(1.0, 1 + 0j), "bit"),
    ("k-ary value='1'", lambda: L.kary_randomized_response(1.0, "1", 4), "value"),  # type: ignore[arg-type]
    ("k-ary value=None", lambda: L.kary_randomized_response(1.0, None, 4), "value"),  # type: ignore[arg-type]
    ("k-ary array value", lambda: L.kary_randomized_response(1.0, np.array([1]), 4), "value"),  # type: ignore[arg-type]
    ("local laplace x='0.5'", lambda: L.local_laplace(1.0, "0.5", 0.0, 1.0), "x"),  # type: ignore[arg-type]
    ("local laplace x=None", lambda: L.local_laplace(1.0, None, 0.0, 1.0), "None"),  # type: ignore[arg-type]
    ("local laplace vector x", lambda: L.local_laplace(1.0, [0.5, 0.5], 0.0, 1.0), "x"),  # type: ignore[arg-type]
    ("local laplace lower='0'", lambda: L.local_laplace(1.0, 0.5, "0", 1.0), "lower"),  # type: ignore[arg-type]
    ("k-RR estimate fractional report", lambda: L.kary_rr_estimate([0, 1.5], 1.0, 3), "reports"),
    ("k-RR estimate report out of range", lambda: L.kary_rr_estimate([0, 3], 1.0, 3), "reports"),
    ("k-RR estimate text reports", lambda: L.kary_rr_estimate(["0", "1"], 1.0, 3), "reports"),
    ("k-RR accuracy n=-1", lambda: L.kary_rr_accuracy(1.0, 3, -1, 0.05), "n"),
    # parameters of the wrong kind (a 0-d array is fine, a vector is not)
    ("laplace eps=[1.0]", lambda: M.laplace_mechanism(1.0, np.array([1.0]), 1.0), "eps"),  # type: ignore[arg-type]
    ("laplace eps=array(True)", lambda: M.laplace_mechanism(1.0, np.array(True), 1.0), "eps"),  # type: ignore[arg-type]
    ("laplace s=None", lambda: M.laplace_mechanism(None, 1.0, 1.0), "s"),  # type: ignore[arg-type]
    ("gaussian delta='1e-5'", lambda: M.gaussian_mechanism(1.0, 1.0, "1e-5", 1.0), "delta"),  # type: ignore[arg-type]
    ("zCDP rho=complex", lambda: M.gaussian_mechanism_zcdp(1.0, 1 + 0j, 1.0), "rho"),  # type: ignore[arg-type]
    # shapes
    ("sample rows differ", lambda: M.sample(1, np.zeros((3, 2)), np.zeros((4, 2))), "same number of rows"),
    ("sample scalars", lambda: M.sample(1, 3.0, 3.0), "m1"),
    ("sample m2=None", lambda: M.sample(1, np.zeros((3, 2)), None), "m2"),
    ("sample ragged m1", lambda: M.sample(1, [[1.0], [1.0, 2.0]], [0, 1]), "m1"),
    ("sample k=True", lambda: M.sample(True, np.zeros((3, 2)), np.zeros(3)), "k"),
    ("sample k='1'", lambda: M.sample("1", np.zeros((3, 2)), np.zeros(3)), "k"),  # type: ignore[arg-type]
    ("sample k > rows", lambda: M.sample(5, np.zeros((3, 2)), np.zeros((3, 2))), "without replacement"),
    ("sample k < 0", lambda: M.sample(-1, np.zeros((3, 2)), np.zeros((3, 2))), "k"),
    ("sample k=1.5", lambda: M.sample(1.5, np.zeros((3, 2)), np.zeros((3, 2))), "k"),  # type: ignore[arg-type]
    ("parallel fold rows differ",
     lambda: M.parallel_fold_rows(lambda a, r1, r2: a, 0, np.zeros((3, 2)), np.zeros((2, 2))),
     "same number of rows"),
    ("parallel fold m1=None", lambda: M.parallel_fold_rows(lambda a, r1, r2: a, 0, None, np.zeros(2)), "m1"),
    ("parallel fold ragged m2",
     lambda: M.parallel_fold_rows(lambda a, r1, r2: a, 0, np.zeros((2, 2)), [[1.0], [1.0, 2.0]]), "m2"),
    ("shuffle scalar data", lambda: M.shuffle(lambda r: r, 3.0), "data"),
    ("shuffle data=None", lambda: M.shuffle(lambda r: r, None), "data"),
    ("shuffle 0-d array data", lambda: M.shuffle(lambda r: r, np.array(3.0)), "data"),
    ("noisy max 2-D scores", lambda: M.report_noisy_max(1.0, 1.0, [[1.0, 2.0]]), "1-D"),
    ("noisy max empty", lambda: M.report_noisy_max(1.0, 1.0, []), "non-empty"),
    ("exponential without candidates", lambda: M.exponential_mechanism(1.0, 1.0, [], _util, None),
     "candidate"),
    ("k-ary k=1", lambda: L.kary_randomized_response(1.0, 0, 1), "k"),
    # accuracy helpers
    ("laplace accuracy beta=1", lambda: M.laplace_accuracy(1.0, 1, 1.0), "beta"),
    ("gaussian accuracy sigma=0", lambda: M.gaussian_accuracy(0.0, 1, 0.05), "sigma"),
]


@pytest.mark.parametrize("name,call,mentions", REFUSED, ids=[r[0] for r in REFUSED])
def test_bad_parameter_is_refused_with_a_clear_message(name: str, call: Callable[[], Any],
                                                      mentions: str) -> None:
    with pytest.raises(ValueError) as caught:
        call()
    assert mentions in str(caught.value), f"{name}: {caught.value}"


def test_messages_name_the_function_the_parameter_and_the_value() -> None:
    vector_for_the_second: Callable[..., Any] = lambda d, r: [1.0, 2.0] if r else 0.0
    with pytest.raises(ValueError) as caught:
        M.laplace_mechanism(1.0, 1.0, "3")
    assert str(caught.value).startswith("laplace_mechanism: x must be finite real numbers")
    assert str(caught.value).endswith("got str '3'")
    with pytest.raises(ValueError, match=r"^exponential_mechanism: utility\(data, candidates\[1\]\) must be a "
                                         r"finite real number, got list \[1\.0, 2\.0\] of shape \(2,\)$"):
        M.exponential_mechanism(1.0, 1.0, [0, 1], vector_for_the_second, None)
    with pytest.raises(ValueError, match=r"^randomized_response: bit must be 0 or 1 \(or False/True\), "
                                         r"got ndarray array\(\[1, 0\]\)$"):
        M.randomized_response(1.0, np.array([1, 0]))
    with pytest.raises(ValueError, match=r"^gaussian_mechanism: eps must be a real number, got array\(\[1\.\]\)$"):
        M.gaussian_mechanism(1.0, np.array([1.0]), 1e-5, 1.0)  # type: ignore[arg-type]


def test_numbers_in_other_forms_are_accepted() -> None:
    """Numpy scalars and 0-d arrays (what numpy reductions return), bools, Fractions and Decimals are numbers."""
    rng = np.random.default_rng(0)
    # Typed Any: the annotations say float, and these values are what callers pass all the same.
    one: Any = np.array(1.0)
    half: Any = np.float32(0.5)
    two: Any = np.int64(2)
    tiny: Any = np.array(1e-5)
    category: Any = np.array(2)
    assert math.isfinite(M.laplace_mechanism(one, half, np.array(2.0), rng=rng))
    assert math.isfinite(M.gaussian_mechanism(one, one, tiny, Fraction(1, 3), rng=rng))
    assert math.isfinite(M.gaussian_mechanism_zcdp(two, one, Decimal("0.5"), rng=rng))
    assert M.laplace_mechanism(1.0, 1.0, np.array([True, False]), rng=rng).shape == (2,)
    assert M.laplace_mechanism(1.0, 1.0, [Fraction(1, 2), 1, 2.5], rng=rng).shape == (3,)
    assert M.exponential_mechanism(one, 1.0, [0, 1], _returning(half), None, rng=rng) in (0, 1)
    assert M.above_threshold([_returning(np.array(5.0))], 1.0, None, np.float64(-5.0), rng=rng) in (0, None)
    assert M.report_noisy_max(1.0, 1.0, (1, Fraction(1, 2)), rng=rng) in (0, 1)
    assert isinstance(M.randomized_response(1.0, np.True_, rng=rng), np.bool_)
    assert isinstance(M.randomized_response(1.0, np.float64(1.0), rng=rng), np.float64)
    bit = M.randomized_response(1.0, np.array(1, dtype=np.int8), rng=rng)
    assert isinstance(bit, np.ndarray) and bit.shape == () and bit.dtype == np.int8
    assert L.kary_randomized_response(one, category, two * 2, rng=rng) in range(4)
    assert math.isfinite(L.local_laplace(1.0, tiny, 0, half * 2, rng=rng))
    assert math.isfinite(L.local_laplace(1.0, INF, 0.0, 1.0, rng=rng))  # clamped to 1.0, not refused
    assert L.kary_rr_estimate(np.array([0.0, 2.0, 2.0]), 1.0, 3).shape == (3,)
    assert M.sample(two, ["a", "b"], np.zeros(2), rng=rng)[0].shape == (2,)  # rows of any kind can be sampled
    assert M.shuffle(lambda r: r, (x for x in "ab"), rng=rng) in (["a", "b"], ["b", "a"])


@pytest.mark.parametrize("call", [
    lambda: B.clip(L1, ["1", "2"]),
    lambda: B.undisc_container([[b"1"]]),
    lambda: B.fold(lambda acc, row: acc, 0.0, ["1.5"]),
    lambda: B.map_rows(lambda row: "3", [1.0]),
], ids=["clip", "undisc_container", "fold", "map_rows result"])
def test_builtins_do_not_parse_text(call: Callable[[], Any]) -> None:
    """The builtins refuse types with TypeError (their convention); text is not a number there either."""
    with pytest.raises(TypeError, match="got (list|str)"):
        call()


def test_unbox_does_not_parse_text() -> None:
    """unbox never raises on a black box's result (whether it breaks the type may depend on
    the data), and text is not a number there either: it becomes zeros, not 3."""
    assert np.array_equal(B.unbox(["3"], "t", 1), [0.0])
    assert B.unbox("3", "t", ()) == 0.0


def test_tiny_and_huge_parameters_still_calibrate() -> None:
    """Extreme but valid parameters give finite noise (no overflow to inf or NaN)."""
    for value in (M.laplace_mechanism(1.0, 1e-300, 1.0), M.laplace_mechanism(1e300, 1.0, 1.0),
                  M.gaussian_mechanism(1.0, 1e-12, 1e-5, 1.0), M.gaussian_mechanism(1.0, 1.0, 1e-300, 1.0),
                  M.gaussian_mechanism_zcdp(1.0, 1e-300, 1.0)):
        assert math.isfinite(value)


def test_data_values_never_raise() -> None:
    """A mechanism's data argument takes any number: an exception on some data values would
    show them to the caller, which no noise hides (docs/privacy.md, R-observed)."""
    rng = np.random.default_rng(0)
    for bit in (NAN, 2, -0.5, INF):
        assert M.randomized_response(1.0, bit, rng=rng) in (0, 1)
    for value in (1.5, 7, -3, NAN, INF):
        assert L.kary_randomized_response(1.0, value, 4, rng=rng) in range(4)  # type: ignore[arg-type]
    assert math.isfinite(L.local_laplace(1.0, NAN, 0.0, 1.0, rng=rng))
