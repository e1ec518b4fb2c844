"""The odds: win, tie and pot-share chances of the hands in play, and their cache, beside the core's evaluator.

Pure of any screen (no pygame): the table's screens, the room's broadcast and the commands all read the
chances here, so none of them imports `display/` for them. `equity` is the arithmetic (a pure function of
the hands, the board and a random generator the caller passes); `chances` reads a snapshot's live hands
and keeps the results per deal, computed in a worker process when a screen must not wait.
"""

from __future__ import annotations

from firmware_py.odds.equity import Equity, calculate_equity

__all__ = ["Equity", "calculate_equity"]
