"""A hand replayed for the floor, street by street, from the table's journal (issue 38, item 3).

Pure: journal entries in (sequence number, the event, its line as journaled), a rules core to feed them
to; no file, clock or thread. Each hand is what the journal holds, in its order: every card read with
the antenna that read it (the shoe's reader, a felt antenna, the burn pad, a seat's antenna) and where
the table put it, every press with who made it (the panel, the action tracker, the keypad: the `by` the
journal wrote, daemon/origins.py), the core's answer to each, every ruling with its cite and remedy, and
the pots as the showdown ruled them. Nothing is guessed: a press journaled without `by` says "not
recorded", a tag no deck knows says so.

Hole cards follow the operator view's secrecy (`redact`): a hand still in play never shows a face-down
card (hole cards, burns, a ruling's face-down card); a finished hand shows what the house's rule says
(`HoleCards`: none, those shown down, or all).

>>> reader_of("board4"), reader_of("shoe"), reader_of("seat3")
('felt antenna board4', 'shoe reader', 'seat antenna 3')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Final

import msgspec

from firmware_py.core import Button, ButtonName, Event, Gone, Level, Read, Seat, Setup, Stacks, Tick
from firmware_py.core import Name as NameEvent
from firmware_py.core.engine import Outcome, TableCore
from firmware_py.core.rulings import Ruling
from firmware_py.core.snapshot import Phase, TableSnapshot

MAX_ENTRIES: Final = 1000  # a hand's entries kept (a hand holds a hundred or so; past it, counted)
# The replay travels in the room's hand message (room/messages.py): every field bounded, as the room's are (the
# same bounds as firmware_py/room/bounds.py, written here: that package imports this module for its schema).
Seq = Annotated[int, msgspec.Meta(ge=0, le=2**53 - 1)]
Count = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
Chips = Annotated[int, msgspec.Meta(ge=0, le=10**15)]
SeatNo = Annotated[int, msgspec.Meta(ge=1, le=10)]
Seconds = Annotated[float, msgspec.Meta(ge=0.0, le=1e9)]
Name = Annotated[str, msgspec.Meta(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")]
Text = Annotated[str, msgspec.Meta(max_length=4000, pattern=r"^[^\x00]*$")]
Card = Annotated[str, msgspec.Meta(max_length=32, pattern=r"^[^\x00-\x1f\x7f]*$")]
Cards = Annotated[list[Card], msgspec.Meta(max_length=64)]
Seats = Annotated[list[SeatNo], msgspec.Meta(max_length=10)]
MAX_HANDS: Final = 500  # hands a book keeps, the newest (a session's day at a busy table)
HIDDEN: Final = "hidden"  # what a hidden card reads as on the page


class HoleCards(StrEnum):
    """The house's rule for a finished hand's hole cards on the replay (a hand in play never shows them)."""

    NONE = "none"  # as the operator view: never a hole card
    SHOWDOWN = "showdown"  # the hands shown down (live at the showdown); folded hands stay face down
    ALL = "all"  # every hole card of a finished hand (the floor's dispute file)


def reader_of(antenna: str) -> str:
    """The antenna in the floor's words: which reader saw the card."""
    if antenna == "shoe":
        return "shoe reader"
    if antenna.startswith("board"):
        return f"felt antenna {antenna}"
    if antenna.startswith("seat"):
        return f"seat antenna {antenna.removeprefix('seat')}"
    return {"burn": "burn pad", "muck": "muck antenna"}.get(antenna, antenna)


class ReplayEntry(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One line of the replay: a journal event (`line` verbatim) or a ruling the event at `seq` caused (`n`)."""

    seq: Seq
    t: Seconds
    kind: Name  # card, gone, press, ruling, seat, stacks, name, level, tick, setup
    text: Text  # in words
    line: Text = ""  # the journal's line (events); "" for a ruling
    n: Annotated[int, msgspec.Meta(ge=0, le=1000)] | None = None  # a ruling: its number among its event's rulings
    reader: Name | None = None  # card: the antenna in words
    antenna: Name | None = None
    card: Card | None = None
    uid: Name | None = None
    to: Name | None = None  # where the table put the card: "seat 3", "burn", "board"
    secret: Name | None = None  # "hole" or "burn": face down (the secrecy applies)
    press: Name | None = None
    seat: SeatNo | None = None
    amount: Chips | None = None
    by: Name | None = None  # who pressed: panel, tracker, keypad (None: the journal does not say)
    verdict: Name | None = None  # the core's answer: taken, refused, ruled
    refused: Text | None = None
    ruling: Name | None = None
    cause: Name | None = None
    rule: Text | None = None  # the cite: "profile: section number"
    remedy: Text | None = None
    public_text: Text | None = None  # a ruling naming a face-down card: its words without it
    public_remedy: Text | None = None


class ReplayStreet(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    name: Name  # deal, preflop, flop, turn, river, showdown
    entries: Annotated[list[ReplayEntry], msgspec.Meta(max_length=MAX_ENTRIES)]


class ReplaySeat(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    seat: SeatNo
    name: Name = ""
    stack: Chips | None = None  # chips at the deal, before antes and blinds
    cards: Cards = []
    state: Name = ""  # at the hand's end: active, allin, folded, dead...
    shown: bool = False  # live at the showdown: the hand was shown down


class ReplayPot(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    name: Name
    amount: Chips
    seats: Seats
    winners: Seats = []
    shares: Annotated[list[Annotated[list[Chips], msgspec.Meta(min_length=2, max_length=2)]],
                      msgspec.Meta(max_length=10)] = []  # [seat, chips]


class HandReplay(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One hand as the journal holds it."""

    hand: Count
    profile: Name
    game: Name
    t: Seconds  # the deal's press
    first_seq: Seq
    last_seq: Seq
    finished: bool = False
    played: bool = True  # False: ended by a misdeal or a void ruling
    button: SeatNo | None = None
    seats: Annotated[list[ReplaySeat], msgspec.Meta(max_length=10)] = []
    board: Cards = []
    burns: Cards = []
    streets: Annotated[list[ReplayStreet], msgspec.Meta(max_length=64)] = []
    pots: Annotated[list[ReplayPot], msgspec.Meta(max_length=10)] = []
    result: Text = ""
    truncated: Count = 0  # entries not kept (past MAX_ENTRIES, or past what the room's message holds)
    hidden: Text = ""  # after `redact`: what is hidden and why


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One journal row as the replay reads it."""

    seq: int
    event: Event
    line: str

    @property
    def by(self) -> str | None:
        if '"by"' not in self.line:
            return None
        try:
            by = json.loads(self.line).get("by")
        except (ValueError, AttributeError):
            return None
        return by if isinstance(by, str) else None


def _section(before: TableSnapshot, starts: bool) -> str:
    """The part of the hand an event belongs to: the deal, a street (its betting or its cards), the showdown."""
    if starts or before.phase in (Phase.DEALING, Phase.IDLE, Phase.MISDEALT):
        return "deal"
    street = str(before.street or "preflop")  # (in the board phase: the street being dealt)
    if before.phase is Phase.SHOWDOWN:
        return "showdown"
    return street


def _ruling_text(ruling: Ruling) -> str:
    parts = [str(ruling.ruling).replace("_", " ")]
    if ruling.cause:
        parts.append(f"({ruling.cause.replace('_', ' ')})")
    if ruling.seat is not None:
        parts.append(f"seat {ruling.seat}")
    if ruling.card:
        parts.append(f"card {ruling.card}")
    if ruling.street:
        parts.append(f"on the {ruling.street}")
    if ruling.winners:
        parts.append("winner " + ", ".join(f"seat {s}" for s in ruling.winners))
    if ruling.hand:
        parts.append(f"with {ruling.hand}")
    return " ".join(parts)


def _pots(ruling: Ruling | None, after: TableSnapshot) -> list[ReplayPot]:
    pots = ruling.pots if ruling is not None and ruling.pots else (after.chips.pots if after.chips else ())
    out = []
    for number, pot in enumerate(pots):
        out.append(ReplayPot(name="main pot" if number == 0 else f"side pot {number}", amount=pot.amount,
                             seats=list(pot.seats), winners=list(pot.winners),
                             shares=[[seat, chips] for seat, chips in pot.shares]))
    return out


class _Open:
    """A hand being built."""

    def __init__(self, after: TableSnapshot, seq: int, t: float) -> None:
        self.replay = HandReplay(hand=after.hand_number, profile=after.profile, game=after.game, t=t,
                                 first_seq=seq, last_seq=seq, button=after.button)
        names = dict(after.names)
        self.replay.seats = [ReplaySeat(seat=v.seat, name=names.get(v.seat, ""), stack=v.stack)
                             for v in after.seats if v.state not in ("empty", "waiting")]
        self.entries = 0
        self.showdown: Ruling | None = None
        self.last = after  # the table's state after the hand's latest event (between hands: not kept)
        self.at_showdown: TableSnapshot | None = None  # its state when the hand was last at the showdown
        self.unplaced: dict[str, ReplayEntry] = {}  # by card: the latest read of it not yet placed

    def add(self, section: str, entry: ReplayEntry) -> None:
        if self.entries >= MAX_ENTRIES:
            self.replay.truncated += 1
            return
        self.entries += 1
        streets = self.replay.streets
        if not streets or streets[-1].name != section:
            streets.append(ReplayStreet(name=section, entries=[]))
        streets[-1].entries.append(entry)


class ReplayBook:
    """Every hand of a session, built as the journal's events are fed (`feed`), the newest MAX_HANDS kept.

    `core` is a fresh rules core (the table's profiles) that sees every event of the journal from its
    first, as the table's own core did: the rulings and pots are the table's, not a second opinion.
    """

    def __init__(self, core: TableCore | None = None, *, keep: int = MAX_HANDS) -> None:
        self.core = core if core is not None else TableCore({})
        self.keep = keep  # finished hands kept, the newest
        self.hands: list[HandReplay] = []
        self._open: _Open | None = None
        self._setup: Setup | None = None
        self._snapshot: TableSnapshot | None = None  # the core's state after the last event fed here
        self.seq = 0  # the last journal seq fed

    def feed_all(self, entries: Iterable[JournalEntry]) -> None:
        for entry in entries:
            self.feed(entry)

    def current(self) -> HandReplay | None:
        """The hand in play (not finished), if any."""
        if self._open is None:
            return None
        self._update(self._open)
        return self._open.replay

    def feed(self, entry: JournalEntry) -> None:
        """Feed the entry's event to the book's core, and keep what it made of it."""
        core = self.core
        before = self._snapshot if self._snapshot is not None else core.snapshot()  # the state the last left
        try:
            outcome = core.feed(entry.event)
        except ValueError as exc:  # the table's core refused it too: the journal holds it, the replay says so
            outcome = Outcome(refused=str(exc))
            after = before
        else:
            after = core.snapshot()
        self._snapshot = after
        self.observe(entry, before, after, outcome)

    def observe(self, entry: JournalEntry, before: TableSnapshot, after: TableSnapshot, outcome: Outcome) -> None:
        """Keep what the core made of the entry's event, fed to it elsewhere (the room's publisher feeds its
        core through a HandCutter): the core's state before and after it, and its outcome."""
        event, core = entry.event, self.core
        self.seq = entry.seq
        if isinstance(event, Setup):
            self._setup = event
        starts = after.hand_number != before.hand_number and after.phase is Phase.DEALING
        if starts:
            self._close()
            self._open = _Open(after, entry.seq, event.t)
            chips = core.hand_chips  # the stacks before antes and blinds, when the table counts chips
            if chips is not None:
                for seat in self._open.replay.seats:
                    seat.stack = chips.stacks.get(seat.seat, seat.stack)
        hand = self._open
        if hand is None:
            return  # between hands before the first deal: no hand to put it in
        if isinstance(event, Tick) and not outcome.rulings:
            return  # a shot clock's second: time passing, nothing to show
        section = _section(before, starts)
        hand.replay.last_seq = entry.seq
        row = self._entry(entry, before, after, outcome)
        hand.add(section, row)
        if row.kind == "card" and row.card is not None:
            hand.unplaced[row.card] = row
        self._placed_since(hand, before, after)
        for n, ruling in enumerate(outcome.rulings):
            public = ruling.public()
            hand.add(section, ReplayEntry(
                seq=entry.seq, t=ruling.t, kind="ruling", n=n, text=_ruling_text(ruling), ruling=str(ruling.ruling),
                cause=str(ruling.cause) if ruling.cause else None, seat=ruling.seat, card=ruling.card,
                rule=ruling.rule, remedy=ruling.remedy,
                public_text=_ruling_text(public) if public is not ruling else None,
                public_remedy=public.remedy if public is not ruling else None))
            if str(ruling.ruling) == "showdown":
                hand.showdown = ruling
        if after.hand_number == hand.replay.hand and after.phase is not Phase.IDLE:
            hand.last = after
            if after.phase is Phase.SHOWDOWN:
                hand.at_showdown = after
            elif after.phase is Phase.MISDEALT:
                hand.replay.played = False
        if after.phase in (Phase.IDLE, Phase.MISDEALT) or (
                after.hand_number != hand.replay.hand and not starts):
            self._close()

    @staticmethod
    def _update(hand: _Open) -> None:
        """The hand's seats, board, pots and result from the table's latest state in it (done when the hand is
        read or ends, not at every event: the room's publisher builds a replay of every hand as it plays)."""
        replay, after = hand.replay, hand.last
        views = {v.seat: v for v in after.seats}
        names = dict(after.names)
        for seat in replay.seats:
            view = views.get(seat.seat)
            if view is None:
                continue
            if view.cards:
                seat.cards = list(view.cards)
            seat.state = str(view.state)
            seat.name = names.get(seat.seat, seat.name)
        live = [s for s in replay.seats if s.state in ("active", "allin")]
        if hand.at_showdown is not None:
            tabled = [v.seat for v in hand.at_showdown.seats if v.state in ("active", "allin")]
            for seat in replay.seats:
                seat.shown = seat.seat in tabled and len(tabled) > 1
        if after.board or after.burns:
            replay.board, replay.burns = list(after.board), list(after.burns)
        pots = _pots(hand.showdown, after)
        if pots:
            replay.pots = pots
        if hand.showdown is not None and hand.showdown.winners:
            winners = ", ".join(f"seat {s}" for s in hand.showdown.winners)
            replay.result = f"{winners} {'win' if len(hand.showdown.winners) > 1 else 'wins'}" + (
                f" with {hand.showdown.hand}" if hand.showdown.hand else "")
        elif after.phase is Phase.SHOWDOWN and len(live) == 1:
            replay.result = f"seat {live[0].seat} wins uncontested"
        elif after.phase is Phase.MISDEALT:
            replay.result = "no hand: misdeal (the deal is void)"

    def _close(self) -> None:
        hand = self._open
        if hand is None:
            return
        self._update(hand)
        hand.replay.finished = True
        self.hands.append(hand.replay)
        del self.hands[:-self.keep]
        self._open = None

    def _card(self, uid: str) -> tuple[str | None, str]:
        """The card a tag is, by the decks of the journal's setup, and the deck ('' when none knows it)."""
        setup = self._setup
        for deck in setup.decks if setup is not None else ():
            card = deck.cards.get(uid)
            if card is not None:
                return card, deck.name
        return None, ""

    def _entry(self, entry: JournalEntry, before: TableSnapshot, after: TableSnapshot,
               outcome: Outcome) -> ReplayEntry:
        event = entry.event

        def row(kind: str, text: str, **more: Any) -> ReplayEntry:
            return ReplayEntry(seq=entry.seq, t=event.t, line=entry.line, kind=kind, text=text,
                               verdict=str(outcome.verdict), refused=outcome.refused, **more)

        if isinstance(event, Read | Gone):
            card, deck = self._card(event.uid)
            in_play = self._setup.in_play if self._setup is not None else ""
            named = card if card is not None else f"unknown tag {event.uid}"
            if card is not None and deck and deck != in_play:
                named += f" (deck {deck})"
            to, secret = (None, "hole") if event.antenna.startswith("seat") else (None, None)
            reader = reader_of(event.antenna)
            text = f"{named} left the {reader}" if isinstance(event, Gone) else named  # (where to: added when placed)
            return row("card" if isinstance(event, Read) else "gone", text, reader=reader, antenna=event.antenna,
                       card=card, uid=event.uid, to=to, secret=secret)
        if isinstance(event, Button):
            words = str(event.name).replace("_", " ")
            if event.amount is not None:
                words += f" {event.amount:,}"
            if event.seat is not None:
                words = f"seat {event.seat}: {words}"
            elif event.name not in (ButtonName.NEW_HAND, ButtonName.HAND_END, ButtonName.CONFIRM,
                                    ButtonName.ROUND_DONE, ButtonName.UNDO, ButtonName.MISDEAL) and before.to_act:
                words = f"seat {before.to_act}: {words}"
            return row("press", words, press=str(event.name), amount=event.amount, by=entry.by,
                       seat=event.seat if event.seat is not None else before.to_act)
        if isinstance(event, Seat):
            return row("seat", seat=event.seat, text=f"seat {event.seat} {event.status}")
        if isinstance(event, Stacks):
            chips = ", ".join(f"seat {seat} {amount:,}" for seat, amount in event.stacks)
            return row("stacks", f"stacks{' (' + event.why + ')' if event.why else ''}: {chips}")
        if isinstance(event, NameEvent):
            return row("name", seat=event.seat, text=f"seat {event.seat} named {event.name!r}")
        if isinstance(event, Level):
            ante = f" ante {event.ante:,}" if event.ante else ""
            return row("level", f"level {event.small:,}/{event.big:,}{ante}")
        if isinstance(event, Tick):
            return row("tick", text="shot clock")
        return row(type(event).__name__.lower(), text=type(event).__name__.lower())

    @staticmethod
    def _placed_since(hand: _Open, before: TableSnapshot, after: TableSnapshot) -> None:
        """The cards the table placed at this event (dealt to a seat, burned, turned on the board), each
        written on the latest read of it in this hand that is not yet placed (the read that brought it)."""
        if after.hand_number != hand.replay.hand:
            return
        placed: list[tuple[str, str, str | None]] = []
        seen = {v.seat: v.cards for v in before.seats}
        for view in after.seats:
            placed += [(card, f"seat {view.seat}", "hole") for card in view.cards[len(seen.get(view.seat, ())):]]
        placed += [(card, "burn", "burn") for card in after.burns[len(before.burns):]]
        placed += [(card, "board", None) for card in after.board[len(before.board):]]
        if not placed:
            return
        for card, to, secret in placed:
            read = hand.unplaced.pop(card, None)
            if read is not None:
                read.to, read.secret = to, secret
                read.text = f"{read.text} to {to}"


def redact(replay: HandReplay, rule: HoleCards) -> HandReplay:
    """The hand as the page may show it: a hand in play hides every face-down card; a finished one per `rule`."""
    if not replay.finished:
        keep: set[int] = set()
        why = "a hand in play: no face-down card is shown (hole cards and burns) until it ends"
        burns = False
    elif rule is HoleCards.ALL:
        return replay
    elif rule is HoleCards.SHOWDOWN:
        keep = {s.seat for s in replay.seats if s.shown}
        why = "the house shows the hands shown down; folded hands stay face down"
        burns = True
    else:
        keep = set()
        why = "the house shows no hole card"
        burns = True
    out = msgspec.structs.replace(replay, hidden=why, burns=replay.burns if burns else [HIDDEN] * len(replay.burns))
    out.seats = [msgspec.structs.replace(s, cards=s.cards if s.seat in keep else [HIDDEN] * len(s.cards))
                 for s in replay.seats]
    live = not replay.finished
    out.streets = [ReplayStreet(name=street.name, entries=[_hide(e, keep, burns=burns, live=live)
                                                           for e in street.entries]) for street in replay.streets]
    return out


def _hide(entry: ReplayEntry, keep: set[int], *, burns: bool, live: bool) -> ReplayEntry:
    if entry.kind == "ruling":
        if entry.public_text is None:
            return entry
        if entry.seat is not None and entry.seat in keep:
            return entry
        return msgspec.structs.replace(entry, text=entry.public_text, remedy=entry.public_remedy, card=None,
                                       public_text=None, public_remedy=None)
    if entry.kind not in ("card", "gone") or entry.uid is None:
        return entry
    if live:
        if entry.to == "board":
            return entry  # face up on the felt
    elif (entry.secret is None or (entry.secret == "burn" and burns)
          or (entry.secret == "hole" and entry.to is not None and int(entry.to.split()[-1]) in keep)):
        return entry
    # The journal's line names the tag, and the deck the card: hidden with it.
    return msgspec.structs.replace(entry, card=None, uid=None, line="",
                                   text=f"{HIDDEN} card" + (f" to {entry.to}" if entry.to else ""))


def trimmed(replay: HandReplay, budget: int) -> HandReplay:
    """The replay within `budget` bytes of JSON: its entries in order while they fit, the rest counted in
    `truncated` (a hand of a few hundred events fits the room's message many times over)."""
    encode = msgspec.json.encode
    if len(encode(replay)) <= budget:
        return replay
    used = len(encode(msgspec.structs.replace(replay, streets=[])))
    streets: list[ReplayStreet] = []
    dropped = 0
    for street in replay.streets:
        kept = []
        for entry in street.entries:
            size = len(encode(entry)) + 1
            if dropped or used + size > budget:
                dropped += 1
                continue
            used += size
            kept.append(entry)
        if kept:
            streets.append(ReplayStreet(name=street.name, entries=kept))
            used += len(street.name) + 32
    return msgspec.structs.replace(replay, streets=streets, truncated=replay.truncated + dropped)


def book_of(entries: Sequence[JournalEntry], core: TableCore) -> ReplayBook:
    """Every hand of these journal entries (from the journal's first), fed to `core`."""
    book = ReplayBook(core)
    book.feed_all(entries)
    return book
