"""The room's topic tree and its JSON messages (schema version 1), built from the core's snapshots.

    pokertable/<room>/<table>/status     retained, QoS 1  online/offline (the Last Will says offline)
    pokertable/<room>/<table>/heartbeat  QoS 0            every heartbeat_s while connected
    pokertable/<room>/<table>/state      retained, QoS 1  venue-safe state: no hole card, no burn card
    pokertable/<room>/<table>/ruling     QoS 1            every ruling, with the rule and the remedy
    pokertable/<room>/<table>/hand       QoS 1            every finished hand, PHH (holds hole cards)
    pokertable/<room>/<table>/broadcast  QoS 1            hole cards and board, for the production room
    pokertable/<room>/<table>/jackpot    QoS 1            a jackpot hand as it ends, for the floor and the director
    pokertable/<room>/<table>/archived   retained, QoS 1  from the collector: how far the archive has the table

Every message carries `v` (the schema version), `room`, `table` and `seq`: the journal sequence
number of the event it follows from. A consumer that keeps the highest `seq` it has seen per
table (and `(seq, n)` for rulings) drops the duplicates a catch-up may resend.

Each kind has one schema, a msgspec Struct below (`SCHEMAS`): `decode(topic, payload)` checks a
message against it in the same pass that parses the JSON, with a bound on every number, string and
list, and raises `BadMessage` (with the reason) for anything else; `encode` is how the table writes
them, through the same Structs, so it never sends what its consumers would refuse. The broadcast
kind's schema is the production feed's own, `feed.BroadcastFeed`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from firmware_py.core import Ruling, RulingKind, TableSnapshot
from firmware_py.core.events import MAX_SEATS
from firmware_py.core.pots import Pot
from firmware_py.core.rulings import Street
from firmware_py.core.snapshot import Phase, PlayerState
from firmware_py.hand_replay import HandReplay
from firmware_py.room.bounds import (
    MAX_SEQ,
    Card,
    Count,
    Digest,
    Id,
    Name,
    Phh,
    SeatNo,
    Seconds,
    Seq,
    Session,
    Text,
    Wall,
)
from firmware_py.room.feed import BroadcastFeed
from firmware_py.room.room_config import is_reserved
from firmware_py.room.wire import record_struct

SCHEMA_VERSION = 1
ROOT = "pokertable"
KINDS = ("status", "heartbeat", "state", "ruling", "hand", "broadcast", "jackpot", "archived")
TABLE_KINDS = KINDS[:-1]  # what a table publishes; `archived` is the collector's
MAX_MESSAGE_BYTES = 256 * 1024  # the broker's message_size_limit (config/room/mosquitto.conf) and ours
# The rules at work, no one's error: a showdown, a short blind, a chip race ruled.
NOT_IRREGULAR = frozenset({RulingKind.SHOWDOWN, RulingKind.SHORT_BLIND, RulingKind.CHIP_RACE})
MISDEALS = frozenset({RulingKind.MISDEAL, RulingKind.VOID_HAND})


def topic(room: str, table: str, kind: str) -> str:
    """`pokertable/<room>/<table>/<kind>`."""
    if kind not in KINDS:
        raise ValueError(f"unknown message kind {kind!r}; kinds are {', '.join(KINDS)}")
    return f"{ROOT}/{room}/{table}/{kind}"


def parse_topic(name: str) -> tuple[str, str, str] | None:
    """(room, table, kind) of a room topic, or None for any other topic: a reserved id (the director,
    production, a zone, ...) is never a table, whatever a `+` subscription delivers under it."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] not in KINDS or is_reserved(parts[2]):
        return None
    return parts[1], parts[2], parts[3]


def status_of(snapshot: TableSnapshot, faults: Sequence[Any] = ()) -> str:
    """What the floor shows for the table: reader fault, misdeal, dealing, the street, showdown or idle."""
    if faults:
        return "fault"
    if snapshot.phase is Phase.BETTING and snapshot.street is not None:
        return str(snapshot.street)
    if snapshot.phase is Phase.BOARD:
        return "board"
    return str(snapshot.phase)


def is_irregularity(ruling: Ruling) -> bool:
    return ruling.ruling not in NOT_IRREGULAR


def venue_digest(state: dict[str, Any]) -> str:
    """A fingerprint of the venue-safe part of the state (never of hole cards: it could be brute-forced)."""
    keys = ("hand", "phase", "street", "board", "seats", "to_act", "button", "open_rulings")
    return hashlib.sha256(repr([state.get(k) for k in keys]).encode()).hexdigest()[:16]


def venue_state(snapshot: TableSnapshot) -> dict[str, Any]:
    """The parts of a snapshot anyone at the venue may see: card counts, never a hole or burn card."""
    seats = [{"seat": v.seat, "state": str(v.state), "cards": len(v.cards), "button": v.is_button,
              "to_act": v.to_act} for v in snapshot.seats]
    state: dict[str, Any] = {
        "t": snapshot.t, "profile": snapshot.profile, "hand": snapshot.hand_number, "phase": str(snapshot.phase),
        "street": str(snapshot.street) if snapshot.street else None, "board": list(snapshot.board),
        "burns": len(snapshot.burns), "seats": seats, "to_act": snapshot.to_act, "button": snapshot.button,
        "open_rulings": [ruling_json(r) for r in snapshot.unconfirmed],
    }
    state["digest"] = venue_digest(state)
    return state


def ruling_json(ruling: Ruling) -> dict[str, Any]:
    """A ruling as the exchange format has it: what the venue screen's ruling banner shows too."""
    return ruling.to_json()


def envelope(room: str, table: str, seq: int, **fields: Any) -> dict[str, Any]:
    return {"v": SCHEMA_VERSION, "room": room, "table": table, "seq": seq, **fields}


# -- the schemas -----------------------------------------------------------------------------------
# Every number, string and list has a bound (`bounds`). Unknown fields are refused: a newer table
# speaks a newer `v`.

TableStatus = Literal["fault", "misdealt", "dealing", "preflop", "flop", "turn", "river", "board", "showdown",
                      "idle", "betting"]


class _Message(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The envelope of every room message."""

    v: Literal[1]
    room: Id
    table: Id
    session: Session
    seq: Seq


class _Part(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


# A pot and a ruling as the core writes them (`Pot.to_json`, `Ruling.to_json`): their schemas made from the core's
# records (`wire`), so a field the core adds crosses the room checked, not into the quarantine.
if TYPE_CHECKING:  # made at import: the type checker takes them as any Struct
    PotJson = Any
    RulingJson = Any
else:
    PotJson = record_struct(Pot, "PotJson", base=_Part)
    RulingJson = record_struct(Ruling, "RulingJson", base=_Part, types={
        "pots": Annotated[list[PotJson], msgspec.Meta(max_length=MAX_SEATS)]})
    RulingJson.__doc__ = "A ruling as the exchange format (shared/spec/table-events.md) has it."


class StatusMessage(_Message):
    online: bool
    reason: Name = ""
    dealer: Name = ""
    heartbeat_s: Annotated[float, msgspec.Meta(gt=0.0, le=3600.0)] = 5.0


class HeartbeatMessage(_Message):
    wall: Wall
    acked: Seq


class Fault(_Part):
    component: Name
    message: Text


class Counts(_Part):
    hands: Count
    misdeals: Count
    irregularities: Count
    hands_per_hour: Annotated[float, msgspec.Meta(ge=0.0, le=1e6)]


class VenueSeat(_Part):
    seat: SeatNo
    state: PlayerState
    cards: Annotated[int, msgspec.Meta(ge=0, le=52)]  # a count: never a card
    button: bool
    to_act: bool


class TableTournament(_Part):
    """A table in a tournament: what the director tells it (the venue screen shows the same)."""

    hand_for_hand: bool
    hold: Text  # why the table may not deal its next hand now ("": it may)
    hold_rule: Text
    all_in: Annotated[list[Id], msgspec.Meta(max_length=256)]
    calls: Annotated[list[Text], msgspec.Meta(max_length=16)]  # the director's calls for the table, by name


class StateMessage(_Message):
    dealer: Name
    status: TableStatus
    faults: Annotated[list[Fault], msgspec.Meta(max_length=32)]
    counts: Counts
    t: Seconds
    profile: Name
    hand: Count
    phase: Phase
    street: Street | None
    board: Annotated[list[Card], msgspec.Meta(max_length=5)]
    burns: Annotated[int, msgspec.Meta(ge=0, le=52)]
    seats: Annotated[list[VenueSeat], msgspec.Meta(max_length=MAX_SEATS)]
    to_act: SeatNo | None
    button: SeatNo | None
    open_rulings: Annotated[list[RulingJson], msgspec.Meta(max_length=64)]
    digest: Digest
    tournament: TableTournament | None = None  # `[room] tournament = true`: hand-for-hand, a hold, calls


class RulingMessage(_Message):
    n: Annotated[int, msgspec.Meta(ge=0, le=1000)]  # one event may cause several rulings
    idx: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEQ)]  # this session's archive messages, counted from 1
    dealer: Name
    hand: Count
    wall: Wall
    ruling: RulingJson


class HandMessage(_Message):
    idx: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEQ)]
    hand: Count
    t: Seconds
    dealer: Name
    played: bool
    rulings: Annotated[list[Name], msgspec.Meta(max_length=256)]
    phh: Phh | None
    phh_problem: Text | None
    # The hand street by street as the table's journal holds it (each event with its seq and line, the card
    # read and by which antenna, who pressed, each ruling with its cite, the pots): the floor's replay.
    replay: HandReplay | None = None


class JackpotMessage(_Message):
    """A hand that qualified for one of the house's jackpots (firmware_py/jackpots.py), ruled by the table as it
    ended: `seq` is the journal event that ruled the showdown, `n` numbers the jackpots it qualified for. The cards
    named are the showdown's, tabled; `packet` is the evidence packet's file name at the table (surveillance's)."""

    n: Annotated[int, msgspec.Meta(ge=0, le=64)]
    dealer: Name
    hand: Count
    t: Seconds
    wall: Wall
    jackpot: Name  # the house file's name of it
    kind: Literal["bad_beat", "high_hand"]
    seat: SeatNo  # the beaten hand (a bad beat) or the winning hand (a high hand)
    winners: Annotated[list[SeatNo], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]
    held: Name  # the seat's hand in words ("full house, aces full of kings")
    rule: Text  # "house (jackpots.toml): Bad Beat Jackpot 1: ..."
    remedy: Text
    packet: Name = ""


class ArchivedMessage(_Message):
    """The collector's confirmation, retained per table: every archive message (ruling and hand) of
    `session` up to number `idx` is committed; `seq` is the journal seq of that last one."""

    idx: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
    by: Name = ""


class ArchiveKey(msgspec.Struct, kw_only=True, frozen=True):
    """What the collector can still tell of a ruling or hand it must quarantine (lenient: no bounds
    but the types), so the archive's count goes on past it."""

    session: Session
    seq: Seq
    idx: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEQ)]


Message = (StatusMessage | HeartbeatMessage | StateMessage | RulingMessage | HandMessage | BroadcastFeed
           | JackpotMessage | ArchivedMessage)
SCHEMAS: dict[str, type[Any]] = {"status": StatusMessage, "heartbeat": HeartbeatMessage, "state": StateMessage,
                                 "ruling": RulingMessage, "hand": HandMessage, "broadcast": BroadcastFeed,
                                 "jackpot": JackpotMessage, "archived": ArchivedMessage}
_DECODERS = {kind: msgspec.json.Decoder(schema) for kind, schema in SCHEMAS.items()}
_ENCODER = msgspec.json.Encoder()


class BadMessage(ValueError):
    """A message that is not one of the room's: `reason` says why (for the quarantine)."""


def decode(topic_name: str, payload: bytes | Mapping[str, Any]) -> Any:
    """The message on `topic_name`, checked against its kind's schema, or BadMessage saying why.

    >>> decode("pokertable/main/t01/heartbeat", b'{"v": 1, "room": "main", "table": "t01", "session": "s1",'
    ...        b' "seq": 7, "wall": 1795457000.1, "acked": 5}').acked
    5
    >>> decode("pokertable/main/t01/heartbeat", b'{"v": 1, "room": "main", "table": "t01", "session": "s1",'
    ...        b' "seq": 1180591620717411303424, "wall": 1.0, "acked": 5}')
    Traceback (most recent call last):
    firmware_py.room.messages.BadMessage: Expected `int` <= 9007199254740991 - at `$.seq`
    """
    where = parse_topic(topic_name)
    if where is None:
        raise BadMessage(f"not a room topic: {topic_name[:200]!r}")
    room, table, kind = where
    try:
        if isinstance(payload, bytes | bytearray | memoryview):
            if len(payload) > MAX_MESSAGE_BYTES:
                raise BadMessage(f"{len(payload)} bytes: more than the room's {MAX_MESSAGE_BYTES}")
            message = _DECODERS[kind].decode(payload)
        else:
            message = msgspec.convert(payload, SCHEMAS[kind])
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise BadMessage(str(exc)[:500]) from None
    except RecursionError:
        raise BadMessage("nested too deep") from None
    if message.room != room or message.table != table:
        raise BadMessage(f"the topic is {room}/{table} but the message says {message.room}/{message.table}")
    return message


def archive_key(payload: bytes) -> ArchiveKey | None:
    """The session, seq and idx of a ruling or hand that failed its schema, when those at least are sound."""
    try:
        return msgspec.json.decode(payload, type=ArchiveKey)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def encode(kind: str, body: Mapping[str, Any] | msgspec.Struct) -> bytes:
    """A table's message as JSON, through its kind's schema (BadMessage if the table itself got it wrong)."""
    try:
        return _ENCODER.encode(msgspec.convert(body, SCHEMAS[kind]))
    except msgspec.ValidationError as exc:
        raise BadMessage(f"{kind}: {exc}") from None


def to_dict(message: Any) -> dict[str, Any]:
    """A decoded message as plain JSON data (what the floor's and the broadcast's views draw from)."""
    data: dict[str, Any] = msgspec.to_builtins(message)
    return data
