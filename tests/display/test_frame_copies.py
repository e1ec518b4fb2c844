"""The broadcast screen copies what has not changed (card faces, text, seat panels) instead of drawing it
again: the picture must be the one drawn from nothing, pixel for pixel, frame after frame, and a
copy kept while the table was live must never reach the delayed picture."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pygame
import pytest
import samples

from display import cards, theme
from display.app import DisplayLoop, Screen, View
from display.cards import CardPainter, FaceRole
from display.display_config import DisplayConfig
from firmware_py.core import Setup
from firmware_py.core.engine import TableCore
from firmware_py.core.snapshot import TableSnapshot
from firmware_py.odds.chances import ChancesCache, Key, SeatChance, TableChances
from firmware_py.odds.equity import Equity
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck
from firmware_py.simulation.dealer import DealerBot

DECK = Path(__file__).resolve().parents[2] / "config" / "decks" / "test-red.json"


def dealt_snapshots(seats: int, hands: int) -> list[TableSnapshot]:
    """Every snapshot of `hands` hands a dealer bot deals at `seats` seats (the frame benchmark's table)."""
    profiles = load_profiles()
    deck = load_deck(DECK)
    numbers = tuple(range(1, seats + 1))
    bot = DealerBot(rng=random.Random(seats), deck=deck, profile=profiles["robert"], seats=numbers, button=1)
    events = [Setup(t=0.0, profile="robert", seats=numbers, button=1, decks=(deck,), in_play=deck.name)]
    for hand in bot.session(hands, t=1.0):
        events.extend(hand.events)
    core = TableCore(profiles)
    out = []
    for event in events:
        core.feed(event)
        out.append(core.snapshot())
    return out


def quick_chances(key: Key, rng: random.Random) -> TableChances:
    """Chances that differ seat by seat and deal by deal (seeded by the deal): this file checks how they
    are drawn, not how they are computed (test_equity does), and nine-handed pre-flop runouts are slow."""
    live = key[0]
    shares = [rng.random() + 0.05 for _ in live]
    total = sum(shares) * 1.04
    win = tuple(share / total for share in shares)
    tie = tuple(0.04 / len(live) if index % 2 else 0.0 for index in range(len(live)))
    equity = Equity(win=win, tie=tie, exact=len(key[1]) >= 4, runouts=44 if len(key[1]) >= 4 else 20000,
                    error=0.0 if len(key[1]) >= 4 else 0.003)
    return TableChances(seats={seat: SeatChance(win=w, tie=t) for (seat, _), w, t in zip(live, win, tie, strict=True)},
                        equity=equity)


def picture(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.parametrize(("seats", "size"), [(9, (800, 480)), (10, (800, 480)), (10, (1920, 1080))])
def test_a_screen_drawing_every_deal_shows_what_a_fresh_screen_draws(seats, size):
    snapshots = dealt_snapshots(seats, 2)
    config = DisplayConfig(seat_names={**samples.NAMES, 3: "Maximilian Alexander von Hohenzollern"},
                           broadcast_delay_s=0, allow_zero_delay=True)
    chances = ChancesCache(compute=quick_chances)
    screen = Screen(view=View.BROADCAST, config=config, chances=chances)
    drawn, fresh = pygame.Surface(size), pygame.Surface(size)
    compared = 0
    for index, snapshot in enumerate(snapshots):
        screen.update(snapshot, t=float(index))
        screen.draw(drawn, float(index))
        if index % 5 == 0 or index == len(snapshots) - 1:
            alone = Screen(view=View.BROADCAST, config=config, chances=chances)
            alone.update(snapshot, t=float(index))
            alone.draw(fresh, float(index))
            assert picture(drawn) == picture(fresh), f"frame {index} of {len(snapshots)}"
            compared += 1
    assert compared > 20


def test_panels_copied_while_the_table_was_live_never_reach_the_delayed_picture():
    """A screen that has drawn hand after hand keeps copies of their panels; the picture on air during
    the delay is still the one a screen given only the delayed snapshot draws."""
    snapshots = dealt_snapshots(9, 3)
    delay = 100.0
    config = DisplayConfig(seat_names=samples.NAMES, broadcast_delay_s=delay)
    chances = ChancesCache(compute=quick_chances)
    screen = Screen(view=View.BROADCAST, config=config, chances=chances)
    surface, alone_surface = pygame.Surface((800, 480)), pygame.Surface((800, 480))
    for index, snapshot in enumerate(snapshots):  # one a second: the picture runs 100 snapshots behind
        screen.update(snapshot, t=float(index))
        screen.draw(surface, float(index))
        if index >= delay and index % 9 == 0:
            on_air = snapshots[index - round(delay)]
            alone = Screen(view=View.BROADCAST, config=config, chances=chances)
            alone.update(on_air, t=0.0)
            alone.draw(alone_surface, delay)
            assert picture(surface) == picture(alone_surface), f"frame {index}"


@pytest.mark.parametrize("height", [57, 60, 131])
def test_a_kept_card_face_is_the_face_drawn_in_place(height):
    """Kept faces are blitted at any place, odd or even: every card, as if drawn there."""
    width = cards.card_size(height)[0]
    for card in [r + s for r in "23456789TJQKA" for s in "shdc"] + ["X1", "?7"]:
        for left, top in ((3, 4), (4, 3), (7, 7), (10, 10)):
            place = pygame.Rect(left, top, width, height)
            kept, direct = pygame.Surface((160, 160)), pygame.Surface((160, 160))
            kept.fill(theme.SEAT_FILL)
            direct.fill(theme.SEAT_FILL)
            CardPainter().face(kept, place, card, role=FaceRole.HOLE)
            cards._draw_face(direct, place, card)
            assert picture(kept) == picture(direct), (card, left, top)


@pytest.mark.parametrize(("size", "width", "radius"), [((120, 50), 0, 5), ((120, 50), 1, 5), ((97, 41), 3, 4),
                                                       ((40, 57), 1, 4), ((33, 15), 0, 40)])
def test_a_kept_rounded_rectangle_is_the_one_drawn_in_place(size, width, radius):
    """Panels and card places are copied from a kept rounded rectangle, at any place, odd or even."""
    for left, top in ((3, 4), (4, 3), (7, 7), (10, 10), (-5, 2)):
        rect = pygame.Rect((left, top), size)
        kept, direct = pygame.Surface((160, 100)), pygame.Surface((160, 100))
        kept.fill(theme.BACKGROUND)
        direct.fill(theme.BACKGROUND)
        theme.rounded_rect(kept, theme.SEAT_FILL, rect, width=width, radius=radius)
        pygame.draw.rect(direct, theme.SEAT_FILL, rect, width, border_radius=radius)
        assert picture(kept) == picture(direct), (rect, width, radius)


@pytest.mark.parametrize("size", [9, 13, 20, 27, 41, 64])
def test_a_line_is_as_wide_as_its_image_and_as_high_as_its_font(size):
    """draw_text measures a line by its image, and the chances by their font's height: SDL_ttf's sizes."""
    texts = [f"{win / 10:.1f}%" for win in range(0, 1001, 37)] + [f"{win}%" for win in range(0, 101, 9)]
    texts += ["", "raise to 1,200 · two pair, queens and fours", "computing…", "Ωμέγα", "Влад", "Seat 3 王芳"]
    for text in texts:
        width, height = theme.text_size(text, size)
        assert theme.render_text(text, size, theme.TEXT).get_width() == width, text
        assert theme.line_box_height(text, size) == height, text


def test_the_warm_up_changes_no_picture_and_keeps_no_panel():
    """The broadcast view's rehearsal at start-up leaves fonts, glyphs, faces and shapes, nothing of a table:
    a frame after it is the frame drawn from nothing."""
    snapshots = dealt_snapshots(9, 1)
    config = DisplayConfig(seat_names=samples.NAMES, broadcast_delay_s=0, allow_zero_delay=True)
    chances = ChancesCache(compute=quick_chances)
    for cached in (theme._font_at, theme._rendered, theme.text_size, theme.ink_top, theme._glyph_top,
                   theme._shape, cards.face_image):
        cached.cache_clear()
    cold = Screen(view=View.BROADCAST, config=config, chances=chances)
    cold_surface = pygame.Surface((800, 480))
    cold_pictures = []
    for index, snapshot in enumerate(snapshots[::7]):
        cold.update(snapshot, t=float(index))
        cold.draw(cold_surface, float(index))
        cold_pictures.append(picture(cold_surface))
    warm = Screen(view=View.BROADCAST, config=config, chances=chances)
    warm.warm_up((800, 480))
    assert not warm.panels._images
    warm_surface = pygame.Surface((800, 480))
    for index, snapshot in enumerate(snapshots[::7]):
        warm.update(snapshot, t=float(index))
        warm.draw(warm_surface, float(index))
        assert picture(warm_surface) == cold_pictures[index], f"frame {index}"


class _Faces(CardPainter):
    """Notes each hole card's face drawn that was not among the kept faces (a first sight, in a frame)."""

    def __init__(self) -> None:
        self.new: list[tuple[str, int, int]] = []

    def face(self, surface: pygame.Surface, rect: pygame.Rect, card: str, *, role: FaceRole) -> None:
        misses = cards.face_image.cache_info().misses
        super().face(surface, rect, card, role=role)
        if role == FaceRole.HOLE and cards.face_image.cache_info().misses > misses:
            self.new.append((card, rect.left, rect.top))


@pytest.mark.parametrize("seats", [6, 10])
def test_after_the_warm_up_no_hole_card_is_a_first_sight(seats):
    """The warm-up draws every card at every seat's place at every table size: a card dealt to any seat is
    copied from its kept face, never drawn in the frame (under qemu each was 1-2 ms of it)."""
    cards.face_image.cache_clear()
    config = DisplayConfig(seat_names=samples.NAMES, broadcast_delay_s=0, allow_zero_delay=True)
    painter = _Faces()
    screen = Screen(view=View.BROADCAST, config=config, chances=ChancesCache(compute=quick_chances), painter=painter)
    screen.warm_up((800, 480))
    surface = pygame.Surface((800, 480))
    dealt = 0
    for index, snapshot in enumerate(dealt_snapshots(seats, 2)):
        screen.update(snapshot, t=float(index))
        screen.draw(surface, float(index))
        dealt += sum(len(seat.cards) for seat in snapshot.seats)
    assert dealt > 100
    assert painter.new == []


def test_a_resized_screen_warms_up_again_between_frames():
    """The rehearsal runs before the first frame at the screen's size; a screen resized after start-up takes
    it again at its new size, a step at a time between frames, and a frame after it is the frame drawn from
    nothing."""
    pygame.display.set_mode((800, 480))
    config = DisplayConfig(seat_names=samples.NAMES, broadcast_delay_s=0, allow_zero_delay=True)
    chances = ChancesCache(compute=quick_chances)
    painter = _Faces()
    loop = DisplayLoop(screen=Screen(view=View.BROADCAST, config=config, chances=chances, painter=painter),
                       clock=time.perf_counter)
    snapshots = dealt_snapshots(10, 1)
    resized = threading.Event()
    steps: list[int] = []
    warm_step = loop._warm_step

    def counted_step() -> None:
        steps.append(1)
        warm_step()
        if loop._warming is None:  # the last step: the rehearsal at the new size is done
            loop.stop()

    loop._warm_step = counted_step  # type: ignore[method-assign]

    def on_frame(_now: float, frame: int) -> None:
        if frame == 1:
            pygame.display.set_mode((1024, 600))  # as a window resized, or a screen that changed its mode
            resized.set()
            loop.post(snapshots[0])

    loop.on_frame = on_frame
    stopper = threading.Timer(300, loop.stop)  # only if the rehearsal never ends
    stopper.start()
    try:
        loop.run()
    finally:
        stopper.cancel()
    assert resized.is_set()
    assert loop._warming is None and loop._warmed_size == (1024, 600)
    assert len(steps) > 100  # a rehearsal frame, a text size's glyphs, eight faces: each a step of its own
    surface = pygame.Surface((1024, 600))
    for index, snapshot in enumerate(snapshots):
        loop.screen.update(snapshot, t=float(index))
        loop.screen.draw(surface, float(index))
    assert painter.new == []
    alone = Screen(view=View.BROADCAST, config=config, chances=chances)
    alone.update(snapshots[-1], t=0.0)
    fresh = pygame.Surface((1024, 600))
    alone.draw(fresh, 0.0)
    assert picture(surface) == picture(fresh)


@pytest.mark.parametrize("size", [9, 14, 20, 31])
def test_a_line_cut_short_is_the_longest_start_that_fits(size):
    """`_ellipsize` guesses where to cut from the line's width and steps from there: the line it gives is the
    one cutting a character at a time from the end gives (the picture as before)."""
    def one_at_a_time(text: str, max_width: int) -> str:
        while len(text) > 1 and theme.text_size(text + "…", size)[0] > max_width:
            text = text[:-1]
        return text.rstrip() + "…"

    for text in ("raise to 1,200 · two pair, queens and fours", "Maximilian Alexander von Hohenzollern", "fold",
                 "all in · straight flush, nine high", "WAVAWAVA TTyy ....", "Ωμέγα Влад 王芳 a long name", "A"):
        whole = theme.text_size(text, size)[0]
        for max_width in range(1, whole + 12, max(1, whole // 40)):
            theme._ellipsize.cache_clear()
            assert theme._ellipsize(text, size, max_width) == one_at_a_time(text, max_width), (text, max_width)
