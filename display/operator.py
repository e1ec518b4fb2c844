"""The operator's screen: the live table in words, for whoever runs the stream. Never on air.

It shows what the broadcast picture must not (it is live): the hand, street, cards counted out,
the deck, a ruling waiting, the last notice, and the readers' state. Hole cards are taken out
before anything is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display import theme
from display.delay import DelayedSnapshots
from display.layout import Scale
from display.redact import hide_hole_cards
from display.widgets import words
from firmware_py.core.snapshot import TableSnapshot


@dataclass(frozen=True, kw_only=True, slots=True)
class OperatorStatus:
    """What the operator needs to see of the hardware; given by the daemon, never hole cards."""

    readers: tuple[tuple[str, str], ...] = ()  # (reader, "ok" or what is wrong)
    note: str = ""


def operator_lines(live: TableSnapshot | None, operator: OperatorStatus | None) -> list[str]:
    """The operator's status as lines of text (hole cards taken out first)."""
    lines = ["OPERATOR · live (not on air)"]
    shown = hide_hole_cards(live) if live is not None else None
    if shown is None:
        lines.append("waiting for the table")
    else:
        lines.append(f"hand {shown.hand_number} · {words(shown.street or shown.phase)}")
        dealt = sum(len(seat.cards) for seat in shown.seats)
        lines.append(f"{dealt} hole cards out · board {len(shown.board)} · burns {len(shown.burns)}")
        lines.append(f"deck {shown.in_play}")
        if shown.unconfirmed:
            lines.append(f"ruling waiting: {words(shown.unconfirmed[0].ruling)}")
        if shown.notices:
            lines.append(shown.notices[-1])
    if operator is not None:
        if operator.readers:
            lines.extend(f"{name}: {state}" for name, state in operator.readers)
        if operator.note:
            lines.append(operator.note)
    return lines


def on_air_lines(delayed: DelayedSnapshots[TableSnapshot], now: float) -> list[str]:
    """The secure delay as the operator needs it: what is on air and when it next changes (never on air: the
    countdown to the next change tells viewers when the next action comes)."""
    shown = delayed.at(now)
    first, upcoming = delayed.first_release(), delayed.next_release(now)
    if shown is None:
        return ["on air: nothing yet" + (f" · starts in {theme.mmss(first - now)}" if first is not None else "")]
    line = (f"on air: hand {shown.hand_number} · {words(shown.street or shown.phase)} · "
            f"delay {theme.mmss(delayed.delay_s)}")
    later = f"next change on air in {theme.mmss(upcoming - now)}" if upcoming is not None else "on air is up to date"
    return [line, later]


def render_operator(surface: pygame.Surface, live: TableSnapshot | None, *,
                    operator: OperatorStatus | None = None, on_air: list[str] | None = None) -> None:
    """Draw the operator's screen over the whole of `surface`."""
    width, height = surface.get_size()
    s = Scale(width, height)
    surface.fill((30, 26, 10))
    size = s.px(30)
    pad = s.px(16)
    y = pad
    for line in [*operator_lines(live, operator), *(on_air or ())]:
        rect = theme.draw_text(surface, line, size, theme.ACCENT if y == pad else theme.TEXT, (pad, y),
                               max_width=width - 2 * pad)
        y = rect.bottom + s.px(8)
        if y > height - size:
            break
