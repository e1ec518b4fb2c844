"""Least privilege in the shipped ACLs (issue 34), on a real Mosquitto set up as `systemd/install-room.sh
broker` sets it up (TLS, passwords, config/room/mosquitto.conf, the client-id plugin) with config/room/acl
and, as on a room's centre, config/room/acl-centre: every user against every topic kind, under every kind of
id (two tables of zone A, one of zone B, each reserved id), both ways (publish: the broker's MQTT 5
answer; read: what a subscription to everything delivers). The expectation is written here, rule by rule,
not read from the file under test.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.room.conftest import Listener, broker_config
from tests.room.services import ACL_FILE, CENTRE_ACL_FILE, Mosquitto, centre_acl

ROOM = "main"
ZONES = {"zone-a": ["t01", "t02"], "zone-b": ["t03"]}
TABLES = ("t01", "t02", "t03")
RESERVED = ("floor", "collector", "production", "director", "zone-a")
IDS = (*TABLES, *RESERVED)
TABLE_KINDS = ("status", "heartbeat", "state", "ruling", "hand", "broadcast", "jackpot", "tournament")
KINDS = (*TABLE_KINDS, "archived", "control")
USERS = ("t01", "t03", "floor", "collector", "production", "director", "zone-a", "zone-b")
PROBE = "probe"  # a test-only user that may write everything: the reads need something to read
PASSWORDS = {user: f"{user}-secret" for user in (*USERS, PROBE)}
DIRECTOR_STATE = ("director", "tournament")  # every client of the room reads it (and only the director writes it)


def may_write(user: str, table: str, kind: str) -> bool:
    if user in TABLES:  # a table: only under its own id, only a table's kinds
        return table == user and kind in TABLE_KINDS
    if user == "collector":  # the archive's confirmations, to tables only
        return kind == "archived" and table in TABLES
    if user == "production":  # its control topic, shared by its primary and standby (issue 34 item 6)
        return (table, kind) == ("production", "control")
    if user == "director":  # its state, nothing else
        return (table, kind) == DIRECTOR_STATE
    if user in ZONES:  # the bridge: its own zone's tables' kinds, never the director's state, never another zone
        return table in ZONES[user] and kind in TABLE_KINDS
    return False  # the floor publishes nothing


READS = {"floor": {"status", "heartbeat", "state", "ruling", "jackpot"}, "collector": {"status", "ruling", "hand"},
         "production": {"status", "state", "broadcast"}, "director": {"tournament", "status", "jackpot"}}


def may_read(user: str, table: str, kind: str) -> bool:
    if (table, kind) == DIRECTOR_STATE:
        return True
    if user in TABLES:
        return (table, kind) == (user, "archived")
    if user in ZONES:
        return table in ZONES[user] and kind == "archived"
    if user == "production" and (table, kind) == ("production", "control"):
        return True
    return table in TABLES and kind in READS.get(user, set())  # a reserved id is never read as a table


def topic(table: str, kind: str) -> str:
    return f"pokertable/{ROOM}/{table}/{kind}"


@pytest.fixture
def centre(tmp_path: Path, guard_plugin: Path) -> Iterator[Mosquitto]:
    """The room's centre broker as shipped: config/room/acl, then acl-centre's zone blocks for ZONES, and the
    test's own probe user appended (a user block of its own: it changes nobody else's rights)."""
    acl = tmp_path / "pokertable.acl"
    acl.write_text(ACL_FILE.read_text() + "\n" + centre_acl(ZONES) + f"\nuser {PROBE}\ntopic readwrite pokertable/#\n")
    server = Mosquitto(tmp_path / "centre", tls=True, users=PASSWORDS, acl=acl, guard=guard_plugin).start()
    yield server
    server.stop()


def test_the_installers_zone_lines_are_the_shipped_acl_centre() -> None:
    """`install-room.sh zone-acl` writes for the shipped example's zones (zone-a: t01, t02; zone-b: t03) the very
    lines config/room/acl-centre holds, per user: what the tests run is what the file shows."""
    def per_user(text: str) -> dict[str, set[str]]:
        users: dict[str, set[str]] = {}
        user = ""
        for line in text.splitlines():
            if line.startswith("user "):
                user = line.removeprefix("user ")
            elif line.strip() and not line.startswith("#"):
                users.setdefault(user, set()).add(line)
        return users

    assert per_user(centre_acl(ZONES)) == per_user(CENTRE_ACL_FILE.read_text())


def connected(server: Mosquitto, user: str, *topics: str) -> Listener:
    listener = Listener(broker_config(server, user, PASSWORDS[user]), *topics, client_id="acl")
    assert listener.wait_connected(), f"{user} could not connect: {listener.connect_reason}"
    return listener


def publish_all(listener: Listener) -> dict[str, str]:
    """Publish once to every topic of the matrix (QoS 1): the broker's answer to each, by topic."""
    answers: dict[int, str] = {}
    listener.client.on_publish = lambda _c, _u, mid, reason, _p: answers.__setitem__(mid, str(reason))
    sent = {listener.client.publish(topic(table, kind), b'{"probe": true}', qos=1).mid: topic(table, kind)
            for table in IDS for kind in KINDS}
    deadline = time.monotonic() + 20
    while len(answers) < len(sent) and time.monotonic() < deadline:
        time.sleep(0.02)
    # "No matching subscribers" is a success (MQTT 5 reason 16): taken, with nobody to give it to.
    return {name: "Success" if answers.get(mid) == "No matching subscribers" else answers.get(mid, "no answer")
            for mid, name in sent.items()}


def test_every_user_publishes_only_its_own_topics_and_never_under_a_reserved_id(centre: Mosquitto) -> None:
    wrong: list[str] = []
    for user in USERS:
        listener = connected(centre, user)
        try:
            answers = publish_all(listener)
        finally:
            listener.close()
        for table in IDS:
            for kind in KINDS:
                expected = "Success" if may_write(user, table, kind) else "Not authorized"
                if answers[topic(table, kind)] != expected:
                    wrong.append(f"{user} -> {topic(table, kind)}: {answers[topic(table, kind)]}, not {expected}")
    assert not wrong, "\n".join(wrong)


def test_every_user_reads_only_its_own_topics_and_nothing_under_a_reserved_id(centre: Mosquitto) -> None:
    readers = {user: connected(centre, user, "pokertable/#") for user in USERS}
    probe = connected(centre, PROBE)
    try:
        for table in IDS:
            for kind in KINDS:
                probe.client.publish(topic(table, kind), json.dumps({"probe": topic(table, kind)}), qos=1)
        # Last, on the one topic everyone reads: once a reader has it, it has all it will get (in order, QoS 1).
        probe.client.publish(topic(*DIRECTOR_STATE), b'{"end": true}', qos=1)

        def ended(listener: Listener) -> bool:
            return any(body == {"end": True} for _t, body, _r in listener.messages)

        assert all(reader.wait_for(lambda r=reader: ended(r)) for reader in readers.values())
        wrong: list[str] = []
        for user, reader in readers.items():
            got = {name for name, body, _r in reader.messages if body != {"end": True}}
            for table in IDS:
                for kind in KINDS:
                    if (topic(table, kind) in got) != may_read(user, table, kind):
                        wrong.append(f"{user} {'read' if topic(table, kind) in got else 'did not read'} "
                                     f"{topic(table, kind)}")
        assert not wrong, "\n".join(wrong)
    finally:
        for listener in (*readers.values(), probe):
            listener.close()


def test_a_zone_cannot_forge_the_directors_state_for_every_screen(centre: Mosquitto) -> None:
    """The attack of issue 34: with a zone's bridge password, a retained director state (and a production
    control and another zone's table) published at the centre. Refused, and nothing reaches anyone."""
    watcher = connected(centre, "floor", topic(*DIRECTOR_STATE), topic("t03", "state"))
    zone = connected(centre, "zone-a")
    try:
        answers: dict[int, Any] = {}
        zone.client.on_publish = lambda _c, _u, mid, reason, _p: answers.__setitem__(mid, str(reason))
        mids = [zone.client.publish(name, b'{"forged": true}', qos=1, retain=True).mid
                for name in (topic(*DIRECTOR_STATE), topic("production", "control"), topic("t03", "state"))]
        assert watcher.wait_for(lambda: len(answers) == len(mids), timeout=10)
        assert [answers[mid] for mid in mids] == ["Not authorized"] * 3  # (MQTT 5 reason 135)
        time.sleep(0.5)
        assert watcher.messages == []
    finally:
        watcher.close()
        zone.close()
    late = connected(centre, "t01", topic(*DIRECTOR_STATE))  # nothing was retained either
    try:
        time.sleep(0.5)
        assert late.messages == []
    finally:
        late.close()
