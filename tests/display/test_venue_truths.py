"""The venue screen says only what is true of the table (issue 35): a dead button is shown; a seat that went
all in and won chips is not labelled ALL IN once the pots are awarded.

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/display/test_venue_truths.py` keeps the pictures."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
from pictures import RecordingPainter, recorded_text

from display.display_config import DisplayConfig
from display.venue import render_venue
from firmware_py.core.snapshot import TableSnapshot
from tests.rules.table_driver import Table

CONFIG = DisplayConfig(seat_names={1: "Ada", 2: "Bruno", 3: "Chen", 4: "Dalia", 5: "Emeka"})


def _drawn(snapshot: TableSnapshot, name: str) -> list[str]:
    surface = pygame.Surface((800, 480))
    with recorded_text() as drawn:
        render_venue(surface, snapshot, now=snapshot.t, config=CONFIG, painter=RecordingPainter())
    folder = os.environ.get("POKERTABLE_SCREENSHOTS")
    if folder and name:
        pygame.image.save(surface, str(Path(folder) / name))
    return drawn.texts


def test_a_dead_button_is_shown_on_the_venue_screen() -> None:
    """Robert's rules: the small blind (seat 3) left; the button moves to its empty seat (a dead button)."""
    table = Table("robert", seats=(1, 2, 3, 4, 5), button=2)
    table.clean_preflop()
    table.press("hand_end")
    table.seat(3, "out")
    table.new_hand()
    snapshot = table.core.snapshot()
    assert snapshot.button == 3 and all(seat.seat != 3 or seat.state == "empty" for seat in snapshot.seats)
    assert "DEAD BUTTON: seat 3" in _drawn(snapshot, "venue-dead-button-800x480.png")


def test_no_dead_button_when_the_button_is_a_player() -> None:
    table = Table("robert", seats=(1, 2, 3, 4, 5), button=2)
    table.new_hand()
    assert not any("DEAD BUTTON" in text for text in _drawn(table.core.snapshot(), ""))


def test_a_winner_who_went_all_in_is_not_labelled_all_in_after_the_award() -> None:
    table = Table("robert", seats=(1, 2))
    table.level(25, 50)
    table.stacks(s1=1000, s2=1000)
    table.new_hand()
    table.deal(["As", "Kd", "Ah", "Kc"])  # seat 2 gets the aces (deal order 2, 1)
    table.act("allin", "call")
    for cards in (["2c", "7d", "9h"], ["3s"], ["Js"]):
        table.street(cards)
    snapshot = table.core.snapshot()
    assert snapshot.phase == "showdown"
    winner = next(seat for seat in snapshot.seats if seat.stack)
    assert winner.state == "allin" and winner.stack == 2000
    drawn = _drawn(snapshot, "venue-allin-winner-800x480.png")
    labels = [text for text in drawn if text in ("ALL IN", "ALL")]  # (one line, or a word a line when narrow)
    assert len(labels) == 1  # the loser's, all in with nothing left; never beside the winner's 2,000
