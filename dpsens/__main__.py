"""``python -m dpsens``."""

from dpsens.cli import run

run()
