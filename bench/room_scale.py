"""The room at scale: Mosquitto (TLS, passwords, the shipped ACL) on loopback, N simulated tables, the floor
view headless and the collector, with two broker restarts and two tables SIGKILLed along the way.

    python bench/room_scale.py --tables 50 --seconds 600 --outage 60      # the full run
    python bench/room_scale.py --tables 3 --seconds 40 --outage 3          # the CI size (tests/room/test_scale.py)

Then it checks, and exits 1 if any check fails:
- every ruling and every finished hand in every table's journal is in the collector's database exactly once;
- the floor view's last state of each table equals the table's own (the venue-state digest of its journal);
- the ACL denied every forbidden read (the floor, collector and production users each asked for everything)
  and a table's publish under another table's id.
It also measures the ruling-to-floor latency (from the moment the daemon ruled to a floor client's receipt,
outside the outage windows) and the catch-up time after the first outage. Results go to --out as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _startup import ROOT

from firmware_py.room.messages import parse_topic
from firmware_py.room.mqtt import connect_properties, make_client
from firmware_py.room.room_config import BrokerConfig
from tests.room.services import ACL_FILE, Mosquitto, clientid_guard, ensure_installed, simulated_table_file
from tests.room.truth import journal_truth, last_seq

ROOM = "scale"
FORBIDDEN = {"floor": {"hand", "broadcast"}, "collector": {"broadcast", "state", "heartbeat"},
             "production": {"hand", "ruling", "heartbeat"}}


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["SDL_VIDEODRIVER"] = env["SDL_AUDIODRIVER"] = "dummy"
    return env


class Monitor:
    """A client as one of the room's users, asking for every topic (the ACL must filter), timing rulings."""

    def __init__(self, broker: Mosquitto, user: str, password_file: Path) -> None:
        config = BrokerConfig(host="127.0.0.1", port=broker.port, tls=True, ca_file=broker.certs.ca,  # type: ignore[union-attr]
                              username=user, password_file=password_file)
        self.user = user
        self.kinds: dict[str, int] = {}
        self.latencies: list[tuple[float, float]] = []  # (received, seconds since the daemon ruled)
        self.state_seq: dict[str, tuple[str, int]] = {}  # table -> (session, seq)
        self.client = make_client(config, client_id=f"{user}.monitor")
        self.lock = threading.Lock()

        def on_connect(client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
            if not reason.is_failure:
                for name in (f"pokertable/{ROOM}/#", f"pokertable/{ROOM}/+/hand", f"pokertable/{ROOM}/+/broadcast"):
                    client.subscribe(name, qos=1)

        def on_message(_c: Any, _u: Any, message: Any) -> None:
            now = time.time()
            where = parse_topic(message.topic)
            if where is None:
                return
            _room, table, kind = where
            body = json.loads(message.payload)
            with self.lock:
                self.kinds[kind] = self.kinds.get(kind, 0) + 1
                if kind == "ruling" and "wall" in body:
                    self.latencies.append((now, now - float(body["wall"])))
                if kind == "state":
                    self.state_seq[table] = (body["session"], int(body["seq"]))

        self.client.on_connect = on_connect
        self.client.on_message = on_message
        self.client.connect_async("127.0.0.1", broker.port, clean_start=False,
                                  properties=connect_properties(session_expiry_s=3600))
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def forged_publish(broker: Mosquitto, password_file: Path) -> str:
    """t01 publishing under t02's id: the broker's answer (MQTT 5 reason code)."""
    config = BrokerConfig(host="127.0.0.1", port=broker.port, tls=True, ca_file=broker.certs.ca,  # type: ignore[union-attr]
                          username="t01", password_file=password_file)
    client = make_client(config, client_id="t01.forger")
    answer: dict[str, str] = {}
    client.on_publish = lambda _c, _u, _mid, reason, _p: answer.setdefault("reason", str(reason))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish(f"pokertable/{ROOM}/t02/state", b'{"v": 1, "forged": true}', qos=1)
    deadline = time.monotonic() + 10
    while "reason" not in answer and time.monotonic() < deadline:
        time.sleep(0.05)
    client.disconnect()
    client.loop_stop()
    return answer.get("reason", "no answer")


def table_config(work: Path, table: str, broker: Mosquitto, password: Path) -> Path:
    return simulated_table_file(work, table, seats=9, room=f"""
[room]
room = "{ROOM}"
table = "{table}"
broker = "127.0.0.1"
port = {broker.port}
tls = true
ca_file = "{broker.certs.ca}"
password_file = "{password}"
dealer = "dealer-{int(table[1:]) % 7}"
heartbeat_s = 2""")


STARTED: list[Any] = []  # every process this run started (tables, collector, floor) and its broker


def end_all() -> None:
    """Whatever this run started and is still running, ended: on any exit, a failed check, a traceback or a SIGTERM
    (`timeout`), so no table, collector, floor or broker outlives the run (a run that failed left 50 tables)."""
    running = [p for p in STARTED if isinstance(p, subprocess.Popen) and p.poll() is None]
    for process in running:
        process.terminate()
    deadline = time.monotonic() + 30
    for process in running:
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    for broker in STARTED:
        if isinstance(broker, Mosquitto):
            broker.stop()


class Table:
    def __init__(self, work: Path, name: str, index: int, config: Path, *, speed: float, hands: int) -> None:
        self.name, self.config, self.speed, self.index, self.hands = name, config, speed, index, hands
        self.journal = work / f"{name}.sqlite3"
        self.log = (work / f"{name}.log").open("ab")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, *, fresh: bool) -> None:
        argv = [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--hands", str(self.hands),
                "--seed", str(self.index), "--error-rate", "0.25", "--speed", str(self.speed), "--config",
                str(self.config), "--journal", str(self.journal)] + (["--fresh"] if fresh else [])
        self.process = subprocess.Popen(argv, cwd=ROOT, env=environment(), stdout=self.log, stderr=self.log)
        STARTED.append(self.process)

    def signal(self, number: int) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(number)


def check_exactly_once(store: Any, truths: dict[str, Any], failures: list[str]) -> None:
    """Every ruling and hand of each table's journal (its truth) stored once, nothing else for its session."""
    for name, truth in truths.items():
        rows = {tuple(r) for r in store.query(f"SELECT seq, n FROM rulings WHERE table_id = '{name}' "
                                              f"AND session = '{truth.session}'")}
        count = store.query(f"SELECT count(*) FROM rulings WHERE table_id = '{name}' AND session = '{truth.session}'")
        if count[0][0] != len(rows) or rows != truth.rulings:
            failures.append(f"{name}: collector rulings {count[0][0]} (distinct {len(rows)}), journal "
                            f"{len(truth.rulings)}; missing {sorted(truth.rulings - rows)[:5]}")
        hands = [r[0] for r in store.query(f"SELECT seq FROM hands WHERE table_id = '{name}' "
                                           f"AND session = '{truth.session}'")]
        if len(hands) != len(set(hands)) or set(hands) != truth.hands:
            failures.append(f"{name}: collector hands {len(hands)}, journal {len(truth.hands)}; "
                            f"missing {sorted(truth.hands - set(hands))[:5]}")


def check_floor(floor_dump: dict[str, Any], truths: dict[str, Any], failures: list[str]) -> None:
    """The floor's last state of each table is the table's own (its journal's last seq and venue digest)."""
    for name, truth in truths.items():
        seen = floor_dump["tables"].get(name, {})
        if seen.get("digest") != truth.final["digest"] or seen.get("seq") != truth.last_seq:
            failures.append(f"{name}: the floor's last state is seq {seen.get('seq')} digest {seen.get('digest')}, "
                            f"the table's seq {truth.last_seq} digest {truth.final['digest']}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def parse_with_work(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The options every room benchmark shares (where to work, where the results go), then parse."""
    parser.add_argument("--work", help="keep everything in this directory (default: a temporary one)")
    parser.add_argument("--out", help="write the results as JSON here")
    return parser.parse_args(argv)


def work_directory(args: argparse.Namespace, name: str) -> Path | None:
    """The run's directory, once Mosquitto is known to be here (None, having said why, when it is not)."""
    reason = ensure_installed("mosquitto", ["mosquitto", "mosquitto-clients"])
    if reason:
        print(f"{name}: no Mosquitto: {reason}", file=sys.stderr)
        return None
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix=f"{name.replace('_', '-')}-"))
    work.mkdir(parents=True, exist_ok=True)
    return work


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=600.0, help="how long the tables deal")
    parser.add_argument("--outage", type=float, default=60.0, help="the first broker outage, in seconds")
    parser.add_argument("--speed", type=float, default=1.0, help="simulated seconds per real second")
    parser.add_argument("--db", help="the collector's database (default: a SQLite file in the work directory)")
    args = parse_with_work(parser, argv)
    work = work_directory(args, "room_scale")
    if work is None:
        return 2
    names = [f"t{i:02d}" for i in range(1, args.tables + 1)]
    users = {name: f"pw-{name}-{os.getpid()}" for name in [*names, "floor", "collector", "production"]}
    log = lambda text: print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)  # noqa: E731
    log(f"work directory {work}; {len(names)} tables for {args.seconds:.0f} s at speed {args.speed}")
    broker = Mosquitto(work / "broker", tls=True, users=users, acl=ACL_FILE,
                       guard=clientid_guard(work / "guard")).start()  # the room as shipped
    STARTED.append(broker)
    passwords = {}
    for user, password in users.items():
        passwords[user] = work / f"{user}.password"
        passwords[user].write_text(password)
    tls = ["--broker", f"127.0.0.1:{broker.port}", "--tls", "--ca-file", str(broker.certs.ca)]  # type: ignore[union-attr]
    db = args.db or str(work / "room.sqlite3")
    collector = subprocess.Popen([sys.executable, "-m", "firmware_py", "collect", "--room", ROOM, *tls, "--user",
                                  "collector", "--password-file", str(passwords["collector"]), "--db", db],
                                 cwd=ROOT, env=environment(), stdout=(work / "collector.out").open("wb"),
                                 stderr=(work / "collector.log").open("wb"))
    floor = subprocess.Popen([sys.executable, "-m", "firmware_py", "floor", "--room", ROOM, *tls, "--user", "floor",
                              "--password-file", str(passwords["floor"]), "--headless", "--dump",
                              str(work / "floor.json"), "--snapshot", str(work / "floor.png")],
                             cwd=ROOT, env=environment(), stdout=subprocess.DEVNULL,
                             stderr=(work / "floor.log").open("wb"))
    STARTED.extend((collector, floor))
    monitors = {user: Monitor(broker, user, passwords[user]) for user in FORBIDDEN}
    time.sleep(3.0)
    hands = int(args.seconds * args.speed / 15) + 10  # more than they can deal (a hand takes 30-60 s of play)
    tables = [Table(work, name, i, table_config(work, name, broker, passwords[name]), speed=args.speed, hands=hands)
              for i, name in enumerate(names, start=1)]
    for table in tables:
        table.start(fresh=True)
        time.sleep(min(0.3, 10.0 / len(tables)))
    log("tables started")
    started = time.monotonic()
    outages: list[tuple[float, float]] = []  # (down, up) in time.time()
    catch_up_s: float | None = None
    killed = tables[1:3] if len(tables) >= 3 else tables[:1]
    plan = [(0.2, "outage"), (0.45, "kill"), (0.55, "restart-killed"), (0.7, "blip")]
    for share, step in plan:
        pause = started + share * args.seconds - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        if step == "outage":
            down = time.time()
            log(f"broker down for {args.outage:.0f} s")
            broker.stop()
            time.sleep(args.outage)
            broker.start()
            up = time.time()
            outages.append((down, up))
            targets = {t.name: last_seq(t.journal) for t in tables}
            log("broker up; waiting for every table to catch up")
            deadline = time.monotonic() + 120
            floor_view = monitors["floor"]
            while time.monotonic() < deadline:
                with floor_view.lock:
                    behind = [n for n, target in targets.items() if floor_view.state_seq.get(n, ("", 0))[1] < target]
                if not behind:
                    catch_up_s = time.time() - up
                    break
                time.sleep(0.05)
            log(f"caught up in {catch_up_s if catch_up_s is not None else 'more than 120'} s")
        elif step == "kill":
            for table in killed:
                log(f"SIGKILL {table.name}")
                table.signal(signal.SIGKILL)
        elif step == "restart-killed":
            for table in killed:
                if table.process is not None:
                    table.process.wait(10)
                log(f"restart {table.name} (it resumes from its journal)")
                table.start(fresh=False)
        elif step == "blip":
            down = time.time()
            log("broker restart")
            broker.restart(down_s=2.0)
            outages.append((down, time.time()))
    pause = started + args.seconds - time.monotonic()
    if pause > 0:
        time.sleep(pause)
    log("stopping the tables")
    for table in tables:
        table.signal(signal.SIGTERM)
    for table in tables:
        if table.process is not None:
            try:
                table.process.wait(60)
            except subprocess.TimeoutExpired:
                table.process.kill()
    truths = {t.name: journal_truth(t.journal) for t in tables}
    expected = sum(len(t.rulings) + len(t.hands) for t in truths.values())
    log(f"tables stopped; {expected} rulings and hands in the journals; waiting for the collector")
    from firmware_py.room.collector import open_store  # noqa: PLC0415

    store = open_store(db)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        have = store.query("SELECT (SELECT count(*) FROM rulings) + (SELECT count(*) FROM hands)")[0][0]
        if have >= expected:
            break
        time.sleep(0.5)
    time.sleep(3.0)  # the floor's last states
    collector.send_signal(signal.SIGTERM)
    floor.send_signal(signal.SIGTERM)
    collector.wait(60)
    floor.wait(60)
    forged = forged_publish(broker, passwords["t01"])
    for monitor in monitors.values():
        monitor.stop()
    broker.stop()

    # -- the checks ----------------------------------------------------------------------------------
    failures: list[str] = []
    floor_dump = json.loads((work / "floor.json").read_text())
    check_exactly_once(store, truths, failures)
    check_floor(floor_dump, truths, failures)
    denied = {}
    for user, monitor in monitors.items():
        read = set(monitor.kinds) & FORBIDDEN[user]
        denied[user] = {"received": monitor.kinds, "forbidden_read": sorted(read)}
        if read:
            failures.append(f"{user} read {sorted(read)}")
        if not monitor.kinds:
            failures.append(f"{user} received nothing at all: the check would prove nothing")
    if forged != "Not authorized":
        failures.append(f"t01 publishing as t02: the broker answered {forged!r}")
    duplicates = int((work / "collector.out").read_text().split("stored, ")[-1].split(" ")[0]) \
        if "stored, " in (work / "collector.out").read_text() else None

    def outside_outages(received: float) -> bool:
        return all(not (down - 1 <= received <= up + 20) for down, up in outages)

    # Measured in the floor view's own process (its dump), and in this script's floor-user client, which
    # shares its interpreter with the collector and production monitors (a busier process).
    live = [lat for received, lat in floor_dump.get("ruling_latencies", []) if outside_outages(received)]
    monitored = [lat for received, lat in monitors["floor"].latencies if outside_outages(received)]
    results = {
        "tables": len(tables), "seconds": args.seconds, "speed": args.speed, "outage_s": args.outage,
        "rulings": sum(len(t.rulings) for t in truths.values()), "hands": sum(len(t.hands) for t in truths.values()),
        "events": sum(t.last_seq for t in truths.values()),
        "latency_ms": {"median": round(statistics.median(live) * 1000, 1) if live else None,
                       "p95": round(percentile(live, 0.95) * 1000, 1) if live else None,
                       "p99": round(percentile(live, 0.99) * 1000, 1) if live else None, "samples": len(live),
                       "max": round(max(live) * 1000, 1) if live else None},
        "latency_ms_monitor_client": {"median": round(statistics.median(monitored) * 1000, 1) if monitored else None,
                                      "p99": round(percentile(monitored, 0.99) * 1000, 1) if monitored else None},
        "load_average": os.getloadavg(),
        "catch_up_s": round(catch_up_s, 2) if catch_up_s is not None else None,
        "collector_duplicates_dropped": duplicates, "acl": denied, "forged_publish": forged,
        "failures": failures, "work": str(work),
    }
    text = json.dumps(results, indent=1)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    log("PASS" if not failures else f"FAIL: {len(failures)} checks")
    return 0 if not failures else 1


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))  # `timeout`: the finally below runs
    try:
        sys.exit(main())
    finally:
        end_all()
