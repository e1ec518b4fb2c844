"""The table's state between events, and the voice every rule handler speaks with: rulings and notices."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Final

from firmware_py.core.chips import TableChips
from firmware_py.core.game import HOLDEM, Game
from firmware_py.core.hand import CardInfo, Hand
from firmware_py.core.profiles import Profile, Rule
from firmware_py.core.race import RaceState
from firmware_py.core.rulings import Notice, NoticeKind, Ruling, RulingKind, Street
from firmware_py.core.seating import Positions
from firmware_py.core.vocab import Cause, RuleKey


@dataclass(kw_only=True, slots=True)
class TableState:
    """All the rule handlers read and change: private to the core, which saves it and takes it back.

    The handlers (flow.py, shoe.py, streets.py, betting.py and the layers below them) take it as their first
    argument; what the current event caused collects in `out_rulings` and `out_notices`.
    """

    profiles: Mapping[str, Profile]  # the profiles a setup may name: the core's own, never saved
    profile: Profile | None = None
    game: Game = HOLDEM  # the game the next hand deals (the setup's)
    t: float = 0.0
    occupied: set[int] = field(default_factory=set)
    joined: set[int] = field(default_factory=set)
    moved: set[int] = field(default_factory=set)  # seated after a move from another table, not yet dealt in
    cards: dict[str, CardInfo] = field(default_factory=dict)  # replaced, never changed in place: see SHARED
    in_play: str = ""
    back: str = ""
    button_seat: int | None = None
    previous: Positions | None = None
    redeal: Positions | None = None  # positions to reuse after a misdeal
    corrected: Positions | None = None  # positions found right after the window closed
    hand: Hand | None = None
    hand_number: int = 0
    unconfirmed: list[Ruling] = field(default_factory=list)
    made: int = 0  # rulings shown until confirmed, made in the session: each is numbered 1, 2, 3... by it
    notices: list[str] = field(default_factory=list)
    corrections: list[str] = field(default_factory=list)  # the operator's corrections since the hand began
    chips: TableChips = field(default_factory=TableChips)  # amounts, once a `stacks` event gave the seats' chips
    race: RaceState | None = None  # a chip race being dealt, or its result until the next hand (race.py)
    time_banks: dict[int, int] = field(default_factory=dict)  # a house's action clock: extension chips left by seat
    names: dict[int, str] = field(default_factory=dict)  # the players' names by seat, as `name` events gave them
    # Players checked in by card (checkin.py): the director's draw (seat -> player id), where each player checked in
    # (player id -> (table, seat): table "" is this one, seat 0 none given) and the last hand judged at its deal.
    draw: dict[int, str] = field(default_factory=dict)
    present: dict[str, tuple[str, int]] = field(default_factory=dict)
    judged: int = 0
    out_rulings: list[Ruling] = field(default_factory=list)  # outputs of one event, never saved
    out_notices: list[Notice] = field(default_factory=list)
    out_refused: str | None = None  # why the event fed was not taken (None: it was): its verdict, never saved

    def rule(self, key: RuleKey) -> Rule:
        """The profile's rule for the game dealt (the hand's; between hands the next one's)."""
        assert self.profile is not None
        return self.profile.rule(key, self.hand.game.name if self.hand is not None else self.game.name)

    def ruling(self, kind: RulingKind, key: RuleKey, *, cause: Cause | None = None, uid: str | None = None,
               seat: int | None = None, street: Street | None = None,
               fill: Mapping[str, object] | None = None) -> Ruling:
        """The ruling the profile's rule gives, its remedy filled in, emitted."""
        rule = self.rule(key)
        card = self.cards[uid].card if uid is not None and uid in self.cards else None
        game = self.hand.game if self.hand is not None else self.game
        text = rule.text(seat=seat, card=card, street=street, cards=game.hole_text(), **(fill or {}))
        return self.emit(Ruling(t=self.t, ruling=kind, rule=rule.cite, remedy=text, cause=cause, card=card,
                                seat=seat, street=street))

    def emit(self, ruling: Ruling, *, shown: bool = True) -> Ruling:
        """Out to the dealer: shown until confirmed (numbered: a confirm names it), and kept with the hand.
        `shown=False`: told, never waiting for a confirm (the showdown's own result)."""
        self.out_rulings.append(ruling)
        if shown:
            self.unconfirmed.append(ruling)
            self.made += 1
        if self.hand is not None:
            self.hand.rulings.append(ruling)
        return ruling

    @property
    def oldest_open(self) -> int | None:
        """The number of the oldest ruling shown (None: none is). Rulings leave `unconfirmed` only from its
        front (a confirm) or all at once (a new hand), so the open ones are the last made, in order."""
        return self.made - len(self.unconfirmed) + 1 if self.unconfirmed else None

    def notice(self, kind: NoticeKind, message: str) -> None:
        """Out to the operator; the screen keeps the last five."""
        self.out_notices.append(Notice(t=self.t, notice=kind, message=message))
        self.notices = [*self.notices[-4:], message]
        if kind is NoticeKind.CORRECTED:  # shown on the venue screen too (an undo adds its own: engine.py)
            self.corrections = [*self.corrections[-2:], message]

    def refuse(self, message: str) -> None:
        """The event fed is not taken: a notice to the operator, and the reason is the event's verdict (the first
        reason given, when a handler gives two). An ignored notice about anything else (a held action's fate, a
        seat folded as it left) is `notice`, never this."""
        self.notice(NoticeKind.IGNORED, message)
        if self.out_refused is None:
            self.out_refused = message


SAVED: Final = tuple(f.name for f in fields(TableState)
              if f.name not in {"profiles", "out_rulings", "out_notices", "out_refused"})
SHARED: Final = frozenset({"cards"})
"""Fields a checkpoint shares rather than copies: a new value replaces them, they never change in place
(the decks' cards, set by a setup; a stand-in for an unknown tag makes a new dict)."""
