"""Per-function privacy budgets: DPS501 when a cost exceeds one, or cannot be shown within it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.lint.conftest import Run, pyproject, write

RELEASES = (
    "from dpsens import Priv, Real, Static, laplace_mechanism\n\n\n"
    "def dp_small(x: Real) -> Priv[Real]:\n"
    "    return laplace_mechanism(1, 0.5, x)\n\n\n"
    "def dp_large(x: Real, y: Real) -> Priv[Real]:\n"
    "    return laplace_mechanism(1, 0.5, x) + laplace_mechanism(1, 2.0, y)\n\n\n"
    "def dp_symbolic(x: Real, eps: Static[float]) -> Priv[Real]:\n"
    "    return laplace_mechanism(1, eps, x)\n\n\n"
    "def scale(x: Real, c: Static[float]) -> Real:\n"
    "    return c * x\n"
)


def budget_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "DPS501" in line]


def test_numeric_and_symbolic_costs_against_a_glob(project: Path, run: Run) -> None:
    pyproject(project, '[tool.dpsens.budget]\n"dp_*" = {epsilon = 1.0}')
    write(project, {"pkg/__init__.py": "", "pkg/releases.py": RELEASES})
    code, out, _ = run("check", "--no-cache", "-q", "pkg")
    assert code == 1
    assert budget_lines(out) == [
        "pkg/releases.py:8:1: DPS501 'dp_large' exceeds its privacy budget ('dp_*': epsilon <= 1):"
        " epsilon of 'y' is 2",
        "pkg/releases.py:12:1: DPS501 'dp_symbolic' exceeds its privacy budget ('dp_*': epsilon"
        " <= 1): epsilon of 'x' is eps, which cannot be shown to stay within 1",
    ]


def test_binding_a_static_parameter_makes_the_cost_checkable(project: Path, run: Run) -> None:
    pyproject(project, 'bindings = {"dp_symbolic.eps" = 0.25}\n\n'
                       '[tool.dpsens.budget]\n"dp_symbolic" = {epsilon = 1.0, delta = 0}')
    write(project, {"releases.py": RELEASES})
    code, out, _ = run("check", "--no-cache", "-q", "releases.py")
    assert code == 0 and budget_lines(out) == []


def test_qualified_globs_and_delta(project: Path, run: Run) -> None:
    pyproject(project, '[tool.dpsens.budget]\n"pkg.releases.dp_l*" = {epsilon = 10, delta = 1e-9}\n'
                       '"other.*" = {epsilon = 0}')
    write(project, {"pkg/__init__.py": "", "pkg/releases.py": RELEASES.replace(
        "laplace_mechanism(1, 2.0, y)",
        "gaussian_mechanism(1.0, 0.5, 1e-5, y)").replace(
        "laplace_mechanism\n", "laplace_mechanism, gaussian_mechanism\n")})
    code, out, _ = run("check", "--no-cache", "-q", "pkg")
    assert code == 1
    [line] = budget_lines(out)
    assert line.startswith("pkg/releases.py:8:1: DPS501 'dp_large' exceeds its privacy budget "
                           "('pkg.releases.dp_l*': epsilon <= 10, delta <= 1e-09): delta of 'y' is")


def test_a_budget_finding_is_suppressible_on_the_def_line(project: Path, run: Run) -> None:
    pyproject(project, '[tool.dpsens.budget]\n"dp_*" = {epsilon = 1.0}')
    source = RELEASES.replace("def dp_large(x: Real, y: Real) -> Priv[Real]:",
                              "def dp_large(x: Real, y: Real) -> Priv[Real]:  # dpsens: ignore[DPS501]")
    write(project, {"releases.py": source})
    code, out, _ = run("check", "--no-cache", "-q", "--ignore", "DPS501", "releases.py")
    assert code == 0 and out == ""
    _, out, _ = run("check", "--no-cache", "-q", "releases.py")
    assert [re.search(r"'(\w+)'", line).group(1) for line in budget_lines(out)] == ["dp_symbolic"]


def test_budgets_need_no_reanalysis(project: Path, run: Run) -> None:
    """Budgets are checked after the cache: changing one re-uses the cached analysis."""
    write(project, {"releases.py": RELEASES})
    pyproject(project, '[tool.dpsens.budget]\n"dp_*" = {epsilon = 100}')
    assert run("check", "-q", "releases.py")[0] == 1  # dp_symbolic stays symbolic
    pyproject(project, '[tool.dpsens.budget]\n"dp_small" = {epsilon = 0.1}')
    code, out, err = run("check", "-v", "releases.py")
    assert code == 1 and "0 units analyzed, 1 from the cache" in err
    assert budget_lines(out) == ["releases.py:4:1: DPS501 'dp_small' exceeds its privacy budget "
                                 "('dp_small': epsilon <= 0.1): epsilon of 'x' is 1/2"]


def test_a_budget_is_checked_at_its_own_delta(project: Path, run: Run) -> None:
    """A budget's δ is where its ε is read: the best bound at δ' = 1e-5 is another point of
    the same curve, and the mechanism's own pair may be the one that fits."""
    pyproject(project, '[tool.dpsens.budget]\n"own_pair" = {epsilon = 0.5, delta = 1e-9}\n'
                       '"hundred" = {epsilon = 13, delta = 1e-8}\n"tight" = {epsilon = 12.7, delta = 1e-8}')
    write(project, {"gauss.py": (
        "from dpsens import Priv, Real, gaussian_mechanism, gaussian_mechanism_zcdp\n\n\n"
        "def own_pair(x: Real) -> Priv[Real]:\n"
        "    return gaussian_mechanism(1.0, 0.5, 1e-9, x)\n\n\n"
        "def hundred(x: Real) -> Priv[Real]:\n"
        "    t = 0.0\n"
        "    for _ in range(100):\n"
        "        t = t + gaussian_mechanism_zcdp(1.0, 0.02, x)\n"
        "    return t\n\n\n"
        "def tight(x: Real) -> Priv[Real]:\n"
        "    return hundred(x)\n")})
    code, out, _ = run("check", "--no-cache", "-q", "gauss.py")
    # 100 Gaussians of rho 0.02 are mu = 2 GDP: 12.7493 at 1e-8 (12.7 is below it)
    assert code == 1 and budget_lines(out) == [
        "gauss.py:15:1: DPS501 'tight' exceeds its privacy budget ('tight': epsilon <= 12.7, "
        "delta <= 1e-08): epsilon of 'x' is 12.7493"]
    _, out, _ = run("check", "--no-cache", "--format", "json", "gauss.py")
    assert '"epsilon": "12.7493"' in out and '"delta": "1/100000000"' in out


def test_a_budget_without_delta_allows_delta_prime(project: Path, run: Run) -> None:
    """{epsilon = 1} passed gaussian_mechanism(1, 0.5, 0.9, x): any delta below 1 did."""
    write(project, {"gauss.py": "from dpsens import Priv, Real, gaussian_mechanism\n\n\n"
                                "def loose(x: Real) -> Priv[Real]:\n"
                                "    return gaussian_mechanism(1.0, 0.5, 0.9, x)\n\n\n"
                                "def tight(x: Real) -> Priv[Real]:\n"
                                "    return gaussian_mechanism(1.0, 0.5, 1e-6, x)\n"})
    pyproject(project, '[tool.dpsens.budget]\n"*" = {epsilon = 1.0}')
    code, out, _ = run("check", "gauss.py")
    assert code == 1 and budget_lines(out) == [
        "gauss.py:4:1: DPS501 'loose' exceeds its privacy budget ('*': epsilon <= 1): delta of "
        "'x' is 9/10 (without a delta, a budget allows delta_prime, 1e-05)"]
