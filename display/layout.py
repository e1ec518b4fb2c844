"""Where things go on a screen of any size: seats around an oval table, the dealer at the bottom."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import pygame

from firmware_py.core.events import MAX_SEATS


@dataclass(frozen=True, slots=True)
class Scale:
    """Lengths in proportion to the screen: `u` is one pixel of an 800x480 screen."""

    width: int
    height: int

    @property
    def u(self) -> float:
        return min(self.width / 800, self.height / 480)

    def px(self, value: float) -> int:
        return max(1, round(value * self.u))


def seat_angle(seat: int, places: int) -> float:
    """Seats 1..places run clockwise from the dealer's left; the dealer sits at the bottom (0)."""
    return 2 * math.pi * seat / (places + 1)


def table_places(seats: Collection[int]) -> int:
    """How many places to spread round the table: up to the highest seat in use, at least six."""
    return max(6, *seats) if seats else MAX_SEATS


def seat_centres(table: pygame.Rect, places: int) -> dict[int, tuple[int, int]]:
    """The centre of each seat's box on the rim of the oval `table`."""
    out = {}
    for seat in range(1, places + 1):
        angle = seat_angle(seat, places)
        x = table.centerx - table.width / 2 * math.sin(angle)
        y = table.centery + table.height / 2 * math.cos(angle)
        out[seat] = (round(x), round(y))
    return out


@dataclass(frozen=True, slots=True)
class VenueLayout:
    top_bar: pygame.Rect
    table: pygame.Rect  # the felt oval
    seat_boxes: dict[int, pygame.Rect]
    board: tuple[pygame.Rect, ...]  # five card places
    street: pygame.Rect  # the label over the board
    clock: pygame.Rect  # the shot clock under the board
    banner: pygame.Rect
    strip: pygame.Rect | None = None  # under the top bar: the tournament's word to the table (hold, moves)


def venue_layout(width: int, height: int, *, places: int = MAX_SEATS, strip_rows: int = 0) -> VenueLayout:
    """`strip_rows`: lines of the tournament's strip under the top bar (the table below it shrinks)."""
    s = Scale(width, height)
    bar = pygame.Rect(0, 0, width, s.px(52))
    strip = pygame.Rect(0, bar.bottom, width, s.px(30) * strip_rows) if strip_rows else None
    top = bar.union(strip) if strip is not None else bar
    box_w = min(round(width * 0.18), s.px(200))
    box_h = min(round((height - top.height) * 0.19), s.px(100))
    margin = s.px(6)
    while True:  # shrink the boxes until no two overlap (ten seats on a small screen)
        rim, boxes = _seat_boxes(width, height, top, box_w=box_w, box_h=box_h,
                                  margin=margin, places=places)
        spaced = [box.inflate(margin, margin) for box in boxes.values()]
        if box_h < 30 or all(box.collidelist(spaced[i + 1:]) < 0
                             for i, box in enumerate(spaced)):
            break
        box_w, box_h = round(box_w * 0.96), round(box_h * 0.96)
    felt = rim.inflate(-box_w // 3, -box_h // 2)
    # The middle: street label, five board cards, the shot clock, stacked; as big as fits
    # between the seat boxes.
    label_h, clock_h, gap_v = s.px(28), s.px(54), s.px(4)
    guard = [box.inflate(s.px(8), s.px(8)) for box in boxes.values()]
    card_h = min(round(felt.height * 0.5), round(felt.width * 0.62 / 3.9))
    while card_h > 20:
        card_w = round(card_h * 0.714)
        row_w = 5 * card_w + 4 * max(2, card_w // 8)
        stack = pygame.Rect(0, 0, row_w, label_h + card_h + gap_v + clock_h)
        stack.center = felt.center
        if stack.collidelist(guard) < 0:
            break
        card_h -= 2
    card_w = round(card_h * 0.714)
    gap = max(2, card_w // 8)
    row_w = 5 * card_w + 4 * gap
    left = felt.centerx - row_w // 2
    board_top = felt.centery - (label_h + card_h + gap_v + clock_h) // 2 + label_h
    board = tuple(pygame.Rect(left + i * (card_w + gap), board_top, card_w, card_h)
                  for i in range(5))
    street = pygame.Rect(left, board_top - label_h, row_w, label_h - s.px(2))
    clock = pygame.Rect(left, board_top + card_h + gap_v, row_w, clock_h)
    banner = pygame.Rect(0, 0, round(width * 0.94), round((height - top.height) * 0.78))
    banner.center = (width // 2, top.bottom + (height - top.bottom) // 2)
    return VenueLayout(top_bar=bar, table=felt, seat_boxes=boxes, board=board, street=street,
                       clock=clock, banner=banner, strip=strip)


def _seat_boxes(width: int, height: int, top: pygame.Rect, *, box_w: int, box_h: int,
                margin: int, places: int) -> tuple[pygame.Rect, dict[int, pygame.Rect]]:
    # Seat centres lie on an oval inset by half a box so every box stays on screen.
    rim = pygame.Rect(0, 0, width - box_w - 2 * margin, height - top.height - box_h - 2 * margin)
    rim.center = (width // 2, top.bottom + (height - top.bottom) // 2)
    boxes = {}
    for seat, centre in seat_centres(rim, places).items():
        box = pygame.Rect(0, 0, box_w, box_h)
        box.center = centre
        boxes[seat] = box
    return rim, boxes


def hole_card_rects(box: pygame.Rect, count: int, *, height: int) -> list[pygame.Rect]:
    """Places for `count` cards side by side at the right of a seat box; more than two (Omaha's four or
    five) overlap in the room of two, fanned, so the seat box and its badges keep their place."""
    width = round(height * 0.714)
    gap = max(1, width // 8)
    total = min(count, 2) * width + (min(count, 2) - 1) * gap
    step = width + gap if count <= 2 else (total - width) / (count - 1)
    right = box.right - max(3, box.height // 12)
    top = box.bottom - height - max(3, box.height // 12)
    left = right - total
    return [pygame.Rect(left + round(i * step), top, width, height) for i in range(count)]
