"""Colours, fonts and text drawing shared by the views; sizes scale with the screen."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

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
ALARM = (200, 20, 30)  # white text on it: 5:1 (WCAG AA)
ALARM_EDGE = (255, 230, 0)
NOTICE = (230, 140, 0)
INFO = (31, 95, 158)  # a ruling that is no one's error (a short blind, a chip race): TEXT on it 5.6:1 (WCAG AA)
WIN_BAR = (60, 190, 100)
TIE_BAR = (90, 150, 230)

SUIT_COLOURS = {"s": (20, 20, 20), "h": (200, 20, 30), "d": (30, 80, 200), "c": (20, 130, 50)}


FONT_DIR = Path(__file__).with_name("fonts")
# Noto Sans Bold (SIL OFL 1.1, display/fonts/OFL.txt): Latin, Greek and Cyrillic, with sound kerning
# (pygame's bundled freesansbold split "MISDE AL", "EXTR A" under the PyPI wheel's SDL_ttf).
PRIMARY_FONT = FONT_DIR / "NotoSans-Bold.ttf"
# Scripts the primary font lacks come from the system's fonts where installed (the appliance installer
# adds fonts-noto-core and fonts-droid-fallback): each character is drawn with the first that has it.
FALLBACK_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansThai-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansArmenian-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansGeorgian-Bold.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
)
# pygame's `size` for its default font is 0.6875 of the point size; the same factor keeps every
# layout's proportions (Noto Sans's capitals are as tall as freesansbold's at that size).
POINTS_PER_SIZE = 0.6875
READABLE_PX = 13  # text is not shrunk below this (nor below 3/4 of its size): it is cut with "…"


def _font_files() -> tuple[Path, ...]:
    return (PRIMARY_FONT, *(Path(p) for p in FALLBACK_FONTS if Path(p).is_file()))


_SIZES_OPENED: set[int] = set()  # the sizes the primary font was opened at (for `warm_glyphs`)


@functools.lru_cache(maxsize=256)
def _font_at(path: Path, size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    if path == PRIMARY_FONT:
        _SIZES_OPENED.add(size)
    return pygame.font.Font(str(path), max(6, round(max(8, size) * POINTS_PER_SIZE)))


def opened_sizes() -> list[int]:
    """The sizes the primary font has been opened at, smallest first."""
    return sorted(_SIZES_OPENED)


def warm_glyphs(chars: str, *, sizes: Iterable[int] | None = None) -> int:
    """Draw `chars` once at every size the primary font has been opened at (or at `sizes`), so each glyph is
    rasterised now, not in the first frame that shows it: SDL_ttf keeps a font's glyphs once drawn, and a glyph
    drawn for the first time cost most of a millisecond under qemu (a new size's line, some fifteen of them).
    Returns how many sizes were drawn."""
    chosen = opened_sizes() if sizes is None else list(sizes)
    for size in chosen:
        for start in range(0, len(chars), 16):  # a few glyphs a call: the GIL goes round between them
            font(size).render(chars[start:start + 16], True, TEXT)
    return len(chosen)


def font(size: int) -> pygame.font.Font:
    """The primary font (Noto Sans Bold, shipped in display/fonts) at `size` pixels."""
    return _font_at(PRIMARY_FONT, size)


@functools.lru_cache(maxsize=4096)
def _font_for(char: str) -> Path:
    """The first font that has a glyph for `char` (the primary one if none has: it draws a box)."""
    if char.isspace() or ord(char) < 0x250:
        return PRIMARY_FONT
    import pygame.freetype  # noqa: PLC0415 (only to ask which glyphs a font has)

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    for path in _font_files():
        if _coverage(path).get_metrics(char)[0] is not None:
            return path
    return PRIMARY_FONT


@functools.lru_cache(maxsize=16)
def _coverage(path: Path) -> Any:
    import pygame.freetype  # noqa: PLC0415

    return pygame.freetype.Font(str(path), 12)


def _runs(text: str) -> list[tuple[Path, str]]:
    """`text` cut into runs that one font draws whole (so kerning and shaping work within each)."""
    if text.isascii() or max(text) < "\u0250":  # Latin (a name, "·"): the primary font draws it all
        return [(PRIMARY_FONT, text)] if text else []
    if all(_font_for(char) is PRIMARY_FONT for char in text):  # "…", "±", Greek, Cyrillic: one run, no paths compared
        return [(PRIMARY_FONT, text)]
    runs: list[tuple[Path, str]] = []
    for char in text:
        path = _font_for(char)
        if runs and (runs[-1][0] == path or (char.isspace() and runs[-1][0] != PRIMARY_FONT)):
            runs[-1] = (runs[-1][0], runs[-1][1] + char)
        else:
            runs.append((path, char))
    return runs


@functools.lru_cache(maxsize=8192)
def text_size(text: str, size: int) -> tuple[int, int]:
    runs = _runs(text)
    if not runs:
        return font(size).size(text)
    if len(runs) == 1:
        return _font_at(runs[0][0], size).size(text)
    return sum(_font_at(p, size).size(t)[0] for p, t in runs), max(_font_at(p, size).get_height() for p, _ in runs)


def line_height(size: int) -> int:
    return font(size).get_linesize()


def line_box_height(text: str, size: int) -> int:
    """`text_size(text, size)[1]` without measuring the text: a line of one font (ASCII) is the font's
    height whatever it says (SDL_ttf), so a number seen for the first time costs no shaping."""
    return font(size).get_height() if text.isascii() else text_size(text, size)[1]


@functools.lru_cache(maxsize=1024)
def ink_top(text: str, size: int) -> int:
    """How far below the top of `text`'s rendered line its ink starts (the font's blank band above)."""
    face = font(size)
    tops = [top for top in (_glyph_top(char, size) for char in text) if top is not None]
    return max(0, face.get_ascent() - max(tops, default=face.get_ascent()))


@functools.lru_cache(maxsize=4096)
def _glyph_top(char: str, size: int) -> int | None:
    """The top of `char`'s ink above the baseline (None: no glyph), asked once per character and size: a
    new percentage is made of digits already measured."""
    metrics = font(size).metrics(char)
    return metrics[0][3] if metrics and metrics[0] is not None else None


def readable_floor(size: int) -> int:
    """The smallest size `size` text may shrink to before it is cut short instead."""
    return min(size, max(READABLE_PX, round(size * 0.75)))


def fit_size(text: str, size: int, max_width: int) -> int:
    """The largest size no bigger than `size` at which `text` fits, but not below `readable_floor`."""
    floor = readable_floor(size)
    while size > floor and text_size(text, size)[0] > max_width:
        size = max(floor, int(size * 0.92))
    return size


def render_text(text: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """`text` as one image: each run in the font that has its characters, on a common baseline.

    The image is kept (the last TEXT_IMAGES drawn): a frame draws mostly the lines the frame before drew,
    and rasterising them again was most of a broadcast frame under qemu. Callers blit it, never draw on it.
    """
    return _rendered(text, size, tuple(colour))


# A broadcast frame draws about sixty lines, most of them the frame before's; an image is 4 bytes a pixel,
# so a few MB at 800x480 and at most about 20 MB on a 1920x1080 screen.
TEXT_IMAGES = 384


@functools.lru_cache(maxsize=TEXT_IMAGES)
def _rendered(text: str, size: int, colour: tuple[int, ...]) -> pygame.Surface:
    runs = _runs(text)
    if not runs:
        return font(size).render(text, True, colour)
    if len(runs) == 1:
        return _font_at(runs[0][0], size).render(text, True, colour)
    images = [(_font_at(p, size), _font_at(p, size).render(t, True, colour)) for p, t in runs]
    ascent = max(f.get_ascent() for f, _ in images)
    height = max(ascent - f.get_ascent() + image.get_height() for f, image in images)
    out = pygame.Surface((sum(image.get_width() for _, image in images), height), pygame.SRCALPHA)
    x = 0
    for f, image in images:
        out.blit(image, (x, ascent - f.get_ascent()))
        x += image.get_width()
    return out


def draw_text(surface: pygame.Surface, text: str, size: int, colour: tuple[int, int, int],
              pos: tuple[int, int], *, anchor: str = "topleft", max_width: int | None = None,
              keep: bool = True) -> pygame.Rect:
    """Draw one line of text; `anchor` is a pygame.Rect attribute. Too wide for `max_width`, it
    shrinks down to a readable size, then is cut short with an ellipsis. `keep=False`: the line's image is
    not kept among the TEXT_IMAGES (a card face's rank: the face's image is kept whole)."""
    # A line is as wide as its image (SDL_ttf measures and draws with one layout): a line that fits is
    # measured by the image drawn for it, not shaped a second time (a new line's shaping took half a
    # millisecond under qemu, its drawing as much again).
    unkept = None if keep else _rendered.__wrapped__(text, size, tuple(colour))
    measured = _rendered(text, size, tuple(colour)) if unkept is None else unkept
    if max_width is not None and measured.get_width() > max_width:
        size = fit_size(text, size, max_width)
        if text_size(text, size)[0] > max_width:
            text = _ellipsize(text, size, max_width)
        unkept = None if keep else _rendered.__wrapped__(text, size, tuple(colour))
    image = render_text(text, size, colour) if unkept is None else unkept
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
        if text_size(trial, size)[0] <= max_width or not current:
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


@functools.lru_cache(maxsize=1024)
def _ellipsize(text: str, size: int, max_width: int) -> str:
    """The longest start of `text` that fits with "…" after it (one character at the least)."""
    def fits(length: int) -> bool:
        return text_size(text[:length] + "…", size)[0] <= max_width

    # A start's width grows with its length: from a guess by the whole line's width, a step or two finds the
    # longest that fits (each measure shapes a new line, a millisecond under qemu; one character off the end
    # at a time took a dozen of them).
    whole = text_size(text, size)[0]
    length = max(1, min(len(text), len(text) * (max_width - text_size("…", size)[0]) // max(1, whole)))
    if fits(length):
        while length < len(text) and fits(length + 1):
            length += 1
    else:
        while length > 1 and not fits(length - 1):
            length -= 1
        length = max(1, length - 1)
    return text[:length].rstrip() + "…"


# Outside a kept shape: a colour nothing on screen is drawn in, made transparent (a colour key, not per-pixel
# alpha, so the shape's pixels are copied as drawn and the picture is the one drawn straight on the screen).
OUTSIDE = (255, 0, 255)
SHAPE_IMAGES = 128  # a panel's fill and edge and a card's place, at the few sizes a screen draws them


def rounded_rect(surface: pygame.Surface, colour: tuple[int, int, int], rect: pygame.Rect, *, width: int = 0,
                 radius: int) -> None:
    """`pygame.draw.rect(surface, colour, rect, width, border_radius=radius)`, from a kept image: a rounded
    rectangle is drawn once per size and copied after (pygame 2.1's rounded fill, Debian's on the Pi, took
    2 ms of a frame under qemu per panel; a copy takes a tenth of that). Rounded corners are drawn in whole
    pixels, so the copy is the rectangle drawn in place, wherever it is."""
    if rect.width <= 0 or rect.height <= 0:
        return
    surface.blit(_shape(rect.width, rect.height, tuple(colour), width, radius), rect)


@functools.lru_cache(maxsize=SHAPE_IMAGES)
def _shape(w: int, h: int, colour: tuple[int, ...], width: int, radius: int) -> pygame.Surface:
    image = pygame.Surface((w, h))
    image.fill(OUTSIDE)
    image.set_colorkey(OUTSIDE)
    pygame.draw.rect(image, colour, image.get_rect(), width, border_radius=radius)
    return image


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""
    def luminance(colour: tuple[int, int, int]) -> float:
        channels = [c / 255 for c in colour]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Light or dark text, whichever reads better on `fill`."""
    return TEXT if contrast(TEXT, fill) >= contrast(TEXT_DARK, fill) else TEXT_DARK


def mmss(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
