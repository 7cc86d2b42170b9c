"""Hints in diagnostics name a remedy that applies to the case at hand."""

from __future__ import annotations

from pathlib import Path

from dpsens.check import check_paths

SOURCE = '''from dpsens import L1, L_inf, BlackBox, Integer, MetricVector, Real, unbox


def widened(v: MetricVector[L_inf, Real]) -> MetricVector[L1, Real]:
    return v


def truncated(x: Real) -> Integer:
    return 0.001 * x


def box(x: Real) -> BlackBox[float]:
    return 1.0


def shaped_number(x: Real) -> Real:
    return unbox(box(x), Real, 1)


def number(x: Real) -> Real:
    return unbox(box(x), Real, ()) + unbox(box(x), Real, None)
'''


def _messages(tmp_path: Path) -> dict[int, list[str]]:
    (tmp_path / "m.py").write_text(SOURCE)
    [file] = check_paths([str(tmp_path / "m.py")]).files
    found: dict[int, list[str]] = {}
    for d in file.diagnostics:
        if d.code != "DPS311":
            found.setdefault(d.line, []).append(f"{d.code} {d.message}")
    return found


def test_norm_convert_is_suggested_only_for_a_change_of_norm(tmp_path: Path) -> None:
    found = _messages(tmp_path)
    [widened] = found[4]
    assert widened.startswith("DPS104") and widened.endswith("(use norm_convert)")
    [truncated] = found[8]  # a Real is not made an Integer by norm_convert
    assert truncated.startswith("DPS104") and "norm_convert" not in truncated


def test_a_number_unboxed_with_a_shape_is_refused(tmp_path: Path) -> None:
    """A number's type with shape 1 does not fit (unbox would return zeros of that shape):
    the analysis says so."""
    found = _messages(tmp_path)
    assert found[17] == ["DPS301 unbox(): the shape must match the type and be static"]
    assert 21 not in found  # () and None are a number's shapes


def test_norm_convert_is_not_suggested_for_what_is_not_an_array(tmp_path: Path) -> None:
    (tmp_path / "listed.py").write_text(
        "import numpy as np\nfrom dpsens import Real\n\n\n"
        "def listed(x: Real) -> list[Real]:\n    return [np.ones(3) @ x]\n")
    [file] = check_paths([str(tmp_path / "listed.py")]).files
    [finding] = [d for d in file.diagnostics if d.code == "DPS104"]
    assert "norm_convert" not in finding.message


def test_a_returned_function_is_named_by_what_returns_it(tmp_path: Path) -> None:
    """`make_scaler(6.0)(x)` calls the function make_scaler returns (it said 'call')."""
    (tmp_path / "c.py").write_text(
        "from typing import Callable\n"
        "from dpsens import Real, Static\n\n\n"
        "def make_scaler(c: Static[float]) -> Callable[[Real], Real]:\n"
        "    return lambda t: c * t\n\n\n"
        "def use(x: Real) -> Real:\n"
        "    return make_scaler(6.0)(x)\n")
    [file] = check_paths([str(tmp_path / "c.py")]).files
    [message] = [d.message for d in file.diagnostics if d.code == "DPS203"]
    assert message == ("call to 'the function make_scaler() returns' has no dpsens rule "
                       "or analyzable body")


def test_a_union_annotation_is_named(tmp_path: Path) -> None:
    """`Real | None` is not in the vocabulary: the report names it (it said '...')."""
    (tmp_path / "union.py").write_text("from dpsens import Real\n\n\n"
                                       "def f(x: Real | None) -> Real:\n    return 2.0 * x\n")
    [file] = check_paths([str(tmp_path / "union.py")]).files
    assert file.functions[0]["params"][0]["type"] == "Real | None"
    assert any(d.code == "DPS101" and d.message == "unknown annotation 'Real | None'"
               for d in file.diagnostics)


def test_numpy_noise_is_named_in_the_release_without_noise(tmp_path: Path) -> None:
    """`x + np.random.laplace(...)` is released without dpsens's noise: DPS403 says why."""
    (tmp_path / "raw.py").write_text(
        "import numpy as np\nfrom dpsens import Priv, Real, Static\n\n\n"
        "def raw(x: Real, eps: Static[float]) -> Priv[Real]:\n"
        "    return x + np.random.laplace(0.0, 1.0 / eps)\n")
    [file] = check_paths([str(tmp_path / "raw.py")]).files
    [released] = [d for d in file.diagnostics if d.code == "DPS403"]
    assert "noise from numpy.random.laplace() is not a dpsens mechanism" in released.message
    assert file.functions[0]["params"][0]["epsilon"] == "inf"
