"""The rules core: table events in, rulings and state out. Pure: no I/O, no clock, no randomness.

Feed events in session order; each call returns the rulings (and operator notices) it caused, and
`snapshot()` gives an immutable view of the table for the display and the daemon. This module holds
the core's front (its API, the dispatch of each event to the rule handler of its concept, undo and
checkpoints); the routing of each event is in route.py, the rules themselves in the handlers flow.py, shoe.py,
streets.py and betting.py, which change the hand's phase through transitions.py (showdown.py, deal.py).
"""

from __future__ import annotations

import copy
import copyreg
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from typing import Any, Final

from firmware_py.core import (  # the routing to the rule handlers, and the modules whose records pickle by constructor
    board,
    chips,
    decks,
    events,
    game,
    hand,
    phase,
    pots,
    profiles,
    race,
    route,
    rulings,
    seating,
    snapshot,
)
from firmware_py.core.chips import HandChips, Stakes, TableChips, Wager
from firmware_py.core.events import CONFIRM, NEW_HAND, UNDO, Button, Event, Gone, Read, Setup
from firmware_py.core.hand import Hand, Taken
from firmware_py.core.profiles import Profile
from firmware_py.core.rulings import Notice, NoticeKind, Ruling, Verdict
from firmware_py.core.snapshot import TableSnapshot, snapshot_of
from firmware_py.core.state import SAVED, TableState

UNDO_HANDS: Final = 3  # hand boundaries whose state is kept: undo reaches back into the last two hands


_FROZEN_TYPES: Final[dict[type, bool]] = {}  # per type: nothing mutates its values in place (tuples: see items)


# The records read-only by their `Final` fields, not frozen dataclasses (see the note in events.py): made at
# every event, they are shared by the checkpoints as frozen records.
READ_ONLY: Final = frozenset({Read, Gone, Button, Wager, Taken})


def _frozen_type(kind: type) -> bool:
    known = _FROZEN_TYPES.get(kind)
    if known is None:
        params = getattr(kind, "__dataclass_params__", None)
        known = _FROZEN_TYPES[kind] = (kind in (type(None), str, int, float, bool, frozenset)
                                       or issubclass(kind, Enum | Profile)
                                       or bool(params is not None and params.frozen)
                                       or kind in READ_ONLY)  # by their Final fields: see events.py
    return known


def _frozen(value: object) -> bool:
    """True for a value nothing mutates in place: shared, not copied, by a checkpoint."""
    if type(value) is tuple:
        return all(_frozen(item) for item in value)
    return _frozen_type(type(value))


def _shared(items: Iterable[object]) -> bool:
    """True when every item is of a frozen type (tuples aside): a copy of their container may share them.

    One pass over the items' types (in C) and a look-up per distinct type: most of the state is
    containers of strings, seats and frozen records, and a checkpoint is taken at every hand.
    """
    kinds = set(map(type, items))
    return tuple not in kinds and all(map(_frozen_type, kinds))


_FIELDS: Final[dict[type, tuple[str, ...]]] = {}  # per dataclass type: its field names


def _clone(value: Any) -> Any:
    """A copy of a piece of core state: containers and the hand's own dataclasses copied, frozen values shared."""
    kind: Any = type(value)  # Any: for a type[Any], mypy takes `kind.__new__` below for `type.__new__`
    if kind is list:
        return value.copy() if _shared(value) else [_clone(item) for item in value]
    if kind is dict:
        if _shared(value.values()):
            return value.copy()
        return {key: _clone(item) for key, item in value.items()}
    if kind is set:
        return set(value)  # of seats and UIDs
    if kind is tuple:
        return value if _frozen(value) else tuple(_clone(item) for item in value)
    if _frozen_type(kind):
        return value
    if kind is Hand or kind is TableChips:  # kept at every hand: their own copy methods, written out, are faster
        return value.copy()
    if is_dataclass(value) and not isinstance(value, type):  # the hand, a street's deal: field by field
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS[kind] = tuple(value.__dataclass_fields__)
        clone = kind.__new__(kind)  # not object.__new__, which refuses a compiled (mypyc) class
        for name in names:
            item = getattr(value, name)
            object.__setattr__(clone, name, item if _frozen_type(type(item)) else _clone(item))
        return clone
    return copy.deepcopy(value)


def _record(kind: type[Any], values: tuple[object, ...]) -> Any:
    """A record back from a pickle (a checkpoint's), made by its constructor; the fields it does not take
    (`init=False`: the hand's chips' accounting) set after it."""
    given = list(zip(fields(kind), values, strict=True))
    record = kind(**{f.name: value for f, value in given if f.init})
    for f, value in given:
        if not f.init:
            setattr(record, f.name, value)
    return record


def _pickled(record: Any) -> tuple[Callable[..., Any], tuple[object, ...]]:
    """How a record pickles: its type and field values, for `_record`.

    Compiled by mypyc, a record would otherwise unpickle through `__new__`, which runs a written-out
    `__init__` without its arguments, and a frozen one field by field through the `__setattr__` that
    refuses it. The interpreted core pickles the same way: one path to test.
    """
    kind = type(record)
    return _record, (kind, tuple(getattr(record, f.name) for f in fields(kind)))


@dataclass(frozen=True, kw_only=True, slots=True)
class Outcome:
    """What one event caused: rulings for the dealer, notices for the operator, and the core's answer to that
    event (`verdict`: taken, refused or ruled; `refused`: why, when it was refused). The notices may speak of
    other things (an action held out of turn that no longer binds); the verdict is the event's own."""

    rulings: tuple[Ruling, ...] = ()
    notices: tuple[Notice, ...] = ()
    verdict: Verdict = Verdict.TAKEN
    refused: str | None = None

    def __init__(self, rulings: tuple[Ruling, ...] = (), notices: tuple[Notice, ...] = (),
                 verdict: Verdict = Verdict.TAKEN, refused: str | None = None) -> None:
        object.__setattr__(self, "rulings", rulings)  # written out for mypyc: see the note in events.py
        object.__setattr__(self, "notices", notices)
        object.__setattr__(self, "verdict", verdict)
        object.__setattr__(self, "refused", refused)


NOTHING: Final = Outcome()


class TableCore:
    """The table's rules core. Feed it events; read rulings from the outcomes and state from snapshots.

    Its state is one private `TableState` (state.py) that the rule handlers, plain functions by
    concept, take first; the core keeps copies of it at hand boundaries for undo and `save`.
    """

    def __init__(self, profiles: Mapping[str, Profile]) -> None:
        self._profiles = dict(profiles)
        # Undo replays from the last hand boundary, not from the session's start: the state is kept
        # just after each of the last UNDO_HANDS boundaries, and the log only since the oldest of them.
        self._log: list[Event] = []  # the effective events since the oldest checkpoint
        self._checkpoints: list[tuple[int, dict[str, object]]] = []  # (len(_log) then, the state after it)
        self._table = TableState(profiles=self._profiles)

    # ----------------------------------------------------------------------------------------
    # Read-only state for the adapters: the display and the daemon read snapshots; these are the rest.

    @property
    def t(self) -> float:
        """The session time of the last event fed (of the press, for an undo)."""
        return self._table.t

    @property
    def profile(self) -> Profile | None:
        """The profile in force (None before the setup)."""
        return self._table.profile

    @property
    def hand_number(self) -> int:
        return self._table.hand_number

    @property
    def unconfirmed(self) -> tuple[Ruling, ...]:
        """Rulings the dealer has not confirmed yet, oldest first."""
        return tuple(self._table.unconfirmed)

    def card(self, uid: str) -> str | None:
        """The card a tag is in the decks of the setup (None for a tag no deck knows)."""
        info = self._table.cards.get(uid)
        return info.card if info is not None else None

    @property
    def level(self) -> Stakes | None:
        """The blinds and ante in force, once a `level` event gave them."""
        return self._table.chips.level

    @property
    def denominations(self) -> tuple[int, ...]:
        """The chips in play, smallest first (a setup's, less those a color-up took off); () when not given."""
        return self._table.chips.denominations

    @property
    def racing(self) -> bool:
        """Whether a chip race is being dealt or its result shown (until the next hand)."""
        return self._table.race is not None

    @property
    def counts_chips(self) -> bool:
        """Whether the table counts chips: it has been given stacks (a `stacks` event)."""
        return self._table.chips.on

    @property
    def hand_chips(self) -> HandChips | None:
        """The chips of the current hand (None until the table knows stacks). Read it; only `feed` changes it."""
        return self._table.chips.hand

    @property
    def round_actions(self) -> int:
        """Actions taken in the current hand's betting round (0 with no hand)."""
        hand = self._table.hand
        return hand.betting.round_actions if hand is not None else 0

    def live_seats(self) -> tuple[int, ...]:
        """The current hand's seats not folded or dead, in deal order."""
        hand = self._table.hand
        return tuple(hand.live()) if hand is not None else ()

    def dealt_seats(self) -> tuple[int, ...]:
        """The current hand's seats dealt in, in deal order (a dead hand too: RPL Tournaments 19's is dealt)."""
        hand = self._table.hand
        return tuple(hand.positions.deal_order) if hand is not None else ()

    def seats_able_to_act(self) -> tuple[int, ...]:
        """The current hand's live seats not all in, in deal order."""
        hand = self._table.hand
        return tuple(hand.can_act()) if hand is not None else ()

    def snapshot(self) -> TableSnapshot:
        """An immutable view of the table now, for the display and the daemon."""
        return snapshot_of(self._table)

    # ----------------------------------------------------------------------------------------
    # Input

    def feed(self, event: Event) -> Outcome:
        """Apply one event and return what it caused."""
        table = self._table
        table.t = event.t
        # The commonest events first (reads, then presses), the hand boundaries (a setup, a new hand) in their branch.
        try:
            if type(event) is Read:  # the commonest event, straight to its route (so a press below)
                self._log.append(event)
                route.read(table, event)
            elif type(event) is not Button:  # a card gone, a setup, the chips
                self._log.append(event)
                route.apply(table, event)
                if type(event) is Setup:
                    self._keep()
            elif (event.hand is not None or event.count is not None) and self._stale(event):
                pass  # refused before it is logged: an undo never takes back a refused press
            elif event.name is UNDO:
                self._undo(event)
                table = self._table  # a new state when the undo replayed from the session's start
            else:
                self._log.append(event)
                route.press(table, event)
                if event.name is NEW_HAND:
                    self._keep()
            if table.draw:
                route.seats_checked(table)  # a deal to a seat whose drawn player is not at it (checkin.py)
            if table.profile is not None and table.profile.action_clock is not None:
                route.follow(table)  # a house's action clock starts on the decision now due
        except BaseException:  # what an event that failed caused is not given out with the next one's
            self._table.out_rulings, self._table.out_notices, self._table.out_refused = [], [], None
            raise
        if not table.out_rulings and not table.out_notices:
            return NOTHING  # most events: one shared, immutable empty outcome (and nothing to clear); taken
        refused = table.out_refused
        verdict = Verdict.REFUSED if refused is not None else Verdict.RULED if table.out_rulings else Verdict.TAKEN
        # (by position: see events.py)
        outcome = Outcome(tuple(table.out_rulings), tuple(table.out_notices), verdict, refused)
        table.out_rulings, table.out_notices, table.out_refused = [], [], None  # given out once
        return outcome

    def _stale(self, event: Button) -> bool:
        """A press made against another hand or action count than the table's now: refused with a notice."""
        table = self._table
        count = len(table.hand.betting.taken) if table.hand is not None else 0
        if event.hand in (None, table.hand_number) and event.count in (None, count):
            return False
        table.refuse(f"{event.name}: stale press (made at hand {event.hand} after "
                     f"{event.count} actions; the table is at hand {table.hand_number} after {count}): not taken")
        return True

    @property
    def action_count(self) -> int:
        """Actions the table has taken in the current hand (what a press's `count` is checked against)."""
        hand = self._table.hand
        return len(hand.betting.taken) if hand is not None else 0

    def hand_actions(self) -> tuple[Taken, ...]:
        """Every action taken in the current hand, in order (out-of-turn actions where they were taken)."""
        hand = self._table.hand
        return tuple(hand.betting.taken) if hand is not None else ()

    # -- undo and resume at the cost of one hand -------------------------------------------------

    def _keep(self) -> None:
        """After a hand boundary (a setup, a new hand: `feed` and `_undo` ask) keep the state, and forget the
        oldest hand kept."""
        self._checkpoints.append((len(self._log), self._state()))
        if len(self._checkpoints) > UNDO_HANDS:
            del self._checkpoints[0]
            cut = self._checkpoints[0][0]
            self._log = self._log[cut:]
            self._checkpoints = [(at - cut, state) for at, state in self._checkpoints]

    def _state(self) -> dict[str, object]:
        """A copy of the table's state (profiles and frozen values shared, never copied), every field of
        `SAVED`. Written out, not the generic `_clone` field by field: one is kept at every hand
        (tests/rules/test_core_state.py checks it against `_clone`)."""
        table = self._table
        hand = table.hand
        return {
            "profile": table.profile, "game": table.game, "t": table.t, "occupied": table.occupied.copy(),
            "joined": table.joined.copy(), "moved": table.moved.copy(), "cards": table.cards,  # SHARED
            "in_play": table.in_play, "back": table.back, "button_seat": table.button_seat,
            "previous": table.previous, "redeal": table.redeal, "corrected": table.corrected,
            "hand": hand.copy() if hand is not None else None, "hand_number": table.hand_number,
            "unconfirmed": table.unconfirmed.copy(), "made": table.made,  # of frozen rulings
            "notices": table.notices.copy(),  # of strings
            "corrections": table.corrections.copy(), "chips": table.chips.copy(),
            "race": _clone(table.race) if table.race is not None else None,
            "time_banks": table.time_banks.copy(), "names": table.names.copy(),
            "draw": table.draw.copy(), "present": table.present.copy(), "judged": table.judged,
        }

    def _copy(self, state: Mapping[str, object]) -> dict[str, object]:
        return {key: _clone(value) for key, value in state.items()}

    def save(self) -> dict[str, object]:
        """Everything the core holds but its profiles, undo history included: `restore` takes it back."""
        saved = self._state()
        saved["log"] = list(self._log)
        saved["checkpoints"] = [(at, self._copy(state)) for at, state in self._checkpoints]
        return saved

    def restore(self, saved: Mapping[str, object]) -> None:
        """Take back a `save()` made by a core with the same profiles (resume without replaying the session)."""
        unknown = set(saved) - {*SAVED, "log", "checkpoints"}
        if unknown:
            raise ValueError(f"not a saved core state: unknown fields {sorted(unknown)}")
        names = {profile.name for profile in self._profiles.values()}
        profile = saved.get("profile")
        if profile is not None and getattr(profile, "name", None) not in names:
            raise ValueError("the saved core state is from other profiles")
        table = self._table
        for key, value in saved.items():
            if key == "log":
                self._log = value  # type: ignore[assignment]  # as save() made it
            elif key == "checkpoints":
                self._checkpoints = value  # type: ignore[assignment]
            else:
                setattr(table, key, value)
        if isinstance(table.profile, Profile):  # the restored core rules with this core's own profiles
            table.profile = self._profiles[table.profile.name]
        for _at, state in self._checkpoints:
            kept = state.get("profile")
            if isinstance(kept, Profile):
                state["profile"] = self._profiles[kept.name]

    def _undo(self, event: Button) -> None:
        open_before = list(self._table.unconfirmed)
        for index in range(len(self._log) - 1, -1, -1):
            old = self._log[index]
            if isinstance(old, Button) and old.name is not CONFIRM:
                break
        else:
            self._table.refuse("undo: no button press to take back")
            return
        log = self._log[:index] + self._log[index + 1 :]
        kept = [(at, state) for at, state in self._checkpoints if at <= index]
        if kept:  # replay from the last hand boundary before the press, not from the session's start
            start, state = kept[-1]
            self._checkpoints = kept
            for key, value in self._copy(state).items():
                setattr(self._table, key, value)
        else:  # no boundary before it: the log still starts at the session's start
            start, self._checkpoints = 0, []
            self._table = TableState(profiles=self._profiles)
        table = self._table
        self._log = log[:start]
        for replayed in log[start:]:
            table.t = replayed.t
            self._log.append(replayed)
            route.apply(table, replayed)
            if table.draw:
                route.seats_checked(table)  # as `feed` does after each event
            if table.profile is not None and table.profile.action_clock is not None:
                route.follow(table)
            if type(replayed) is Setup or (type(replayed) is Button and replayed.name is NEW_HAND):
                self._keep()
        table.t = event.t
        # What the replay ruled again is what was ruled before; a ruling it made that was not open before (a card
        # dealt before the round the undo reopened was complete: premature) is this press's, told as any other.
        table.out_rulings = [ruling for ruling in table.unconfirmed if ruling not in open_before]
        table.out_refused = None  # the undo was taken, whatever the replayed events were told
        message = f"undo: took back the {old.name} press at t={old.t:g}"
        table.out_notices = [Notice(t=event.t, notice=NoticeKind.UNDONE, message=message)]
        # The one trace an undo leaves: the venue screen says what was taken back (until the next hand).
        table.corrections = [*table.corrections[-2:], message]


def _pickle_by_constructor() -> None:
    """Every record of the core pickles by its constructor (see _pickled)."""
    for module in (board, chips, decks, events, game, hand, phase, pots, profiles, race, rulings, seating, snapshot):
        for kind in vars(module).values():
            if isinstance(kind, type) and kind.__module__ == module.__name__ and is_dataclass(kind):
                copyreg.pickle(kind, _pickled)
    copyreg.pickle(Outcome, _pickled)


_pickle_by_constructor()
