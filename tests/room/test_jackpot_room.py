"""A jackpot hand told to the room (issue 38 item 5: "the floor and director are told"), through a real Mosquitto
set up as shipped (TLS, passwords, config/room/acl, the client-id plugin): the real daemon plays the bad-beat session
with `[jackpots]` and writes its evidence packets; the table's publisher, reading that journal with its own core,
publishes each jackpot on t01's `jackpot` topic as the hand ends; the floor and the director (each as its own
user) get both, naming the very packets the daemon wrote; production, which may not read them, gets none."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.daemon.journal import Journal
from firmware_py.extensions import Where
from firmware_py.jackpots import load_jackpots, parse_jackpots_config
from firmware_py.room.floor import FloorModel
from firmware_py.room.publisher import RoomPublisher
from firmware_py.room.room_config import parse_room
from tests.daemon.test_resume_at_scale import CONFIG
from tests.jackpots.bad_beat import HOUSE, SESSION, play_bad_beat
from tests.room.conftest import USERS, Listener, broker_config
from tests.room.services import ACL_FILE, Mosquitto
from tests.room.test_chip_counts import director

ROOT = Path(__file__).resolve().parents[2]
ROOM_USERS = {**USERS, "director": "director-secret"}


@pytest.fixture
def room_broker(tmp_path: Path, guard_plugin: Path) -> Iterator[Mosquitto]:
    server = Mosquitto(tmp_path / "mosquitto-tls", tls=True, users=ROOM_USERS, acl=ACL_FILE, guard=guard_plugin).start()
    yield server
    server.stop()


def played(tmp: Path) -> tuple[Path, list[Path]]:
    """The bad-beat session through the real daemon with `[jackpots]`: its journal, and the packets it wrote."""
    (tmp / "jackpot.key").write_bytes(bytes(range(32)) * 2)
    config = parse_jackpots_config({"file": str(HOUSE), "key_file": "jackpot.key", "packets": "packets"},
                                   Where(source="table.toml", base_dir=tmp))
    path = tmp / "journal.sqlite3"
    watch = play_bad_beat(path, config)
    return path, list(watch.written)


def test_a_jackpot_hand_reaches_the_floor_and_the_director_and_nobody_else(tmp_path: Path,
                                                                          room_broker: Mosquitto) -> None:
    journal, packets = played(tmp_path)
    assert len(packets) == 2  # the bad beat (seat 2) and the high hand (seat 3)
    where = "pokertable/main/+/jackpot"
    floor = Listener(broker_config(room_broker, "floor"), where, client_id="floor.jackpot")
    desk = Listener(broker_config(room_broker, "director", ROOM_USERS["director"]), where, client_id="director.jp")
    production = Listener(broker_config(room_broker, "production"), "pokertable/#", client_id="production.jp")
    assert floor.wait_connected() and desk.wait_connected() and production.wait_connected()
    password = room_broker.directory / "t01.password"
    password.write_text(USERS["t01"])
    assert room_broker.certs is not None
    room = parse_room("t01.toml", {"room": "main", "table": "t01", "broker": "127.0.0.1", "port": room_broker.port,
                                   "tls": True, "ca_file": str(room_broker.certs.ca), "password_file": str(password),
                                   "dealer": "Dana", "broadcast": False}, base_dir=tmp_path)
    publisher = RoomPublisher(room, journal_path=journal, session="s-jackpot", profiles=CONFIG.profiles,
                              base_dir=SESSION.parent, jackpots=load_jackpots(HOUSE))
    publisher.start()
    try:
        publisher.wake()
        assert floor.wait_for(lambda: len(floor.of("jackpot")) == 2), floor.messages
        assert desk.wait_for(lambda: len(desk.of("jackpot")) == 2), desk.messages
        assert production.wait_for(lambda: any(t.endswith("/state") for t, _b, _r in production.messages))
        time.sleep(0.5)
    finally:
        publisher.stop()
        for listener in (floor, desk, production):
            listener.close()
    told = {(m["jackpot"], m["seat"]) for m in floor.of("jackpot")}
    assert told == {("Bad beat", 2), ("High hand", 3)}
    assert {m["packet"] for m in floor.of("jackpot")} == {p.name for p in packets}  # the very packets written
    for m in floor.of("jackpot"):
        assert m["rule"].startswith("house (jackpots.toml): ") and "call the floor" in m["remedy"]
    assert not [t for t, _b, _r in production.messages if t.endswith("/jackpot")]  # the ACL: not production's
    # the floor's model and the director, fed what each received
    model = FloorModel("main")
    for name, body, _r in floor.messages:
        model.feed(name, json.dumps(body).encode(), now=100.0)
    view = model.table("t01")
    assert view is not None and view.jackpot_now(100.0) is not None and model.quarantined == 0
    d = director()
    for name, body, _r in desk.messages:
        d.feed(name, json.dumps(body).encode())
    state = d.state()
    assert {(j.table, j.jackpot, j.seat) for j in state.jackpots} == {("t01", "Bad beat", 2), ("t01", "High hand", 3)}
    assert state.refused == []


def test_the_tournament_command_takes_a_tables_jackpot_onto_its_page_and_journal(tmp_path: Path,
                                                                                 broker: Mosquitto) -> None:
    """The `tournament` command as run (its own subscription, its journal, its page): a jackpot t01 publishes is on
    the page's state with the player it seats there, and in its journal (a resumed director lists it again)."""
    import re  # noqa: PLC0415
    import signal  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import urllib.request  # noqa: PLC0415

    from firmware_py.room.director import resume  # noqa: PLC0415
    from tests.room.test_chip_counts import jackpot  # noqa: PLC0415
    from tests.tracker_table import http_pair  # noqa: PLC0415

    journal = tmp_path / "director.sqlite3"
    process = subprocess.Popen([sys.executable, "-m", "firmware_py", "tournament", "--room", "main", "--broker",
                                f"127.0.0.1:{broker.port}", "--listen", "127.0.0.1:0", "--tables", "2", "--players",
                                "12", "--seed", "2", "--journal", str(journal)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    lines: list[str] = []
    table = Listener(broker_config(broker), client_id="t01.jackpot")
    try:
        assert process.stdout is not None and table.wait_connected()
        deadline = time.monotonic() + 60
        while not re.search(r"pair a browser with the code ([0-9 ]+)", "".join(lines)):
            assert time.monotonic() < deadline and process.poll() is None, "".join(lines)[-2000:]
            lines.append(process.stdout.readline())
        text = "".join(lines)
        url = re.search(r"page is on (http://[0-9.:]+)/", text)
        code = re.search(r"pair a browser with the code ([0-9 ]+)", text)
        assert url and code, text
        cookie = http_pair(url.group(1), code.group(1))

        def state() -> dict[str, object]:
            request = urllib.request.Request(url.group(1) + "/state", headers={"Cookie": cookie})
            return dict(json.loads(urllib.request.urlopen(request, timeout=5).read()))

        first = state()
        seats = {s["seat"]: s["name"] for t in first["tables"] if t["table"] == "t01" for s in t["seats"]}  # type: ignore[attr-defined,index]
        seat = min(seats)
        time.sleep(1.0)  # the director's subscription is in place well before (it published its state)
        table.client.publish("pokertable/main/t01/jackpot", json.dumps(jackpot(seat=seat)), qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 20
        while not state()["jackpots"]:
            assert time.monotonic() < deadline, "the director never listed the jackpot"
            time.sleep(0.2)
        listed = state()["jackpots"][0]  # type: ignore[index]
        assert (listed["table"], listed["seat"], listed["player"]) == ("t01", seat, seats[seat])
        assert state()["leaderboard"]["players"] == 12  # type: ignore[index]
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0
    finally:
        table.close()
        if process.poll() is None:
            process.kill()
            process.wait(10)
    with Journal.open(journal) as kept:
        assert [(j.table, j.seat) for j in resume(kept).state().jackpots] == [("t01", seat)]


def test_a_table_with_room_and_jackpots_gives_its_publisher_the_house_file(tmp_path: Path) -> None:
    """The wiring: `[jackpots]` beside `[room]` hands the house's jackpots to the publisher; without it, none."""
    from firmware_py.config_toolkit import read_toml  # noqa: PLC0415
    from firmware_py.daemon.table_config import parse_table_config  # noqa: PLC0415
    from firmware_py.room.publisher import _jackpots  # noqa: PLC0415

    (tmp_path / "jackpot.key").write_bytes(b"k" * 32)
    data = read_toml(ROOT / "config" / "table.toml", what="table file")
    data["room"] = {"room": "main", "table": "t01"}
    config = parse_table_config(data, source="table.toml", base_dir=ROOT / "config", with_display=False)
    assert _jackpots(config) == ()
    data["jackpots"] = {"file": "jackpots.toml", "key_file": str(tmp_path / "jackpot.key"),
                        "packets": str(tmp_path / "packets")}
    config = parse_table_config(data, source="table.toml", base_dir=ROOT / "config", with_display=False)
    assert [j.name for j in _jackpots(config)] == ["Bad beat", "High hand"]
