"""Unit tests of the runtime builtins and metric distances: values and error messages."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpsens import runtime
from dpsens.lang import L1, L2, L_inf
from dpsens.runtime import (
    clip, cols, count, discrete, fold, map_rows, matrix_distance, norm_convert, rows,
    scalar_distance, unbox, undisc, undisc_container, vector_distance,
)

# --- clip ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("norm", "v", "expected"),
    [
        (L1, [1.0, 1.0], [0.5, 0.5]),  # the seed's example
        (L2, [3.0, 4.0], [0.6, 0.8]),
        (L_inf, [2.0, -1.0], [1.0, -0.5]),
        (L1, [0.25, -0.25], [0.25, -0.25]),  # inside the ball: unchanged
        (L2, [0.0, 0.0], [0.0, 0.0]),
        (L_inf, [1.0, 1.0], [1.0, 1.0]),  # exactly on the boundary
    ],
)
def test_clip_vector(norm: type, v: list[float], expected: list[float]) -> None:
    assert np.allclose(clip(norm, v), expected, rtol=0, atol=1e-15)


def test_clip_accepts_norm_instances_and_names_agree() -> None:
    v = np.array([3.0, 4.0])
    assert np.array_equal(clip(L2(), v), clip(L2, v))


def test_clip_matrix_clips_each_row_independently() -> None:
    m = np.array([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0]])
    assert np.allclose(clip(L2, m), [[0.6, 0.8], [0.3, 0.4], [0.0, 0.0]])


def test_clip_returns_a_float_copy_and_keeps_the_input() -> None:
    v = np.array([2, 2])
    out = clip(L1, v)
    assert out.dtype == np.float64
    assert np.array_equal(v, [2, 2])
    out[0] = 9.0
    assert np.array_equal(v, [2, 2])


def test_clip_huge_rows_do_not_overflow() -> None:
    """Squares of 1e200 overflow; the norm is computed scaled, so the direction survives."""
    assert np.allclose(clip(L2, [1e200, 1e200]), [math.sqrt(0.5)] * 2)
    assert np.allclose(clip(L1, [1e308, 1e308]), [0.5, 0.5])
    assert np.allclose(clip(L_inf, [[1e308, -1e308]]), [[1.0, -1.0]])


def test_clip_output_is_in_the_unit_ball() -> None:
    rng = np.random.default_rng(0)
    m = rng.normal(scale=10.0, size=(50, 4))
    assert (np.abs(clip(L1, m)).sum(axis=1) <= 1 + 1e-12).all()
    assert (np.linalg.norm(clip(L2, m), axis=1) <= 1 + 1e-12).all()
    assert (np.abs(clip(L_inf, m)).max(axis=1) <= 1 + 1e-12).all()


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((L1, 3.0), TypeError, "0-D"),
        ((L1, np.zeros((2, 2, 2))), TypeError, "3-D"),
        ((L1, ["a", "b"]), TypeError, "numeric"),
        (("L3", [1.0]), TypeError, "expected a norm"),
        ((object, [1.0]), TypeError, "expected a norm"),
    ],
)
def test_clip_rejects_bad_input(args: tuple[object, object], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        clip(*args)


def test_clip_makes_a_row_without_a_norm_the_zero_row() -> None:
    """A NaN or infinite entry (a record the data may hold) zeroes its row, never raises:
    whether a release raised would depend on that record (review34)."""
    assert np.array_equal(clip(L1, [np.nan, 1.0]), [0.0, 0.0])
    assert np.array_equal(clip(L2, [[np.inf, 0.1], [0.6, 0.8]]), [[0.0, 0.0], [0.6, 0.8]])
    assert np.array_equal(clip(L_inf, [[-np.inf, np.nan], [2.0, 0.5]]), [[0.0, 0.0], [1.0, 0.25]])


# --- identities ---------------------------------------------------------------


def test_norm_convert_and_undisc_container_are_copying_identities() -> None:
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    for out in (norm_convert(L1, m), undisc_container(m)):
        assert np.array_equal(out, m)
        assert out is not m and not np.shares_memory(out, m)


def test_norm_convert_checks_its_norm_and_input() -> None:
    with pytest.raises(TypeError, match="expected a norm"):
        norm_convert("L7", [1.0])
    with pytest.raises(ValueError, match="NaN"):
        undisc_container([[np.nan]])


def test_discrete_and_undisc_are_float_identities() -> None:
    assert discrete(3) == 3.0 and isinstance(discrete(3), float)
    assert undisc(np.float64(0.5)) == 0.5
    with pytest.raises(TypeError, match="scalar"):
        discrete(np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="NaN"):
        undisc(float("nan"))
    with pytest.raises(TypeError, match="number"):
        discrete("1")


# --- count, map_rows, fold ----------------------------------------------------


def test_count_entries_and_rows() -> None:
    assert count(lambda e: e > 0, [1.0, -1.0, 2.0, 0.0]) == 2
    m = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    result = count(lambda r: r.sum() >= 1, m)
    assert result == 2 and isinstance(result, int)
    assert count(lambda e: True, np.zeros(0)) == 0


def test_count_requires_a_single_bool_from_pred() -> None:
    with pytest.raises(TypeError, match="one bool"):
        count(lambda r: r > 0, np.ones((2, 2)))


def test_map_rows_stacks_scalars_and_vectors() -> None:
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert np.array_equal(map_rows(np.sum, m), [3.0, 7.0])
    assert np.array_equal(map_rows(lambda r: 2 * r, m), 2 * m)
    assert np.array_equal(map_rows(abs, [-1.0, 2.0]), [1.0, 2.0])
    assert map_rows(np.sum, np.zeros((0, 3))).shape == (0,)


def test_map_rows_cannot_mutate_the_input() -> None:
    m = np.ones((2, 2))

    def clobber(row: np.ndarray) -> float:
        row[:] = 0.0
        return 1.0

    map_rows(clobber, m)
    assert np.array_equal(m, np.ones((2, 2)))


def test_map_rows_rejects_inconsistent_results() -> None:
    with pytest.raises(ValueError, match="different shapes"):
        map_rows(lambda r: np.ones(int(r[0])), [[1.0], [2.0]])
    with pytest.raises(TypeError, match="scalar or a 1-D vector"):
        map_rows(lambda r: np.ones((2, 2)), [[1.0]])


def test_fold_is_a_left_fold_over_entries_and_rows() -> None:
    # Non-commutative step: the order of the fold is observable.
    assert fold(lambda acc, e: 2 * acc + e, 0.0, [1.0, 2.0, 3.0]) == 11.0
    acc = fold(lambda a, r: a + r, np.zeros(2), np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert np.array_equal(acc, [4.0, 6.0])
    assert fold(lambda a, e: a + e, 5.0, np.zeros(0)) == 5.0
    with pytest.raises(TypeError, match="1-D vector or a 2-D matrix"):
        fold(lambda a, e: a, 0.0, 1.0)


# --- shapes -------------------------------------------------------------------


def test_rows_and_cols() -> None:
    m = np.zeros((3, 2))
    assert (rows(m), cols(m), rows(np.zeros(5))) == (3, 2, 5)
    with pytest.raises(TypeError, match="scalar"):
        rows(1.0)
    with pytest.raises(TypeError, match="2-D matrix, got a 1-D"):
        cols(np.zeros(4))


def test_unbox_converts_and_checks_shape() -> None:
    assert unbox(3, "Real", ()) == 3.0 and isinstance(unbox(3, "Real", ()), float)
    assert unbox(np.float32(2.5), "Real", None) == 2.5
    out = unbox([1, 2], "MetricVector[L1, Real]", (2,))
    assert out.dtype == np.float64 and np.array_equal(out, [1.0, 2.0])
    assert unbox(np.ones((2, 3)), "t", [2, 3]).shape == (2, 3)
    # Whether a black box's result breaks its declared shape may depend on the data it was
    # given: the result is replaced by zeros of the declared shape, never raised (review33).
    assert np.array_equal(unbox([1.0, 2.0], "t", (3,)), np.zeros(3))
    assert unbox([1.0], "t", ()) == 0.0 and isinstance(unbox([1.0], "t", ()), float)
    assert unbox("text", "t", ()) == 0.0
    assert np.array_equal(unbox([np.nan, 2.0], "t", (2,)), [0.0, 2.0])


def test_unbox_replaces_what_breaks_the_type() -> None:
    """The analyzer takes an unboxed Bool as 0 or 1 (the discrete cap), an Integer as whole
    and a clipped container's rows as of norm at most 1: a value that is not is replaced by
    one that is, chosen without looking at the data (0, or the row scaled into the ball)."""
    from dpsens import Bool, ClippedMatrix, ClippedVector, Integer, MetricVector, Real

    assert unbox(1.0, Bool, ()) == 1.0 and unbox(3, Integer, ()) == 3.0
    assert np.array_equal(unbox([0.6, -0.4], ClippedVector[L1, L1, Real], 2), [0.6, -0.4])
    assert unbox([[0.6, 0.8]], ClippedMatrix[L2, L_inf, Real], (1, 2)).shape == (1, 2)
    assert unbox(1000.0, Bool, ()) == 0.0
    assert np.array_equal(unbox([1.0, 2.5], MetricVector[L1, Integer], 2), [1.0, 0.0])
    assert np.allclose(unbox([0.9, 0.9], ClippedVector[L2, L2, Real], 2), [0.5 ** 0.5] * 2)
    assert np.allclose(unbox([[0.5, 0.6]], ClippedMatrix[L1, L1, Real], (1, 2)), [[5 / 11, 6 / 11]])
    # The analyzer reads a quoted type as the annotation: so does the check (review25).
    assert unbox(1000.0, "Bool", ()) == 0.0
    assert np.array_equal(unbox([1.0, 2.5], "MetricVector[L1, Integer]", 2), [1.0, 0.0])
    assert np.allclose(unbox([0.9, 0.9], "ClippedVector[L2, L2, Real]", 2), [0.5 ** 0.5] * 2)


def test_runtime_reexports_every_builtin() -> None:
    for name in ("clip", "norm_convert", "discrete", "undisc", "undisc_container", "count",
                 "map_rows", "fold", "rows", "cols", "unbox"):
        assert callable(getattr(runtime, name))
        assert getattr(runtime, name).__doc__


# --- metrics ------------------------------------------------------------------


def test_scalar_distances() -> None:
    assert scalar_distance("Real", 0.1, 0.3) == pytest.approx(0.2)
    assert scalar_distance("Integer", 3, -2) == 5.0
    assert scalar_distance("Data", 0.1, 0.2) == 1.0
    assert scalar_distance("Data", 7.0, 7.0) == 0.0
    assert scalar_distance("Bool", True, False) == 1.0
    with pytest.raises(ValueError, match="unknown element kind"):
        scalar_distance("Complex", 1, 2)


def test_vector_distances_follow_the_seed_table() -> None:
    v, w = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 0.0, 0.0, 4.5])
    assert vector_distance("L1", "Real", v, w) == 5.5
    assert vector_distance("L2", "Real", v, w) == pytest.approx(math.sqrt(4 + 9 + 0.25))
    assert vector_distance("L_inf", "Real", v, w) == 3.0
    # Data: the number of differing entries, its square root, and "differ at all".
    assert vector_distance(L1, "Data", v, w) == 3.0
    assert vector_distance(L2, "Data", v, w) == pytest.approx(math.sqrt(3))
    assert vector_distance(L_inf, "Data", v, w) == 1.0
    assert vector_distance("L_inf", "Data", v, v.copy()) == 0.0


def test_discrete_metric_uses_exact_equality() -> None:
    assert vector_distance("L1", "Data", [1.0], [1.0 + 2.0**-52]) == 1.0


def test_integer_distances_do_not_wrap_around() -> None:
    a = np.array([np.iinfo(np.int64).max])
    b = np.array([np.iinfo(np.int64).min])
    assert vector_distance("L1", "Integer", a, b) == pytest.approx(2.0**64)


def test_matrix_distance_sums_row_distances() -> None:
    m = np.array([[1.0, 1.0], [0.0, 0.0], [5.0, 5.0]])
    n = np.array([[1.0, 0.0], [3.0, 4.0], [5.0, 5.0]])
    assert matrix_distance("L_inf", "Data", m, n) == 2.0  # rows that differ
    assert matrix_distance("L1", "Data", m, n) == 3.0  # entries that differ
    assert matrix_distance("L2", "Real", m, n) == pytest.approx(1.0 + 5.0)


def test_distances_reject_mismatched_shapes() -> None:
    with pytest.raises(ValueError, match="different shapes"):
        vector_distance("L1", "Real", [1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="2-D"):
        matrix_distance("L1", "Real", [1.0], [1.0])
    with pytest.raises(TypeError, match="expected a norm"):
        vector_distance("L3", "Real", [1.0], [1.0])


def test_distances_reject_nan() -> None:
    """NaN != NaN would put a value at distance 1 from itself in the discrete metric."""
    with pytest.raises(ValueError, match="NaN"):
        vector_distance("L1", "Data", [np.nan], [np.nan])
    with pytest.raises(ValueError, match="NaN"):
        scalar_distance("Real", 1.0, float("nan"))


def test_l2_distance_of_huge_vectors_is_finite() -> None:
    assert vector_distance("L2", "Real", [1e200, 1e200], [0.0, 0.0]) == pytest.approx(math.sqrt(2) * 1e200)
