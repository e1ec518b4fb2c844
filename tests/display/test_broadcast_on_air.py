"""The table's own broadcast view on air: no countdown (the operator's screen has it), an IDLE frame that
does not name the winner of cards it no longer shows, and chances computed while the delay runs."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pygame

from display.app import Screen, View
from display.broadcast import BroadcastFrame, broadcast_frame, render_broadcast
from display.cards import CardPainter
from display.delay import DelayedSnapshots
from display.display_config import DisplayConfig
from display.operator import on_air_lines
from firmware_py.core.engine import TableCore
from firmware_py.core.snapshot import Phase, TableSnapshot
from firmware_py.odds.chances import ChancesCache
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session
from tests.rules.table_driver import Table

ROOT = Path(__file__).resolve().parents[2]
CONFIG = DisplayConfig(seat_names={1: "Ada", 2: "Bo", 3: "Cy", 4: "Dee"}, broadcast_delay_s=30)


def played(session: str) -> list[TableSnapshot]:
    core = TableCore(load_profiles(ROOT / "config" / "profiles"))
    shots = []
    for _line, event in read_session(ROOT / "tests" / "sessions" / session):
        core.feed(event)
        shots.append(core.snapshot())
    return shots


def picture(frame: BroadcastFrame) -> bytes:
    surface = pygame.Surface((800, 480))
    render_broadcast(surface, frame, config=CONFIG, painter=CardPainter())
    return pygame.image.tobytes(surface, "RGB")


def test_the_picture_on_air_has_no_countdown_to_the_next_change() -> None:
    shown = played("clean_showdown.jsonl")[20]
    soon = BroadcastFrame(now=100.0, shown=shown, delay_s=30, next_release=101.0, first_release=10.0, chances=None)
    later = replace(soon, now=100.5, next_release=109.0)  # the next action comes 0:01 or 0:09 from now
    assert picture(soon) == picture(later)
    before = BroadcastFrame(now=1.0, shown=None, delay_s=30, next_release=31.0, first_release=31.0, chances=None)
    assert picture(before) == picture(replace(before, now=20.0))  # nor a countdown before it starts


def test_the_operator_screen_says_when_the_picture_on_air_changes() -> None:
    delayed: DelayedSnapshots[TableSnapshot] = DelayedSnapshots(delay_s=30)
    shots = played("clean_showdown.jsonl")
    assert on_air_lines(delayed, 0.0) == ["on air: nothing yet"]
    delayed.push(10.0, shots[10])
    delayed.push(14.0, shots[11])
    assert on_air_lines(delayed, 25.0) == ["on air: nothing yet · starts in 0:15"]
    lines = on_air_lines(delayed, 41.0)
    assert lines[0].startswith(f"on air: hand {shots[10].hand_number}") and lines[1] == "next change on air in 0:03"


def test_the_idle_frame_names_no_winner_of_cards_it_no_longer_shows() -> None:
    idle = played("clean_showdown.jsonl")[-1]
    assert idle.phase is Phase.IDLE and idle.showdown is not None and not any(s.cards for s in idle.seats)
    frame = BroadcastFrame(now=100.0, shown=idle, delay_s=30, next_release=None, first_release=1.0, chances=None)
    cleared = replace(frame, shown=replace(idle, showdown=None, board=(), chips=None))
    assert picture(frame) == picture(cleared)  # no "… wins", no board left behind


def test_chances_prefetched_as_snapshots_enter_the_delay_are_ready_on_air() -> None:
    table = Table("robert", seats=tuple(range(1, 10)), button=1)
    table.new_hand()
    table.deal()
    preflop = table.core.snapshot()
    folded = [replace(preflop, seats=tuple(replace(s, state=s.state if s.seat > n else type(s.state)("folded"))
                                               for s in preflop.seats), t=preflop.t + n) for n in (1, 2, 3)]
    screen = Screen(view=View.BROADCAST, config=replace(CONFIG, broadcast_delay_s=20),
                    chances=ChancesCache(background=True))
    answers: list[float] = []
    screen.chances.on_ready = lambda: answers.append(time.monotonic())
    try:
        for shot in (preflop, *folded):  # four deals in a row, each a nine- to six-handed pre-flop
            screen.update(shot)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(answers) < 4:  # no frame asked: the update queued them all
            time.sleep(0.1)
        assert len(answers) == 4
        for shot in (preflop, *folded):
            frame = broadcast_frame(screen.delayed, now=shot.t + 20, chances=screen.chances)
            assert frame.shown is shot and not frame.computing and frame.chances is not None
    finally:
        screen.chances.close()
