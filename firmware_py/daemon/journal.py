"""The journal: every input event made durable in SQLite before the rules core acts on it.

One row per event, holding its `table-events.md` JSON line and a CRC-32 of that line, so a
session can always be exported and replayed. SQLite runs in WAL mode with `synchronous=FULL`:
a commit returns only once the WAL frame is on the disk, and an event is "acknowledged" only
then. A torn last write (power lost mid-commit) is a WAL tail that SQLite discards on open; it
held no acknowledged event, and it is reported. A corrupt page or a full disk raises
`JournalError` with the file named and what to do: earlier events are never dropped silently.

>>> import tempfile, pathlib
>>> from firmware_py.core import Button, ButtonName
>>> with tempfile.TemporaryDirectory() as d, Journal.open(pathlib.Path(d) / "j.sqlite3") as journal:
...     journal.append([Button(t=1.5, name=ButtonName.NEW_HAND)])
...     [row.line for row in journal.rows()]
[1]
['{"t": 1.5, "kind": "button", "name": "new_hand"}']
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import struct
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from firmware_py.core import Event
from firmware_py.errors import TableError
from firmware_py.session import event_to_json

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
WAL_HEADER_BYTES = 32
WAL_FRAME_HEADER_BYTES = 24
WAL_MAGIC = (0x377F0682, 0x377F0683)


class JournalError(TableError, OSError):
    """The journal cannot be read or written; the message names the file and the way out."""


class JournalCorrupt(JournalError):
    """A page of the journal is damaged: the daemon stops rather than resume from a partial session."""


class JournalFull(JournalError):
    """The disk (or the journal's page limit) is full: the event was not recorded, nor acted on."""


@dataclass(frozen=True, slots=True)
class JournalRow:
    seq: int
    line: str
    crc: int


def line_of(event: Event) -> str:
    """The event as its exchange-format line (no newline): what the journal stores."""
    return json.dumps(event_to_json(event), separators=(", ", ": "))


def torn_tail_bytes(wal: Path) -> int:
    """Bytes at the end of a WAL file that are not a whole frame: a write torn by a power cut."""
    try:
        size = wal.stat().st_size
        with wal.open("rb") as handle:
            header = handle.read(WAL_HEADER_BYTES)
    except FileNotFoundError:
        return 0
    if size == 0:
        return 0
    if len(header) < WAL_HEADER_BYTES:
        return size
    magic, _version, page_size = struct.unpack(">III", header[:12])
    if magic not in WAL_MAGIC or page_size == 0:
        return 0  # not a WAL this check understands; SQLite's own checksums still apply
    frame = WAL_FRAME_HEADER_BYTES + page_size
    return (size - WAL_HEADER_BYTES) % frame


class Journal:
    """An append-only list of a session's input events in one SQLite file."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        self.torn_bytes = 0

    @classmethod
    def open(cls, path: str | Path, *, max_pages: int | None = None) -> Journal:
        """Open (or create) the journal; raises JournalError/JournalCorrupt naming the file."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"{path}: cannot create the journal's directory ({exc.strerror or exc})") from None
        torn = torn_tail_bytes(path.with_name(path.name + "-wal"))
        fresh = not path.exists()
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"{path}: cannot open the journal ({exc})") from None
        journal = cls(path, db)
        journal.torn_bytes = torn
        try:
            if fresh:
                os.chmod(path, 0o600)  # hole cards are in it
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            if max_pages is not None:  # tests use this to make the disk "full"
                db.execute(f"PRAGMA max_page_count={int(max_pages)}")
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("CREATE TABLE IF NOT EXISTS events ("
                       "seq INTEGER PRIMARY KEY, line TEXT NOT NULL, crc INTEGER NOT NULL)")
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            check = db.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            db.close()
            raise journal._error(exc, "opening") from None
        if check != [("ok",)]:
            db.close()
            detail = "; ".join(str(row[0]) for row in check[:3])
            raise JournalCorrupt(f"{path}: the journal is damaged ({detail}). Nothing was changed: keep the "
                                 "file, and run `python -m firmware_py export --journal` on a copy to "
                                 "recover every readable event.")
        if torn:
            logger.warning("journal %s: the last write was torn by a power cut (%d bytes of an unfinished "
                           "commit discarded); every acknowledged event is intact", path, torn)
        return journal

    # -- writing --------------------------------------------------------------------------------

    def append(self, events: Sequence[Event]) -> list[int]:
        """Make `events` durable in one transaction; returns their sequence numbers.

        Raises JournalFull or JournalError: then none of them is recorded (the transaction is
        rolled back), and the caller must not act on them.
        """
        lines = [line_of(event) for event in events]
        try:
            self._db.execute("BEGIN IMMEDIATE")
            seqs = []
            for line in lines:
                cursor = self._db.execute("INSERT INTO events (line, crc) VALUES (?, ?)",
                                          (line, zlib.crc32(line.encode())))
                assert cursor.lastrowid is not None
                seqs.append(cursor.lastrowid)
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                logger.debug("journal rollback after a failed commit failed", exc_info=True)
            raise self._error(exc, "writing") from None
        return seqs

    def set_meta(self, key: str, value: Any) -> None:
        try:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))
        except sqlite3.DatabaseError as exc:
            raise self._error(exc, "writing") from None

    # -- reading --------------------------------------------------------------------------------

    def meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def rows(self) -> Iterator[JournalRow]:
        """Every event row in order; a row whose CRC does not match raises JournalCorrupt."""
        try:
            cursor = self._db.execute("SELECT seq, line, crc FROM events ORDER BY seq")
            for seq, line, crc in cursor:
                if zlib.crc32(line.encode()) != crc:
                    raise JournalCorrupt(f"{self.path}: event #{seq} is damaged (its checksum does not match); "
                                         "keep the file and export a copy to recover the events before it")
                yield JournalRow(seq=seq, line=line, crc=crc)
        except sqlite3.DatabaseError as exc:
            raise self._error(exc, "reading") from None

    def count(self) -> int:
        try:
            return int(self._db.execute("SELECT count(*) FROM events").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            raise self._error(exc, "reading") from None

    def _error(self, exc: sqlite3.DatabaseError, doing: str) -> JournalError:
        code = getattr(exc, "sqlite_errorcode", None)
        text = str(exc)
        if code == sqlite3.SQLITE_FULL or "full" in text:
            return JournalFull(f"{self.path}: the disk is full while {doing} the journal: the table's input is "
                               "not being recorded (earlier events are safe). Free space on that disk.")
        if isinstance(exc, sqlite3.DatabaseError) and (
                code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "malformed" in text
                or "not a database" in text):
            return JournalCorrupt(f"{self.path}: the journal is damaged ({text}) while {doing} it. Nothing was "
                                  "changed: keep the file and export a copy to recover the readable events.")
        return JournalError(f"{self.path}: {doing} the journal failed: {text}")

    def close(self) -> None:
        try:
            self._db.close()
        except sqlite3.Error:
            logger.debug("closing the journal failed", exc_info=True)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
