"""The collector: every ruling and every finished hand into PostgreSQL (a real server) or SQLite, once each,
however often the broker delivers them and however often the collector is killed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_py.room.collector import Collector, PostgresStore, SQLiteStore, hand_row, open_store
from firmware_py.room.messages import decode
from tests.room.conftest import ROOT, Listener, broker_config, table_file
from tests.room.samples import message
from tests.room.services import Mosquitto, Postgres, wait_subscribed
from tests.room.test_publisher import environment, journal_truth, simulate
from tests.room.truth import journal_truth as journal_hands_truth


def message_log(tmp_path: Path, server: Mosquitto) -> list[tuple[str, dict[str, Any]]]:
    listener = Listener(broker_config(server), "pokertable/+/+/ruling", "pokertable/+/+/hand", client_id="log")
    assert listener.wait_connected()
    journal = tmp_path / "t01.sqlite3"
    simulate(table_file(tmp_path, port=server.port), journal, hands=10)
    rulings, _final = journal_truth(journal)
    assert listener.wait_for(lambda: len(listener.of("ruling")) >= len(rulings))
    time.sleep(0.5)
    listener.close()
    return [(name, body) for name, body, _r in listener.messages if isinstance(body, dict)]


def store_twice(store: SQLiteStore | PostgresStore, messages: list[tuple[str, dict[str, Any]]]) -> Collector:
    collector = Collector(store)
    collector.start()
    for name, body in messages + messages[::-1]:  # everything twice, the second time backwards
        collector.offer(name, body)
    collector.stop()
    return collector


def test_sqlite_store_keeps_each_ruling_and_hand_once(tmp_path: Path, broker: Mosquitto) -> None:
    messages = message_log(tmp_path, broker)
    store = open_store(str(tmp_path / "room.sqlite3"))
    collector = store_twice(store, messages)
    assert collector.stats.inserted == len(messages) and collector.stats.duplicates == len(messages)
    rulings = store.query("SELECT count(*), count(DISTINCT seq || '.' || n) FROM rulings")[0]
    hands = store.query("SELECT count(*), sum(played), sum(phh IS NOT NULL) FROM hands")[0]
    assert rulings[0] == rulings[1] == sum(1 for n, _b in messages if n.endswith("/ruling"))
    assert hands[0] == 10 and hands[1] == hands[2]


def test_postgres_store_keeps_each_ruling_and_hand_once(tmp_path: Path, broker: Mosquitto,
                                                        postgres_server: Postgres) -> None:
    messages = message_log(tmp_path, broker)
    store = open_store(postgres_server.url)
    assert isinstance(store, PostgresStore)
    store.query("SELECT 1")
    with store.db.transaction():
        store.db.execute("TRUNCATE rulings, hands")
    collector = store_twice(store, messages)
    assert collector.stats.inserted == len(messages) and collector.stats.duplicates == len(messages)
    assert store.query("SELECT count(*) FROM rulings")[0][0] == sum(1 for n, _b in messages if n.endswith("/ruling"))
    phh = store.query("SELECT phh FROM hands WHERE played ORDER BY seq LIMIT 1")[0][0]
    assert "variant = 'NT'" in phh
    # A bad message into PostgreSQL's quarantine, its bytes as they came, and the archive's count past it.
    name, body = next((n, b) for n, b in messages if n.endswith("/hand"))
    bad = json.dumps({**body, "played": "yes"}).encode()
    collector = Collector(store)
    collector.start()
    collector.offer(name, bad)
    collector.stop()
    assert store.query("SELECT payload, reason FROM dead_letters")[0] == (bad, "Expected `bool`, got `str` - at "
                                                                               "`$.played`")
    key = ("main", "t01", body["session"])
    stored = store.query("SELECT (SELECT count(*) FROM rulings) + (SELECT count(*) FROM hands)")[0][0]
    assert collector.heads[key][0] == stored  # every ruling and hand of the session, 1 to n, without a gap
    store.close()


def collect_command(server: Mosquitto, db: str, log: Path) -> subprocess.Popen[str]:
    """The collect command, its log (stdout) to `log`, once it has subscribed."""
    process = subprocess.Popen([sys.executable, "-m", "firmware_py", "collect", "--room", "main", "--broker",
                                f"127.0.0.1:{server.port}", "--db", db], cwd=ROOT, env=environment(),
                               stdout=log.open("w"), stderr=subprocess.PIPE, text=True)
    wait_subscribed(process, log)  # the broker keeps its session from here on
    return process


def test_collect_command_killed_and_restarted_misses_nothing_and_doubles_nothing(
        tmp_path: Path, broker: Mosquitto, postgres_server: Postgres) -> None:
    store = open_store(postgres_server.url)
    with store.db.transaction():
        store.db.execute("TRUNCATE rulings, hands")
    collector = collect_command(broker, postgres_server.url, tmp_path / "collect-1.out")
    journal = tmp_path / "t01.sqlite3"
    table = subprocess.Popen([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                              "--hands", "30", "--seed", "9", "--error-rate", "0.5", "--speed", "60", "--config",
                              str(table_file(tmp_path, port=broker.port)), "--journal", str(journal)],
                             cwd=ROOT, env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(3.0)
    collector.send_signal(signal.SIGKILL)  # mid-session: some messages delivered, not acknowledged
    collector.wait(10)
    time.sleep(2.0)
    collector = collect_command(broker, postgres_server.url, tmp_path / "collect-2.out")
    assert table.wait(180) == 0, table.stderr.read() if table.stderr else ""
    rulings, _final = journal_truth(journal)
    hands = journal_hands_truth(journal).hands  # the seq of the event that ended each hand
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if store.query("SELECT count(*) FROM hands")[0][0] >= len(hands):
            break
        time.sleep(0.3)
    time.sleep(1.0)
    collector.send_signal(signal.SIGTERM)
    _, err = collector.communicate(timeout=30)
    assert collector.returncode == 0, err
    assert "stored" in (tmp_path / "collect-2.out").read_text()
    stored = store.query("SELECT seq, n FROM rulings")
    assert len(stored) == len(set(stored)) and set(stored) == rulings
    assert {row[0] for row in store.query("SELECT seq FROM hands")} == hands
    store.close()


@pytest.mark.parametrize("argv, message", [
    (["--room", "main", "--db", "postgresql://nobody@127.0.0.1:1/none"], "cannot connect to the database"),
    (["--room", "main", "--db", "/proc/nope/room.sqlite3"], "cannot open the collector's database"),
    (["--room", "a/b"], "--room 'a/b' may hold only letters"),
    (["--room", "main", "--client-id", "t01.main"], "accepts user 'collector' only with the id 'collector' or "
                                                    "collector.<anything>"),
])
def test_collect_command_bad_options_are_named(argv: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-m", "firmware_py", "collect", *argv], cwd=ROOT, env=environment(),
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def _hand(seq: int, **fields: Any) -> tuple[str, dict[str, Any]]:
    return ("pokertable/main/t01/hand", message("hand", "t01", seq, session="s1", hand=seq, t=1.0, dealer="Ada",
                                                rulings=[], **fields))


def test_the_collector_stores_why_a_played_hand_has_no_phh(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "room.sqlite3"))
    collector = Collector(store)
    collector.start()
    for name, body in (_hand(1, played=True, phh="variant = 'NT'\n", phh_problem=None),
                       _hand(2, played=True, phh=None, phh_problem="seat 2 checked on the preflop facing a bet"),
                       _hand(3, played=False, phh=None, phh_problem=None)):
        collector.offer(name, body)
    collector.stop()
    assert store.query("SELECT hand, phh IS NOT NULL, phh_problem FROM hands ORDER BY hand") == [
        (1, 1, None), (2, 0, "seat 2 checked on the preflop facing a bet"), (3, 0, None)]
    store.close()


def test_a_collector_database_made_before_gets_the_phh_problem_and_idx_columns(tmp_path: Path) -> None:
    import sqlite3  # noqa: PLC0415

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.execute("""CREATE TABLE hands (room TEXT NOT NULL, table_id TEXT NOT NULL, session TEXT NOT NULL,
        seq BIGINT NOT NULL, hand INTEGER NOT NULL, t DOUBLE PRECISION, dealer TEXT NOT NULL, played BOOLEAN NOT NULL,
        phh TEXT, rulings TEXT NOT NULL, PRIMARY KEY (room, table_id, session, seq))""")
    old.execute("INSERT INTO hands VALUES ('main', 't01', 's0', 1, 1, 1.0, 'Ada', 1, 'variant', '[]')")
    old.commit()
    old.close()
    store = open_store(str(path))
    name, body = _hand(2, played=True, phh=None, phh_problem="odd chips")
    store.write([], [hand_row(decode(name, body))])
    assert store.query("SELECT seq, phh_problem, idx FROM hands ORDER BY seq") == [(1, None, None), (2, "odd chips", 2)]
    store.close()
