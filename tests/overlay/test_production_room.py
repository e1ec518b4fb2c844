"""A primary and a standby production instance side by side on a real Mosquitto, two simulated tables
publishing: both put the same delayed table on air, a feature-table switch and a reveal policy made on
one reach the other over the broker, and the standby goes on when the primary is killed."""

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
from tests.overlay.page import PAIRED
from tests.overlay.test_overlay_delay import post
from tests.room.conftest import ROOT, table_file
from tests.room.services import Mosquitto, free_port
from tests.room.test_publisher import environment
from tests.tracker_table import http_pair

DELAY_S = 2.0


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


def instance(name: str, port: int, broker: Mosquitto, log: Path) -> subprocess.Popen[bytes]:
    """A `broadcast` command in its own process group (it and its chances worker end together)."""
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "firmware_py", "broadcast", "--room", "main", "--table",
                                 "t01", "--instance", name, "--broker", f"127.0.0.1:{broker.port}", "--delay",
                                 str(DELAY_S), "--headless", "--feed-port", str(port)], cwd=ROOT, env=environment(),
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def on_air(port: int) -> dict[str, Any] | None:
    body = get(port, "/feed.json")
    return body["on_air"] if body else None


def hides_every_card(body: dict[str, Any] | None) -> bool:
    return body is not None and not any(seat["cards"] for seat in body["seats"]) and \
        any(seat.get("hidden") for seat in body["seats"])


def test_standby_and_feature_table_switch_on_a_real_broker(tmp_path: Path, broker: Mosquitto) -> None:
    ports = {"primary": free_port(), "standby": free_port()}
    instances = {name: instance(name, port, broker, tmp_path / f"{name}.log") for name, port in ports.items()}
    tables: list[subprocess.Popen[bytes]] = []
    try:
        assert wait(lambda: all(pair_from_log(port, tmp_path / f"{name}.log") for name, port in ports.items()))
        assert wait(lambda: all(get(port, "/api/status") for port in ports.values()))
        for name in ("t01", "t02"):
            (tmp_path / name).mkdir()
            config = table_file(tmp_path / name, table=name, port=broker.port)
            tables.append(subprocess.Popen([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless",
                                            "--fresh", "--hands", "60", "--speed", "10", "--config", str(config),
                                            "--journal", str(tmp_path / name / "j.sqlite3")], cwd=ROOT,
                                           env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
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

        # The producer switches the feature table on the primary: both put t02 on air, with no restart.
        post(f"http://127.0.0.1:{ports['primary']}/api/control", {"feature": "t02"})
        assert wait(lambda: all((get(port, "/api/status") or {}).get("control", {}).get("feature") == "t02"
                                for port in ports.values()), timeout=30)
        assert wait(lambda: all((on_air(port) or {}).get("table") == "t02" for port in ports.values()), timeout=30)
        # A reveal policy set on the standby reaches the primary.
        post(f"http://127.0.0.1:{ports['standby']}/api/control", {"reveal": {"t02": "never"}})
        assert wait(lambda: all(hides_every_card(on_air(port)) for port in ports.values()), timeout=30)

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
            if process.poll() is None:
                process.terminate()
                process.wait(30)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # the chances worker, if it outlived its parent


def test_the_served_control_page_refuses_another_sites_post_and_a_foreign_host(tmp_path: Path) -> None:
    """The broadcast command serves its pages behind the pages' Host/Origin guard (docs/web.md): a page on
    another site open in the producer's browser cannot switch the feature table or reveal cards."""
    production = Production(room="main", feature="t01", delay_s=60.0)
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
