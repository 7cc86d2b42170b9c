"""The command line as a user meets it: reports, formats, exit codes, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dpsens.cli import main
from dpsens.codes import REGISTRY, explain

GOOD = "from dpsens import Real, Static\n\ndef f(x: Real, c: Static[float]) -> Real:\n    return c * x\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return str(path)


def test_clean_file_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", write(tmp_path, "ok.py", GOOD))
    assert code == 0
    assert "x: Real -- sensitivity abs(c)" in out
    assert out.strip().endswith("Success: no errors found (checked 1 source file)")


def test_json_report_has_the_v1_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--format", "json", write(tmp_path, "ok.py", GOOD))
    document = json.loads(out)
    assert code == 0 and document["version"] == 1
    [file] = document["files"]
    [function] = file["functions"]
    assert function == {
        "name": "f", "qualname": "f", "line": 3, "kind": "sensitivity",
        "params": [
            {"name": "x", "type": "Real", "static": False, "sensitivity": "abs(c)"},
            {"name": "c", "type": "Static[float]", "static": True},
        ],
        "returns": "Real", "assumptions": [],
    }
    assert file["diagnostics"] == []


def test_output_has_no_absolute_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "ok.py", GOOD)
    _, out, _ = run(capsys, "check", "--format", "json", path)
    [file] = json.loads(out)["files"]
    assert not file["path"].startswith("/") and file["path"].endswith("ok.py")


def test_syntax_error_is_a_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", "import dpsens\ndef f(x:\n")
    code, out, _ = run(capsys, "check", path)
    assert code == 1
    assert ":2:" in out and "DPS004 syntax error" in out


def test_non_utf8_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "latin.py", b"import dpsens\nname = '\xe9'\n")
    code, out, _ = run(capsys, "check", path)
    assert code == 1
    assert ":2:9: DPS003" in out


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(tmp_path / "nope.py"))
    assert code == 1
    assert "DPS002" in out


def test_bad_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = (
        "from dpsens import MetricMatrix, L1, Real\n"
        "def f(x: MetricMatrix[Real, L1], y: Frobnicate) -> Real:\n"
        "    return 1.0\n"
    )
    code, out, _ = run(capsys, "check", write(tmp_path, "ann.py", source))
    assert code == 1
    assert ":2:10: DPS102" in out and ":2:37: DPS101 unknown annotation 'Frobnicate'" in out


def test_a_method_using_the_vocabulary_is_an_error_not_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Classes are outside the analyzable subset: a method whose signature uses the
    vocabulary was left out of the report with exit 0 (a '*' budget did not see it)."""
    source = (
        "import numpy as np\nfrom dpsens import Data, L_inf, MetricMatrix, Priv, Real, Static\n\n"
        "class Model:\n"
        "    def release(self, data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:\n"
        "        return float(np.sum(data))\n\n"
        "    def plain(self, n: int) -> int:\n        return n\n")
    path = write(tmp_path, "cls.py", source)
    write(tmp_path, "pyproject.toml", '[tool.dpsens.budget]\n"*" = { epsilon = 1.0 }\n')
    code, out, _ = run(capsys, "check", "--no-cache", "--format", "json", path)
    [file] = json.loads(out)["files"]
    assert code == 1 and file["functions"] == []
    [diagnostic] = file["diagnostics"]
    assert (diagnostic["line"], diagnostic["code"]) == (5, "DPS201")
    assert "method 'Model.release' is not analyzed" in diagnostic["message"]
    assert "module-level function" in diagnostic["message"]
    assert "method of a class" in (explain("DPS201") or "")


def test_usage_error_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--format", "yaml"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_explain_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    for code in REGISTRY:
        text = explain(code)
        assert text is not None
        for heading in ("## What it does", "## Why", "## Example"):
            assert heading in text
    assert run(capsys, "explain", "dps201")[0] == 0
    assert run(capsys, "explain", "DPS999")[0] == 2


def test_explain_lists_the_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a code, or with a prefix, explain lists codes, one line each."""
    code, out, _ = run(capsys, "explain")
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == sorted(REGISTRY)
    code, out, _ = run(capsys, "explain", "DPS4")
    assert code == 0 and out.splitlines() and all(line.startswith("DPS4") for line in out.splitlines())
    assert "DPS403  error    released-without-noise: " in out


def test_every_code_is_used_in_the_sources() -> None:
    sources = "".join(p.read_text() for p in Path("dpsens").rglob("*.py") if p.name != "codes.py")
    unused = [code for code in REGISTRY if f'"{code}"' not in sources]
    assert not unused


def test_module_entry_point(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.py", GOOD)
    result = subprocess.run([sys.executable, "-m", "dpsens", "check", path],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


def test_the_fast_exit_delivers_the_whole_report_and_the_exit_code(tmp_path: Path) -> None:
    """run() ends with os._exit: buffered output must be flushed first, the code kept."""
    files = {f"m{i}.py": GOOD.replace("def ", f"def f{i}_") for i in range(40)}
    for name, text in files.items():
        write(tmp_path, name, text)
    write(tmp_path, "bad.py", "from dpsens import Real\ndef broken(:\n")
    result = subprocess.run([sys.executable, "-m", "dpsens", "check", "--no-cache", "--format",
                             "json", str(tmp_path)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 1
    report = json.loads(result.stdout)  # complete: the last byte of a large report arrived
    assert len(report["files"]) == 41


def test_a_closed_pipe_is_not_a_traceback(tmp_path: Path) -> None:
    for i in range(30):
        write(tmp_path, f"m{i}.py", GOOD)
    child = subprocess.Popen([sys.executable, "-m", "dpsens", "check", "--no-cache", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.readline()
    child.stdout.close()  # like `dpsens check | head -1`
    child.wait(timeout=60)
    assert b"Traceback" not in child.stderr.read()


def test_internal_error_is_reported_not_raised(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from dpsens.infer import program

    def explode(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(program, "summarize", explode)
    code, out, _ = run(capsys, "check", write(tmp_path, "ok.py", GOOD))
    assert code == 2
    assert "DPS001 internal error while analyzing 'f': RuntimeError: boom" in out
