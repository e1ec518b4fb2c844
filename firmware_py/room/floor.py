"""What the floor knows of the room, built from the messages it may read (status, heartbeat, state, ruling).

Pure bookkeeping, no pygame and no network: the `floor` command feeds it from MQTT and draws it
with `display.floor`; tests feed it recorded messages. Rulings are counted once per
(table, session, seq, n), however often the broker delivers them.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from firmware_py.room.messages import MISDEALS, NOT_IRREGULAR, parse_topic

STALE_BEATS = 3  # heartbeats missed before a table counts as offline
KINDS = ("status", "heartbeat", "state", "ruling")  # what the floor reads (the ACL lets it read no more)


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

    def status(self, now: float) -> str:
        """offline, fault, misdealt, dealing, preflop, flop, turn, river, board, showdown or idle."""
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
        # (when received, seconds from the daemon's ruling to here), Unix time: for the latency benchmark
        self.latencies: deque[tuple[float, float]] = deque(maxlen=100_000)

    def feed(self, topic_name: str, body: Any, *, now: float) -> None:
        """One message; anything that is not a v1 message of a table is counted and ignored."""
        where = parse_topic(topic_name)
        if where is None or not isinstance(body, dict) or body.get("v") != 1:
            self.ignored += 1
            return
        room, table, kind = where
        if (self.room is not None and room != self.room) or kind not in KINDS:
            self.ignored += 1
            return
        with self._lock:
            self.messages += 1
            if (room, table) in self._retired:
                if not _back(kind, body, self._retired[(room, table)]):
                    return
                del self._retired[(room, table)]
            view = self._tables.get((room, table))
            if view is None:
                view = self._tables[(room, table)] = TableView(room=room, table=table, offline_at=now)
            if kind == "status":
                view.online = bool(body.get("online"))
                view.offline_reason = str(body.get("reason", ""))
                view.offline_at = None if view.online else now
                view.heartbeat_s = float(body.get("heartbeat_s", view.heartbeat_s))
                view.dealer = str(body.get("dealer", view.dealer))
                if view.online:
                    view.last_beat = now
            elif kind == "heartbeat":
                view.last_beat = now
                view.online = True
            elif kind == "state":
                if self._newer(view.state, body):
                    view.state = body
                    view.dealer = str(body.get("dealer", view.dealer))
                view.last_beat = now
            elif kind == "ruling":
                self._ruling(view, body, now)

    @staticmethod
    def _newer(old: dict[str, Any], new: dict[str, Any]) -> bool:
        if not old or old.get("session") != new.get("session"):
            return True
        return int(new.get("seq", 0)) >= int(old.get("seq", 0))

    def _ruling(self, view: TableView, body: dict[str, Any], now: float) -> None:
        key = (str(body.get("session")), int(body.get("seq", 0)), int(body.get("n", 0)))
        if key in view.seen:
            self.duplicates += 1
            return
        view.seen.add(key)
        if isinstance(body.get("wall"), int | float):
            received = time.time()
            self.latencies.append((received, received - float(body["wall"])))
        ruling = body.get("ruling", {})
        kind = ruling.get("ruling")
        dealer = str(body.get("dealer") or "(no dealer)")
        counts = self._dealers.setdefault(dealer, DealerCounts())
        if kind in {str(k) for k in MISDEALS}:
            counts.misdeals += 1
            view.misdeals_seen += 1
        if kind not in {str(k) for k in NOT_IRREGULAR}:
            counts.irregularities += 1
            view.irregularities_seen += 1
            view.last_ruling, view.ruling_at = body, now

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


def _back(kind: str, body: dict[str, Any], last: tuple[str, int]) -> bool:
    """Whether a message of a retired table says it is back (not its old news delivered again)."""
    if kind == "heartbeat" or (kind == "status" and body.get("online")):
        return True
    if kind in ("state", "ruling"):
        session, seq = str(body.get("session", "")), int(body.get("seq", 0))
        return session != last[0] or seq > last[1]
    return False


def _natural(name: str) -> tuple[Any, ...]:
    """t2 before t10."""
    head = name.rstrip("0123456789")
    tail = name[len(head):]
    return (head, int(tail) if tail else -1, name)
