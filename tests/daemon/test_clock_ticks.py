"""The daemon posts the shot clock's time: while a clock runs, a `tick` event each second of session time from its
main loop, journaled like any event; the core gives the warnings and, at the tick past the end, the ruling."""

from __future__ import annotations

import queue
import threading
import time

from firmware_py.core import Button, ButtonName, Ruling, RulingKind, Tick
from firmware_py.daemon import app
from firmware_py.daemon.app import Daemon, Stop
from firmware_py.daemon.journal import Journal
from firmware_py.session import SessionReader
from tests.daemon.test_resume_at_scale import CONFIG, ROOT


def test_wfp_dealer_clock_ticks_posted_by_the_main_loop_kill_the_hand_when_time_runs_out(tmp_path,
                                                                                          monkeypatch) -> None:
    monkeypatch.setattr(app, "IDLE_WAKE_S", 0.02)
    path = ROOT / "tests" / "sessions" / "clocks_and_folds_wfp_dealer.jsonl"
    events = [e for _n, e in SessionReader(base_dir=path.parent).read(path.read_bytes().splitlines())]
    called = next(n for n, e in enumerate(events) if isinstance(e, Button) and e.name is ButtonName.CLOCK)
    script = events[:called + 1]  # the deal and the clock call; no ticks: the daemon posts them
    assert not any(isinstance(e, Tick) for e in script)
    now = [script[-1].t]
    journal = Journal.open(tmp_path / "journal.sqlite3")
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(CONFIG, journal=journal, clock=lambda: now[0], events=inbox)
    rulings: list[Ruling] = []
    dead = threading.Event()

    def heard(ruling: Ruling) -> None:
        rulings.append(ruling)
        if ruling.ruling is RulingKind.DEAD_HAND:
            dead.set()

    daemon.on_ruling.append(heard)
    runner = threading.Thread(target=daemon.run)
    runner.start()
    for event in script:
        inbox.put(event)
    deadline = time.monotonic() + 60
    while not dead.is_set() and time.monotonic() < deadline:
        time.sleep(0.05)
        now[0] += 0.5  # session time passes twice as fast as the test's
    inbox.put(Stop("test"))
    runner.join(30)
    lines = [row.line for row in journal.rows()]
    journal.close()
    assert dead.is_set(), "no dead-hand ruling: the clock never ran out"
    assert [(r.ruling, r.seat, r.rule) for r in rulings] == [(RulingKind.DEAD_HAND, 4, "wfp-dealer: Clock")]
    ticks = [line for line in lines if '"kind": "tick"' in line]
    assert 25 <= len(ticks) <= 40  # about one a second over the 30 seconds, each journaled
    assert not daemon._clock_running  # the hand is dead: no more ticks
