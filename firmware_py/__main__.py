"""`python -m firmware_py` runs the command-line interface."""

import sys

from firmware_py.cli import main

sys.exit(main())
