"""Regenerate the pinned reports: ``python tests/golden/regenerate.py`` from the repository root."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent


def pinned_outputs() -> dict[str, str]:
    """File name -> the output it pins."""
    from dpsens.check import check_paths
    from dpsens.report import json_format, text

    result = check_paths(["examples"])
    return {"examples.json": json_format.render(result), "examples.txt": text.render(result)}


def main() -> int:
    """Write every pinned output."""
    import os

    os.chdir(ROOT)
    for name, content in pinned_outputs().items():
        (GOLDEN / name).write_text(content)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
