"""The room's topic tree and its JSON messages (schema version 1), built from the core's snapshots.

    pokertable/<room>/<table>/status     retained, QoS 1  online/offline (the Last Will says offline)
    pokertable/<room>/<table>/heartbeat  QoS 0            every heartbeat_s while connected
    pokertable/<room>/<table>/state      retained, QoS 1  venue-safe state: no hole card, no burn card
    pokertable/<room>/<table>/ruling     QoS 1            every ruling, with the rule and the remedy
    pokertable/<room>/<table>/hand       QoS 1            every finished hand, PHH (holds hole cards)
    pokertable/<room>/<table>/broadcast  QoS 1            hole cards and board, for the production room

Every message carries `v` (the schema version), `room`, `table` and `seq`: the journal sequence
number of the event it follows from. A consumer that keeps the highest `seq` it has seen per
table (and `(seq, n)` for rulings) drops the duplicates a catch-up may resend.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from firmware_py.core import Ruling, RulingKind, TableSnapshot
from firmware_py.core.snapshot import Phase

SCHEMA_VERSION = 1
ROOT = "pokertable"
KINDS = ("status", "heartbeat", "state", "ruling", "hand", "broadcast")
NOT_IRREGULAR = frozenset({RulingKind.SHOWDOWN})
MISDEALS = frozenset({RulingKind.MISDEAL, RulingKind.VOID_HAND})


def topic(room: str, table: str, kind: str) -> str:
    """`pokertable/<room>/<table>/<kind>`."""
    if kind not in KINDS:
        raise ValueError(f"unknown message kind {kind!r}; kinds are {', '.join(KINDS)}")
    return f"{ROOT}/{room}/{table}/{kind}"


def parse_topic(name: str) -> tuple[str, str, str] | None:
    """(room, table, kind) of a room topic, or None for any other topic."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] not in KINDS:
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


def broadcast_state(snapshot: TableSnapshot) -> dict[str, Any]:
    """Hole cards and board for the production room: only ever on the broadcast topic."""
    return {"t": snapshot.t, "profile": snapshot.profile, "profile_title": snapshot.profile_title,
            "hand": snapshot.hand_number, "phase": str(snapshot.phase),
            "street": str(snapshot.street) if snapshot.street else None, "board": list(snapshot.board),
            "button": snapshot.button, "small_blind": snapshot.small_blind, "big_blind": snapshot.big_blind,
            "to_act": snapshot.to_act, "in_play": snapshot.in_play,
            "showdown": snapshot.showdown.to_json() if snapshot.showdown else None,
            "seats": [{"seat": v.seat, "state": str(v.state), "cards": list(v.cards)} for v in snapshot.seats]}


def envelope(room: str, table: str, seq: int, **fields: Any) -> dict[str, Any]:
    return {"v": SCHEMA_VERSION, "room": room, "table": table, "seq": seq, **fields}
