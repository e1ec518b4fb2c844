"""One hand's state, by concept: the hole cards, the betting and its misdeal window, the board (board.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from firmware_py.core.board import Board, StreetDeal
from firmware_py.core.events import ButtonName
from firmware_py.core.game import HOLDEM, Game
from firmware_py.core.phase import BETTING, ClockView, Phase
from firmware_py.core.profiles import MisdealWindow
from firmware_py.core.rulings import PREFLOP, Ruling, Street
from firmware_py.core.seating import Positions
from firmware_py.core.vocab import Where

# The hand's records are made at every hand (and copied at its undo checkpoint): their `__init__` is
# written out for mypyc, as the per-event records' are (see the note in events.py). A container left
# out (None) starts empty, as the field's default factory would make it. tests/rules/test_core_state.py
# checks each against its fields.


@dataclass(frozen=True, kw_only=True, slots=True)
class CardInfo:
    card: str
    deck: str
    back: str

    def __init__(self, *, card: str, deck: str, back: str) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "back", back)


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

    def __init__(self, slots: list[str | None] | None = None, next_slot: int = 0,  # noqa: PLR0917 (events.py)
                 hole: dict[int, list[str]] | None = None, owed: list[tuple[int, str | None]] | None = None,
                 exposed: int = 0, boxed: int = 0, extra: list[str] | None = None,
                 jokers: dict[int, str] | None = None) -> None:
        self.slots = [] if slots is None else slots
        self.next_slot = next_slot
        self.hole = {} if hole is None else hole
        self.owed = [] if owed is None else owed
        self.exposed = exposed
        self.boxed = boxed
        self.extra = [] if extra is None else extra
        self.jokers = {} if jokers is None else jokers

    def copy(self) -> Dealt:
        # By position, in field order (slots, next_slot, hole, owed, exposed, boxed, extra, jokers): see events.py
        return Dealt(self.slots.copy(), self.next_slot, {seat: cards.copy() for seat, cards in self.hole.items()},
                     self.owed.copy(), self.exposed, self.boxed, self.extra.copy(), self.jokers.copy())

    def seat_of(self, uid: str) -> int | None:
        for seat, cards in self.hole.items():
            if uid in cards:
                return seat
        return None

    def slot_of(self, uid: str) -> int | None:
        return self.slots.index(uid) if uid in self.slots else None


@dataclass(frozen=True, kw_only=True, slots=True)
class Declared:
    """An action pressed for a seat the action had not reached: held until the seat's turn (out of turn)."""

    seat: int
    name: ButtonName
    amount: int | None
    since: int  # how many actions of the round were taken when it was declared

    def what(self) -> str:
        return f"{self.name}{f' {self.amount:,}' if self.amount is not None else ''}"

    def label(self) -> str:
        return f"{self.what()} out of turn"


@dataclass(kw_only=True, slots=True, unsafe_hash=True)  # read-only as chips.py's `Wager` (see the note there)
class Taken:
    """One action the table took, in the order it took them: who, what it was in chips terms, on which street."""

    street: Final[Street]
    seat: Final[int]
    name: Final[ButtonName]  # as pressed (or declared out of turn)
    word: Final[str]  # what it was: fold, check, call, bet, raise (an all-in counted as what it did)

    def __init__(self, street: Street, seat: int, name: ButtonName, word: str) -> None:  # positional too: see events.py
        self.street = street
        self.seat = seat
        self.name = name
        self.word = word


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
    taken: list[Taken] = field(default_factory=list)  # every action of the hand, in order
    round_start: int = 0  # the index in `taken` where this betting round began
    declared: dict[int, Declared] = field(default_factory=dict)  # actions out of turn waiting for their seat
    # seats that may not bet or raise this turn, with what they did out of turn ("check", "call")
    no_raise: dict[int, str] = field(default_factory=dict)
    posted: set[int] = field(default_factory=set)  # seats whose bet or raise this round was posted out of turn

    def __init__(self, window_open: bool = True, window_actors: set[int] | None = None,  # noqa: PLR0917 (events.py)
                 folded: set[int] | None = None, allin: set[int] | None = None, dead: set[int] | None = None,
                 acted: set[int] | None = None, round_actions: int = 0, preflop_actions: int = 0,
                 round_closed: bool = False, to_act: int | None = None, taken: list[Taken] | None = None,
                 round_start: int = 0, declared: dict[int, Declared] | None = None,
                 no_raise: dict[int, str] | None = None, posted: set[int] | None = None) -> None:
        self.window_open = window_open
        self.window_actors = set() if window_actors is None else window_actors
        self.folded = set() if folded is None else folded
        self.allin = set() if allin is None else allin
        self.dead = set() if dead is None else dead
        self.acted = set() if acted is None else acted
        self.round_actions = round_actions
        self.preflop_actions = preflop_actions
        self.round_closed = round_closed
        self.to_act = to_act
        self.taken = [] if taken is None else taken
        self.round_start = round_start
        self.declared = {} if declared is None else declared
        self.no_raise = {} if no_raise is None else no_raise
        self.posted = set() if posted is None else posted

    def copy(self) -> Betting:
        # By position, in field order: see events.py (tests/rules/test_core_state.py checks every field's copy)
        return Betting(self.window_open, self.window_actors.copy(), self.folded.copy(), self.allin.copy(),
                       self.dead.copy(), self.acted.copy(), self.round_actions, self.preflop_actions,
                       self.round_closed, self.to_act, self.taken.copy(), self.round_start, self.declared.copy(),
                       self.no_raise.copy(), self.posted.copy())


@dataclass(kw_only=True, slots=True)
class Hand:
    number: int
    positions: Positions
    game: Game = HOLDEM  # what this hand deals, whatever a setup during it says for the next
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

    def __init__(self, number: int, positions: Positions,  # noqa: PLR0917 (events.py)
                 game: Game = HOLDEM, phase: Phase = Phase.DEALING, street: Street = Street.PREFLOP,
                 where: dict[str, Where] | None = None,
                 identity: dict[str, str] | None = None, dealt: Dealt | None = None, betting: Betting | None = None,
                 board: Board | None = None, clock: ClockView | None = None, rulings: list[Ruling] | None = None,
                 showdown: Ruling | None = None) -> None:
        self.number = number
        self.positions = positions
        self.game = game
        self.phase = phase
        self.street = street
        self.where = {} if where is None else where
        self.identity = {} if identity is None else identity
        self.dealt = Dealt() if dealt is None else dealt
        self.betting = Betting() if betting is None else betting
        self.board = Board() if board is None else board
        self.clock = clock
        self.rulings = [] if rulings is None else rulings
        self.showdown = showdown

    def copy(self) -> Hand:
        """A copy sharing nothing mutable (an undo checkpoint): written out, as one is kept at every hand."""
        # By position, in field order: see events.py
        return Hand(self.number, self.positions, self.game, self.phase, self.street, self.where.copy(),
                    self.identity.copy(), self.dealt.copy(), self.betting.copy(), self.board.copy(), self.clock,
                    self.rulings.copy(), self.showdown)

    @property
    def seats(self) -> tuple[int, ...]:
        return self.positions.deal_order

    def live(self) -> list[int]:
        betting = self.betting  # asked after every event: the common case (nobody out) copies the order
        folded, dead = betting.folded, betting.dead
        if not folded and not dead:
            return list(self.positions.deal_order)
        return [s for s in self.positions.deal_order if s not in folded and s not in dead]

    def can_act(self) -> list[int]:
        betting = self.betting
        folded, dead, allin = betting.folded, betting.dead, betting.allin
        if not folded and not dead and not allin:
            return list(self.positions.deal_order)
        return [s for s in self.positions.deal_order if s not in folded and s not in dead and s not in allin]

    def one_can_act(self) -> bool:
        """At most one seat can act (`len(can_act()) <= 1`): the others are all in, folded or dead, and the
        rest of the board comes without betting. Asked at every street and board card: a pass that stops
        at the second seat, no list made."""
        betting = self.betting
        folded, dead, allin = betting.folded, betting.dead, betting.allin
        order = self.positions.deal_order
        if len(order) - len(folded) - len(dead) - len(allin) > 1:  # at least that many can act, whatever the sets hold
            return False
        acting = 0
        for seat in order:
            if seat not in folded and seat not in dead and seat not in allin:
                acting += 1
                if acting > 1:
                    return False
        return True

    # -- the betting round ---------------------------------------------------------------------

    def first_to_act(self) -> int | None:
        """Pre-flop: left of the big blind (heads-up, the button). After: left of the button (heads-up, the BB)."""
        order = self.positions.deal_order
        positions = self.positions
        if self.street is PREFLOP:
            if positions.heads_up:
                start = order.index(positions.button) if positions.button in order else 0
            else:
                bb = positions.big_blind
                start = (order.index(bb) + 1) % len(order) if bb in order else 0
        elif positions.heads_up:
            start = order.index(positions.big_blind) if positions.big_blind in order else 0
        else:
            start = 0
        folded, dead, allin = self.betting.folded, self.betting.dead, self.betting.allin
        seats = len(order)
        for index in range(start, start + seats):  # round the table from `start`
            seat = order[index % seats]
            if seat not in folded and seat not in dead and seat not in allin:
                return seat
        return None

    def next_to_act(self, after: int) -> int | None:
        """The first seat after `after` that can act and has not acted since the last bet or raise; None when the
        round is complete (as `round_complete` has it). Asked at every action."""
        betting = self.betting
        folded, dead, allin, acted = betting.folded, betting.dead, betting.allin, betting.acted
        order = self.positions.deal_order
        # (contested()'s count written out for its common answer: asked at every action)
        if betting.round_closed or (len(order) - len(folded) - len(dead) <= 1 and not self.contested()):
            return None
        seats = len(order)
        start = order.index(after) + 1  # `after` is a seat of the hand: the one that has just acted
        for index in range(start, start + seats):  # round the table from the seat after it (no slices made)
            seat = order[index % seats]
            if seat not in folded and seat not in dead and seat not in allin and seat not in acted:
                return seat
        return None

    def contested(self) -> bool:
        """More than one hand is live (not folded, not dead). Asked twice at every action: the common answer by
        counting, else a pass that stops at the second live seat."""
        folded, dead = self.betting.folded, self.betting.dead
        order = self.positions.deal_order
        if len(order) - len(folded) - len(dead) > 1:  # at least that many live, whatever the sets hold
            return True
        live = 0
        for seat in order:
            if seat not in folded and seat not in dead:
                live += 1
                if live > 1:
                    return True
        return False

    def round_complete(self) -> bool:
        betting = self.betting
        if betting.round_closed:
            return True
        # Everyone who can still act (not all in) has acted since the last bet or raise (the big
        # blind included), or one hand is left. One pass: asked at every press and every card.
        folded, dead, acted, allin = betting.folded, betting.dead, betting.acted, betting.allin
        live = 0
        waiting = False
        for seat in self.positions.deal_order:
            if seat not in folded and seat not in dead:
                live += 1
                waiting = waiting or (seat not in acted and seat not in allin)
        return live <= 1 or not waiting

    def before_action_on(self, deal: StreetDeal) -> bool:
        """The street's betting is open and nobody has acted on it yet."""
        return self.phase is BETTING and deal.street is self.street and self.betting.round_actions == 0

    def count_for_window(self, seat: int, name: ButtonName, window: MisdealWindow) -> None:
        """A pre-flop action: the misdeal window closes once enough players (after the blinds) acted."""
        betting = self.betting
        if not betting.window_open or name not in window.closing_actions:
            return
        order = self.positions.deal_order
        # The seats whose actions count: all, or those that are not the blinds (all of them when the blinds
        # are all); counted, not listed (asked at every action before the window closes).
        counts, size = seat in order, len(order)
        if window.after_blinds_only:
            small, big = self.positions.small_blind, self.positions.big_blind
            others = size - (small in order) - (big in order and big != small)
            if others:
                counts, size = counts and seat not in (small, big), others
        if counts:
            betting.window_actors.add(seat)
        if len(betting.window_actors) >= min(window.actions_needed, size):
            betting.window_open = False
