"""Memory of `run --simulate` against session length: it should hold the current hand, not the session.

Each length is one run of `python -m firmware_py run --simulate --headless --fresh --hands N` in a
fresh process, its peak resident memory (the kernel's maxrss for that child) and the seconds to its
first journaled event (the script is made as the dealer goes, so a long session starts at once), with
what its summary says: the hands played, those misdealt or void (the dealer bot's own errors, a quarter
of deals at the default error rate misdeal about 1 in 13) and the hands per hour of play. A run whose
deals are mostly misdeals measures a degenerate session (issue 35), not a long one: it fails.

    python bench/sim_memory.py                   # 500 and 5,000 hands: 12 minutes at load 15 on 2 cores
    python bench/sim_memory.py --hands 500 --hands 2000

Goal: peak RSS at 5,000 hands within 5 MiB of that at 500. Writes bench/results/sim_memory.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "sim_memory.json"
LENGTHS = (500, 5_000)
GOAL_MIB = 5.0
MOST_VOID = 0.2  # more deals misdealt or void than this share: the session degenerated
SUMMARY = re.compile(r"simulated table: (\d+) hands played(?: and (\d+) misdealt or void)? .*?"
                     r"\((\d+) hands per hour of play\)")


def first_event_s(journal: Path, started: float, process: subprocess.Popen[bytes]) -> float | None:
    """Seconds from the start until the journal holds an event (polled; None if the run ended first)."""
    while process.poll() is None:
        if journal.exists():
            try:
                with sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=0.1) as db:
                    tables = {row[0] for row in db.execute("select name from sqlite_master where type='table'")}
                    if "events" in tables and db.execute("select 1 from events limit 1").fetchone():
                        return time.monotonic() - started
            except sqlite3.Error:
                pass
        time.sleep(0.05)
    return None


def run(hands: int) -> dict[str, float | int | None]:
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "sim.sqlite3"
        command = [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                   "--hands", str(hands), "--journal", str(journal)]
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
        output = Path(tmp) / "output.txt"  # a file, not a pipe: a full pipe would stop the table's logging
        started = time.monotonic()
        with output.open("wb") as sink:
            process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
            first = first_event_s(journal, started, process)
            _pid, status, usage = os.wait4(process.pid, 0)  # this child's own peak, not all children's
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - started
        said = output.read_text(errors="replace")
        if process.returncode:
            raise SystemExit(f"{' '.join(command[1:])} failed ({process.returncode}): {said[-600:]}")
        summary = SUMMARY.search(said)
        if summary is None:
            raise SystemExit(f"{' '.join(command[1:])} printed no summary: {said[-600:]}")
        played, void, per_hour = int(summary.group(1)), int(summary.group(2) or 0), int(summary.group(3))
        return {"hands": hands, "played": played, "void": void, "hands_per_hour": per_hour,
                "peak_rss_mib": usage.ru_maxrss / 1024, "seconds": seconds, "first_event_s": first}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, action="append", help="session lengths (default 500 and 5,000)")
    args = parser.parse_args(argv)
    rows = []
    print(f"{'hands':>6} {'played':>6} {'void':>5} {'hands/h':>7} {'peak RSS MiB':>12} {'seconds':>8} "
          f"{'first event s':>13}")
    degenerate = []
    for hands in args.hands or LENGTHS:
        row = run(hands)
        rows.append(row)
        first = row["first_event_s"]
        print(f"{hands:>6} {row['played']:>6} {row['void']:>5} {row['hands_per_hour']:>7} "
              f"{row['peak_rss_mib']:>12.1f} {row['seconds']:>8.1f} {'-' if first is None else f'{first:.1f}':>13}",
              flush=True)
        if row["void"] > MOST_VOID * hands:
            degenerate.append(f"{hands} hands: {row['void']} misdealt or void")
    growth = rows[-1]["peak_rss_mib"] - rows[0]["peak_rss_mib"]  # type: ignore[operator]
    print(f"growth from {rows[0]['hands']} to {rows[-1]['hands']} hands: {growth:+.1f} MiB (goal within {GOAL_MIB:g})")
    for line in degenerate:
        print(f"degenerate session ({line}, more than {MOST_VOID:.0%}): not a measure of a long session")
    load = os.getloadavg()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"rows": rows, "growth_mib": growth, "goal_mib": GOAL_MIB, "degenerate": degenerate,
                                   "load_average": load, "python": sys.version.split()[0]}, indent=1) + "\n")
    return 0 if abs(growth) <= GOAL_MIB and not degenerate else 1


if __name__ == "__main__":
    sys.exit(main())
