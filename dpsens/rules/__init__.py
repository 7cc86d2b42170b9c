"""The rule table: stub files plus the special rules they name."""

from pathlib import Path

# The bundled stubs: dpsens/stubs links to the repository's stubs/, so an
# installed wheel (a pre-commit environment) ships them too.
BUNDLED_STUBS = Path(__file__).resolve().parents[1] / "stubs"
