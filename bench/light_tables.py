"""Many tables in one process, publishing exactly what a table publishes: for the room's scale runs on 2 cores.

A whole table daemon (readers, buttons, dealer bot, rules core) costs too much to run 200 of on two cores,
so each light table is the part of a table the room sees: a real journal, written event by event at the
pace the events were played, and the real publisher (`firmware_py.room.publisher.RoomPublisher`, with its
own rules core, its marker and paho) reading it, woken after each commit as the daemon wakes it. The
events are those of real simulated sessions (`make_sources`: the simulated table, dealer bot and all,
run once per seed), so the messages on the broker are a table's messages, byte for byte in form.

    python bench/light_tables.py --broker 127.0.0.1:8883 --tls --ca-file ca.crt --room main \\
        --tables t01,t02 --password-dir pw/ --sources src/ --work out/ --seconds 60 --speed 2

Each table's journal is `<work>/<table>.sqlite3` (check it with tests/room/truth.py). The process
stops after `--seconds` (or at SIGTERM), flushes every publisher and prints one JSON line:
`{"tables": N, "events": E}`.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from _startup import ROOT

from firmware_py.daemon.journal import Journal
from firmware_py.profiles import load_profiles
from firmware_py.room.mqtt import broker_from_args
from firmware_py.room.publisher import RoomPublisher, journal_session
from firmware_py.room.room_config import BrokerConfig, RoomConfig
from tests.room.services import simulated_table_file

TICK_S = 0.02
BATCH_MAX = 64  # events per commit when catching up (the daemon commits each poll's events together)


def make_sources(directory: Path, *, count: int, hands: int, seats: int = 9) -> list[Path]:
    """`count` recorded sessions of the simulated table (seeds 1..count), made once and reused."""
    directory.mkdir(parents=True, exist_ok=True)
    config = simulated_table_file(directory, "source", seats=seats)
    paths = []
    for seed in range(1, count + 1):
        path = directory / f"seed{seed}-{hands}h.sqlite3"
        if not path.exists():
            subprocess.run([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--hands",
                            str(hands), "--seed", str(seed), "--error-rate", "0.25", "--config", str(config),
                            "--journal", str(path), "--fresh"], cwd=ROOT, check=True, capture_output=True,
                           timeout=600)
        paths.append(path)
    return paths


def source_lines(path: Path) -> list[tuple[float, str]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT line FROM events ORDER BY seq").fetchall()
    finally:
        db.close()
    return [(float(json.loads(line)["t"]), line) for (line,) in rows]


@dataclass
class LightTable:
    name: str
    journal: Journal
    publisher: RoomPublisher
    lines: list[tuple[float, str]]
    offset_s: float  # tables do not all start their session at the same instant
    done: int = 0
    extra: dict[str, float] = field(default_factory=dict)

    def due(self, elapsed_s: float, speed: float) -> list[str]:
        batch = []
        while self.done < len(self.lines) and len(batch) < BATCH_MAX and \
                self.lines[self.done][0] <= (elapsed_s - self.offset_s) * speed:
            batch.append(self.lines[self.done][1])
            self.done += 1
        return batch


def run_tables(*, broker: BrokerConfig, room: str, names: list[str], password_dir: Path, sources: list[Path],
               work: Path, seconds: float, speed: float, stop: threading.Event) -> int:
    """Play `names` as light tables for `seconds`; returns the events written."""
    profiles = load_profiles(ROOT / "config" / "profiles")
    played = {path: source_lines(path) for path in sources}
    rng = random.Random(len(names))
    tables = []
    for index, name in enumerate(names):
        path = work / f"{name}.sqlite3"
        journal = Journal.open(path)
        session = journal_session(journal)
        config = RoomConfig(room=room, table=name, dealer=f"dealer-{index % 7}", heartbeat_s=2.0,
                            broker=BrokerConfig(host=broker.host, port=broker.port, tls=broker.tls,
                                                ca_file=broker.ca_file, username=name,
                                                password_file=password_dir / f"{name}.password"))
        publisher = RoomPublisher(config, journal_path=path, session=session, profiles=profiles,
                                  base_dir=ROOT / "config")
        publisher.start()
        tables.append(LightTable(name, journal, publisher, played[sources[index % len(sources)]],
                                 offset_s=rng.uniform(0, 3.0)))
    started = time.monotonic()
    events = 0
    while not stop.is_set() and time.monotonic() - started < seconds:
        elapsed = time.monotonic() - started
        for table in tables:
            batch = table.due(elapsed, speed)
            if batch:
                table.journal.append_lines(batch)
                events += len(batch)
                table.publisher.wake()
        if all(t.done >= len(t.lines) for t in tables):
            break
        stop.wait(TICK_S)
    with ThreadPoolExecutor(max_workers=16) as pool:  # each stop flushes what is left (5 s at most)
        list(pool.map(lambda t: t.publisher.stop(), tables))
    for table in tables:
        table.journal.close()
    return events


def main(argv: list[str] | None = None) -> int:
    from firmware_py.room.mqtt import add_broker_arguments  # noqa: PLC0415

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_broker_arguments(parser, user="")
    parser.add_argument("--room", required=True)
    parser.add_argument("--tables", required=True, help="table ids, comma-separated")
    parser.add_argument("--password-dir", required=True, type=Path, help="holds <table>.password")
    parser.add_argument("--sources", required=True, type=Path, help="a directory of recorded sessions")
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--speed", type=float, default=1.0, help="session seconds per real second")
    args = parser.parse_args(argv)
    broker = broker_from_args(args)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    args.work.mkdir(parents=True, exist_ok=True)
    sources = sorted(args.sources.glob("*.sqlite3"))
    if not sources:
        print(f"light_tables: no recorded sessions in {args.sources}", file=sys.stderr)
        return 2
    events = run_tables(broker=broker, room=args.room, names=args.tables.split(","), password_dir=args.password_dir,
                        sources=sources, work=args.work, seconds=args.seconds, speed=args.speed, stop=stop)
    print(json.dumps({"tables": len(args.tables.split(",")), "events": events}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
