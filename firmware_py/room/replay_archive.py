"""The floor's replay of any hand of any table: a page on the one web layer, served by the collector.

Why the collector: it is the room's archive. Every finished hand of every table reaches it (the table keeps
and resends each until the collector confirms it stored it, docs/room.md), with the hand as the table's
journal holds it (`HandMessage.replay`: each event with its seq and journal line, the card and the antenna
that read it, who pressed, each ruling with its cite, the pots as ruled); it is durable (PostgreSQL or
SQLite) across restarts and outages, and the collector's user is already the room's one reader of hands,
hole cards and all. The floor view's user reads only venue-safe topics (no hole card ever reaches it), and
a table's own tracker knows only its own table. So `collect --listen HOST:PORT` serves the page, on its own
read connection to the archive (never the writer's), behind a pairing code printed on its console.

Only finished hands reach the archive: a hand in play is never on this page. Their hole cards are shown
as the house's rule says (`--hole-cards`: none, showdown, all; hand_replay.HoleCards).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import urllib.parse
from pathlib import Path
from typing import Any

import msgspec
from starlette.responses import RedirectResponse
from starlette.routing import Route

from firmware_py.errors import ConfigError
from firmware_py.hand_replay import HandReplay, HoleCards
from firmware_py.web import Pairing, WebPage
from firmware_py.web.replay_page import LIST_MAX, replay_routes, summary

logger = logging.getLogger(__name__)

WHERE = "Type the code the collector printed on its console (journalctl -u pokertable-collect)."
LISTED = ("SELECT room, table_id, session, seq, replay FROM hands WHERE replay IS NOT NULL {where}"
          "ORDER BY received DESC, seq DESC LIMIT {limit}")
ONE = "SELECT replay FROM hands WHERE room = {p} AND table_id = {p} AND session = {p} AND seq = {p}"


class ArchiveReplays:
    """The room's finished hands, read from the collector's database on a connection of its own."""

    def __init__(self, target: str, *, hole_cards: HoleCards = HoleCards.SHOWDOWN, title: str = "Floor") -> None:
        self.target = target
        self.title = title
        self.hole_cards = hole_cards
        self._db: Any = None
        self._mark = "?"
        self._lock = threading.Lock()

    def _connect(self) -> Any:
        if self._db is not None:
            return self._db
        target = self.target
        if target.startswith(("postgresql://", "postgres://")):
            try:
                import psycopg  # noqa: PLC0415
            except ImportError:
                raise ConfigError("PostgreSQL needs psycopg: pip install 'pokertable[collector]'") from None
            # Autocommit: each read its own transaction, never one left open holding the collector's tables.
            self._db, self._mark = psycopg.connect(target, autocommit=True), "%s"
        else:
            path = Path(target.removeprefix("sqlite:///"))
            uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"  # (a path with ? or # too)
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
            self._mark = "?"
        return self._db

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            db = self._connect()
            try:
                return list(db.execute(sql.format(p=self._mark), params).fetchall())
            except Exception:
                self.close_locked()  # a lost connection: the next request opens another
                raise

    def listing(self, table: str | None = None) -> list[dict[str, Any]]:
        where = "AND table_id = {p} " if table else ""
        sql = LISTED.format(where=where, limit=LIST_MAX, p="{p}")
        out = []
        for room, table_id, session, seq, text in self._rows(sql, (table,) if table else ()):
            replay = _decoded(text, f"{room}/{table_id}/{session}/{seq}")
            if replay is not None:
                out.append(summary(replay, f"{room}/{table_id}/{session}/{seq}", table=table_id, room=room))
        return out

    def replay(self, key: str) -> tuple[HandReplay, dict[str, Any]] | None:
        parts = key.split("/")
        if len(parts) != 4 or not parts[3].isdigit():
            return None
        room, table, session, seq = parts
        rows = self._rows(ONE, (room, table, session, int(seq)))
        replay = _decoded(rows[0][0], key) if rows and rows[0][0] else None
        if replay is None:
            return None
        return replay, {"key": key, "table": table, "room": room, "session": session}

    def close_locked(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            finally:
                self._db = None

    def close(self) -> None:
        with self._lock:
            self.close_locked()


def _decoded(text: str | None, key: str) -> HandReplay | None:
    if not text:
        return None
    try:
        return msgspec.json.decode(text, type=HandReplay)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:  # stored by an older schema: said, skipped
        logger.warning("floor replay: hand %s: its replay cannot be read: %s", key, exc)
        return None


def floor_page(source: ArchiveReplays, *, hosts: tuple[str, ...] = (), pairing: Pairing | None = None) -> WebPage:
    """The floor's replay page (`/` sends a browser on to `/replay`)."""

    async def home(_request: Any) -> RedirectResponse:
        return RedirectResponse("/replay", status_code=303)

    pairing = pairing or Pairing()
    pairing.name = "floor replay"
    return WebPage([Route("/", home, methods=["GET"]), *replay_routes(source)], name="floor replay",
                   pairing=pairing, where=WHERE, hosts=hosts, pages=("/", "/replay"))
