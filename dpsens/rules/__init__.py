"""The rule table: stub files plus the special rules they name."""

from pathlib import Path
from typing import Sequence

# The bundled stubs: dpsens/stubs links to the repository's stubs/, so an
# installed wheel (a pre-commit environment) ships them too.
BUNDLED_STUBS = Path(__file__).resolve().parents[1] / "stubs"


def stub_files(stub_dirs: Sequence[Path] = (), bundled: bool = True) -> list[Path]:
    """The stub files of a rule table: the bundled ones, then each extra directory's."""
    directories = (BUNDLED_STUBS, *stub_dirs) if bundled else tuple(stub_dirs)
    return [path for directory in directories for path in sorted(Path(directory).glob("*.pyi"))]
