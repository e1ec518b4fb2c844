"""Chips on both screens: pot, side pots, stacks and last actions; on air only after the secure delay."""

from __future__ import annotations

from pathlib import Path

import pygame
from pictures import RecordingPainter, recorded_text

from display import theme
from display.app import Screen, View
from display.display_config import DisplayConfig
from display.render import render_view
from firmware_py.core.engine import TableCore
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session

SESSION = Path(__file__).resolve().parents[1] / "sessions" / "split_side_pot_rpl.jsonl"


def history() -> list[tuple[float, object]]:
    core = TableCore(load_profiles())
    out = []
    for _line, event in read_session(SESSION):
        core.feed(event)
        out.append((event.t, core.snapshot()))
    return out


def texts(view: View, at: float, *, delay: float = 60.0, size=(1280, 720)) -> list[str]:
    with recorded_text() as drawn:
        render_view(view, history(), at=at, size=size, config=DisplayConfig(broadcast_delay_s=delay),
                    painter=RecordingPainter())
    return drawn.texts


def test_venue_shows_the_pot_side_pots_stacks_and_last_actions() -> None:
    drawn = texts(View.VENUE, at=13.0)  # the turn: seat 3 all in for 275, seat 4 bet 150, seat 1 called
    assert "POT 1,475  (1,100 + 375)" in drawn
    assert {"550", "0", "700"} <= set(drawn)  # stacks behind
    assert {"all in 275", "bet 150", "call 150"} <= set(drawn)
    assert "Level 1  50/100  19:47" in drawn  # the level in force from the session, not the default


def test_broadcast_amounts_follow_the_secure_delay() -> None:
    # The whole session is over at 18 s; 60 s after 9.5 s the air shows the pre-flop pot only.
    early = texts(View.BROADCAST, at=60.0 + 9.5)
    assert {"POT 1,175", "side 75"} <= set(early)
    assert not [text for text in early if "1,475" in text or text in ("725", "750")]
    late = texts(View.BROADCAST, at=60.0 + 18.0)  # the showdown, 60 s on
    assert {"POT 1,475", "side 375"} <= set(late)
    assert {"1,100", "725", "750", "700"} <= set(late)  # the stacks after the pots were awarded


def test_a_session_without_chips_draws_no_amounts() -> None:
    path = Path(__file__).resolve().parents[1] / "sessions" / "burns_rpl.jsonl"
    core = TableCore(load_profiles())
    snaps = []
    for _line, event in read_session(path):
        core.feed(event)
        snaps.append((event.t, core.snapshot()))
    with recorded_text() as drawn:
        render_view(View.VENUE, snaps, at=snaps[-1][0], size=(800, 480), config=DisplayConfig(),
                    painter=RecordingPainter())
    assert not [text for text in drawn.texts if text.startswith("POT")]


def test_the_venue_shows_the_amount_being_keyed_for_the_seat_to_act() -> None:
    core = TableCore(load_profiles())
    for _line, event in read_session(SESSION):
        core.feed(event)
        if event.t >= 6.0:  # seat 4 raised to 300: seat 1 is to act
            break
    with recorded_text() as drawn:
        screen = Screen(view=View.VENUE, config=DisplayConfig(), painter=RecordingPainter())
        screen.update(core.snapshot())
        screen.keyed = "1200"
        screen.draw(pygame.Surface((800, 480)), now=9.0)
    assert core.snapshot().to_act == 1
    assert "Seat 1: 1,200 keyed" in drawn.texts


def test_broadcast_chances_never_cover_the_action_line() -> None:
    # The shipped font's line is taller than the glyphs: a big percentage drawn up to the bar once
    # covered "call 2,000 · pair of jacks" at 1280x720. Its ink now starts below the line above it.
    for size in ((800, 480), (1280, 720), (1920, 1080)):
        with recorded_text() as lines:
            render_view(View.BROADCAST, history(), at=60.0 + 18.0, size=size,
                        config=DisplayConfig(broadcast_delay_s=60.0), painter=RecordingPainter())
        drawn = [(line.text, line.rect, line.size) for line in lines]
        chances = [i for i, (text, _r, _s) in enumerate(drawn) if text.endswith("%") and not text.startswith("tie")]
        assert len(chances) >= 2, size
        for i in chances:
            text, rect, text_size = drawn[i]
            above = drawn[i - 1][1]  # the seat's action line, drawn just before its chances
            assert rect.top + theme.ink_top(text, text_size) >= above.bottom, (size, text, drawn[i - 1][0])
