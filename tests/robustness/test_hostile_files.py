"""Hostile and odd files: each gives a coded diagnostic with a location, or the normal
report, and never a crash or a traceback.

Files that are fine for Python (BOM, CRLF, CR, tabs, a coding cookie) must
give exactly the report of the plain file, diagnostics on the same lines.
Files Python rejects (binary, bad encodings, mixed indentation, NUL, newer
syntax) must give DPS003/DPS004 with a line and column.

``KNOWN`` lists the inputs that crashed or hung the analyzer (found by this
suite and reported).  They run in a child process (a native stack overflow
kills the interpreter); those not fixed yet are listed in ``STILL_BROKEN`` and
xfail, every other one is a regression test that fails if it breaks again.  Slow
ones only run with
DPSENS_ROBUSTNESS_LONG=1.  Inputs that still take too long (20 nested loops
are analyzed in time exponential in the depth) end with the per-file time
limit, DPS005, and 5 MB modules with the size limit, DPS006.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.robustness.harness import ROOT, Outcome, analyze, analyze_isolated

LONG = bool(os.environ.get("DPSENS_ROBUSTNESS_LONG"))

PLAIN = """\
from dpsens import Real, Static


def scale(x: Real, c: Static[float]) -> Real:
    return c * x


def broken(x: Real) -> Real:
    while x > 0:
        x = x - 1.0
    return x
"""
HEADER = "from dpsens import Real\n\n\ndef f(x: Real) -> Real:\n"


def _write(tmp_path: Path, name: str, content: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def _clean(outcome: Outcome) -> None:
    assert not outcome.problems(), outcome.problems()


def _summary(outcome: Outcome) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, str]]]:
    """Diagnostics and function reports without paths: comparable across files."""
    return ([(c, line, col) for c, line, col, _ in outcome.diagnostics],
            [(f["name"], f["line"], str(f["params"])) for f in outcome.functions])


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, str]]]:
    outcome = analyze(_write(tmp_path_factory.mktemp("plain"), "plain.py", PLAIN))
    _clean(outcome)
    assert outcome.codes == {"DPS201"}  # the while loop, line 9
    return _summary(outcome)


# --- files Python accepts: the same report as the plain file ------------------------------------

SAME_AS_PLAIN: dict[str, Callable[[bytes], bytes]] = {
    "utf-8 BOM": lambda b: b"\xef\xbb\xbf" + b,
    "CRLF line endings": lambda b: b.replace(b"\n", b"\r\n"),
    "CR line endings": lambda b: b.replace(b"\n", b"\r"),
    "tab indentation": lambda b: b.replace(b"    ", b"\t"),
    "latin-1 with a coding cookie": lambda b: b"# -*- coding: latin-1 -*-\n" + b.replace(
        b"from dpsens", b"# caf\xe9\nfrom dpsens", 1).replace(b"\n\n\ndef scale", b"\ndef scale", 1),
    "trailing whitespace and no final newline": lambda b: b.replace(b"\n", b"   \n").rstrip(),
    "form feed between functions": lambda b: b.replace(b"\n\n\ndef broken", b"\n\n\x0c\ndef broken"),
}


@pytest.mark.parametrize("variant", SAME_AS_PLAIN, ids=list(SAME_AS_PLAIN))
def test_python_accepted_variant_gives_the_plain_report(variant: str, tmp_path: Path, plain: tuple) -> None:  # type: ignore[type-arg]
    outcome = analyze(_write(tmp_path, "variant.py", SAME_AS_PLAIN[variant](PLAIN.encode())))
    _clean(outcome)
    diagnostics, functions = _summary(outcome)
    if variant == "tab indentation":  # columns count characters: a tab is one
        diagnostics = [(c, line, col + 3 if col == 2 else col) for c, line, col in diagnostics]
    assert (diagnostics, functions) == plain


# --- files Python rejects: a coded diagnostic with a location -----------------------------------

REJECTED: dict[str, tuple[bytes, str, int | None]] = {
    # name: (content, expected code or codes, expected line or None)
    "binary": (bytes(range(256)) * 8, "DPS003", None),
    "latin-1 without a cookie": (b"# dpsens\n\nname = 'caf\xe9'\n", "DPS003", 3),
    # Within the first two lines Python's encoding detection fails first: located at 1:1.
    "latin-1 in the first two lines": (b"# dpsens\nname = 'caf\xe9'\n", "DPS003", None),
    "unknown coding cookie": (b"# -*- coding: klingon -*-\nimport dpsens\n", "DPS003", 1),
    "utf-16 without a cookie": ("import dpsens\n".encode("utf-16"), "DPS003", None),
    "NUL byte": (b"import dpsens\nx = 1\x00\n", "DPS004", 2),  # where it is
    "mixed tabs and spaces": (b"from dpsens import Real\n\ndef f(x: Real) -> Real:\n    y = x\n\treturn y\n",
                              "DPS004", 5),
    "unterminated string": (b"import dpsens\ns = '''never closed\n", "DPS004", None),
    "lone surrogate escape": (b"import dpsens\ns = '\xed\xa0\x80'\n", "DPS003", 2),
    "10,000 nested ifs": (("from dpsens import Real\n\ndef f(x: Real) -> Real:\n" + "".join(
        " " * (4 + i) + f"if x > {i}:\n" for i in range(10_000)) + " " * 10_004 + "x = 1.0\n"
        + "    return x\n").encode(), "DPS006", None),  # 50 MB of indentation: over the size limit
    "PEP 701 f-string quotes (3.12)": (HEADER.encode() + b"    s = f\"{\"a\"}\"\n    return x\n",
                                       "DPS004 DPS202", None),
}
if sys.version_info < (3, 12):  # newer syntax: Python 3.11 cannot parse it at all
    REJECTED["PEP 695 type alias"] = (PLAIN.encode() + b"\ntype Vector = list[float]\n", "DPS004", 13)
    REJECTED["PEP 695 generic function"] = (b"from dpsens import Real\n\n\ndef f[T](x: T) -> T:\n    return x\n",
                                            "DPS004", 4)


@pytest.mark.parametrize("name", REJECTED, ids=list(REJECTED))
def test_rejected_file_gives_a_located_diagnostic(name: str, tmp_path: Path) -> None:
    content, code, line = REJECTED[name]
    outcome = analyze(_write(tmp_path, "hostile.py", content))
    _clean(outcome)
    assert outcome.codes & set(code.split()), outcome.diagnostics
    if line is not None:
        assert any(d[0] in code.split() and d[1] == line for d in outcome.diagnostics), outcome.diagnostics


NEWER_SYNTAX = {
    "match statement": HEADER + "    match x:\n        case 1.0:\n            return x\n        case _:\n"
                                "            return 2.0 * x\n",
    "except star": HEADER + "    try:\n        y = x\n    except* ValueError:\n        y = x\n    return y\n",
    "walrus": HEADER + "    if (y := 2.0 * x) > 0:\n        return y\n    return x\n",
    "positional-only and keyword-only": "from dpsens import Real\n\n\ndef f(x: Real, /, *, y: Real) -> Real:\n"
                                        "    return x + y\n",
    "async def": "from dpsens import Real\n\n\nasync def f(x: Real) -> Real:\n    return x\n",
    "decorated class": "import dpsens\n\n\n@dpsens.stub.rule('x')\nclass C:\n    def m(self) -> None:\n"
                       "        pass\n",
}


@pytest.mark.parametrize("name", NEWER_SYNTAX, ids=list(NEWER_SYNTAX))
def test_newer_or_unsupported_syntax_is_a_located_finding(name: str, tmp_path: Path) -> None:
    outcome = analyze(_write(tmp_path, "newer.py", NEWER_SYNTAX[name]))
    _clean(outcome)


def test_empty_file(tmp_path: Path) -> None:
    outcome = analyze(_write(tmp_path, "empty.py", b""))
    _clean(outcome)
    assert outcome.diagnostics == [] and outcome.functions == []


def test_five_megabyte_comment_and_string(tmp_path: Path) -> None:
    """Over the size limit: DPS006 at once; with the limit lifted, the normal report."""
    from dpsens.check import Settings

    body = PLAIN + "# " + "x" * 2_500_000 + "\nTEXT = '" + "y" * 2_500_000 + "'\n"
    path = _write(tmp_path, "big.py", body)
    limited = analyze(path, seconds=10)
    _clean(limited)
    assert [(d[0], d[1]) for d in limited.diagnostics] == [("DPS006", 1)] and not limited.functions
    outcome = analyze(path, settings=Settings(max_file_size=None))
    _clean(outcome)
    assert {f["name"] for f in outcome.functions} == {"scale", "broken"}


@pytest.mark.parametrize("name,source", [
    ("5 MB module of 100,000 functions", "from dpsens import Real\n" + "".join(
        f"def g{i}(x: Real) -> Real:\n    return x + {i}.0\n" for i in range(100_000))),
    ("5 MB constant table", "from dpsens import Real\n\nTABLE = [\n" + "".join(
        f"    {i}.5,\n" for i in range(380_000)) + "]\n\n\ndef f(x: Real) -> Real:\n    return 2.0 * x\n"),
])
def test_five_megabyte_generated_modules_are_refused_quickly(name: str, source: str,
                                                             tmp_path: Path) -> None:
    """Without the limit LibCST takes 40-75 s and 3-4 GB on these (found by this suite)."""
    outcome = analyze(_write(tmp_path, "generated.py", source), seconds=10)
    _clean(outcome)
    assert [d[0] for d in outcome.diagnostics] == ["DPS006"]
    assert "above the 1.0 MB limit" in outcome.diagnostics[0][3]


# --- directories -----------------------------------------------------------------------------------


def test_symlink_loop_in_a_directory(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    _write(tmp_path / "pkg" / "sub", "mod.py", PLAIN)
    (tmp_path / "pkg" / "sub" / "back").symlink_to(tmp_path / "pkg", target_is_directory=True)
    outcome = analyze(tmp_path / "pkg")
    _clean(outcome)
    assert sorted(f["name"] for f in outcome.functions) == ["broken", "scale"]  # once, not forever


@pytest.mark.parametrize("name", ["self.py", "selfdir"])
def test_self_referential_symlink_in_a_directory(name: str, tmp_path: Path) -> None:
    """Known (reported): the walk resolves the link and pathlib raises 'Symlink loop'."""
    _write(tmp_path, "mod.py", PLAIN)
    (tmp_path / name).symlink_to(tmp_path / name)
    outcome = analyze(tmp_path)
    if outcome.problems():
        pytest.xfail(f"RuntimeError escapes check_paths: {outcome.problems()[0]}")
    assert sorted(f["name"] for f in outcome.functions) == ["broken", "scale"]


def test_file_symlink_to_itself(tmp_path: Path) -> None:
    loop = tmp_path / "loop.py"
    loop.symlink_to(loop)
    outcome = analyze(loop)
    _clean(outcome)
    assert outcome.codes == {"DPS002"}


def test_symlink_to_a_device_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    outcome = analyze(tmp_path / "zero.py", seconds=10)
    _clean(outcome)
    assert [(c, m) for c, _, _, m in outcome.diagnostics] == [("DPS002", "cannot read file: not a regular file")]


ROOT_REASON = "running as root: permissions do not deny root, so there is nothing to test"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason=ROOT_REASON)
def test_permission_denied_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "secret.py", PLAIN)
    path.chmod(0)
    try:
        outcome = analyze(path)
    finally:
        path.chmod(0o600)
    _clean(outcome)
    assert "DPS002" in outcome.codes


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason=ROOT_REASON)
def test_permission_denied_directory(tmp_path: Path) -> None:
    _write(tmp_path, "ok.py", PLAIN)
    (tmp_path / "locked").mkdir()
    _write(tmp_path / "locked", "inner.py", PLAIN)
    (tmp_path / "locked").chmod(0)
    try:
        outcome = analyze(tmp_path)
    finally:
        (tmp_path / "locked").chmod(0o700)
    _clean(outcome)
    assert "DPS002" in outcome.codes


def test_permission_denied_file_simulated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same path for any user: reading raises EACCES (root is never denied for real)."""
    path = _write(tmp_path, "secret.py", PLAIN)
    _write(tmp_path, "ok.py", PLAIN)
    real_read = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "secret.py":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    outcome = analyze(tmp_path)
    _clean(outcome)
    assert [(c, line, m) for c, line, _, m in outcome.diagnostics if c == "DPS002"] == [
        ("DPS002", 1, "cannot read file: Permission denied")]
    assert sorted(f["name"] for f in outcome.functions) == ["broken", "scale"]  # ok.py still checked
    assert path.exists()


def test_permission_denied_directory_simulated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, "ok.py", PLAIN)
    (tmp_path / "locked").mkdir()
    _write(tmp_path / "locked", "inner.py", PLAIN)
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:
        if Path(path).name == "locked":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    outcome = analyze(tmp_path)
    _clean(outcome)
    assert [(c, m) for c, _, _, m in outcome.diagnostics if c == "DPS002"] == [
        ("DPS002", "cannot read file: Permission denied")]
    assert sorted(f["name"] for f in outcome.functions) == ["broken", "scale"]


# --- the command line: no traceback, the documented exit code --------------------------------------


def test_command_line_on_a_directory_of_hostile_files(tmp_path: Path) -> None:
    for name, (content, _, _) in REJECTED.items():
        _write(tmp_path, name.replace(" ", "_").replace(",", "").replace("(", "").replace(")", "")
               .replace(".", "") + ".py", content)
    for name, transform in SAME_AS_PLAIN.items():
        _write(tmp_path, "ok_" + name.replace(" ", "_").replace("-", "_") + ".py", transform(PLAIN.encode()))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.run([sys.executable, "-m", "dpsens", "check", str(tmp_path)], capture_output=True,
                           text=True, timeout=120, cwd=ROOT, env=env)
    assert "Traceback" not in child.stdout + child.stderr
    # 2: the 50 MB file of nested ifs is over the size limit (DPS006), a run-level failure
    assert child.returncode == 2, child.stdout[-2000:] + child.stderr[-2000:]
    for code in ("DPS003", "DPS004", "DPS006", "DPS201"):
        assert code in child.stdout


# --- crashes and hangs found earlier, each run in a child process ------------------------------------


def _deep(expression: str) -> str:
    return HEADER + f"    return {expression}\n"


def _loops(depth: int) -> str:
    body = "".join(" " * (4 + 4 * i) + "for _ in range(3):\n" for i in range(depth))
    return HEADER + body + " " * (4 + 4 * depth) + "x = 2.0 * x\n    return x\n"


def _elifs(count: int) -> str:
    arms = "".join(f"    elif x > {i}:\n        y = x + {i}.0\n" for i in range(1, count))
    return HEADER + "    if x > 0:\n        y = x\n" + arms + "    else:\n        y = x\n    return y\n"


KNOWN: dict[str, tuple[str, str, bool]] = {
    # name: (source, what happened when the case was found, slow); fixed ones pass as regressions
    "10,000 nested parentheses": (_deep("(" * 10_000 + "x" + ")" * 10_000),
                                  "segfault in libcst's native parser", False),
    "2,000 nested conditional expressions": (_deep("x if x > 0 else (" * 2_000 + "x" + ")" * 2_000),
                                             "segfault in libcst's native parser", False),
    "10,000 elif arms": (_elifs(10_000), "segfault", False),
    "1,000 elif arms": (_elifs(1_000), "RecursionError escapes check_paths (libcst metadata)", False),
    "500 unary minus": (_deep("-" * 500 + "x"), "RecursionError escapes check_paths", False),
    "list nested 150 deep": (HEADER + "    y = " + "[" * 150 + "x" + "]" * 150 + "\n    return x\n",
                             "RecursionError escapes check_paths", False),
    "sum of 800 terms": (_deep("x" + " + x" * 800), "RecursionError escapes check_paths", False),
    "10 nested loops": (_loops(10), "ValueError: the exact sensitivity 2**59049 exceeds int->str "
                                    "conversion (escapes check_paths)", False),
    "int(np.exp(1e308)) (found by fuzzing)": ("import numpy as np\n" + HEADER + "    y = int(np.exp(1e308))\n"
                                                "    return x\n", "DPS001: RecursionError inside mpmath", False),
    "np.clip(np.sqrt(-3.0), 0.0, 1.0) (found by fuzzing)": (
        "import numpy as np\n" + HEADER + "    y = np.clip(np.sqrt(-3.0), 0.0, 1.0)\n    return x\n",
        "DPS001: sympy compares the complex static sqrt(3)*I", False),
    "sum of 10,000 terms": (_deep("x" + " + x" * 10_000), "hangs (40 KB file)", False),
}


def test_twenty_nested_loops_end_at_the_time_limit(tmp_path: Path) -> None:
    """Each loop level runs its body to a fixpoint, so the work grows exponentially with depth."""
    from dpsens.check import Settings

    outcome = analyze(_write(tmp_path, "loops.py", _loops(20)), seconds=20,
                      settings=Settings(time_limit=1.0))
    _clean(outcome)
    assert [d[0] for d in outcome.diagnostics] == ["DPS005"] and not outcome.functions
    assert outcome.seconds < 10


# Cases of KNOWN not fixed yet (name: why): each is expected to fail, and to be removed
# from here once it works. Every other case is a regression test: a fixed case that
# crashes or hangs again fails (an xfail would hide it, as it hid ten nested loops taking
# 24 s after a loop rule's change).
STILL_BROKEN: dict[str, str] = {}


@pytest.mark.parametrize("name", KNOWN, ids=list(KNOWN))
def test_known_crash_or_hang(name: str, tmp_path: Path) -> None:
    source, found, slow = KNOWN[name]
    if slow and not LONG:
        pytest.skip(f"{found}; DPSENS_ROBUSTNESS_LONG=1 runs it")
    outcome = analyze_isolated(_write(tmp_path, "deep.py", source), seconds=20)
    if name in STILL_BROKEN:
        assert outcome.problems(), f"{name} works now: remove it from STILL_BROKEN"
        pytest.xfail(f"{STILL_BROKEN[name]}: {outcome.problems()[0]}")
    assert not outcome.problems(), f"{name} (found: {found}) fails again: {outcome.problems()[0]}"


# --- special files: a named pipe blocks its reader forever, a device never ends ---------------------

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this platform")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m dpsens`` from the repository root; a hang fails the test after 30 s instead of blocking it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "dpsens", *args], capture_output=True, text=True,
                          timeout=30, cwd=ROOT, env=env)


@needs_fifo
def test_named_pipe_in_a_directory(tmp_path: Path) -> None:
    """The walk skips the FIFO instead of opening it, and still analyzes the other files."""
    _write(tmp_path, "ok.py", PLAIN)
    os.mkfifo(tmp_path / "pipe.py")
    outcome = analyze_isolated(tmp_path, seconds=20)
    _clean(outcome)
    assert {f["name"] for f in outcome.functions} == {"scale", "broken"}
    assert [(c, m) for c, _, _, m in outcome.diagnostics if c == "DPS002"] == [("DPS002", "cannot read file: not a regular file")]


@needs_fifo
def test_named_pipe_given_as_a_path(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    outcome = analyze_isolated(tmp_path / "pipe.py", seconds=20)
    _clean(outcome)
    assert [(c, m) for c, _, _, m in outcome.diagnostics] == [("DPS002", "cannot read file: not a regular file")]


@needs_fifo
def test_command_line_on_a_directory_with_a_named_pipe(tmp_path: Path) -> None:
    _write(tmp_path, "ok.py", PLAIN)
    os.mkfifo(tmp_path / "x.py")
    child = _cli("check", "--no-cache", str(tmp_path))
    assert "Traceback" not in child.stdout + child.stderr
    assert child.returncode == 1, child.stdout[-2000:] + child.stderr[-2000:]
    assert "x.py:1:1: DPS002 cannot read file: not a regular file" in child.stdout
    assert "DPS201" in child.stdout  # ok.py was analyzed all the same


@needs_fifo
def test_command_line_on_a_named_pipe(tmp_path: Path) -> None:
    """A FIFO named on the command line exists: it is not reported as missing."""
    os.mkfifo(tmp_path / "x.py")
    child = _cli("check", "--no-cache", str(tmp_path / "x.py"))
    assert "Traceback" not in child.stdout + child.stderr
    assert child.returncode == 1, child.stdout[-2000:] + child.stderr[-2000:]
    assert "x.py:1:1: DPS002 cannot read file: not a regular file" in child.stdout
    assert "no such file" not in child.stdout


@needs_fifo
def test_symlink_to_a_named_pipe_in_a_directory(tmp_path: Path) -> None:
    """The walk looks at what a symlink points to, as reading would."""
    (tmp_path / "walked").mkdir()
    _write(tmp_path / "walked", "ok.py", PLAIN)
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "walked" / "link.py").symlink_to(tmp_path / "pipe.py")
    outcome = analyze_isolated(tmp_path / "walked", seconds=20)
    _clean(outcome)
    assert {f["name"] for f in outcome.functions} == {"scale", "broken"}
    assert ("DPS002", "cannot read file: not a regular file") in [(c, m) for c, _, _, m in outcome.diagnostics]


def test_dangling_symlink_in_a_directory_is_unreadable(tmp_path: Path) -> None:
    _write(tmp_path, "ok.py", PLAIN)
    (tmp_path / "gone.py").symlink_to(tmp_path / "deleted.py")
    outcome = analyze(tmp_path)
    _clean(outcome)
    assert {f["name"] for f in outcome.functions} == {"scale", "broken"}
    assert ("DPS002", "cannot read file: No such file or directory") in [
        (c, m) for c, _, _, m in outcome.diagnostics]
