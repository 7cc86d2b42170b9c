"""The runtime mechanisms refuse parameters that would silently break their guarantee.

ε <= 0, δ outside (0, 1), sensitivity <= 0, NaN/inf in parameters or data,
and mismatched shapes must raise a ValueError that names the culprit,
never return noise calibrated to nonsense.  ``GAPS`` are inputs found by
this suite (and reported) that are accepted or refused unclearly; they
xfail until fixed and pass from then on.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import pytest

from dpsens.runtime import mechanisms as M
from dpsens.runtime import local as L

NAN, INF = math.nan, math.inf
V = np.array([1.0, 2.0, 3.0])


def _util(d: Any, r: int) -> float:
    return float(r)


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
    ("randomized response nan bit", lambda: M.randomized_response(1.0, NAN), "bit"),
    ("local laplace nan", lambda: L.local_laplace(1.0, NAN, 0.0, 1.0), "NaN"),
    ("local laplace infinite bound", lambda: L.local_laplace(1.0, 0.5, 0.0, INF), "lower < upper"),
    ("laplace x=complex", lambda: M.laplace_mechanism(1.0, 1.0, 1 + 2j), "x"),
    ("laplace ragged x", lambda: M.laplace_mechanism(1.0, 1.0, [[1.0], [1.0, 2.0]]), "x"),
    # shapes
    ("sample rows differ", lambda: M.sample(1, np.zeros((3, 2)), np.zeros((4, 2))), "same number of rows"),
    ("sample scalars", lambda: M.sample(1, 3.0, 3.0), "same number of rows"),
    ("sample k > rows", lambda: M.sample(5, np.zeros((3, 2)), np.zeros((3, 2))), "without replacement"),
    ("sample k < 0", lambda: M.sample(-1, np.zeros((3, 2)), np.zeros((3, 2))), "k"),
    ("sample k=1.5", lambda: M.sample(1.5, np.zeros((3, 2)), np.zeros((3, 2))), "k"),  # type: ignore[arg-type]
    ("parallel fold rows differ",
     lambda: M.parallel_fold_rows(lambda a, r1, r2: a, 0, np.zeros((3, 2)), np.zeros((2, 2))),
     "same number of rows"),
    ("noisy max 2-D scores", lambda: M.report_noisy_max(1.0, 1.0, [[1.0, 2.0]]), "1-D"),
    ("noisy max empty", lambda: M.report_noisy_max(1.0, 1.0, []), "non-empty"),
    ("exponential without candidates", lambda: M.exponential_mechanism(1.0, 1.0, [], _util, None),
     "candidate"),
    ("randomized response bit=2", lambda: M.randomized_response(1.0, 2), "bit"),
    ("k-ary value out of range", lambda: L.kary_randomized_response(1.0, 4, 4), "[0, 4)"),
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


GAPS: list[tuple[str, Callable[[], Any], str]] = [
    # A string is parsed as a number by numpy: "3" is noised as 3.0.
    ("laplace x='3'", lambda: M.laplace_mechanism(1.0, 1.0, "3"), "x"),
    # None becomes NaN, so the message speaks of NaN values the user never wrote.
    ("laplace x=None", lambda: M.laplace_mechanism(1.0, 1.0, None), "None"),
    # A vector-valued utility or query fails inside numpy with a message naming neither.
    ("exponential vector utility",
     lambda: M.exponential_mechanism(1.0, 1.0, [0, 1], lambda d, r: [1.0, 2.0], None),  # type: ignore
     "utility"),
    ("above threshold vector query",
     lambda: M.above_threshold([lambda d: [1.0, 2.0]], 1.0, None, 0.5), "query"),  # type: ignore
    # An array bit fails with numpy's "truth value of an array is ambiguous".
    ("randomized response array bit", lambda: M.randomized_response(1.0, np.array([1, 0])), "bit"),
    # Data that is not a sequence of rows fails with "'float' object is not iterable".
    ("shuffle scalar data", lambda: M.shuffle(lambda r: r, 3.0), "data"),
]


@pytest.mark.parametrize("name,call,mentions", GAPS, ids=[g[0] for g in GAPS])
def test_known_gap(name: str, call: Callable[[], Any], mentions: str) -> None:
    """Reported gaps: xfail while the input is accepted or refused unclearly, pass once fixed."""
    try:
        call()
    except ValueError as error:
        if mentions in str(error):
            return
        pytest.xfail(f"refused with an unclear message: {error}")
    except Exception as error:  # noqa: BLE001 - the gap under test
        pytest.xfail(f"refused with {type(error).__name__}: {error}")
    pytest.xfail("accepted")


def test_tiny_and_huge_parameters_still_calibrate() -> None:
    """Extreme but valid parameters give finite noise (no overflow to inf or NaN)."""
    for value in (M.laplace_mechanism(1.0, 1e-300, 1.0), M.laplace_mechanism(1e300, 1.0, 1.0),
                  M.gaussian_mechanism(1.0, 1e-12, 1e-5, 1.0), M.gaussian_mechanism(1.0, 1.0, 1e-300, 1.0),
                  M.gaussian_mechanism_zcdp(1.0, 1e-300, 1.0)):
        assert math.isfinite(value)
