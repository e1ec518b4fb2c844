"""The one start-up step of a benchmark: the repository root on `sys.path`, so `firmware_py`, `display`,
`hardware` and `tests` import from this checkout whether a benchmark runs as a script
(`python bench/room_scale.py`: Python puts bench/, not the root, on the path) or as a module
(`python -m bench`, where bench/__init__.py makes this module importable under the same name).

Each benchmark starts with `from _startup import ROOT` before the project's imports.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
