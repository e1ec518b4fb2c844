"""A simulated tournament through a real broker: N tables, each the dealer bot dealing into its own rules
core, from the first hand to one winner.

Each table reports every finished hand on `pokertable/<room>/<table>/tournament` and reads the director's
retained state on `pokertable/<room>/director/tournament`: its seats (who sits where, with how many chips,
and whether the player was moved here), its draw number (a new draw: the table starts again with the
button drawn) and the level for its next deal (WFP Tournament 5). The director (firmware_py.room.director)
takes the reports in and decides eliminations, moves, breaks and redraws by the profile's book.

The tables deal one after another, each waiting until the director has taken in its last report (so the
director's decisions always find every table between hands). Total chips are checked at every hand.
"""

from __future__ import annotations

import contextlib
import logging
import random
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.core import Setup, Stacks
from firmware_py.core.profiles import Profile
from firmware_py.core.snapshot import PlayerState
from firmware_py.room.messages import BadMessage
from firmware_py.room.room_config import BrokerConfig
from firmware_py.room.tournament_messages import (
    DirectorState,
    TableJson,
    TableReport,
    decode_director,
    director_topic,
    encode,
    newer,
    report_topic,
)
from firmware_py.room.tournament_table import TableFollower
from firmware_py.simulation.dealer import DealerBot

ROOT = Path(__file__).resolve().parents[2]
# Shoves are rarer and folds to a bet likelier than in the cash-game simulation: a tournament's players
# protect their stacks, and a 45-player field lasts a few hundred hands rather than a hundred.
ALLIN_RATE = 0.003
FOLD_RATE = 0.7
SLOW_SAMPLE = 30  # hands after which the director's answer time is looked at
SLOW_ANSWER_S = 0.03  # a median answer this slow: the broker's Nagle delay (~40 ms), not the director
logger = logging.getLogger(__name__)


class ChipsNotConserved(AssertionError):
    pass


@dataclass(kw_only=True)
class SimTable:
    """One simulated table: the dealer bot and its core, seated as the director says."""

    id: str
    room: str
    profile: Profile
    decks: tuple[Any, Any]
    rng: random.Random
    bot: DealerBot | None = None
    draw: int = 0
    t: float = 0.0
    hands: int = 0
    session: str = "sim"
    follower: TableFollower | None = None  # the table side a real table runs ([room] tournament = true)
    raced: int = 0  # the director's color-ups this table has raced for
    sessions: list[list[Any]] = field(default_factory=list)  # every event fed, one list per setup (a draw)

    def __post_init__(self) -> None:
        # Its races are dealt by `race` below (the bot's DealerBot.race, reported with the follower's race_report).
        self.follower = TableFollower(room=self.room, table=self.id, session=self.session, starts_races=False)

    def sync(self, table: TableJson, state: DirectorState) -> None:
        """Make the table as the director's state says, between hands: a new draw is a new start (a new
        setup with the button the director drew); otherwise the table side's own events (players out and
        in, moved players' chips, the level from the next deal)."""
        follower = self.follower
        assert follower is not None
        seats = {s.seat: s for s in table.seats}
        if table.draw != self.draw or self.bot is None:
            self.draw = table.draw
            button = table.button or min(seats)
            self.bot = DealerBot(rng=self.rng, deck=self.decks[0], other_deck=self.decks[1], profile=self.profile,
                                 seats=tuple(sorted(seats)), button=button, stack=1, rebuy=False,
                                 allin_rate=ALLIN_RATE, fold_rate=FOLD_RATE, fold_heads_up=True)
            core = self.bot._core
            assert core is not None
            self.t += 1.0
            stacks = Stacks(t=self.t, stacks=tuple((s, v.chips) for s, v in sorted(seats.items())))
            core.feed(stacks)
            self.sessions.append([Setup(t=0.0, profile=self.profile.name, seats=tuple(sorted(seats)), button=button,
                                        decks=self.decks, in_play=self.decks[0].name), stacks])
            follower.restart()
            follower.snapshot(core.snapshot())
        self._feed(follower.director(state))
        core = self.bot._core
        assert core is not None
        level = core.level
        if level is not None:  # the bot deals at the table's level (the table side set it), not its own
            self.bot.level = (level.small, level.big, level.ante)
            self.bot.bb_ante = level.bb_ante

    def race(self, state: DirectorState) -> TableReport | None:
        """A color-up the table has not raced for: the chip race from the shoe (the core rules it by the
        profile: WFP 6, UPT 11, RPL 10), reported to the director; None when there is none to run."""
        assert self.bot is not None and self.bot._core is not None and self.follower is not None
        race = state.race
        if race is None or race.n <= self.raced:
            return None
        self.raced = race.n
        start = self.stacks()
        try:
            scripted = self.bot.race(t=self.t + 1.0, chip=race.chip, to=race.to)
        except ValueError:  # the table took no race (no odd chips of that colour here): the event changed nothing
            return None
        self.sessions[-1].extend(scripted.events)
        self.t = max(self.t, scripted.t_end)
        end = self.stacks()
        self.follower.snapshot(self.bot._core.snapshot())
        if end == start:
            return None
        return self.follower.race_report(race=race.n, t=self.t, start=start, end=end)

    def _feed(self, events: list[Any]) -> None:
        """The daemon's queue: the events into the core, then the snapshot the table side sees."""
        assert self.bot is not None and self.bot._core is not None and self.follower is not None
        core = self.bot._core
        for _ in range(3):
            if not events:
                return
            for event in events:
                core.feed(event)
            self.sessions[-1].extend(events)
            self.t = max(self.t, core.t)
            self.bot.seats = tuple(v.seat for v in core.snapshot().seats if v.state is not PlayerState.EMPTY)
            events = list(self.follower.snapshot(core.snapshot())[0])
        raise AssertionError(f"{self.id}: the table side keeps asking for {events}")

    def stacks(self) -> dict[int, int]:
        assert self.bot is not None and self.bot._core is not None
        return {v.seat: v.stack or 0 for v in self.bot._core.snapshot().seats
                if v.state is not PlayerState.EMPTY}

    def play(self) -> TableReport:
        """Deal one hand; the table side's report of it."""
        assert self.bot is not None and self.bot._core is not None and self.follower is not None
        hand = self.bot.hand(t=self.t + 1.0)
        self.sessions[-1].extend(hand.events)
        self.t = hand.t_end
        events, reports = self.follower.snapshot(self.bot._core.snapshot())
        self.hands += 1
        if len(reports) != 1 or events:
            raise AssertionError(f"{self.id}: the table side made {len(reports)} reports and {events} of one hand")
        return reports[0]


@dataclass
class SimResult:
    hands: int = 0
    seconds: float = 0.0
    winner: str = ""
    chip_checks: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    sim_minutes: float = 0.0
    races: int = 0  # chip races run at color-ups
    sessions: list[list[Any]] = field(default_factory=list)  # each simulated table's events, one list a setup
    slow_broker: str = ""  # why the director's answers were slow, when they were


class _Inbox:
    """The latest director state the simulated tables have read from the broker."""

    def __init__(self) -> None:
        self.state: DirectorState | None = None
        self.changed = threading.Condition()
        self.refused = 0

    def feed(self, topic: str, payload: bytes, _now: float = 0.0) -> None:
        try:
            state = decode_director(topic, payload)
        except BadMessage:
            self.refused += 1
            return
        with self.changed:
            if newer(state, self.state):
                self.state = state
                self.changed.notify_all()

    def wait(self, ready: Any, timeout: float) -> DirectorState:
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.state is None or not ready(self.state):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the director's state did not come through the broker in time")
                self.changed.wait(left)
            return self.state


def no_delay(client: Any) -> None:
    """Turn Nagle's algorithm off on a connected paho client: the tables and the director wait on each other's
    small messages, and with it each round trip waits for the peer's delayed acknowledgement (~40 ms)."""
    sock = client.socket()
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def run_tables(broker: BrokerConfig, *, room: str, profile: Profile, decks: tuple[Any, Any], tables: Sequence[str],
               seed: int, entrants: int, max_hands: int = 100_000, timeout: float = 30.0,
               client_id: str = "tables.sim", log: Any = None, director_session: str | None = None,
               speed: float = 0.0, between: Any = None) -> SimResult:
    """Deal the tables until the director names a winner (the director runs elsewhere, on the same broker).

    `speed` paces the tables: X times real time (a hand that takes 90 s at a table takes 90/X s here; 0: as fast
    as they can). After the first hands the director's answer time is looked at: a broker that leaves Nagle's
    algorithm on (no `set_tcp_nodelay`) makes each answer wait ~40 ms, and the log says so.

    `between(hands, state)` (optional) is the director's desk between two hands (registrations, rebuys, add-ons,
    a deal): it returns how many actions the director's state must list before the tables deal on (0: none)."""
    from firmware_py.room.mqtt import connect_first, connect_properties, make_client  # noqa: PLC0415

    inbox = _Inbox()
    client = make_client(broker, client_id=client_id)
    connected = threading.Event()

    def on_connect(c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if not reason.is_failure:
            no_delay(c)
            c.subscribe(director_topic(room), qos=1)
            connected.set()

    client.on_connect = on_connect
    client.on_message = lambda _c, _u, m: inbox.feed(m.topic, m.payload)
    connect_first(client, broker, answered=connected, refused=lambda: "", deadline=time.monotonic() + timeout,
                  clean_start=True, properties=connect_properties())
    rng = random.Random(seed)
    session = f"sim{time.time_ns():x}"
    sims = {t: SimTable(id=t, room=room, profile=profile, decks=decks, rng=random.Random(rng.random()),
                        session=session) for t in tables}
    result = SimResult()
    answers: list[float] = []
    started = time.monotonic()
    try:
        # the director's own state, not one a former run left retained on the broker
        state = inbox.wait(lambda s: director_session is None or s.session == director_session, timeout)
        total = sum(s.chips for t in state.tables for s in t.seats)
        turn = 0
        while not state.winner and result.hands < max_hands:
            wanted = between(result.hands, state) if between is not None else 0
            if wanted:
                state = inbox.wait(lambda s, n=wanted: len(s.entries) >= n, timeout)
            open_tables = [t for t in state.tables if t.table in sims and len(t.seats) >= 2]
            if not open_tables:
                raise AssertionError("no table can deal and no winner")
            table = open_tables[turn % len(open_tables)]
            turn += 1
            sim = sims[table.table]
            sim.sync(table, state)
            race = sim.race(state)
            if race is not None:  # the color-up's race first: its chips are the director's before the deal
                client.publish(report_topic(room, sim.id), encode(race, TableReport), qos=1)
                state = inbox.wait(lambda s, r=race: any(t.table == r.table and t.session == r.session
                                                         and t.acked >= r.seq for t in s.tables), timeout)
                total += sum(x.chips for x in race.end) - sum(x.chips for x in race.start)
                result.races += 1
                table = next(t for t in state.tables if t.table == sim.id)
                sim.sync(table, state)
            if sim.stacks() != {s.seat: s.chips for s in table.seats}:
                raise ChipsNotConserved(f"{sim.id}: the table's stacks {sim.stacks()} are not the director's")
            began, sim_began = time.monotonic(), sim.t
            report = sim.play()
            client.publish(report_topic(room, sim.id), encode(report, TableReport), qos=1)
            result.hands += 1
            sent = time.monotonic()
            state = inbox.wait(lambda s, r=report: any(t.table == r.table and t.session == r.session
                                                                and t.acked >= r.seq for t in s.tables)
                               or r.table not in {t.table for t in s.tables} or bool(s.winner), timeout)
            answers.append(time.monotonic() - sent)
            if len(answers) == SLOW_SAMPLE:
                slow = sorted(answers)[SLOW_SAMPLE // 2]
                if slow >= SLOW_ANSWER_S:
                    say = (f"the director's answers through the broker take {slow * 1000:.0f} ms (median of "
                           f"{SLOW_SAMPLE}): the broker leaves Nagle's algorithm on (mosquitto.conf `set_tcp_nodelay "
                           "true`, as config/room/mosquitto.conf ships it, is missing or unknown to it); the "
                           "simulation runs several times slower")
                    (log or logger.warning)(say)
                    result.slow_broker = say
            if speed > 0:
                rest = (sim.t - sim_began) / speed - (time.monotonic() - began)
                if rest > 0:
                    time.sleep(rest)
            room_chips = sum(s.chips for t in state.tables for s in t.seats)
            result.chip_checks += 1
            # chips that came in at the director's desk: entries' starting stacks, rebuys and add-ons
            bought = sum(e.chips for e in state.entries if not e.undone and not e.alternate)
            if room_chips != total + bought or state.chips_in_play != total + bought:
                raise ChipsNotConserved(f"after {sim.id} hand {report.hand}: {room_chips} chips in the room, "
                                        f"{total} at the start and {bought} bought since")
            if log is not None and result.hands % 100 == 0:
                log(f"{result.hands} hands, {state.remaining} players on {len(state.tables)} tables, level "
                    f"{state.level.number} ({state.level.small}/{state.level.big})")
        result.winner = state.winner
        result.sessions = [session for sim in sims.values() for session in sim.sessions]
        result.sim_minutes = max(s.t for s in sims.values()) / 60.0
        for d in state.decisions:
            result.decisions[d.kind] = result.decisions.get(d.kind, 0) + 1
    finally:
        client.disconnect()
        client.loop_stop()
        result.seconds = time.monotonic() - started
    del entrants
    return result


def simulate_room(director: Any, broker: BrokerConfig, *, room: str, profile: Profile, decks: tuple[Any, Any],
                  seed: int, max_hands: int = 100_000, timeout: float = 30.0, log: Any = None,
                  director_client_id: str = "director.sim", tables_client_id: str = "tables.sim",
                  speed: float = 0.0, between: Any = None) -> SimResult:
    """The director (a firmware_py.room.director.Director, on its own broker connection, as the `tournament`
    command runs it) and the simulated tables, through `broker`, to one winner."""
    from firmware_py.room.subscriber import RoomSubscriber  # noqa: PLC0415
    from firmware_py.room.tournament_messages import DirectorState  # noqa: PLC0415

    subscriber = RoomSubscriber(broker, [report_topic(room, "+")], client_id=director_client_id,
                                on_message=director.feed)

    def publish(state: DirectorState) -> None:
        subscriber.client.publish(director_topic(room), encode(state, DirectorState), qos=1, retain=True)

    director.on_change = publish
    subscriber.start(deadline=time.monotonic() + timeout)
    no_delay(subscriber.client)
    try:
        publish(director.state())
        return run_tables(broker, room=room, profile=profile, decks=decks, tables=list(director.tournament.tables),
                          seed=seed, entrants=director.tournament.entrants, max_hands=max_hands, timeout=timeout,
                          client_id=tables_client_id, log=log, director_session=director.session, speed=speed,
                          between=between)
    finally:
        director.on_change = None
        subscriber.stop()
