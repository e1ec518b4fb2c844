"""The table's screens, drawn with pygame from immutable snapshots only: venue and broadcast."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on the appliance's console

# The imports follow the environment setting above, before anything imports pygame.
from display.delay import DelayedSnapshots
from display.display_config import BlindLevel, DisplayConfig, LevelNow
from firmware_py.odds.equity import Equity, calculate_equity

__all__ = [
    "BlindLevel",
    "DelayedSnapshots",
    "DisplayConfig",
    "Equity",
    "LevelNow",
    "calculate_equity",
]
