"""Pieces both views draw: the ruling banner, the shot clock, dealer-button and blind badges."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from display import theme
from display.cards import CardPainter, FaceRole, card_size
from display.display_config import DisplayConfig
from firmware_py.core.rulings import Ruling, RulingKind
from firmware_py.core.snapshot import ClockView, SeatView

SEVERE = frozenset({RulingKind.MISDEAL, RulingKind.MISDEAL_TOO_LATE, RulingKind.VOID_HAND,
                    RulingKind.DEAD_HAND})


def words(value: object) -> str:
    return str(value).replace("_", " ")


def ruling_title(ruling: Ruling) -> str:
    return words(ruling.ruling).upper()


# The rules at work, no one's error: a player all in for less than a blind (WFP 15, UPT 19), a chip race ruled, a
# shot clock that ran out on a hand not killed (checked, or a minimum raise), a hand folded in error given back, an
# absent player's hand that plays (entitled by a posted blind).
INFORMATION = frozenset({RulingKind.SHORT_BLIND, RulingKind.CHIP_RACE, RulingKind.CLOCK_EXPIRED,
                         RulingKind.HAND_RETRIEVED, RulingKind.PLAYER_ABSENT})


def ruling_colour(ruling: Ruling) -> tuple[int, int, int]:
    """A ruling's colour in a line or a strip: the alarm, or information for the rules at work."""
    return theme.INFO if ruling.ruling in INFORMATION else theme.ALARM


def banner_colours(ruling: Ruling) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(fill, edge) of the banner: red if the hand stops, amber for a fix, green for a result, blue for the rules
    at work (a short blind, a chip race)."""
    if ruling.ruling == RulingKind.SHOWDOWN:
        return (20, 110, 60), theme.ACCENT
    if ruling.ruling in SEVERE:
        return theme.ALARM, theme.ALARM_EDGE
    if ruling.ruling in INFORMATION:
        return theme.INFO, theme.ACCENT
    return theme.NOTICE, theme.ALARM_EDGE


def draw_banner(surface: pygame.Surface, rect: pygame.Rect, ruling: Ruling, *,
                config: DisplayConfig, painter: CardPainter, pending: int = 1) -> None:
    """The ruling the dealer must act on: what, who and which card, the remedy, the rule."""
    fill, edge = banner_colours(ruling)
    radius = rect.height // 20
    shadow = rect.move(max(2, rect.height // 60), max(2, rect.height // 60))
    pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=radius)
    pygame.draw.rect(surface, (8, 8, 10), rect, border_radius=radius)
    unit = rect.height / 100
    band = pygame.Rect(rect.left, rect.top, rect.width, round(unit * 24))
    pygame.draw.rect(surface, fill, band, border_top_left_radius=radius,
                     border_top_right_radius=radius)
    pygame.draw.rect(surface, edge, rect, width=max(3, rect.height // 40), border_radius=radius)
    pad = max(6, rect.height // 18)
    inner = rect.inflate(-2 * pad, -2 * pad)
    title = ruling_title(ruling)
    if ruling.ruling == RulingKind.SHOWDOWN and ruling.winners:
        title = "WINNER" if len(ruling.winners) == 1 else "SPLIT POT"
    theme.draw_text(surface, title, round(unit * 19), theme.ink_on(fill), band.center, anchor="center",
                    max_width=inner.width)
    y = band.bottom + round(unit * 3)
    # Who, which card, when: one line, with the card drawn face up (everyone has seen it).
    who = []
    if ruling.cause:
        who.append(words(ruling.cause))
    if ruling.seat is not None:
        who.append(f"seat {ruling.seat} ({config.name(ruling.seat)})"
                   if config.seat_names.get(ruling.seat) else f"seat {ruling.seat}")
    if ruling.winners:
        who.append(", ".join(config.name(seat) for seat in ruling.winners))
    if ruling.hand:
        who.append(ruling.hand)
    if ruling.street:
        who.append(f"on the {ruling.street}")
    line = " · ".join(who)
    size = round(unit * 10)
    card_h = round(unit * 17) if ruling.card else 0
    card_w = card_size(card_h)[0] if ruling.card else 0
    gap = round(unit * 3) if line and ruling.card else 0
    size = theme.fit_size(line, size, inner.width - card_w - gap) if line else size
    line_h = max(card_h, theme.font(size).get_linesize())
    total_w = (theme.text_size(line, size)[0] if line else 0) + gap + card_w
    x = inner.centerx - total_w // 2
    if ruling.card:
        card_rect = pygame.Rect((x, y), card_size(card_h))
        painter.face(surface, card_rect, ruling.card, role=FaceRole.RULING)
        x = card_rect.right + gap
    if line:
        theme.draw_text(surface, line, size, theme.ACCENT, (x, y + line_h // 2), anchor="midleft")
    y += line_h + round(unit * 3)
    footer = round(unit * 8)
    press = "Press CONFIRM when done" + (f"   ({pending - 1} more waiting)" if pending > 1 else "")
    press_rect = theme.draw_text(surface, press, footer, theme.TEXT_DIM,
                                 (inner.centerx, inner.bottom), anchor="midbottom",
                                 max_width=inner.width)
    rule_rect = theme.draw_text(surface, f"Rule: {ruling.rule}", footer, theme.TEXT,
                                (inner.centerx, press_rect.top - round(unit * 1)),
                                anchor="midbottom", max_width=inner.width)
    # The remedy: as large as the space between allows, in at most three lines.
    room = rule_rect.top - round(unit * 2) - y
    remedy_size = round(unit * 13)
    while remedy_size > 10:
        lines = theme.wrap(ruling.remedy, remedy_size, inner.width, 3)
        height = len(lines) * theme.font(remedy_size).get_linesize()
        if height <= room and not lines[-1].endswith("…"):
            break
        remedy_size = round(remedy_size * 0.9)
    lines = theme.wrap(ruling.remedy, remedy_size, inner.width, 3)
    y += (room - len(lines) * theme.font(remedy_size).get_linesize()) // 2
    for text in lines:
        theme.draw_text(surface, text, remedy_size, theme.TEXT, (inner.centerx, y),
                        anchor="midtop", max_width=inner.width)
        y += theme.font(remedy_size).get_linesize()


def clock_remaining(clock: ClockView, now: float) -> float:
    return clock.seconds - (now - clock.started_t)


def draw_shot_clock(surface: pygame.Surface, rect: pygame.Rect, clock: ClockView, *, now: float,
                    config: DisplayConfig) -> None:
    """The shot clock: seconds left, colour by the profile's warnings, a bar marked at each one."""
    left = clock_remaining(clock, now)
    shown = math.ceil(left) if left > 0 else 0
    colour = theme.GOOD
    if clock.warnings and left <= max(clock.warnings):
        colour = theme.WARN
    if left <= clock.countdown or left <= 0:
        colour = theme.ALARM
    pygame.draw.rect(surface, (0, 0, 0), rect, border_radius=rect.height // 5)
    pygame.draw.rect(surface, colour, rect, width=max(2, rect.height // 14),
                     border_radius=rect.height // 5)
    pad = max(4, rect.height // 8)
    inner = rect.inflate(-2 * pad, -2 * pad)
    bar_h = max(3, inner.height // 6)
    text_area = pygame.Rect(inner.left, inner.top, inner.width, inner.height - bar_h - 2)
    digits = "DEAD" if left <= 0 else (str(shown) if left <= clock.countdown else theme.mmss(shown))
    digit_rect = theme.draw_text(surface, digits, round(text_area.height * 1.25), colour,
                                 (text_area.right, text_area.centery), anchor="midright")
    label = f"CLOCK {config.name(clock.seat)}"
    if clock.called_by is not None:  # who called it (the dealer's call names no one)
        label += f" (called by {config.name(clock.called_by)})"
    if clock.raise_said:
        label += " · raise said"
    warned = [w for w in clock.warnings if left <= w]
    if left <= 0:
        label = f"{config.name(clock.seat)}: hand dead ({clock.rule})"
    elif warned:
        label += f" · {int(min(warned))} s warning"
    theme.draw_text(surface, label, round(text_area.height * 0.62), theme.TEXT,
                    (text_area.left, text_area.centery), anchor="midleft",
                    max_width=max(10, digit_rect.left - text_area.left - pad))
    bar = pygame.Rect(inner.left, inner.bottom - bar_h, inner.width, bar_h)
    pygame.draw.rect(surface, (60, 60, 60), bar)
    fraction = max(0.0, min(1.0, left / clock.seconds)) if clock.seconds > 0 else 0.0
    pygame.draw.rect(surface, colour, pygame.Rect(bar.left, bar.top, round(bar.width * fraction),
                                                  bar.height))
    for warning in clock.warnings:
        if 0 < warning < clock.seconds:
            x = bar.left + round(bar.width * warning / clock.seconds)
            pygame.draw.line(surface, theme.TEXT, (x, bar.top - 2), (x, bar.bottom + 1), 2)


def draw_badges(surface: pygame.Surface, seat: SeatView, origin: tuple[int, int],
                size: int) -> int:
    """D, SB and BB discs left to right from `origin` (their left-middle); returns the x after."""
    x, y = origin
    # The dealer button is white, but not card ivory, so it is never mistaken for a card face.
    for shown, label, fill, ink in ((seat.is_button, "D", (238, 238, 238), theme.TEXT_DARK),
                                    (seat.is_small_blind, "SB", (40, 90, 180), theme.TEXT),
                                    (seat.is_big_blind, "BB", (170, 60, 30), theme.TEXT)):
        if not shown:
            continue
        r = size // 2
        pygame.draw.circle(surface, fill, (x + r, y), r)
        pygame.draw.circle(surface, theme.CARD_EDGE, (x + r, y), r, 1)
        theme.draw_text(surface, label, round(size * 0.62), ink, (x + r, y), anchor="center",
                        max_width=size - 2)
        x += size + max(2, size // 6)
    return x


def result_line(result: Ruling, config: DisplayConfig) -> str:
    """Who won: 'Ann wins', or every pot's winner when there are side pots ('Main Ann · Side Bob')."""
    pots = [pot for pot in result.pots or () if len(pot.seats) > 1]  # a pot of one seat is chips going back

    def who(seats: Sequence[int]) -> str:
        return " & ".join(config.name(seat) for seat in seats)

    if len(pots) <= 1 or len({pot.winners for pot in pots}) == 1:
        return f"{who(result.winners or ())} wins"
    names = ["Main", *(f"Side {n}" if len(pots) > 2 else "Side" for n in range(1, len(pots)))]
    return " · ".join(f"{name} {who(pot.winners)}" for name, pot in zip(names, pots, strict=True))
