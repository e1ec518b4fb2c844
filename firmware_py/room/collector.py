"""The collector: every ruling and every finished hand (PHH) of the room, into PostgreSQL or SQLite.

Idempotent: a ruling is keyed by (room, table, session, seq, n) and a hand by (room, table,
session, seq), and a message already stored is counted as a duplicate and dropped. Nothing is
lost either: the collector keeps a persistent MQTT session (the broker holds QoS 1 messages
while it is away) and acknowledges a message to the broker only after the database committed it
(paho's manual acknowledgement), so a crash between the two means a redelivery, never a gap.

Every message is checked against the room's schema (`messages.decode`) first. One that fails, or
that the database refuses, goes to the `dead_letters` table (its topic, its bytes and why) in the
same transaction as the good ones around it, and the collector goes on: nothing stops the archive.
The quarantine is bounded per table (issue 34: one table's password filled 805 MB in a minute): at most
DEAD_LETTER_ROWS rows and DEAD_LETTER_BYTES bytes per table id, a message already there (same topic and
bytes) kept once; what is not kept is counted per table in `dead_letter_drops` (rows, bytes, repeats, the
last reason), so the operator sees the flood without the disk holding it.
After each commit the collector publishes, retained, on each table's `archived` topic how far the
archive has that table's session without a gap (`idx`: rulings and hands are numbered 1, 2, ... by
the table); the table keeps and resends what is not yet confirmed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import msgspec

from firmware_py.daemon.journal import PRIVATE_FILE, make_private
from firmware_py.errors import ConfigError
from firmware_py.room.messages import (
    ArchivedMessage,
    BadMessage,
    HandMessage,
    RulingMessage,
    archive_key,
    decode,
    parse_topic,
    topic,
)

logger = logging.getLogger("firmware_py.room.collector")

BATCH_MAX = 500
# The quarantine's bounds per table id (the ACL lets a table's password publish under its own id only, so one
# password fills one table's share): 1,000 rows is more than a table's bug produces in a session (each one a
# message to look at by hand), and 16 MB holds them at the room's usual few kB (a 256 kB message is the most the
# broker passes: 64 of those). Beyond either, messages are counted in dead_letter_drops, not kept.
DEAD_LETTER_ROWS = 1000
DEAD_LETTER_BYTES = 16 * 1024 * 1024
SCHEMA_LOCK_S = 5.0  # the longest a start-up schema change waits for a lock another connection holds
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS rulings (
        room TEXT NOT NULL, table_id TEXT NOT NULL, session TEXT NOT NULL, seq BIGINT NOT NULL, n INTEGER NOT NULL,
        dealer TEXT NOT NULL, hand INTEGER, t DOUBLE PRECISION, kind TEXT NOT NULL, rule TEXT NOT NULL,
        remedy TEXT NOT NULL, body TEXT NOT NULL,
        PRIMARY KEY (room, table_id, session, seq, n))""",
    """CREATE TABLE IF NOT EXISTS hands (
        room TEXT NOT NULL, table_id TEXT NOT NULL, session TEXT NOT NULL, seq BIGINT NOT NULL,
        hand INTEGER NOT NULL, t DOUBLE PRECISION, dealer TEXT NOT NULL, played BOOLEAN NOT NULL, phh TEXT,
        rulings TEXT NOT NULL, phh_problem TEXT,
        PRIMARY KEY (room, table_id, session, seq))""",
    # The quarantine: what failed the schema or the database, as it came. room .. idx when still legible.
    """CREATE TABLE IF NOT EXISTS dead_letters (
        received DOUBLE PRECISION NOT NULL, topic TEXT NOT NULL, payload {blob} NOT NULL, reason TEXT NOT NULL,
        room TEXT, table_id TEXT, session TEXT, seq BIGINT, idx BIGINT)""",
    "CREATE INDEX IF NOT EXISTS dead_letters_key ON dead_letters (room, table_id, session, seq)",
    # What the quarantine did not keep, per table id ('' when the topic names none): over its bounds, or repeats.
    """CREATE TABLE IF NOT EXISTS dead_letter_drops (
        table_id TEXT NOT NULL PRIMARY KEY, dropped BIGINT NOT NULL, dropped_bytes BIGINT NOT NULL,
        repeats BIGINT NOT NULL, last_reason TEXT NOT NULL, last_at DOUBLE PRECISION NOT NULL)""",
)
# Columns added since the first schema: a database made before gets them at start (table, column, type).
ADDED_COLUMNS = (("hands", "phh_problem", "TEXT"),  # why a played hand has no PHH (the table's reason)
                 # the archive's count per table session (the table numbers its rulings and hands 1, 2, ...)
                 ("rulings", "idx", "BIGINT"), ("hands", "idx", "BIGINT"),
                 ("dead_letters", "digest", "TEXT"),  # the quarantine keeps a message once (issue 34)
                 # the hand as the table's journal holds it (JSON, hand_replay.HandReplay), for the floor's replay,
                 # and when the collector stored it (the floor's list of the room's hands, newest first)
                 ("hands", "replay", "TEXT"), ("hands", "received", "DOUBLE PRECISION"))
RULING_COLUMNS = ("room", "table_id", "session", "seq", "n", "dealer", "hand", "t", "kind", "rule", "remedy", "body",
                  "idx")
HAND_COLUMNS = ("room", "table_id", "session", "seq", "hand", "t", "dealer", "played", "phh", "rulings",
                "phh_problem", "idx", "replay", "received")
DEAD_COLUMNS = ("received", "topic", "payload", "reason", "room", "table_id", "session", "seq", "idx", "digest")
DROPS_UPSERT = ("INSERT INTO dead_letter_drops (table_id, dropped, dropped_bytes, repeats, last_reason, last_at) "
                "VALUES ({p}, {p}, {p}, {p}, {p}, {p}) ON CONFLICT (table_id) DO UPDATE SET "
                "dropped = dead_letter_drops.dropped + excluded.dropped, "
                "dropped_bytes = dead_letter_drops.dropped_bytes + excluded.dropped_bytes, "
                "repeats = dead_letter_drops.repeats + excluded.repeats, last_reason = excluded.last_reason, "
                "last_at = excluded.last_at")
DEAD_USAGE = ("SELECT count(*), coalesce(sum({length}(payload) + length(topic) + length(reason)), 0) FROM dead_letters "
              "WHERE coalesce(table_id, '') = {p}")
DEAD_DIGESTS = "SELECT digest FROM dead_letters WHERE coalesce(table_id, '') = {p} AND digest IS NOT NULL"
ARCHIVED_AFTER = " UNION ".join(
    f"SELECT idx, seq FROM {table} WHERE room = {{p}} AND table_id = {{p}} AND session = {{p}} AND seq >= {{p}} "
    f"AND idx > {{p}}" for table in ("rulings", "hands", "dead_letters")) + " ORDER BY 1 LIMIT 10000"
ArchiveHead = tuple[int, int]  # (idx, seq): every archive message of the session up to idx is stored


class Store(Protocol):
    def write(self, rulings: Sequence[tuple[Any, ...]], hands: Sequence[tuple[Any, ...]],
              dead: Sequence[tuple[Any, ...]] = ()) -> tuple[int, int]: ...

    def archived_after(self, room: str, table: str, session: str, head: ArchiveHead) -> list[tuple[int, int]]: ...

    def dead_usage(self, table: str) -> tuple[int, int, set[str]]: ...

    def record_drops(self, drops: Sequence[tuple[Any, ...]]) -> None: ...

    def close(self) -> None: ...


def insert_sql(table: str, columns: Sequence[str], mark: str, *, skip_existing: str) -> str:
    return (f"INSERT {skip_existing if skip_existing == 'OR IGNORE' else ''} INTO {table} ({', '.join(columns)}) "
            f"VALUES ({', '.join([mark] * len(columns))})"
            f"{' ON CONFLICT DO NOTHING' if skip_existing == 'ON CONFLICT' else ''}")


class SQLiteStore:
    """The embedded default: one SQLite file (WAL)."""

    def __init__(self, path: Path) -> None:
        if not path.parent.exists():
            path.parent.mkdir(parents=True, mode=0o700)  # a directory of our own: nobody else lists it
        # The archive holds every hole card: owner-only, made so before SQLite writes a byte. SQLite gives
        # the -wal and -shm files the main file's mode; they are set again in case they were left older.
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE))
        for suffix in ("", "-wal", "-shm"):
            make_private(path.with_name(path.name + suffix))
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        for statement in SCHEMA:
            self.db.execute(statement.format(blob="BLOB"))
        for table, column, kind in ADDED_COLUMNS:
            if column not in {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        self.db.commit()

    def write(self, rulings: Sequence[tuple[Any, ...]], hands: Sequence[tuple[Any, ...]],
              dead: Sequence[tuple[Any, ...]] = ()) -> tuple[int, int]:
        """Insert what is new; returns (rows inserted, duplicates dropped). One transaction."""
        before = self.db.total_changes
        with self.db:
            self.db.executemany(insert_sql("rulings", RULING_COLUMNS, "?", skip_existing="OR IGNORE"), rulings)
            self.db.executemany(insert_sql("hands", HAND_COLUMNS, "?", skip_existing="OR IGNORE"), hands)
            self.db.executemany(insert_sql("dead_letters", DEAD_COLUMNS, "?", skip_existing=""), dead)
        inserted = self.db.total_changes - before - len(dead)
        return inserted, len(rulings) + len(hands) - inserted

    def archived_after(self, room: str, table: str, session: str, head: ArchiveHead) -> list[tuple[int, int]]:
        idx, seq = head
        return self.db.execute(ARCHIVED_AFTER.format(p="?"), (room, table, session, seq, idx) * 3).fetchall()

    def dead_usage(self, table: str) -> tuple[int, int, set[str]]:
        """The quarantine's rows and bytes of table id `table` ('' for none), and its messages' digests."""
        rows, size = self.db.execute(DEAD_USAGE.format(p="?", length="length"), (table,)).fetchone()
        return int(rows), int(size), {row[0] for row in self.db.execute(DEAD_DIGESTS.format(p="?"), (table,))}

    def record_drops(self, drops: Sequence[tuple[Any, ...]]) -> None:
        with self.db:
            self.db.executemany(DROPS_UPSERT.format(p="?"), drops)

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        return self.db.execute(sql).fetchall()

    def close(self) -> None:
        self.db.close()


class PostgresStore:
    """PostgreSQL through psycopg 3: ON CONFLICT DO NOTHING on the primary keys."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg  # noqa: PLC0415
        except ImportError:
            raise ConfigError("PostgreSQL needs psycopg: pip install 'pokertable[collector]'") from None
        try:
            self.db = psycopg.connect(url)
        except psycopg.Error as exc:
            raise ConfigError(f"cannot connect to the database {redact(url)}: {exc}".strip()) from None
        try:
            self._migrate()
        except psycopg.errors.LockNotAvailable:
            self.db.rollback()
            raise ConfigError(f"the database {redact(url)}: the collector's schema change waited "
                              f"{SCHEMA_LOCK_S:g} s for a table another connection holds ({self._holders()}): end "
                              "that session (or its transaction), then start the collector again") from None

    def _migrate(self) -> None:
        """The tables, and the columns added since a database was made. A schema change never waits behind a
        reader: only a missing column is added (ALTER TABLE takes the table's exclusive lock even when the
        column is there), and no lock is waited for longer than SCHEMA_LOCK_S."""
        with self.db.transaction():
            self.db.execute(f"SET LOCAL lock_timeout = '{SCHEMA_LOCK_S:g}s'")
            for statement in SCHEMA:
                self.db.execute(statement.format(blob="BYTEA"))
            have = {(str(table), str(column)) for table, column in self.db.execute(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()")}
            for table, column, kind in ADDED_COLUMNS:
                if (table, column) not in have:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")

    def _holders(self) -> str:
        """The other sessions on the collector's tables, as pg_stat_activity names them (for the message)."""
        try:
            with self.db.transaction():
                rows = self.db.execute(
                    "SELECT a.pid, a.usename, a.application_name, a.state FROM pg_locks l "
                    "JOIN pg_stat_activity a ON a.pid = l.pid JOIN pg_class c ON c.oid = l.relation "
                    "WHERE l.granted AND a.pid <> pg_backend_pid() AND c.relname IN ('rulings', 'hands', "
                    "'dead_letters') GROUP BY a.pid, a.usename, a.application_name, a.state ORDER BY a.pid").fetchall()
        except Exception as exc:  # only the message's detail: the refusal is the error
            return f"pg_stat_activity not readable: {exc}"
        return "; ".join(f"pid {pid} user {user}" + (f" ({app})" if app else "") + f", {state}"
                         for pid, user, app, state in rows) or "it has let go since"

    def write(self, rulings: Sequence[tuple[Any, ...]], hands: Sequence[tuple[Any, ...]],
              dead: Sequence[tuple[Any, ...]] = ()) -> tuple[int, int]:
        inserted = 0
        with self.db.transaction(), self.db.cursor() as cursor:
            for table, columns, rows in (("rulings", RULING_COLUMNS, rulings), ("hands", HAND_COLUMNS, hands)):
                statement = insert_sql(table, columns, "%s", skip_existing="ON CONFLICT")
                for row in rows:  # executemany's rowcount is not per row in every psycopg version
                    cursor.execute(statement, row)
                    inserted += max(cursor.rowcount, 0)
            if dead:
                cursor.executemany(insert_sql("dead_letters", DEAD_COLUMNS, "%s", skip_existing=""), dead)
        return inserted, len(rulings) + len(hands) - inserted

    def archived_after(self, room: str, table: str, session: str, head: ArchiveHead) -> list[tuple[int, int]]:
        idx, seq = head
        with self.db.transaction(), self.db.cursor() as cursor:
            cursor.execute(ARCHIVED_AFTER.format(p="%s"), (room, table, session, seq, idx) * 3)
            return [(int(i), int(s)) for i, s in cursor.fetchall()]

    def dead_usage(self, table: str) -> tuple[int, int, set[str]]:
        with self.db.transaction(), self.db.cursor() as cursor:
            cursor.execute(DEAD_USAGE.format(p="%s", length="octet_length"), (table,))
            rows, size = cursor.fetchone() or (0, 0)
            cursor.execute(DEAD_DIGESTS.format(p="%s"), (table,))
            return int(rows), int(size), {row[0] for row in cursor.fetchall()}

    def record_drops(self, drops: Sequence[tuple[Any, ...]]) -> None:
        with self.db.transaction(), self.db.cursor() as cursor:
            cursor.executemany(DROPS_UPSERT.format(p="%s"), drops)

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        """A report's query, in a transaction of its own that ends with it: a connection left idle in a
        transaction holds its tables' locks, and a collector's schema change would wait behind it."""
        with self.db.transaction(), self.db.cursor() as cursor:
            cursor.execute(sql)
            return list(cursor.fetchall())

    def close(self) -> None:
        self.db.close()


def redact(url: str) -> str:
    """The database URL without its password, for messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}" if ":" in credentials else url
    return url


def open_store(target: str) -> SQLiteStore | PostgresStore:
    """`postgresql://...` (or `postgres://`), `sqlite:///path`, or a plain path to a SQLite file."""
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresStore(target)
    path = Path(target.removeprefix("sqlite:///") if target.startswith("sqlite:///") else target)
    try:
        return SQLiteStore(path)
    except (sqlite3.Error, OSError) as exc:
        raise ConfigError(f"{path}: cannot open the collector's database ({exc})") from None


def ruling_row(message: RulingMessage) -> tuple[Any, ...]:
    ruling = message.ruling
    return (message.room, message.table, message.session, message.seq, message.n, message.dealer, message.hand,
            ruling.t, str(ruling.ruling), ruling.rule, ruling.remedy,
            msgspec.json.encode(message, order="sorted").decode(), message.idx)


def hand_row(message: HandMessage) -> tuple[Any, ...]:
    replay = msgspec.json.encode(message.replay).decode() if message.replay is not None else None
    return (message.room, message.table, message.session, message.seq, message.hand, message.t, message.dealer,
            message.played, message.phh, json.dumps(message.rulings), message.phh_problem, message.idx, replay,
            time.time())


def dead_row(topic_name: str, payload: bytes, reason: str) -> tuple[Any, ...]:
    """A quarantined message, with its archive key when that much of it is sound (the count goes on)."""
    where = parse_topic(topic_name)
    key = archive_key(payload) if where is not None and where[2] in ("ruling", "hand") else None
    digest = hashlib.sha256(topic_name.encode(errors="replace") + b"\0" + bytes(payload)).hexdigest()[:32]
    return (time.time(), topic_name, bytes(payload), reason[:1000], where[0] if where else None,
            where[1] if where else None, key.session if key else None, key.seq if key else None,
            key.idx if key else None, digest)


@dataclass
class CollectorStats:
    received: int = 0
    inserted: int = 0
    duplicates: int = 0
    rejected: int = 0  # quarantined in dead_letters
    dead_dropped: int = 0  # not quarantined: the table's share of dead_letters was full (dead_letter_drops)
    dead_repeats: int = 0  # not quarantined again: the same topic and bytes are there already
    confirmed: int = 0  # `archived` confirmations published


@dataclass(frozen=True, slots=True)
class Row:
    """One message's row: `kind` is rulings, hands or dead_letters; `session_key` its (room, table, session)."""

    kind: str
    values: tuple[Any, ...]
    session_key: tuple[str, str, str] | None
    topic: str
    payload: bytes

    def quarantined(self, reason: str) -> Row:
        dead = dead_row(self.topic, self.payload, reason)
        return Row("dead_letters", dead, self.session_key, self.topic, self.payload)


class Collector:
    """Messages in from paho's thread (a queue), batches written and then acknowledged on our own thread;
    `publish(topic, payload)`, when given, sends the retained `archived` confirmations."""

    def __init__(self, store: Store, *, ack: Callable[[int], None] | None = None,
                 publish: Callable[[str, bytes], None] | None = None, name: str = "") -> None:
        self.store = store
        self.ack = ack
        self.publish = publish
        self.name = name  # who confirms (the client id), for the operators
        self.stats = CollectorStats()
        self.quota = (DEAD_LETTER_ROWS, DEAD_LETTER_BYTES)  # rows, bytes per table id
        self._dead: dict[str, list[Any]] = {}  # table id -> [rows, bytes, digests] of its quarantine
        self.heads: dict[tuple[str, str, str], ArchiveHead] = {}
        self._queue: queue.Queue[tuple[str, Any, int] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="room-collector", daemon=True)
        self.failed: str | None = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(30)

    def offer(self, topic_name: str, payload: bytes, _now: float = 0.0, mid: int = 0) -> None:
        """A message as it came from the broker (paho's thread): its topic and raw bytes."""
        self._queue.put((topic_name, payload, mid))

    def _run(self) -> None:
        done = False
        while not done:
            item = self._queue.get()
            batch = []
            while item is not None:
                batch.append(item)
                if len(batch) >= BATCH_MAX:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            done = item is None
            if batch:
                self._write(batch)

    def _write(self, batch: list[tuple[str, Any, int]]) -> None:
        rows = self._within_quota([self._row(topic_name, payload) for topic_name, payload, _mid in batch])
        self.stats.received += len(batch)
        inserted, duplicates, rejected = self._store(rows)
        self.stats.inserted += inserted
        self.stats.duplicates += duplicates
        self.stats.rejected += rejected
        if self.ack is not None:
            for _topic, _payload, mid in batch:
                if mid:
                    self.ack(mid)
        self._confirm({row.session_key for row in rows if row.session_key is not None})

    def _within_quota(self, rows: list[Row]) -> list[Row]:
        """The batch without the quarantined messages its table has no room for, or already has (counted, and
        recorded in dead_letter_drops). The archive's count (`archived`) does not pass a message not kept: the
        table keeps it and sends it again after its next outage."""
        kept: list[Row] = []
        drops: dict[str, list[Any]] = {}
        for row in rows:
            if row.kind != "dead_letters":
                kept.append(row)
                continue
            table = row.values[5] or ""
            usage = self._dead.get(table)
            if usage is None:
                try:
                    usage = self._dead[table] = list(self.store.dead_usage(table))
                except Exception as exc:  # the database is away: _store waits for it
                    logger.error("collector: reading the quarantine's size failed: %s", exc)
                    usage = [0, 0, set()]
            size = len(row.payload) + len(row.topic) + len(row.values[3])
            drop = drops.setdefault(table, [table, 0, 0, 0, "", 0.0])
            if row.values[-1] in usage[2]:
                drop[3] += 1
                drop[4] = f"a repeat of a quarantined message: {row.values[3]}"
                self.stats.dead_repeats += 1
            elif usage[0] + 1 > self.quota[0] or usage[1] + size > self.quota[1]:
                drop[1] += 1
                drop[2] += size
                drop[4] = f"over the quarantine's bounds ({self.quota[0]} rows, {self.quota[1]} bytes): {row.values[3]}"
                self.stats.dead_dropped += 1
            else:
                usage[0] += 1
                usage[1] += size
                usage[2].add(row.values[-1])
                kept.append(row)
                continue
            drop[5] = time.time()
        counted = [tuple(drop) for drop in drops.values() if drop[1] or drop[3]]
        if counted:
            for table, dropped, _size, repeats, _reason, _at in counted:
                logger.warning("collector: table %s: %d quarantined messages not kept (%d over the bounds, %d "
                               "repeats; %d and %d so far); counted in dead_letter_drops", table or "?",
                               dropped + repeats, dropped, repeats, self.stats.dead_dropped, self.stats.dead_repeats)
            try:
                self.store.record_drops(counted)
            except Exception as exc:
                logger.error("collector: recording the quarantine's drops failed: %s", exc)
        return kept

    def _row(self, topic_name: str, payload: Any) -> Row:
        if not isinstance(payload, bytes | bytearray | memoryview):
            payload = msgspec.json.encode(payload)  # a test's dict, checked exactly as bytes would be
        try:
            message = decode(topic_name, payload)
            if not isinstance(message, RulingMessage | HandMessage):
                raise BadMessage(f"the collector keeps rulings and hands, not {topic_name.rsplit('/', 1)[-1]}")
        except BadMessage as exc:
            logger.warning("collector: %s: %s; quarantined in dead_letters", topic_name[:200], exc)
            dead = dead_row(topic_name, payload, str(exc))
            key = (dead[4], dead[5], dead[6]) if dead[6] is not None else None
            return Row("dead_letters", dead, key, topic_name, bytes(payload))
        key = (message.room, message.table, message.session)
        if isinstance(message, RulingMessage):
            return Row("rulings", ruling_row(message), key, topic_name, bytes(payload))
        return Row("hands", hand_row(message), key, topic_name, bytes(payload))

    def _commit(self, rows: Sequence[Row]) -> tuple[int, int]:
        def of(kind: str) -> list[tuple[Any, ...]]:
            return [row.values for row in rows if row.kind == kind]

        return self.store.write(of("rulings"), of("hands"), of("dead_letters"))

    def _store(self, rows: list[Row]) -> tuple[int, int, int]:
        """Commit the batch: (inserted, duplicates, quarantined). A row the database refuses (the batch
        fails, the row alone fails) is quarantined with the database's reason; while the database is
        away (even the quarantine fails) the batch is kept, unacknowledged, and tried again."""
        while True:
            try:
                inserted, duplicates = self._commit(rows)
                self.failed = None
                return inserted, duplicates, sum(1 for row in rows if row.kind == "dead_letters")
            except Exception as exc:
                error = exc
            try:
                totals = [0, 0, 0]
                for row in rows:
                    try:
                        one = self._commit([row])
                        totals[0] += one[0]
                        totals[1] += one[1]
                        totals[2] += row.kind == "dead_letters"
                    except Exception as exc:
                        if row.kind == "dead_letters":
                            raise
                        logger.warning("collector: the database refused %s: %s; quarantined", row.topic, exc)
                        self._commit([row.quarantined(f"the database refused it: {exc}")])
                        totals[2] += 1
                self.failed = None
                return totals[0], totals[1], totals[2]
            except Exception as exc:  # the database is away: keep the batch (unacknowledged) and retry
                self.failed = str(exc)
                logger.error("collector: writing failed (%s; then %s); retrying in 2 s", error, exc)
                time.sleep(2.0)

    def _confirm(self, keys: Iterable[tuple[str, str, str]]) -> None:
        """Publish, per table session touched, how far the archive has it without a gap."""
        for key in keys:
            head = self.heads.get(key, (0, 0))
            try:
                for idx, seq in self.store.archived_after(*key, head):
                    if idx != head[0] + 1:
                        break  # a gap: the table sends it again after its next outage
                    head = (idx, seq)
            except Exception as exc:
                logger.error("collector: reading the archive's count failed: %s", exc)
                continue
            self.heads[key] = head
            if self.publish is None or head[0] == 0:
                continue
            room, table, session = key
            body = ArchivedMessage(v=1, room=room, table=table, session=session, seq=head[1],
                                   idx=head[0], by=self.name)
            try:
                self.publish(topic(room, table, "archived"), msgspec.json.encode(body))
                self.stats.confirmed += 1
            except Exception as exc:  # not connected: the next batch confirms again
                logger.warning("collector: could not confirm %s/%s: %s", room, table, exc)
