"""Output formats, --output, --statistics, quiet/verbose, colour, select/ignore and exit codes."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from dpsens.codes import REGISTRY
from tests.lint.conftest import LEAKY, PRIVATE, SCALED, Run, child_env, write

SCHEMA = Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json"
# An unsupported statement on line 7 and two unknown calls on line 12.
MIXED = (
    "import numpy as np\nfrom dpsens import Real\n\n\n"
    "def f(x: Real) -> Real:\n"
    "    y = x\n"
    "    while y > 0: y = 2 * y\n"
    "    return y\n\n\n"
    "def g(x: Real) -> Real:\n    return np.frobnicate(x) * np.blah(x)\n"
)


def on_a_terminal(command: list[str], stream: str, env: dict[str, str]) -> str:
    """What a command writes to ``stream`` when that stream is a terminal (a pty)."""
    leader, follower = pty.openpty()
    other = {"stdout": "stderr", "stderr": "stdout"}[stream]
    process = subprocess.Popen(command, env=env, **{stream: follower, other: subprocess.DEVNULL})
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closes when the child exits
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert process.wait() in (0, 1)
    os.close(leader)
    return b"".join(chunks).decode()


@pytest.fixture
def mixed(project: Path) -> Path:
    write(project, {"pkg/mixed.py": MIXED, "pkg/leaky.py": LEAKY, "pkg/ok.py": PRIVATE})
    return project


def test_sarif_validates_against_the_schema(mixed: Path, run: Run) -> None:
    code, out, _ = run("check", "--no-cache", "--format", "sarif", "pkg")
    assert code == 1
    document = json.loads(out)
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(document)
    [sarif_run] = document["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(REGISTRY)
    for rule in rules:
        entry = REGISTRY[rule["id"]]
        assert rule["fullDescription"]["text"] == entry.what
        assert entry.why in rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] == entry.severity
    results = sarif_run["results"]
    assert {r["ruleId"] for r in results} == {"DPS201", "DPS203", "DPS403"}
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] in ("pkg/mixed.py", "pkg/leaky.py")
        assert location["region"]["startColumn"] >= 1
    unknown = next(r for r in results if r["ruleId"] == "DPS203"
                   and r["locations"][0]["physicalLocation"]["region"]["startLine"] == 12)
    # 'np.frobnicate(x)' starts at the 12th character of its line (1-based).
    assert unknown["locations"][0]["physicalLocation"]["region"]["startColumn"] == 12


def test_sarif_of_a_clean_run_is_valid(project: Path, run: Run) -> None:
    write(project, {"ok.py": PRIVATE})
    code, out, _ = run("check", "--no-cache", "--format", "sarif", "ok.py")
    assert code == 0
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(json.loads(out))
    assert json.loads(out)["runs"][0]["results"] == []


def test_github_annotations(mixed: Path, run: Run) -> None:
    code, out, _ = run("check", "--no-cache", "--format", "github", "pkg")
    assert code == 1
    lines = out.splitlines()
    assert ("::error file=pkg/mixed.py,line=12,col=12,endLine=12,endColumn=28,title=DPS203::"
            "call to 'numpy.frobnicate' has no dpsens rule or analyzable body") in lines
    assert all(re.fullmatch(r"::(error|warning|notice) file=[^,]+,line=\d+,col=[1-9]\d*"
                            r"(,endLine=\d+(,endColumn=\d+)?)?,title=DPS\d{3}::.+", line)
               for line in lines)


def test_paths_are_relative_to_the_repository_root(mixed: Path, run: Run,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from a subdirectory, GitHub annotations and SARIF URIs still name the file from
    the repository root (what GitHub and %SRCROOT% resolve against); the text report keeps
    the working directory's view."""
    (mixed / ".git").mkdir()
    monkeypatch.chdir(mixed / "pkg")
    _, github, _ = run("check", "--no-cache", "--format", "github", "mixed.py")
    assert github.startswith("::error file=pkg/mixed.py,line=7,")
    _, sarif, _ = run("check", "--no-cache", "--format", "sarif", "mixed.py")
    uris = {location["physicalLocation"]["artifactLocation"]["uri"]
            for result in json.loads(sarif)["runs"][0]["results"] for location in result["locations"]}
    assert uris == {"pkg/mixed.py"}
    _, text, _ = run("check", "--no-cache", "mixed.py")
    assert text.startswith("mixed.py")


def test_github_escapes_delimiters() -> None:
    from dpsens.diagnostics import Diagnostic
    from dpsens.report.github import annotation

    d = Diagnostic("a,b:c.py", 1, 1, "DPS502", "50% of\nit", "warning")
    assert annotation(d) == "::warning file=a%2Cb%3Ac.py,line=1,col=1,title=DPS502::50%25 of%0Ait"


def test_json_keeps_the_v1_shape(mixed: Path, run: Run) -> None:
    _, out, _ = run("check", "--no-cache", "--format", "json", "pkg")
    document = json.loads(out)
    assert set(document) == {"version", "files"} and document["version"] == 1
    assert [f["path"] for f in document["files"]] == ["pkg/leaky.py", "pkg/mixed.py", "pkg/ok.py"]
    for file in document["files"]:
        assert set(file) == {"path", "functions", "diagnostics"}
        for d in file["diagnostics"]:
            assert set(d) == {"code", "severity", "line", "column", "end_line", "end_column",
                              "message"}


def test_output_file_matches_stdout(mixed: Path, run: Run) -> None:
    _, printed, _ = run("check", "--no-cache", "--format", "json", "pkg")
    code, out, _ = run("check", "--no-cache", "--format", "json", "-o", "report.json", "pkg")
    assert code == 1 and out == ""
    assert (mixed / "report.json").read_text() == printed
    assert [p.name for p in mixed.iterdir() if p.name.startswith(".report")] == []


def test_failed_run_leaves_no_partial_output(mixed: Path, run: Run,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from dpsens.report import sarif

    (mixed / "report.sarif").write_text("previous report\n")

    def explode(result: object) -> str:
        raise MemoryError("out of memory while rendering")

    monkeypatch.setattr(sarif, "render", explode)
    with pytest.raises(MemoryError):
        run("check", "--no-cache", "--format", "sarif", "-o", "report.sarif", "pkg")
    assert (mixed / "report.sarif").read_text() == "previous report\n"
    assert sorted(p.name for p in mixed.iterdir()) == ["pkg", "report.sarif"]


@pytest.mark.parametrize(("argv", "message"), [
    (["-o", "missing/report.json"],
     "--output 'missing/report.json': directory 'missing' does not exist"),
    (["-o", "pkg"], "--output 'pkg' is a directory"),
    (["--statistics", "--format", "json"], "--statistics prints a text table; it cannot be "
                                           "combined with --format json"),
    (["--no-cache", "--cache-dir", "c"], "--no-cache and --cache-dir contradict each other"),
    (["-q", "-v"], "argument -v/--verbose: not allowed with argument -q/--quiet"),
    (["--select", "DPS9"], "--select: 'DPS9' is not a code or prefix of a code"),
    (["--jobs", "0"], "argument -j/--jobs: must be a positive integer, got 0"),
    (["--bind", "k"], "--bind expects NAME=NUMBER, got 'k'"),
    (["--stubs", "nowhere"], "--stubs 'nowhere' is not a directory"),
])
def test_bad_flags_exit_two(mixed: Path, run: Run, argv: list[str], message: str) -> None:
    code, out, err = run("check", *argv, "pkg")
    assert code == 2
    assert message in err and "Traceback" not in err and out == ""


def test_statistics(mixed: Path, run: Run) -> None:
    code, out, _ = run("check", "--no-cache", "--statistics", "pkg")
    assert code == 1
    assert out.splitlines() == [
        "2  DPS203  unknown-call",
        "1  DPS201  unsupported-statement",
        "1  DPS403  released-without-noise",
        "Found 4 errors in 2 files (checked 3 source files)",
    ]


def test_quiet_prints_diagnostics_only(mixed: Path, run: Run) -> None:
    _, out, _ = run("check", "--no-cache", "-q", "pkg")
    assert all(re.match(r"pkg/\w+\.py:\d+:\d+: DPS\d{3} ", line) for line in out.splitlines())
    assert len(out.splitlines()) == 4
    write(mixed, {"clean.py": SCALED})
    assert run("check", "--no-cache", "-q", "clean.py") == (0, "", "")


def test_verbose_reports_on_stderr(mixed: Path, run: Run) -> None:
    _, quiet_out, _ = run("check", "--no-cache", "pkg")
    code, out, err = run("check", "--no-cache", "-v", "pkg")
    assert code == 1 and out == quiet_out
    assert err.splitlines() == [
        "dpsens: config: none found", "dpsens: cache: off",
        "dpsens: 3 files checked, 0 paths excluded; 3 units analyzed, 0 from the cache; 1 job"]


def test_select_and_ignore_by_prefix(mixed: Path, run: Run) -> None:
    def codes(*argv: str) -> set[str]:
        out = run("check", "--no-cache", "-q", *argv, "pkg")[1]
        return set(re.findall(r"DPS\d{3}", out))

    assert codes("--select", "DPS2") == {"DPS201", "DPS203"}
    assert codes("--select", "dps2", "--ignore", "DPS203") == {"DPS201"}
    assert codes("--ignore", "DPS2") == {"DPS403"}
    assert codes("--ignore", "DPS2", "--select", "DPS203,DPS4") == {"DPS203", "DPS403"}
    assert run("check", "--no-cache", "--ignore", "DPS2,DPS4", "pkg")[0] == 0


def test_colour_only_on_a_terminal_and_never_with_no_color(mixed: Path) -> None:
    def on_terminal(**env: str) -> str:
        command = [sys.executable, "-m", "dpsens", "check", "--no-cache", "pkg"]
        return on_a_terminal(command, "stdout", child_env(**env))

    coloured = on_terminal()
    assert "\x1b[1m\x1b[31mDPS403\x1b[0m" in coloured
    assert "\x1b[" not in on_terminal(NO_COLOR="1")
    piped = subprocess.run([sys.executable, "-m", "dpsens", "check", "--no-cache", "pkg"],
                           capture_output=True, text=True, env=child_env())
    assert "\x1b[" not in piped.stdout and "DPS403" in piped.stdout


def test_no_absolute_paths_or_timings(mixed: Path, run: Run) -> None:
    for form in ("text", "json", "sarif", "github"):
        code, out, err = run("check", "--format", form, "-v", "pkg", str(mixed / "pkg" / "ok.py"))
        assert code == 1
        assert str(mixed) not in out + err and str(Path.home()) not in out + err
        assert not re.search(r"\d+(\.\d+)? ?(s|ms|seconds)\b", out + err)


def test_warnings_alone_exit_zero(project: Path, run: Run) -> None:
    write(project, {"ok.py": SCALED.replace("return c * x", "return c * x  # dpsens: ignore")})
    code, out, _ = run("check", "--no-cache", "ok.py")
    assert code == 0 and "DPS502" in out and "Success: no errors found" in out


def test_internal_error_exits_two(project: Path, run: Run,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from dpsens.infer import program

    def explode(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(program, "summarize", explode)
    write(project, {"ok.py": SCALED})
    code, out, _ = run("check", "ok.py")
    assert code == 2 and "DPS001" in out
    monkeypatch.undo()
    monkeypatch.chdir(project)
    code, out, _ = run("check", "ok.py")  # the crash was not cached
    assert code == 0 and "DPS001" not in out


def test_progress_bar_only_on_a_terminal_for_many_files(project: Path) -> None:
    write(project, {f"many/m{i:02}.py": SCALED for i in range(25)})
    command = [sys.executable, "-m", "dpsens", "check", "--no-cache", "many"]

    def stderr_on_terminal(*flags: str) -> str:
        return on_a_terminal([*command, *flags], "stderr", child_env())

    drawn = stderr_on_terminal()
    assert "\ranalyzing [" in drawn and "] 25/25" in drawn and drawn.endswith("\r\x1b[K")
    assert stderr_on_terminal("-q") == ""
    piped = subprocess.run(command, capture_output=True, text=True, env=child_env())
    assert piped.returncode == 0 and piped.stderr == ""


def test_sarif_execution_fails_exactly_when_the_exit_code_is_two(
        project: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """executionSuccessful is false for every incomplete analysis: a crash (DPS001), the time
    limit (DPS005), the size limit (DPS006); findings alone (exit 1) are a successful run."""
    from dpsens.infer import program
    from tests.lint.test_limits import MANY

    schema = json.loads(SCHEMA.read_text())

    def sarif(*argv: str) -> tuple[int, bool]:
        code, out, _ = run("check", "--no-cache", "--format", "sarif", *argv)
        document = json.loads(out)
        jsonschema.Draft4Validator(schema).validate(document)
        [invocation] = document["runs"][0]["invocations"]
        return code, invocation["executionSuccessful"]

    write(project, {"ok.py": PRIVATE, "leaky.py": LEAKY, "big.py": SCALED + "\n# padding\n" * 200,
                    "many.py": MANY})
    assert sarif("ok.py") == (0, True)
    assert sarif("leaky.py") == (1, True)
    assert sarif("--max-file-size", "1000", "big.py") == (2, False)  # DPS006
    assert sarif("--timeout", "0.05", "many.py") == (2, False)  # DPS005

    def explode(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(program, "summarize", explode)
    assert sarif("ok.py") == (2, False)  # DPS001


def test_json_end_positions_are_one_based_or_null(mixed: Path, run: Run) -> None:
    """Whole-file problems (DPS002/003/004) and suppression comments have no known end:
    null, never 0; known ends are 1-based and not before the start."""
    (mixed / "pkg" / "latin.py").write_bytes(b"from dpsens import Real\n# caf\xe9\n")
    unused = SCALED.replace("return c * x", "return c * x  # dpsens: ignore")
    write(mixed, {"pkg/syntax.py": "from dpsens import Real\ndef f(:\n", "pkg/unused.py": unused})
    _, out, _ = run("check", "--no-cache", "--format", "json", "pkg", "pkg/missing.py")
    every = [d for file in json.loads(out)["files"] for d in file["diagnostics"]]
    found = {d["code"]: d for d in every}
    assert {"DPS002", "DPS003", "DPS004", "DPS502", "DPS203"} <= set(found)
    for code in ("DPS002", "DPS003", "DPS004", "DPS502"):
        assert found[code]["end_line"] is None and found[code]["end_column"] is None, found[code]
    for d in every:
        assert d["line"] >= 1 and d["column"] >= 1
        if d["end_line"] is not None:
            assert d["end_line"] >= d["line"] and d["end_column"] >= 1
    spans = {(d["line"], d["column"], d["end_line"], d["end_column"])
             for d in every if d["code"] == "DPS203"}
    assert (12, 12, 12, 28) in spans  # 'np.frobnicate(x)'
