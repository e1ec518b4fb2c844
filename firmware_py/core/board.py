"""The board of one hand: its cards, the street being dealt, and the one ledger of its burn cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from firmware_py.core.rulings import Street

BOARD_NEEDED: Final = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}
POSITION_STREET: Final = {1: Street.FLOP, 2: Street.FLOP, 3: Street.FLOP, 4: Street.TURN, 5: Street.RIVER}  # board1..5
STREET_ORDER: Final = {street: order for order, street in enumerate(Street)}  # preflop 0 .. river 3, as declared
NEXT_STREET: Final = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}
UNKNOWN_BURN: Final = "?"  # a burn put back on the deck without the core knowing which card it was

# Made at every hand and street (and copied at the hand's undo checkpoint): `__init__` written out for
# mypyc, a container left out (None) starting empty; see the note in hand.py.


@dataclass(kw_only=True, slots=True)
class StreetDeal:
    """The burn and board cards of one street as they come out of the shoe and land."""

    street: Street
    expected_burns: int
    burns: list[str] = field(default_factory=list)  # credited before the street (kept, put back)
    shoe: list[str] = field(default_factory=list)  # drawn from the shoe for this street
    board: list[str] = field(default_factory=list)
    judged: bool = False
    missing_ruled: bool = False
    extra: list[str] = field(default_factory=list)  # flop cards past three
    lifted: list[str] = field(default_factory=list)  # board cards taken off before anyone acted

    def __init__(self, street: Street, expected_burns: int, burns: list[str] | None = None,  # noqa: PLR0917 (events.py)
                 shoe: list[str] | None = None, board: list[str] | None = None, judged: bool = False,
                 missing_ruled: bool = False, extra: list[str] | None = None, lifted: list[str] | None = None) -> None:
        self.street = street
        self.expected_burns = expected_burns
        self.burns = [] if burns is None else burns
        self.shoe = [] if shoe is None else shoe
        self.board = [] if board is None else board
        self.judged = judged
        self.missing_ruled = missing_ruled
        self.extra = [] if extra is None else extra
        self.lifted = [] if lifted is None else lifted

    def copy(self) -> StreetDeal:
        # By position, in field order: see events.py
        return StreetDeal(self.street, self.expected_burns, self.burns.copy(), self.shoe.copy(), self.board.copy(),
                          self.judged, self.missing_ruled, self.extra.copy(), self.lifted.copy())

    @property
    def needed(self) -> int:
        return BOARD_NEEDED[self.street]

    def burn_cards(self) -> list[str]:
        """The street's burns: those credited before it, then shoe cards that did not land on the board."""
        seen = list(self.burns)
        for uid in self.shoe:
            if uid not in self.board and uid not in self.extra and uid not in seen:
                seen.append(uid)
        return seen

    def drawn_after_board(self) -> list[str]:
        """Cards drawn after the street's last board card was drawn: the next street's, not burns of this one."""
        drawn = [self.shoe.index(uid) for uid in self.board if uid in self.shoe]
        if not drawn:
            return []
        return [uid for uid in self.shoe[max(drawn) + 1:] if uid not in self.board and uid not in self.extra]


@dataclass(kw_only=True, slots=True)
class BurnLedger:
    """Every burn of the hand: those owed to the streets to come and those the streets had.

    A street to come may expect other than one burn (after a premature card) and be credited
    cards before it is dealt (an exposed or extra card put back as its burn).
    """

    due: dict[Street, tuple[int, list[str]]] = field(default_factory=dict)  # street: (expected, credited)
    out: list[str] = field(default_factory=list)  # the burns judged so far, in order

    def __init__(self, due: dict[Street, tuple[int, list[str]]] | None = None, out: list[str] | None = None) -> None:
        self.due = {} if due is None else due
        self.out = [] if out is None else out

    def copy(self) -> BurnLedger:
        due = {street: (expected, credited.copy()) for street, (expected, credited) in self.due.items()}
        return BurnLedger(due, self.out.copy())  # by position: see events.py

    def credit(self, street: Street, uid: str) -> None:
        """A card (or UNKNOWN_BURN) set aside as a burn of a street to come."""
        expected, credited = self.due.get(street, (1, []))
        self.due[street] = (expected, [*credited, uid])

    def take(self, street: Street) -> tuple[int, list[str]]:
        """The burns a street about to be dealt expects, and the cards already credited to it."""
        return self.due.pop(street, (1, []))

    def record(self, uid: str) -> None:
        if uid != UNKNOWN_BURN and uid not in self.out:
            self.out.append(uid)

    def forget(self, uid: str, deal: StreetDeal | None) -> None:
        """A card counted as a burn came out of the shoe again: where it goes now is what counts."""
        if uid in self.out:
            self.out.remove(uid)
        if deal is not None and uid in deal.burns:
            deal.burns.remove(uid)
        for street, (expected, credited) in list(self.due.items()):
            if uid in credited:
                self.due[street] = (expected, [card for card in credited if card != uid])


@dataclass(kw_only=True, slots=True)
class Board:
    """The board cards in play, the street being dealt and the cards drawn for it."""

    cards: list[str] = field(default_factory=list)
    burns: BurnLedger = field(default_factory=BurnLedger)
    deal: StreetDeal | None = None
    settle: StreetDeal | None = None  # a complete street whose burns are still to be judged
    loose: list[str] = field(default_factory=list)  # shoe cards drawn during a betting round
    premature: Street | None = None  # the street a premature card was turned for
    last_drawn: str | None = None  # the card just out of the shoe: read again at once, it is the same read
    # All in, no betting: a card seen on a later street's position (board4) while the street being
    # dealt still lacks a card whose read is late (board3 after a reader dropout). (uid, position).
    early: list[tuple[str, int]] = field(default_factory=list)

    def __init__(self, cards: list[str] | None = None, burns: BurnLedger | None = None,  # noqa: PLR0917 (events.py)
                 deal: StreetDeal | None = None, settle: StreetDeal | None = None, loose: list[str] | None = None,
                 premature: Street | None = None, last_drawn: str | None = None,
                 early: list[tuple[str, int]] | None = None) -> None:
        self.cards = [] if cards is None else cards
        self.burns = BurnLedger() if burns is None else burns
        self.deal = deal
        self.settle = settle
        self.loose = [] if loose is None else loose
        self.premature = premature
        self.last_drawn = last_drawn
        self.early = [] if early is None else early

    def copy(self) -> Board:
        # `settle` may be `deal` itself: copied apart, as the undo checkpoints always did
        # By position, in field order: see events.py
        return Board(self.cards.copy(), self.burns.copy(), self.deal.copy() if self.deal is not None else None,
                     self.settle.copy() if self.settle is not None else None, self.loose.copy(), self.premature,
                     self.last_drawn, self.early.copy())
