"""Snapshot listeners (the screen, the room's publisher and tournament table side) see the table between every
two hands, even when the dealer's next deal reaches the main loop in the same batch as the end of the hand:
the tournament's table side reports each hand, and a chip race, from that picture."""

from __future__ import annotations

import queue
import threading

from firmware_py.core import Button, ButtonName, Race
from firmware_py.core.phase import Phase
from firmware_py.core.snapshot import TableSnapshot
from firmware_py.daemon.app import Daemon, Stop
from firmware_py.daemon.journal import Journal
from firmware_py.session import SessionReader
from tests.daemon.test_resume_at_scale import CONFIG, ROOT, _hands


def test_every_hand_end_is_seen_between_hands_when_the_next_deal_comes_in_the_same_batch(tmp_path) -> None:
    events = _hands(6)
    deals = sum(1 for e in events if isinstance(e, Button) and e.name is ButtonName.NEW_HAND)
    journal = Journal.open(tmp_path / "journal.sqlite3")
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(CONFIG, journal=journal, clock=lambda: 0.0, events=inbox)
    seen: list[TableSnapshot] = []
    daemon.on_snapshot.append(seen.append)
    for event in events:  # all queued before the loop starts: they reach the core in one batch
        inbox.put(event)
    inbox.put(Stop("test"))
    assert daemon.run() == 0
    journal.close()
    between = {s.hand_number for s in seen if s.phase is Phase.IDLE and s.hand_number > 0}
    assert between == set(range(1, deals + 1))  # each hand's end, the last one's at the batch's end


def test_wfp_chip_race_ruled_is_seen_before_a_next_deal_in_the_same_batch(tmp_path) -> None:
    """WFP Tournament Procedures 6: the race's result, which the table side reports to the director, shows in a
    snapshot between the race and the next deal."""
    path = ROOT / "tests" / "sessions" / "chip_race_wfp.jsonl"
    events = [event for _line, event in SessionReader(base_dir=path.parent).read(path.read_bytes().splitlines())]
    journal = Journal.open(tmp_path / "journal.sqlite3")
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(CONFIG, journal=journal, clock=lambda: 0.0, events=inbox)
    seen: list[TableSnapshot] = []
    daemon.on_snapshot.append(seen.append)
    for event in events:
        inbox.put(event)
    inbox.put(Stop("test"))
    assert daemon.run() == 0
    journal.close()
    assert isinstance(events[-1], Button) and events[-1].name is ButtonName.NEW_HAND
    assert any(s.race is not None and s.race.done and s.phase is Phase.IDLE for s in seen)
    assert seen[-1].hand_number == 1 and seen[-1].phase is not Phase.IDLE  # and the deal went on


def test_wfp_chip_race_begun_in_an_earlier_batch_is_seen_ruled_before_the_next_deal(tmp_path) -> None:
    """The race event taken in one batch, its cards, the confirm and the next deal queued together later."""
    path = ROOT / "tests" / "sessions" / "chip_race_wfp.jsonl"
    events = [event for _line, event in SessionReader(base_dir=path.parent).read(path.read_bytes().splitlines())]
    first = next(n for n, e in enumerate(events) if isinstance(e, Race)) + 1
    journal = Journal.open(tmp_path / "journal.sqlite3")
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(CONFIG, journal=journal, clock=lambda: 0.0, events=inbox)
    seen: list[TableSnapshot] = []
    raced = threading.Event()

    def listen(snap: TableSnapshot) -> None:
        seen.append(snap)
        if snap.race is not None:
            raced.set()

    daemon.on_snapshot.append(listen)
    runner = threading.Thread(target=daemon.run)
    runner.start()
    for event in events[:first]:
        inbox.put(event)
    assert raced.wait(30)  # the race is under way, and shown
    for event in events[first:]:  # the race's cards, its confirm and the next deal: one batch
        inbox.put(event)
    inbox.put(Stop("test"))
    runner.join(30)
    journal.close()
    assert any(s.race is not None and s.race.done and s.phase is Phase.IDLE for s in seen)
    assert seen[-1].hand_number == 1 and seen[-1].phase is not Phase.IDLE
