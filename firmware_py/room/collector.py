"""The collector: every ruling and every finished hand (PHH) of the room, into PostgreSQL or SQLite.

Idempotent: a ruling is keyed by (room, table, session, seq, n) and a hand by (room, table,
session, seq), and a message already stored is counted as a duplicate and dropped. Nothing is
lost either: the collector keeps a persistent MQTT session (the broker holds QoS 1 messages
while it is away) and acknowledges a message to the broker only after the database committed it
(paho's manual acknowledgement), so a crash between the two means a redelivery, never a gap.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from firmware_py.daemon.journal import PRIVATE_FILE, make_private
from firmware_py.errors import ConfigError
from firmware_py.room.messages import parse_topic

logger = logging.getLogger("firmware_py.room.collector")

BATCH_MAX = 500
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
)
# Columns added since the first schema: a database made before gets them at start (table, column, type).
ADDED_COLUMNS = (("hands", "phh_problem", "TEXT"),)  # why a played hand has no PHH (the table's reason)
RULING_COLUMNS = ("room", "table_id", "session", "seq", "n", "dealer", "hand", "t", "kind", "rule", "remedy", "body")
HAND_COLUMNS = ("room", "table_id", "session", "seq", "hand", "t", "dealer", "played", "phh", "rulings",
                "phh_problem")


class Store(Protocol):
    def write(self, rulings: Sequence[tuple[Any, ...]], hands: Sequence[tuple[Any, ...]]) -> tuple[int, int]: ...

    def close(self) -> None: ...


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
            self.db.execute(statement)
        for table, column, kind in ADDED_COLUMNS:
            if column not in {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        self.db.commit()

    def write(self, rulings: Sequence[tuple[Any, ...]], hands: Sequence[tuple[Any, ...]]) -> tuple[int, int]:
        """Insert what is new; returns (rows inserted, duplicates dropped). One transaction."""
        before = self.db.total_changes
        with self.db:
            self.db.executemany(f"INSERT OR IGNORE INTO rulings ({', '.join(RULING_COLUMNS)}) VALUES "
                                f"({', '.join('?' * len(RULING_COLUMNS))})", rulings)
            self.db.executemany(f"INSERT OR IGNORE INTO hands ({', '.join(HAND_COLUMNS)}) VALUES "
                                f"({', '.join('?' * len(HAND_COLUMNS))})", hands)
        inserted = self.db.total_changes - before
        return inserted, len(rulings) + len(hands) - inserted

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
        with self.db.transaction():
            for statement in SCHEMA:
                self.db.execute(statement)
            for table, column, kind in ADDED_COLUMNS:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")

    def write(self, rulings: Sequence[tuple[Any, ...]], hands: Sequence[tuple[Any, ...]]) -> tuple[int, int]:
        inserted = 0
        with self.db.transaction(), self.db.cursor() as cursor:
            for table, columns, rows in (("rulings", RULING_COLUMNS, rulings), ("hands", HAND_COLUMNS, hands)):
                statement = (f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                             f"({', '.join(['%s'] * len(columns))}) ON CONFLICT DO NOTHING")
                for row in rows:  # executemany's rowcount is not per row in every psycopg version
                    cursor.execute(statement, row)
                    inserted += max(cursor.rowcount, 0)
        return inserted, len(rulings) + len(hands) - inserted

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        with self.db.cursor() as cursor:
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


def ruling_row(room: str, table: str, body: dict[str, Any]) -> tuple[Any, ...]:
    ruling = body["ruling"]
    return (room, table, str(body["session"]), int(body["seq"]), int(body.get("n", 0)), str(body.get("dealer", "")),
            body.get("hand"), ruling.get("t"), str(ruling["ruling"]), str(ruling.get("rule", "")),
            str(ruling.get("remedy", "")), json.dumps(body, sort_keys=True))


def hand_row(room: str, table: str, body: dict[str, Any]) -> tuple[Any, ...]:
    return (room, table, str(body["session"]), int(body["seq"]), int(body["hand"]), body.get("t"),
            str(body.get("dealer", "")), bool(body.get("played")), body.get("phh"),
            json.dumps(body.get("rulings", [])), body.get("phh_problem"))


@dataclass
class CollectorStats:
    received: int = 0
    inserted: int = 0
    duplicates: int = 0
    rejected: int = 0


class Collector:
    """Messages in from paho's thread (a queue), batches written and then acknowledged on our own thread."""

    def __init__(self, store: Store, *, ack: Callable[[int], None] | None = None) -> None:
        self.store = store
        self.ack = ack
        self.stats = CollectorStats()
        self._queue: queue.Queue[tuple[str, Any, int] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="room-collector", daemon=True)
        self.failed: str | None = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(30)

    def offer(self, topic_name: str, body: Any, mid: int = 0) -> None:
        self._queue.put((topic_name, body, mid))

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
        rulings, hands, mids = [], [], []
        for topic_name, body, mid in batch:
            self.stats.received += 1
            mids.append(mid)
            where = parse_topic(topic_name)
            try:
                if where is None or not isinstance(body, dict) or body.get("v") != 1:
                    raise ValueError("not a v1 room message")
                room, table, kind = where
                if kind == "ruling":
                    rulings.append(ruling_row(room, table, body))
                elif kind == "hand":
                    hands.append(hand_row(room, table, body))
            except (KeyError, ValueError, TypeError) as exc:
                self.stats.rejected += 1
                logger.warning("collector: %s: %s, dropped", topic_name, exc)
        while True:
            try:
                inserted, duplicates = self.store.write(rulings, hands)
                break
            except Exception as exc:  # the database is away: keep the batch (unacknowledged) and retry
                self.failed = str(exc)
                logger.error("collector: writing failed (%s); retrying in 2 s", exc)
                time.sleep(2.0)
        self.failed = None
        self.stats.inserted += inserted
        self.stats.duplicates += duplicates
        if self.ack is not None:
            for mid in mids:
                if mid:
                    self.ack(mid)
