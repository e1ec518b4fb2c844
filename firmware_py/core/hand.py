"""One hand's state, by concept: the hole cards, the betting and its misdeal window, the board (board.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_py.core.board import Board
from firmware_py.core.rulings import Ruling, Street
from firmware_py.core.snapshot import ClockView, Phase
from firmware_py.core.table import Positions
from firmware_py.core.vocab import Where


@dataclass(frozen=True, kw_only=True, slots=True)
class CardInfo:
    card: str
    deck: str
    back: str


@dataclass(kw_only=True, slots=True)
class Dealt:
    """The hole cards: dealt by slot, held by seat, owed to a seat, and the deal's irregular cards."""

    slots: list[str | None] = field(default_factory=list)  # the deal's cards in order (None: a scrapped card)
    next_slot: int = 0
    hole: dict[int, list[str]] = field(default_factory=dict)
    owed: list[tuple[int, str | None]] = field(default_factory=list)  # seat, card it replaces
    exposed: int = 0
    boxed: int = 0
    extra: list[str] = field(default_factory=list)
    jokers: dict[int, str] = field(default_factory=dict)  # seat -> joker UID not yet replaced

    def seat_of(self, uid: str) -> int | None:
        for seat, cards in self.hole.items():
            if uid in cards:
                return seat
        return None

    def slot_of(self, uid: str) -> int | None:
        return self.slots.index(uid) if uid in self.slots else None


@dataclass(kw_only=True, slots=True)
class Betting:
    """Who is in, who acted, who is to act, and whether a misdeal may still be called."""

    window_open: bool = True
    window_actors: set[int] = field(default_factory=set)
    folded: set[int] = field(default_factory=set)
    allin: set[int] = field(default_factory=set)
    dead: set[int] = field(default_factory=set)
    acted: set[int] = field(default_factory=set)  # seats that acted since the last aggression
    round_actions: int = 0
    preflop_actions: int = 0
    round_closed: bool = False
    to_act: int | None = None


@dataclass(kw_only=True, slots=True)
class Hand:
    number: int
    positions: Positions
    phase: Phase = Phase.DEALING
    street: Street = Street.PREFLOP
    where: dict[str, Where] = field(default_factory=dict)
    identity: dict[str, str] = field(default_factory=dict)  # card -> UID, for duplicates
    dealt: Dealt = field(default_factory=Dealt)
    betting: Betting = field(default_factory=Betting)
    board: Board = field(default_factory=Board)
    clock: ClockView | None = None
    rulings: list[Ruling] = field(default_factory=list)
    showdown: Ruling | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        return self.positions.deal_order

    def live(self) -> list[int]:
        return [s for s in self.seats if s not in self.betting.folded and s not in self.betting.dead]

    def can_act(self) -> list[int]:
        return [s for s in self.live() if s not in self.betting.allin]
