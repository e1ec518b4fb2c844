"""Where a hand is (its `Phase`, and the phases by what they allow) and the shot clock's record.

The lowest layer of the hand's state: the hand, its handlers and the snapshot all read these, and
this module imports nothing of the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Phase(StrEnum):
    """Where the hand is."""

    IDLE = "idle"  # between hands: waiting for new_hand
    DEALING = "dealing"  # hole cards coming out of the shoe
    BETTING = "betting"  # a betting round is under way (`street` says which)
    BOARD = "board"  # the round is done; burn and board cards for the next street are due
    SHOWDOWN = "showdown"  # all streets dealt and bet; waiting for hand_end
    MISDEALT = "misdealt"  # a misdeal or void hand was ruled; waiting for new_hand


# Each member also as a module constant (as `re.IGNORECASE` is `re.RegexFlag.IGNORECASE`), for the code that
# asks it at every event, as vocab.py, rulings.py, events.py and game.py do for theirs (bench/HISTORY.md says why).
IDLE: Final = Phase.IDLE
DEALING: Final = Phase.DEALING
BETTING: Final = Phase.BETTING
BOARD: Final = Phase.BOARD
SHOWDOWN: Final = Phase.SHOWDOWN
MISDEALT: Final = Phase.MISDEALT

# Phases by what they allow, as sets: asked at every read and press.
IN_PLAY: Final = frozenset({Phase.DEALING, Phase.BETTING, Phase.BOARD})  # cards coming or bets open
NO_HAND: Final = frozenset({Phase.IDLE, Phase.MISDEALT})  # nothing for a player's press to act on
HAND_OVER: Final = frozenset({Phase.IDLE, Phase.MISDEALT, Phase.SHOWDOWN})  # a card read no longer changes the hand


@dataclass(frozen=True, kw_only=True, slots=True)
class ClockView:
    """The shot clock on a player: started at `started_t` (session seconds), per the profile."""

    seat: int
    started_t: float
    seconds: float
    warnings: tuple[float, ...]
    countdown: int
    rule: str
    called_by: int | None = None  # the seat that called it (None: the dealer, or the floor)
    said: float | None = None  # the last warning or count given, in seconds left (None: none yet)
    raise_said: bool = False  # the player said "raise" with no amount: the clock runs on (a minimum raise at 0)
    action: bool = False  # a house's action clock, started on the decision itself (not called)
    extensions_left: int = 0  # the action clock: the seat's time-extension chips left

    def left(self, t: float) -> float:
        """Seconds left at session time `t` (0 or less: time has run out)."""
        return self.started_t + self.seconds - t
