"""One declaration per record: the room's schemas of a ruling and a pot are made from the core's records, and every
ruling, pot and snapshot of every example session crosses the room's schemas (ruling, state, broadcast, the
tournament's report) and comes back as the core wrote it. No broker: the schemas alone."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest

from firmware_py.core.engine import TableCore
from firmware_py.core.pots import Pot
from firmware_py.core.rulings import Ruling, RulingKind
from firmware_py.profiles import load_profiles
from firmware_py.room import messages, tournament_messages
from firmware_py.room.feed import FeedBuilder, FeedPot, FeedRuling
from firmware_py.room.messages import decode, encode, envelope, ruling_json, status_of, to_dict, topic, venue_state
from firmware_py.room.tournament_table import pots_of
from firmware_py.room.wire import FIELD_TYPES, LEFT_OUT, carried, record_struct
from firmware_py.session import read_session

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = sorted(p for p in (ROOT / "tests" / "sessions").glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))
PROFILES = load_profiles(ROOT / "config" / "profiles")
COUNTS = {"hands": 0, "misdeals": 0, "irregularities": 0, "hands_per_hour": 0.0}


def _present(value: Any) -> Any:
    """JSON data with the fields a schema writes as null left out, as the core's `to_json` leaves them out."""
    if isinstance(value, dict):
        return {k: _present(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_present(v) for v in value]
    return value


def _json(value: Any) -> Any:
    return _present(json.loads(json.dumps(value)))


def _cross(kind: str, body: Any) -> Any:
    """The message as a consumer reads it: encoded by the table's schema, decoded by the consumer's."""
    return decode(topic("main", "t01", kind), encode(kind, body))


def crossed(session: Path) -> Counter[str]:
    """Replay the session through the core; send every ruling, pot and snapshot through the room's schemas,
    checking each comes back as the core wrote it; count what was sent."""
    core = TableCore(PROFILES)
    feed = FeedBuilder(room="main", table="t01", session="s1", names={})
    seen: Counter[str] = Counter()
    idx = 0
    for seq, (_line, event) in enumerate(read_session(session), start=1):
        outcome = core.feed(event)
        snap = core.snapshot()
        for n, ruling in enumerate(outcome.rulings):
            idx += 1
            body = envelope("main", "t01", seq, session="s1", n=n, idx=idx, dealer="Dee", hand=snap.hand_number,
                            wall=1.0, ruling=ruling_json(ruling))
            assert _present(to_dict(_cross("ruling", body))["ruling"]) == _json(ruling.to_json()), ruling
            seen["ruling " + str(ruling.ruling)] += 1
            seen["pot in a ruling"] += len(ruling.pots or ())
        state = envelope("main", "t01", seq, session="s1", dealer="Dee", status=status_of(snap), faults=[],
                         counts=COUNTS, **venue_state(snap))
        assert _present(to_dict(_cross("state", state))) == _json(state)
        seen["open ruling in a state"] += len(snap.unconfirmed)
        built = feed.build(snap, seq=seq)
        assert _cross("broadcast", built) == built
        seen["snapshot"] += 1
        for pot in snap.chips.pots if snap.chips is not None else ():
            assert _present(msgspec.to_builtins(msgspec.convert(pot.to_json(), messages.PotJson))) == \
                _json(pot.to_json())
            seen["pot"] += 1
            seen["pot with winners"] += bool(pot.winners)
        pots = pots_of(snap)
        assert msgspec.json.decode(msgspec.json.encode(pots), type=list[tournament_messages.PotJson]) == pots
    return seen


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.stem)
def test_every_ruling_pot_and_snapshot_of_the_session_crosses_the_room_schemas_unchanged(session: Path) -> None:
    assert crossed(session)["snapshot"] > 0


def test_the_example_sessions_send_every_ruling_kind_and_awarded_pots_across_the_room() -> None:
    seen: Counter[str] = Counter()
    for session in SESSIONS:
        seen += crossed(session)
    assert {f"ruling {kind}" for kind in RulingKind} <= set(seen)
    assert seen["pot in a ruling"] > 0 and seen["pot with winners"] > 0 and seen["open ruling in a state"] > 0


def test_the_room_schemas_of_a_ruling_and_a_pot_have_the_core_records_fields_in_their_order() -> None:
    assert messages.PotJson.__struct_fields__ == tuple(f.name for f in dataclasses.fields(Pot))
    assert messages.RulingJson.__struct_fields__ == tuple(f.name for f in dataclasses.fields(Ruling))
    # a field with a default in the core is optional on the wire, one without is required
    required = {f.name for f in dataclasses.fields(Ruling) if f.default is dataclasses.MISSING}
    assert set(messages.RulingJson.__struct_fields__[:len(required)]) == required == {"t", "ruling", "rule", "remedy"}


@dataclasses.dataclass(frozen=True, kw_only=True)
class PotWithLow:
    """A pot as a hi-lo game would write it: the core's fields and a low half's winners."""

    amount: int
    seats: tuple[int, ...]
    winners: tuple[int, ...] = ()
    low_winners: tuple[int, ...] = ()
    low_hand: str | None = None


def test_a_field_the_core_adds_to_a_pot_crosses_the_room_checked_not_quarantined() -> None:
    schema = record_struct(PotWithLow, "PotJson", base=msgspec.Struct)
    pot = msgspec.json.decode(b'{"amount": 300, "seats": [1, 2, 3], "winners": [1], "low_winners": [2],'
                              b' "low_hand": "eight-seven low"}', type=schema)
    assert (pot.low_winners, pot.low_hand) == ([2], "eight-seven low")  # type: ignore[attr-defined]
    with pytest.raises(msgspec.ValidationError, match=r"<= 10 - at `\$.low_winners\[0\]`"):
        msgspec.json.decode(b'{"amount": 300, "seats": [1, 2], "low_winners": [11]}', type=schema)
    with pytest.raises(msgspec.ValidationError, match="unknown field `high_winners`"):
        msgspec.json.decode(b'{"amount": 300, "seats": [1, 2], "high_winners": [1]}', type=schema)


def test_a_core_field_the_room_cannot_bound_stops_the_import_naming_the_record_field_and_table() -> None:
    @dataclasses.dataclass(frozen=True)
    class Odd:
        amount: int
        weights: dict[str, float]

    where = r"Odd\.weights \(dict\[str, float\]\): .*FIELD_TYPES in firmware_py/room/wire\.py"
    with pytest.raises(TypeError, match=where):
        record_struct(Odd, "OddJson", base=msgspec.Struct)
    assert "weights" not in FIELD_TYPES


SHAPES = [(Pot, FeedPot), (Ruling, FeedRuling), (Pot, tournament_messages.PotJson)]


@pytest.mark.parametrize(("record", "shape"), SHAPES, ids=["feed pot", "feed ruling", "tournament pot"])
def test_the_feed_and_the_tournament_carry_every_core_field_or_say_why_not(record: type, shape: type) -> None:
    lacking, unexcused = carried(record, shape)
    assert not unexcused, f"{shape.__qualname__} lacks {sorted(unexcused)} of {record.__name__}: carry them, or say " \
                          "why not in LEFT_OUT (firmware_py/room/wire.py)"
    excused = LEFT_OUT[f"{shape.__module__.rsplit('.', 1)[-1]}.{shape.__name__}"]
    assert set(excused) == lacking, f"LEFT_OUT excuses fields {shape.__name__} now carries: {set(excused) - lacking}"


def test_a_game_antenna_or_stack_reason_the_core_adds_is_one_the_session_schema_reads() -> None:
    code = ("import firmware_py.core.events as e, firmware_py.core.game as g\n"
            "g.GAMES['razz'] = g.HOLDEM\n"
            "e.STACK_REASONS = (*e.STACK_REASONS, 'bounty')\n"
            "from typing import get_args\n"
            "import firmware_py.session_schema as s\n"
            "assert 'razz' in get_args(s.GameName) and 'bounty' in get_args(s.StackReason), s.GameName\n"
            "assert set(get_args(s.Antenna)) == e.ANTENNAS\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr
