"""The secure delay: nothing live is drawn in the broadcast picture, not even in an operator strip.

The broadcast view is rendered while the table is at hand 5 and the picture on air (120 s behind)
still shows hand 3; every string drawn and every card face is recorded, and the picture's body is
compared pixel for pixel with the one drawn when the live hand never happened.
"""

from __future__ import annotations

import dataclasses

import pygame
import pytest
import samples
from pictures import RecordingPainter, recorded_text

from display.app import Screen, View
from display.display_config import DisplayConfig
from display.operator import OperatorStatus, operator_lines, render_operator
from display.render import render_view
from firmware_py.core.rulings import RulingKind, Street
from firmware_py.errors import ConfigError

DELAY = 120.0
ON_AIR = dataclasses.replace(samples.dealt(t=10.0, board=("Ad", "7h", "2s")), hand_number=3)
LIVE = dataclasses.replace(
    samples.dealt(t=130.0, board=("3s", "4d", "5h"), street=Street.FLOP, folded=(2,)),
    hand_number=5, in_play="test-blue", notices=("unknown tag 04AA on antenna muck",),
    unconfirmed=(samples.example(RulingKind.MISDEAL),), hand_rulings=(samples.example(RulingKind.MISDEAL),),
    seats=tuple(dataclasses.replace(v, cards=("6c", "6d")) for v in samples.dealt().seats))
LIVE_WORDS = ("hand 5", "Hand 5", "OPERATOR", "board 3", "burns", "hole cards out", "test-blue", "MISDEAL",
              "misdeal", "unknown tag", "ruling waiting")
SIZES = [(800, 480), (1920, 1080)]


@pytest.fixture
def drawn_text():
    with recorded_text() as drawn:
        yield drawn


def broadcast(history, *, size, at=135.0):
    painter = RecordingPainter()
    config = DisplayConfig(seat_names=samples.NAMES, broadcast_delay_s=DELAY)
    return render_view(View.BROADCAST, history, at=at, size=size, config=config, painter=painter), painter


@pytest.mark.parametrize("size", SIZES)
def test_broadcast_during_the_delay_draws_no_live_hand_board_ruling_or_count(size, drawn_text):
    surface, painter = broadcast([(10.0, ON_AIR), (130.0, LIVE)], size=size)
    assert any("Hand 3" in text for text in drawn_text.texts)  # the delayed hand is on air
    leaked = [text for text in drawn_text.texts for word in LIVE_WORDS if word in text]
    assert leaked == []
    faces = {card for card, _role, _rect in painter.faces}
    assert faces.isdisjoint({"3s", "4d", "5h", "6c", "6d"})  # no live board or hole card
    assert {"Ad", "7h", "2s"} <= faces

    # Pixel for pixel, below the header (whose "next update in" counts down to the release), the
    # picture is the one drawn when the live hand never happened.
    alone, _ = broadcast([(10.0, ON_AIR)], size=size)
    header = round(44 * min(size[0] / 800, size[1] / 480))
    body = pygame.Rect(0, header, size[0], size[1] - header)
    assert pygame.image.tobytes(surface.subsurface(body), "RGB") == \
        pygame.image.tobytes(alone.subsurface(body), "RGB")


def test_broadcast_screen_given_operator_status_still_draws_none_of_it(drawn_text):
    config = DisplayConfig(seat_names=samples.NAMES, broadcast_delay_s=DELAY)
    screen = Screen(view=View.BROADCAST, config=config)
    screen.update(ON_AIR, t=10.0)
    screen.update(LIVE, t=130.0)
    screen.operator = OperatorStatus(readers=(("shoe", "no answer on /dev/spidev0.0"),), note="FAULT")
    screen.draw(pygame.Surface((800, 480)), 135.0)
    assert not [text for text in drawn_text.texts if "shoe" in text or "FAULT" in text or "spidev" in text]


def test_the_operator_screen_shows_the_live_status_without_hole_cards(drawn_text):
    status = OperatorStatus(readers=(("shoe", "ok"),))
    lines = operator_lines(LIVE, status)
    assert "hand 5 · flop" in lines and "deck test-blue" in lines and "shoe: ok" in lines
    assert "12 hole cards out · board 3 · burns 1" in lines
    render_operator(pygame.Surface((800, 480)), LIVE, operator=status)
    assert not [text for text in drawn_text.texts if "6c" in text or "6d" in text]


def test_the_old_operator_strip_setting_is_refused_with_the_way_forward():
    with pytest.raises(ConfigError, match=r'show_operator_status is gone.*view = "operator"'):
        DisplayConfig.from_mapping({"show_operator_status": True}, source="table.toml")
