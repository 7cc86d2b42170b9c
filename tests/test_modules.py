"""Names resolve through imports, and calls cross modules of the checked set."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpsens.check import Settings, check_paths


def make_package(root: Path) -> None:
    package = root / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "stats.py").write_text(
        "from dpsens import Real, Static\n\n"
        "def scaled(x: Real, c: Static[float]) -> Real:\n    return c * x\n"
    )
    (package / "helpers.py").write_text("def double(a):\n    return 2 * a + a\n")
    (package / "main.py").write_text(
        "import dpsens as dp\n"
        "import pkg.stats\n"
        "from pkg import stats as st\n"
        "from .stats import scaled\n"
        "from .helpers import double\n\n"
        "def combined(x: dp.Real) -> dp.Real:\n"
        "    return scaled(x, 2) + st.scaled(x, 3) + pkg.stats.scaled(x, 4)\n\n"
        "def helped(v: dp.MetricVector[dp.L2, dp.Real]) -> dp.MetricVector[dp.L2, dp.Real]:\n"
        "    return double(v)\n"
    )


def reported(root: Path) -> dict[str, dict[str, str]]:
    result = check_paths([str(root / "pkg")])
    return {
        f["qualname"]: {p["name"]: p.get("sensitivity", "static") for p in f["params"]}
        for file in result.files for f in file.functions
    }


def test_calls_resolve_across_modules_and_import_styles(tmp_path: Path) -> None:
    make_package(tmp_path)
    results = reported(tmp_path)
    assert results["combined"] == {"x": "9"}
    assert results["scaled"] == {"x": "abs(c)", "c": "static"}


def test_unannotated_helpers_are_analyzed_at_the_call(tmp_path: Path) -> None:
    make_package(tmp_path)
    results = reported(tmp_path)
    assert results["helped"] == {"v": "3"}
    assert "double" not in results  # a module without dpsens is not reported


def test_staged_subset_still_resolves(tmp_path: Path) -> None:
    """Pre-commit passes only staged files: imported modules are read from disk."""
    make_package(tmp_path)
    result = check_paths([str(tmp_path / "pkg" / "main.py")])
    [file] = result.files  # stats.py is used, not reported
    combined = next(f for f in file.functions if f["name"] == "combined")
    assert combined["params"][0]["sensitivity"] == "9"
    assert not file.diagnostics


def test_a_relative_import_outside_a_package_names_no_module(tmp_path: Path) -> None:
    """``from . import *`` in a top-level module (Python raises ImportError) was an
    internal error: the empty package name made an empty path (found by the fuzzer)."""
    (tmp_path / "script.py").write_text(
        "from dpsens import Real\nfrom . import *\nfrom .. import x\n\n"
        "def f(y: Real) -> Real:\n    return 2 * y\n")
    result = check_paths([str(tmp_path / "script.py")])
    [file] = result.files
    assert [f["params"][0]["sensitivity"] for f in file.functions] == ["2"]
    assert not file.diagnostics


def test_submodule_and_star_imports_alone_bring_their_modules(tmp_path: Path) -> None:
    """``import a.b`` binds only ``a`` and ``from m import *`` binds no name, yet both need
    their module: each alone must bring it into the analysis (regression)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "sub.py").write_text(
        "from dpsens import Real\n\ndef double(x: Real) -> Real:\n    return 2 * x\n")
    (tmp_path / "dotted.py").write_text(
        "import pkg.sub\nfrom dpsens import Real\n\n"
        "def f(x: Real) -> Real:\n    return pkg.sub.double(x)\n")
    (tmp_path / "starred.py").write_text(
        "from pkg.sub import *\nfrom dpsens import Real\n\n"
        "def g(x: Real) -> Real:\n    return double(x) + x\n")
    for paths in ([tmp_path / "dotted.py", tmp_path / "starred.py"], [tmp_path]):
        result = check_paths([str(p) for p in paths])
        found = {f["name"]: f["params"][0]["sensitivity"] for file in result.files
                 for f in file.functions}
        assert found["f"] == "2" and found["g"] == "3", paths
        assert not [d for d in result.diagnostics if d.code == "DPS203"]


def make_writers(root: Path) -> None:
    """A module whose globals another module writes (R-global, D43)."""
    package = root / "wpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "cfg.py").write_text(
        "import numpy as np\nfrom dpsens import Real\n\n"
        "SCALE = 1.0\nARR = np.zeros(3)\nBUF = np.zeros(3)\nK = 2.0\n"
        "INNER = np.zeros(3)\nHOLDER = (INNER, 1)\n\n"
        "def scaled(x: Real) -> Real:\n    return SCALE * x\n\n"
        "def read() -> Real:\n    return ARR[0] * 1.0\n\n"
        "def read_buf() -> Real:\n    return BUF[0] * 1.0\n\n"
        "def doubled(x: Real) -> Real:\n    return K * x\n\n"
        "def read_inner() -> Real:\n    return INNER[0] * 1.0\n")
    (package / "main.py").write_text(
        "import numpy as np\nfrom dpsens import Real\nfrom wpkg import cfg\n"
        "from wpkg.cfg import ARR, HOLDER, doubled, read, read_buf, read_inner, scaled\n\n"
        "def set_scale() -> Real:\n    cfg.SCALE = 100.0\n    return 0.0\n\n"
        "def later(x: Real) -> Real:\n    set_scale()\n    return scaled(x)\n\n"
        "def write(x: Real) -> Real:\n    ARR[0] = x\n    return 0.0\n\n"
        "def imported_mut(x: Real) -> Real:\n    write(x)\n    return read()\n\n"
        "def write_attr(x: Real) -> Real:\n    u = cfg.BUF\n    u[0] = x\n    return 0.0\n\n"
        "def alias_mut(x: Real) -> Real:\n    write_attr(x)\n    return read_buf()\n\n"
        "def write_held(x: Real) -> Real:\n    HOLDER[0][0] = x\n    return 0.0\n\n"
        "def held_mut(x: Real) -> Real:\n    write_held(x)\n    return read_inner()\n\n"
        "def twice(x: Real) -> Real:\n    f = doubled\n    return f(x) + doubled(x) + cfg.K * 0.0\n")


def test_writes_from_another_module_are_the_owners(tmp_path: Path) -> None:
    """cfg.SCALE = v, ARR[0] = x through `from cfg import ARR`, an alias of cfg.BUF, a
    store through HOLDER = (INNER, 1): cfg's own readers see them (they were 1 and 0,
    truth 100 and 1), with one or two jobs; a def only called or assigned keeps its value."""
    make_writers(tmp_path)
    for jobs in (1, 2):
        result = check_paths([str(tmp_path / "wpkg")], settings=Settings(jobs=jobs))
        found = {f["qualname"]: {p["name"]: p.get("sensitivity") for p in f["params"]}
                 for file in result.files for f in file.functions}
        assert found["scaled"] == {"x": "inf"}, jobs
        assert found["later"] == found["imported_mut"] == found["alias_mut"] == {"x": "inf"}, jobs
        assert found["held_mut"] == {"x": "inf"}, jobs
        assert found["doubled"] == {"x": "2"} and found["twice"] == {"x": "4"}, jobs


def test_a_module_only_read_keeps_its_constants(tmp_path: Path) -> None:
    """Without the writer, cfg's names keep their single values."""
    make_writers(tmp_path)
    (tmp_path / "wpkg" / "main.py").write_text(
        "from dpsens import Real\nfrom wpkg import cfg\n\n"
        "def f(x: Real) -> Real:\n    return cfg.scaled(x) + cfg.read() + cfg.SCALE * x\n")
    found = {f["qualname"]: {p["name"]: p.get("sensitivity") for p in f["params"]}
             for file in check_paths([str(tmp_path / "wpkg")]).files for f in file.functions}
    assert found["scaled"] == {"x": "1"} and found["f"] == {"x": "2"}


def make_alias_users(root: Path) -> None:
    """A module whose immutable globals (a type alias, a number, a tuple) another module
    passes as arguments, and whose mutable one it passes to a function that writes it."""
    package = root / "apkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "defs.py").write_text(
        "import numpy as np\nimport numpy.typing as npt\n"
        "from dpsens import (BlackBox, Data, L1, L_inf, MetricMatrix, MetricVector, Real, clip,\n"
        "    map_rows, unbox, undisc_container)\n\n"
        "Row = MetricVector[L_inf, Data]\nSCALE = 3.0\nSHAPE = (3, 1)\nARR = np.zeros(3)\n\n"
        "def one_hot(row: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:\n"
        "    return np.ones(3)\n\n"
        "def hist(data: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Real]:\n"
        "    ind = map_rows(lambda r: clip(L1, unbox(one_hot(r), Row, SHAPE[0])), data)\n"
        "    return np.sum(undisc_container(ind), axis=0)\n\n"
        "def scaled(x: Real) -> Real:\n    return SCALE * x\n\n"
        "def read(x: Real) -> Real:\n    return ARR[0] * x\n")
    (package / "users.py").write_text(
        "import numpy as np\n"
        "from dpsens import (Data, L1, L_inf, MetricMatrix, MetricVector, Real, clip, map_rows,\n"
        "    unbox, undisc_container)\n"
        "from apkg import defs\n"
        "from apkg.defs import ARR, Row, SCALE, SHAPE, one_hot\n\n"
        "def keep(v: float) -> float:\n    return v\n\n"
        "def fill(v: np.ndarray, x: float) -> float:\n    v[0] = x\n    return 0.0\n\n"
        "def hist2(data: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Real]:\n"
        "    ind = map_rows(lambda r: clip(L1, unbox(one_hot(r), Row, SHAPE[0])), data)\n"
        "    return np.sum(undisc_container(ind), axis=0)\n\n"
        "def passes(x: Real) -> Real:\n"
        "    keep(SCALE)\n    keep(defs.SCALE)\n    keep(SHAPE)\n"
        "    return SCALE * x + len(SHAPE) * x\n\n"
        "def writes(x: Real) -> Real:\n    fill(ARR, x)\n    return 0.0\n")


def test_passing_another_modules_immutable_global_does_not_rebind_it(tmp_path: Path) -> None:
    """``from defs import Row`` passed to unbox(), SCALE and SHAPE passed to functions: a
    name bound once to a type alias, number or tuple cannot change, so defs keeps its
    values (it was DPS206 and inf in both modules, D47/F2); ARR, an array passed to a
    function that writes it, still has no single value (D43)."""
    make_alias_users(tmp_path)
    for jobs in (1, 2):
        result = check_paths([str(tmp_path / "apkg")], settings=Settings(jobs=jobs))
        found = {f["qualname"]: {p["name"]: p.get("sensitivity") for p in f["params"]}
                 for file in result.files for f in file.functions}
        assert found["hist"] == found["hist2"] == {"data": "2"}, jobs
        assert found["scaled"] == {"x": "3"} and found["passes"] == {"x": "5"}, jobs
        assert found["read"] == {"x": "inf"}, jobs
        rebound = [d.message for d in result.diagnostics if d.code == "DPS206"]
        assert rebound and all("'ARR'" in m for m in rebound), (jobs, rebound)


def make_reexports(root: Path) -> None:
    """A package re-exporting the vocabulary, modules importing it from there (one a
    re-export of the re-export, relative and starred), none of them naming dpsens."""
    package = root / "rpkg"
    (package / "sub").mkdir(parents=True)
    (package / "sub" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "vocab.py").write_text(
        "from dpsens import Data, L_inf, MetricMatrix, Real, Static, Priv\n"
        "from dpsens import laplace_mechanism\n")
    (package / "leak.py").write_text(
        "import numpy as np\nfrom rpkg.vocab import Data, L_inf, MetricMatrix, Real, Static, Priv\n\n"
        "def leak(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:\n"
        "    return float(np.sum(data))\n")
    (package / "again.py").write_text("from .vocab import *\nfrom . import vocab as v\n")
    (package / "sub" / "deep.py").write_text(
        "import numpy as np\nfrom ..again import *\nfrom rpkg.again import v\n\n"
        "def noisy(x: Real, eps: Static[float]) -> Priv[Real]:\n"
        "    return v.laplace_mechanism(1.0, eps, x)\n\n"
        "class Model:\n"
        "    def release(self, data: v.MetricMatrix[v.L_inf, v.Data]) -> Real:\n"
        "        return float(np.sum(data))\n")
    (package / "unrelated.py").write_text("# the vocab word alone does not import it\nX = 1\n")
    (package / "app.py").write_text(  # uses the analyzed modules' functions, not dpsens
        "import json\nimport rpkg.vocab\nfrom rpkg.leak import leak\nfrom rpkg import again\n\n"
        "def main(path):\n    while True:\n        break\n"
        "    return leak(json.load(open(path)), 1.0), again.v\n")


def test_modules_importing_a_reexport_of_the_vocabulary_are_analyzed(tmp_path: Path) -> None:
    """`from rpkg.vocab import Priv` where rpkg/vocab.py re-exports dpsens: the file never
    names dpsens, yet it is analyzed, its names resolve to the vocabulary (DPS403, not
    DPS101), and so are files taking them from it in turn (it was exit 0 and nothing
    reported); a file that only calls the analyzed modules' functions is not analyzed."""
    make_reexports(tmp_path)
    for jobs in (1, 2):
        result = check_paths([str(tmp_path / "rpkg")], settings=Settings(jobs=jobs))
        by_file = {Path(f.path).name: f for f in result.files}
        [leak] = by_file["leak.py"].functions
        assert leak["kind"] == "privacy" and leak["params"][0]["epsilon"] == "inf", jobs
        # (with a DPS311 note on the unbounded sum it releases)
        assert [d.code for d in by_file["leak.py"].diagnostics] == ["DPS403", "DPS311"], jobs
        [noisy] = by_file["deep.py"].functions
        assert noisy["params"][0]["epsilon"] == "eps", jobs
        assert [(d.line, d.code) for d in by_file["deep.py"].diagnostics] == [(9, "DPS201")], jobs
        assert "unrelated.py" not in by_file and not by_file["again.py"].diagnostics, jobs
        assert "app.py" not in by_file, jobs  # an application of the package stays unchecked


def test_reexport_importers_are_found_with_the_cache(tmp_path: Path) -> None:
    """The import scan of a file that does not name dpsens is cached; a re-run finds the
    same files analyzed, and an edit of the re-exporting module is seen."""
    make_reexports(tmp_path)
    settings = Settings(cache_dir=tmp_path / "cache")
    for _ in range(2):
        result = check_paths([str(tmp_path / "rpkg")], settings=settings)
        assert sorted(d.code for d in result.diagnostics) == ["DPS201", "DPS311", "DPS403"]
    (tmp_path / "rpkg" / "vocab.py").write_text("Real = float\n")  # no longer dpsens
    result = check_paths([str(tmp_path / "rpkg")], settings=settings)
    assert not result.diagnostics and not [f for f in result.files if f.functions]


def test_files_that_cannot_import_an_analyzed_module_are_not_parsed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a file whose text names an analyzed module is parsed for its imports: a tree
    that never names dpsens costs no parse at all (benchmark B)."""
    import dpsens.check as check

    make_reexports(tmp_path)
    scanned: list[str] = []
    original = check._bindings_of
    monkeypatch.setattr(check, "_bindings_of",
                        lambda source, *rest: scanned.append(source.path.name) or original(source, *rest))
    check_paths([str(tmp_path / "rpkg")])
    assert "__init__.py" not in scanned and "leak.py" in scanned  # unrelated.py says "vocab"
    scanned.clear()
    (tmp_path / "rpkg" / "vocab.py").write_text("X = 1\n")
    check_paths([str(tmp_path / "rpkg")])
    assert scanned == []


@pytest.mark.parametrize("body", [
    "from wpkg.cfg import ARB, read\n\n\ndef write(x: Real) -> Real:\n    \uff21RB[0] = x\n",
    # cfg passed to unknown code: anything of cfg may change (cfg.* in CPython's scan)
    "from wpkg import cfg\nimport json\n\n\ndef write(x: Real) -> Real:\n"
    "    \uff59 = x\n    json.dump(cfg, y)\n",
], ids=["store", "whole-module"])
def test_a_module_writing_an_imported_global_under_another_spelling(tmp_path: Path,
                                                                    body: str) -> None:
    # ＡRB is ARB to Python: main.py is refused (DPS007), and its write into cfg.ARB is
    # still followed, from CPython's parser, by the modules that read ARB.
    package = tmp_path / "wpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "cfg.py").write_text(
        "import numpy as np\nfrom dpsens import Real\n\nARB = np.zeros(3)\n\n\n"
        "def read(x: Real) -> Real:\n    return ARB[0] * 1.0 + 0 * x\n")
    (package / "main.py").write_text(f"from dpsens import Real\n{body}    return 0.0\n")
    (package / "user.py").write_text(
        "from dpsens import Real\nfrom wpkg import main\nfrom wpkg.cfg import read\n\n\n"
        "def both(x: Real, y: Real) -> Real:\n    main.write(x)\n    return read(y)\n")
    for jobs in (1, 2):
        result = check_paths([str(package)], settings=Settings(jobs=jobs))
        codes = {(f.path.rsplit("/", 1)[-1], d.code) for f in result.files
                 for d in f.diagnostics}
        assert ("main.py", "DPS007") in codes
        functions = {f["qualname"]: f for file in result.files for f in file.functions}
        assert "write" not in functions  # main.py is not analyzed
        both = {p["name"]: p.get("sensitivity") for p in functions["both"]["params"]}
        assert both["x"] == "inf", both  # write() is unknown code that changes ARB


def _write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_relative_imports_in_a_package_init_count_from_the_package(tmp_path: Path) -> None:
    # In pkg/sub/__init__.py, `from .b import inner` is pkg.sub.b, not pkg.b.
    _write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/b.py": "def inner(t):\n    return t\n",
        "pkg/sub/__init__.py": "from .b import inner\n",
        "pkg/sub/b.py": "def inner(t):\n    return 100.0 * t\n",
        "pkg/main.py": "from dpsens import Real\nfrom pkg.sub import inner\n\n\n"
                       "def f(x: Real) -> Real:\n    return inner(x)\n",
    })
    bound = float(reported(tmp_path)["f"]["x"])
    assert bound == 100
    # The reported bound holds, and is reached, on random neighbouring inputs of the
    # real program (the misresolved import reported 1).
    import importlib
    import random
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        f = importlib.import_module("pkg.main").f
        draw = random.Random(7)
        for _ in range(200):
            x, x2 = draw.uniform(-1e3, 1e3), draw.uniform(-1e3, 1e3)
            if x != x2:
                assert abs(f(x) - f(x2)) <= bound * abs(x - x2) * (1 + 1e-12)
        assert abs(f(1.0) - f(0.0)) == bound
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == "pkg" or n.startswith("pkg.")]:
            del sys.modules[name]


def test_the_vocabulary_reexported_by_a_relative_import_is_found(tmp_path: Path) -> None:
    # The usual layout: pkg/__init__.py re-exports the vocabulary from .vocab.
    _write_tree(tmp_path, {
        "pkg/__init__.py": "from .vocab import Data, L_inf, MetricMatrix, Priv, Real, Static\n",
        "pkg/vocab.py": "from dpsens import Data, L_inf, MetricMatrix, Priv, Real, Static\n",
        "pkg/leak.py": "import numpy as np\nfrom pkg import Data, L_inf, MetricMatrix, Priv, Real, "
                       "Static\n\n\ndef leak(data: MetricMatrix[L_inf, Data], eps: Static[float]) "
                       "-> Priv[Real]:\n    return float(np.sum(data))\n",
    })
    result = check_paths([str(tmp_path / "pkg")])
    codes = {d.code for f in result.files for d in f.diagnostics}
    assert "DPS403" in codes


_STORE = "KEPT = []\n\n\ndef put(v):\n    KEPT.append(v)\n\n\ndef get():\n    return KEPT[-1] if KEPT else 0.0\n\n\ndef ping():\n    KEPT.append(1.0)\n\n\ndef count():\n    return float(len(KEPT))\n"
_KEEPERS = """import store
from dpsens import Real


def kept(x: Real, y: Real) -> Real:
    store.put(x)
    return store.get() + y


def read_before(x: Real) -> Real:
    a = store.get()
    store.put(x)
    return a


def pinged_under_a_test(x: Real) -> Real:
    if x > 0.0:
        store.ping()
    return store.count()


def getter() -> Real:
    return store.get()


def put_then_a_helper_reads(x: Real) -> Real:
    store.put(x)
    return getter()


def raised_on_data(x: Real) -> Real:
    if x > 3.0:
        raise ValueError("large")
    return 2.0 * x


def through_a_builtin(x: Real) -> Real:
    list(map(store.put, [x]))
    return store.get()
"""


def test_unknown_code_may_return_what_it_was_given_before(tmp_path: Path) -> None:
    # R-kept: a module dpsens cannot see (store, outside the checked tree) keeps x and
    # returns it from a later call with no arguments.
    _write_tree(tmp_path, {"elsewhere/store.py": _STORE, "pkg/__init__.py": "",
                           "pkg/keepers.py": _KEEPERS})
    results = reported(tmp_path)
    assert results["kept"] == {"x": "inf", "y": "inf"}
    assert results["put_then_a_helper_reads"] == {"x": "inf"}
    assert results["pinged_under_a_test"] == {"x": "inf"}  # that it ran shows the test
    # Made before the hand-over, but an unknown object may be a view of the state that
    # keeps x (b = store.make(); store.put(x); b.v).
    assert results["read_before"] == {"x": "inf"}
    assert results["raised_on_data"] == {"x": "2"}  # builtins keep nothing
    assert results["through_a_builtin"] == {"x": "inf"}  # ... but may run code that does
    # The truth, by running it: the result moves with x.
    import importlib
    import sys

    paths = [str(tmp_path), str(tmp_path / "elsewhere")]
    sys.path[:0] = paths
    try:
        keepers = importlib.import_module("pkg.keepers")
        assert keepers.kept(1.0, 0.0) - keepers.kept(2.0, 0.0) == -1.0
    finally:
        del sys.path[:2]
        for name in ("pkg.keepers", "pkg", "store"):
            sys.modules.pop(name, None)


@pytest.mark.parametrize("writer", [
    "from pkg import cfg\nsetattr(cfg, 'SCALE', 100.0)\n",
    "from pkg import cfg\nm = cfg\nm.SCALE = 100.0\n",
    "from pkg import cfg\nvars(cfg)['SCALE'] = 100.0\n",
    "from pkg import cfg\nfor m in [cfg]:\n    m.SCALE = 100.0\n",
    "import pkg.cfg\ntype(pkg.cfg).__setattr__(pkg.cfg, 'SCALE', 100.0)\n",
    "import pkg\nsetattr(pkg.cfg, 'SCALE', 100.0)\n",
], ids=["setattr", "alias", "vars", "container", "dotted", "package"])
def test_a_module_object_handed_around_may_change_all_its_names(tmp_path: Path,
                                                                writer: str) -> None:
    _write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/cfg.py": "from dpsens import Real\n\nSCALE = 1.0\n\n\n"
                      "def scaled(x: Real) -> Real:\n    return SCALE * x\n",
        "pkg/w.py": "from dpsens import Real\n" + writer,
    })
    assert reported(tmp_path)["scaled"] == {"x": "inf"}


def test_calling_a_modules_functions_changes_none_of_its_names(tmp_path: Path) -> None:
    _write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/cfg.py": "from dpsens import Real\n\nSCALE = 2.0\n\n\n"
                      "def scaled(x: Real) -> Real:\n    return SCALE * x\n",
        "pkg/w.py": "from dpsens import Real\nfrom pkg import cfg\nimport pkg.cfg\n\n\n"
                    "def g(x: Real) -> Real:\n    return cfg.scaled(x) + pkg.cfg.scaled(x) + cfg.SCALE\n",
    })
    results = reported(tmp_path)
    assert results["scaled"] == {"x": "2"} and results["g"] == {"x": "4"}


_CFG = "from dpsens import Real\n\nSCALE = 1.0\n\n\ndef scaled(x: Real) -> Real:\n    return SCALE * x\n"


def test_a_package_init_runs_before_its_modules(tmp_path: Path) -> None:
    # Importing pkg.cfg runs pkg/__init__.py, which imports w, which changes cfg.SCALE:
    # no analyzed module imports w, and w and __init__ never name dpsens.
    _write_tree(tmp_path, {
        "pkg/__init__.py": "from pkg import w\n",
        "pkg/w.py": "import pkg.cfg as c\nc.SCALE = 100.0\n",
        "pkg/cfg.py": _CFG,
    })
    assert reported(tmp_path)["scaled"] == {"x": "inf"}


@pytest.mark.parametrize("writer", [
    "exec('from pkg import cfg; cfg.SCALE = 100.0')\n",
    "import sys\nimport pkg.cfg\nsys.modules['pkg.cfg'].SCALE = 100.0\n",
    "import importlib\nimportlib.import_module('pkg.cfg').SCALE = 100.0\n",
    "__import__('pkg.cfg').cfg.SCALE = 100.0\n",
    "from pkg import cfg\ncfg.__dict__['SCALE'] = 100.0\n",
], ids=["exec", "sys.modules", "importlib", "__import__", "__dict__"])
def test_modules_reached_by_name_may_change(tmp_path: Path, writer: str) -> None:
    _write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/cfg.py": _CFG,
                           "pkg/w.py": "from dpsens import Real\n" + writer})
    assert reported(tmp_path)["scaled"] == {"x": "inf"}


@pytest.mark.parametrize("writer", [
    "from pkg import cfg\ncfg.abs = lambda t: 100.0 * t\n",
    "from pkg import cfg\nsetattr(cfg, 'abs', lambda t: 100.0 * t)\n",
    "from pkg import cfg\n\n\nclass Fake:\n    @staticmethod\n    def abs(t):\n"
    "        return 100.0 * t\n\n\ncfg.np = Fake()\n",
], ids=["builtin", "setattr", "import"])
def test_names_of_a_module_rebound_from_elsewhere_shadow_builtins_and_imports(
        tmp_path: Path, writer: str) -> None:
    _write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/cfg.py": "import numpy as np\nfrom dpsens import Real\n\n\n"
                      "def f_abs(x: Real) -> Real:\n    return abs(x)\n\n\n"
                      "def f_np(x: Real) -> Real:\n    return float(np.abs(x))\n",
        "pkg/w.py": "from dpsens import Real\n" + writer,
    })
    results = reported(tmp_path)
    replaced = "f_np" if "np =" in writer else "f_abs"
    assert results[replaced] == {"x": "inf"}


@pytest.mark.parametrize("imports", [
    "try:\n    from pkg import cfg\nexcept ImportError:\n    cfg = None\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import cfg\n"
    "else:\n    from pkg import cfg\n",
    "import sys\nif sys.version_info >= (3, 8):\n    from pkg import cfg\n",
], ids=["try", "type-checking", "if"])
def test_imports_inside_top_level_blocks_are_imports(tmp_path: Path, imports: str) -> None:
    _write_tree(tmp_path, {
        "pkg/__init__.py": "", "pkg/cfg.py": _CFG,
        "pkg/w.py": "from dpsens import Real\n" + imports
                    + "\n\ndef write(x: Real) -> Real:\n    cfg.SCALE = 100.0\n    return 0.0\n",
    })
    assert reported(tmp_path)["scaled"] == {"x": "inf"}


@pytest.mark.parametrize("where", ["same", "other", "setattr"])
def test_a_function_reprogrammed_in_place_is_no_longer_its_body(tmp_path: Path,
                                                                where: str) -> None:
    change = "setattr(sd, '__defaults__', (100.0,))\n" if where == "setattr" \
        else "sd.__defaults__ = (100.0,)\n"
    _write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/cfg.py": "from dpsens import Real, Static\n\n\n"
                      "def sd(x: Real, c: Static[float] = 1.0) -> Real:\n    return c * x\n\n\n"
                      "def caller(x: Real) -> Real:\n    return sd(x)\n"
                      + (change if where in ("same", "setattr") else ""),
        "pkg/w.py": "from dpsens import Real\nfrom pkg.cfg import sd\n"
                    + (change if where == "other" else ""),
    })
    assert reported(tmp_path)["caller"] == {"x": "inf"}


def test_a_function_importing_a_module_itself_may_change_it(tmp_path: Path) -> None:
    _write_tree(tmp_path, {
        "pkg/__init__.py": "", "pkg/cfg.py": _CFG,
        "pkg/w.py": "from dpsens import Real\n\n\ndef write(x: Real) -> Real:\n"
                    "    from pkg import cfg\n    cfg.SCALE = 100.0\n    return 0.0\n\n\n"
                    "def reader(x: Real) -> Real:\n    from pkg import cfg\n"
                    "    return cfg.scaled(x)\n",
    })
    results = reported(tmp_path)
    assert results["scaled"] == {"x": "inf"}


def test_ordinary_uses_of_importlib_and_dict_change_no_other_module(tmp_path: Path) -> None:
    # importlib.metadata, an object's __dict__ and vars(self) reach no module by name.
    _write_tree(tmp_path, {
        "pkg/__init__.py": "from importlib.metadata import version\nfrom .stats import plain_sum\n",
        "pkg/stats.py": "import numpy as np\nfrom dpsens import L1, MetricVector, Real\n\n\n"
                        "def plain_sum(v: MetricVector[L1, Real]) -> Real:\n"
                        "    return float(np.sum(v))\n",
        "pkg/records.py": "from dpsens import Real\nfrom pkg import stats\n\n\nclass Record:\n"
                          "    def __init__(self, **fields):\n        self.__dict__.update(fields)\n\n"
                          "    def __repr__(self):\n        return repr(vars(self))\n",
    })
    result = check_paths([str(tmp_path / "pkg")])
    assert reported(tmp_path)["plain_sum"] == {"v": "1"}
    assert not [d for f in result.files for d in f.diagnostics if f.path.endswith("stats.py")]


def test_a_package_imported_twice_is_still_the_package(tmp_path: Path) -> None:
    _write_tree(tmp_path, {
        "pkg/__init__.py": "", "pkg/cfg.py": _CFG,
        "pkg/w.py": "from dpsens import Real\nimport pkg\nimport pkg.cfg\n\n\ndef poke(p):\n"
                    "    p.cfg.SCALE = 100.0\n\n\npoke(pkg)\n",
    })
    assert reported(tmp_path)["scaled"] == {"x": "inf"}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


_RETURNS_X = "from dpsens import Real\n\ndef f(x: Real) -> Real:\n    return x\n"
_RETURNS_100X = "from dpsens import Real\n\ndef f(x: Real) -> Real:\n    return 100 * x\n"
_CALLS_F = ("from dpsens import Real\nfrom {module} import f\n\n"
            "def g(x: Real) -> Real:\n    return f(x)\n")


def _g(root: Path, *paths: str) -> str:
    result = check_paths([str(root / p) for p in paths])
    [found] = [f for file in result.files for f in file.functions if f["name"] == "g"]
    return str(found["params"][0]["sensitivity"])


@pytest.mark.parametrize("checked", [["."], ["app.py"]])
def test_a_package_init_imports_from_the_package_root(tmp_path: Path, checked: list[str]) -> None:
    """pkg/__init__.py's ``from util import f`` is the top-level util, not pkg/util.py
    (its root was taken one level too deep)."""
    _write(tmp_path, {"pkg/__init__.py": "from util import f as f\n", "util.py": _RETURNS_100X,
                      "pkg/util.py": _RETURNS_X, "app.py": _CALLS_F.format(module="pkg")})
    assert _g(tmp_path, *checked) == "100"


@pytest.mark.parametrize("checked", [["."], ["scripts"]])
def test_modules_of_one_name_resolve_from_the_importers_directory(
        tmp_path: Path, checked: list[str]) -> None:
    """Two top-level util.py in different directories: the importer's own, as Python's
    sys.path[0] (the first one in sorted order used to win)."""
    _write(tmp_path, {"a_tools/util.py": _RETURNS_X, "scripts/util.py": _RETURNS_100X,
                      "scripts/app.py": _CALLS_F.format(module="util")})
    assert _g(tmp_path, *checked) == "100"


@pytest.mark.parametrize("checked", [["."], ["app.py"]])
def test_a_package_comes_before_a_module_of_its_name(tmp_path: Path, checked: list[str]) -> None:
    """Python imports a/__init__.py, not a.py, when both exist."""
    _write(tmp_path, {"a.py": _RETURNS_X, "a/__init__.py": _RETURNS_100X,
                      "app.py": _CALLS_F.format(module="a")})
    assert _g(tmp_path, *checked) == "100"


def test_a_global_given_to_a_class_statement_does_not_crash(tmp_path: Path) -> None:
    """A module-level object used as a class's base or metaclass keyword (cst.Arg outside a
    call) raised AssertionError in the globals scan: an internal error, exit 2."""
    _write(tmp_path, {"m.py": "from dpsens import Real\nBASES = [object]\nMeta = type\n\n"
                              "class C(BASES[0], metaclass=Meta):\n    pass\n\n"
                              "def f(x: Real) -> Real:\n    return x\n"})
    [file] = check_paths([str(tmp_path / "m.py")]).files
    assert [f["params"][0]["sensitivity"] for f in file.functions] == ["1"]
    assert not file.diagnostics


def test_a_writer_that_does_not_name_dpsens_is_seen(tmp_path: Path) -> None:
    """A script that changes a module global (cfg.SCALE = 100.0) was only read when its text
    named dpsens: f was reported 1 for cfg.SCALE * x."""
    _write(tmp_path, {"cfg.py": "SCALE = 1.0\n",
                      "b.py": "import cfg\nfrom dpsens import Real\n\n"
                              "def f(x: Real) -> Real:\n    return cfg.SCALE * x\n",
                      "w.py": "import cfg\ncfg.SCALE = 100.0\n"})
    [file] = [f for f in check_paths([str(tmp_path)]).files if f.functions]
    assert file.functions[0]["params"][0]["sensitivity"] == "inf"
    assert any(d.code == "DPS206" and "cfg.SCALE" in d.message for d in file.diagnostics)


def test_importing_a_package_and_its_submodule_is_one_binding(tmp_path: Path) -> None:
    """`import pkg` then `import pkg.sub.helper` both bind pkg to the package: it was taken
    as rebound (DPS206, DPS203 and inf for pkg.sub.helper.triple(x))."""
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/sub/__init__.py": "",
                      "pkg/sub/helper.py": "from dpsens import Real\n\n"
                                           "def triple(x: Real) -> Real:\n    return 3 * x\n",
                      "app.py": "from dpsens import Real\nimport pkg\nimport pkg.sub.helper\n\n"
                                "def g(x: Real) -> Real:\n    return pkg.sub.helper.triple(x)\n"})
    assert _g(tmp_path, "app.py") == "3"
