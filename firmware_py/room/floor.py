"""What the floor knows of the room, built from the messages it may read (status, heartbeat, state, ruling, jackpot).

Pure bookkeeping, no pygame and no network: the `floor` command feeds it from MQTT and draws it
with `display.floor`; tests feed it recorded messages. Rulings are counted once per
(table, session, seq, n), however often the broker delivers them. Every message is checked against
the room's schema first (`messages.decode`); a bad one is counted, logged, and shown as a fault on
its table's tile for a minute (BAD MESSAGE and why), and the floor goes on.

A jackpot hand (a table's `jackpot` message, docs/jackpots.md) shows on its table's tile for JACKPOT_S and in the
side column's latest jackpots; the chip counts (`leaderboard`) are the director's state's, when a tournament runs.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from firmware_py.room.leaderboard import leaderboard
from firmware_py.room.messages import (
    MISDEALS,
    NOT_IRREGULAR,
    BadMessage,
    HeartbeatMessage,
    JackpotMessage,
    RulingMessage,
    StateMessage,
    StatusMessage,
    decode,
    parse_topic,
    to_dict,
)

logger = logging.getLogger("firmware_py.room.floor")

STALE_BEATS = 3  # heartbeats missed before a table counts as offline
BAD_MESSAGE_S = 60.0  # how long a bad message shows on its table's tile
KINDS = ("status", "heartbeat", "state", "ruling", "jackpot")  # what the floor reads (the ACL lets it read no more)
JACKPOT_S = 600.0  # how long a jackpot hand shows on its table's tile (the floor is called to it at once)
KEEP_JACKPOTS = 20  # the latest jackpots the side column lists


@dataclass
class DealerCounts:
    misdeals: int = 0
    irregularities: int = 0


@dataclass
class TableView:
    """One table as the floor sees it."""

    room: str
    table: str
    online: bool = False
    offline_reason: str = ""
    heartbeat_s: float = 5.0
    last_beat: float | None = None  # the floor's clock when the last heartbeat or state came
    state: dict[str, Any] = field(default_factory=dict)
    dealer: str = ""
    seen: set[tuple[str, int, int]] = field(default_factory=set)  # (session, seq, n) of rulings counted
    misdeals_seen: int = 0
    irregularities_seen: int = 0
    last_ruling: dict[str, Any] | None = None
    ruling_at: float | None = None  # the floor's clock when last_ruling came (for the latency benchmark)
    offline_at: float | None = None  # the floor's clock when it said it went offline (or was first heard of)
    bad_messages: int = 0
    bad_reason: str = ""
    bad_at: float | None = None  # the floor's clock when the last bad message came
    jackpot: dict[str, Any] | None = None  # the table's latest jackpot hand (a JackpotMessage as JSON)
    jackpot_at: float | None = None  # the floor's clock when it came

    def jackpot_now(self, now: float) -> dict[str, Any] | None:
        """The jackpot hand the tile shows at `now` (JACKPOT_S after it came), or None."""
        if self.jackpot is None or self.jackpot_at is None or now - self.jackpot_at >= JACKPOT_S:
            return None
        return self.jackpot

    def status(self, now: float) -> str:
        """bad_message, offline, fault, misdealt, dealing, preflop, flop, turn, river, board, showdown or idle."""
        if self.bad_at is not None and now - self.bad_at < BAD_MESSAGE_S:
            return "bad_message"
        if not self.online:
            return "offline"
        if self.last_beat is not None and now - self.last_beat > STALE_BEATS * self.heartbeat_s:
            return "offline"
        return str(self.state.get("status", "idle")) if self.state else "idle"

    def offline_for(self, now: float) -> float | None:
        """Seconds the table has been offline at `now` (None while it is online)."""
        if self.status(now) != "offline":
            return None
        if not self.online:  # it said so (or has not said it is online since the floor first heard of it)
            since = self.offline_at
        else:  # it went silent
            since = self.last_beat + STALE_BEATS * self.heartbeat_s if self.last_beat is not None else None
        return max(0.0, now - since) if since is not None else 0.0

    def last_seq(self) -> tuple[str, int]:
        """(session, seq) of the newest state the floor holds of this table."""
        return str(self.state.get("session", "")), int(self.state.get("seq", 0)) if self.state else 0

    @property
    def open_rulings(self) -> list[dict[str, Any]]:
        return list(self.state.get("open_rulings", [])) if self.state else []

    @property
    def counts(self) -> dict[str, Any]:
        return dict(self.state.get("counts", {})) if self.state else {}


class FloorModel:
    """The room from the floor's side; `feed` from any thread, `tables()` for drawing."""

    def __init__(self, room: str | None = None) -> None:
        self.room = room
        self._tables: dict[tuple[str, str], TableView] = {}
        self._dealers: dict[str, DealerCounts] = {}
        self._lock = threading.Lock()
        # Tables taken off the floor (offline), with the (session, seq) of their last state: what the broker
        # delivers again of them (retained, or after a reconnect) stays off; a table that comes back returns.
        self._retired: dict[tuple[str, str], tuple[str, int]] = {}
        self.messages = 0
        self.duplicates = 0
        self.ignored = 0
        self.quarantined = 0  # messages that failed the schema
        # (when received, seconds from the daemon's ruling to here), Unix time: for the latency benchmark
        self.latencies: deque[tuple[float, float]] = deque(maxlen=100_000)
        self.tournament: dict[str, Any] | None = None  # the director's state (docs/tournament.md), when one runs
        self.tournament_at = 0.0
        self.jackpots: deque[dict[str, Any]] = deque(maxlen=KEEP_JACKPOTS)  # the latest jackpot hands, newest last
        self._jackpots_seen: set[tuple[str, str, str, int, int]] = set()  # (room, table, session, seq, n)

    def _director(self, topic_name: str, payload: Any, now: float) -> None:
        from firmware_py.room.tournament_messages import decode_director  # noqa: PLC0415

        try:
            state = decode_director(topic_name, payload if isinstance(payload, bytes) else bytes(payload))
        except (BadMessage, TypeError) as exc:
            self.quarantined += 1
            logger.warning("floor: %s: %s; ignored", topic_name[:200], exc)
            return
        if self.room is not None and state.room != self.room:
            self.ignored += 1
            return
        with self._lock:
            if (self.tournament is None or state.session != self.tournament.get("session")
                    or state.seq > int(self.tournament.get("seq", 0))):
                self.tournament, self.tournament_at = to_dict(state), now

    def feed(self, topic_name: str, payload: Any, *, now: float) -> None:
        """One message (its bytes, or parsed JSON); a message of another room or kind is counted and ignored,
        one that fails the schema is quarantined: counted, logged and shown on its table's tile."""
        if topic_name.endswith("/director/tournament"):
            self._director(topic_name, payload, now)
            return
        where = parse_topic(topic_name)
        if where is not None and ((self.room is not None and where[0] != self.room) or where[2] not in KINDS):
            self.ignored += 1
            return
        try:
            message = decode(topic_name, payload)
        except BadMessage as exc:
            self._quarantine(topic_name, where, str(exc), now)
            return
        room, table = message.room, message.table
        with self._lock:
            self.messages += 1
            if (room, table) in self._retired:
                if not _back(message, self._retired[(room, table)]):
                    return
                del self._retired[(room, table)]
            view = self._tables.get((room, table))
            if view is None:
                view = self._tables[(room, table)] = TableView(room=room, table=table, offline_at=now)
            if isinstance(message, StatusMessage):
                view.online = message.online
                view.offline_reason = message.reason
                view.offline_at = None if view.online else now
                view.heartbeat_s = message.heartbeat_s
                view.dealer = message.dealer or view.dealer
                if view.online:
                    view.last_beat = now
            elif isinstance(message, HeartbeatMessage):
                view.last_beat = now
                view.online = True
            elif isinstance(message, StateMessage):
                if self._newer(view.state, message):
                    view.state = to_dict(message)
                    view.dealer = message.dealer or view.dealer
                view.last_beat = now
            elif isinstance(message, RulingMessage):
                self._ruling(view, message, now)
            elif isinstance(message, JackpotMessage):
                self._jackpot(view, message, now)

    def _quarantine(self, topic_name: str, where: tuple[str, str, str] | None, reason: str, now: float) -> None:
        self.quarantined += 1
        logger.warning("floor: %s: %s; shown on the tile and ignored", topic_name[:200], reason)
        if where is None:
            return
        with self._lock:
            view = self._tables.get(where[:2])
            if view is None:
                view = self._tables[where[:2]] = TableView(room=where[0], table=where[1], offline_at=now)
            view.bad_messages += 1
            view.bad_reason = f"{where[2]}: {reason}"
            view.bad_at = now

    @staticmethod
    def _newer(old: dict[str, Any], new: StateMessage) -> bool:
        if not old or old.get("session") != new.session:
            return True
        return new.seq >= int(old.get("seq", 0))

    def _ruling(self, view: TableView, message: RulingMessage, now: float) -> None:
        key = (message.session, message.seq, message.n)
        if key in view.seen:
            self.duplicates += 1
            return
        view.seen.add(key)
        received = time.time()
        self.latencies.append((received, received - message.wall))
        body = to_dict(message)
        kind = message.ruling.ruling
        dealer = message.dealer or "(no dealer)"
        counts = self._dealers.setdefault(dealer, DealerCounts())
        if kind in {str(k) for k in MISDEALS}:
            counts.misdeals += 1
            view.misdeals_seen += 1
        if kind not in {str(k) for k in NOT_IRREGULAR}:
            counts.irregularities += 1
            view.irregularities_seen += 1
            view.last_ruling, view.ruling_at = body, now

    def _jackpot(self, view: TableView, message: JackpotMessage, now: float) -> None:
        key = (message.room, message.table, message.session, message.seq, message.n)
        if key in self._jackpots_seen:
            self.duplicates += 1
            return
        self._jackpots_seen.add(key)
        body = to_dict(message)
        view.jackpot, view.jackpot_at = body, now
        self.jackpots.append(body)
        logger.warning("floor: JACKPOT at %s hand %d: %s seat %d (%s)", message.table, message.hand, message.jackpot,
                       message.seat, message.held)

    def leaderboard(self, *, top: int | None = None) -> dict[str, Any] | None:
        """The room's chip counts from the director's state (None without a tournament): room/leaderboard.py."""
        with self._lock:
            state = self.tournament
        return None if state is None else leaderboard(state, top=top)

    def latest_jackpots(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.jackpots)

    def retire(self, now: float, *, offline_for_s: float = 0.0) -> list[str]:
        """Take the tables offline for at least `offline_for_s` seconds off the floor; returns their ids.

        A retired table returns as soon as it is heard from again (online, a heartbeat, a newer state).
        """
        with self._lock:
            gone = [(key, view) for key, view in self._tables.items()
                    if (off := view.offline_for(now)) is not None and off >= offline_for_s]
            for key, view in gone:
                self._retired[key] = view.last_seq()
                del self._tables[key]
        return [view.table for _key, view in gone]

    def tables(self) -> list[TableView]:
        with self._lock:
            return sorted(self._tables.values(), key=lambda v: (v.room, _natural(v.table)))

    def table(self, table: str) -> TableView | None:
        with self._lock:
            return next((v for (_r, t), v in self._tables.items() if t == table), None)

    def dealers(self) -> dict[str, DealerCounts]:
        with self._lock:
            return {name: DealerCounts(c.misdeals, c.irregularities) for name, c in self._dealers.items()}

    def summary(self, now: float) -> Counter[str]:
        return Counter(view.status(now) for view in self.tables())


def _back(message: Any, last: tuple[str, int]) -> bool:
    """Whether a message of a retired table says it is back (not its old news delivered again)."""
    if isinstance(message, HeartbeatMessage) or (isinstance(message, StatusMessage) and message.online):
        return True
    if isinstance(message, StateMessage | RulingMessage | JackpotMessage):
        return message.session != last[0] or message.seq > last[1]
    return False


def _natural(name: str) -> tuple[Any, ...]:
    """t2 before t10."""
    head = name.rstrip("0123456789")
    tail = name[len(head):]
    return (head, int(tail) if tail else -1, name)
