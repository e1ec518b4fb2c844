"""Quotas against one table's password (issue 34), on a real Mosquitto as the room ships it (TLS, passwords,
config/room/acl, config/room/mosquitto.conf, the client-id plugin):

- the quarantine: t01 floods the collector with messages that fail the schema (distinct, large, repeated);
  `dead_letters` keeps at most DEAD_LETTER_ROWS rows and DEAD_LETTER_BYTES bytes of t01, each message once,
  counts the rest in `dead_letter_drops`, and t02's own quarantine and rulings are untouched (805 MB in 60 s
  before);
- the broadcast: t02 floods its broadcast topic while t01 is on air; t01's picture stays within a second of
  its delay and the process's memory bounded (a busy table off the air held the one on air 24 s late before).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from firmware_py.room.collector import DEAD_LETTER_BYTES, DEAD_LETTER_ROWS
from tests.overlay.test_production_room import get, pair_from_log
from tests.room.conftest import ROOT, USERS, RoomCollector, broker_config
from tests.room.samples import message
from tests.room.services import Mosquitto, free_port
from tests.room.test_publisher import environment
from tests.room.test_security import publisher


def test_one_tables_flood_fills_only_its_bounded_share_of_the_quarantine(secure_broker: Mosquitto,
                                                                         tmp_path: Path) -> None:
    db = tmp_path / "archive.sqlite3"
    collector = RoomCollector(broker_config(secure_broker, "collector"), db)
    assert collector.wait_subscribed()
    flood, acks = publisher(secure_broker, "t01", "t01.flood")
    other, other_acks = publisher(secure_broker, "t02", "t02.table")
    try:
        big = [json.dumps({"v": 1, "n": n, "junk": "x" * 200_000}).encode() for n in range(120)]  # 24 MB
        small = [json.dumps({"v": 1, "n": n}).encode() for n in range(DEAD_LETTER_ROWS + 200)]
        sent = 0
        for payload in [*big, *small, *small[:300]]:  # the last 300: repeats
            flood.publish("pokertable/main/t01/ruling", payload, qos=1)
            sent += 1
            if sent % 200 == 0:  # at the pace the broker takes them (paho would queue the rest in memory)
                deadline = time.monotonic() + 60
                while len(acks) < sent and time.monotonic() < deadline:
                    time.sleep(0.01)
        other.publish("pokertable/main/t02/ruling", b'{"v": 1, "broken": true}', qos=1)
        other.publish("pokertable/main/t02/ruling", json.dumps(message(
            "ruling", "t02", 1, ruling={"t": 1.0, "ruling": "misdeal", "rule": "robert: Misdeals 1(a)",
                                        "remedy": "Redeal."})).encode(), qos=1)
        total = sent + 2
        deadline = time.monotonic() + 120
        while collector.collector.stats.received < total and time.monotonic() < deadline:
            time.sleep(0.1)
        assert collector.collector.stats.received == total
        assert set(acks.values()) == {"Success"} and len(other_acks) == 2
    finally:
        for client in (flood, other):
            client.disconnect()
            client.loop_stop()
        collector.stop()
    with sqlite3.connect(db) as archive:
        rows, size = archive.execute("SELECT count(*), sum(length(payload) + length(topic) + length(reason)) "
                                     "FROM dead_letters WHERE table_id = 't01'").fetchone()
        assert rows <= DEAD_LETTER_ROWS and size <= DEAD_LETTER_BYTES
        assert archive.execute("SELECT count(*), count(DISTINCT digest) FROM dead_letters WHERE table_id = 't01'"
                               ).fetchone() == (rows, rows)  # each message once
        dropped, repeats, reason = archive.execute(
            "SELECT dropped, repeats, last_reason FROM dead_letter_drops WHERE table_id = 't01'").fetchone()
        assert rows + dropped + repeats == sent and repeats >= 300 and dropped > 0
        assert "bounds" in reason or "repeat" in reason
        # t02: its own bad message quarantined, its ruling stored, nothing dropped.
        assert archive.execute("SELECT count(*) FROM dead_letters WHERE table_id = 't02'").fetchone() == (1,)
        assert archive.execute("SELECT count(*) FROM rulings WHERE table_id = 't02'").fetchone() == (1,)
        assert archive.execute("SELECT count(*) FROM dead_letter_drops WHERE table_id = 't02'").fetchone() == (0,)
    assert db.stat().st_size < 2 * DEAD_LETTER_BYTES


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


DEALS = [[["Ah", "Kd"], ["7c", "7d"], ["Qs", "Js"], ["2h", "3h"], ["9c", "Tc"], ["5d", "5s"], ["Kc", "Qc"],
          ["8h", "8s"], ["4c", "6c"]]]


def broadcast_message(table: str, seq: int, cards: list[list[str]]) -> bytes:
    seats = [{"seat": n + 1, "name": f"P{n + 1}", "state": "active", "cards": hand} for n, hand in enumerate(cards)]
    return json.dumps(message("broadcast", table, seq, session="s", t=float(seq), profile_title="Robert", hand=seq,
                              phase="betting", street="preflop", board=[], button=1, small_blind=2, big_blind=3,
                              to_act=4, in_play="red", seats=seats)).encode()


def test_a_flooding_table_off_the_air_never_delays_the_one_on_air(secure_broker: Mosquitto, tmp_path: Path) -> None:
    delay_s = 3.0
    password = tmp_path / "production.password"
    password.write_text(USERS["production"] + "\n")
    assert secure_broker.certs is not None
    port = free_port()
    log = tmp_path / "broadcast.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "firmware_py", "broadcast", "--room", "main", "--table",
                                    "t01", "--broker", f"127.0.0.1:{secure_broker.port}", "--tls", "--ca-file",
                                    str(secure_broker.certs.ca), "--password-file", str(password), "--delay",
                                    str(delay_s), "--headless", "--feed-port", str(port)], cwd=ROOT,
                                   env=environment(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    featured, _a = publisher(secure_broker, "t01", "t01.table")
    flood, _acks = publisher(secure_broker, "t02", "t02.flood")
    try:
        deadline = time.monotonic() + 60
        while "room: subscribed to" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pair_from_log(port, log)  # the status is the producer's: paired with the code the console printed
        assert get(port, "/api/status") is not None
        start_rss = rss_mb(process.pid)
        # t02 (off the air) floods: nine-handed pre-flop deals, every one distinct (each one seconds of chances).
        import random  # noqa: PLC0415

        rng = random.Random(7)
        deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
        sent_at: dict[int, float] = {}
        lags: list[float] = []
        seq = 0
        end = time.monotonic() + 20
        next_featured = time.monotonic()
        while time.monotonic() < end:
            for _ in range(20):
                seq += 1
                cards = rng.sample(deck, 18)
                flood.publish("pokertable/main/t02/broadcast",
                              broadcast_message("t02", seq, [cards[i:i + 2] for i in range(0, 18, 2)]), qos=0)
            if time.monotonic() >= next_featured:  # t01 on air: a message a second, each a new three-handed deal
                number = len(sent_at) + 1
                cards = rng.sample(deck, 6)
                sent_at[number] = time.monotonic()  # before it leaves: the lag measured is never too short
                featured.publish("pokertable/main/t01/broadcast",
                                 broadcast_message("t01", number, [cards[i:i + 2] for i in range(0, 6, 2)]), qos=1)
                next_featured += 1.0
            body = get(port, "/feed.json")
            shown = (body or {}).get("on_air")
            if shown and shown["table"] == "t01" and shown["seq"] in sent_at and \
                    all(lag[0] != shown["seq"] for lag in lags):  # type: ignore[index]
                lags.append((shown["seq"], time.monotonic() - sent_at[shown["seq"]]))  # type: ignore[arg-type]
            time.sleep(0.02)
        status = get(port, "/api/status") or {}
        end_rss = rss_mb(process.pid)
    finally:
        for client in (featured, flood):
            client.disconnect()
            client.loop_stop()
        process.terminate()
        process.wait(30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert seq > 2000 and len(sent_at) >= 15
    seen = [lag for _seq, lag in lags]  # type: ignore[misc]
    assert len(seen) >= len(sent_at) - delay_s - 3, (len(seen), len(sent_at))  # every message past its delay aired
    assert max(seen) <= delay_s + 1.0, sorted(seen)  # within a second of the delay (sampled every ~50 ms)
    assert min(seen) >= delay_s  # and never early
    assert status["received"] == len(sent_at) and status["dropped"] == 0  # t01: every message held, none dropped
    assert end_rss - start_rss < 150, (start_rss, end_rss)


def test_one_tables_flood_for_an_absent_collector_leaves_the_broker_bounded(tmp_path: Path,
                                                                              guard_plugin: Path) -> None:
    """The broker's backlog (issue 34: 962 MB and 1.3 s stalls at every autosave): with the collector's persistent
    session away, t01 floods 120 MB; the shipped max_queued_bytes holds the broker's memory and its store to about
    32 MB, and a probe's round trip through the autosaves stays short."""
    from bench.broker_backlog import measure  # noqa: PLC0415

    result = measure(tmp_path, mb=120, conf=[], seconds_after=11.0)  # two autosaves (every 5 s) with the backlog
    assert result["flood_mb"] >= 120
    assert result["store_mb"] <= 34 and result["broker_peak_rss_mb"] < 80, result
    assert result["worst_round_trip_s"] < 1.0, result
