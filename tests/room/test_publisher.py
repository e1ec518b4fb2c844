"""The table's publisher against a real Mosquitto: topics, retained venue-safe state, rulings with their
seq, hands in PHH, the Last Will, and an outage that loses nothing and reorders nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_py.core.engine import TableCore
from firmware_py.daemon.app import journal_events
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.table_config import load_table_config, parse_table_config
from firmware_py.errors import ConfigError
from firmware_py.profiles import load_profiles
from firmware_py.room.messages import venue_digest, venue_state
from firmware_py.room.publisher import RoomPublisher, journal_session
from tests.room.conftest import ROOT, Listener, RoomCollector, broker_config, table_file
from tests.room.services import Mosquitto, free_port

CARD_CHARS = set("23456789TJQKA")


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["SDL_VIDEODRIVER"] = "dummy"
    return env


def simulate(config: Path, journal: Path, *, hands: int, seed: int = 3, timeout: float = 120) -> str:
    result = subprocess.run([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                             "--hands", str(hands), "--seed", str(seed), "--error-rate", "0.5", "--config",
                             str(config), "--journal", str(journal)], cwd=ROOT, env=environment(),
                            capture_output=True, text=True, timeout=timeout, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def journal_truth(path: Path) -> tuple[set[tuple[int, int]], dict[str, object]]:
    """The (seq, n) of every ruling in the journal, and the venue state at its end, by replaying it."""
    profiles = load_profiles(ROOT / "config" / "profiles")
    with Journal.open(path) as journal:
        rows = [row.seq for row in journal.rows()]
        events = journal_events(journal, base_dir=ROOT / "config")
    core = TableCore(profiles)
    rulings = set()
    for seq, event in zip(rows, events, strict=True):
        try:
            outcome = core.feed(event)
        except ValueError:
            continue
        rulings |= {(seq, n) for n in range(len(outcome.rulings))}
    return rulings, venue_state(core.snapshot())


# -- the [room] section -----------------------------------------------------------------------------

def config_with(room: dict[str, object]) -> dict[str, object]:
    return {"table": {"profile": "robert", "seats": [1, 2], "button": 1, "decks": ["decks/test-red.json"],
                      "in_play": "test-red"}, "room": room}


def test_room_is_off_without_its_section() -> None:
    config = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    assert config.room is None


@pytest.mark.parametrize(("room", "message"), [
    ({"room": "main", "table": "t1", "heartbeat": 5}, "[room] heartbeat: unknown key (did you mean 'heartbeat_s'?)"),
    ({"room": "main", "table": "t/1"}, "[room] table: the id 't/1' may hold only letters"),
    ({"room": "main"}, "[room] table: is missing"),
    ({"room": "main", "table": "floor"}, "[room] table: 'floor' is reserved"),
    ({"room": "main", "table": "t1", "port": 0}, "[room] port: must be a TCP port"),
    ({"room": "main", "table": "t1", "ca_file": "table.toml"}, "[room] ca_file: is set but tls is false"),
    ({"room": "main", "table": "t1", "tls": True, "ca_file": "nope.crt"}, "[room] ca_file: no such file"),
    ({"room": "main", "table": "t1", "heartbeat_s": 0}, "[room] heartbeat_s: must be a number of seconds"),
    ({"room": "main", "table": "t1", "dealer": "Ana\nBen"}, "[room] dealer: must be a name of at most 200 characters"),
])
def test_a_bad_room_key_is_named_with_the_file(room: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_table_config(config_with(room), source="table.toml", base_dir=ROOT / "config", with_display=False)
    assert str(caught.value).startswith("table.toml: ")
    assert message in str(caught.value)


def test_a_bad_room_key_stops_run_with_a_message(tmp_path: Path) -> None:
    config = table_file(tmp_path, port=1883, extra="brokr = 'x'")
    result = subprocess.run([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--config",
                             str(config), "--journal", str(tmp_path / "j.sqlite3")], cwd=ROOT, env=environment(),
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "[room] brokr: unknown key (did you mean 'broker'?)" in result.stderr
    assert "Traceback" not in result.stderr


# -- a simulated table publishing ----------------------------------------------------------------------

def test_simulated_table_publishes_every_ruling_hand_and_its_state(tmp_path: Path, broker: Mosquitto) -> None:
    listener = Listener(broker_config(broker), "pokertable/#")
    assert listener.wait_connected()
    config = table_file(tmp_path, port=broker.port)
    journal = tmp_path / "table.sqlite3"
    simulate(config, journal, hands=12)
    rulings, final = journal_truth(journal)
    assert listener.wait_for(lambda: {(m["seq"], m["n"]) for m in listener.of("ruling")} >= rulings)
    listener.wait_for(lambda: any(m.get("reason") == "stopped" for m in listener.of("status")), timeout=10)
    listener.close()

    got = listener.of("ruling")
    assert {(m["seq"], m["n"]) for m in got} == rulings
    assert all(m["v"] == 1 and m["room"] == "main" and m["table"] == "t01" and m["dealer"] == "Dana" for m in got)
    assert all(m["ruling"]["rule"] and m["ruling"]["remedy"] for m in got)
    seqs = [(m["seq"], m["n"]) for m in got]
    assert seqs == sorted(seqs), "rulings arrive in journal order"

    states = listener.of("state")
    assert states[-1]["digest"] == final["digest"] == venue_digest(states[-1])
    for state in states:  # venue-safe: a count of cards per seat, never a card
        assert all(isinstance(seat["cards"], int) for seat in state["seats"])
        assert isinstance(state["burns"], int)
    hands = listener.of("hand")
    played = [h for h in hands if h["played"]]
    assert len(played) >= 8 and all("variant = 'NT'" in h["phh"] for h in played)
    broadcast = listener.of("broadcast")
    assert any(len(seat["cards"]) == 2 and seat["cards"][0][0] in CARD_CHARS
               for m in broadcast for seat in m["seats"])
    statuses = listener.of("status")
    assert statuses[0]["online"] is True and statuses[-1] == {**statuses[-1], "online": False, "reason": "stopped"}


def test_last_will_marks_a_killed_table_offline(tmp_path: Path, broker: Mosquitto) -> None:
    listener = Listener(broker_config(broker), "pokertable/+/+/status")
    assert listener.wait_connected()
    config = table_file(tmp_path, port=broker.port)
    process = subprocess.Popen([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                                "--hands", "500", "--speed", "5", "--config", str(config), "--journal",
                                str(tmp_path / "j.sqlite3")], cwd=ROOT, env=environment(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert listener.wait_for(lambda: any(m["online"] for m in listener.of("status")))
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        # The broker sends the will once the keepalive (15 s) runs out or at once on a reset socket.
        assert listener.wait_for(lambda: listener.of("status")[-1]["online"] is False, timeout=30)
        assert listener.of("status")[-1]["reason"] == "connection lost"
    finally:
        if process.poll() is None:
            process.kill()
        listener.close()


# -- an outage: the journal is the queue ---------------------------------------------------------------

def test_broker_outage_queues_in_the_journal_and_catches_up_in_order(tmp_path: Path, mosquitto_installed: None
                                                                     ) -> None:
    source = tmp_path / "source.sqlite3"
    simulate(table_file(tmp_path, port=free_port(), extra="broadcast = false").with_name("t01.toml"), source,
             hands=25)  # no broker there: the table runs on regardless
    rulings, final = journal_truth(source)
    with Journal.open(source) as journal:
        events = journal_events(journal, base_dir=ROOT / "config")

    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    listener = Listener(broker_config(broker), "pokertable/main/t01/ruling", "pokertable/main/t01/state",
                        client_id="outage-listener", persistent=True)
    assert listener.wait_connected()
    collector = RoomCollector(broker_config(broker), tmp_path / "archive.sqlite3")  # confirms what it stored
    assert collector.wait_subscribed()
    time.sleep(0.3)
    broker.stop()  # the listener's and the collector's sessions and subscriptions are kept across the restart

    config = load_table_config(table_file(tmp_path, port=broker.port), with_display=False)
    path = tmp_path / "live.sqlite3"
    journal = Journal.open(path)
    half = len(events) // 2

    def publisher() -> RoomPublisher:
        return RoomPublisher(config.room, journal_path=path, session=journal_session(journal),
                             profiles=config.profiles, base_dir=ROOT / "config")

    first = publisher()
    first.start()
    journal.append(events[:half])
    first.wake()
    time.sleep(1.0)
    assert first.published == 0  # nothing can go out: the events wait in the journal
    broker.start()
    assert listener.wait_for(lambda: any(m["seq"] >= half for m in listener.of("state")))
    assert listener.wait_for(lambda: first.marker.seq == half)  # the collector has confirmed all of it
    first.stop()  # stops like a crash would for the marker: it knows only what the archive confirmed
    marker = json.loads(path.with_name(path.name + ".room.json").read_text())
    assert marker["seq"] == half

    second = publisher()
    second.start()
    assert second.ready.wait(10)
    assert second.cursor == half  # resumes after the marker, replaying only into its own core
    broker.restart(down_s=0.5)  # a second outage while the rest comes in
    journal.append(events[half:])
    second.wake()
    assert listener.wait_for(lambda: {(m["seq"], m["n"]) for m in listener.of("ruling")} >= rulings, timeout=40)
    assert listener.wait_for(lambda: listener.of("state")[-1]["seq"] == len(events))
    assert listener.wait_for(lambda: second.marker.seq == len(events))
    second.stop()
    journal.close()
    listener.close()
    collector.stop()
    broker.stop()
    assert collector.collector.stats.rejected == 0

    got = [(m["seq"], m["n"]) for m in listener.of("ruling")]
    assert set(got) == rulings  # nothing lost
    deduped = list(dict.fromkeys(got))
    assert deduped == sorted(deduped)  # and in order, once duplicates (which carry the same seq) are dropped
    assert listener.of("state")[-1]["digest"] == final["digest"]


def test_a_tournament_names_the_seats_in_the_feed_and_phh_from_the_next_deal(tmp_path: Path) -> None:
    """The director's field names the players (a moved player arrives by name), not the table file; the names
    change where the journal seats players or deals the next hand, never under the hand being sent."""
    source = tmp_path / "source.sqlite3"
    simulate(table_file(tmp_path, port=free_port(), extra="broadcast = false"), source, hands=3)
    with Journal.open(source) as journal:
        lines = [row.line for row in journal.rows()]
    config = load_table_config(table_file(tmp_path, port=free_port()), with_display=False)
    publisher = RoomPublisher(config.room, journal_path=tmp_path / "live.sqlite3", session="s",
                              profiles=config.profiles, base_dir=ROOT / "config", names={1: "Seat one", 2: "Seat two"})
    new_hands = [n for n, line in enumerate(lines) if '"new_hand"' in line]
    first_deal, second_deal = new_hands[0], new_hands[1]
    for seq, line in enumerate(lines[:first_deal + 1], start=1):
        publisher._apply(seq, line, publish=False)
    publisher.rename({1: "Ana Weiss"})  # the director's state came during the first hand
    for seq, line in enumerate(lines[first_deal + 1:second_deal], start=first_deal + 2):
        publisher._apply(seq, line, publish=False)
    assert publisher.names == {1: "Seat one", 2: "Seat two"}  # the first hand is still named as it was dealt
    assert publisher.feed.name(1) == "Seat one"
    publisher._apply(second_deal + 1, lines[second_deal], publish=False)
    assert publisher.names == {1: "Ana Weiss", 2: "Seat two"}  # the director's name, the file's where it has none
    assert publisher.feed.name(1) == "Ana Weiss"
