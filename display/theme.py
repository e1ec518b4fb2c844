"""Colours, fonts and text drawing shared by the views; sizes scale with the screen."""

from __future__ import annotations

import functools

import pygame

# Card faces are the only thing drawn in this exact ivory, so a test can find them by colour.
CARD_FACE = (253, 251, 238)
CARD_EDGE = (40, 40, 40)
BACK_RED = (150, 24, 34)
BACK_BLUE = (22, 58, 140)
BACK_PATTERN = (232, 210, 160)

BACKGROUND = (14, 18, 26)
FELT = (18, 92, 58)
FELT_EDGE = (92, 58, 30)
SEAT_FILL = (30, 38, 52)
SEAT_FOLDED = (34, 36, 40)
SEAT_TO_ACT = (255, 204, 0)
TEXT = (236, 236, 236)
TEXT_DIM = (128, 132, 140)
TEXT_DARK = (16, 16, 16)
ACCENT = (255, 204, 0)
GOOD = (60, 190, 100)
WARN = (255, 160, 0)
ALARM = (220, 30, 40)
ALARM_EDGE = (255, 230, 0)
NOTICE = (230, 140, 0)
WIN_BAR = (60, 190, 100)
TIE_BAR = (90, 150, 230)

SUIT_COLOURS = {"s": (20, 20, 20), "h": (200, 20, 30), "d": (30, 80, 200), "c": (20, 130, 50)}


@functools.lru_cache(maxsize=64)
def font(size: int) -> pygame.font.Font:
    """pygame's bundled default font at `size` pixels (no system fonts needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, max(8, size))


def text_size(text: str, size: int) -> tuple[int, int]:
    return font(size).size(text)


def fit_size(text: str, size: int, max_width: int) -> int:
    """The largest size no bigger than `size` at which `text` fits in `max_width` pixels."""
    while size > 8 and font(size).size(text)[0] > max_width:
        size = max(8, int(size * 0.92))
    return size


def draw_text(surface: pygame.Surface, text: str, size: int, colour: tuple[int, int, int],
              pos: tuple[int, int], *, anchor: str = "topleft", max_width: int | None = None,
              ) -> pygame.Rect:
    """Draw one line of text; shrinks it to `max_width`; `anchor` is a pygame.Rect attribute."""
    if max_width is not None:
        size = fit_size(text, size, max_width)
    image = font(size).render(text, True, colour)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


def wrap(text: str, size: int, max_width: int, max_lines: int) -> list[str]:
    """Break text into lines that fit; the last line ends in an ellipsis if text is left over."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for index, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if font(size).size(trial)[0] <= max_width or not current:
            current = trial
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines:
            current = ""
            rest = " ".join(words[index:])
            lines[-1] = _ellipsize(f"{lines[-1]} {rest}", size, max_width)
            break
    if current:
        lines.append(current)
    return lines[:max_lines]


def _ellipsize(text: str, size: int, max_width: int) -> str:
    while len(text) > 1 and font(size).size(text + "…")[0] > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def mmss(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
