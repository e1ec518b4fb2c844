"""The venue screen in a tournament: hand-for-hand and the bubble's hold (wfp-dealer "All In / Bubble"), the
director's calls by the player's name, the players' names and the director's level.

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/display/test_venue_tournament.py` writes the picture
docs/tournament.md shows."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pygame
from pictures import recorded_text

from display import theme
from display.app import DisplayLoop, Screen, View
from display.display_config import DisplayConfig
from display.layout import table_places, venue_layout
from display.render import save_png
from firmware_py.core import Level, Setup, Stacks
from firmware_py.core.engine import TableCore
from firmware_py.core.snapshot import TableSnapshot
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck
from firmware_py.tournament.notice import TournamentNotice, hold_words

ROOT = Path(__file__).resolve().parents[2]
SEATS = (1, 2, 4, 5, 7, 9)
NAMES = ((1, "Ana Weiss"), (2, "Bo Chen"), (4, "Cy Marsh"), (5, "Dee Patel"), (7, "Eli Moss"), (9, "Fay Lund"))
CALL = "Move Dana Ortiz from t02 seat 6 to t01 seat 3: dealt in at once, with the seat's obligations (WFP 12)"


def between_hands() -> TableSnapshot:
    deck = load_deck(ROOT / "config/decks/test-red.json")
    core = TableCore(load_profiles())
    core.feed(Setup(t=0.0, profile="wfp", seats=SEATS, button=2, decks=(deck,), in_play=deck.name))
    core.feed(Level(t=0.0, small=200, big=400, ante=50))
    core.feed(Stacks(t=0.0, stacks=((1, 8200), (2, 11950), (4, 4100), (5, 23000), (7, 9350), (9, 6400))))
    return core.snapshot()


def notice(*, hold: bool = True, calls: tuple[str, ...] = (CALL,)) -> TournamentNotice:
    all_in = ("t03",) if hold else ()
    words, rule = hold_words("t01", hold="all in called at t03" if hold else "", hand_for_hand=True, all_in=all_in)
    return TournamentNotice(hand_for_hand=True, hold=words, hold_rule=rule, all_in=all_in, calls=calls, names=NAMES,
                            level=7, blinds="200/400 ante 50", remaining_s=754.0, running=True)


def picture(snap: TableSnapshot, told: TournamentNotice | None, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    screen = Screen(view=View.VENUE, config=DisplayConfig(seat_names={1: "Seat one"}))
    screen.update(snap)
    screen.tournament = told
    surface = pygame.Surface(size)
    screen.draw(surface, snap.t)
    return surface


def share_of(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> float:
    pixels = [surface.get_at((x, y))[:3] for x in range(rect.left, rect.right, 4)
              for y in range(rect.top, rect.bottom, 4)]
    return sum(1 for p in pixels if p == colour) / max(1, len(pixels))


def board_area(size: tuple[int, int], rows: int) -> pygame.Rect:
    layout = venue_layout(*size, places=table_places(SEATS), strip_rows=rows)
    return layout.street.union(layout.clock)


def test_wfp_dealer_all_in_bubble_the_held_table_is_told_not_to_deal_and_why() -> None:
    snap = between_hands()
    held = picture(snap, notice())
    assert share_of(held, board_area(held.get_size(), 2), theme.NOTICE) > 0.5  # the hold over the empty board
    layout = venue_layout(800, 480, places=table_places(SEATS), strip_rows=2)
    assert layout.strip is not None
    hold_row = pygame.Rect(layout.strip.left, layout.strip.top, layout.strip.width, layout.strip.height // 2)
    assert share_of(held, hold_row, theme.NOTICE) > 0.5  # HAND FOR HAND and HOLD in the strip
    folder = os.environ.get("POKERTABLE_SCREENSHOTS")
    if folder:
        save_png(picture(snap, notice(), (800, 480)), Path(folder) / "venue-tournament-hold-800x480.png")
    released = picture(snap, notice(hold=False, calls=()))  # the director released it: hand-for-hand goes on
    assert share_of(released, board_area(released.get_size(), 1), theme.NOTICE) == 0.0
    layout = venue_layout(800, 480, places=table_places(SEATS), strip_rows=1)
    assert layout.strip is not None and share_of(released, layout.strip, theme.NOTICE) == 0.0
    plain = picture(snap, TournamentNotice())  # no bubble, no call: the table as in any game
    assert pygame.image.tobytes(plain, "RGB") == pygame.image.tobytes(picture(snap, None), "RGB")


def test_the_venue_screen_names_the_players_as_the_director_has_the_field() -> None:
    snap = between_hands()
    told = notice(hold=False)
    named, unnamed = picture(snap, told), picture(snap, dataclasses.replace(told, names=()))
    layout = venue_layout(800, 480, places=table_places(SEATS), strip_rows=2)
    assert layout.strip is not None
    call_row = pygame.Rect(layout.strip.left, layout.strip.top + layout.strip.height // 2, layout.strip.width,
                           layout.strip.height // 2)
    assert share_of(named, call_row, (12, 30, 48)) > 0.5  # the FLOOR row with the call, by name
    box = layout.seat_boxes[1]  # seat 1 says the director's name (Ana Weiss), not the table file's (Seat one)
    name_row = pygame.Rect(box.left, box.top, box.width * 2 // 3, box.height // 3)
    assert (pygame.image.tobytes(named.subsurface(name_row), "RGB")
            != pygame.image.tobytes(unnamed.subsurface(name_row), "RGB"))
    empty = layout.seat_boxes[3]  # no player there: drawn the same
    assert (pygame.image.tobytes(named.subsurface(empty), "RGB")
            == pygame.image.tobytes(unnamed.subsurface(empty), "RGB"))


def test_the_daemon_screen_takes_the_notice_from_any_thread() -> None:
    import threading  # noqa: PLC0415

    screen = Screen(view=View.VENUE, config=DisplayConfig())
    loop = DisplayLoop(screen=screen, clock=lambda: 0.0)
    told = notice()
    worker = threading.Thread(target=loop.post_tournament, args=(told,))
    worker.start()
    worker.join()
    assert screen.tournament is told
    assert loop._wake.is_set()  # the loop draws it at once
    screen.update(between_hands())
    surface = pygame.Surface((800, 480))
    screen.draw(surface, 0.0)
    assert share_of(surface, board_area((800, 480), 2), theme.NOTICE) > 0.5


def test_the_venue_screen_counts_down_the_directors_level_by_its_own_clock() -> None:
    now = [100.0]
    screen = Screen(view=View.VENUE, config=DisplayConfig())
    loop = DisplayLoop(screen=screen, clock=lambda: now[0])
    screen.update(between_hands())
    told = dataclasses.replace(notice(hold=False, calls=()), remaining_s=605.0)
    loop.post_tournament(told)  # the director's state came at session time 100

    def top_bar(at: float) -> list[str]:
        with recorded_text() as drawn:
            screen.draw(pygame.Surface((800, 480)), at)
        return [text for text in drawn.texts if text.startswith(("Level", "BREAK"))]

    assert top_bar(100.0) == ["Level 7  200/400 ante 50  10:05"]
    assert top_bar(161.5) == ["Level 7  200/400 ante 50  9:03"]  # 61.5 s later by the screen's own clock
    assert top_bar(800.0) == ["Level 7  200/400 ante 50  0:00"]  # run out: the director's next state moves on
    tick = screen.next_tick(161.5)
    assert tick is not None and 161.5 < tick <= 162.5  # redrawn when the next whole second shows

    loop.post_tournament(dataclasses.replace(told, running=False))  # paused by the director: the clock stands
    assert top_bar(500.0) == ["Level 7  200/400 ante 50  10:05"]
    assert screen.next_tick(500.0) is None
    now[0] = 200.0
    loop.post_tournament(dataclasses.replace(told, remaining_s=300.0, on_break=True))
    assert top_bar(230.0) == ["BREAK  4:30"]


def test_a_ticking_director_clock_does_not_send_the_tables_state_again() -> None:
    """The state topic carries the table's tournament part (hold, hand-for-hand, calls), not the level's clock:
    a director's state that only moves the clock changes what the venue screen counts from, and nothing else."""
    told = notice()
    ticked = TournamentNotice(**{**{f: getattr(told, f) for f in told.__slots__}, "remaining_s": 42.0})
    assert ticked != told and ticked.to_json() == told.to_json()
