"""Drawing cards: every card face on any screen goes through `CardPainter.face`.

Suits are drawn as shapes, not glyphs, so no font needs the suit symbols; a four-colour deck keeps
diamonds and hearts apart from across a table.
"""

from __future__ import annotations

import functools
from enum import StrEnum

import pygame

from display import theme

CARD_ASPECT = 0.714  # width / height of a poker-size card


class FaceRole(StrEnum):
    """Why a face is drawn: the broadcast view draws hole faces; the venue view never does."""

    BOARD = "board"
    HOLE = "hole"
    RULING = "ruling"  # a card named by a ruling, already seen by everyone at the table


def card_size(height: int) -> tuple[int, int]:
    return max(6, round(height * CARD_ASPECT)), max(8, height)


class CardPainter:
    """Draws card faces, backs and empty places. Subclass it to watch what is drawn."""

    def face(self, surface: pygame.Surface, rect: pygame.Rect, card: str, *,
             role: FaceRole) -> None:
        """Draw the face of `card` (rank then suit, or a joker) filling `rect`."""
        if rect.width > 0 and rect.height > 0:
            # The suits' corners are rounded half to even: a face drawn at an odd place differs by a pixel
            # or two from one drawn at an even place, so each parity has its image.
            x, y = rect.left % 2, rect.top % 2
            surface.blit(face_image(card, rect.width, rect.height, x, y), rect.move(-x, -y))

    def back(self, surface: pygame.Surface, rect: pygame.Rect, *,
             colour: tuple[int, int, int] = theme.BACK_RED) -> None:
        """Draw a card face down."""
        radius = max(2, rect.height // 12)
        pygame.draw.rect(surface, colour, rect, border_radius=radius)
        inner = rect.inflate(-max(2, rect.width // 6), -max(2, rect.width // 6))
        pygame.draw.rect(surface, theme.BACK_PATTERN, inner, width=max(1, rect.height // 30),
                         border_radius=radius)
        pygame.draw.line(surface, theme.BACK_PATTERN, inner.topleft, inner.bottomright,
                         max(1, rect.height // 40))
        pygame.draw.line(surface, theme.BACK_PATTERN, inner.topright, inner.bottomleft,
                         max(1, rect.height // 40))
        pygame.draw.rect(surface, theme.CARD_EDGE, rect, width=1, border_radius=radius)

    def slot(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """An empty place where a card will land."""
        theme.rounded_rect(surface, (40, 120, 80), rect, width=max(1, rect.height // 40),
                           radius=max(2, rect.height // 12))


_OUTSIDE = theme.OUTSIDE  # outside a face's rounded corners: transparent
# Every card at each place a screen draws it (a place: a size and where it falls on even or odd pixels): the
# board's two or three, the seats' ten or so over the table sizes (the broadcast view warms them all at start-up,
# about 620 images, 15 MB, at 800x480), and the ruling banner's.
FACE_IMAGES = 1024


@functools.lru_cache(maxsize=FACE_IMAGES)
def face_image(card: str, width: int, height: int, x: int = 0, y: int = 0) -> pygame.Surface:
    """The face of `card` at `width` x `height`, drawn once at (`x`, `y`) and blitted after (a face was a
    dozen shapes and a line of text, every frame: a fifth of a broadcast frame)."""
    image = pygame.Surface((x + width, y + height))
    image.fill(_OUTSIDE)
    image.set_colorkey(_OUTSIDE)
    _draw_face(image, pygame.Rect(x, y, width, height), card)
    return image


def _draw_face(surface: pygame.Surface, rect: pygame.Rect, card: str) -> None:
    radius = max(2, rect.height // 12)
    pygame.draw.rect(surface, theme.CARD_FACE, rect, border_radius=radius)
    pygame.draw.rect(surface, theme.CARD_EDGE, rect, width=max(1, rect.height // 60),
                     border_radius=radius)
    if card.startswith("X"):
        theme.draw_text(surface, "JOKER", rect.height // 5, theme.ALARM, rect.center,
                        anchor="center", max_width=rect.width - 4, keep=False)
        return
    if len(card) != 2 or card[1] not in theme.SUIT_COLOURS:  # `?1`: a tag no deck knows, face unseen
        theme.draw_text(surface, "?", int(rect.height * 0.6), theme.ALARM, rect.center,
                        anchor="center", max_width=rect.width - 4, keep=False)
        return
    rank, suit = card[0], card[1]
    colour = theme.SUIT_COLOURS[suit]
    label = "10" if rank == "T" else rank
    theme.draw_text(surface, label, int(rect.height * 0.48), colour,
                    (rect.centerx, rect.top + int(rect.height * 0.06)), anchor="midtop",
                    max_width=rect.width - 4, keep=False)  # kept in the face's image
    size = int(rect.height * 0.40)
    centre = (rect.centerx, rect.bottom - int(rect.height * 0.06) - size // 2)
    draw_suit(surface, suit, centre, size, colour)


def draw_suit(surface: pygame.Surface, suit: str, centre: tuple[int, int], size: int,
              colour: tuple[int, int, int]) -> None:
    """A suit symbol of height `size` centred on `centre`, drawn from circles and polygons."""
    cx, cy = centre
    half = size / 2
    r = max(1, round(size * 0.26))
    if suit == "d":
        pygame.draw.polygon(surface, colour, [(cx, cy - half), (cx + half * 0.75, cy),
                                              (cx, cy + half), (cx - half * 0.75, cy)])
    elif suit == "h":
        top = cy - half * 0.38
        pygame.draw.circle(surface, colour, (round(cx - r * 0.9), round(top)), r)
        pygame.draw.circle(surface, colour, (round(cx + r * 0.9), round(top)), r)
        pygame.draw.polygon(surface, colour, [(cx - r * 1.85, top + r * 0.25),
                                              (cx + r * 1.85, top + r * 0.25), (cx, cy + half)])
    elif suit == "s":
        base = cy + half * 0.15
        pygame.draw.circle(surface, colour, (round(cx - r * 0.9), round(base)), r)
        pygame.draw.circle(surface, colour, (round(cx + r * 0.9), round(base)), r)
        pygame.draw.polygon(surface, colour, [(cx - r * 1.85, base - r * 0.25),
                                              (cx + r * 1.85, base - r * 0.25), (cx, cy - half)])
        _stem(surface, cx, base, cy + half, r=r, colour=colour)
    else:
        small = max(1, round(size * 0.22))
        pygame.draw.circle(surface, colour, (round(cx), round(cy - half + small)), small)
        for side in (-1.1, 1.1):
            pygame.draw.circle(surface, colour,
                               (round(cx + side * small), round(cy + small * 0.2)), small)
        _stem(surface, cx, cy, cy + half, r=small, colour=colour)


def _stem(surface: pygame.Surface, cx: float, top: float, bottom: float, *, r: int,
          colour: tuple[int, int, int]) -> None:
    pygame.draw.polygon(surface, colour, [(cx - r * 0.25, top), (cx + r * 0.25, top),
                                          (cx + r * 0.8, bottom), (cx - r * 0.8, bottom)])
