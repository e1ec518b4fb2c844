"""The broker's backlog against one table's password (issue 34): the collector's persistent session away, table
t01 floods its ruling topic; the broker's memory and its stalls (the longest round trip of a probe that publishes
to itself every 20 ms, through each autosave) are measured, on a Mosquitto set up as the room ships it (TLS,
passwords, config/room/acl, config/room/mosquitto.conf, the client-id plugin), or with `--conf` lines in place of
the shipped settings of the same name (to measure what they were before):

    python bench/broker_backlog.py --mb 400                                     # as shipped
    python bench/broker_backlog.py --mb 400 --conf "max_queued_bytes 0"         # without the byte bound

Prints a JSON line: the broker's peak RSS, its store file's size, the longest probe round trip, the flood's size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _startup import ROOT  # noqa: F401  (the checkout's packages, as a script too)

from firmware_py.room.mqtt import connect_properties, make_client
from firmware_py.room.room_config import BrokerConfig
from tests.room.services import ACL_FILE, Mosquitto, clientid_guard

USERS = {"t01": "t01-secret", "collector": "collector-secret", "floor": "floor-secret"}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def client(server: Mosquitto, user: str, client_id: str, work: Path) -> Any:
    password = work / f"{user}.password"
    password.write_text(USERS[user])
    assert server.certs is not None
    config = BrokerConfig(host="127.0.0.1", port=server.port, tls=True, ca_file=server.certs.ca, username=user,
                          password_file=password)
    return make_client(config, client_id=client_id)


def measure(work: Path, *, mb: float, conf: list[str], message_kb: int = 200, seconds_after: float = 12.0
            ) -> dict[str, Any]:
    replaced = {line.split()[0] for line in conf}
    server = Mosquitto(work / "broker", tls=True, users=USERS, acl=ACL_FILE, guard=clientid_guard(work / "guard"))
    lines = [line for line in server.conf.read_text().splitlines() if line.split(" ", 1)[0] not in replaced]
    server.conf.write_text("\n".join([*lines, *conf]) + "\n")
    server.start()
    assert server.process is not None
    try:
        # The collector subscribes with a persistent session, then goes away: what t01 sends is queued for it.
        collector = client(server, "collector", "collector.backlog", work)
        collector.connect("127.0.0.1", server.port, clean_start=False,
                          properties=connect_properties(session_expiry_s=3600))
        collector.loop_start()
        collector.subscribe("pokertable/main/+/ruling", qos=1)
        time.sleep(1.0)
        collector.disconnect()
        collector.loop_stop()
        # The probe: the floor's user publishing to itself? It may publish nothing; t01's own status it can read.
        probe = client(server, "t01", "t01.probe", work)
        got = threading.Event()
        probe.on_message = lambda _c, _u, _m: got.set()
        probe.connect("127.0.0.1", server.port)
        probe.loop_start()
        probe.subscribe("pokertable/main/t01/archived", qos=0)  # t01 may read it; the flood never goes there
        watcher = client(server, "floor", "floor.probe", work)
        watcher.on_message = lambda _c, _u, _m: got.set()
        watcher.connect("127.0.0.1", server.port)
        watcher.loop_start()
        watcher.subscribe("pokertable/main/t01/heartbeat", qos=0)
        time.sleep(1.0)
        worst = 0.0
        peak = rss_mb(server.process.pid)
        stop = threading.Event()

        def probing() -> None:
            nonlocal worst, peak
            while not stop.is_set():
                got.clear()
                started = time.monotonic()
                probe.publish("pokertable/main/t01/heartbeat", b"{}", qos=0)
                got.wait(10.0)
                worst = max(worst, time.monotonic() - started)
                peak = max(peak, rss_mb(server.process.pid))
                time.sleep(0.02)

        thread = threading.Thread(target=probing, daemon=True)
        thread.start()
        flood = client(server, "t01", "t01.flood", work)
        acked: list[int] = []
        flood.on_publish = lambda _c, _u, mid, _r, _p: acked.append(mid)
        flood.connect("127.0.0.1", server.port)
        flood.loop_start()
        payload = b'{"v": 1, "junk": "' + b"x" * (message_kb * 1024) + b'"}'
        count = int(mb * 1024 / message_kb)
        started = time.monotonic()
        for number in range(count):
            flood.publish("pokertable/main/t01/ruling", payload, qos=1)
            while number - len(acked) > 100:
                time.sleep(0.005)
        while len(acked) < count and time.monotonic() - started < 600:
            time.sleep(0.05)
        flood_s = time.monotonic() - started
        time.sleep(seconds_after)  # autosaves with the backlog in place
        stop.set()
        thread.join(15)
        for each in (flood, probe, watcher):
            each.disconnect()
            each.loop_stop()
        store = work / "broker" / "store" / "mosquitto.db"
        return {"flood_mb": round(count * len(payload) / 2**20), "flood_s": round(flood_s, 1),
                "broker_peak_rss_mb": round(peak), "store_mb": round(store.stat().st_size / 2**20, 1)
                if store.exists() else 0.0, "worst_round_trip_s": round(worst, 3), "conf": conf}
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=400.0, help="the flood's size in MB (default 400)")
    parser.add_argument("--conf", action="append", default=[], help="a mosquitto.conf line in place of the shipped one")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="broker-backlog-") as work:
        print(json.dumps(measure(Path(work), mb=args.mb, conf=args.conf)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
