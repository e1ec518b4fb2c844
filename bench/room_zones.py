"""The room larger than one broker, and many tables through one: light tables (bench/light_tables.py: the real
publisher on real recorded sessions), the real collector and floor commands, Mosquitto with TLS and the ACL.

Zones (the shipped layout, config/room/zone-bridge.conf and config/room/acl-centre): two zone brokers on
loopback ports, each bridged to a central one, 25 tables on each zone, the collector and the floor on the
centre; the bridge is cut from both sides along the way (the centre stopped, then zone A stopped, each
restarted) while the tables go on:

    python bench/room_zones.py --zones 2 --tables 25 --seconds 120 --speed 4 --outage 10

One broker, many tables, PostgreSQL (the figures in the README): ruling-to-floor latency at the floor
view's own receipt, then the collector's sustained insert rate from a backlog (the collector stopped while
every table plays a further session as fast as it can, what they publish recorded and published again as
further sessions up to ROWS, then the collector started again and timed from its first row to the last):

    python bench/room_zones.py --zones 0 --tables 200 --seconds 300 --speed 2 --postgres --backlog 80000

Checks, exit 1 if any fails: every ruling and hand of every table's journal is in the collector's
database exactly once; the floor's last state of every table is the table's (seq and venue digest);
with zones, the collector's own retained `archived` confirmations reach every table's zone.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _startup import ROOT

from bench.light_tables import make_sources
from bench.room_scale import (
    check_exactly_once,
    check_floor,
    environment,
    parse_with_work,
    percentile,
    work_directory,
)
from firmware_py.room.mqtt import make_client
from firmware_py.room.room_config import BrokerConfig
from tests.room.services import (
    ACL_FILE,
    Mosquitto,
    Postgres,
    centre_acl,
    clientid_guard,
    make_certs,
    zone_bridge,
)
from tests.room.truth import journal_truth

ROOM = "main"
BRIDGE_CONF = ROOT / "config" / "room" / "zone-bridge.conf"
TABLES_PER_PROCESS = 50
QUEUE_LIMIT = 90_000  # below the broker's max_queued_messages (100,000), with room for what else is queued
# Only for the check that the collector's `archived` reaches the zones: a user that may read it on a zone.
WATCHER_ACL = "\nuser watcher\ntopic read pokertable/+/+/archived\n"
# And for the insert-rate backlog only: a user that may publish recorded rulings and hands again.
REPLAY_ACL = "\nuser replayer\ntopic write pokertable/+/+/ruling\ntopic write pokertable/+/+/hand\n"


def log(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)


class Room:
    """The brokers, passwords and processes of one run; `stop()` ends everything it started."""

    def __init__(self, work: Path, *, zones: int, tables: list[list[str]], centre_conf: tuple[str, ...] = ()) -> None:
        self.work = work
        self.passwords = work / "passwords"
        self.passwords.mkdir(parents=True, exist_ok=True)
        self.secret = {}
        zone_names = [f"zone-{chr(ord('a') + i)}" for i in range(zones)]
        centre_users = ["floor", "collector", "production", "director", "replayer", *zone_names]
        if not zones:
            centre_users += tables[0]
        for user in {*centre_users, *(t for group in tables for t in group), "watcher"}:
            self.secret[user] = f"pw-{user}-{os.getpid()}"
            (self.passwords / f"{user}.password").write_text(self.secret[user])
        acl = work / "centre.acl"
        zoned = dict(zip(zone_names, tables[:zones], strict=True))  # each zone user carries only its own tables
        acl.write_text(ACL_FILE.read_text() + "\n" + centre_acl(zoned) + REPLAY_ACL)
        guard = clientid_guard(work / "guard")  # every broker binds client ids to users, as shipped
        self.centre = Mosquitto(work / "centre", tls=True, users={u: self.secret[u] for u in centre_users}, acl=acl,
                                guard=guard, extra=list(centre_conf))
        self.centre.start()
        self.zones: list[Mosquitto] = []
        zone_acl = work / "zone.acl"
        zone_acl.write_text(ACL_FILE.read_text() + WATCHER_ACL)
        for name, group in zip(zone_names, tables[:zones], strict=True):
            bridge = zone_bridge(BRIDGE_CONF.read_text(), zone=name, centre=self.centre, password=self.secret[name])
            users = {u: self.secret[u] for u in [*group, "watcher"]}
            self.zones.append(Mosquitto(work / name, tls=True, users=users, acl=zone_acl, certs=make_certs(
                work / name / "certs"), extra=bridge, guard=guard).start())
        self.processes: list[subprocess.Popen[bytes]] = []

    def edge(self, zone: int) -> Mosquitto:
        """Where the tables of group `zone` connect."""
        return self.zones[zone] if self.zones else self.centre

    def tls_args(self, broker: Mosquitto) -> list[str]:
        return ["--broker", f"127.0.0.1:{broker.port}", "--tls", "--ca-file", str(broker.certs.ca)]  # type: ignore[union-attr]

    def command(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        process = subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=environment(),
                                   stdout=(self.work / f"{name}.out").open("wb"),
                                   stderr=(self.work / f"{name}.log").open("wb"))
        self.processes.append(process)
        return process

    def collector(self, db: str, name: str = "collector") -> subprocess.Popen[bytes]:
        return self.command(name, ["-m", "firmware_py", "collect", "--room", ROOM, *self.tls_args(self.centre),
                                   "--password-file", str(self.passwords / "collector.password"), "--db", db])

    def floor(self) -> subprocess.Popen[bytes]:
        return self.command("floor", ["-m", "firmware_py", "floor", "--room", ROOM, *self.tls_args(self.centre),
                                      "--password-file", str(self.passwords / "floor.password"), "--headless",
                                      "--dump", str(self.work / "floor.json")])

    def tables(self, name: str, zone: int, group: list[str], *, sources: Path, journals: Path, seconds: float,
               speed: float) -> subprocess.Popen[bytes]:
        return self.command(name, [str(ROOT / "bench" / "light_tables.py"), "--room", ROOM,
                                   *self.tls_args(self.edge(zone)), "--tables", ",".join(group),
                                   "--password-dir", str(self.passwords), "--sources", str(sources),
                                   "--work", str(journals), "--seconds", str(seconds), "--speed", str(speed)])

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
        for broker in [*self.zones, self.centre]:
            broker.stop()


def stop_process(process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def archived_crosses_the_bridge(room: Room, groups: list[list[str]], timeout: float = 30.0) -> bool:
    """The collector's own retained `archived` (published on the centre after each commit) reaches a
    subscriber on each zone for every table of that zone (the bridge's `in`): what the tables there
    wait for before they let a ruling or hand go."""
    from firmware_py.room.messages import ArchivedMessage, BadMessage, decode  # noqa: PLC0415

    heard: list[set[str]] = []
    clients = []
    for zone in room.zones:
        tables: set[str] = set()
        heard.append(tables)

        def on_message(_c: Any, _u: Any, m: Any, tables: set[str] = tables) -> None:
            try:
                message = decode(m.topic, m.payload)
            except BadMessage:
                return
            if isinstance(message, ArchivedMessage) and message.idx > 0:
                tables.add(message.table)

        client = make_client(BrokerConfig(host="127.0.0.1", port=zone.port, tls=True, ca_file=zone.certs.ca,  # type: ignore[union-attr]
                                          username="watcher", password_file=room.passwords / "watcher.password"),
                             client_id=f"watcher.{zone.port}")
        client.on_connect = lambda c, *_a: c.subscribe(f"pokertable/{ROOM}/+/archived", qos=1)
        client.on_message = on_message
        client.connect("127.0.0.1", zone.port)
        client.loop_start()
        clients.append(client)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(tables < set(group) for tables, group in zip(heard, groups,
                                                                                           strict=False)):
        time.sleep(0.2)
    for client in clients:
        client.disconnect()
        client.loop_stop()
    return all(tables >= set(group) for tables, group in zip(heard, groups, strict=False))


def count_rows(store: Any) -> int:
    return int(store.query("SELECT (SELECT count(*) FROM rulings) + (SELECT count(*) FROM hands)")[0][0])


def wait_rows(store: Any, expected: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    have = count_rows(store)
    while have < expected and time.monotonic() < deadline:
        time.sleep(0.2)
        have = count_rows(store)
    return have


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zones", type=int, default=2, help="zone brokers bridged to the centre (0: one broker)")
    parser.add_argument("--tables", type=int, default=25, help="tables per zone (with --zones 0: in all)")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the tables deal")
    parser.add_argument("--speed", type=float, default=2.0, help="session seconds per real second")
    parser.add_argument("--outage", type=float, default=10.0, help="each bridge outage, in seconds (zones)")
    parser.add_argument("--kill", action="store_true", help="SIGKILL the brokers for the outages (default SIGTERM: "
                        "a broker that saves its queues; after a SIGKILL the tables send again what the "
                        "collector's archived confirmations do not cover)")
    parser.add_argument("--hands", type=int, default=60, help="hands in each recorded session")
    parser.add_argument("--postgres", action="store_true", help="the collector into a real PostgreSQL")
    parser.add_argument("--backlog", type=int, default=0, metavar="ROWS",
                        help="then time the collector through a backlog of about ROWS rulings and hands")
    parser.add_argument("--sources", help="recorded sessions to reuse (default: made in the work directory)")
    args = parse_with_work(parser, argv)
    work = work_directory(args, "room_zones")
    if work is None:
        return 2
    groups = [[f"t{z * args.tables + i:03d}" for i in range(1, args.tables + 1)] for z in range(max(args.zones, 1))]
    names = [name for group in groups for name in group]
    sources = Path(args.sources) if args.sources else work / "sources"
    log(f"work {work}; recording {min(8, len(names))} sessions of {args.hands} hands")
    make_sources(sources, count=min(8, len(names)), hands=args.hands)
    postgres = Postgres(Path(tempfile.mkdtemp(prefix="pokertable-pg-"))) if args.postgres else None
    room = None
    failures: list[str] = []
    results: dict[str, Any] = {"zones": args.zones, "tables": len(names), "seconds": args.seconds,
                               "speed": args.speed, "db": "postgresql" if postgres else "sqlite"}
    try:
        from firmware_py.room.collector import open_store  # noqa: PLC0415

        db = postgres.start().url if postgres is not None else str(work / "room.sqlite3")
        # The insert-rate backlog measures the collector, not the broker's byte bound (max_queued_bytes, 32 MB,
        # config/room/mosquitto.conf): for it the centre queues by count only, as before issue 34.
        room = Room(work, zones=args.zones, tables=groups,
                    centre_conf=("max_queued_bytes 0",) if args.backlog else ())

        collector = room.collector(db)
        floor = room.floor()
        time.sleep(2.0)
        journals = work / "journals"
        workers = []
        for zone, group in enumerate(groups):
            chunks = [group[i:i + TABLES_PER_PROCESS] for i in range(0, len(group), TABLES_PER_PROCESS)]
            for k, chunk in enumerate(chunks):
                workers.append(room.tables(f"tables-{zone}-{k}", zone, chunk, sources=sources, journals=journals,
                                           seconds=args.seconds, speed=args.speed))
        started = time.monotonic()
        log(f"{len(names)} tables in {len(workers)} processes")
        outages: list[tuple[float, float]] = []
        if room.zones:
            for share, broker, what in ((0.3, room.centre, "the centre"), (0.6, room.zones[0], "zone A")):
                pause = started + share * args.seconds - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
                log(f"{what} down for {args.outage:g} s (the bridge cut from that side)")
                down = time.time()
                broker.kill() if args.kill else broker.stop()
                time.sleep(args.outage)
                broker.start()
                outages.append((down, time.time()))
        for worker in workers:
            worker.wait(args.seconds + 300)
            if worker.returncode != 0:
                failures.append(f"a table process exited {worker.returncode}")
        log("tables stopped; waiting for the collector")
        store = open_store(db)
        truths = {name: journal_truth(journals / f"{name}.sqlite3") for name in names}
        expected = sum(len(t.rulings) + len(t.hands) for t in truths.values())
        have = wait_rows(store, expected, 120)
        if room.zones:
            results["archived_crosses_the_bridge"] = archived_crosses_the_bridge(room, groups)
            if not results["archived_crosses_the_bridge"]:
                failures.append("the collector's archived confirmations did not reach every table's zone")
        time.sleep(3.0)  # the floor's last states
        stop_process(floor)
        stop_process(collector)
        check_exactly_once(store, truths, failures)
        floor_dump = json.loads((work / "floor.json").read_text())
        check_floor(floor_dump, truths, failures)

        def outside_outages(received: float) -> bool:
            return all(not (down - 1 <= received <= up + 20) for down, up in outages)

        live = [lat for received, lat in floor_dump.get("ruling_latencies", []) if outside_outages(received)]
        results.update({
            "events": sum(t.last_seq for t in truths.values()),
            "rulings": sum(len(t.rulings) for t in truths.values()),
            "hands": sum(len(t.hands) for t in truths.values()), "stored": have, "expected": expected,
            "ruling_to_floor_ms": {"median": round(statistics.median(live) * 1000, 1) if live else None,
                                   "p95": round(percentile(live, 0.95) * 1000, 1) if live else None,
                                   "p99": round(percentile(live, 0.99) * 1000, 1) if live else None,
                                   "max": round(max(live) * 1000, 1) if live else None, "samples": len(live)},
            "load_average": os.getloadavg()})
        log(f"{have} of {expected} rows; ruling to floor {results['ruling_to_floor_ms']}")
        if args.backlog:
            results["backlog"] = backlog(room, store, db, groups, sources=work / "backlog-sources",
                                         journals=work / "backlog", rows=args.backlog, failures=failures)
        store.close()
    finally:
        if room is not None:
            room.stop()
        if postgres is not None:
            postgres.stop()
            shutil.rmtree(postgres.directory, ignore_errors=True)
    results["failures"] = failures
    results["work"] = str(work)
    text = json.dumps(results, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    log("PASS" if not failures else f"FAIL: {len(failures)} checks")
    return 0 if not failures else 1


class Recorder:
    """A client on the centre as the collector's user, in a session of its own, keeping every ruling and hand."""

    def __init__(self, room: Room) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self.client = make_client(room_user(room, "collector"), client_id="collector.recorder")
        self.client.on_connect = lambda c, *_a: [c.subscribe(f"pokertable/{ROOM}/+/{k}", qos=1) for k in ("ruling",
                                                                                                           "hand")]
        self.client.on_message = lambda _c, _u, m: self.messages.append((m.topic, m.payload))
        self.client.connect("127.0.0.1", room.centre.port)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def room_user(room: Room, user: str) -> BrokerConfig:
    return BrokerConfig(host="127.0.0.1", port=room.centre.port, tls=True, ca_file=room.centre.certs.ca,  # type: ignore[union-attr]
                        username=user, password_file=room.passwords / f"{user}.password")


def replay(room: Room, recorded: list[tuple[str, bytes]], copies: int) -> None:
    """Publish the recorded rulings and hands `copies` more times, each copy as another session of the same table
    (the `session` field: `<session>-r<k>`), for the collector's queue: real messages, many more of them."""
    client = make_client(room_user(room, "replayer"), client_id="replayer")
    client.connect("127.0.0.1", room.centre.port)
    client.loop_start()
    last = None
    for k in range(1, copies + 1):
        for name, payload in recorded:
            body = json.loads(payload)
            body["session"] = f"{body['session']}-r{k}"
            if last is not None and last.mid % 5000 == 0:
                last.wait_for_publish(120)  # message ids are 16 bits: never 65,535 in flight
            last = client.publish(name, json.dumps(body).encode(), qos=1)
    if last is not None:
        last.wait_for_publish(120)
    time.sleep(1.0)
    client.disconnect()
    client.loop_stop()


def backlog(room: Room, store: Any, db: str, groups: list[list[str]], *, sources: Path, journals: Path,
            rows: int, failures: list[str]) -> dict[str, Any]:
    """The collector's sustained insert rate: with the collector away (the broker keeps its persistent session's
    messages) every table plays a short session as fast as it can, and what they published is published again
    as further sessions until about `rows` rulings and hands wait; then the collector is started and timed
    from its first row to the last."""
    make_sources(sources, count=4, hands=12)
    before = count_rows(store)
    recorder = Recorder(room)
    log("backlog: every table plays another session with the collector away")
    workers = [room.tables(f"backlog-{z}-{k}", z, group[i:i + TABLES_PER_PROCESS], sources=sources,
                           journals=journals, seconds=600, speed=1e6)
               for z, group in enumerate(groups)
               for k, i in enumerate(range(0, len(group), TABLES_PER_PROCESS))]
    for worker in workers:
        worker.wait(900)
    names = [name for group in groups for name in group]
    truths = {name: journal_truth(journals / f"{name}.sqlite3") for name in names}
    played = sum(len(t.rulings) + len(t.hands) for t in truths.values())
    deadline = time.monotonic() + 60
    while len(recorder.messages) < played and time.monotonic() < deadline:
        time.sleep(0.2)
    recorder.close()
    # Mosquitto drops what an offline client's session holds beyond max_queued_messages (100,000 as the tests and
    # install-room.sh configure it): a larger backlog would measure the broker's limit, not the collector.
    copies = max(0, min(math.ceil(rows / max(played, 1)), QUEUE_LIMIT // max(played, 1)) - 1)
    replay(room, list(recorder.messages), copies)
    expected = before + played * (copies + 1)
    log(f"backlog: {expected - before} rulings and hands queued ({played} played, {copies} copies); "
        "starting the collector")
    collector = room.collector(db, name="collector-backlog")
    first = None
    have = before
    progress = (time.monotonic(), have)
    while have < expected and time.monotonic() - progress[0] < 30:  # stalled 30 s: what is missing is lost
        time.sleep(0.05)
        have = count_rows(store)
        if have > before and first is None:
            first = (time.monotonic(), have)
        if have > progress[1]:
            progress = (time.monotonic(), have)
    last = progress[0]
    stop_process(collector)
    check_exactly_once(store, truths, failures)
    if have != expected:
        failures.append(f"backlog: {have - before} of {expected - before} rows stored")
    if first is None:  # nothing stored: no rate to give (the failure above says so), not round(nan)
        log(f"backlog: {have - before} of {expected - before} rows stored: no insert rate")
        return {"rows": expected - before, "played": played, "copies": copies, "stored": have - before,
                "seconds": None, "rows_per_s": None}
    seconds = last - first[0]
    rate = (have - first[1]) / seconds if seconds > 0 else math.nan
    log(f"backlog: {have - before} of {expected - before} rows in {seconds:.1f} s: {rate:.0f} rows/s")
    return {"rows": expected - before, "played": played, "copies": copies, "stored": have - before,
            "seconds": round(seconds, 2), "rows_per_s": round(rate) if math.isfinite(rate) else None}


if __name__ == "__main__":
    sys.exit(main())
