"""The journal: every input event made durable in SQLite before the rules core acts on it.

One row per event: its sequence number (1, 2, 3... with no gap), its `table-events.md` JSON line,
a CRC-32 of the line, and a running checksum over every row up to it (the chain). SQLite runs in
WAL mode with `synchronous=FULL`: a commit returns only once the WAL frame is on the disk, and an
event is "acknowledged" only then. After each commit the last acknowledged sequence number and
chain are also written to a second place, the `-ack` file beside the journal.

On open the journal is checked, read-only, before anything is written: SQLite's `quick_check`,
every row's checksum and the chain, and the rows against the `-ack` file. A damaged or missing
WAL, a damaged page or a truncated file shows as events that do not check or are missing; then
`open` raises `JournalLoss` naming how many and which, and nothing is changed. `recover` copies
every intact event into a new journal. A torn last write (power lost mid-commit) is a WAL tail
that SQLite discards on open; it held no acknowledged event, and it is reported.

>>> import tempfile, pathlib
>>> from firmware_py.core import Button, ButtonName
>>> with tempfile.TemporaryDirectory() as d, Journal.open(pathlib.Path(d) / "j.sqlite3") as journal:
...     journal.append([Button(t=1.5, name=ButtonName.NEW_HAND)])
...     [row.line for row in journal.rows()]
[1]
['{"t": 1.5, "kind": "button", "name": "new_hand"}']
"""

from __future__ import annotations

import datetime
import fcntl
import json
import logging
import os
import sqlite3
import struct
import urllib.parse
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from firmware_py.core import Event
from firmware_py.errors import JournalCorrupt, JournalError, JournalFull, JournalLocked, JournalLoss
from firmware_py.session import event_to_json

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 2
WAL_HEADER_BYTES = 32
WAL_FRAME_HEADER_BYTES = 24
WAL_MAGIC = (0x377F0682, 0x377F0683)
ACK_BYTES = 64  # the -ack file is one fixed-size record, rewritten in place
ACK_FORMAT = "pokertable-ack 1 seq={seq} chain={chain:08x}"
ACK_KEPT = "ack_kept"  # the meta key, in the main file itself, that says an -ack file is kept beside it
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


@dataclass(frozen=True, slots=True)
class JournalRow:
    seq: int
    line: str
    crc: int


@dataclass(frozen=True, slots=True)
class Ack:
    """The last acknowledged event as the `-ack` file remembers it."""

    seq: int
    chain: int


@dataclass(slots=True)
class Check:
    """What a check of the journal found: the intact prefix and every sequence number lost."""

    intact: int = 0  # events #1..#intact check
    chain: int = 0  # the chain after event #intact
    rows: int = 0  # rows present in the file
    acknowledged: int = 0  # the -ack file's count (0 when there is none)
    bad: list[int] = field(default_factory=list)  # rows present that do not check
    problem: str = ""  # SQLite's own complaint, if any
    ack_missing: bool = False  # the main file says an -ack file was kept for it, and there is none

    @property
    def expected(self) -> int:
        return max(self.acknowledged, self.intact + len(self.bad), self.rows)

    @property
    def missing(self) -> int:
        return self.expected - self.intact


def line_of(event: Event) -> str:
    """The event as its exchange-format line (no newline): what the journal stores."""
    return json.dumps(event_to_json(event), separators=(", ", ": "))


def chain_of(previous: int, seq: int, line: str) -> int:
    """The running checksum after event `seq`: CRC-32 of "seq line\\n" for every row up to it, in order."""
    return zlib.crc32(f"{seq} {line}\n".encode(), previous)


def ack_path(path: Path) -> Path:
    return path.with_name(path.name + "-ack")


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + "-lock")


def lock_journal(path: Path, *, table: str = "") -> tuple[int, bool]:
    """Hold journal `path` for this process (an exclusive `flock` on its `-lock` file, which names the holder):
    the file descriptor, released by `os.close` or when the process ends, however it ends. Another holder
    (another process, or another open in this one) gets JournalLocked naming it: pid, table, since when. The
    second value: whether the lock file was made now (an open refused for damage removes it: nothing is left)."""
    target = lock_path(path)
    try:
        try:
            fd, created = os.open(target, os.O_RDWR | os.O_CREAT | os.O_EXCL, PRIVATE_FILE), True
        except FileExistsError:
            fd, created = os.open(target, os.O_RDWR), False
    except OSError as exc:
        raise JournalError(f"{target}: cannot create the journal's lock file ({exc.strerror or exc})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            holder = json.loads(os.pread(fd, 512, 0).decode() or "{}")
        except (OSError, ValueError):
            holder = {}
        os.close(fd)
        who = (f"process {holder.get('pid', '?')}" + (f" (table {holder['table']})" if holder.get("table") else "")
               + (f" since {holder['since']}" if holder.get("since") else ""))
        raise JournalLocked(f"{path}: the journal is in use by {who}: one journal has one writer. Stop that "
                            "table first, or give this one its own journal (--journal FILE, or [journal] path "
                            "in its table file)") from None
    since = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    record = json.dumps({"pid": os.getpid(), "table": table, "since": since}).encode()
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, record, 0)
    except OSError:
        logger.debug("journal %s: the lock file could not say who holds it", path, exc_info=True)
    return fd, created


def read_ack(path: Path) -> Ack | None:
    """The `-ack` file of journal `path`; None when there is none. A damaged one raises JournalCorrupt."""
    try:
        data = ack_path(path).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(f"{ack_path(path)}: cannot read the journal's acknowledgement record ({exc})") from None
    text = data.decode("ascii", "replace").rstrip("\n ")
    body, _, check = text.rpartition(" crc=")
    try:
        fields = dict(part.split("=", 1) for part in body.split()[2:])
        ack = Ack(seq=int(fields["seq"]), chain=int(fields["chain"], 16))
        ok = int(check, 16) == zlib.crc32(body.encode()) and body.startswith("pokertable-ack 1 ")
    except (KeyError, ValueError):
        ok = False
    if not ok:
        raise JournalCorrupt(f"{ack_path(path)}: the journal's acknowledgement record is damaged, so missing events "
                             f"cannot be ruled out. Nothing was changed: run `python -m firmware_py recover {path} "
                             "--out NEW.sqlite3` to copy every intact event into a new journal.")
    return ack


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
    return int((size - WAL_HEADER_BYTES) % frame)


def make_private(path: Path, mode: int = PRIVATE_FILE) -> None:
    """Owner-only permissions on `path` if it exists, whatever they were (hole cards are in it)."""
    try:
        os.chmod(path, mode)
    except FileNotFoundError:
        pass
    except OSError as exc:
        logger.warning("%s: cannot make it private (mode %o): %s", path, mode, exc)


def private_dir(directory: Path) -> None:
    """Create `directory` (mode 0700) if needed, and make the table's state directory 0700 whatever it was.

    A directory that holds only journals is the state directory; one that holds anything else (the
    current directory, /tmp, a home) is left as it is: the journal files themselves are 0600.
    """
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
        info = directory.stat()
        names = [entry.name for entry in os.scandir(directory)]
    except OSError as exc:
        raise JournalError(f"{directory}: cannot create the journal's directory ({exc.strerror or exc})") from None
    ours = info.st_uid == os.geteuid() and not info.st_mode & 0o1000
    if ours and all(".sqlite3" in name or name.endswith(".acks") for name in names):
        make_private(directory, PRIVATE_DIR)


def _readonly(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the journal's files. Without a `-wal` beside it (a copy, or a
    journal closed cleanly) the file is opened `immutable`: a plain read-only open of a WAL-mode file
    would create an empty `-wal` and `-shm` next to it."""
    wal = path.with_name(path.name + "-wal")
    flags = "?mode=ro" if wal.exists() else "?mode=ro&immutable=1"
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + flags
    return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)


def _columns(db: sqlite3.Connection) -> set[str]:
    return {row[1] for row in db.execute("PRAGMA table_info(events)")}


def check_rows(db: sqlite3.Connection, check: Check) -> None:
    """Walk the rows in order: the intact prefix, and every row after it that does not check."""
    chained = "chain" in _columns(db)
    query = "SELECT seq, line, crc, chain FROM events ORDER BY seq" if chained else \
        "SELECT seq, line, crc, NULL FROM events ORDER BY seq"
    chain, expect, broken, crc32 = 0, 1, False, zlib.crc32
    try:
        for seq, line, crc, stored in db.execute(query):  # the hot loop of a resume: C calls only
            check.rows += 1
            data = line.encode() if type(line) is str else b""
            ok = seq == expect and crc32(data) == crc and bool(data)
            if ok:  # chain_of(), streamed: "seq " then the line then the newline
                nxt = crc32(b"\n", crc32(data, crc32(b"%d " % seq, chain)))
                ok = stored is None or stored == nxt
            if ok and not broken:
                chain, check.intact = nxt, seq
            else:
                broken = True
                check.bad.append(seq)
            expect = seq + 1 if type(seq) is int else expect + 1
    except sqlite3.DatabaseError as exc:
        check.problem = str(exc)
    check.chain = chain


def check_journal(path: Path) -> Check:
    """Check journal `path` without changing it (a read-only connection); see the module docstring."""
    ack = read_ack(path)
    check = Check(acknowledged=ack.seq if ack else 0)
    if path.exists() and path.stat().st_size > 0:
        try:
            db = _readonly(path)
        except sqlite3.Error as exc:
            check.problem = str(exc)
            return check
        try:
            result = db.execute("PRAGMA quick_check").fetchall()
            if result != [("ok",)]:
                check.problem = "; ".join(str(row[0]) for row in result[:3])
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'events'").fetchone():
                check_rows(db, check)
            if ack is None and db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
                check.ack_missing = db.execute("SELECT 1 FROM meta WHERE key = ?", (ACK_KEPT,)).fetchone() is not None
        except sqlite3.DatabaseError as exc:
            check.problem = check.problem or str(exc)
        finally:
            db.close()
    if ack is not None and check.intact >= ack.seq > 0 and not check.bad:
        # The rows beyond the ack were committed just before a kill; the ack'd one must be the same event.
        db = _readonly(path)
        try:
            row = db.execute("SELECT chain FROM events WHERE seq = ?", (ack.seq,)).fetchone() \
                if "chain" in _columns(db) else None
        finally:
            db.close()
        if row is not None and row[0] != ack.chain:
            check.bad.append(ack.seq)
    return check


def _ranges(numbers: Sequence[int]) -> str:
    parts: list[str] = []
    start = prev = None
    for n in [*sorted(numbers), None]:
        if start is not None and (n is None or n != prev + 1):  # type: ignore[operator]
            parts.append(f"#{start}" if start == prev else f"#{start}-#{prev}")
            start = None
        if n is not None and start is None:
            start = n
        prev = n
    shown = parts[:4] + (["..."] if len(parts) > 4 else [])
    return ", ".join(shown)


def loss_error(path: Path, check: Check) -> JournalLoss:
    """The refusal: how many acknowledged events are lost, which, and how to salvage the rest."""
    lost = sorted(set(check.bad) | set(range(check.intact + 1, check.expected + 1)))
    why = []
    if check.problem:
        why.append(f"SQLite: {check.problem}")
    if check.acknowledged > check.rows:
        why.append(f"{check.acknowledged} were acknowledged, {check.rows} rows are left: the WAL or the end of "
                   "the file is damaged or missing")
    if check.bad:
        why.append(f"{len(check.bad)} rows do not match their checksum")
    message = (f"{path}: {len(lost)} of {check.expected} acknowledged events are missing or damaged "
               f"({_ranges(lost)}; {'; '.join(why) or 'damaged'}). The table will not resume over lost events; "
               f"nothing was changed. Run `python -m firmware_py recover {path} --out NEW.sqlite3` to copy the "
               "intact events into a new journal, then keep the damaged one and put NEW.sqlite3 in its place.")
    return JournalLoss(message, missing=len(lost), first=lost[0] if lost else 0, intact=check.intact)


def _refuse_damaged(path: Path, check: Check) -> None:
    """Raise the refusal for a journal whose check found damage or missing events (nothing is changed)."""
    if check.problem and not check.missing:  # every event checks, but a page of the file does not
        raise JournalLoss(f"{path}: the journal is damaged ({check.problem}); all {check.intact} acknowledged "
                          "events check, 0 are missing. Nothing was changed: keep the file and run "
                          f"`python -m firmware_py recover {path} --out NEW.sqlite3` to copy them into a new "
                          "journal.", missing=0, first=0, intact=check.intact)
    if check.missing:
        raise loss_error(path, check)
    if check.ack_missing:
        raise JournalLoss(f"{path}: its acknowledgement record {ack_path(path).name} is missing (the journal "
                          "says one is kept beside it), so how many events were acknowledged cannot be "
                          f"checked: this file alone holds {check.intact}, and a copy made without its -wal "
                          "and -ack files lacks the latest ones. Nothing was changed. Copy the journal with "
                          "its -wal and -ack files; or run `python -m firmware_py recover "
                          f"{path} --out NEW.sqlite3` to take the {check.intact} events it holds into a new "
                          "journal.", missing=0, first=check.intact + 1, intact=check.intact)


class Journal:
    """An append-only list of a session's input events in one SQLite file."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        self.torn_bytes = 0
        self.last_seq = 0
        self._chain = 0
        self._ack_fd: int | None = None
        self._lock_fd: int | None = None

    @classmethod
    def open(cls, path: str | Path, *, max_pages: int | None = None, table: str = "") -> Journal:
        """Lock, check, then open (or create) the journal; JournalLocked/JournalLoss/JournalCorrupt/JournalError
        name the file. `table`: the id of the table that writes it (its room id): a journal another table wrote
        is refused, and the lock names it."""
        path = Path(path)
        private_dir(path.parent)
        lock, created = lock_journal(path, table=table)
        try:
            journal = cls._open(path, max_pages=max_pages, table=table)
        except BaseException:
            if created:  # a journal refused (damaged, another table's) is left as it was found
                lock_path(path).unlink(missing_ok=True)
            os.close(lock)
            raise
        journal._lock_fd = lock
        return journal

    @classmethod
    def read_only(cls, path: str | Path) -> Journal:
        """The journal checked and opened for reading only (an export while the table runs): no lock, no write."""
        path = Path(path)
        check = check_journal(path)
        _refuse_damaged(path, check)
        journal = cls(path, _readonly(path))
        journal.last_seq, journal._chain = check.intact, check.chain
        return journal

    @classmethod
    def _open(cls, path: Path, *, max_pages: int | None, table: str) -> Journal:
        torn = torn_tail_bytes(path.with_name(path.name + "-wal"))
        check = check_journal(path)
        _refuse_damaged(path, check)
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"{path}: cannot open the journal ({exc})") from None
        journal = cls(path, db)
        journal.torn_bytes = torn
        journal.last_seq, journal._chain = check.intact, check.chain
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            if max_pages is not None:  # tests use this to make the disk "full"
                db.execute(f"PRAGMA max_page_count={int(max_pages)}")
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("CREATE TABLE IF NOT EXISTS events ("
                       "seq INTEGER PRIMARY KEY, line TEXT NOT NULL, crc INTEGER NOT NULL, chain INTEGER NOT NULL)")
            db.execute("CREATE TABLE IF NOT EXISTS checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), "
                       "seq INTEGER NOT NULL, fingerprint TEXT NOT NULL, state BLOB NOT NULL, crc INTEGER NOT NULL)")
            if "chain" not in _columns(db):
                journal._upgrade()
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as exc:
            db.close()
            raise journal._error(exc, "opening") from None
        for suffix in ("", "-wal", "-shm"):
            make_private(path.with_name(path.name + suffix))
        journal._open_ack()
        journal._mark_ack_kept()
        if table:
            journal._claim(table)
        if torn:
            logger.warning("journal %s: the last write was torn by a power cut (%d bytes of an unfinished "
                           "commit discarded); every acknowledged event is intact", path, torn)
        return journal

    def _claim(self, table: str) -> None:
        """A journal is one table's: the first table to write it names itself; another is refused."""
        owner = self.meta("table")
        if owner is None:
            self.set_meta("table", table)
        elif owner != table:
            self.close()
            raise JournalLocked(f"{self.path}: this journal is table {owner}'s, not table {table}'s: each table keeps "
                                f"its own. Give table {table} its own journal (--journal FILE, or [journal] path in "
                                "its table file; by default a room table's is state/<table id>/)")

    def _upgrade(self) -> None:
        """A schema 1 journal (no chain column), already checked row by row: add the chain."""
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("ALTER TABLE events ADD COLUMN chain INTEGER NOT NULL DEFAULT 0")
        chain = 0
        for seq, line in self._db.execute("SELECT seq, line FROM events ORDER BY seq").fetchall():
            chain = chain_of(chain, seq, line)
            self._db.execute("UPDATE events SET chain = ? WHERE seq = ?", (chain, seq))
        self._db.execute("COMMIT")

    def _open_ack(self) -> None:
        target = ack_path(self.path)
        try:
            self._ack_fd = os.open(target, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
            os.fchmod(self._ack_fd, PRIVATE_FILE)
        except OSError as exc:
            raise JournalError(f"{target}: cannot write the journal's acknowledgement record ({exc})") from None
        self._write_ack()

    def _mark_ack_kept(self) -> None:
        """Record in the main file itself (checkpointed out of the WAL at once) that an -ack file is kept:
        a copy of the main file alone then knows it is missing something."""
        try:
            if self.meta(ACK_KEPT) is None:
                self.set_meta(ACK_KEPT, True)
                self._db.execute("PRAGMA wal_checkpoint(FULL)")
        except sqlite3.DatabaseError as exc:
            raise self._error(exc, "writing") from None

    def _write_ack(self) -> None:
        # Written after the commit is durable, not synced itself: after a power cut it can only lag the
        # journal (never claim an event the journal does not hold); after damage to the journal it
        # still tells how many events there were.
        if self._ack_fd is None:
            return
        body = ACK_FORMAT.format(seq=self.last_seq, chain=self._chain)
        record = f"{body} crc={zlib.crc32(body.encode()):08x}".ljust(ACK_BYTES - 1) + "\n"
        try:
            os.pwrite(self._ack_fd, record.encode(), 0)
        except OSError as exc:
            raise JournalError(f"{ack_path(self.path)}: cannot write the acknowledgement record ({exc})") from None

    # -- writing --------------------------------------------------------------------------------

    def append(self, events: Sequence[Event]) -> list[int]:
        """Make `events` durable in one transaction; returns their sequence numbers.

        Raises JournalFull or JournalError: then none of them is recorded (the transaction is
        rolled back), and the caller must not act on them.
        """
        return self.append_lines([line_of(event) for event in events])

    def append_lines(self, lines: Sequence[str]) -> list[int]:
        """Append already-formatted event lines (events, or what `recover` salvages) in one transaction;
        returns their sequence numbers."""
        seq, chain = self.last_seq, self._chain
        try:
            self._db.execute("BEGIN IMMEDIATE")
            seqs = []
            for line in lines:
                seq += 1
                chain = chain_of(chain, seq, line)
                self._db.execute("INSERT INTO events (seq, line, crc, chain) VALUES (?, ?, ?, ?)",
                                 (seq, line, zlib.crc32(line.encode()), chain))
                seqs.append(seq)
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                logger.debug("journal rollback after a failed commit failed", exc_info=True)
            raise self._error(exc, "writing") from None
        self.last_seq, self._chain = seq, chain
        self._write_ack()
        return seqs

    def save_checkpoint(self, seq: int, fingerprint: str, state: bytes) -> None:
        """Keep the rules core's state after event `seq` (one row, replaced): a resume replays from there."""
        try:
            self._db.execute("INSERT OR REPLACE INTO checkpoint VALUES (1, ?, ?, ?, ?)",
                             (seq, fingerprint, state, zlib.crc32(state)))
        except sqlite3.DatabaseError as exc:
            raise self._error(exc, "writing") from None

    def load_checkpoint(self, fingerprint: str) -> tuple[int, bytes] | None:
        """The core's state kept after some event, if it checks and was made by the same core and profiles."""
        try:
            row = self._db.execute("SELECT seq, fingerprint, state, crc FROM checkpoint WHERE id = 1").fetchone()
        except sqlite3.DatabaseError:
            logger.warning("journal %s: the core checkpoint cannot be read; the session is replayed instead",
                           self.path, exc_info=True)
            return None
        if row is None:
            return None
        seq, stored, state, crc = row
        if stored != fingerprint:
            logger.info("journal %s: the core checkpoint is from other code or profiles; replaying", self.path)
            return None
        if not isinstance(state, bytes) or zlib.crc32(state) != crc or not 0 < seq <= self.last_seq:
            logger.warning("journal %s: the core checkpoint is damaged; the session is replayed instead", self.path)
            return None
        return seq, state

    def set_meta(self, key: str, value: Any) -> None:
        try:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))
        except sqlite3.DatabaseError as exc:
            raise self._error(exc, "writing") from None

    # -- reading --------------------------------------------------------------------------------

    def meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def rows(self, *, after: int = 0) -> Iterator[JournalRow]:
        """Every event row in order (those after `after`); a row that does not check raises JournalCorrupt."""
        try:
            cursor = self._db.execute("SELECT seq, line, crc FROM events WHERE seq > ? ORDER BY seq", (after,))
            for seq, line, crc in cursor:
                if zlib.crc32(line.encode()) != crc:
                    raise JournalCorrupt(f"{self.path}: event #{seq} is damaged (its checksum does not match); "
                                         f"keep the file and run `python -m firmware_py recover {self.path} "
                                         "--out NEW.sqlite3` to copy the intact events into a new journal")
                yield JournalRow(seq=seq, line=line, crc=crc)
        except sqlite3.DatabaseError as exc:
            raise self._error(exc, "reading") from None

    def chained_rows(self, *, after: int = 0) -> Iterator[tuple[int, str, int, int]]:
        """(seq, line, crc, chain) of every row after `after`, in order, each checked as `rows` checks it: what an
        evidence packet (firmware_py/jackpots.py) copies, with the running checksum as stored."""
        try:
            cursor = self._db.execute("SELECT seq, line, crc, chain FROM events WHERE seq > ? ORDER BY seq", (after,))
            for seq, line, crc, chain in cursor:
                if zlib.crc32(line.encode()) != crc:
                    raise JournalCorrupt(f"{self.path}: event #{seq} is damaged (its checksum does not match)")
                yield seq, line, crc, chain
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
                                  f"changed: keep the file and run `python -m firmware_py recover {self.path} "
                                  "--out NEW.sqlite3` to copy the intact events into a new journal.")
        return JournalError(f"{self.path}: {doing} the journal failed: {text}")

    def close(self) -> None:
        try:
            self._db.close()
        except sqlite3.Error:
            logger.debug("closing the journal failed", exc_info=True)
        if self._ack_fd is not None:
            os.close(self._ack_fd)
            self._ack_fd = None
        if self._lock_fd is not None:  # the last: the journal is free once everything of it is closed
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


@dataclass(frozen=True, kw_only=True, slots=True)
class Salvage:
    """What `recover` copied: events kept (in their order) and the sequence numbers lost."""

    kept: int
    lost: tuple[int, ...]
    expected: int


def salvage_lines(path: Path) -> tuple[list[tuple[int, str]], int]:
    """Every row of a (damaged) journal whose own checksum holds, read row by row; and the count expected."""
    ack = None
    try:
        ack = read_ack(path)
    except JournalCorrupt:
        logger.warning("%s: the acknowledgement record is damaged; counting from the rows alone", ack_path(path))
    found: dict[int, str] = {}
    if not path.exists() or path.stat().st_size == 0:
        return [], ack.seq if ack else 0
    try:
        db = _readonly(path)
    except sqlite3.Error:
        logger.warning("%s: SQLite cannot open it at all: no event can be salvaged", path)
        return [], ack.seq if ack else 0
    try:
        top = 0
        for query in ("SELECT max(seq) FROM events", "SELECT seq FROM events ORDER BY seq DESC LIMIT 1"):
            try:
                top = max(top, int(db.execute(query).fetchone()[0] or 0))
            except (sqlite3.DatabaseError, TypeError):
                continue
        for order in ("ASC", "DESC"):  # a damaged page stops a scan; scanning from both ends goes round it
            try:
                for seq, line, crc in db.execute(f"SELECT seq, line, crc FROM events ORDER BY seq {order}"):
                    if isinstance(line, str) and isinstance(seq, int) and zlib.crc32(line.encode()) == crc:
                        found.setdefault(seq, line)
            except sqlite3.DatabaseError:
                continue
        top = max([top, *found])
        for seq in range(1, top + 1):  # and row by row, for what lies between two damaged pages
            if seq in found:
                continue
            try:
                row = db.execute("SELECT line, crc FROM events WHERE seq = ?", (seq,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if row is not None and isinstance(row[0], str) and zlib.crc32(row[0].encode()) == row[1]:
                found[seq] = row[0]
    except sqlite3.DatabaseError:
        logger.debug("salvage: the events table cannot be read at all", exc_info=True)
    finally:
        db.close()
    expected = max([ack.seq if ack else 0, *found])
    return sorted(found.items()), expected


def recover(source: Path, target: Path) -> Salvage:
    """Copy every intact event of journal `source` (left untouched) into a new journal `target`."""
    if target.exists() and target.stat().st_size > 0:
        raise JournalError(f"{target}: already exists; recover writes a new journal, choose another name")
    if not source.exists() and not ack_path(source).exists():
        raise JournalError(f"{source}: no journal there")
    rows, expected = salvage_lines(source)
    meta: list[tuple[str, str]] = []
    try:
        if source.exists() and source.stat().st_size > 0:
            db = _readonly(source)
            try:
                meta = [(k, v) for k, v in db.execute("SELECT key, value FROM meta") if k != "schema"]
            finally:
                db.close()
    except sqlite3.DatabaseError:
        logger.warning("%s: the journal's settings cannot be read; the events are salvaged without them", source)
    with Journal.open(target) as journal:
        journal.append_lines([line for _seq, line in rows])
        for key, value in meta:
            try:
                journal.set_meta(key, json.loads(value))
            except ValueError:
                logger.warning("%s: the setting %r is damaged and left out", source, key)
        journal.set_meta("recovered_from", {"path": str(source), "kept": len(rows), "expected": expected})
    kept = {seq for seq, _line in rows}
    lost = tuple(seq for seq in range(1, expected + 1) if seq not in kept)
    return Salvage(kept=len(rows), lost=lost, expected=expected)
