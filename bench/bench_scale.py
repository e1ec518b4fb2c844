"""Undo latency and resume time against session length: both should cost the current hand, not the session.

    python bench/bench_scale.py                 # sessions of 10k, 76k, 250k and 750k events
    python bench/bench_scale.py --events 20000  # one length

For each length the 500-hand bench session is repeated (time-shifted) to that many events. Undo:
the core fed every event up to the middle of a hand, then one `undo` press timed (median of 5).
Resume: a journal of that many events with the daemon's core checkpoint, opened and resumed by a
fresh process (the journal's integrity check, the checkpoint restored, the hand's events replayed),
timed with its peak memory, and the whole restart (`process s`: the interpreter, the daemon's
imports and config, the resume), as after a power cut. Figures go to bench/results/scale.json.
"""

from __future__ import annotations

import argparse
import json
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from _startup import ROOT

from bench.run import session_file
from firmware_py.core import Button, ButtonName, Event, Setup
from firmware_py.core.engine import TableCore
from firmware_py.daemon.table_config import load_table_config
from firmware_py.session import read_session

RESULTS = ROOT / "bench" / "results" / "scale.json"
LENGTHS = (10_000, 76_000, 250_000, 750_000)
CONFIG_FILE = ROOT / "config" / "table.toml"


def long_session(events: int) -> list[Event]:
    """The bench session's hands repeated until `events` events, ending mid-hand (after a press)."""
    base = [event for _line, event in read_session(session_file())]
    setup, hands = base[0], base[1:]
    span = hands[-1].t + 10.0
    assert isinstance(setup, Setup)
    config = load_table_config(CONFIG_FILE, with_display=False)
    out: list[Event] = [replace(config.setup(t=0.0), seats=setup.seats, button=setup.button)]
    shift = 0.0
    while len(out) < events:
        for event in hands:
            out.append(replace(event, t=event.t + shift))
            if len(out) >= events and isinstance(event, Button) and event.name is not ButtonName.NEW_HAND:
                return out
        shift += span
    return out


def undo_latency(events: list[Event], repeats: int = 5) -> float:
    core = TableCore(load_table_config(CONFIG_FILE, with_display=False).profiles)
    for event in events:
        core.feed(event)
    times = []
    for _ in range(repeats):
        press = Button(t=events[-1].t, name=ButtonName.CHECK)
        core.feed(press)
        started = time.perf_counter()
        core.feed(Button(t=events[-1].t, name=ButtonName.UNDO))
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def write_journal(path: Path, events: list[Event]) -> None:
    """The journal as the daemon leaves it: every event, and the core checkpoint of its last hand boundary."""
    from firmware_py.daemon.app import Daemon, Stop  # noqa: PLC0415
    from firmware_py.daemon.journal import Journal  # noqa: PLC0415

    config = load_table_config(CONFIG_FILE, with_display=False)
    boundary = max(i for i, e in enumerate(events) if isinstance(e, Button) and e.name is ButtonName.NEW_HAND)
    with Journal.open(path) as journal:
        for start in range(0, boundary + 1, 20_000):
            journal.append(events[start:min(start + 20_000, boundary + 1)])
    journal = Journal.open(path)
    inbox: queue.Queue[object] = queue.Queue()
    inbox.put(Stop("bench"))
    Daemon(config, journal=journal, clock=lambda: 0.0, events=inbox).run()  # full replay, then a checkpoint
    journal.append(events[boundary + 1:])  # the current hand, journaled after its checkpoint; then a kill
    journal.close()


def resume_child(path: str) -> None:
    """Run in a fresh process: open and resume the journal, print seconds and peak RSS."""
    from firmware_py.daemon.app import Daemon, Stop  # noqa: PLC0415
    from firmware_py.daemon.journal import Journal  # noqa: PLC0415

    config = load_table_config(CONFIG_FILE, with_display=False)
    # The peak (VmHWM) of a forked process starts at its parent's: reset it to this process's own size.
    Path("/proc/self/clear_refs").write_text("5")
    before = _peak_mib()
    started = time.perf_counter()
    journal = Journal.open(path)
    opened = time.perf_counter()
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(config, journal=journal, clock=lambda: 0.0, events=inbox)
    daemon._resume()
    done = time.perf_counter()
    inbox.put(Stop("bench"))
    journal.close()
    print(json.dumps({"open_s": opened - started, "resume_s": done - started, "replayed": daemon.replayed_on_resume,
                      "events": daemon.resumed, "rss_mib": _peak_mib(), "rss_before_mib": before}))


def _peak_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def resume(path: Path, repeats: int = 3) -> dict[str, float]:
    runs = []
    for run in range(repeats):  # each on a copy: a resume saves a checkpoint of its own
        copy = path.with_name(f"run{run}.sqlite3")
        for suffix in ("", "-wal", "-ack"):
            if Path(str(path) + suffix).exists():
                shutil.copy(str(path) + suffix, str(copy) + suffix)
        started = time.perf_counter()
        out = subprocess.run([sys.executable, __file__, "--resume-child", str(copy)], capture_output=True, text=True,
                             check=True, cwd=ROOT)
        # The whole restart as after a power cut: the interpreter, the daemon's imports and config, the resume.
        process_s = time.perf_counter() - started
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]) | {"process_s": process_s})
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, action="append")
    parser.add_argument("--resume-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.resume_child:
        resume_child(args.resume_child)
        return 0
    rows = []
    print(f"{'events':>8} {'undo ms':>8} {'open s':>7} {'resume s':>9} {'process s':>9} {'replayed':>8} "
          f"{'peak RSS MiB':>12}")
    for length in args.events or LENGTHS:
        events = long_session(length)
        undo_s = undo_latency(events)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "journal.sqlite3"
            write_journal(path, events)
            del events
            res = resume(path)
        rows.append({"events": length, "undo_s": undo_s, **res})
        print(f"{length:>8} {undo_s * 1000:>8.2f} {res['open_s']:>7.2f} {res['resume_s']:>9.2f} "
              f"{res['process_s']:>9.2f} "
              f"{int(res['replayed']):>8} {res['rss_mib']:>12.1f}", flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"rows": rows, "python": sys.version.split()[0]}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
