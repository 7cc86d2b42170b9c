"""A program that replaces a library function loses that function's rule (D60).

The programs are analyzed, never run: running them would patch numpy for the
whole test session.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dpsens.check import check_paths

PATCHES = {
    "np.sum = lambda v: 100.0 * v[0]": "np.sum(v)",
    "numpy.linalg.norm = lambda v: 100.0 * v[0]": "numpy.linalg.norm(v)",
    "from numpy import linalg\nlinalg.norm = lambda v: 100.0 * v[0]": "np.linalg.norm(v)",
    "builtins.abs = lambda t: 100.0 * t": "abs(v[0])",
    "del builtins.abs": "abs(v[0])",
    # D110 (a review): forms the text filter or the tree walk missed (1, truth 100).
    "(np.sum) = lambda v: 100.0 * v[0]": "np.sum(v)",
    "np.sum, _z = lambda v: 100.0 * v[0], 1": "np.sum(v)",
    "[np.sum] = [lambda v: 100.0 * v[0]]": "np.sum(v)",
    "np.\\\nsum = lambda v: 100.0 * v[0]": "np.sum(v)",
    "del (\nnp.sum)": "np.sum(v)",
    "for np.sum in [lambda v: 100.0 * v[0]]:\n    pass": "np.sum(v)",
    "with open(__file__) as np.sum:\n    pass": "np.sum(v)",
    "_all = [0 for np.sum in [lambda v: 100.0 * v[0]]]": "np.sum(v)",
    "setattr(np, 'sum', lambda v: 100.0 * v[0])": "np.sum(v)",
    "setattr(np, 'su' + 'm', lambda v: 100.0 * v[0])": "np.sum(v)",
}


@pytest.mark.parametrize("patch, call", PATCHES.items())
def test_a_replaced_function_is_unbounded(tmp_path: Path, patch: str, call: str) -> None:
    path = tmp_path / "patched.py"
    path.write_text("import builtins\nimport numpy\nimport numpy as np\n"
                    "from dpsens import L1, MetricVector, Real\n\n"
                    f"{patch}\n\n\n"
                    "def f(v: MetricVector[L1, Real]) -> Real:\n"
                    f"    return {call}\n")
    [report] = check_paths([str(path)]).files
    [function] = report.functions
    assert function["params"][0]["sensitivity"] == "inf"
    assert any(d.code == "DPS206" and "replaced" in d.message for d in report.diagnostics)


def test_an_unpatched_function_keeps_its_rule(tmp_path: Path) -> None:
    path = tmp_path / "plain.py"
    path.write_text("import numpy as np\nfrom dpsens import L1, MetricVector, Real\n\n"
                    "scale = np.sum\n\n\n"
                    "def f(v: MetricVector[L1, Real]) -> Real:\n"
                    "    return np.sum(v)\n")
    [report] = check_paths([str(path)]).files
    assert report.functions[0]["params"][0]["sensitivity"] == "1"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_patch_in_another_module_reaches_every_user_of_the_library(tmp_path: Path,
                                                                     jobs: int) -> None:
    # w.py replaces np.sum; cfg.py neither imports w nor is imported by it. A program
    # importing both calls the replacement.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "w.py").write_text("import numpy as np\nfrom dpsens import Real\n"
                                  "np.sum = lambda v: 100.0 * v[0]\n")
    (package / "cfg.py").write_text(
        "import numpy as np\nfrom dpsens import L1, MetricVector, Real\n\n\n"
        "def total(v: MetricVector[L1, Real]) -> Real:\n    return float(np.sum(v))\n\n\n"
        "def norm(v: MetricVector[L1, Real]) -> Real:\n    return float(np.linalg.norm(v))\n")
    from dpsens.check import Settings

    result = check_paths([str(package)], settings=Settings(jobs=jobs))
    params = {f["qualname"]: {p["name"]: p.get("sensitivity") for p in f["params"]}
              for file in result.files for f in file.functions}
    assert params["total"] == {"v": "inf"}
    assert params["norm"] == {"v": "1"}  # what is not replaced keeps its rule


@pytest.mark.parametrize("patch", [
    "N = np\nN.sum = lambda v: 100.0 * v[0]\n",
    "vars(np)['sum'] = lambda v: 100.0 * v[0]\n",
    "np.__dict__['sum'] = lambda v: 100.0 * v[0]\n",
], ids=["alias", "vars", "dict"])
def test_a_patch_through_the_librarys_namespace_is_seen(tmp_path: Path, patch: str) -> None:
    path = tmp_path / "patched.py"
    path.write_text("import numpy as np\nfrom dpsens import L1, MetricVector, Real\n\n" + patch
                    + "\n\ndef total(v: MetricVector[L1, Real]) -> Real:\n"
                    "    return float(np.sum(v))\n")
    [report] = check_paths([str(path)]).files
    [function] = report.functions
    assert function["params"][0]["sensitivity"] == "inf"


@pytest.mark.parametrize("patch", [
    "import random\nimport secrets\nsecrets.randbelow = random.Random(0).randrange\n",
    "import dpsens.runtime.mechanisms as mech\nmech.discrete_laplace = lambda t, s, src: 0\n",
    "import math\nmath.log = lambda t: 0.0\n",
    # review34: routes that are not a store to a name of the module
    "import random\nimport secrets\nsecrets.__setattr__('randbelow', random.Random(0).randrange)\n",
    "import random\nimport secrets\nobject.__setattr__(secrets, 'randbelow', random.Random(0).randrange)\n",
    "import random\nimport secrets\nmods = [secrets]\nmods[0].randbelow = random.Random(0).randrange\n",
    "import builtins\nrun = getattr(builtins, 'ex' + 'ec')\n",
    "import builtins\nbuiltins.min = lambda a, b: a\n",
    "import mpmath\nmpmath.exp = lambda v: 3 * v\n",
    "import numpy as np\nfrom dpsens import laplace_mechanism as lm\n"
    "lm.__kwdefaults__['rng'] = np.random.default_rng(0)\n",
    "from dpsens import *\nlaplace_mechanism.__globals__['_laplace_draw'] = None\n",
], ids=["random-source", "runtime-sampler", "math", "dunder-setattr", "object-setattr",
        "in-a-list", "getattr", "builtins", "mpmath", "kwdefaults", "globals"])
def test_replacing_what_the_noise_is_made_with_makes_every_mechanism_unbounded(
        tmp_path: Path, patch: str) -> None:
    # review33: a seeded random source or a zero sampler makes the noise a fixed function
    # of the seed (x = 5 and x = 6 came out 7.2965 and 8.2965): it was (1, 0).
    path = tmp_path / "patched.py"
    path.write_text(patch + "from dpsens import Priv, Real, laplace_mechanism\n\n\n"
                    "def release(x: Real) -> Priv[Real]:\n"
                    "    return laplace_mechanism(1.0, 1.0, x)\n")
    [report] = check_paths([str(path)]).files
    [function] = report.functions
    assert (function["params"][0]["epsilon"], function["params"][0]["delta"]) == ("inf", "inf")
    assert any(d.code == "DPS206" and "replace" in d.message for d in report.diagnostics)


def test_a_checked_module_named_like_a_runtime_library_is_reported(tmp_path: Path) -> None:
    # review34: secrets.py beside a script shadows the library the mechanisms draw from
    # (a seeded randbelow made release(5) and release(6) differ by exactly 1, every run).
    (tmp_path / "secrets.py").write_text("import random\n\n_r = random.Random(0)\n\n\n"
                                         "def randbelow(n: int) -> int:\n    return _r.randrange(n)\n")
    (tmp_path / "app.py").write_text("from dpsens import Priv, Real, laplace_mechanism\n\n\n"
                                     "def release(x: Real) -> Priv[Real]:\n"
                                     "    return laplace_mechanism(1.0, 1.0, x)\n")
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "random.py").write_text("VALUE = 1\n")  # pkg.random shadows nothing
    result = check_paths([str(tmp_path)])
    found = {(f.path.rsplit("/", 1)[-1], d.code) for f in result.files for d in f.diagnostics}
    assert found == {("secrets.py", "DPS008")}
