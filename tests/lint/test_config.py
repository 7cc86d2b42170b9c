"""[tool.dpsens] in pyproject.toml: found by walking up, applied, and rejected when wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lint.conftest import PRIVATE, SCALED, Run, pyproject, write

MEAN = (
    "from dpsens import Data, L_inf, MetricMatrix, Real, Static\n"
    "import numpy as np\n\n\n"
    "def mean(data: MetricMatrix[L_inf, Data], upper: Static[float]) -> Real:\n"
    "    return float(np.mean(np.clip(data[:, 0], 0.0, upper)))\n"
)


def sensitivities(out: str) -> dict[str, dict[str, str]]:
    document = json.loads(out)
    return {f["qualname"]: {p["name"]: p.get("sensitivity", p.get("epsilon", "static"))
                            for p in f["params"]}
            for file in document["files"] for f in file["functions"]}


def test_config_is_found_above_the_checked_path(project: Path, run: Run,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pyproject(project, 'bindings = {"rows(data)" = 100, "upper" = 2}')
    write(project, {"src/stats/mean.py": MEAN})
    # A nested pyproject.toml without [tool.dpsens] (a sub-package's packaging) is passed over.
    (project / "src" / "pyproject.toml").write_text("[project]\nname = 'inner'\n")
    monkeypatch.chdir(project / "src")
    code, out, _ = run("check", "--no-cache", "--format", "json", "stats/mean.py")
    assert code == 0
    assert sensitivities(out)["mean"]["data"] == "1/50"


def test_without_config_the_result_stays_symbolic(project: Path, run: Run) -> None:
    write(project, {"mean.py": MEAN})
    code, out, _ = run("check", "--no-cache", "--format", "json", "mean.py")
    assert code == 0
    assert sensitivities(out)["mean"]["data"] == "abs(upper)/rows(data)"


def test_command_line_bindings_override_the_config(project: Path, run: Run) -> None:
    pyproject(project, 'bindings = {"rows(data)" = 100, "upper" = 2}')
    write(project, {"mean.py": MEAN})
    _, out, _ = run("check", "--no-cache", "--format", "json", "--bind", "upper=5", "mean.py")
    assert sensitivities(out)["mean"]["data"] == "1/20"


@pytest.mark.dp_accounting
def test_delta_prime_from_the_config(project: Path, run: Run) -> None:
    source = (Path(__file__).parents[1] / "cases" / "privacy.py").read_text()
    write(project, {"privacy.py": source})
    pyproject(project, "delta_prime = 1e-3")
    _, out, _ = run("check", "--no-cache", "--format", "json", "privacy.py")
    [function] = [f for file in json.loads(out)["files"] for f in file["functions"]
                  if f["name"] == "hundred_laplace"]
    assert function["params"][0]["delta"] == "1/1000"


def test_stub_directories_are_relative_to_the_config(project: Path, run: Run,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pyproject(project, 'stubs = ["typings"]')
    write(project, {
        "typings/mylib.pyi": "from dpsens import Real\nfrom dpsens.stub import sensitivity\n\n"
                             "@sensitivity(x=\"1/2\")\ndef halve(x: Real) -> Real: ...\n",
        "app/use.py": "import mylib\nfrom dpsens import Real\n\n\ndef f(x: Real) -> Real:\n"
                      "    return mylib.halve(x)\n",
    })
    monkeypatch.chdir(project / "app")
    code, out, _ = run("check", "--no-cache", "--format", "json", "use.py")
    assert code == 0, out
    assert sensitivities(out)["f"]["x"] == "1/2"


def test_a_broken_stub_file_is_reported_not_skipped(project: Path, run: Run) -> None:
    """Its rules would be missing without a word: calls to its functions look unknown."""
    write(project, {"typings/ok.pyi": "def fine(x: int) -> int: ...\n",
                    "typings/broken.pyi": "def halve(x: Real -> Real: ...\n",
                    "use.py": SCALED})
    code, out, _ = run("check", "--no-cache", "--stubs", "typings", "use.py")
    assert code == 1
    assert "typings/broken.pyi:1:19: DPS004 syntax error" in out
    assert "ok.pyi" not in out


def test_select_and_ignore_from_the_config(project: Path, run: Run) -> None:
    pyproject(project, 'ignore = ["DPS4"]')
    write(project, {"leak.py": "from dpsens import Priv, Real\n\n\ndef leak(x: Real) -> "
                               "Priv[Real]:\n    return x\n"})
    code, out, _ = run("check", "--no-cache", "leak.py")
    assert code == 0 and "DPS403" not in out
    code, out, _ = run("check", "--no-cache", "--select", "DPS403", "leak.py")
    assert code == 1 and "DPS403" in out  # --select replaces the config's selection


@pytest.mark.parametrize(("table", "message"), [
    ("exclud = ['x']", "unknown key 'tool.dpsens.exclud' (did you mean 'exclude'?)"),
    ("delta_prime = 2", "'tool.dpsens.delta_prime' must be in (0, 1), got 2"),
    ("beta = 'high'", "'tool.dpsens.beta' must be a number, got 'high'"),
    ("exclude = 'build'", "'tool.dpsens.exclude' must be a list of strings"),
    ("stubs = ['missing']", "'tool.dpsens.stubs' names 'missing', which is not a directory"),
    ("select = ['DPS9']", "'tool.dpsens.select' 'DPS9' is not a code or prefix of a code"),
    ("bindings = {k = true}", "'tool.dpsens.bindings.\"k\"' must be a number, got True"),
    ('budget = {"dp_*" = {epsilon = -1}}',
     "'tool.dpsens.budget.\"dp_*\".epsilon' must not be negative"),
    ('budget = {"dp_*" = {eps = 1}}', "'tool.dpsens.budget.\"dp_*\".eps' is unknown"),
    ('budget = {"dp_*" = 3}', "'tool.dpsens.budget.\"dp_*\"' must be a table"),
    ("include = [", "pyproject.toml: invalid TOML"),
])
def test_bad_config_exits_two_and_names_the_key(project: Path, run: Run, table: str,
                                               message: str) -> None:
    pyproject(project, table)
    write(project, {"ok.py": SCALED})
    code, out, err = run("check", "--no-cache", "--output", "report.txt", "ok.py")
    assert code == 2
    assert message in err and err.startswith("dpsens: error: pyproject.toml")
    assert "Traceback" not in err and out == ""
    assert not (project / "report.txt").exists()


def test_explicit_config_file(project: Path, run: Run) -> None:
    (project / "ci.toml").write_text("[tool.dpsens]\nignore = ['DPS403']\n")
    write(project, {"leak.py": PRIVATE.replace("laplace_mechanism(1, eps, x)", "x")})
    assert run("check", "--no-cache", "leak.py")[0] == 1
    assert run("check", "--no-cache", "--config", "ci.toml", "leak.py")[0] == 0
    code, _, err = run("check", "--config", "nope.toml", "leak.py")
    assert code == 2 and "--config 'nope.toml' is not a file" in err


@pytest.mark.parametrize(("content", "message"), [
    pytest.param(b"tool = 3\n", "'tool' must be a table, got an integer", id="tool-int"),
    pytest.param(b'tool = "dpsens"\n', "'tool' must be a table, got a string", id="tool-str"),
    pytest.param(b"[tool]\ndpsens = 3\n", "[tool.dpsens] must be a table", id="dpsens-int"),
    pytest.param(b"[tool.dpsens]\n# caf\xe9\n",
                 "invalid TOML: not UTF-8 text (byte 0xe9 on line 2)", id="latin-1"),
    pytest.param(b"x = " + b"[" * 20000 + b"]" * 20000 + b"\n",
                 "invalid TOML: nested too deeply", id="deep"),
])
@pytest.mark.parametrize("where", [".", ".."])
def test_malformed_pyproject_is_a_config_error(project: Path, run: Run, content: bytes,
                                               message: str, where: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Shapes tomllib accepts but a pyproject must not have, and bytes it cannot decode:
    exit 2 and one line naming the file, also for a parent's file found by discovery."""
    (project / "pyproject.toml").write_bytes(content)
    write(project, {"sub/ok.py": SCALED})
    monkeypatch.chdir(project / "sub" / where)
    code, out, err = run("check", "--no-cache", "ok.py" if where == "." else "sub/ok.py")
    shown = "../pyproject.toml" if where == "." else "pyproject.toml"
    assert code == 2, err
    assert err.startswith(f"dpsens: error: {shown}: {message}")
    assert err.count("\n") == 1 and "Traceback" not in err and out == ""


# --- dpsens audit reads the same configuration as check --------------------------------------

EXPIT_STUB = (
    "from dpsens import Real\nfrom dpsens.stub import sensitivity\n\n\n"
    "@sensitivity(x=\"1/100\")\ndef expit(x: Real) -> Real: ...\n"  # wrong: the slope is 1/4
)
EXPIT_USE = (
    "import scipy.special\nfrom dpsens import Real\n\n\n"
    "def g(x: Real) -> Real:\n    return float(scipy.special.expit(x))\n"
)


def test_audit_uses_the_configured_stubs(project: Path, run: Run,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    pyproject(project, 'stubs = ["typings"]')
    write(project, {"typings/scipy.special.pyi": EXPIT_STUB, "app/lie.py": EXPIT_USE})
    monkeypatch.chdir(project / "app")  # the config is found above the audited file
    code, out, err = run("audit", "lie.py::g", "--seed", "1", "--trials", "50")
    assert code == 1, out + err
    assert "claimed sensitivity 1/100" in out and "counterexample: g is more than 0.01" in out


def test_audit_stubs_and_config_flags(project: Path, run: Run) -> None:
    write(project, {"typings/scipy.special.pyi": EXPIT_STUB, "lie.py": EXPIT_USE})
    code, out, _ = run("audit", "lie.py::g", "--seed", "1", "--trials", "50")
    assert code == 2 and "cannot draw or measure" in out  # no stub: expit is unknown
    code, out, _ = run("audit", "lie.py::g", "--seed", "1", "--trials", "50", "--stubs", "typings")
    assert code == 1 and "counterexample" in out
    (project / "ci.toml").write_text("[tool.dpsens]\nstubs = ['typings']\n")
    code, out, _ = run("audit", "lie.py::g", "--seed", "1", "--trials", "50", "--config", "ci.toml")
    assert code == 1 and "counterexample" in out


def test_audit_uses_the_configured_bindings_and_flags_win(project: Path, run: Run) -> None:
    pyproject(project, 'bindings = {c = 2}')
    write(project, {"scaled.py": SCALED})
    code, out, _ = run("audit", "scaled.py::scaled", "--seed", "1", "--trials", "20")
    assert code == 0, out
    assert "c=2.0" in out and "claimed sensitivity 2\n" in out
    for flag in ("c=3", "scaled.c=3"):
        code, out, _ = run("audit", "scaled.py::scaled", "--seed", "1", "--trials", "20",
                           "--bind", flag)
        assert code == 0, out
        assert "c=3.0" in out and "claimed sensitivity 3\n" in out


@pytest.mark.parametrize(("table", "argv", "message"), [
    ("exclud = ['x']", [], "pyproject.toml: unknown key 'tool.dpsens.exclud'"),
    ("", ["--stubs", "missing"], "--stubs 'missing' is not a directory"),
    ("", ["--config", "nope.toml"], "--config 'nope.toml' is not a file"),
    ("", ["--bind", "c"], "--bind expects NAME=NUMBER, got 'c'"),
])
def test_audit_config_errors_exit_two(project: Path, run: Run, table: str, argv: list[str],
                                      message: str) -> None:
    pyproject(project, table)
    write(project, {"scaled.py": SCALED})
    code, out, err = run("audit", "scaled.py::scaled", "--seed", "1", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"dpsens: error: {message}") and err.count("\n") == 1


# --- bindings: sizes are positive whole numbers; a --bind that matches nothing is a warning --

@pytest.mark.parametrize("key", ["rows(data)", "mean.rows(data)", "mean.mean.cols(data)",
                                 "len(data)"])
@pytest.mark.parametrize("value", ["-5", "0", "0.5", "1e400"])
def test_size_bindings_must_be_positive_whole_numbers(project: Path, run: Run, key: str,
                                                      value: str) -> None:
    write(project, {"mean.py": MEAN})
    code, out, err = run("check", "--no-cache", "--bind", f"{key}={value}", "mean.py")
    assert code == 2 and out == ""
    shown = f"{float(value):g}"
    assert err == (f"dpsens: error: --bind '{key}={value}': {key} is a size and must be a "
                   f"positive whole number, got {shown}\n")
    code, out, err = run("audit", "mean.py::mean", "--bind", f"{key}={value}")
    assert code == 2 and out == "" and f"{key} is a size and must be" in err  # before running
    pyproject(project, f'bindings = {{"{key}" = {value if value != "1e400" else "inf"}}}')
    code, out, err = run("check", "--no-cache", "mean.py")
    assert code == 2 and out == ""
    assert err == (f"dpsens: error: pyproject.toml: 'tool.dpsens.bindings.\"{key}\"' is a size "
                   f"and must be a positive whole number, got {shown}\n")


def test_static_bindings_must_be_finite(project: Path, run: Run) -> None:
    """eps = inf was taken, and became a mechanism with scale inf (DPS406)."""
    write(project, {"mean.py": MEAN})
    code, out, err = run("check", "--no-cache", "--bind", "upper=inf", "mean.py")
    assert code == 2 and out == "" and "a static value must be a finite number" in err
    pyproject(project, 'bindings = {"upper" = inf}')
    code, out, err = run("check", "--no-cache", "mean.py")
    assert code == 2 and out == "" and "must be a finite number, got inf" in err


def test_valid_size_bindings_and_nan(project: Path, run: Run) -> None:
    write(project, {"mean.py": MEAN})
    code, out, _ = run("check", "--no-cache", "--format", "json", "--bind", "rows(data)=1e2",
                       "--bind", "upper=2", "mean.py")
    assert code == 0 and sensitivities(out)["mean"]["data"] == "1/50"
    code, _, err = run("check", "--no-cache", "--bind", "upper=nan", "mean.py")
    assert code == 2 and "--bind expects NAME=NUMBER, got 'upper=nan'" in err


def test_a_binding_that_matches_nothing_is_a_warning(project: Path, run: Run) -> None:
    write(project, {"pkg/__init__.py": "", "pkg/mean.py": MEAN})
    matching = ["upper=2", "rows(data)=100", "mean.upper=2", "pkg.mean.mean.cols(data)=3"]
    code, _, err = run("check", "--no-cache", *(f"--bind={b}" for b in matching), "pkg")
    assert code == 0 and err == ""
    code, out, err = run("check", "--no-cache", "--bind", "x.y.z=1", "--bind", "rows(dta)=4",
                         "--bind", "mean.eps=1", "--bind", "upper=2", "pkg")
    assert code == 0 and "mean (line 5)" in out  # the exit code and the report are unchanged
    assert err.splitlines() == [
        f"dpsens: warning: binding '{key}' matches nothing: no checked function has such a "
        "parameter or size" for key in ("x.y.z", "rows(dta)", "mean.eps")]
    # The configuration's bindings are project-wide: a run over some files does not warn.
    pyproject(project, 'bindings = {"other.k" = 1}')
    assert run("check", "--no-cache", "pkg")[2] == ""
    # A file that was not analyzed may hold the match: no warning then.
    write(project, {"pkg/broken.py": "import dpsens\ndef f(:\n"})
    code, _, err = run("check", "--no-cache", "--bind", "x.y.z=1", "pkg")
    assert code == 1 and err == ""
