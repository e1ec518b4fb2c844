"""Ruling listeners (the buzzer, the LED) are a callback boundary: one that raises is logged and the
main loop carries on, as it does for snapshot listeners."""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from pathlib import Path

from firmware_py.core import Button, ButtonName, Ruling
from firmware_py.daemon.app import Daemon, Stop, state_digest
from firmware_py.daemon.journal import Journal
from tests.daemon.test_resume_at_scale import CONFIG, _hands


def test_a_ruling_listener_that_raises_does_not_stop_the_main_loop(tmp_path, caplog):
    events = _hands(3)
    first = max(i for i, e in enumerate(events) if isinstance(e, Button) and e.name is ButtonName.NEW_HAND)
    deal = events[first: first + 4]
    exposed = Button(t=deal[-1].t, name=ButtonName.EXPOSED)  # the EXPOSED CARD ruling, mid-deal
    later = events[first + 4:]

    def broken_buzzer(_ruling: Ruling) -> None:
        raise OSError("the buzzer's GPIO is gone")

    def run(listeners: list[Callable[[Ruling], None]], path: Path) -> Daemon:
        journal = Journal.open(path)
        inbox: queue.Queue[object] = queue.Queue()
        daemon = Daemon(CONFIG, journal=journal, clock=lambda: 0.0, events=inbox)
        daemon.on_ruling.extend(listeners)
        for event in [*events[:first], *deal, exposed, *later]:
            inbox.put(event)
        inbox.put(Stop("test"))
        assert daemon.run() == 0
        journal.close()
        return daemon

    calm: list[Ruling] = []
    reference = run([calm.append], tmp_path / "calm.sqlite3")
    heard: list[Ruling] = []
    with caplog.at_level(logging.ERROR):
        daemon = run([broken_buzzer, heard.append], tmp_path / "broken.sqlite3")
    assert calm, "the exposed card made no ruling"
    assert heard == calm  # the listener after the broken one heard every ruling
    assert daemon.events_fed == reference.events_fed  # every event still reached the core
    assert state_digest(daemon.core.snapshot()) == state_digest(reference.core.snapshot())
    assert caplog.text.count("a ruling listener failed") == len(calm)
    assert "the buzzer's GPIO is gone" in caplog.text
