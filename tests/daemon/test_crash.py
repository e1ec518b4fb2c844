"""SIGKILL the daemon at random points of a simulated session: no acknowledged event is ever lost,
and the restarted daemon's state is the journal replayed."""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path

from firmware_py.core import Button, Read
from firmware_py.core.engine import TableCore
from firmware_py.daemon.app import journal_events, replay, state_digest
from firmware_py.daemon.journal import Journal
from firmware_py.profiles import load_profiles
from tests.daemon.conftest import ROOT, daemon_command, environment, run_daemon

HANDS = "10"
SEED = "3"
CONFIG = ROOT / "config"


def _acks(path: Path) -> tuple[dict[int, str], list[tuple[int, str]]]:
    acked: dict[int, str] = {}
    resumes: list[tuple[int, str]] = []
    if path.exists():
        for text in path.read_text().splitlines():
            kind, _, rest = text.partition(" ")
            if kind == "ack":
                seq, _, line = rest.partition(" ")
                acked[int(seq)] = line
            elif kind == "resume":
                count, digest = rest.split()
                resumes.append((int(count), digest))
    return acked, resumes


def _journal(path: Path) -> tuple[dict[int, str], list]:
    with Journal.open(path) as journal:
        rows = {row.seq: row.line for row in journal.rows()}
        events = journal_events(journal, base_dir=CONFIG)
    return rows, events


def _digest(events: list) -> str:
    core = TableCore(load_profiles())
    replay(events, core)
    return state_digest(core.snapshot())


def _sensed(events: list) -> list[tuple]:
    """The dealer's acts as the sensors reported them (departures and times aside)."""
    return [(type(e).__name__, getattr(e, "antenna", ""), getattr(e, "uid", ""), str(getattr(e, "name", "")))
            for e in events if isinstance(e, Read | Button)]


def test_sigkill_at_random_points_loses_no_acknowledged_event_and_resumes_the_same_state(tmp_path):
    rng = random.Random(20240601)
    journal, acks = tmp_path / "journal.sqlite3", tmp_path / "acks.txt"
    args = ("--simulate", "--headless", "--hands", HANDS, "--seed", SEED, "--speed", "300",
            "--journal", str(journal), "--acks", str(acks))
    expected_resume: tuple[int, str] | None = None
    for kills in range(1, 6):
        before, _resumes = _acks(acks)
        process = subprocess.Popen(daemon_command(*args), cwd=ROOT, env=environment(),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(_acks(acks)[0]) <= len(before):
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.25))
        process.kill()
        assert process.wait(10) != 0, "the session ended before the kill: raise HANDS"
        acked, resumes = _acks(acks)
        if expected_resume is not None:
            assert resumes[-1] == expected_resume  # the restarted daemon's state was the journal replayed
        rows, events = _journal(journal)
        missing = [seq for seq, line in acked.items() if rows.get(seq) != line]
        assert not missing, f"acknowledged events lost after kill {kills}: {missing[:5]}"
        assert len(acked) > len(before)
        expected_resume = (len(events), _digest(events))

    finished = run_daemon(*args)
    assert finished.returncode == 0, finished.stderr
    acked, resumes = _acks(acks)
    assert resumes[-1] == expected_resume
    rows, events = _journal(journal)
    assert all(rows.get(seq) == line for seq, line in acked.items())

    # The interrupted session is the uninterrupted one: same acts sensed, same rulings.
    reference = tmp_path / "reference.sqlite3"
    whole = run_daemon("--simulate", "--headless", "--hands", HANDS, "--seed", SEED, "--journal", str(reference))
    assert whole.returncode == 0, whole.stderr
    _rows, reference_events = _journal(reference)
    assert _sensed(events) == _sensed(reference_events)
    profiles = load_profiles()
    strip = lambda rulings: [(r.ruling, r.cause, r.card, r.seat, r.street) for r in rulings]  # noqa: E731
    assert strip(replay(events, TableCore(profiles))) == strip(replay(reference_events, TableCore(profiles)))
