"""What publishing to the room costs a table: CPU and memory of a simulated table at real speed with and
without `[room]` (the same seed, side by side), against a Mosquitto on loopback.

    python bench/room_bench.py --seconds 120

The ruling-to-floor latency at 50 tables and the catch-up after a 60 s outage come from
`bench/room_scale.py` (the full run); this script prints them too when given its JSON (--scale FILE).
Goals: p99 latency under 250 ms, catch-up under 10 s, under 2% CPU added.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _startup import ROOT

from tests.room.services import Mosquitto, ensure_installed, simulated_table_file

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def config(work: Path, name: str, room: str) -> Path:
    return simulated_table_file(work, name, seats=9, room=room)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120.0, help="measured time at real speed")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--scale", help="bench/room_scale.py's JSON, for the latency and catch-up lines")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "room.json"))
    args = parser.parse_args(argv)
    reason = ensure_installed("mosquitto", ["mosquitto", "mosquitto-clients"])
    if reason:
        print(f"room_bench: {reason}", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="room-bench-"))
    broker = Mosquitto(work / "broker").start()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    hands = int(args.seconds / 15) + 10
    room = f'[room]\nroom = "bench"\ntable = "t01"\nbroker = "127.0.0.1"\nport = {broker.port}\n'
    processes = {}
    for name, section in (("without", ""), ("with", room)):
        processes[name] = subprocess.Popen(
            [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh", "--hands", str(hands),
             "--seed", "11", "--speed", "1", "--config", str(config(work, name, section)), "--journal",
             str(work / f"{name}.sqlite3")], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(args.warmup)
    start = {name: cpu_seconds(p.pid) for name, p in processes.items()}
    t0 = time.monotonic()
    time.sleep(args.seconds)
    elapsed = time.monotonic() - t0
    cpu = {name: (cpu_seconds(p.pid) - start[name]) / elapsed * 100 for name, p in processes.items()}
    rss = {name: rss_mib(p.pid) for name, p in processes.items()}
    for process in processes.values():
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    broker.stop()
    results: dict[str, object] = {
        "seconds": round(elapsed, 1),
        "cpu_percent": {k: round(v, 2) for k, v in cpu.items()},
        "cpu_added_percent": round(cpu["with"] - cpu["without"], 2),
        "rss_mib": {k: round(v, 1) for k, v in rss.items()},
        "rss_added_mib": round(rss["with"] - rss["without"], 1),
    }
    lines = [f"table at real speed, {elapsed:.0f} s: CPU {cpu['without']:.2f}% without the room, "
             f"{cpu['with']:.2f}% with it: +{cpu['with'] - cpu['without']:.2f} points (goal: under 2)",
             f"RSS {rss['without']:.1f} MiB without, {rss['with']:.1f} MiB with: "
             f"+{rss['with'] - rss['without']:.1f} MiB"]
    if args.scale:
        scale = json.loads(Path(args.scale).read_text())
        results["scale"] = scale
        latency = scale["latency_ms"]
        lines.append(f"ruling to floor at {scale['tables']} tables: median {latency['median']} ms, p99 "
                     f"{latency['p99']} ms over {latency['samples']} rulings (goal: p99 under 250 ms)")
        lines.append(f"catch-up after a {scale['outage_s']:.0f} s outage at {scale['tables']} tables: "
                     f"{scale['catch_up_s']} s (goal: under 10 s)")
    print("\n".join(lines))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
