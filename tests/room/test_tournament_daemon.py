"""The table side of a tournament in the real daemon (`python -m firmware_py run --simulate` with
`[room] tournament = true`) against a real Mosquitto and the real director (firmware_py.room.director on its own
broker connection, as the `tournament` command serves it). Table t01 is the daemon; table t02 is this test,
reporting through the schema as a table does.

It checks what a table in a tournament must do: take its level from the director from the next deal (WFP
Tournament 5), report its stacks after each hand, have a player eliminated (the director's decision, the seat
journaled out), take a player moved in, and follow the bubble (wfp-dealer "All In / Bubble"): hand-for-hand,
and a hold on its next deal while an all in is called at t02, shown in its `state` topic (what the venue screen
shows), released when t02's hand is over. Every wait is on a message, never on a sleep.

It runs twice: on a plain Mosquitto, and on the room's broker as shipped (TLS, a password per user, the
shipped ACL and the client-id plugin), where the table's tournament connection is its own user's, the director
the `director` user and t02 its own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_py.core import Button, ButtonName, Level, Name, Race, Seat, SeatStatus, Setup, Stacks
from firmware_py.core.engine import TableCore
from firmware_py.daemon.app import journal_events
from firmware_py.daemon.journal import Journal
from firmware_py.profiles import load_profiles
from firmware_py.room.director import Director
from firmware_py.room.room_config import BrokerConfig
from firmware_py.room.subscriber import RoomSubscriber
from firmware_py.room.tournament_messages import (
    DirectorState,
    SeatStack,
    TableReport,
    decode_report,
    director_topic,
    encode,
    report_topic,
)
from firmware_py.tournament import Tournament, book_for, parse_structure
from tests.room.conftest import ROOT, broker_config
from tests.room.services import ACL_FILE, Mosquitto, simulated_table_file
from tests.room.test_tournament_acl import ROOM_USERS

WAIT_S = 120.0  # generous: CI runs under load; every wait ends as soon as its message is there

STRUCTURE = """
[structure]
name = "test-turbo"
source = "a test: short levels, so the level changes within a few hands"
starting_stack = 1000

[[steps]]
small = 25
big = 50
minutes = 1

[[steps]]
small = 50
big = 100
minutes = 1

[[steps]]
color_up = 25
to = 100

[[steps]]
small = 100
big = 200
minutes = 1

[[steps]]
small = 200
big = 400
minutes = 60
"""


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["SDL_VIDEODRIVER"] = "dummy"
    return env


class Room:
    """The director on the broker (reports in, its retained state out, as the `director` user), the floor reading
    t01's `state` topic, and table t02's connection (the test plays t02); a record of every message."""

    def __init__(self, broker: Mosquitto, director: Director) -> None:
        self.director = director
        self.lock = threading.Condition()
        self.reports: list[TableReport] = []
        self.states: list[dict[str, Any]] = []  # t01's `state` topic
        self.subscriber = RoomSubscriber(user_config(broker, "director"),
                                         [report_topic("main", "+"), director_topic("main")],
                                         client_id="director.test", on_message=self._director_feed)
        self.floor = RoomSubscriber(user_config(broker, "floor"), ["pokertable/main/t01/state"],
                                    client_id="floor.test", on_message=self._state)
        self.t02 = RoomSubscriber(user_config(broker, "t02"), [director_topic("main")], client_id="t02.test",
                                  on_message=lambda *_a: None)

    def _director_feed(self, topic: str, payload: bytes, *_rest: Any) -> None:
        self.director.feed(topic, payload)
        if topic != director_topic("main"):
            with self.lock:
                self.reports.append(decode_report(topic, payload))
                self.lock.notify_all()

    def _state(self, _topic: str, payload: bytes, *_rest: Any) -> None:
        with self.lock:
            self.states.append(json.loads(payload))
            self.lock.notify_all()

    def start(self) -> None:
        def publish(state: DirectorState) -> None:
            self.subscriber.client.publish(director_topic("main"), encode(state, DirectorState), qos=1, retain=True)

        for client in (self.floor, self.t02, self.subscriber):
            client.start(deadline=time.monotonic() + 15)
            assert client.subscribed.wait(15)
        self.director.on_change = publish
        publish(self.director.state())

    def stop(self) -> None:
        self.director.on_change = None
        for client in (self.subscriber, self.floor, self.t02):
            client.stop()

    def wait(self, what: str, predicate: Any, timeout: float = WAIT_S) -> Any:
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                found = predicate()
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}")
                self.lock.wait(min(left, 1.0))

    def hands(self, table: str = "t01") -> list[TableReport]:
        return [r for r in self.reports if r.table == table and r.kind == "hand"]

    def t01_state(self) -> dict[str, Any]:
        return self.states[-1] if self.states else {}


class TableTwo:
    """Table t02, played by the test: each hand reported through the schema (the director's chips, unchanged)."""

    def __init__(self, room: Room) -> None:
        self.room, self.seq, self.hand = room, 0, 0
        self.client = room.t02.client

    def report(self, kind: str) -> TableReport:
        state = self.room.director.state()
        entry = next(t for t in state.tables if t.table == "t02")
        chips = [SeatStack(seat=s.seat, chips=s.chips) for s in entry.seats]
        self.seq += 1
        if kind == "hand":
            self.hand += 1
        seats = [s.seat for s in entry.seats]
        report = TableReport(v=1, room="main", table="t02", session="t02-test", seq=self.seq, kind=kind,  # type: ignore[arg-type]
                             hand=max(self.hand, 1), t=1.0, draw=entry.draw,
                             button=seats[0] if kind == "hand" else None,
                             big_blind=seats[2 % len(seats)] if kind == "hand" else None,
                             start=chips if kind == "hand" else [], end=chips if kind == "hand" else [])
        self.client.publish(report_topic("main", "t02"), encode(report, TableReport), qos=1)
        return report


def reports_button_first(report: TableReport, button: int | None) -> bool:
    """The first hand was dealt with the drawn button (the report names the hand's button)."""
    return button is not None and report.button == button


def user_config(server: Mosquitto, user: str) -> BrokerConfig:
    """The broker as `user` sees it: anonymous on the plain broker, else TLS with the user's password."""
    if not server.users:
        return broker_config(server)
    password_file = server.directory / f"{user}.password"
    password_file.write_text(ROOM_USERS[user])
    plain = broker_config(server)
    return BrokerConfig(host=plain.host, port=plain.port, tls=True, ca_file=plain.ca_file, username=user,
                        password_file=password_file)


def room_section(server: Mosquitto) -> str:
    """t01's `[room]` section: on the room's broker, TLS with its CA and its password (the shipped ACL applies)."""
    section = f"""
[room]
room = "main"
table = "t01"
broker = "127.0.0.1"
port = {server.port}
heartbeat_s = 1
tournament = true
"""
    if server.users:
        config = user_config(server, "t01")
        section += f'tls = true\nca_file = "{config.ca_file}"\npassword_file = "{config.password_file}"\n'
    return section


@pytest.fixture(params=["plain", "room"])
def tournament_broker(request: pytest.FixtureRequest, tmp_path: Path, mosquitto_installed: None) -> Iterator[Mosquitto]:
    """A plain Mosquitto, and the room's as shipped (TLS, passwords, config/room/acl, the client-id plugin)."""
    if request.param == "plain":
        server = Mosquitto(tmp_path / "mosquitto").start()
    else:
        guard = request.getfixturevalue("guard_plugin")
        server = Mosquitto(tmp_path / "mosquitto-tls", tls=True, users=ROOM_USERS, acl=ACL_FILE, guard=guard).start()
    yield server
    server.stop()


def test_a_real_daemon_follows_the_director_levels_stacks_eliminations_and_the_bubble(
        tmp_path: Path, tournament_broker: Mosquitto) -> None:
    broker = tournament_broker
    structure = parse_structure(STRUCTURE, "test-turbo")
    tournament = Tournament(book=book_for("wfp"), tables=["t01", "t02"], capacity=9,
                            entrants=[(f"p{i:02d}", f"Player {i}") for i in range(1, 19)],
                            stack=structure.starting_stack, seed=3)
    director = Director(room="main", tournament=tournament, structure=structure, sim_clock=True)
    room = Room(broker, director)
    drawn = next(t for t in director.state().tables if t.table == "t01")  # the seat draw and the button drawn
    room.start()
    t02 = TableTwo(room)
    config = simulated_table_file(tmp_path, "t01", seats=9, room=room_section(broker))
    journal = tmp_path / "t01.sqlite3"
    log = tmp_path / "t01.log"
    with log.open("w") as err:
        process = subprocess.Popen([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                                    "--hands", "2000", "--seed", "5", "--error-rate", "0", "--config", str(config),
                                    "--journal", str(journal)], cwd=ROOT, env=environment(),
                                   stdout=err, stderr=subprocess.STDOUT)
    try:
        # -- levels, reports and eliminations ----------------------------------------------------------------
        room.wait("two players eliminated at t01 and a level change",
                  lambda: sum(1 for d in director.decisions if d.kind == "eliminated" and "t01" in d.tables) >= 2
                  and director.state().level.number >= 3)
        assert process.poll() is None, log.read_text()[-3000:]
        moved_in = [d for d in director.decisions if d.kind == "moved" and d.tables[-1] == "t01"]
        # -- hand-for-hand: t01 plays one hand, then waits for t02 ---------------------------------------------
        director.hand_for_hand(True)
        room.wait("t01 told it is hand-for-hand", lambda: (room.t01_state().get("tournament") or {}).get(
            "hand_for_hand"))
        held = room.wait("t01 holding after its hand-for-hand hand", lambda: "every table has finished" in (
            room.t01_state().get("tournament") or {}).get("hold", ""))
        assert held
        last = room.hands()[-1].hand
        # -- the bubble's hold: an all in called at t02 holds t01's next deal ------------------------------------
        t02.report("all_in")
        room.wait("t01 told to hold for the all in at t02", lambda: "all in called at table t02" in (
            room.t01_state().get("tournament") or {}).get("hold", ""))
        state = room.t01_state()["tournament"]
        assert state["hold_rule"].startswith("wfp-dealer, All In / Bubble")
        assert state["all_in"] == ["t02"]
        with room.lock:
            before_release = len(room.reports)
        t02.report("hand")  # t02's hand is over: the hold is released, and the hand-for-hand round is complete
        room.wait("t01's next hand after the release", lambda: room.hands()[-1].hand > last)
        with room.lock:
            assert all(r.hand <= last for r in room.reports[:before_release] if r.table == "t01" and r.kind == "hand")
        room.wait("t01's hold released", lambda: "all in" not in (room.t01_state().get("tournament") or {}).get(
            "hold", "x"))
        director.hand_for_hand(False)
        room.wait("t01 told hand-for-hand is over", lambda: (room.t01_state().get("tournament") or {}).get(
            "hand_for_hand") is False)
        count = len(room.hands())
        room.wait("t01 dealing on without a hold", lambda: len(room.hands()) >= count + 2)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
        room.stop()
    text = log.read_text()
    assert process.returncode == 0, text[-3000:]
    assert "Traceback" not in text, text[-3000:]

    # -- what the daemon journaled, replayed ----------------------------------------------------------------------
    profiles = load_profiles(ROOT / "config" / "profiles")
    with Journal.open(journal) as opened:
        events = journal_events(opened, base_dir=ROOT / "config")
    core = TableCore(profiles)
    levels_at_deal: list[tuple[int, int]] = []
    level_events: list[Level] = []
    out_seats: set[int] = set()
    for event in events:
        if isinstance(event, Level | Seat | Stacks):  # the table side's events: only ever between hands
            assert core.snapshot().phase in ("idle", "misdealt"), (event, core.snapshot().phase)
        if isinstance(event, Level):
            level_events.append(event)
        if isinstance(event, Seat) and event.status is SeatStatus.OUT:
            out_seats.add(event.seat)
        try:
            core.feed(event)
        except ValueError:
            continue
        if isinstance(event, Button) and event.name is ButtonName.NEW_HAND and core.level is not None:
            levels_at_deal.append((core.level.small, core.level.big))
    setups = [e for e in events if isinstance(e, Setup)]
    # the table file's setup, then the director's: its seats and the button it drew (WFP 3), not seat 1
    assert setups[1].seats == tuple(s.seat for s in drawn.seats) and setups[1].button == drawn.button
    assert reports_button_first(room.hands()[0], drawn.button)
    # the director's players by name, journaled as `name` events: the venue screen, tracker and PHH read these
    names = [e for e in events if isinstance(e, Name)]
    assert {e.seat: e.name for e in names[:len(drawn.seats)]} == {s.seat: s.name for s in drawn.seats}
    wanted = [(s.small, s.big) for s in structure.levels]
    seen = [(e.small, e.big) for e in level_events]
    assert seen == wanted[:len(seen)] and len(seen) >= 3, seen  # the director's levels, in order
    assert [lv for lv in wanted if lv in levels_at_deal][:3] == wanted[:3]  # each dealt from the next hand
    # every hand the table dealt was reported, with its stacks before and after
    reports = room.hands()
    numbers = [r.hand for r in reports]
    assert numbers == sorted(set(numbers)) and numbers[0] >= 1
    assert numbers[-1] - numbers[0] + 1 == len(numbers), "a hand was not reported"
    assert all(r.start and r.end for r in reports)
    eliminated = [d for d in director.decisions if d.kind == "eliminated" and "t01" in d.tables]
    assert len(eliminated) >= 2
    assert out_seats, "an eliminated player's seat is journaled out at the table"
    assert director.rejected == 0
    if moved_in:  # a player moved in from t02 sat down at the table with the director's chips
        assert any(isinstance(e, Stacks) and e.why == "moved" for e in events)
    # -- the chip race at the color-up (WFP 6): t01 ran it from the shoe before its next deal, and reported it ------
    races = [e for e in events if isinstance(e, Race)]
    assert [(e.chip, e.to) for e in races] == [(25, 100)], races
    core = TableCore(profiles)
    ruled: list[str] = []
    for event in events:
        try:
            ruled += [r.ruling for r in core.feed(event).rulings]
        except ValueError:
            continue
        if isinstance(event, Race):
            assert core.snapshot().phase in ("idle", "misdealt") and core.snapshot().race is not None
    assert "chip_race" in ruled
    with room.lock:
        raced = [r for r in room.reports if r.table == "t01" and r.kind == "race"]
    assert [r.race for r in raced] == [1]
    assert any(d.kind == "raced" and "t01" in d.tables for d in director.decisions)
    change = sum(e.chips for e in raced[0].end) - sum(e.chips for e in raced[0].start)  # odd chips are rounded
    assert sum(s.chips for t in director.state().tables for s in t.seats) == 18 * 1000 + change  # chips conserved
