"""``# dpsens: ignore[...]`` on a line and on a def line; unused suppressions are reported."""

from __future__ import annotations

import re
from pathlib import Path

from tests.lint.conftest import Run, write

HEADER = "import numpy as np\nfrom dpsens import Priv, Real\n\n\n"


def found(run: Run, source: str, *argv: str) -> tuple[int, list[str]]:
    """Exit code and 'line:col code' of each reported diagnostic."""
    write(Path.cwd(), {"mod.py": HEADER + source})
    code, out, _ = run("check", "--no-cache", "-q", *argv, "mod.py")
    return code, re.findall(r"mod\.py:(\d+:\d+): (DPS\d{3})", out)


def test_a_line_suppression_silences_only_its_codes(project: Path, run: Run) -> None:
    source = ("def f(x: Real) -> Real:\n"
              "    return np.frobnicate(x) * np.blah(x)  # dpsens: ignore[DPS203]\n"
              "\n\ndef g(x: Real) -> Real:\n"
              "    return np.frobnicate(x)  # dpsens: ignore[DPS201]\n")
    code, diagnostics = found(run, source)
    assert code == 1
    assert diagnostics == [("10:12", "DPS203"), ("10:30", "DPS502")]


def test_a_suppression_on_any_line_of_a_statement_covers_it(project: Path, run: Run) -> None:
    """Formatters wrap calls and signatures: a comment on a later line of the statement (or
    of the signature) applies, and one inside a body still covers only its own statement."""
    source = ("def f(x: Real) -> Real:\n"
              "    return np.frobnicate(\n"
              "        x)  # dpsens: ignore[DPS203]\n"
              "\n\ndef g(\n"
              "    x: Real,\n"
              ") -> Priv[Real]:  # dpsens: ignore[DPS403]\n"
              "    return x\n"
              "\n\ndef h(x: Real) -> Real:\n"
              "    y = np.frobnicate(x)\n"
              "    return np.blah(  # dpsens: ignore[DPS203]\n"
              "        y)\n")
    code, diagnostics = found(run, source)
    assert diagnostics == [("17:9", "DPS203")] and code == 1


def test_a_bare_suppression_silences_everything_on_the_line(project: Path, run: Run) -> None:
    source = "def f(x: Real) -> Real:\n    return np.frobnicate(x) * np.blah(x)  # dpsens: ignore\n"
    assert found(run, source) == (0, [])


def test_a_def_line_suppression_covers_the_function(project: Path, run: Run) -> None:
    source = ("def f(x: Real) -> Real:  # dpsens: ignore[DPS203, DPS201]\n"
              "    y = np.frobnicate(x)\n"
              "    while y > 0:\n"
              "        y = y - 1\n"
              "    return y\n"
              "\n\ndef g(x: Real) -> Real:\n"
              "    return np.frobnicate(x)\n")
    assert found(run, source) == (1, [("13:12", "DPS203")])


def test_a_def_line_suppression_covers_decorators_and_nested_functions(project: Path,
                                                                       run: Run) -> None:
    source = ("@np.vectorize\n"
              "def f(x: Real) -> Real:  # dpsens: ignore\n"
              "    def inner(v: Real) -> Real:\n"
              "        return np.frobnicate(v)\n"
              "    return inner(x)\n")
    assert found(run, source) == (0, [])


def test_unused_and_unknown_suppressions_are_warnings(project: Path, run: Run) -> None:
    source = ("def f(x: Real) -> Real:\n"
              "    y = 2 * x  # dpsens: ignore[DPS203]\n"
              "    z = y  # dpsens: ignore\n"
              "    return z  # note  # dpsens: ignore[DPS999]\n")
    code, diagnostics = found(run, source)
    assert code == 0  # warnings do not fail the check
    assert diagnostics == [("6:16", "DPS502"), ("7:12", "DPS502"), ("8:23", "DPS502")]
    out = run("check", "--no-cache", "-q", "mod.py")[1]
    assert "mod.py:6:16: DPS502 unused suppression of DPS203: not reported here" in out
    assert "mod.py:8:23: DPS502 unknown code DPS999 in 'dpsens: ignore' comment" in out
    assert found(run, source, "--ignore", "DPS502") == (0, [])


def test_partly_used_suppression_names_the_unused_code(project: Path, run: Run) -> None:
    source = "def f(x: Real) -> Real:\n    return np.frobnicate(x)  # dpsens: ignore[DPS203, DPS205]\n"
    assert found(run, source) == (0, [("6:30", "DPS502")])
    out = run("check", "--no-cache", "-q", "mod.py")[1]
    assert "unused suppression of DPS205" in out


def test_suppressions_of_deselected_codes_are_not_judged(project: Path, run: Run) -> None:
    source = "def f(x: Real) -> Real:\n    return np.frobnicate(x)  # dpsens: ignore[DPS203]\n"
    assert found(run, source, "--select", "DPS4,DPS5") == (0, [])


def test_text_in_strings_is_not_a_suppression(project: Path, run: Run) -> None:
    source = ("def f(x: Real) -> Real:\n"
              "    return np.frobnicate(x) if '# dpsens: ignore' else x\n")
    assert found(run, source) == (1, [("6:12", "DPS203")])


def test_problems_with_the_input_cannot_be_suppressed(project: Path, run: Run) -> None:
    write(project, {"bad.py": "import dpsens\ndef f(x:  # dpsens: ignore\n"})
    code, out, _ = run("check", "--no-cache", "-q", "bad.py")
    assert code == 1 and "DPS004" in out


def test_privacy_findings_are_suppressed_on_the_def_line(project: Path, run: Run) -> None:
    source = "def leak(x: Real) -> Priv[Real]:  # dpsens: ignore[DPS403]\n    return x\n"
    assert found(run, source) == (0, [])


def test_suppressions_in_a_file_not_analyzed_are_not_called_unused(project: Path, run: Run) -> None:
    """A file with a syntax error (DPS004) or above the size limit (DPS006) was not analyzed:
    its comments may be needed, so no 'unused' DPS502; an unknown code is still reported."""
    used = ("def f(x: Real) -> Real:\n"
            "    return np.frobnicate(x)  # dpsens: ignore[DPS203]\n"
            "\n\ndef g(x: Real) -> Real:\n"
            "    return np.frobnicate(x)  # dpsens: ignore\n"
            "\n\ndef h(x: Real) -> Real:\n"
            "    return x  # dpsens: ignore[DPS999]\n")
    assert found(run, used) == (0, [("14:15", "DPS502")])  # analyzed: only the unknown code
    code, diagnostics = found(run, used + "def broken(:\n")
    assert code == 1 and diagnostics == [("14:15", "DPS502"), ("15:12", "DPS004")]
    code, diagnostics = found(run, used, "--max-file-size", "100")
    assert code == 2 and diagnostics == [("1:1", "DPS006"), ("14:15", "DPS502")]
    # Analyzed, the same comments on code that reports nothing are unused.
    idle = used.replace("np.frobnicate(x)", "x")
    assert found(run, idle) == (0, [("6:15", "DPS502"), ("10:15", "DPS502"), ("14:15", "DPS502")])
    code, diagnostics = found(run, idle + "def broken(:\n")
    assert code == 1 and diagnostics == [("14:15", "DPS502"), ("15:12", "DPS004")]
