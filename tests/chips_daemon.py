"""A daemon on the shipped table file, counting chips, with a hand dealt: where keyed amounts are tested."""

from __future__ import annotations

import dataclasses
import queue
from pathlib import Path

from display.display_config import DisplayConfig
from firmware_py.core import Button, ButtonName, Read
from firmware_py.daemon.app import Daemon
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.table_config import load_table_config

ROOT = Path(__file__).resolve().parents[1]


def dealt_daemon(tmp_path: Path) -> tuple[Daemon, Journal, queue.Queue[object]]:
    """Seats 1-3 with 1,000 chips each at the first shipped level (25/50), a new hand pressed and its
    six hole cards out of the shoe, all queued: run the daemon and seat 1 is to act."""
    shipped = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    config = dataclasses.replace(shipped, game=dataclasses.replace(shipped.game, seats=(1, 2, 3)),
                                 starting_stack=1000, schedule=DisplayConfig())
    events: queue.Queue[object] = queue.Queue()
    journal = Journal.open(tmp_path / "j.sqlite3")
    daemon = Daemon(config, journal=journal, clock=lambda: 1.0, events=events)
    events.put(Button(t=1.0, name=ButtonName.NEW_HAND))
    for uid in list(config.deck(config.game.in_play).cards)[:6]:
        events.put(Read(t=1.0, antenna="shoe", uid=uid))
    return daemon, journal, events
