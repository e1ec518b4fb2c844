"""The room's ACL (config/room/acl) for the tournament's topics, on Mosquitto as the room ships it (TLS,
passwords, the client-id plugin): a table reports only on its own tournament topic and never publishes the
director's state; the director reads the reports and publishes its state, which tables and the floor read;
and both consumers survive whatever else arrives on their topics."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.room.messages import BadMessage
from firmware_py.room.tournament_messages import decode_director, decode_report, director_topic, report_topic
from tests.room.conftest import USERS, Listener, broker_config
from tests.room.services import ACL_FILE, Mosquitto

ROOM_USERS = {**USERS, "director": "director-secret"}
REPORT = {"v": 1, "room": "main", "table": "t01", "session": "s1", "seq": 1, "kind": "hand", "hand": 3, "t": 12.5,
          "draw": 1, "button": 2, "big_blind": 4, "start": [{"seat": 2, "chips": 1500}],
          "end": [{"seat": 2, "chips": 1400}]}


@pytest.fixture
def room_broker(tmp_path: Path, guard_plugin: Path) -> Iterator[Mosquitto]:
    server = Mosquitto(tmp_path / "mosquitto-tls", tls=True, users=ROOM_USERS, acl=ACL_FILE, guard=guard_plugin).start()
    yield server
    server.stop()


def _config(server: Mosquitto, user: str) -> object:
    password_file = server.directory / f"{user}.password"
    password_file.write_text(ROOM_USERS[user])
    config = broker_config(server)
    return type(config)(host=config.host, port=config.port, tls=config.tls, ca_file=config.ca_file, username=user,
                        password_file=password_file)


def test_tables_report_only_as_themselves_and_everyone_reads_the_director(room_broker: Mosquitto) -> None:
    director = Listener(_config(room_broker, "director"), "pokertable/main/+/tournament", client_id="d")
    table = Listener(_config(room_broker, "t01"), director_topic("main"), client_id="t")
    floor = Listener(_config(room_broker, "floor"), director_topic("main"), client_id="f")
    try:
        assert director.wait_connected() and table.wait_connected() and floor.wait_connected()
        table.client.publish(report_topic("main", "t01"), json.dumps(REPORT), qos=1).wait_for_publish(5)
        table.client.publish(report_topic("main", "t02"), json.dumps({**REPORT, "table": "t02"}), qos=1)
        table.client.publish(director_topic("main"), b'{"forged": true}', qos=1)
        director.client.publish(director_topic("main"), b'{"from": "director"}', qos=1).wait_for_publish(5)
        director.client.publish("pokertable/main/director/state", b"{}", qos=1)
        assert director.wait_for(lambda: len(director.messages) >= 1 and len(table.messages) >= 1
                                 and len(floor.messages) >= 1)
        time.sleep(0.5)
        got = [topic for topic, _b, _r in director.messages if not topic.endswith("/director/tournament")]
        assert got == [report_topic("main", "t01")]  # not t01's report as t02
        assert [body for _t, body, _r in table.messages] == [{"from": "director"}]  # not the forged one
        assert [body for _t, body, _r in floor.messages] == [{"from": "director"}]
    finally:
        for listener in (director, table, floor):
            listener.close()


@pytest.mark.parametrize("payload", [b"", b"null", b"[]", b'{"v": 2}', b"\xff\xfe", b'{"v": 1, "room": "x"}',
                                     json.dumps({**REPORT, "seq": 2**60}).encode(),
                                     json.dumps({**REPORT, "extra": 1}).encode(),
                                     json.dumps({**REPORT, "table": "t02"}).encode(), b"[" * 100_000])
def test_consumers_survive_any_message(payload: bytes) -> None:
    with pytest.raises(BadMessage):
        decode_report(report_topic("main", "t01"), payload)
    with pytest.raises(BadMessage):
        decode_director(director_topic("main"), payload)
    assert decode_report(report_topic("main", "t01"), json.dumps(REPORT).encode()).end[0].chips == 1400


def test_the_broadcast_shows_the_tournament_only_after_the_delay() -> None:
    from firmware_py.room.broadcast import Production  # noqa: PLC0415

    state = {"v": 1, "room": "main", "seq": 3, "profile": "wfp", "title": "World Free Poker", "structure": "n",
             "level": {"number": 2, "small": 50, "big": 100}, "next_level": None, "on_break": False,
             "remaining_s": 60.0, "running": True, "entrants": 45, "remaining": 44, "chips_in_play": 67500,
             "tables": [], "decisions": [], "places": [{"place": 45, "player": "p1", "name": "Ada"}],
             "payouts": [450, 270, 180], "hand_for_hand": False, "all_in": []}
    production = Production(room="main", feature="t01", delay_s=120.0, clock=lambda: 0.0)
    assert not production.offer_tournament(director_topic("main"), b'{"v": 1}', 0.0)
    assert production.offer_tournament(director_topic("main"), json.dumps(state).encode(), 10.0)
    assert production.tournament(100.0) is None  # a bust-out never reaches the picture before its hand
    shown = production.tournament(130.0)
    assert shown is not None and shown["places"][0]["name"] == "Ada" and shown["remaining"] == 44
    assert "tables" not in shown and "decisions" not in shown
