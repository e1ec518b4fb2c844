"""What a table's journal says happened, by replaying it: the truth the room's consumers are checked against."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.core.engine import TableCore
from firmware_py.daemon.app import journal_events
from firmware_py.daemon.export import HandCutter
from firmware_py.daemon.journal import Journal
from firmware_py.profiles import load_profiles
from firmware_py.room.messages import venue_state

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class JournalTruth:
    session: str | None
    last_seq: int
    rulings: set[tuple[int, int]]  # (seq, n)
    hands: set[int]  # seq of the event that ended each hand
    final: dict[str, Any]  # the venue state at the end


def journal_truth(path: Path) -> JournalTruth:
    profiles = load_profiles(ROOT / "config" / "profiles")
    with Journal.open(path) as journal:
        seqs = [row.seq for row in journal.rows()]
        events = journal_events(journal, base_dir=ROOT / "config")
        session = journal.meta("room_session")
    cutter = HandCutter(TableCore(profiles))
    rulings: set[tuple[int, int]] = set()
    hands: set[int] = set()
    for seq, event in zip(seqs, events, strict=True):
        try:
            step = cutter.feed(event)
        except ValueError:
            continue
        rulings |= {(seq, n) for n in range(len(step.outcome.rulings))}
        if step.ended:
            hands.add(seq)
    return JournalTruth(session=session, last_seq=seqs[-1] if seqs else 0, rulings=rulings, hands=hands,
                        final=venue_state(cutter.core.snapshot()))


def last_seq(path: Path) -> int:
    """The journal's newest seq, read without disturbing the daemon that writes it (0 before the table has made
    it: a table slow to start under load had not, and the read-only open failed)."""
    if not path.exists():
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0])
    finally:
        db.close()
