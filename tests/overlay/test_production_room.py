"""A primary and a standby production instance side by side on a real Mosquitto set up as the room ships it
(TLS, passwords, config/room/acl, config/room/mosquitto.conf, the client-id plugin), two simulated tables
publishing: both put the same delayed table on air, a feature-table switch and a reveal policy made on one reach
the other over the broker (through the shipped ACL: issue 34, where the ACL refused every control publish and
the standby aired the hole cards the primary hid), and the standby goes on when the primary is killed. A
restarted instance keeps its own --delay against an older retained control, and an instance whose control
publishes the broker refuses says so on its status."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from firmware_py.room.broadcast import Production
from firmware_py.room.overlay import make_app
from firmware_py.room.overlay_theme import load_theme
from firmware_py.web.server import serve
from tests.overlay.hand import hand_messages
from tests.overlay.page import PAIRED
from tests.overlay.test_overlay_delay import post
from tests.room.conftest import ROOT, USERS, Listener, broker_config, table_file
from tests.room.services import ACL_FILE, Mosquitto, free_port
from tests.room.test_publisher import environment
from tests.tracker_table import http_pair

DELAY_S = 2.0
CONTROL = "pokertable/main/production/control"


def get(port: int, path: str) -> dict[str, Any] | None:
    headers = {"Cookie": cookie} if (cookie := PAIRED.get(f"http://127.0.0.1:{port}")) else {}
    try:
        return dict(json.loads(urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}{path}", headers=headers), timeout=10).read()))
    except OSError:
        return None


def pair_from_log(port: int, log: Path) -> bool:
    """Pair with the code the broadcast printed (its console: no venue screen), as the producer does."""
    if f"http://127.0.0.1:{port}" in PAIRED:
        return True
    found = re.search(r"pair the control page with the code (\d{3}) (\d{3})", log.read_text(errors="replace"))
    if found is None:
        return False
    PAIRED[f"http://127.0.0.1:{port}"] = http_pair(f"http://127.0.0.1:{port}", found[1] + found[2])
    return True


def wait(predicate: Any, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return bool(predicate())


def secure_args(broker: Mosquitto, user: str) -> list[str]:
    password = broker.directory / f"{user}.cli.password"
    password.write_text(USERS[user] + "\n")
    assert broker.certs is not None
    return ["--broker", f"127.0.0.1:{broker.port}", "--tls", "--ca-file", str(broker.certs.ca),
            "--password-file", str(password)]


def instance(name: str, port: int, broker: Mosquitto, log: Path, delay_s: float = DELAY_S) -> subprocess.Popen[bytes]:
    """A `broadcast` command in its own process group (it and its chances worker end together), as user
    production on the shipped broker."""
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "firmware_py", "broadcast", "--room", "main", "--table",
                                 "t01", "--instance", name, *secure_args(broker, "production"), "--delay",
                                 str(delay_s), "--headless", "--feed-port", str(port)], cwd=ROOT, env=environment(),
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def end(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        process.wait(30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # the chances worker, if it outlived its parent


def secure_table(directory: Path, broker: Mosquitto, name: str) -> subprocess.Popen[bytes]:
    directory.mkdir()
    password = directory / f"{name}.password"
    password.write_text(USERS[name] + "\n")
    assert broker.certs is not None
    config = table_file(directory, table=name, port=broker.port,
                        extra=f'tls = true\nca_file = "{broker.certs.ca}"\npassword_file = "{password}"')
    return subprocess.Popen([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                             "--hands", "60", "--speed", "10", "--config", str(config), "--journal",
                             str(directory / "j.sqlite3")], cwd=ROOT, env=environment(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def on_air(port: int) -> dict[str, Any] | None:
    body = get(port, "/feed.json")
    return body["on_air"] if body else None


def hides_every_card(body: dict[str, Any] | None) -> bool:
    return body is not None and not any(seat["cards"] for seat in body["seats"]) and \
        any(seat.get("hidden") for seat in body["seats"])


def test_standby_follows_the_primary_through_the_shipped_acl(tmp_path: Path, secure_broker: Mosquitto) -> None:
    broker = secure_broker
    ports = {"primary": free_port(), "standby": free_port()}
    instances = {name: instance(name, port, broker, tmp_path / f"{name}.log") for name, port in ports.items()}
    tables: list[subprocess.Popen[bytes]] = []
    try:
        assert wait(lambda: all(pair_from_log(port, tmp_path / f"{name}.log") for name, port in ports.items()))
        assert wait(lambda: all(get(port, "/api/status") for port in ports.values()))
        tables = [secure_table(tmp_path / name, broker, name) for name in ("t01", "t02")]
        # Both instances put t01 on air, on the delay, with the feed's names.
        assert wait(lambda: all((on_air(port) or {}).get("table") == "t01" for port in ports.values()))
        first = on_air(ports["primary"])
        assert first is not None and all(seat["name"].startswith("Seat ") for seat in first["seats"])
        # The same picture on both: each one's message is on the other within a moment.
        seen: dict[str, set[int]] = {name: set() for name in ports}

        def same_pictures() -> bool:
            for name, port in ports.items():
                body = on_air(port)
                if body:
                    seen[name].add(body["seq"])
            return len(seen["primary"]) > 3 and len(seen["primary"] & seen["standby"]) >= len(seen["primary"]) // 2

        assert wait(same_pictures, timeout=60), seen  # sampled until it holds: a loaded machine is slower, not wrong

        # The producer hides t01's cards on the primary (the attack of issue 34: the standby aired them).
        post(f"http://127.0.0.1:{ports['primary']}/api/control", {"reveal": {"t01": "never"}})
        assert wait(lambda: all(hides_every_card(on_air(port)) for port in ports.values()), timeout=30)
        # The producer switches the feature table on the primary: both put t02 on air, with no restart.
        post(f"http://127.0.0.1:{ports['primary']}/api/control", {"feature": "t02"})
        assert wait(lambda: all((get(port, "/api/status") or {}).get("control", {}).get("feature") == "t02"
                                for port in ports.values()), timeout=30)
        assert wait(lambda: all((on_air(port) or {}).get("table") == "t02" for port in ports.values()), timeout=30)
        # A reveal policy set on the standby reaches the primary.
        post(f"http://127.0.0.1:{ports['standby']}/api/control", {"reveal": {"t02": "never"}})
        assert wait(lambda: all(hides_every_card(on_air(port)) for port in ports.values()), timeout=30)
        # Then, sampled: never a hole card on either picture.
        for _ in range(20):
            for port in ports.values():
                body = on_air(port)
                assert body is None or not any(seat["cards"] for seat in body["seats"]), body
            time.sleep(0.1)
        for port in ports.values():
            status = get(port, "/api/status") or {}
            assert status.get("publish_refused") == 0 and status.get("faults") == [], status

        # The primary dies: the standby goes on with new messages of the feature table.
        os.killpg(instances["primary"].pid, signal.SIGKILL)  # the machine, as good as gone
        instances["primary"].wait(10)
        before = (on_air(ports["standby"]) or {}).get("seq", 0)
        assert wait(lambda: (on_air(ports["standby"]) or {}).get("seq", 0) > before, timeout=30)
        assert (on_air(ports["standby"]) or {}).get("table") == "t02"
    finally:
        for port in ports.values():
            PAIRED.pop(f"http://127.0.0.1:{port}", None)
        for table in tables:
            table.terminate()
            table.wait(30)
        for process in instances.values():
            end(process)


def test_a_restarted_instance_keeps_its_own_delay_against_an_older_retained_control(
        tmp_path: Path, secure_broker: Mosquitto) -> None:
    """A retained control made before the instance started (by the other instance, or forged earlier) is
    followed for the feature table and the reveal policy, never below the instance's own --delay."""
    producer = Listener(broker_config(secure_broker, "production"), client_id="earlier")
    assert producer.wait_connected()
    old = {"feature": "t02", "reveal": {"t02": "never"}, "chips": "amounts", "delay_s": 10.0,
           "stamp": time.time() - 3600, "by": "primary"}
    producer.client.publish(CONTROL, json.dumps(old), qos=1, retain=True).wait_for_publish(5)
    producer.close()
    port = free_port()
    process = instance("standby", port, secure_broker, tmp_path / "standby.log", delay_s=60.0)
    try:
        assert wait(lambda: pair_from_log(port, tmp_path / "standby.log"))  # the status is the producer's
        assert wait(lambda: (get(port, "/api/status") or {}).get("control", {}).get("feature") == "t02")
        control = (get(port, "/api/status") or {})["control"]
        assert control["delay_s"] == 60.0 and control["reveal"] == {"t02": "never"}
        assert "keeps its own --delay 60 s" in (tmp_path / "standby.log").read_text()
        # A fresh control asking for 0.001 s (issue 34), through the broker: refused, counted, on the status.
        producer = Listener(broker_config(secure_broker, "production"), client_id="later")
        assert producer.wait_connected()
        producer.client.publish(CONTROL, json.dumps({**old, "delay_s": 0.001, "stamp": time.time()}), qos=1,
                                retain=True).wait_for_publish(5)
        producer.close()
        assert wait(lambda: (get(port, "/api/status") or {}).get("control_refused") == 1, timeout=15)
        status = get(port, "/api/status") or {}
        assert status["control"]["delay_s"] == 60.0 and "delay_s 0.001" in status["faults"][-1], status
    finally:
        end(process)


@pytest.fixture
def misconfigured_broker(tmp_path: Path, guard_plugin: Path) -> Any:
    """The broker of issue 34: production denied its whole subtree, the control topic with it."""
    shipped = ACL_FILE.read_text()
    acl = tmp_path / "old.acl"
    acl.write_text(shipped.replace("topic deny pokertable/+/production/status\n",
                                   "topic deny pokertable/+/production/#\n"))
    server = Mosquitto(tmp_path / "mosquitto-old", tls=True, users=USERS, acl=acl, guard=guard_plugin).start()
    yield server
    server.stop()


def test_a_control_change_the_broker_refuses_is_a_fault_on_the_status(tmp_path: Path,
                                                                     misconfigured_broker: Mosquitto) -> None:
    port = free_port()
    process = instance("primary", port, misconfigured_broker, tmp_path / "primary.log")
    try:
        assert wait(lambda: pair_from_log(port, tmp_path / "primary.log"))  # the status is the producer's
        assert wait(lambda: (get(port, "/api/status") or {}).get("control") is not None)
        assert wait(lambda: "room: subscribed to" in (tmp_path / "primary.log").read_text())
        post(f"http://127.0.0.1:{port}/api/control", {"reveal": {"t01": "never"}})
        assert wait(lambda: (get(port, "/api/status") or {}).get("publish_refused") == 1, timeout=15)
        status = get(port, "/api/status") or {}
        assert any("refused this instance's control change" in fault for fault in status["faults"]), status
        assert "the other instance does not follow it" in (tmp_path / "primary.log").read_text()
    finally:
        end(process)


def test_the_served_control_page_refuses_another_sites_post_and_a_foreign_host(tmp_path: Path) -> None:
    """The broadcast command serves its pages behind the pages' Host/Origin guard (docs/web.md): a page on
    another site open in the producer's browser cannot switch the feature table or reveal cards."""
    production = Production(room="main", feature="t01", delay_s=60.0)
    production.table("t02").push(hand_messages(table="t02")[0].feed, 0.0)  # a table the broadcast has heard of
    app = make_app(production, load_theme())
    server = serve(app, name="overlay")
    port = server.address[1]
    cookie = http_pair(server.url, app.pairing.code)
    try:
        url = f"http://127.0.0.1:{port}/api/control"
        request = urllib.request.Request(url, data=json.dumps({"feature": "t02"}).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Origin": "http://evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 403
        foreign = urllib.request.Request(f"http://127.0.0.1:{port}/feed.json",
                                         headers={"Host": f"rebound.example:{port}"})
        with pytest.raises(urllib.error.HTTPError) as rebound:
            urllib.request.urlopen(foreign, timeout=5)
        assert rebound.value.code == 403
        assert production.control.feature == "t01"
        assert post(url, {"feature": "t02"}, cookie=cookie) is not None  # the control page's own origin
        assert production.control.feature == "t02"
    finally:
        server.stop()
        production.close()
