"""The core's state is its own: callers read snapshots and a few read-only accessors, and only `feed` changes it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.core.board import Board, BurnLedger, StreetDeal
from firmware_py.core.chips import Problem, TableChips, Wager
from firmware_py.core.engine import TableCore
from firmware_py.core.events import Button, ButtonName, Gone, Read
from firmware_py.core.hand import Betting, Dealt, Hand, Taken
from firmware_py.core.rulings import Street
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session
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
    elif dataclasses.is_dataclass(value) and not value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        yield value
        for field in dataclasses.fields(value):
            yield from _mutable_parts(getattr(value, field.name))


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


def test_a_hand_copy_is_equal_and_shares_nothing_mutable() -> None:
    """Undo checkpoints copy the hand with `Hand.copy`, written out field by field: a field it forgot
    would come back at its default. Checked at every event of every example session."""
    differs: set[tuple[str, str]] = set()  # (class, field) seen away from its default: its copy was checked
    for path in sorted(SESSIONS.glob("*.jsonl")):
        if path.name.endswith(".expected.jsonl"):
            continue
        core = TableCore(load_profiles())
        for _line, event in read_session(path):
            core.feed(event)
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


# Each field away from its default and from the other fields' values (a field set from another shows).
GIVEN: dict[type, dict[str, object]] = {
    Read: {"t": 1.5, "antenna": "seat3", "uid": "04AA"},
    Gone: {"t": 2.5, "antenna": "board1", "uid": "04BB"},
    Button: {"t": 3.5, "name": ButtonName.RAISE, "seat": 4, "amount": 600, "hand": 7, "count": 9},
    Wager: {"seat": 2, "name": "raise", "to": 600, "put": 500, "allin": True, "raises": True, "taken": False,
            "problem": Problem.UNDER_MINIMUM, "keyed": 450, "minimum": 550},
    Taken: {"street": Street.TURN, "seat": 5, "name": ButtonName.CALL, "word": "call"},
}


@pytest.mark.parametrize("cls", list(GIVEN))
def test_a_written_out_init_sets_every_field_and_keeps_the_record_frozen(cls: type) -> None:
    """The records made at every event write their `__init__` out (mypyc compiles it; the generated one
    stays interpreted): each field is set from its keyword, each default is the field's, and the record
    is as frozen, equal and hashable as the generated one made it."""
    fields = dataclasses.fields(cls)
    given = GIVEN[cls]
    assert sorted(given) == sorted(f.name for f in fields)
    record = cls(**given)
    assert {name: getattr(record, name) for name in given} == given
    required = {f.name: given[f.name] for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    defaults = cls(**required)
    for f in fields:
        assert getattr(defaults, f.name) == (given[f.name] if f.name in required else f.default), f.name
        assert f.name in required or f.default != given[f.name], f"{f.name}: give it a value away from its default"
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, fields[0].name, None)
    assert cls(**given) == record and hash(cls(**given)) == hash(record)
    assert (record == defaults) is (required == given)
