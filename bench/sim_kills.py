"""SIGKILL `run --simulate` at random points: the finished session's rulings equal an unkilled run's.

    python bench/sim_kills.py                      # 200 kills (50 sessions, 4 kills each), seeds 1..
    python bench/sim_kills.py --kills 8 --per-session 2

Each session is killed `--per-session` times at a random acknowledged event (read from the
daemon's `--acks` log), restarted each time, then run to its end. Its journal is replayed and
its rulings compared with an unkilled run of the same seed. A mismatch prints both.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _startup import ROOT

from firmware_py.core.engine import TableCore
from firmware_py.daemon.app import journal_events, replay
from firmware_py.daemon.journal import Journal
from firmware_py.profiles import load_profiles

CONFIG = ROOT / "config"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET",
                                                            "WATCHDOG_USEC")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["SDL_VIDEODRIVER"] = "dummy"
    return env


def _command(journal: Path, seed: int, hands: int, acks: Path | None = None) -> list[str]:
    cmd = [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--hands", str(hands),
           "--seed", str(seed), "--error-rate", "0.3", "--journal", str(journal)]
    return cmd + (["--acks", str(acks)] if acks else [])


def rulings_of(journal: Path) -> list[tuple]:
    with Journal.open(journal) as j:
        events = journal_events(j, base_dir=CONFIG)
    return [(str(r.ruling), r.cause, r.card, r.seat, str(r.street)) for r in replay(events, TableCore(load_profiles()))]


def _acked(path: Path) -> int:
    try:
        with path.open("rb") as handle:
            return sum(1 for line in handle if line.startswith(b"ack "))
    except FileNotFoundError:
        return 0


def random_points(rng: random.Random, kills: int, events: int) -> list[int]:
    return sorted(rng.sample(range(2, max(events - 2, kills + 3)), kills))


def killed_session(folder: Path, seed: int, hands: int, points: list[int]) -> list[tuple]:
    """Run a session killed once at each of `points` (acknowledged events), then to its end; its rulings."""
    journal, acks = folder / f"killed-{seed}.sqlite3", folder / f"acks-{seed}.txt"
    for point in points:
        process = subprocess.Popen(_command(journal, seed, hands, acks), cwd=ROOT, env=_env(),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while _acked(acks) < point and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    done = subprocess.run(_command(journal, seed, hands, acks), cwd=ROOT, env=_env(), capture_output=True,
                          text=True, check=False, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"seed {seed}: the last run failed: {done.stderr[-2000:]}")
    return rulings_of(journal)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--per-session", type=int, default=4)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(2026)
    sessions = max(1, args.kills // args.per_session)
    wrong = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for seed in range(args.first_seed, args.first_seed + sessions):
            reference = folder / f"reference-{seed}.sqlite3"
            subprocess.run(_command(reference, seed, args.hands), cwd=ROOT, env=_env(), capture_output=True,
                           check=True, timeout=300)
            want = rulings_of(reference)
            with Journal.open(reference) as j:
                events = j.count()
            got = killed_session(folder, seed, args.hands, random_points(rng, args.per_session, events))
            if got != want:
                wrong += 1
                print(f"seed {seed}: {len(got)} rulings after {args.per_session} kills, {len(want)} unkilled")
                for a, b in zip(got, want, strict=False):
                    if a != b:
                        print(f"   first difference: killed {a} / unkilled {b}")
                        break
    kills = sessions * args.per_session
    print(f"{kills} kills in {sessions} sessions of {args.hands} hands: {sessions - wrong} sessions with the "
          f"unkilled rulings, {wrong} different ({time.monotonic() - started:.0f} s)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
