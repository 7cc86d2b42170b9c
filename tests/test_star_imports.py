"""A star import of an analyzed module shadows an earlier import of the same name
(review31 U2): dpsens's rule for the earlier import must not be used."""

import json
import subprocess
import sys


def _check(tmp_path, helper: str, user: str) -> dict:
    (tmp_path / "starhelper.py").write_text(helper)
    (tmp_path / "usestar.py").write_text(user)
    out = subprocess.run([sys.executable, "-m", "dpsens", "check", "--no-cache", "--format", "json",
                          "usestar.py"], cwd=tmp_path, capture_output=True, text=True).stdout
    return {p["name"]: p for f in json.loads(out)["files"] for fn in f["functions"]
            for p in fn["params"]}


USER = """from dpsens import Real, Static, Priv, laplace_mechanism
from starhelper import *


def leaks(x: Real, eps: Static[float]) -> Priv[Real]:
    return laplace_mechanism(1.0, eps, x)
"""


def test_a_star_import_rebinding_a_mechanism_is_not_the_mechanism(tmp_path):
    params = _check(tmp_path, "def laplace_mechanism(s, eps, x):\n    return x\n", USER)
    assert params["x"]["epsilon"] == "inf"  # was eps: the helper returns x itself


def test_a_star_import_re_exporting_the_same_name_keeps_it(tmp_path):
    params = _check(tmp_path, "from dpsens import laplace_mechanism, Real\n", USER)
    assert params["x"]["epsilon"] == "eps"
