"""Looking at what was drawn: a painter that records card faces, and colour counts in a region."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pygame

from display import theme
from display.cards import CardPainter, FaceRole


class RecordingPainter(CardPainter):
    """Draws like the real painter and remembers every face and back it drew, and where."""

    def __init__(self) -> None:
        self.faces: list[tuple[str, FaceRole, pygame.Rect]] = []
        self.backs: list[pygame.Rect] = []

    def face(self, surface, rect, card, *, role):
        self.faces.append((card, role, pygame.Rect(rect)))
        super().face(surface, rect, card, role=role)

    def back(self, surface, rect, **kwargs):
        self.backs.append(pygame.Rect(rect))
        super().back(surface, rect, **kwargs)

    def cards(self, role: FaceRole) -> list[str]:
        return [card for card, drawn_role, _ in self.faces if drawn_role == role]


def count_colour(surface: pygame.Surface, colour: tuple[int, int, int],
                 region: pygame.Rect | None = None) -> int:
    """How many pixels of `region` (default: all) are exactly `colour`."""
    if region is not None:
        surface = surface.subsurface(region.clip(surface.get_rect()))
    mask = pygame.mask.from_threshold(surface, colour, (1, 1, 1, 255))
    return mask.count()


def face_pixels(surface: pygame.Surface, region: pygame.Rect | None = None) -> int:
    return count_colour(surface, theme.CARD_FACE, region)


@dataclass(frozen=True)
class DrawnText:
    text: str
    size: int
    colour: tuple[int, int, int]
    rect: pygame.Rect


class TextRecord(list[DrawnText]):
    """Every line of text drawn, in order; `texts` the strings alone."""

    @property
    def texts(self) -> list[str]:
        return [line.text for line in self]


@contextmanager
def recorded_text() -> Iterator[TextRecord]:
    """Record what `theme.draw_text` draws inside the block: text, size, colour and where it went."""
    drawn = TextRecord()
    real = theme.draw_text

    def record(surface, text, size, colour, *args, **kwargs):
        rect = real(surface, text, size, colour, *args, **kwargs)
        drawn.append(DrawnText(text, size, colour, rect))
        return rect

    theme.draw_text = record
    try:
        yield drawn
    finally:
        theme.draw_text = real
