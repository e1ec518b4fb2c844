"""The table's publisher: the journal, as the room's MQTT messages, on its own thread.

It never blocks the main loop or the journal: the daemon only sets an event after each commit.
The publisher reads the journal itself (a second, read-only SQLite connection; WAL lets it read
while the daemon writes), feeds the events to its own copy of the rules core and publishes what
follows from them. Messages are handed to paho only while the broker is connected, so an outage
leaves the events in the journal, which is the on-disk queue; when the broker is back the
publisher goes on from where it was, in order.

End to end: a ruling or a hand counts as delivered only when the collector says it has committed
it, on the table's retained `archived` topic (the k-th archive message of the session, `idx`). Until
then the publisher keeps it; after any outage (a broker crash or restart included: the broker may
have lost what it had acknowledged) it sends again everything not yet archived. How far the
archive has the table is kept in a small file beside the journal ("published up to seq"); after a
crash the publisher starts again from there, so a message may come twice (a consumer drops it by
`seq`) but never not at all.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from firmware_py.core import RulingKind
from firmware_py.core.engine import TableCore
from firmware_py.core.events import Button, ButtonName, Seat, Setup, Stacks
from firmware_py.daemon.export import HandCutter, HandRecord, Step, hand_history
from firmware_py.extensions import Extension
from firmware_py.hand_replay import HandReplay, JournalEntry, ReplayBook, trimmed
from firmware_py.room.feed import BroadcastFeed, FeedBuilder, picture_key
from firmware_py.room.messages import (
    MAX_MESSAGE_BYTES,
    MISDEALS,
    ArchivedMessage,
    BadMessage,
    decode,
    encode,
    envelope,
    is_irregularity,
    ruling_json,
    status_of,
    topic,
    venue_state,
)
from firmware_py.room.mqtt import KEEPALIVE_S
from firmware_py.room.room_config import RoomConfig, parse_room
from firmware_py.session import SessionReader

if TYPE_CHECKING:
    from firmware_py.ports import TablePort

logger = logging.getLogger("firmware_py.room")

MAX_UNACKED = 2000  # messages handed to paho but not yet acknowledged: the reader waits beyond this
ROWS_PER_PASS = 500
MARKER_SAVE_S = 0.5
# A confirmation that does not move while we wait for older messages means the archive has a gap
# (a message lost on the way: a shared-subscription collector that died holding it, a broker queue
# that overflowed): send the unconfirmed ones again, at most this often.
GAP_S = 10.0
STOP_FLUSH_S = 5.0
REPLAY_MARGIN_BYTES = 4096  # the hand message's envelope and the replay's own fields, beside its entries
HOUR_S = 3600.0


@dataclass(frozen=True, slots=True)
class Outgoing:
    topic: str
    payload: bytes
    qos: int
    retain: bool
    seq: int  # 0: not counted for the marker (heartbeats, broadcast)
    idx: int = 0  # the archive message's number in the session (rulings and hands); 0: not archived


class Marker:
    """`<journal>.room.json`: the journal session and the last seq whose messages the broker has."""

    def __init__(self, path: Path, session: str) -> None:
        self.path, self.session = path, session
        self.seq = 0
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("session") == session:
                self.seq = int(data["seq"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # none yet, or unreadable: start from the beginning (consumers drop what they have)
        self.saved = self.seq

    def save(self) -> None:
        if self.saved == self.seq:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"session": self.session, "seq": self.seq}), encoding="utf-8")
        os.replace(tmp, self.path)  # a stale marker only means duplicates, never a gap: no fsync needed
        self.saved = self.seq


def journal_session(journal: Any) -> str:
    """The journal's session id (made on first use): seqs restart with a new journal, the id tells them apart."""
    session = journal.meta("room_session")
    if not isinstance(session, str):
        session = uuid.uuid4().hex[:12]
        journal.set_meta("room_session", session)
    return str(session)


class TableCounts:
    """Hands, misdeals and irregularities of the session, and hands per hour (session time)."""

    def __init__(self) -> None:
        self.hands = 0
        self.misdeals = 0
        self.irregularities = 0
        self.recent: collections.deque[float] = collections.deque()  # end times of hands in the last hour

    def hand_ended(self, record: HandRecord) -> None:
        self.hands += 1
        self.recent.append(record.t)

    def per_hour(self, now: float, start: float) -> float:
        while self.recent and self.recent[0] < now - HOUR_S:
            self.recent.popleft()
        window = min(HOUR_S, max(now - start, 1.0))
        return round(len(self.recent) * HOUR_S / window, 1)

    def to_json(self, now: float, start: float) -> dict[str, Any]:
        return {"hands": self.hands, "misdeals": self.misdeals, "irregularities": self.irregularities,
                "hands_per_hour": self.per_hour(now, start)}


class RoomPublisher:
    """A daemon component: `start()` and `stop()` from the main thread, the work on its own thread."""

    name = "room publisher"

    def __init__(self, config: RoomConfig, *, journal_path: Path, session: str, profiles: Any, base_dir: Path,
                 faults: Any = None, client_factory: Callable[[], Any] | None = None,
                 names: Mapping[int, str] | None = None,
                 level_at: Callable[[float], tuple[int, float | None]] | None = None,
                 jackpots: Sequence[Any] = ()) -> None:
        self.config = config
        # The house's jackpots (`[jackpots]`, firmware_py/jackpots.py): a hand that qualifies is told to the floor and
        # the director on the table's `jackpot` topic, ruled by our own core from the journal as the extension rules it
        self.jackpots = tuple(jackpots)
        self._hand_seq = 0  # the journal event of the current hand's new_hand press (names the evidence packet)
        self.names = dict(names or {})  # the players' names by seat, for the hands' PHH
        self._file_names = dict(self.names)  # the table file's ([display.seat_names])
        self._renamed: dict[int, str] | None = None  # a tournament's names, from the next seating line on
        self.journal_path = journal_path
        self.session = session
        self.base_dir = base_dir
        self.faults = faults
        self.hands = HandCutter(TableCore(profiles))  # our own core, fed from the journal
        self.replays = ReplayBook(self.hands.core, keep=4)  # each hand as the journal has it, for the floor's replay
        self.counts = TableCounts()
        self.marker = Marker(journal_path.with_name(journal_path.name + ".room.json"), session)
        self.cursor = 0  # the last journal seq fed to our core
        self.idx = 0  # archive messages (rulings and hands) of the session so far, published or not
        self.archived = 0  # the collector's last confirmation (idx)
        self._pending: collections.OrderedDict[int, Outgoing] = collections.OrderedDict()  # idx -> not archived
        self._sent_at: dict[int, float] = {}  # idx -> when last sent (monotonic)
        self._confirmations: collections.deque[ArchivedMessage] = collections.deque()  # from paho's thread
        self._gap = False
        self._resend = False
        self._ever_connected = False
        self.start_t: float | None = None
        self._client_factory = client_factory
        self._client: Any = None
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._acked: collections.deque[int] = collections.deque()  # mids, appended by paho's thread
        self._unacked: collections.OrderedDict[int, int] = collections.OrderedDict()  # mid -> seq
        self._held: collections.deque[tuple[float, Outgoing]] = collections.deque()  # broadcast, held back
        self._last_broadcast: tuple[Any, ...] | None = None
        self.feed = FeedBuilder(room=config.room, table=config.table, session=session, names=names, level_at=level_at)
        self._fault_version = -1
        self.tournament: Any = None  # the TournamentTable of a table in a tournament: its notice goes in the state
        self._told = 0  # its notice version last sent
        self._next_heartbeat = 0.0
        self._db: sqlite3.Connection | None = None
        self._ruled_wall: float | None = None
        self._stamp = 0.0
        self._saved_at = 0.0
        self._refused = ""
        self.ready = threading.Event()  # set once our core has caught up with the marker
        self._reader = SessionReader(source=str(journal_path), base_dir=base_dir)
        self.published = 0  # messages handed to paho (for tests and the benchmark)
        self.resent = 0  # archive messages sent again after an outage
        self.refused = 0

    # -- the component ---------------------------------------------------------------------------

    def connect_first(self, timeout: float) -> None:
        """Connect before the table starts (the daemon's `run` calls it), so that a mistake shows at once:
        raises BrokerRefused for the broker's certificate (name or CA) or a refused user or password,
        which no retry mends, and BrokerUnreachable when nothing answers within `timeout`; the table
        then starts anyway and paho keeps trying (the journal keeps the events)."""
        from firmware_py.errors import BrokerUnreachable  # noqa: PLC0415
        from firmware_py.room.mqtt import connect_first  # noqa: PLC0415

        self._client = self._make_client(connect=False)
        try:
            connect_first(self._client, self.config.broker, answered=self._connected, refused=lambda: self._refused,
                          deadline=time.monotonic() + timeout)
        except BrokerUnreachable:
            self._client.connect_async(self.config.broker.host, self.config.broker.port, keepalive=KEEPALIVE_S)
            raise

    def start(self) -> None:
        self._db = sqlite3.connect(f"file:{self.journal_path}?mode=ro", uri=True, check_same_thread=False)
        if self._client is None:
            self._client = self._make_client()
        self._thread = threading.Thread(target=self._run, name="room-publisher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(STOP_FLUSH_S + 3.0)
        if self._db is not None:
            self._db.close()

    def wake(self, _snapshot: object = None) -> None:
        """The daemon's on_snapshot callback: there may be new events in the journal. Never blocks."""
        if self._ruled_wall is None:
            self._ruled_wall = time.time()  # when the daemon had journaled and ruled: the rulings' `wall`
        self._wake.set()

    # -- the broker ------------------------------------------------------------------------------

    def _make_client(self, *, connect: bool = True) -> Any:
        from firmware_py.room.mqtt import make_client  # noqa: PLC0415

        cfg = self.config
        # The client id starts with the broker user (the room's broker binds ids to users: docs/room.md).
        client = (self._client_factory() if self._client_factory
                  else make_client(cfg.broker, client_id=f"{cfg.broker.username or cfg.table}.{cfg.room}"))
        offline = envelope(cfg.room, cfg.table, 0, session=self.session, online=False, reason="connection lost")
        client.will_set(topic(cfg.room, cfg.table, "status"), encode("status", offline), qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        if connect:
            client.connect_async(cfg.broker.host, cfg.broker.port, keepalive=KEEPALIVE_S)
        return client

    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if reason.is_failure:
            if str(reason) != self._refused:  # paho retries every 2 s: say it once, not every time
                logger.error("room: the broker %s:%d refused the table: %s", self.config.broker.host,
                             self.config.broker.port, reason)
            self._refused = str(reason)
            return
        self._refused = ""
        logger.info("room: connected to %s:%d as %s/%s", self.config.broker.host, self.config.broker.port,
                    self.config.room, self.config.table)
        client.subscribe(topic(self.config.room, self.config.table, "archived"), qos=1)
        # After an outage the broker may have lost what it acknowledged (a crash before its autosave):
        # everything not yet archived goes out again, before anything new.
        self._resend = self._ever_connected
        self._ever_connected = True
        self._connected.set()
        self._next_heartbeat = 0.0
        self._fault_version = -1  # the state goes out again on every connection
        self._wake.set()

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        """The collector's `archived` confirmation (retained: also on every connection)."""
        try:
            confirmation = decode(message.topic, message.payload)
        except BadMessage as exc:
            logger.warning("room: %s: a bad confirmation, ignored: %s", message.topic, exc)
            return
        if isinstance(confirmation, ArchivedMessage) and confirmation.session == self.session:
            self._confirmations.append(confirmation)  # paho's thread: only a deque append here
            self._wake.set()

    def _on_disconnect(self, _client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if self._connected.is_set() and not self._stopping.is_set():
            logger.warning("room: lost the broker (%s); the journal keeps the events until it is back", reason)
        self._connected.clear()

    def _on_publish(self, _client: Any, _userdata: Any, mid: int, reason: Any, _properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            self.refused += 1
            logger.error("room: the broker refused message %d: %s (check the ACL for table %s)", mid, reason,
                         self.config.table)
        self._acked.append(mid)  # paho's thread: only a deque append here
        self._wake.set()

    # -- the thread -------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._catch_up_core()  # here, not in start(): a long journal must not hold up the table
            self.ready.set()
            self._client.loop_start()
            while not self._stopping.is_set():
                self._wake.wait(timeout=0.5)
                self._wake.clear()
                self._work()
            self._flush()
        except Exception:  # the table goes on without the room; say so
            logger.exception("room: the publisher failed")
            if self.faults is not None:
                self.faults.raise_fault("room", "the room publisher stopped (see the log)")
        finally:
            try:
                self._client.disconnect()
                self._client.loop_stop()
            except Exception:
                logger.debug("room: disconnect failed", exc_info=True)
            self.marker.save()

    def _work(self) -> None:
        self._take_acks()
        if self._connected.is_set():
            now = time.monotonic()
            if now >= self._next_heartbeat:
                self._heartbeat(now)
            if self._resend or self._gap:
                self._resend_pending()
            self._pump()
            self._release_held(now)
        if time.monotonic() - self._saved_at >= MARKER_SAVE_S:
            self.marker.save()
            self._saved_at = time.monotonic()

    def _flush(self) -> None:
        """On stop: publish what the journal still holds, wait for the acks, then say offline."""
        deadline = time.monotonic() + STOP_FLUSH_S
        if not self._refused:  # a short session may stop before the first connection is up: give it the flush time
            self._connected.wait(timeout=STOP_FLUSH_S)
        if self._connected.is_set() and self._fault_version == -1:
            self._heartbeat(time.monotonic())  # connected only now: say online (and the state) before the rest
        while self._connected.is_set() and time.monotonic() < deadline:
            self._take_acks()
            more = self._pump()
            self._release_held(time.monotonic())  # never early: what is not due when we stop is dropped
            if not more and not self._unacked:
                break
            self._wake.wait(timeout=0.05)
            self._wake.clear()
        self._take_acks()
        if self._held:
            logger.info("room: %d broadcast messages still held back at stop are not published", len(self._held))
            self._held.clear()
        if self._connected.is_set():
            cfg = self.config
            info = self._client.publish(topic(cfg.room, cfg.table, "status"), encode("status", envelope(
                cfg.room, cfg.table, self.cursor, session=self.session, online=False, reason="stopped")),
                qos=1, retain=True)
            info.wait_for_publish(timeout=1.0)

    def _send(self, message: Outgoing) -> None:
        if len(message.payload) > MAX_MESSAGE_BYTES:  # the broker would refuse it, and paho then loops on it
            self.refused += 1
            logger.error("room: a %d-byte message for %s is over the room's limit (%d) and is not sent",
                         len(message.payload), message.topic, MAX_MESSAGE_BYTES)
            return
        info = self._client.publish(message.topic, message.payload, qos=message.qos, retain=message.retain)
        self.published += 1
        if message.seq:
            self._unacked[info.mid] = message.seq
        if message.idx:
            self._pending[message.idx] = message
            self._sent_at[message.idx] = time.monotonic()

    def _resend_pending(self) -> None:
        if self._pending:
            logger.info("room: sending again %d rulings and hands the archive has not confirmed%s",
                        len(self._pending), " (it has a gap)" if self._gap and not self._resend else "")
        self._resend = self._gap = False
        for message in list(self._pending.values()):
            self._send(message)
        self.resent += len(self._pending)

    def _take_acks(self) -> None:
        while self._acked:  # the broker's PUBACKs: only the flow control (MAX_UNACKED)
            self._unacked.pop(self._acked.popleft(), None)
        while self._confirmations:
            idx = self._confirmations.popleft().idx
            if idx <= self.archived and self._pending:
                oldest = next(iter(self._pending))
                self._gap = self._gap or time.monotonic() - self._sent_at.get(oldest, 0.0) > GAP_S
            self.archived = max(self.archived, idx)
        while self._pending and next(iter(self._pending)) <= self.archived:
            self._sent_at.pop(self._pending.popitem(last=False)[0], None)
        # Archive messages go out in seq order: every seq before the oldest unconfirmed one is archived.
        done = (next(iter(self._pending.values())).seq - 1) if self._pending else self.cursor
        self.marker.seq = max(self.marker.seq, min(done, self.cursor))

    def _heartbeat(self, now: float) -> None:
        cfg = self.config
        self._next_heartbeat = now + cfg.heartbeat_s
        if self._fault_version == -1:
            online = envelope(cfg.room, cfg.table, self.cursor, session=self.session, online=True,
                              dealer=cfg.dealer, heartbeat_s=cfg.heartbeat_s)
            self._send(Outgoing(topic(cfg.room, cfg.table, "status"), encode("status", online), 1, True, 0))
        beat = envelope(cfg.room, cfg.table, self.cursor, session=self.session, wall=round(time.time(), 3),
                        acked=self.marker.seq)
        self._send(Outgoing(topic(cfg.room, cfg.table, "heartbeat"), encode("heartbeat", beat), 0, False, 0))

    # -- the journal --------------------------------------------------------------------------------

    def _rows(self, after: int, limit: int) -> list[tuple[int, str]]:
        assert self._db is not None
        return self._db.execute("SELECT seq, line FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                                (after, limit)).fetchall()

    def _catch_up_core(self) -> None:
        """Feed our core the events already published (no messages), so we go on from the marker."""
        target = self.marker.seq
        while self.cursor < target:
            rows = self._rows(self.cursor, 5000)
            if not rows:
                break
            for seq, line in rows:
                if seq > target:
                    return
                self._apply(seq, line, publish=False)

    def _pump(self) -> bool:
        """Publish the events the journal has beyond the cursor; True if there may be more."""
        if len(self._unacked) >= MAX_UNACKED:
            return True
        self._stamp, self._ruled_wall = self._ruled_wall or time.time(), None
        rows = self._rows(self.cursor, ROWS_PER_PASS)
        faults = self.faults.current() if self.faults is not None else ()
        fault_version = self.faults.version if self.faults is not None else 0
        tournament = self.tournament
        told = tournament.notice_version if tournament is not None else 0
        if not rows and fault_version == self._fault_version and told == self._told:
            return False
        self._told = told
        for seq, line in rows:
            self._apply(seq, line, publish=True)
        self._fault_version = fault_version
        self._send_state(faults)
        return len(rows) == ROWS_PER_PASS

    def rename(self, names: Mapping[int, str]) -> None:
        """A tournament's players by seat, as the director has the field (from any thread). They name the seats in
        the broadcast feed and the hands' PHH from the next journal line that seats players or deals a hand: the
        director moves players only between hands, and this thread may still be sending the hand before."""
        self._renamed = {**self._file_names, **names}

    def _apply(self, seq: int, line: str, *, publish: bool) -> None:
        self.cursor = seq
        try:
            event = self._reader.parse_line(line, seq)
        except Exception as exc:
            logger.error("room: journal event #%d cannot be read: %s", seq, exc)
            return
        if event is None:
            return
        if isinstance(event, Button) and event.name is ButtonName.NEW_HAND:
            self._hand_seq = seq
        renamed = self._renamed
        if renamed is not None and (isinstance(event, Setup | Seat | Stacks)
                                    or (isinstance(event, Button) and event.name is ButtonName.NEW_HAND)):
            self._renamed = None
            self.names = renamed
            self.feed.names = dict(renamed)
        try:
            step = self.hands.feed(event)
        except ValueError:
            return  # refused live too
        self.replays.observe(JournalEntry(seq, event, line), step.before, step.after, step.outcome)
        if self.start_t is None:
            self.start_t = event.t
        self._count_and_publish(seq, step, publish=publish)

    def _count_and_publish(self, seq: int, step: Step, *, publish: bool) -> None:
        cfg, outcome, after = self.config, step.outcome, step.after
        for n, ruling in enumerate(outcome.rulings):
            self.idx += 1  # counted while catching up too: the same numbers every time
            if ruling.ruling in MISDEALS:
                self.counts.misdeals += 1
            if is_irregularity(ruling):
                self.counts.irregularities += 1
            if publish:
                body = envelope(cfg.room, cfg.table, seq, session=self.session, n=n, idx=self.idx,
                                dealer=cfg.dealer, hand=after.hand_number, wall=round(self._stamp, 4),
                                ruling=ruling_json(ruling))
                self._send_checked("ruling", body, seq)
                if self.jackpots and ruling.ruling is RulingKind.SHOWDOWN:
                    self._send_jackpots(seq, ruling, after)
        for record in step.ended:  # the event at `seq` ended it
            self.idx += 1
            if record.played:
                self.counts.hand_ended(record)
            if publish:
                self._send_hand(record, seq)
        if not (publish and cfg.broadcast):
            self.feed.observe(after)  # who has acted, for the reveal policy, even while catching up
            return
        picture = self.feed.build(after, seq=seq, held_s=cfg.broadcast_hold_s)
        key = picture_key(picture)
        if key != self._last_broadcast:
            self._last_broadcast = key
            message = Outgoing(topic(cfg.room, cfg.table, "broadcast"), self._payload("broadcast", picture), 1,
                               False, 0)
            self._held.append((time.monotonic() + cfg.broadcast_hold_s, message))

    def _send_jackpots(self, seq: int, showdown: Any, after: Any) -> None:
        """Each jackpot the hand qualifies for (as the `[jackpots]` extension rules it at the table), on the
        table's `jackpot` topic: the floor's tile and the director's page say so as the hand ends."""
        from firmware_py.jackpots import packet_name, qualify, room_message  # noqa: PLC0415

        cfg = self.config
        for n, qualified in enumerate(qualify(self.jackpots, after, showdown)):
            packet = packet_name(qualified, hand=after.hand_number, first_seq=self._hand_seq or seq)
            body = envelope(cfg.room, cfg.table, seq, session=self.session, dealer=cfg.dealer,
                            wall=round(self._stamp, 4),
                            **room_message(qualified, n=n, hand=after.hand_number, packet=packet))
            self._send(Outgoing(topic(cfg.room, cfg.table, "jackpot"), self._payload("jackpot", body), 1, False, seq))

    def _send_hand(self, record: HandRecord, seq: int) -> None:
        cfg = self.config
        phh, problem = None, None
        if record.played:
            try:
                phh = hand_history(record, table=cfg.table, names=self.names).dumps()
            except (ValueError, KeyError) as exc:
                problem = str(exc)
        body = envelope(cfg.room, cfg.table, seq, session=self.session, idx=self.idx, hand=record.number,
                        t=record.t, dealer=cfg.dealer, played=record.played, rulings=record.rulings, phh=phh,
                        phh_problem=problem)
        replay = next((h for h in reversed(self.replays.hands) if h.hand == record.number and h.finished), None)
        if replay is not None:  # within the room's message size, with the PHH beside it
            budget = MAX_MESSAGE_BYTES - len(msgspec.json.encode(body)) - REPLAY_MARGIN_BYTES
            fitted = msgspec.to_builtins(trimmed(replay, budget))
            try:
                msgspec.convert(fitted, HandReplay)  # its schema's bounds (a name the schema refuses, say)
            except msgspec.ValidationError as exc:  # the hand goes without it, never into the quarantine for it
                logger.error("room: hand %d's replay breaks its schema, sent without it: %s", record.number, exc)
            else:
                body["replay"] = fitted
        self._send_checked("hand", body, seq)

    def _payload(self, kind: str, body: dict[str, Any] | BroadcastFeed) -> bytes:
        """The message through its schema; one the schema refuses (a bug of ours) still goes out as it is,
        so the consumers quarantine it where it can be seen, rather than the table dropping it."""
        try:
            return encode(kind, body)
        except BadMessage as exc:
            seq = body.get("seq") if isinstance(body, dict) else body.seq
            logger.error("room: the table's own %s message at seq %s breaks the schema: %s", kind, seq, exc)
            return msgspec.json.encode(body)

    def _send_checked(self, kind: str, body: dict[str, Any], seq: int) -> None:
        cfg = self.config
        self._send(Outgoing(topic(cfg.room, cfg.table, kind), self._payload(kind, body), 1, False, seq,
                            idx=int(body["idx"])))

    def _send_state(self, faults: Any) -> None:
        cfg = self.config
        snapshot = self.hands.core.snapshot()
        table_faults = [{"component": f.component, "message": f.message} for f in faults]
        reader_faults = [f for f in faults if f.component != "room"]
        body = envelope(cfg.room, cfg.table, self.cursor, session=self.session, dealer=cfg.dealer,
                        status=status_of(snapshot, reader_faults), faults=table_faults,
                        counts=self.counts.to_json(snapshot.t, self.start_t or 0.0), **venue_state(snapshot))
        if self.tournament is not None:  # what the director tells the table, as its venue screen shows it
            body["tournament"] = self.tournament.notice.to_json()
        self._send(Outgoing(topic(cfg.room, cfg.table, "state"), self._payload("state", body), 1, True, self.cursor))

    def _release_held(self, now: float) -> None:
        while self._held and self._held[0][0] <= now:
            self._send(self._held.popleft()[1])


def attach_publisher(port: TablePort, room: RoomConfig) -> RoomPublisher:
    """Publish this table's journal to the room (`[room]` in its table file), attached through the table's port;
    a table in a tournament gets its table side too (`firmware_py.room.tournament_table.attach_tournament_table`)."""
    config = port.config
    schedule = config.schedule

    def level_at(t: float) -> tuple[int, float | None]:
        assert schedule is not None  # given to the publisher only with a schedule (below)
        now = schedule.level_at(t)
        return now.number, now.seconds_left

    journal = port.journal
    publisher = RoomPublisher(room, journal_path=Path(journal.path), session=journal_session(journal),
                              profiles=config.profiles, base_dir=config.hardware_file.parent, faults=port.faults,
                              names=config.seat_names, level_at=level_at if schedule is not None else None,
                              jackpots=_jackpots(config))
    port.on_snapshot(publisher.wake)
    port.add_component(publisher)
    if room.tournament:
        from firmware_py.room.tournament_table import attach_tournament_table  # noqa: PLC0415

        # the dealer bot carries no player cards: a simulated tournament table takes no draw to check them against
        attach_tournament_table(port, room, publisher,
                                checks_in="checkin" in config.extensions and not port.simulated)
    return publisher


def _jackpots(config: Any) -> tuple[Any, ...]:
    """The house's jackpots when the table file has `[jackpots]` too (else none: nothing to tell the room)."""
    jackpots = getattr(config, "extensions", {}).get("jackpots")
    return tuple(jackpots.jackpots) if jackpots is not None else ()


EXTENSION = Extension(name="room publisher", section="room",
                      parse=lambda raw, where: parse_room(where.source, raw, base_dir=where.base_dir),
                      setup=attach_publisher)
