"""Text a player can read: a font with the names' scripts, no split words, no 6 px names, and banner
titles at WCAG AA contrast (4.5:1)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
import samples
from pictures import recorded_text

from display import theme
from display.app import View
from display.cards import CardPainter
from display.display_config import DisplayConfig
from display.render import render_view
from display.venue import render_venue
from display.widgets import banner_colours, ruling_title
from firmware_py.core.engine import TableCore
from firmware_py.core.rulings import RulingKind
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session

MISSING = "\U000f0000"  # a private-use character no font has: drawn as the "missing glyph" box
SIZES = [(800, 480), (1920, 1080)]


def glyph(text: str, size: int = 40) -> bytes:
    image = theme.render_text(text, size, (255, 255, 255))
    canvas = pygame.Surface(image.get_size())
    canvas.blit(image, (0, 0))
    return pygame.image.tobytes(canvas, "RGB")


@pytest.mark.parametrize("char", [*"ДжЯЩΩλέ", "ñ", "ł", "ő"])
def test_cyrillic_greek_and_accented_letters_are_drawn_not_boxes(char):
    """The shipped Noto Sans has them, with no system font needed."""
    assert glyph(char) != glyph(MISSING)
    assert theme._font_for(char) == theme.PRIMARY_FONT


def test_cjk_names_are_drawn_from_a_system_fallback_font():
    if theme._font_for("王") == theme.PRIMARY_FONT:
        pytest.skip("no CJK font installed (apt-get install fonts-droid-fallback or fonts-noto-cjk; "
                    "systemd/install.sh and .ci/run install fonts-droid-fallback)")
    assert glyph("王芳") != glyph(MISSING * 2)
    mixed = theme.render_text("Seat 3 王芳", 30, (255, 255, 255))
    assert mixed.get_width() >= theme.text_size("Seat 3 ", 30)[0] + theme.text_size("王芳", 30)[0] - 2


def _words_drawn(monkeypatch) -> list[tuple[str, int]]:
    drawn: list[tuple[str, int]] = []
    real = theme.render_text

    def record(text, size, colour):
        drawn.append((text, size))
        return real(text, size, colour)

    monkeypatch.setattr(theme, "render_text", record)
    return drawn


@pytest.mark.parametrize("size", SIZES)
def test_a_long_name_is_cut_with_an_ellipsis_at_a_readable_size(size, monkeypatch):
    long_name = "Maximilian Alexander von Hohenzollern-Sigmaringen"
    config = DisplayConfig(seat_names={**samples.NAMES, 4: long_name})
    drawn = _words_drawn(monkeypatch)
    render_venue(pygame.Surface(size), samples.dealt(), now=12.0, config=config, painter=CardPainter())
    shown = [(text, px) for text, px in drawn if text.startswith("Maximilian")]
    assert shown, drawn
    for text, px in shown:
        assert px >= theme.READABLE_PX  # was shrunk to about 6 px
        assert text.endswith("…") and len(text) < len(long_name)


def test_a_long_fault_line_keeps_a_readable_size():
    assert theme.fit_size("reader shoe: " + "x" * 300, 20, 300) == theme.readable_floor(20) == 15


@pytest.mark.parametrize("kind", list(RulingKind))
def test_banner_title_contrast_is_at_least_wcag_aa(kind, monkeypatch):
    snapshot = samples.with_ruling(kind)
    ruling = samples.example(kind)
    fill, _edge = banner_colours(ruling)
    ink = theme.ink_on(fill)
    assert theme.contrast(ink, fill) >= 4.5, (kind, fill, ink)
    # And it is the colour the title is drawn in, on that band.
    with recorded_text() as drawn:
        render_venue(pygame.Surface((800, 480)), snapshot, now=12.0, config=samples.CONFIG, painter=CardPainter())
    title = ruling_title(ruling) if kind != RulingKind.SHOWDOWN else "WINNER"
    assert (title, ink) in [(line.text, line.colour) for line in drawn]


def test_title_letters_are_not_pulled_apart():
    """pygame's freesansbold under the PyPI wheel set "EA" and "RA" wider than the letters apart:
    "MISDE AL", "EXTR A". A pair of letters must not be wider than the two drawn alone."""
    titles = [ruling_title(samples.example(kind)) for kind in RulingKind] + ["WINNER", "SPLIT POT"]
    pairs = {word[i:i + 2] for title in titles for word in title.split() for i in range(len(word) - 1)}
    for size in (24, 40, 63, 90):
        wide = [pair for pair in sorted(pairs)
                if theme.text_size(pair, size)[0] > theme.text_size(pair[0], size)[0]
                + theme.text_size(pair[1], size)[0] + 1]
        assert wide == [], size



def test_all_in_beside_a_blind_badge_is_not_cut_short(monkeypatch):
    """At 800x480 a seat box with a blind badge left "ALL IN" no room: it was cut to "AL…". It now
    goes a word a line, at a readable size."""
    session = Path(__file__).resolve().parents[1] / "sessions" / "three_way_allin_robert.jsonl"
    core, history = TableCore(load_profiles()), []
    for _line, event in read_session(session):
        core.feed(event)
        history.append((event.t, core.snapshot()))
    drawn = _words_drawn(monkeypatch)
    render_view(View.VENUE, history, at=9.0, size=(800, 480), config=DisplayConfig(), painter=CardPainter())
    words = [text for text, _px in drawn]
    assert not [text for text in words if text.startswith("AL") and text.endswith("…")], words
    split = [(text, px) for text, px in drawn if text in ("ALL", "IN")]
    assert len(split) >= 4, words  # two all-in seats with a blind badge (SB and BB), a word a line
    assert all(px >= theme.READABLE_PX for _text, px in split)
    assert "ALL IN" in words  # the all-in seat without a badge keeps one line
