"""Both views rendered off-screen and their pictures checked, for every ruling kind and size."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame
import pytest
import samples
from pictures import RecordingPainter, count_colour, face_pixels, recorded_text

from display import theme
from display.app import Screen, View
from display.broadcast import grid_rects, panel_card_rects
from display.cards import FaceRole
from display.display_config import DisplayConfig
from display.layout import table_places, venue_layout
from display.render import render_view
from display.venue import render_venue
from display.widgets import banner_colours
from firmware_py.core.engine import TableCore
from firmware_py.core.rulings import RulingKind
from firmware_py.core.snapshot import PlayerState
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session

SIZES = [(800, 480), (1920, 1080), (1280, 720)]


def venue(snapshot, *, now=12.0, size=(800, 480), config=samples.CONFIG):
    painter = RecordingPainter()
    surface = pygame.Surface(size)
    render_venue(surface, snapshot, now=now, config=config, painter=painter)
    return surface, painter


def layout_for(snapshot, size=(800, 480)):
    places = table_places([s.seat for s in snapshot.seats if s.state != PlayerState.EMPTY])
    return venue_layout(*size, places=places)


@pytest.mark.parametrize("kind", list(RulingKind))
@pytest.mark.parametrize("size", SIZES)
def test_ruling_banner_is_drawn_until_confirmed(kind, size):
    snapshot = samples.with_ruling(kind)
    surface, painter = venue(snapshot, size=size)
    banner = layout_for(snapshot, size).banner
    fill, edge = banner_colours(samples.example(kind))
    # The title band and the border are in the banner's colours, in the banner's place.
    assert count_colour(surface, fill, banner) > banner.width * banner.height * 0.12
    assert count_colour(surface, edge, banner) > banner.width * 2
    ruling = samples.example(kind)
    if ruling.public().card:
        assert ruling.card in painter.cards(FaceRole.RULING)
    elif ruling.card:  # a card that lies face down (an extra card, now the burn) is not shown
        assert ruling.card not in painter.cards(FaceRole.RULING)
    # Once confirmed (no longer in `unconfirmed`) the banner is gone.
    confirmed = dataclasses.replace(snapshot, unconfirmed=())
    after, _ = venue(confirmed, size=size)
    assert count_colour(after, fill, banner) < banner.width * banner.height * 0.01


@pytest.mark.parametrize("size", SIZES)
def test_board_faces_appear_on_the_board_places(size):
    snapshot = samples.dealt(board=("Ad", "7h", "2s"))
    surface, painter = venue(snapshot, size=size)
    board = layout_for(snapshot, size).board
    assert painter.cards(FaceRole.BOARD) == ["Ad", "7h", "2s"]
    for place in board[:3]:
        assert face_pixels(surface, place) > place.width * place.height * 0.4
    for place in board[3:]:
        assert face_pixels(surface, place) == 0


@pytest.mark.parametrize("size", SIZES)
def test_venue_view_never_draws_a_hole_card_face(size):
    snapshot = samples.dealt()  # every seat dealt, no board, no ruling
    surface, painter = venue(snapshot, size=size)
    assert painter.faces == []  # no face of any kind went through the one face painter
    assert len(painter.backs) == 12  # but every dealt card is shown, face down
    assert face_pixels(surface) == 0  # and no card-face ivory anywhere in the picture
    # With a board out, the only faces are the board cards, only in the board places.
    board_snapshot = samples.dealt(board=("Ad", "7h", "2s", "Kh", "3d"))
    surface, painter = venue(board_snapshot, size=size)
    assert {role for _, role, _ in painter.faces} == {FaceRole.BOARD}
    board = layout_for(board_snapshot, size).board
    on_board = sum(face_pixels(surface, place) for place in board)
    assert face_pixels(surface) == on_board


def test_venue_view_holds_no_hole_card_text():
    """Even the text drawn never spells a hole card: the view works on a redacted copy."""
    with recorded_text() as drawn:
        venue(samples.showdown())
        venue(samples.clock_on(), now=110)
    holes = {card for cards in samples.HOLES.values() for card in cards}
    assert drawn
    assert not [text for text in drawn.texts if any(card in text for card in holes)]


def test_folded_seats_are_dimmed_and_their_cards_gone():
    snapshot = samples.dealt(folded=(5,))
    surface, painter = venue(snapshot)
    box = layout_for(snapshot).seat_boxes[5]
    assert count_colour(surface, theme.SEAT_FOLDED, box) > box.width * box.height * 0.4
    assert not [rect for rect in painter.backs if box.contains(rect)]


def test_player_to_act_is_ringed():
    snapshot = samples.dealt(to_act=4)
    surface, _ = venue(snapshot)
    box = layout_for(snapshot).seat_boxes[4]
    assert count_colour(surface, theme.SEAT_TO_ACT, box.inflate(8, 8)) > box.width


@pytest.mark.parametrize(("now", "colour", "ticks"), [
    (105.0, theme.GOOD, False),  # 25 s left of 30: no warning yet
    (112.0, theme.WARN, True),  # 18 s left: past the 20 s warning
    (127.0, theme.ALARM, True),  # 3 s left: the five-second countdown
    (131.0, theme.ALARM, True),  # past zero: dead
])
def test_shot_clock_counts_down_with_the_profile_warnings(now, colour, ticks):
    snapshot = samples.clock_on(seconds=30, warnings=(20, 10), countdown=5, started_t=100)
    surface, _ = venue(snapshot, now=now)
    clock = layout_for(snapshot).clock
    assert count_colour(surface, colour, clock) > clock.width  # the frame and bar in that colour
    screen = Screen(view=View.VENUE, config=samples.CONFIG)
    screen.update(snapshot)
    tick = screen.next_tick(now)
    assert tick is not None
    if now < 130:
        assert now < tick <= now + 1.01


def test_shot_clock_names_the_seat_that_called_it():
    with recorded_text() as drawn:
        venue(samples.clock_on(called_by=2), now=105)
    assert any("called by" in text and "CLOCK" in text for text in drawn.texts), drawn.texts
    with recorded_text() as drawn:
        venue(samples.clock_on(), now=105)  # the dealer called it: no one named
    assert not any("called by" in text for text in drawn.texts)


def test_blind_level_and_time_left_come_from_the_config():
    config = DisplayConfig(blind_levels=samples.CONFIG.blind_levels[:2], levels_start_t=0)
    assert config.level_at(0).number == 1
    assert config.level_at(20 * 60 + 1).number == 2
    assert config.level_at(20 * 60 + 1).seconds_left is None  # the last level never ends
    assert config.level_at(65).seconds_left == pytest.approx(20 * 60 - 65)


def broadcast_surface(history, at, *, size=(800, 480), delay=60.0, zero=False):
    painter = RecordingPainter()
    config = DisplayConfig(seat_names=samples.NAMES, broadcast_delay_s=delay,
                           allow_zero_delay=zero)
    surface = render_view(View.BROADCAST, history, at=at, size=size, config=config,
                          painter=painter)
    return surface, painter


HISTORY = [(10.0, samples.dealt(t=10)),
           (40.0, samples.dealt(t=40, board=("Ad", "7h", "2s"), folded=(5, 6)))]


@pytest.mark.parametrize("size", SIZES)
def test_broadcast_shows_no_hole_card_before_the_delay_has_passed(size):
    surface, painter = broadcast_surface(HISTORY, at=69.0, size=size)  # 59 s after the deal
    assert painter.faces == []
    assert face_pixels(surface) == 0


@pytest.mark.parametrize("size", SIZES)
def test_broadcast_shows_hole_cards_once_the_delay_has_passed(size):
    surface, painter = broadcast_surface(HISTORY, at=70.0, size=size)  # the deal, 60 s old
    holes = [card for seat in sorted(samples.HOLES) for card in samples.HOLES[seat]]
    assert painter.cards(FaceRole.HOLE) == holes
    assert painter.cards(FaceRole.BOARD) == []  # the flop is not 60 s old yet
    # Each panel has ivory where its two cards are.
    body_top = round(44 * min(size[0] / 800, size[1] / 480))
    for _card, role, rect in painter.faces:
        assert role == FaceRole.HOLE
        assert face_pixels(surface, rect) > rect.width * rect.height * 0.3
        assert rect.top > body_top


def test_broadcast_moves_on_with_the_delay_and_greys_folded_hands():
    surface, painter = broadcast_surface(HISTORY, at=100.0)
    assert painter.cards(FaceRole.BOARD) == ["Ad", "7h", "2s"]
    folded = {card for seat in (5, 6) for card in samples.HOLES[seat]}
    greyed = [rect for card, _, rect in painter.faces if card in folded]
    live = [rect for card, role, rect in painter.faces
            if role == FaceRole.HOLE and card not in folded]
    # A veil covers folded faces: their ivory is gone, live faces keep theirs.
    assert all(face_pixels(surface, rect) == 0 for rect in greyed)
    assert all(face_pixels(surface, rect) > 0 for rect in live)


def test_zero_delay_only_when_explicitly_allowed():
    with pytest.raises(ValueError, match="allow_zero_delay"):
        DisplayConfig(broadcast_delay_s=0)
    _, painter = broadcast_surface(HISTORY, at=10.0, delay=0, zero=True)
    assert len(painter.cards(FaceRole.HOLE)) == 12


def test_grid_gives_every_seat_a_panel_inside_the_area():
    area = pygame.Rect(0, 100, 800, 300)
    for count in range(1, 11):
        rects = grid_rects(area, count, gap=4)
        assert len(rects) == count
        assert all(area.contains(rect) for rect in rects)
        for rect in rects:
            cards = panel_card_rects(rect)
            assert all(rect.contains(card) for card in cards)


def test_ten_seats_fit_on_the_smallest_screen():
    seats = tuple(dataclasses.replace(samples.dealt().seats[0], seat=n, is_button=n == 1)
                  for n in range(1, 11))
    snapshot = dataclasses.replace(samples.dealt(board=("Ad", "7h", "2s")), seats=seats)
    layout = layout_for(snapshot)
    screen = pygame.Rect(0, 0, 800, 480)
    boxes = list(layout.seat_boxes.values())
    assert all(screen.contains(box) for box in boxes)
    for i, box in enumerate(boxes):
        assert box.collidelist(boxes[i + 1:]) < 0
    assert all(place.collidelist(boxes) < 0 for place in layout.board)
    assert layout.clock.collidelist(boxes) < 0


@pytest.mark.parametrize("size", SIZES)
def test_a_card_no_deck_knows_is_drawn_as_a_question_mark_on_the_banner_and_the_board(size):
    """The core names a card out of the shoe with an unknown tag `?1`: the views draw it, no crash."""
    snapshot = dataclasses.replace(samples.with_ruling(RulingKind.UNKNOWN_CARD), board=("Ad", "7h", "?1"))
    surface, painter = venue(snapshot, size=size)
    assert "?1" in painter.cards(FaceRole.RULING) and "?1" in painter.cards(FaceRole.BOARD)
    rect = next(r for card, role, r in painter.faces if card == "?1" and role == FaceRole.RULING)
    assert count_colour(surface, theme.ALARM, rect) > 0  # the question mark, in the alarm colour
    confirmed, painter = venue(dataclasses.replace(snapshot, unconfirmed=()), size=size)
    rect = next(r for card, role, r in painter.faces if card == "?1" and role == FaceRole.BOARD)
    assert count_colour(confirmed, theme.ALARM, rect) > 0


def test_venue_shows_the_chip_race_in_the_boards_place():
    # WFP Tournament Procedures 6: while dealt, the seat due the next card; once ruled, who got a chip.
    core = TableCore(load_profiles())
    shots: dict[bool, str] = {}
    for _line, event in read_session(Path(__file__).resolve().parents[1] / "sessions" / "chip_race_wfp.jsonl"):
        if getattr(event, "name", None) == "new_hand":
            break
        core.feed(event)
        snap = core.snapshot()
        if snap.race is not None and not snap.unconfirmed:
            with recorded_text() as drawn:
                venue(snap, now=event.t)
            shots[snap.race.done] = " | ".join(drawn.texts)
    assert "CHIP RACE  25 → 100  ·  card to" in shots[False]
    assert "ruled" in shots[True] and "+1 × 100 (no other chips: first)" in shots[True] and "no chip" in shots[True]
