"""The replay of a hand, street by street, as a page on the one web layer (firmware_py.web.page).

The same page (`firmware_py/web/static/replay.*`) serves the action tracker (its own table's hands, from
its journal: `JournalReplays`) and the floor's archive (every table's finished hands: `room/replay_archive.py`).
A source lists hands and gives one (`firmware_py.hand_replay.HandReplay`); the page shows it after
`hand_replay.redact`, the house's rule for hole cards, and a hand in play never with a face-down card.
Routes, all behind a paired session: `/replay` (the page), `/replay/hands` (the list, newest first) and
`/replay/hand?key=...` (one hand).
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
import urllib.parse
from pathlib import Path
from typing import Any, Protocol

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from firmware_py.core.engine import TableCore
from firmware_py.hand_replay import HandReplay, HoleCards, JournalEntry, ReplayBook, redact
from firmware_py.session import SessionReader
from firmware_py.web.page import STATIC, html_file

logger = logging.getLogger(__name__)

KEY = re.compile(r"^[A-Za-z0-9_.:/-]{1,200}\Z")  # a hand's key: "SEQ" at a table, "TABLE/SESSION/SEQ" in the room
TABLE = re.compile(r"^[A-Za-z0-9_-]{1,64}\Z")
LIST_MAX = 200  # hands listed, the newest
HOLE_CARD_RULES = tuple(rule.value for rule in HoleCards)


WAIT_S = 2.0  # a request waits this long for the book (reading a long journal at start), then is told so


class Busy(RuntimeError):
    """The source is still reading: the page is told why, and tries again."""


class ReplaySource(Protocol):
    title: str
    hole_cards: HoleCards

    def listing(self, table: str | None = None) -> list[dict[str, Any]]: ...

    def replay(self, key: str) -> tuple[HandReplay, dict[str, Any]] | None: ...


def summary(replay: HandReplay, key: str, **more: Any) -> dict[str, Any]:
    """A hand's line in the list."""
    rulings = sum(1 for street in replay.streets for e in street.entries if e.kind == "ruling")
    return {"key": key, "hand": replay.hand, "t": replay.t, "finished": replay.finished, "played": replay.played,
            "result": replay.result if replay.finished else "in play", "rulings": rulings, **more}


def replay_routes(source: ReplaySource) -> list[Route]:
    """The page's routes (mounted beside a page's own; each needs a paired session)."""

    async def hands(request: Request) -> Response:
        table = request.query_params.get("table") or None
        if table is not None and not TABLE.match(table):
            return JSONResponse({"error": f"table: a table id (letters, digits, - and _), not {table[:40]!r}"},
                                status_code=400)
        try:
            listed = await run_in_threadpool(source.listing, table)
        except Busy as exc:
            return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": "2"})
        return JSONResponse({"title": source.title, "hole_cards": str(source.hole_cards), "hands": listed[:LIST_MAX]})

    async def hand(request: Request) -> Response:
        key = request.query_params.get("key", "")
        if not KEY.match(key):
            return JSONResponse({"error": f"key: a hand's key (letters, digits and . _ : / -), not {key[:40]!r}"},
                                status_code=400)
        try:
            found = await run_in_threadpool(source.replay, key)
        except Busy as exc:
            return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": "2"})
        if found is None:
            return JSONResponse({"error": f"no hand {key} here"}, status_code=404)
        replay, more = found
        shown = redact(replay, source.hole_cards)
        body = {"title": source.title, "hole_cards": str(source.hole_cards), **more,
                "replay": msgspec.to_builtins(shown)}
        return JSONResponse(body)

    return [Route("/replay", html_file(STATIC / "replay.html"), methods=["GET"]),
            Route("/replay/hands", hands, methods=["GET"]),
            Route("/replay/hand", hand, methods=["GET"])]


class JournalReplays:
    """A table's hands from its own journal, read beside the daemon (a read-only SQLite connection: WAL lets
    it read while the daemon writes), the book brought up to the journal's end at each request."""

    def __init__(self, journal_path: Path, *, profiles: Any, base_dir: Path, title: str = "Action tracker",
                 hole_cards: HoleCards = HoleCards.SHOWDOWN, table: str = "") -> None:
        self.path = journal_path
        self.title = title
        self.table = table  # the table's id in the room, else its file's name: on the printed page
        self.hole_cards = hole_cards
        self.book = ReplayBook(TableCore(profiles))
        self._reader = SessionReader(source=str(journal_path), base_dir=base_dir)
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._total = 0  # the journal's events when the book began reading it (for "N of M")

    def start(self) -> None:
        """Read the journal so far on a thread of its own: a long session's first page is not kept waiting."""
        threading.Thread(target=self._warm, name="replay journal", daemon=True).start()

    def _warm(self) -> None:
        try:
            with self._lock:
                self._refresh()
        except Exception:  # a callback boundary: the page's next request reads it again, and says why
            logger.exception("replay: reading the journal failed")

    def _held(self) -> None:
        if not self._lock.acquire(timeout=WAIT_S):
            raise Busy(f"reading the table's journal ({self.book.seq:,} of {self._total:,} events): "
                       "the replay is ready in a moment")

    def _refresh(self) -> None:
        if self._db is None:
            uri = "file:" + urllib.parse.quote(str(Path(self.path).resolve())) + "?mode=ro"  # (a path with ? or # too)
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        self._total = int(self._db.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0])
        while True:
            rows = self._db.execute("SELECT seq, line FROM events WHERE seq > ? ORDER BY seq LIMIT 5000",
                                    (self.book.seq,)).fetchall()
            for seq, line in rows:
                try:
                    event = self._reader.parse_line(line, seq)
                except ValueError as exc:  # the table's core never saw it either
                    logger.error("replay: journal event #%d cannot be read: %s", seq, exc)
                    self.book.seq = seq
                    continue
                if event is None:
                    self.book.seq = seq
                    continue
                self.book.feed(JournalEntry(seq, event, line))
            if len(rows) < 5000:
                return

    def listing(self, table: str | None = None) -> list[dict[str, Any]]:
        """This table's hands, newest first (`table`: for the room's pages; a table has only its own)."""
        self._held()
        try:
            self._refresh()
            hands = [*self.book.hands, *([self.book.current()] if self.book.current() else [])]
            return [summary(h, str(h.first_seq)) for h in reversed(hands) if h is not None]
        finally:
            self._lock.release()

    def replay(self, key: str) -> tuple[HandReplay, dict[str, Any]] | None:
        if not key.isdigit():
            return None
        self._held()
        try:
            self._refresh()
            current = self.book.current()
            for hand in [*self.book.hands, *([current] if current else [])]:
                if hand is not None and str(hand.first_seq) == key:  # a copy: the book goes on changing it
                    more = {"key": key, **({"table": self.table} if self.table else {})}
                    return msgspec.convert(msgspec.to_builtins(hand), HandReplay), more
            return None
        finally:
            self._lock.release()

    def close(self) -> None:
        if not self._lock.acquire(timeout=WAIT_S):  # still reading at the end: its connection ends with the process
            return
        try:
            if self._db is not None:
                self._db.close()
                self._db = None
        finally:
            self._lock.release()
