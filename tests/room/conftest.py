"""Fixtures: a real Mosquitto (plain, or TLS with passwords and the shipped ACL) and PostgreSQL on loopback."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_py.room.room_config import BrokerConfig
from tests.room.services import (
    ACL_FILE,
    Mosquitto,
    Postgres,
    clientid_guard,
    ensure_installed,
    postgres_bin,
    simulated_table_file,
)

ROOT = Path(__file__).resolve().parents[2]
USERS = {"t01": "table-one-secret", "t02": "table-two-secret", "floor": "floor-secret",
         "collector": "collector-secret", "production": "production-secret"}


@pytest.fixture(scope="session")
def mosquitto_installed() -> None:
    reason = ensure_installed("mosquitto", ["mosquitto", "mosquitto-clients"])
    if reason:
        pytest.skip(f"no Mosquitto broker: {reason}")


@pytest.fixture
def broker(tmp_path: Path, mosquitto_installed: None) -> Iterator[Mosquitto]:
    """A plain Mosquitto, anonymous, on a free loopback port."""
    server = Mosquitto(tmp_path / "mosquitto").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def guard_plugin(tmp_path_factory: pytest.TempPathFactory, mosquitto_installed: None) -> Path:
    """config/room/clientid_guard.c built for this run (the room's broker binds client ids to users)."""
    try:
        return clientid_guard(tmp_path_factory.mktemp("guard"))
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"the client-id plugin cannot be built here: {exc}")


@pytest.fixture
def secure_broker(tmp_path: Path, guard_plugin: Path) -> Iterator[Mosquitto]:
    """Mosquitto as the room ships it: TLS (a throwaway CA), per-client passwords, config/room/acl,
    config/room/mosquitto.conf and the client-id plugin."""
    server = Mosquitto(tmp_path / "mosquitto-tls", tls=True, users=USERS, acl=ACL_FILE, guard=guard_plugin).start()
    yield server
    server.stop()


def broker_config(server: Mosquitto, user: str | None = None, password: str | None = None) -> BrokerConfig:
    password_file = None
    if user is not None:
        password_file = server.directory / f"{user}.password"
        password_file.write_text(password if password is not None else USERS[user])
    return BrokerConfig(host="127.0.0.1", port=server.port, tls=server.tls,
                        ca_file=server.certs.ca if server.certs else None, username=user, password_file=password_file)


class Listener:
    """A subscriber that records every message it receives, as a real client of the room would."""

    def __init__(self, config: BrokerConfig, *topics: str, client_id: str = "listener",
                 persistent: bool = False) -> None:
        from firmware_py.room.mqtt import connect_properties, make_client  # noqa: PLC0415

        self.messages: list[tuple[str, dict[str, Any] | bytes, bool]] = []
        self.connected = threading.Event()  # connected and every subscription answered (SUBACK)
        self.connect_reason = ""
        self._subscribing: set[int] = set()
        if config.username and not client_id.startswith(config.username + "."):
            client_id = f"{config.username}.{client_id}"  # the room's broker binds client ids to users
        self.client = make_client(config, client_id=client_id)
        self.topics = topics

        def on_connect(client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
            self.connect_reason = str(reason)
            if not reason.is_failure:
                self._subscribing = {client.subscribe(name, qos=1)[1] for name in self.topics}
                if not self._subscribing:
                    self.connected.set()

        def on_subscribe(_c: Any, _u: Any, mid: int, _reasons: Any, _p: Any) -> None:
            # Only once the broker has answered is the subscription in place: a message published
            # before then may not reach us (the flaky test_a_table_may_publish_only_under_its_own_id).
            self._subscribing.discard(mid)
            if not self._subscribing:
                self.connected.set()

        def on_message(_c: Any, _u: Any, message: Any) -> None:
            try:
                body: dict[str, Any] | bytes = json.loads(message.payload)
            except ValueError:
                body = message.payload
            self.messages.append((message.topic, body, bool(message.retain)))

        self.client.on_connect = on_connect
        self.client.on_subscribe = on_subscribe
        self.client.on_message = on_message
        self.client.connect(config.host, config.port, clean_start=not persistent,
                            properties=connect_properties(session_expiry_s=3600 if persistent else 0))
        self.client.loop_start()

    def wait_connected(self, timeout: float = 10.0) -> bool:
        return self.connected.wait(timeout)

    def kinds(self) -> set[str]:
        return {name.rsplit("/", 1)[-1] for name, _body, _retain in self.messages}

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [body for name, body, _r in self.messages if name.endswith("/" + kind) and isinstance(body, dict)]

    def wait_for(self, predicate: Any, timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.05)
        return bool(predicate())

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class RoomCollector:
    """The collector as `collect` runs it (the schema, the store, acknowledgement after the commit, the
    retained `archived` confirmations), in this process."""

    def __init__(self, config: BrokerConfig, db: Path | str, *, client_id: str = "collector.test",
                 room: str = "main", share: str | None = None) -> None:
        from firmware_py.room.collector import Collector, open_store  # noqa: PLC0415
        from firmware_py.room.subscriber import RoomSubscriber  # noqa: PLC0415

        self.store = open_store(str(db))
        self.collector = Collector(self.store, name=client_id)
        self.subscriber = RoomSubscriber(config, [f"pokertable/{room}/+/ruling", f"pokertable/{room}/+/hand"],
                                         client_id=client_id, persistent=True, manual_ack=True, share=share,
                                         on_message=self.collector.offer)
        self.collector.ack = self.subscriber.ack
        self.collector.publish = lambda name, payload: self.subscriber.client.publish(name, payload, qos=1,
                                                                                      retain=True)
        self.collector.start()
        self.subscriber.start(deadline=time.monotonic() + 10)

    def wait_subscribed(self, timeout: float = 10.0) -> bool:
        return self.subscriber.subscribed.wait(timeout)

    def stop(self) -> None:
        self.collector.stop()
        self.subscriber.stop()
        self.store.close()


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Postgres]:
    """A real PostgreSQL on loopback for the collector (installed with apt-get when missing)."""
    if not postgres_bin("initdb"):
        reason = ensure_installed("pg_ctlcluster", ["postgresql"])
        if reason or not postgres_bin("initdb"):
            pytest.skip(f"no PostgreSQL server: {reason or 'initdb not found after installing postgresql'}")
    try:
        import psycopg  # noqa: F401, PLC0415
    except ImportError:
        pytest.skip("psycopg is not installed: pip install -e '.[test]'")
    # Not under pytest's temp dirs: those are 0700 root, and the server runs as the postgres user.
    directory = Path(tempfile.mkdtemp(prefix="pokertable-pg-"))
    server = Postgres(directory)
    try:
        server.start()
    except subprocess.CalledProcessError as exc:  # no postgres user, initdb refuses, ...
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)
        pytest.skip(f"PostgreSQL could not start here: {exc}: {exc.stderr!r}")
    yield server
    server.stop()
    shutil.rmtree(directory, ignore_errors=True)


def table_file(directory: Path, *, room: str = "main", table: str = "t01", port: int, extra: str = "") -> Path:
    """A simulated table's config file with a [room] section."""
    return simulated_table_file(directory, table, room=f"""
[room]
room = "{room}"
table = "{table}"
broker = "127.0.0.1"
port = {port}
dealer = "Dana"
heartbeat_s = 1
{extra}""")
