"""A whole hand with a side pot, as the table's publisher sends it: the session through the rules core and
the feed builder, every message with its journal time and the core's own snapshot beside it."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from firmware_py.core.engine import TableCore
from firmware_py.core.snapshot import TableSnapshot
from firmware_py.profiles import load_profiles
from firmware_py.room.feed import BroadcastFeed, FeedBuilder, picture_key
from firmware_py.session import read_session

ROOT = Path(__file__).resolve().parents[2]
SIDE_POT = ROOT / "tests" / "sessions" / "split_side_pot_rpl.jsonl"
NAMES = {1: "Ada Lovelace", 2: "Bo Jackson", 3: "Cy Young", 4: "Dee Dee Ramone"}


@dataclass(frozen=True)
class Step:
    t: float  # the journal's time of the event
    seq: int
    feed: BroadcastFeed
    snapshot: TableSnapshot  # the core's own, to check the page against


@functools.cache  # the messages and snapshots are immutable: one replay per session for the whole run
def hand_messages(session: Path = SIDE_POT, *, room: str = "main", table: str = "t01",
                  level_at: object = None) -> tuple[Step, ...]:
    core = TableCore(load_profiles(ROOT / "config" / "profiles"))
    builder = FeedBuilder(room=room, table=table, session="s1", names=NAMES,
                          level_at=level_at or (lambda t: (3, 900.0 - t)))
    steps, last = [], None
    for seq, (_line, event) in enumerate(read_session(session), start=1):
        core.feed(event)
        snapshot = core.snapshot()
        feed = builder.build(snapshot, seq=seq)
        if picture_key(feed) != last:  # as the publisher: a message when the picture changes
            last = picture_key(feed)
            steps.append(Step(event.t, seq, feed, snapshot))
    return tuple(steps)
