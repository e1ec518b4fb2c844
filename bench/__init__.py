"""Benchmarks of the table appliance: `python -m bench` (see bench/run.py)."""

import sys

from bench import _startup

# A benchmark imports its start-up step as `_startup` (as a script, bench/ is on the path): the same module here.
sys.modules.setdefault("_startup", _startup)
