"""A tournament across zones: the shipped config/room/zone-bridge.conf and acl-centre carry each table's
tournament report out to the director at the centre, and the director's retained state in to the tables of
every zone, once each way (no copy comes back over the bridge to overwrite a newer state)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.room_zones import ROOM, Room
from firmware_py.room.mqtt import make_client
from firmware_py.room.room_config import BrokerConfig

WAIT_S = 30.0
DIRECTOR = f"pokertable/{ROOM}/director/tournament"


class Listener:
    """A real client on one broker as one room user, keeping every message on its subscriptions."""

    def __init__(self, room: Room, broker: Any, user: str, topics: list[str]) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self.changed = threading.Condition()
        subscribed = threading.Event()
        config = BrokerConfig(host="127.0.0.1", port=broker.port, tls=True, ca_file=broker.certs.ca,
                              username=user, password_file=room.passwords / f"{user}.password")
        self.client = make_client(config, client_id=f"{user}.test{broker.port}")

        def on_connect(client: Any, *_args: Any) -> None:
            client.subscribe([(topic, 1) for topic in topics])

        def on_message(_client: Any, _userdata: Any, message: Any) -> None:
            with self.changed:
                self.messages.append((message.topic, bytes(message.payload), bool(message.retain)))
                self.changed.notify_all()

        self.client.on_connect = on_connect
        self.client.on_subscribe = lambda *_a: subscribed.set()
        self.client.on_message = on_message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert subscribed.wait(WAIT_S), f"{user} did not subscribe on port {broker.port}"

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WAIT_S)

    def wait_for(self, topic: str, payload: bytes) -> list[tuple[str, bytes, bool]]:
        deadline = time.monotonic() + WAIT_S
        with self.changed:
            while not any(t == topic and p == payload for t, p, _r in self.messages):
                left = deadline - time.monotonic()
                assert left > 0, f"{payload!r} on {topic} never arrived; got {self.messages[-5:]}"
                self.changed.wait(left)
            return [m for m in self.messages if m[0] == topic and m[1] == payload]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def room(tmp_path: Path, mosquitto_installed: None) -> Iterator[Room]:
    zoned = Room(tmp_path / "work", zones=2, tables=[["t01"], ["t02"]])
    try:
        yield zoned
    finally:
        zoned.stop()


def test_the_bridge_carries_reports_out_and_the_directors_retained_state_in_once(room: Room) -> None:
    director = Listener(room, room.centre, "director", [f"pokertable/{ROOM}/+/tournament"])
    tables = [Listener(room, zone, name, [DIRECTOR]) for zone, name in zip(room.zones, ("t01", "t02"), strict=True)]
    try:
        # Each table's report reaches the director at the centre, through its zone's bridge.
        for table, name in zip(tables, ("t01", "t02"), strict=True):
            report = f'{{"table":"{name}","hand":1}}'.encode()
            table.publish(f"pokertable/{ROOM}/{name}/tournament", report)
            director.wait_for(f"pokertable/{ROOM}/{name}/tournament", report)
        # The director's state reaches the tables of both zones.
        for level in (1, 2):
            state = f'{{"level":{level}}}'.encode()
            director.publish(DIRECTOR, state, retain=True)
            for table in tables:
                table.wait_for(DIRECTOR, state)
        time.sleep(2.0)  # what a loop would bring back has had time to come
        assert [p for t, p, _r in director.messages if t == DIRECTOR] == [b'{"level":1}', b'{"level":2}']
        # A table (re)connecting to its zone later is given the latest state, retained there.
        late = Listener(room, room.zones[1], "t02", [DIRECTOR])
        try:
            (seen,) = late.wait_for(DIRECTOR, b'{"level":2}')
            assert seen[2] is True  # retained
        finally:
            late.close()
        # And the centre's retained state is still the director's latest (no stale copy came back over a bridge).
        fresh = Listener(room, room.centre, "director", [DIRECTOR])
        try:
            fresh.wait_for(DIRECTOR, b'{"level":2}')
            assert [p for t, p, _r in fresh.messages if t == DIRECTOR] == [b'{"level":2}']
        finally:
            fresh.close()
    finally:
        for client in (director, *tables):
            client.close()


def test_a_table_in_a_zone_cannot_speak_for_the_director(room: Room) -> None:
    director = Listener(room, room.centre, "director", [DIRECTOR])
    table = Listener(room, room.zones[0], "t01", [DIRECTOR])
    try:
        director.publish(DIRECTOR, b'{"level":3}', retain=True)
        table.wait_for(DIRECTOR, b'{"level":3}')
        table.publish(DIRECTOR, b'{"level":99}', retain=True)  # the zone broker's ACL drops it
        marker = b'{"level":4}'
        director.publish(DIRECTOR, marker, retain=True)
        director.wait_for(DIRECTOR, marker)
        table.wait_for(DIRECTOR, marker)
        assert all(p != b'{"level":99}' for _t, p, _r in director.messages + table.messages)
    finally:
        director.close()
        table.close()
