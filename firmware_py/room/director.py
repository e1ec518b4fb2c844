"""The director's station's model: the pure tournament (firmware_py.tournament) fed by the tables' reports,
with the clock, the bubble and the payouts, turned into the retained state the room reads
(tournament_messages.DirectorState). Thread-safe: the broker's thread feeds it, the page reads it.

The clock runs on the wall (`time.monotonic`, paused and resumed from the page) or, for a simulated
room, on the tables' own session time (`sim_clock=True`: the furthest table's `t`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from firmware_py.room.messages import BadMessage
from firmware_py.room.tournament_messages import (
    CiteJson,
    DecisionJson,
    DirectorState,
    LevelJson,
    PlaceJson,
    RaceJson,
    SeatJson,
    TableJson,
    TableReport,
    decode_report,
    director_topic,
)
from firmware_py.tournament import (
    Broken,
    Bubble,
    ButtonPlaced,
    Decision,
    Eliminated,
    Finished,
    Level,
    Moved,
    Raced,
    Redrawn,
    Seated,
    Structure,
    Tournament,
    shared_prizes,
)

logger = logging.getLogger(__name__)
KEEP_DECISIONS = 200


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _level(level: Level | None) -> LevelJson | None:
    if level is None:
        return None
    return LevelJson(number=level.number, small=level.small, big=level.big, ante=level.ante, bb_ante=level.bb_ante)


class Director:
    def __init__(self, *, room: str, tournament: Tournament, structure: Structure, payouts: Sequence[int] = (),
                 sim_clock: bool = False, on_change: Callable[[DirectorState], None] | None = None) -> None:
        self.room, self.tournament, self.structure = room, tournament, structure
        self.payouts = list(payouts)
        self.lock = threading.RLock()
        self.seq = 0
        self.bubble = Bubble()
        self.sim_clock = sim_clock
        self.sim_t = 0.0
        self.elapsed_before = 0.0
        self.started_at: float | None = None
        self.acked: dict[str, int] = {}
        self.sessions: dict[str, str] = {}
        self.draws: dict[str, int] = dict.fromkeys(tournament.tables, 1)
        self.moved: set[str] = set()
        self.decisions: list[DecisionJson] = []
        self.rejected = 0
        self.on_change = on_change
        self.counted = 0
        self.version = 0  # counts changes (the page's stream sends the state when it moves)
        self.session = f"d{time.time_ns():x}"  # this run of the director (its states' seq counts within it)
        self._clock_seen = structure.at(0.0)
        self.color_up = ""
        self.race: tuple[int, int, int] | None = None  # (n, chip, to) of the latest color-up
        self._describe(tournament.log)

    # -- the clock ---------------------------------------------------------------------------------

    def elapsed(self) -> float:
        if self.sim_clock:
            return self.sim_t
        running = time.monotonic() - self.started_at if self.started_at is not None else 0.0
        return self.elapsed_before + running

    def start_clock(self) -> None:
        with self.lock:
            if self.started_at is None:
                self.started_at = time.monotonic()
        self._changed()

    def pause_clock(self) -> None:
        with self.lock:
            if self.started_at is not None:
                self.elapsed_before += time.monotonic() - self.started_at
                self.started_at = None
        self._changed()

    def tick(self) -> None:
        """Each second on the wall clock: a level change or color-up the clock reached is noted, and the room
        gets the state again (its remaining time)."""
        with self.lock:
            self._tick_clock()
        self._changed()

    def hand_for_hand(self, on: bool) -> None:
        with self.lock:
            if on:
                self.bubble.start()
            else:
                self.bubble.stop()
            self._note("bubble", "Hand-for-hand " + ("started: each table plays one hand, then waits for the others"
                                                     if on else "ended"), [], [])
        self._changed()

    # -- the tables' reports -------------------------------------------------------------------------

    def feed(self, topic: str, payload: bytes, _now: float = 0.0) -> None:
        """From the broker's thread: a table's report (anything else is counted and logged, never fatal)."""
        if topic == director_topic(self.room) or topic.endswith("/status"):
            return  # our own retained state, and the tables' status the subscriber watches
        try:
            report = decode_report(topic, payload)
        except BadMessage as exc:
            self.rejected += 1
            logger.warning("tournament: refused a message on %s: %s", topic[:200], exc)
            return
        try:
            self.apply(report)
        except ValueError as exc:
            self.rejected += 1
            logger.warning("tournament: %s's report %d does not fit the room: %s", report.table, report.seq, exc)
        except Exception:  # any other report the director cannot apply must not stop the broker's thread
            self.rejected += 1
            logger.exception("tournament: %s's report %d could not be applied", report.table, report.seq)

    def apply(self, report: TableReport) -> list[Decision]:
        with self.lock:
            t = self.tournament
            if report.table not in t.tables:
                return []
            if self.sessions.get(report.table) != report.session:  # the table started again: its count too
                self.sessions[report.table] = report.session
                self.acked[report.table] = 0
            if report.seq <= self.acked.get(report.table, 0):
                return []
            if report.draw != self.draws.get(report.table):
                self.acked[report.table] = report.seq  # a hand of a seating that is no more: nothing to take in
                return []
            self.acked[report.table] = report.seq
            self.sim_t = max(self.sim_t, report.t)
            decisions: list[Decision] = []
            if report.kind == "race":
                if self.race is None or report.race != self.race[0]:
                    raise ValueError(f"a race report for color-up {report.race}; the latest is "
                                     f"{self.race[0] if self.race else 'none'}")
                decisions = t.race_done(report.table, chip=self.race[1], to=self.race[2],
                                        start={s.seat: s.chips for s in report.start},
                                        end={s.seat: s.chips for s in report.end})
                self._describe(decisions)
            elif report.kind == "all_in":
                self.bubble.all_in_called(report.table, report.hand)
                if self.bubble.hand_for_hand:
                    self._note("all_in", f"All in called at {report.table}: the other tables hold their next deal",
                               [report.table], [])
            else:
                if report.button is None:
                    raise ValueError("a hand's report without its button")
                decisions = t.hand_done(report.table, hand=report.hand, start={s.seat: s.chips for s in report.start},
                                        end={s.seat: s.chips for s in report.end}, button=report.button,
                                        big_blind=report.big_blind)
                self.bubble.hand_over(report.table, t.tables)
                dealt = {t.players[pid].id for s, pid in t.tables[report.table].seats.items()
                         if s in {x.seat for x in report.start}} if report.table in t.tables else set()
                self.moved -= dealt - {d.player for d in decisions if isinstance(d, Moved | Seated)}
                self._describe(decisions)
            self._tick_clock()
        self._changed()
        return decisions

    def _tick_clock(self) -> None:
        clock = self.structure.at(self.elapsed())
        passed = self.structure.color_ups_between(self._clock_seen, clock)
        for color_up in passed:
            self.color_up = color_up.label()
            self.race = ((self.race[0] if self.race else 0) + 1, color_up.remove, color_up.to)
            self._note("color_up", f"Color-up after this level: {color_up.remove:,} chips off, their odd chips race "
                                   f"for {color_up.to:,} (WFP Tournament 6, UPT Tournaments 11: one card per odd "
                                   "chip, highest card by suit first)", list(self.tournament.tables), [])
        if clock.step != self._clock_seen.step and clock.on_break is None and not passed:
            self.color_up = ""
        if clock.level.number != self._clock_seen.level.number:
            self._note("level", f"Level {clock.level.number}: {clock.level.label()} from each table's next deal",
                       list(self.tournament.tables), [self.tournament.book.levels])
        self._clock_seen = clock

    # -- what the decisions say ------------------------------------------------------------------------

    def _note(self, kind: str, text: str, tables: list[str], cites: Sequence[Any], player: str = "") -> None:
        self.counted += 1
        self.decisions.append(DecisionJson(n=self.counted, kind=kind, text=text, tables=tables, player=player,
                                           cites=[CiteJson(**c.to_json()) for c in cites]))
        del self.decisions[:-KEEP_DECISIONS]

    def _name(self, pid: str) -> str:
        return self.tournament.players[pid].name

    def _describe(self, decisions: Sequence[Decision]) -> None:
        redrawn: set[str] = set()
        origins: dict[str, tuple[str, int]] = {}  # a broken table's players: where each sat (its draw's call)
        for d in decisions:
            if isinstance(d, Eliminated):
                shared = f" (shares {d.shared[0]}-{d.shared[1]})" if d.shared else ""
                self.moved.discard(d.player)
                self._note("eliminated", f"{self._name(d.player)} out at {d.table} seat {d.seat} in hand {d.hand}: "
                                         f"{_ordinal(d.place)} place{shared}", [d.table], [d.cite], d.player)
            elif isinstance(d, Moved):
                self.moved.add(d.player)
                self._note("moved", f"Move {self._name(d.player)} from {d.from_table} seat {d.from_seat} to "
                                    f"{d.to_table} seat {d.to_seat}: {d.dealt_in}", [d.from_table, d.to_table],
                           d.cites, d.player)
            elif isinstance(d, Broken):
                how = "every player draws a new table and seat" if d.redraw else "its players draw empty seats"
                self._note("broken", f"Break table {d.table} ({d.players} players): {how}", [d.table], [d.cite])
                for view in d.before:
                    if view.table == d.table:
                        origins.update({pid: (view.table, seat) for seat, pid in view.seats})
                self.draws.pop(d.table, None)
            elif isinstance(d, Redrawn):
                redrawn.update(d.tables)
                self._note("redrawn", f"Redraw for seats: {d.players} players on {len(d.tables)} table"
                                      f"{'s' if len(d.tables) > 1 else ''}", list(d.tables), [d.cite])
            elif isinstance(d, Seated) and d.why == "break":
                self.moved.add(d.player)
                origin = origins.get(d.player)
                came = f" from {origin[0]} seat {origin[1]}" if origin else ""
                self._note("seated", f"{self._name(d.player)}{came} draws {d.table} seat {d.seat}",
                           [*([origin[0]] if origin else []), d.table], [d.cite], d.player)
            elif isinstance(d, Seated):
                self.moved.discard(d.player)
            elif isinstance(d, ButtonPlaced) and redrawn:
                self._note("button", f"Button at {d.table} seat {d.seat}", [d.table], [d.cite])
            elif isinstance(d, Raced):
                moved_chips = sum(after - before for _s, before, after in d.changes)
                self._note("raced", f"Chip race at {d.table}: {d.chip:,} chips off for {d.to:,}; "
                                    f"{moved_chips:+,} chips in play", [d.table], [d.cite])
            elif isinstance(d, Finished):
                self._note("finished", f"{self._name(d.winner)} wins the tournament", [], [d.cite], d.winner)
        for table in redrawn:
            self.draws[table] = self.draws.get(table, 0) + 1
            self.acked[table] = self.acked.get(table, 0)

    # -- the state the room reads --------------------------------------------------------------------

    def state(self) -> DirectorState:
        with self.lock:
            t = self.tournament
            clock = self.structure.at(self.elapsed())
            tables = []
            for table in t.tables.values():
                seats = [SeatJson(seat=s, player=pid, name=t.players[pid].name[:200], chips=t.players[pid].chips,
                                  moved=pid in self.moved) for s, pid in sorted(table.seats.items())]
                hold = self.bubble.may_deal(table.id)[1]
                tables.append(TableJson(table=table.id, draw=self.draws.get(table.id, 1), button=table.button,
                                        seats=seats, acked=self.acked.get(table.id, 0), hold=hold,
                                        session=self.sessions.get(table.id, "")))
            places = []
            for p in t.places():
                assert p.place is not None
                first, last = p.shared if p.shared else (p.place, p.place)
                prize = shared_prizes(self.payouts, first, last)[0] if self.payouts and first <= len(
                    self.payouts) else 0
                places.append(PlaceJson(place=p.place, player=p.id, name=p.name[:200],
                                        shared=list(p.shared) if p.shared else None, prize=prize))
            winner = next((t.players[d.winner].name for d in t.log if isinstance(d, Finished)), "")
            self.seq += 1
            return DirectorState(
                v=1, room=self.room, seq=self.seq, profile=t.book.profile, title=t.book.title,
                structure=self.structure.name, level=_level(clock.level) or LevelJson(number=0, small=0, big=0),
                next_level=_level(clock.next_level), on_break=clock.on_break is not None,
                remaining_s=clock.remaining_s, running=self.sim_clock or self.started_at is not None,
                entrants=t.entrants, remaining=len(t.in_play()), chips_in_play=t.total_chips(), tables=tables,
                decisions=list(self.decisions[-60:]), places=places, payouts=self.payouts,
                hand_for_hand=self.bubble.hand_for_hand, all_in=sorted(self.bubble.all_in), winner=winner,
                color_up=self.color_up,
                race=RaceJson(n=self.race[0], chip=self.race[1], to=self.race[2]) if self.race else None,
                session=self.session, denominations=list(self.structure.chips_at(clock.step)))

    def _changed(self) -> None:
        self.version += 1
        if self.on_change is not None:
            try:
                self.on_change(self.state())
            except Exception:  # a listener's bug must not stop the director
                logger.exception("tournament: publishing the state failed")
