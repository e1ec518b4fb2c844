"""Immutable views of the table that the display and the daemon read; they never touch the core."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from firmware_py.core.chips import Pot
from firmware_py.core.rulings import Ruling, Street


class Phase(StrEnum):
    """Where the hand is."""

    IDLE = "idle"  # between hands: waiting for new_hand
    DEALING = "dealing"  # hole cards coming out of the shoe
    BETTING = "betting"  # a betting round is under way (`street` says which)
    BOARD = "board"  # the round is done; burn and board cards for the next street are due
    SHOWDOWN = "showdown"  # all streets dealt and bet; waiting for hand_end
    MISDEALT = "misdealt"  # a misdeal or void hand was ruled; waiting for new_hand


class PlayerState(StrEnum):
    EMPTY = "empty"  # no player in the seat
    WAITING = "waiting"  # seated but not dealt into this hand
    ACTIVE = "active"
    FOLDED = "folded"
    ALLIN = "allin"
    DEAD = "dead"  # hand ruled dead


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatView:
    seat: int
    state: PlayerState
    cards: tuple[str, ...] = ()  # hole cards in deal order; only the broadcast view may show faces
    is_button: bool = False
    is_small_blind: bool = False
    is_big_blind: bool = False
    to_act: bool = False
    stack: int | None = None  # chips behind (None: the table does not count chips)
    bet: int | None = None  # chips put in this betting round
    last_action: str | None = None  # e.g. "raise 600", "call 200", "fold"


@dataclass(frozen=True, kw_only=True, slots=True)
class ClockView:
    """The shot clock on a player: started at `started_t` (session seconds), per the profile."""

    seat: int
    started_t: float
    seconds: float
    warnings: tuple[float, ...]
    countdown: int
    rule: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ChipsView:
    """The chips of the hand: the pot (bets of this round included), its pots, and what the seat to act faces."""

    pot: int
    pots: tuple[Pot, ...]  # main pot first, then side pots; winners filled in once awarded
    level: str  # e.g. "50/100 ante 10"
    to_call: int = 0
    min_raise_to: int | None = None  # the smallest legal bet or raise for the seat to act
    may_raise: bool = True
    raised_by: int = 0  # the largest bet or raise increment of this round so far


@dataclass(frozen=True, kw_only=True, slots=True)
class TableSnapshot:
    t: float
    profile: str
    profile_title: str
    hand_number: int
    phase: Phase
    street: Street | None
    seats: tuple[SeatView, ...]
    button: int | None
    small_blind: int | None
    big_blind: int | None
    to_act: int | None
    board: tuple[str, ...]
    burns: tuple[str, ...]
    in_play: str
    unconfirmed: tuple[Ruling, ...] = ()  # rulings shown until the dealer presses confirm
    hand_rulings: tuple[Ruling, ...] = ()  # every ruling of this hand, oldest first
    showdown: Ruling | None = None
    clock: ClockView | None = None
    notices: tuple[str, ...] = field(default_factory=tuple)
    chips: ChipsView | None = None  # pot, side pots and the minimum raise, when the table counts chips

    def seat(self, number: int) -> SeatView:
        for view in self.seats:
            if view.seat == number:
                return view
        raise KeyError(number)
