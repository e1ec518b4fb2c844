"""The action tracker at a tournament table names the director's players, in a real browser (Debian's chromium
through Playwright): a real daemon with the tracker, its table side (`TableFollower`) following the director's
state and posting its events to the daemon's queue as one item, as `TournamentTable` does. The names (the
entrants', and one typed at registration on the director's page) are journaled as `name` events, so the page
shows the players the venue screen and the hand histories name, not "Seat 3".

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/web/test_tracker_tournament_names.py` writes the
screenshot of docs/tournament.md."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_py.commands.tournament import ROOT, build
from firmware_py.core import Name
from firmware_py.daemon.app import journal_events
from firmware_py.room.tournament_table import TableFollower
from tests.browser import browser, open_paired, page  # noqa: F401  (the fixtures)
from tests.room.test_tournament_page import shot
from tests.room.test_tournament_room import _args
from tests.tracker_table import TrackerTable

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TrackerTable]:
    running = TrackerTable(tmp_path).start()
    yield running
    running.stop()


def test_the_tracker_at_a_tournament_table_names_the_players_as_the_director_has_them(
        page: Any, table: TrackerTable) -> None:  # noqa: F811
    director = build(_args(tables="1", players=3, seats=4, seed=5, buy_in=20,
                           structure=str(ROOT / "config/tournament/house-rebuy.toml")), "main", sim_clock=True)
    entry = director.register("Ada Augusta King, Countess of Lovelace")  # typed on the director's page
    follower = TableFollower(room="main", table="t01", session="s1",
                             setup=dataclasses.replace(table.config.game, t=0.0))
    assert table.tracker.snapshot is not None
    follower.snapshot(table.tracker.snapshot)
    seats = next(t for t in director.state().tables if t.table == "t01").seats
    events = follower.director(director.state())
    assert events and any(isinstance(e, Name) for e in events)
    table.events.put(tuple(events))  # one item, as the tournament table posts a state's events
    late = next(s.seat for s in seats if s.player == entry.player)
    wanted = {s.seat: (s.name if s.seat != late else "Ada Augusta King, Count\u2026") for s in seats}
    table.wait(lambda: table.tracker.snapshot is not None and dict(table.tracker.snapshot.names) == wanted)

    page.set_viewport_size({"width": 1280, "height": 800})
    open_paired(page, table.url, table.tracker.pairing.code)
    for seat, name in wanted.items():
        expect(page.locator(f'#seats button[data-seat="{seat}"]')).to_contain_text(name)
    shot(page, "tracker-tournament-names-1280x800.png")
    journaled = [e for e in journal_events(table.journal, base_dir=ROOT / "config") if isinstance(e, Name)]
    assert {e.seat: e.name for e in journaled} == wanted  # the page's names are the journal's
