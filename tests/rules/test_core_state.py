"""The core's state is its own: callers read snapshots and a few read-only accessors, and only `feed` changes it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.core.board import Board, BurnLedger, StreetDeal
from firmware_py.core.chips import HandChips, Problem, Stakes, TableChips, Wager
from firmware_py.core.engine import READ_ONLY, Outcome, TableCore, _clone, _frozen_type
from firmware_py.core.events import Button, ButtonName, Gone, Read
from firmware_py.core.game import OMAHA
from firmware_py.core.hand import Betting, CardInfo, Dealt, Declared, Hand, Taken
from firmware_py.core.phase import ClockView, Phase
from firmware_py.core.pots import Pot
from firmware_py.core.rulings import Notice, NoticeKind, Ruling, RulingKind, Street, Verdict
from firmware_py.core.seating import Positions
from firmware_py.core.state import SAVED, SHARED
from firmware_py.core.vocab import Cause, Where
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session
from tests.rules.core_records import copies, final_defaults, made_by_written_init, records, writer
from tests.rules.table_driver import Table

SESSIONS = Path(__file__).resolve().parents[1] / "sessions"


def test_the_core_keeps_no_public_state() -> None:
    t = Table("robert")
    t.new_hand()
    t.deal()
    # A compiled core (mypyc) keeps its attributes in slots it lists, not in a __dict__.
    names = vars(t.core) if hasattr(t.core, "__dict__") else type(t.core).__mypyc_attrs__
    assert [name for name in names if not name.startswith("_")] == []


def test_the_accessors_read_the_hand_and_cannot_be_written() -> None:
    t = Table("robert")
    t.new_hand()
    t.deal()
    core = t.core
    assert core.hand_number == 1 and core.profile is not None and core.profile.name == "robert"
    assert core.live_seats() == core.seats_able_to_act() == (2, 3, 4, 1)  # deal order: left of the button first
    t.act("fold")  # seat 4, first after the big blind
    assert core.live_seats() == (2, 3, 1) and core.round_actions == 1
    assert core.card(t.uid("As")) == "As" and core.card("no such tag") is None
    for name in ("t", "profile", "hand_number", "unconfirmed", "level", "hand_chips", "round_actions"):
        with pytest.raises(AttributeError):
            setattr(core, name, None)


def _mutable_parts(value: object) -> Iterator[object]:
    """Every list, dict, set and non-frozen dataclass reachable from `value` (frozen records are shared by design)."""
    if isinstance(value, list | set | dict | tuple):
        if not isinstance(value, tuple):
            yield value
        items = value.values() if isinstance(value, dict) else value
        for item in items:
            yield from _mutable_parts(item)
    elif dataclasses.is_dataclass(value) and not _read_only(type(value)):
        yield value
        for field in dataclasses.fields(value):
            yield from _mutable_parts(getattr(value, field.name))


def _read_only(cls: type) -> bool:
    """A frozen dataclass, or a record whose fields are all `Final` (chips.Wager, hand.Taken: see the note in
    chips.py): shared, not copied, by a checkpoint."""
    return bool(cls.__dataclass_params__.frozen or cls in FINAL_DEFAULTS)  # type: ignore[attr-defined]


def _check_copy(hand: Hand, differs: set[tuple[str, str]]) -> None:
    """The copy equals the hand and shares no mutable part; note the fields away from their defaults."""
    copy = hand.copy()
    assert copy == hand
    assert not {id(part) for part in _mutable_parts(copy)} & {id(part) for part in _mutable_parts(hand)}
    for part in _mutable_parts(hand):
        if dataclasses.is_dataclass(part):
            differs |= {(type(part).__name__, name) for name, default in _defaults(type(part)).items()
                        if getattr(part, name) != default}


def _check_chips_copy(chips: TableChips) -> None:
    """`TableChips.copy` (and `HandChips.copy`, made without `__init__`: a field it forgot is unset, and the
    comparison fails) equals the original and shares no mutable part with it."""
    copy = chips.copy()
    assert copy == chips
    assert not {id(part) for part in _mutable_parts(copy)} & {id(part) for part in _mutable_parts(chips)}


def _defaults(cls: type) -> dict[str, object]:
    fields = dataclasses.fields(cls)
    return {**{f.name: f.default for f in fields if f.default is not dataclasses.MISSING},
            **{f.name: f.default_factory() for f in fields if f.default_factory is not dataclasses.MISSING}}


def _after_every_event() -> Iterator[TableCore]:
    """The core after each event of every example session, in turn."""
    for path in sorted(SESSIONS.glob("*.jsonl")):
        if path.name.endswith(".expected.jsonl"):
            continue
        core = TableCore(load_profiles())
        for _line, event in read_session(path):
            core.feed(event)
            yield core


def test_a_hand_copy_is_equal_and_shares_nothing_mutable() -> None:
    """Undo checkpoints copy the hand with `Hand.copy`, written out field by field: a field it forgot
    would come back at its default. Checked at every event of every example session."""
    differs: set[tuple[str, str]] = set()  # (class, field) seen away from its default: its copy was checked
    for core in _after_every_event():
        if core._table.hand is not None:  # what the checkpoints copy
            _check_copy(core._table.hand, differs)
        _check_chips_copy(core._table.chips)
    t = Table("robert")  # the clock, and a flop card lifted before anyone acted: in no example session
    t.clean_preflop()
    t.flop(["2c", "7d", "Jh"])
    t.gone("board1", "2c")
    t.press("clock")
    assert t.core._table.hand is not None
    _check_copy(t.core._table.hand, differs)
    copied = {(cls.__name__, name) for cls in (Hand, Dealt, Betting, Board, BurnLedger, StreetDeal)
              for name in _defaults(cls)}
    assert copied - differs == set()


def test_a_checkpoint_is_every_saved_field_copied_as_the_generic_copy_would() -> None:
    """The undo checkpoints' `_state`, written out field by field: every field of `SAVED`, each equal to the
    generic `_clone` of it, sharing nothing mutable but the fields of `SHARED`. At every event of every
    example session (the chip race's state among them)."""
    raced = False
    for core in _after_every_event():
        state = core._state()
        assert tuple(state) == SAVED
        for name in SAVED:
            value = getattr(core._table, name)
            assert state[name] == _clone(value), name
            if name in SHARED:
                assert state[name] is value
            else:
                kept = {id(part) for part in _mutable_parts(state[name])}
                assert not kept & {id(part) for part in _mutable_parts(value)}, name
        raced = raced or core._table.race is not None
    assert raced


# Each field away from its default and from the other fields' values (a field set from another shows).
_POSITIONS = Positions(button=1, small_blind=2, big_blind=3, deal_order=(2, 3, 1))
_POT = Pot(amount=900, seats=(2, 3), winners=(3,), shares=((3, 900),), odd_chips=(3,))
_RULING = Ruling(t=4.5, ruling=RulingKind.SHOWDOWN, rule="robert: Showdown 1", remedy="Seat 3 wins.",
                 cause=Cause.DUPLICATE_CARD, card="Kd", seat=3, street=Street.RIVER, winners=(3,), hand="a pair",
                 amount=400, pots=(_POT,))
_NOTICE = Notice(t=5.5, notice=NoticeKind.IGNORED, message="fold: seat 9 cannot act now")
_TAKEN = Taken(street=Street.TURN, seat=5, name=ButtonName.CALL, word="call")
_DEAL = StreetDeal(street=Street.TURN, expected_burns=2, shoe=["C3"])
GIVEN: dict[type, dict[str, object]] = {
    Read: {"t": 1.5, "antenna": "seat3", "uid": "04AA"},
    Gone: {"t": 2.5, "antenna": "board1", "uid": "04BB"},
    Button: {"t": 3.5, "name": ButtonName.RAISE, "seat": 4, "amount": 600, "hand": 7, "count": 9, "ruling": 2},
    Wager: {"seat": 2, "name": "raise", "to": 600, "put": 500, "allin": True, "raises": True, "taken": False,
            "problem": Problem.UNDER_MINIMUM, "keyed": 450, "minimum": 550},
    Taken: {"street": Street.TURN, "seat": 5, "name": ButtonName.CALL, "word": "call"},
    CardInfo: {"card": "As", "deck": "red", "back": "red back"},
    Pot: {"amount": 900, "seats": (2, 3), "winners": (3,), "shares": ((3, 900),), "odd_chips": (2,), "chip": 25,
          "low_winners": (2,)},
    Ruling: {"t": 4.5, "ruling": RulingKind.SHOWDOWN, "rule": "robert: Showdown 1", "remedy": "Seat 3 wins.",
             "cause": Cause.DUPLICATE_CARD, "card": "Kd", "seat": 3, "street": Street.RIVER, "winners": (3,),
             "hand": "a pair", "amount": 400, "pots": (_POT,), "low_winners": (2,), "low_hand": "8-7-5-3-2 low"},
    Notice: {"t": 5.5, "notice": NoticeKind.IGNORED, "message": "fold: seat 9 cannot act now"},
    Positions: {"button": 1, "small_blind": 2, "big_blind": 3, "deal_order": (2, 3, 1)},
    Outcome: {"rulings": (_RULING,), "notices": (_NOTICE,), "verdict": Verdict.REFUSED, "refused": "not now"},
    Dealt: {"slots": ["A1", None], "next_slot": 2, "hole": {2: ["A1"]}, "owed": [(3, None)], "exposed": 1,
            "boxed": 2, "extra": ["B2"], "jokers": {4: "J1"}},
    Betting: {"window_open": False, "window_actors": {2}, "folded": {3}, "allin": {4}, "dead": {5}, "acted": {1},
              "round_actions": 3, "preflop_actions": 4, "round_closed": True, "to_act": 6, "taken": [_TAKEN],
              "round_start": 2, "declared": {5: Declared(seat=5, name=ButtonName.BET, amount=None, since=1)},
              "no_raise": {6: "check"}, "posted": {4}},
    Hand: {"number": 7, "positions": _POSITIONS, "game": OMAHA, "phase": Phase.BETTING, "street": Street.FLOP,
           "where": {"A1": Where.HOLE}, "identity": {"As": "A1"}, "dealt": Dealt(next_slot=1),
           "betting": Betting(round_actions=1), "board": Board(cards=["C3"]),
           "clock": ClockView(seat=2, started_t=1.0, seconds=30.0, warnings=(10.0,), countdown=5, rule="clock"),
           "rulings": [_RULING], "showdown": _RULING},
    StreetDeal: {"street": Street.FLOP, "expected_burns": 2, "burns": ["A1"], "shoe": ["B2"], "board": ["C3"],
                 "judged": True, "missing_ruled": True, "extra": ["D4"], "lifted": ["E5"]},
    BurnLedger: {"due": {Street.TURN: (2, ["A1"])}, "out": ["B2"]},
    Board: {"cards": ["C3"], "burns": BurnLedger(out=["A1"]), "deal": _DEAL, "settle": _DEAL.copy(),
            "loose": ["B2"], "premature": Street.TURN, "last_drawn": "D4", "early": [("E5", 4)]},
    TableChips: {"stacks": {1: 500}, "level": Stakes(small=5, big=10), "waiting": {2: 600},
                 "hand": HandChips(order=(1, 2), stacks={1: 500, 2: 600}, blinds=(1, 2),
                                   level=Stakes(small=5, big=10), unit=5),
                 "denominations": (5, 25, 100)},
}


# The defaults of the records read-only by their `Final` fields, which take no class-level default (see chips.py):
# their `__init__`'s, read from the source (tests/rules/core_records.py), for the records made (not Sighting, a base).
# A record that works some of its fields out itself (`init=False`: HandChips posts the blinds) is checked by its
# own test below and by tests/rules/test_core_records.py, which reads every `__init__` as written.
MADE = [cls for cls in made_by_written_init() if all(f.init for f in dataclasses.fields(cls))]
FINAL_DEFAULTS: dict[type, dict[str, object]] = {cls: d for cls, d in final_defaults().items()
                                                  if cls in made_by_written_init()}


def test_the_core_shares_as_read_only_every_record_read_only_by_its_final_fields() -> None:
    """engine.READ_ONLY, the records an undo checkpoint shares (not copies) though not frozen dataclasses, is
    every record whose fields are all `Final`: one made read-only tomorrow is shared too, not copied in vain."""
    assert set(FINAL_DEFAULTS) == READ_ONLY


def test_every_record_made_by_a_written_init_has_values_to_be_checked_with() -> None:
    """The records below are found in the core (every dataclass with a written `__init__`), not listed: each needs
    its fields' values in GIVEN, every one away from its default."""
    assert [cls.__name__ for cls in MADE if cls not in GIVEN] == []


def _default(field: dataclasses.Field[object], cls: type) -> object:
    if field.name in FINAL_DEFAULTS.get(cls, {}):
        return FINAL_DEFAULTS[cls][field.name]
    return field.default_factory() if field.default_factory is not dataclasses.MISSING else field.default


def _has_default(field: dataclasses.Field[object], cls: type) -> bool:
    return (field.name in FINAL_DEFAULTS.get(cls, {}) or field.default is not dataclasses.MISSING
            or field.default_factory is not dataclasses.MISSING)


@pytest.mark.parametrize("cls", MADE, ids=lambda cls: cls.__name__)
def test_a_written_out_init_sets_every_field_and_keeps_the_record_frozen(cls: type) -> None:
    """The records made at every event or every hand write their `__init__` out (mypyc compiles it; the
    generated one stays interpreted): each field is set from its keyword, each default is the field's (a
    container left out starts empty, a new one each time), and a frozen record is as frozen, equal and
    hashable as the generated `__init__` made it."""
    code = getattr(cls.__init__, "__code__", None)  # None: compiled by mypyc
    assert code is None or code.co_filename != "<string>", "the __init__ @dataclass generated, not one written out"
    fields = dataclasses.fields(cls)
    given = GIVEN.get(cls)
    assert given is not None, f"{cls.__name__}: give its fields values in GIVEN"
    assert sorted(given) == sorted(f.name for f in fields)
    record = cls(**given)
    assert {name: getattr(record, name) for name in given} == given
    required = {f.name: given[f.name] for f in fields if not _has_default(f, cls)}
    defaults, again = cls(**required), cls(**required)
    for f in fields:
        assert getattr(defaults, f.name) == (given[f.name] if f.name in required else _default(f, cls)), f.name
        assert f.name in required or _default(f, cls) != given[f.name], \
            f"{f.name}: give it a value away from its default"
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(defaults, f.name) is not getattr(again, f.name), f"{f.name}: a new one each time"
    assert cls(**given) == record
    assert (record == defaults) is (required == given)
    if cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, fields[0].name, None)
        assert hash(cls(**given)) == hash(record)
    if cls in FINAL_DEFAULTS:  # read-only by its Final fields: mypy refuses an assignment, compiled mypyc too
        assert _frozen_type(cls), "the undo checkpoints share it, as a frozen record"
        if code is not None:  # interpreted: the annotations say Final (compiled, mypyc drops them)
            assert all(str(f.type).startswith("Final[") for f in fields), fields
        else:
            with pytest.raises(AttributeError):
                setattr(record, fields[0].name, None)
        assert hash(cls(**given)) == hash(record)


def test_the_hand_chips_init_sets_every_field() -> None:
    """`HandChips.__init__` is written out and takes the hand's givens (the fields `init=True`); it sets the
    others, its accounting, itself: a field it forgot is left unset and cannot be read (or compared)."""
    chips = HandChips(order=(2, 3, 1), stacks={1: 1000, 2: 1000, 3: 300}, blinds=(2, 3),
                      level=Stakes(small=50, big=100, ante=10), raise_rule="double_faced", ante_leaves_a_chip=True,
                      unit=10)
    values = {f.name: getattr(chips, f.name) for f in dataclasses.fields(HandChips)}
    assert values["raise_rule"] == "double_faced" and values["ante_leaves_a_chip"] is True and values["unit"] == 10
    assert values["behind"] == {1: 990, 2: 940, 3: 190} and values["current"] == 100
    assert chips == chips.copy()


# The records made at every line or press, also given by position where they are made (see the note in
# core/events.py), and the hand's records, by position in their copies (one kept at every hand): how many leading
# fields each takes by position, in field order, as its written `__init__` says (read from the source).
POSITIONAL: dict[type, int] = {r.cls: maker.positional() for r in records()
                               if (maker := writer(r)) is not None and maker.positional() and r.cls in MADE}


@pytest.mark.parametrize("cls", list(POSITIONAL), ids=lambda cls: cls.__name__)
def test_a_record_given_by_position_takes_its_fields_in_field_order(cls: type) -> None:
    """`Read(t, antenna, uid)` is `Read(t=t, antenna=antenna, uid=uid)`: the positional parameters are the
    record's first fields in order, and the rest (Wager's refusals) are keyword-only."""
    given = GIVEN[cls]
    names = [f.name for f in dataclasses.fields(cls)]
    count = POSITIONAL[cls]
    record = cls(*[given[name] for name in names[:count]], **{name: given[name] for name in names[count:]})
    assert record == cls(**given)
    if count < len(names):
        with pytest.raises(TypeError):
            cls(*[given[name] for name in names[: count + 1]])


@pytest.mark.parametrize("cls", [r.cls for r in records() if any(m.name == "copy" for m in copies(r))],
                         ids=lambda cls: cls.__name__)
def test_a_written_out_copy_takes_every_field_to_its_own_place(cls: type) -> None:
    """The copies kept at every hand give their fields by position (see core/events.py): with every field
    away from the others' values (GIVEN), a field copied to another's place fails to compare equal, and a
    mutable field copied is a new container."""
    given = GIVEN[cls] if cls is not HandChips else None
    record = cls(**given) if given is not None else GIVEN[TableChips]["hand"]
    copied = record.copy()
    assert copied == record
    for f in dataclasses.fields(cls):
        value = getattr(record, f.name)
        if isinstance(value, list | dict | set) and value:
            assert getattr(copied, f.name) is not value, f.name
