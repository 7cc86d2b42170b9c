"""``python -m dpsens``."""

import sys

from dpsens.cli import main

sys.exit(main())
