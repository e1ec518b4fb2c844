"""The table's screens, drawn with pygame from immutable snapshots only: venue and broadcast."""

from display.config import BlindLevel, DisplayConfig, LevelNow
from display.delay import DelayedSnapshots
from display.equity import Equity, calculate_equity, describe_hand

__all__ = [
    "BlindLevel",
    "DelayedSnapshots",
    "DisplayConfig",
    "Equity",
    "LevelNow",
    "calculate_equity",
    "describe_hand",
]
