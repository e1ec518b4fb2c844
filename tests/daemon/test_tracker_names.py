"""One source for a player's name: a name typed on the action tracker is a journaled `name` event, and the
venue screen, the broadcast feed and the exported hand histories (PHH `players`) all say it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from display.display_config import DisplayConfig
from display.venue import render_venue
from firmware_py.daemon.app import journal_events
from firmware_py.daemon.export import export
from firmware_py.daemon.journal import Journal
from firmware_py.room.feed import FeedBuilder
from tests.tracker_table import ROOT, TrackerTable

sys.path.insert(0, str(ROOT / "tests" / "display"))
from pictures import RecordingPainter, recorded_text

FILE_NAMES = {1: "Ada", 2: "Bea", 3: "Cy", 4: "Dot"}  # the table file's [display.seat_names]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TrackerTable]:
    running = TrackerTable(tmp_path).start()
    yield running
    running.stop()


def _players(table: TrackerTable, cookie: str, body: dict[str, object]) -> None:
    status, answer, _ = table.request("/players", body, cookie=cookie)
    assert status == 200, answer


def _named(table: TrackerTable, cookie: str) -> dict[int, str]:
    """The names the tracker's page shows (the test's table file names no seat)."""
    status, state, _ = table.request("/state", cookie=cookie)
    assert status == 200
    return {seat["seat"]: seat["name"] for seat in state["seats"] if seat["name"]}


def test_a_name_typed_on_the_tracker_is_journaled_and_every_surface_says_it(table: TrackerTable,
                                                                              tmp_path: Path) -> None:
    cookie = table.pair()
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    _players(table, cookie, {"op": "seat", "seat": 5, "amount": "1,000"})
    _players(table, cookie, {"op": "name", "seat": 5, "name": "  Gus "})
    _players(table, cookie, {"op": "name", "seat": 2, "name": "Bo"})  # over the table file's "Bea"
    table.wait(lambda: _named(table, cookie) == {2: "Bo", 5: "Gus"})
    snapshot = table.new_hand()
    assert snapshot.seat(5).cards  # Gus is dealt in

    # The journal holds the names, as any other event: a restart or an export replays them.
    lines = [row.line for row in table.journal.rows()]
    assert any('"kind": "name", "seat": 5, "name": "Gus"' in line for line in lines), lines

    # The venue screen.
    pygame.font.init()
    surface = pygame.Surface((1280, 720))
    with recorded_text() as drawn:
        render_venue(surface, snapshot, now=snapshot.t, config=DisplayConfig(seat_names=FILE_NAMES),
                     painter=RecordingPainter())
    assert "Gus" in drawn.texts and "Bo" in drawn.texts and "Ada" in drawn.texts
    assert "Seat 5" not in drawn.texts and "Bea" not in drawn.texts

    # The broadcast feed.
    feed = FeedBuilder(room="r", table="t01", names=FILE_NAMES).build(snapshot, seq=1)
    assert {seat.seat: seat.name for seat in feed.seats} == {1: "Ada", 2: "Bo", 3: "Cy", 4: "Dot", 5: "Gus"}

    # The hand histories, as `export` writes them from the journal.
    for _ in range(4):  # everyone folds to the big blind
        to_act = table.settle().to_act
        assert to_act is not None
        status, _body, _ = table.request("/press", {"name": "fold", "seat": to_act, "hand": table.settle().hand_number,
                                                    "count": table.settle().actions}, cookie=cookie)
        assert status == 200
    table.hand_end()
    with Journal.read_only(tmp_path / "journal.sqlite3") as journal:
        events = journal_events(journal, base_dir=ROOT / "config")
        summary = export(journal, events, profiles=dict(table.config.profiles), out_dir=tmp_path / "out",
                         table="t01", names=FILE_NAMES, base_dir=ROOT / "config")
    assert summary.hands == 1
    phh = summary.histories.read_text()
    players = next(line for line in phh.splitlines() if line.startswith("players"))
    assert "'Gus'" in players and "'Bo'" in players and "'Ada'" in players, players
    assert "Seat 5" not in players and "Bea" not in players


def test_unseating_a_named_player_gives_the_seat_back_its_default(table: TrackerTable) -> None:
    cookie = table.pair()
    _players(table, cookie, {"op": "seat", "seat": 5, "amount": "1,000"})
    _players(table, cookie, {"op": "name", "seat": 5, "name": "Gus"})
    table.wait(lambda: _named(table, cookie) == {5: "Gus"})
    _players(table, cookie, {"op": "unseat", "seat": 5})
    table.wait(lambda: _named(table, cookie) == {})
