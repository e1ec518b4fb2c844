"""Who made each press (panel, tracker, keypad) is journaled with it (`"by"` on the press's line), so a hand's
replay states it from the journal (docs/replay.md). A real daemon and journal; the rules read the press the same."""

from __future__ import annotations

import dataclasses
import json
import queue
import sqlite3
import threading
from pathlib import Path

import pytest

from firmware_py.core import Button, ButtonName
from firmware_py.daemon.app import Awaited, Daemon
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.origins import KEYPAD, PANEL, TRACKER, PressSource, origin_of
from firmware_py.daemon.table_config import load_table_config

ROOT = Path(__file__).resolve().parents[2]


def test_each_press_is_journaled_with_the_source_that_posted_it(tmp_path: Path) -> None:
    shipped = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    config = dataclasses.replace(shipped, starting_stack=0, seat_names={})
    clock = iter(float(t) for t in range(1, 1000))
    journal = Journal.open(tmp_path / "journal.sqlite3")
    daemon = Daemon(config, journal=journal, clock=lambda: next(clock), events=queue.Queue(),
                    stop_when_done=False)
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        presses = [(PANEL, ButtonName.NEW_HAND), (TRACKER, ButtonName.MISDEAL), (KEYPAD, ButtonName.NEW_HAND),
                   (None, ButtonName.MISDEAL)]
        for by, name in presses:
            # t=0.5: before the session's last event, so the daemon moves it on (a new record): its source goes too
            awaited = Awaited(Button(t=0.5, name=name))
            (daemon.presses(by) if by else daemon.queue).put(awaited)
            awaited.verdict.result(10)
    finally:
        daemon.stop("test over")
        thread.join(10)
        journal.close()
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        lines = [line for (line,) in db.execute("SELECT line FROM events ORDER BY seq")
                 if json.loads(line)["kind"] == "button"]
    assert [(json.loads(line).get("by"), json.loads(line)["name"]) for line in lines] == [
        (by, str(name)) for by, name in presses]
    assert [origin_of(line) for line in lines] == [by for by, _name in presses]
    assert not daemon.origins._by  # nothing kept once journaled


def test_a_press_source_is_one_of_the_three() -> None:
    with pytest.raises(ValueError, match="unknown press source 'phone'"):
        PressSource(queue.Queue(), None, "phone")  # type: ignore[arg-type]
