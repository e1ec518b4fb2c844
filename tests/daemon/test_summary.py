"""The closing line of `run --simulate` counts what happened in the session: after a restart it
includes the replayed part, and a misdealt deal is not a hand played."""

from __future__ import annotations

import re
import subprocess
import time

from firmware_py.core import RulingKind
from firmware_py.core.engine import TableCore
from firmware_py.daemon.app import journal_events, replay
from firmware_py.daemon.journal import Journal
from firmware_py.profiles import load_profiles
from tests.daemon.conftest import ROOT, daemon_command, environment, run_daemon

SUMMARY = re.compile(r"simulated table: (\d+) hands played(?: and (\d+) misdealt or void)? \(seed \d+\), "
                     r"(\d+) events, (\d+) rulings")
ARGS = ("--simulate", "--headless", "--hands", "12", "--seed", "5", "--error-rate", "0.5")


def counts(output: str) -> tuple[int, int, int, int]:
    match = SUMMARY.search(output)
    assert match, output
    hands, void, events, rulings = match.groups()
    return int(hands), int(void or 0), int(events), int(rulings)


def test_summary_counts_hands_played_apart_from_misdeals(tmp_path):
    journal = tmp_path / "whole.sqlite3"
    result = run_daemon(*ARGS, "--journal", str(journal))
    assert result.returncode == 0, result.stderr
    hands, void, _events, rulings = counts(result.stdout)
    with Journal.open(journal) as j:
        made = replay(journal_events(j, base_dir=ROOT / "config"), TableCore(load_profiles()))
    ended = sum(r.ruling in (RulingKind.MISDEAL, RulingKind.VOID_HAND) for r in made)
    assert void == ended and void > 0  # seed 5 at 50% errors misdeals at least once
    assert hands + void == 12  # the dealer bot's twelve deals
    assert rulings == len(made)
    # The pace in hands per hour of the session's own time (the simulated clock), as the floor shows it
    # (per second of the wall clock it read "0.0 hands/s" at real speed).
    per_hour = re.search(r"\((\d+) hands per hour of play\)", result.stdout)
    assert per_hour, result.stdout
    with Journal.open(journal) as j:
        session_s = max(event.t for event in journal_events(j, base_dir=ROOT / "config"))
    assert abs(int(per_hour.group(1)) - hands * 3600 / session_s) <= 0.02 * hands * 3600 / session_s + 1


def test_summary_after_a_restart_counts_the_whole_session(tmp_path):
    """Killed mid-session and started again: the closing line counts the journal's whole session (it
    said "2 rulings" for a session that made 6, counting only those made after the restart)."""
    journal, acks = tmp_path / "resumed.sqlite3", tmp_path / "acks.txt"
    process = subprocess.Popen(daemon_command(*ARGS, "--speed", "300", "--journal", str(journal), "--acks", str(acks)),
                               cwd=ROOT, env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (not acks.exists() or acks.read_text().count("ack ") < 150):
        time.sleep(0.02)
    process.kill()
    assert process.wait(10) != 0, "the session ended before the kill"
    with Journal.open(journal) as j:
        before = replay(journal_events(j, base_dir=ROOT / "config"), TableCore(load_profiles()))
    assert before  # rulings were made before the kill
    resumed = run_daemon(*ARGS, "--journal", str(journal))
    assert resumed.returncode == 0, resumed.stderr
    with Journal.open(journal) as j:
        events = journal_events(j, base_dir=ROOT / "config")
    core = TableCore(load_profiles())
    made = replay(events, core)
    void = sum(r.ruling in (RulingKind.MISDEAL, RulingKind.VOID_HAND) for r in made)
    hands, said_void, said_events, rulings = counts(resumed.stdout)
    assert (hands, said_void, rulings) == (core.snapshot().hand_number - void, void, len(made))
    assert said_events == len(events)
