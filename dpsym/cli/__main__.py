"""``python -m dpsym.cli``."""

import sys

from dpsym.cli import main

sys.exit(main())
