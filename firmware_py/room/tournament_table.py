"""A table in a tournament (`[room] tournament = true`): it follows the director and reports to it.

- The level for the next deal comes from the director's state (WFP Tournament 5: a new level applies
  from the next deal): a `level` event between hands.
- The seats too: a player the director has moved or eliminated leaves (`seat` out), a player moved here
  sits down (`seat` in, `moved`: the core deals the player in as the profile says, e.g. UPT 16) with the
  chips the director has for them (`stacks`). All of it goes through the daemon's queue, so it is
  journaled like any other event: a move is on the record at both tables.
- After each hand the table reports its stacks before and after, its button and big blind.

`TableFollower` is the logic (no I/O: snapshots and director states in, events and reports out);
`TournamentTable` the daemon component around it (its own broker connection, the daemon's queue).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from firmware_py.core import Level, Seat, SeatStatus, Stacks
from firmware_py.core.phase import Phase
from firmware_py.core.snapshot import PlayerState, TableSnapshot
from firmware_py.room.messages import BadMessage
from firmware_py.room.room_config import RoomConfig
from firmware_py.room.tournament_messages import (
    DirectorState,
    SeatStack,
    TableJson,
    TableReport,
    decode_director,
    director_topic,
    encode,
    report_topic,
)

logger = logging.getLogger(__name__)
Event = Seat | Stacks | Level


class TableFollower:
    """What the table does for the director, between hands; what it tells the director after each hand."""

    def __init__(self, *, room: str, table: str, session: str) -> None:
        self.room, self.table, self.session = room, table, session
        self.entry: TableJson | None = None
        self.level: tuple[int, int, int, int] | None = None
        self.wanted_level: tuple[int, int, int, int] | None = None
        self.players: dict[int, str] = {}  # seat -> player, as the table was last made
        self.draw: int | None = None
        self.seq = 0
        self.reported = -1  # the last hand number reported (-1: none seen yet)
        self.start: dict[int, int] = {}
        self.last: TableSnapshot | None = None
        self.waiting = False  # events posted and not yet seen in a snapshot

    def race_report(self, *, race: int, t: float, start: dict[int, int], end: dict[int, int]) -> TableReport:
        """The report of a chip race the table ran at the director's color-up number `race`."""
        self.seq += 1
        self.start = dict(end)
        return TableReport(v=1, room=self.room, table=self.table, session=self.session, seq=self.seq, kind="race",
                           hand=self.reported if self.reported > 0 else 0, t=t, draw=self.draw or 0, race=race,
                           start=[SeatStack(seat=s, chips=c) for s, c in sorted(start.items())],
                           end=[SeatStack(seat=s, chips=c) for s, c in sorted(end.items())])

    def restart(self) -> None:
        """The table started again (a new setup, seated by the director's draw): its seats are the draw's.
        The report count goes on (the director counts reports per session)."""
        self.players, self.draw, self.reported, self.start = {}, None, -1, {}
        self.last, self.waiting, self.level = None, False, None

    def director(self, state: DirectorState) -> list[Event]:
        """A new director's state; the events to post now if the table is between hands."""
        self.entry = next((t for t in state.tables if t.table == self.table), None)
        level = state.level
        self.wanted_level = (level.small, level.big, level.ante, level.bb_ante)
        return self._sync()

    def snapshot(self, snap: TableSnapshot) -> tuple[list[Event], list[TableReport]]:
        """A new snapshot of the table: the report of a hand just over, and the events to post."""
        self.last = snap
        self.waiting = False
        reports: list[TableReport] = []
        if self.reported < 0:
            self.reported = snap.hand_number  # hands before we were following are not ours to report
        if snap.phase is Phase.IDLE:
            stacks = {v.seat: v.stack for v in snap.seats if v.stack is not None and v.state is not PlayerState.EMPTY}
            if snap.hand_number > self.reported and self.start and snap.button is not None:
                self.reported = snap.hand_number
                self.seq += 1
                seats = sorted(set(self.start) & set(stacks))
                reports.append(TableReport(
                    v=1, room=self.room, table=self.table, session=self.session, seq=self.seq, kind="hand",
                    hand=snap.hand_number, t=snap.t, draw=self.draw or 0, button=snap.button,
                    big_blind=snap.big_blind, start=[SeatStack(seat=s, chips=self.start[s]) for s in seats],
                    end=[SeatStack(seat=s, chips=stacks[s]) for s in seats]))
            self.start = {s: c for s, c in stacks.items() if s in self.players}
        return self._sync(), reports

    def _sync(self) -> list[Event]:
        snap = self.last
        if snap is None or snap.phase is not Phase.IDLE or self.waiting or self.entry is None:
            return []
        if self.seq and (self.entry.session != self.session or self.entry.acked < self.seq):
            return []  # the director has not taken in our last hand yet: its seats are older than ours
        t = snap.t
        events: list[Event] = []
        wanted = {s.seat: s for s in self.entry.seats}
        redraw = self.draw is not None and self.entry.draw != self.draw
        occupied = {v.seat for v in snap.seats if v.state is not PlayerState.EMPTY}
        if self.draw is None:  # the first state: the table was set up from the draw, its players are the draw's
            self.players = {s: wanted[s].player for s in occupied if s in wanted}
        leaving = sorted(s for s in occupied if redraw or s not in wanted or self.players.get(s) != wanted[s].player)
        for seat in leaving:
            events.append(Seat(t=t, seat=seat, status=SeatStatus.OUT))
        staying = occupied - set(leaving)
        arriving = sorted(s for s in wanted if s not in staying)
        for seat in arriving:
            events.append(Seat(t=t, seat=seat, status=SeatStatus.IN, moved=wanted[seat].moved and not redraw))
        stacks = {v.seat: v.stack for v in snap.seats if v.state is not PlayerState.EMPTY}
        moved = [(s, wanted[s].chips) for s in arriving if wanted[s].moved and not redraw]
        if moved:  # journaled with why "moved": the venue screen calls the player to the seat
            events.append(Stacks(t=t, stacks=tuple(moved), why="moved"))
        fix = [(s, wanted[s].chips) for s in sorted(wanted) if (s in arriving or stacks.get(s) != wanted[s].chips)
               and (s, wanted[s].chips) not in moved]
        if fix:
            events.append(Stacks(t=t, stacks=tuple(fix)))
        if self.wanted_level is not None and self.wanted_level != self.level:
            small, big, ante, bb_ante = self.wanted_level
            events.append(Level(t=t, small=small, big=big, ante=ante, bb_ante=bb_ante))
            self.level = self.wanted_level
        self.players = {s: v.player for s, v in wanted.items()}
        self.draw = self.entry.draw
        if events:
            self.waiting = True
        return events


class TournamentTable:
    """The daemon component: the broker connection (the director's state in, the reports out) and the
    daemon's queue (the events)."""

    name = "tournament"

    def __init__(self, config: RoomConfig, *, post: Callable[[object], None], session: str,
                 client_factory: Callable[[], Any] | None = None) -> None:
        self.config, self.post = config, post
        self.follower = TableFollower(room=config.room, table=config.table, session=session)
        self.lock = threading.Lock()
        self._client_factory = client_factory
        self._client: Any = None
        self.refused = 0

    def start(self) -> None:
        from firmware_py.room.mqtt import KEEPALIVE_S, make_client  # noqa: PLC0415

        cfg = self.config
        user = cfg.broker.username or cfg.table
        self._client = (self._client_factory() if self._client_factory
                        else make_client(cfg.broker, client_id=f"{user}.{cfg.room}.tournament"))
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self._client.connect_async(cfg.broker.host, cfg.broker.port, keepalive=KEEPALIVE_S)
        self._client.loop_start()

    def stop(self) -> None:
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()

    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if not reason.is_failure:
            client.subscribe(director_topic(self.config.room), qos=1)

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        try:
            state = decode_director(message.topic, message.payload)
        except BadMessage as exc:
            self.refused += 1
            logger.warning("tournament: the director's state refused: %s", exc)
            return
        try:
            with self.lock:
                events = self.follower.director(state)
        except Exception:  # a state the schema passes but this table cannot follow: counted, logged, kept going
            self.refused += 1
            logger.exception("tournament: the director's state %d could not be followed", state.seq)
            return
        for event in events:
            self.post(event)

    def on_snapshot(self, snap: TableSnapshot) -> None:
        """The daemon's snapshot listener (its main loop): quick."""
        with self.lock:
            events, reports = self.follower.snapshot(snap)
        for event in events:
            self.post(event)
        for report in reports:
            if self._client is not None:
                self._client.publish(report_topic(self.config.room, self.config.table), encode(report, TableReport),
                                     qos=1)
