"""The room holds (issue 17): every consumer survives every message, nothing is lost when the broker
dies with the collector away, and two collectors or two broadcasts run side by side."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.core.rulings import RulingKind
from firmware_py.core.snapshot import Phase, PlayerState
from firmware_py.room.broadcast import DelayedFeed
from firmware_py.room.collector import Collector, SQLiteStore
from firmware_py.room.floor import KINDS as FLOOR_KINDS
from firmware_py.room.floor import FloorModel
from firmware_py.room.messages import BadMessage, decode
from firmware_py.room.publisher import GAP_S
from firmware_py.room.subscriber import RoomSubscriber
from tests.room.conftest import ROOT, USERS, Listener, RoomCollector, broker_config
from tests.room.poison import KIND_MUTATIONS, poison
from tests.room.samples import message
from tests.room.services import Mosquitto, wait_subscribed
from tests.room.test_publisher import environment, journal_truth
from tests.room.test_security import publisher, secure_table
from tests.room.truth import journal_truth as hands_truth

KINDS = ("status", "heartbeat", "state", "ruling", "hand", "broadcast", "jackpot")
AUTOSAVE_S = 5  # config/room/mosquitto.conf
NAME = st.text(st.characters(blacklist_categories=["Cc", "Cs"]), max_size=30)


# -- the fuzz: every consumer, every kind, good and bad mixed ---------------------------------------------

@st.composite
def good_message(draw: Any, kind: str, seq: int) -> dict[str, Any]:
    """A valid message of `kind` with drawn content (the schema's edges included)."""
    seat = st.integers(1, 10)
    fields: dict[str, Any] = {"dealer": draw(NAME)} if kind in ("ruling", "hand", "state") else {}
    if kind == "ruling":
        fields |= {"n": draw(st.integers(0, 1000)), "wall": draw(st.floats(0, 1e11)),
                   "hand": draw(st.integers(0, 10**9)),
                   "ruling": {"t": draw(st.floats(0, 1e9)), "ruling": draw(st.sampled_from(list(RulingKind))),
                              "rule": draw(NAME), "remedy": draw(st.text(max_size=200).filter(lambda s: "\0" not in s)),
                              "seat": draw(st.none() | seat)}}
    elif kind == "hand":
        fields |= {"played": draw(st.booleans()), "phh": draw(st.none() | st.just("variant = 'NT'\n")),
                   "rulings": draw(st.lists(NAME, max_size=5)), "hand": draw(st.integers(0, 10**9))}
    elif kind == "state":
        fields |= {"t": draw(st.floats(0, 1e9)), "hand": draw(st.integers(0, 10**9)),
                   "seats": [{"seat": n, "state": draw(st.sampled_from(list(PlayerState))),
                              "cards": draw(st.integers(0, 3)), "button": False, "to_act": False}
                             for n in draw(st.sets(seat, max_size=10))]}
    elif kind == "status":
        fields |= {"online": draw(st.booleans()), "reason": draw(NAME), "heartbeat_s": draw(st.floats(0.1, 3600))}
    elif kind == "heartbeat":
        fields |= {"wall": draw(st.floats(0, 1e11)), "acked": draw(st.integers(0, 2**53 - 1))}
    elif kind == "jackpot":
        fields |= {"n": draw(st.integers(0, 64)), "seat": draw(seat), "winners": draw(st.lists(seat, min_size=1,
                                                                                             max_size=10)),
                   "jackpot": draw(NAME), "held": draw(NAME)}
        return {**message(kind, "t01", seq, session="fuzz", **fields),
                "kind": draw(st.sampled_from(["bad_beat", "high_hand"]))}  # the jackpot's kind: not the message's
    elif kind == "broadcast":
        seats = [{"seat": n, "name": draw(NAME), "state": "active", "cards": ["Ks", "Kd"]}
                 for n in draw(st.sets(seat, max_size=10))]
        fields |= {"phase": draw(st.sampled_from(list(Phase))), "seats": seats,
                   "board": draw(st.lists(st.sampled_from(["Ah", "7c", "2d", "Ts"]), max_size=5))}
    return message(kind, "t01", seq, session="fuzz", **fields)


@st.composite
def room_traffic(draw: Any) -> list[tuple[str, bytes, bool]]:
    """(topic, payload, good) in the order a consumer gets them: good ones with distinct keys, bad ones between."""
    items = []
    for seq in range(1, draw(st.integers(1, 25)) + 1):
        kind = draw(st.sampled_from(KINDS))
        if draw(st.booleans()):
            body = draw(good_message(kind, seq))
            items.append((f"pokertable/main/t01/{kind}", json.dumps(body).encode(), True))
        else:
            _name, payload = poison(kind, "t01", seq, draw(st.randoms(use_true_random=False)))
            items.append((f"pokertable/main/t01/{kind}", payload, False))
    return items


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(room_traffic())
def test_every_consumer_survives_every_message_and_loses_no_good_one(traffic: list[tuple[str, bytes, bool]]) -> None:
    for topic_name, payload, is_good in traffic:  # the poison is poison, the good is good
        if is_good:
            decode(topic_name, payload)
        else:
            with pytest.raises(BadMessage):
                decode(topic_name, payload)

    def count(kinds: tuple[str, ...], is_good: bool) -> int:
        return sum(1 for name, _p, g in traffic if g is is_good and name.rsplit("/", 1)[-1] in kinds)

    with tempfile.TemporaryDirectory() as directory:
        store = SQLiteStore(Path(directory) / "room.sqlite3")
        collector = Collector(store)
        collector.start()
        for topic_name, payload, _g in traffic:
            if topic_name.endswith(("/ruling", "/hand")):
                collector.offer(topic_name, payload)
        collector.stop()
        stored = store.query("SELECT (SELECT count(*) FROM rulings) + (SELECT count(*) FROM hands)")[0][0]
        dead = store.query("SELECT count(*) FROM dead_letters")[0][0]
        store.close()
    # The quarantine keeps each bad message once (issue 34): a repeat is counted, not stored again.
    distinct = {(name, bytes(p)) for name, p, g in traffic if not g and name.rsplit("/", 1)[-1] in ("ruling", "hand")}
    assert stored == count(("ruling", "hand"), True) and dead == len(distinct)
    assert dead + collector.stats.dead_repeats == count(("ruling", "hand"), False)

    floor = FloorModel("main")
    for topic_name, payload, _g in traffic:
        floor.feed(topic_name, payload, now=1.0)
    floor_kinds = FLOOR_KINDS
    assert floor.messages == count(floor_kinds, True) and floor.quarantined == count(floor_kinds, False)
    view = floor.table("t01")
    assert view is None or view.seen == {("fuzz", int(json.loads(p)["seq"]), int(json.loads(p)["n"]))
                                         for n, p, g in traffic if g and n.endswith("/ruling")}

    feed = DelayedFeed(delay_s=0.0, room="main", table="t01")
    for topic_name, payload, _g in traffic:
        feed.offer(topic_name, payload, 1.0)
    assert feed.received == count(("broadcast",), True) and feed.quarantined == count(("broadcast",), False)


# -- a real Mosquitto: the broker dies with the collector away ----------------------------------------------

def run_table(config: Path, journal: Path, *, hands: int, seed: int = 11) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                             "--hands", str(hands), "--seed", str(seed), "--error-rate", "0.5", "--speed", "60",
                             "--config", str(config), "--journal", str(journal)], cwd=ROOT, env=environment(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def assert_archived_once(store: Any, journal: Path, *, timeout: float = 30.0) -> None:
    """Every ruling and hand of the table's journal in the archive, each exactly once (waiting for them)."""
    rulings, _final = journal_truth(journal)
    hands = hands_truth(journal).hands
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if store.query("SELECT count(*) FROM hands")[0][0] >= len(hands) and \
                store.query("SELECT count(*) FROM rulings")[0][0] >= len(rulings):
            break
        time.sleep(0.2)
    stored = store.query("SELECT seq, n FROM rulings")
    assert len(stored) == len(set(stored)) and set(stored) == rulings
    stored_hands = [row[0] for row in store.query("SELECT seq FROM hands")]
    assert len(stored_hands) == len(set(stored_hands)) and set(stored_hands) == hands


def test_a_broker_sigkill_with_the_collector_away_loses_no_ruling_and_no_hand(tmp_path: Path,
                                                                              secure_broker: Mosquitto) -> None:
    config = broker_config(secure_broker, "collector")
    db = tmp_path / "archive.sqlite3"
    collector = RoomCollector(config, db, client_id="collector.main.host")
    assert collector.wait_subscribed()
    collector.stop()  # away for the whole session: the broker holds everything for it
    time.sleep(AUTOSAVE_S + 1)  # its session is in the broker's autosave; the messages to come are not
    journal = tmp_path / "t01.sqlite3"
    watch = Listener(broker_config(secure_broker, "collector"), "pokertable/main/t01/hand",
                     client_id="collector.main.watch")
    assert watch.wait_connected()
    table = run_table(secure_table(tmp_path, secure_broker), journal, hands=24)
    # Mid-session (hands already queued for the collector), however long the table took to start
    assert watch.wait_for(lambda: len(watch.of("hand")) >= 3, timeout=90)
    watch.close()
    secure_broker.kill()  # what it queued since its last autosave is gone
    time.sleep(1.0)
    secure_broker.start()
    out, err = table.communicate(timeout=180)
    assert table.returncode == 0, err[-2000:]
    assert "sending again" in out  # the table resent what the archive had not confirmed
    back = RoomCollector(config, db, client_id="collector.main.host")
    try:
        assert_archived_once(back.store, journal)
        last = back.store.query("SELECT max(idx) FROM (SELECT idx FROM rulings UNION SELECT idx FROM hands)")[0][0]
        assert Listener(broker_config(secure_broker, "floor"), client_id="x").wait_for(
            lambda: back.collector.heads.get(("main", "t01", next(iter(back.collector.heads))[2]), (0, 0))[0] == last)
    finally:
        back.stop()


# -- 1,000 poison messages against a real Mosquitto ----------------------------------------------------------

def test_a_thousand_poison_messages_stop_no_consumer_and_every_ruling_and_hand_is_stored_once(
        tmp_path: Path, secure_broker: Mosquitto) -> None:
    assert secure_broker.certs is not None
    db = tmp_path / "archive.sqlite3"
    password = tmp_path / "collector.password"
    password.write_text(USERS["collector"])
    collect = subprocess.Popen([sys.executable, "-m", "firmware_py", "collect", "--room", "main", "--broker",
                                f"localhost:{secure_broker.port}", "--tls", "--ca-file", str(secure_broker.certs.ca),
                                "--password-file", str(password), "--db", str(db)],
                               cwd=ROOT, env=environment(), stdout=(tmp_path / "collect.out").open("w"),
                               stderr=subprocess.PIPE, text=True)
    floor = FloorModel("main")
    floor_client = RoomSubscriber(broker_config(secure_broker, "floor"),
                                  [f"pokertable/main/+/{kind}" for kind in FLOOR_KINDS],  # the floor's, as `floor`
                                  client_id="floor.fuzz", on_message=lambda n, p, now: floor.feed(n, p, now=now))
    floor_client.start(deadline=time.monotonic() + 10)
    feed = DelayedFeed(delay_s=0.0, room="main", table="t01")
    production = RoomSubscriber(broker_config(secure_broker, "production"), ["pokertable/main/t01/broadcast"],
                                client_id="production.fuzz", on_message=feed.offer)
    production.start(deadline=time.monotonic() + 10)
    assert floor_client.subscribed.wait(10) and production.subscribed.wait(10)
    wait_subscribed(collect, tmp_path / "collect.out")
    journal = tmp_path / "t01.sqlite3"
    table = run_table(secure_table(tmp_path, secure_broker), journal, hands=16, seed=5)
    client, acks = publisher(secure_broker, "t01", "t01.poison")
    rng = random.Random(17)
    sent: dict[str, int] = {}
    distinct: set[tuple[str, bytes]] = set()  # the quarantine keeps each bad message once (issue 34)
    try:
        for number in range(1000):
            kind = rng.choice(sorted(KIND_MUTATIONS))
            _name, payload = poison(kind, "t01", number + 1, rng)
            client.publish(f"pokertable/main/t01/{kind}", payload, qos=1)
            sent[kind] = sent.get(kind, 0) + 1
            if kind in ("ruling", "hand"):
                distinct.add((kind, bytes(payload)))
            if number % 50 == 49:
                time.sleep(0.1)  # spread over the table's session
        deadline = time.monotonic() + 30
        while len(acks) < 1000 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(acks) == 1000 and set(acks.values()) == {"Success"}
    finally:
        client.disconnect()
        client.loop_stop()
    _out, err = table.communicate(timeout=180)
    assert table.returncode == 0, err[-2000:]
    store = SQLiteStore(db)
    try:
        assert_archived_once(store, journal)
        deadline = time.monotonic() + 20
        bad = len(distinct)
        while store.query("SELECT count(*) FROM dead_letters")[0][0] < bad and time.monotonic() < deadline:
            time.sleep(0.2)
        assert store.query("SELECT count(*) FROM dead_letters")[0][0] == bad
        repeats = store.query("SELECT coalesce(sum(repeats), 0), coalesce(sum(dropped), 0) FROM dead_letter_drops")[0]
        assert (bad + repeats[0], repeats[1]) == (sent["ruling"] + sent["hand"], 0)  # every one counted, none dropped
        assert store.query("SELECT count(*) FROM dead_letters WHERE reason = '' OR topic = ''")[0][0] == 0
    finally:
        store.close()
    time.sleep(0.5)
    floor_client.stop()
    production.stop()
    collect.send_signal(signal.SIGTERM)
    _, err = collect.communicate(timeout=30)
    out = (tmp_path / "collect.out").read_text(errors="replace")
    assert collect.returncode == 0 and "Traceback" not in out + err, err[-2000:]
    repeated = sent["ruling"] + sent["hand"] - len(distinct)
    assert f"{len(distinct)} quarantined in dead_letters (0 over its bounds and {repeated} repeats" in out
    assert floor.quarantined == sum(sent[k] for k in FLOOR_KINDS)
    assert feed.quarantined == sent["broadcast"] and feed.received > 0
    rulings, final = journal_truth(journal)
    view = floor.table("t01")
    assert view is not None and {(seq, n) for _s, seq, n in view.seen} == rulings
    assert view.state["digest"] == final["digest"]  # the floor's last state is the table's, poison or not


# -- redundancy --------------------------------------------------------------------------------------------

def test_two_collectors_share_the_room_and_store_everything_once(tmp_path: Path, secure_broker: Mosquitto) -> None:
    config = broker_config(secure_broker, "collector")
    db = tmp_path / "archive.sqlite3"
    first = RoomCollector(config, db, client_id="collector.main.a", share="collectors")
    second = RoomCollector(config, db, client_id="collector.main.b", share="collectors")
    try:
        assert first.wait_subscribed() and second.wait_subscribed()
        journal = tmp_path / "t01.sqlite3"
        table = run_table(secure_table(tmp_path, secure_broker), journal, hands=12, seed=3)
        _out, err = table.communicate(timeout=180)
        assert table.returncode == 0, err[-2000:]
        assert_archived_once(first.store, journal)
        stats = [first.collector.stats, second.collector.stats]
        assert all(s.inserted > 0 for s in stats)  # each took its share
        assert sum(s.inserted for s in stats) == sum(s.received for s in stats)  # none had to drop a double
        assert sum(s.duplicates for s in stats) == 0
    finally:
        first.stop()
        second.stop()


def test_a_shared_collector_that_dies_holding_messages_loses_none(tmp_path: Path, secure_broker: Mosquitto) -> None:
    config = broker_config(secure_broker, "collector")
    db = tmp_path / "archive.sqlite3"
    live = RoomCollector(config, db, client_id="collector.main.live", share="collectors")
    # A member that takes its share and dies with it: it acknowledges nothing, and its session expires.
    held: list[Any] = []
    dead = RoomSubscriber(config, ["pokertable/main/+/ruling", "pokertable/main/+/hand"],
                          client_id="collector.main.dead", persistent=True, manual_ack=True, share="collectors",
                          session_expiry_s=3, on_message=lambda *args: held.append(args))
    dead.start(deadline=time.monotonic() + 10)
    table: subprocess.Popen[str] | None = None
    try:
        assert live.wait_subscribed() and dead.subscribed.wait(10)
        journal = tmp_path / "t01.sqlite3"
        table = run_table(secure_table(tmp_path, secure_broker), journal, hands=500, seed=3)
        deadline = time.monotonic() + 30
        while len(held) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(held) >= 3
        dead.stop()
        time.sleep(GAP_S + 5)  # the table deals on; the live collector's confirmations stop at the gap
        table.send_signal(signal.SIGTERM)  # the table stops as a dealer would stop it: it publishes the rest
        out, err = table.communicate(timeout=120)  # a hang guard, not a speed test
        assert table.returncode == 0, err[-2000:]
        assert "(it has a gap)" in out  # the live collector's confirmations stopped moving: the table resent
        assert_archived_once(live.store, journal)
    finally:
        if table is not None and table.poll() is None:  # a failed test leaves no table dealing on
            table.kill()
            table.communicate()
        live.stop()


def broadcast_command(server: Mosquitto, tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    assert server.certs is not None
    password = tmp_path / "production.password"
    password.write_text(USERS["production"])
    return subprocess.Popen([sys.executable, "-m", "firmware_py", "broadcast", "--room", "main", "--table", "t01",
                             "--broker", f"localhost:{server.port}", "--tls", "--ca-file", str(server.certs.ca),
                             "--password-file", str(password), "--headless", "--delay", "0", "--allow-zero-delay",
                             "--feed-port", "0", "--seconds", "25", *extra],
                            cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def feed_port(process: subprocess.Popen[str]) -> int:
    assert process.stdout is not None
    for line in process.stdout:  # the server's own log lines come first
        if line.startswith("broadcast: overlay page"):
            return int(line.split("127.0.0.1:")[1].split("/")[0])
    raise AssertionError(f"broadcast never named its page: {process.stderr.read() if process.stderr else ''}")


def test_a_standby_broadcast_runs_beside_the_primary_and_a_shared_client_id_is_named(
        tmp_path: Path, secure_broker: Mosquitto) -> None:
    primary, standby = broadcast_command(secure_broker, tmp_path), broadcast_command(secure_broker, tmp_path)
    ports = [feed_port(primary), feed_port(standby)]
    time.sleep(2.0)
    journal = tmp_path / "t01.sqlite3"
    table = run_table(secure_table(tmp_path, secure_broker), journal, hands=4, seed=3)
    assert table.wait(120) == 0
    time.sleep(1.0)
    hands = [json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/feed.json", timeout=5).read())
             ["on_air"]["hand"] for port in ports]  # both on air, the same hand
    assert hands[0] == hands[1] >= 4
    for process in (primary, standby):
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=30)
        assert process.returncode == 0 and "took this session over" not in err, err[-1500:]
    # Two processes told to use one client id knock each other off: one of them says why and stops, the other
    # then stays connected.
    pair = [broadcast_command(secure_broker, tmp_path, "--client-id", "production.same") for _ in range(2)]
    for process in pair:
        feed_port(process)
    deadline = time.monotonic() + 24
    while all(process.poll() is None for process in pair) and time.monotonic() < deadline:
        time.sleep(0.2)
    stopped = [process for process in pair if process.poll() is not None]
    assert len(stopped) == 1
    _out, err = stopped[0].communicate(timeout=10)
    assert stopped[0].returncode == 2 and "another client connected as production.same" in err, err[-1500:]
    other = next(process for process in pair if process is not stopped[0])
    time.sleep(3.0)
    assert other.poll() is None
    other.send_signal(signal.SIGTERM)
    out, err = other.communicate(timeout=30)
    assert other.returncode == 0, out[-3000:] + err[-1500:]
