"""The broadcast view for a stream: hole cards face up with chances, shown only after the delay."""

from __future__ import annotations

import functools
import math
import string
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, replace

import pygame

from display import theme
from display.cards import CardPainter, FaceRole, card_size, face_image
from display.delay import DelayedSnapshots
from display.display_config import DisplayConfig
from display.layout import Scale
from display.widgets import draw_badges, result_line, ruling_colour, words
from firmware_py.core.game import HOLDEM, game_named
from firmware_py.core.pots import Pot
from firmware_py.core.rulings import Ruling, RulingKind, Street
from firmware_py.core.snapshot import IN_HAND, LIVE, ChipsView, Phase, PlayerState, SeatView, TableSnapshot
from firmware_py.odds.chances import ChancesCache, ChancesNow, SeatChance, TableChances, best_hands
from firmware_py.odds.equity import Equity


@dataclass(frozen=True, kw_only=True, slots=True)
class BroadcastFrame:
    """Everything one broadcast picture is drawn from: the delayed snapshot and the delay's timing.

    No live snapshot and no operator status: nothing newer than the delay can be drawn on air
    (the operator's live status is `display.operator`, on the operator's own screen).
    """

    now: float
    shown: TableSnapshot | None  # the delayed snapshot on air
    delay_s: float
    next_release: float | None
    first_release: float | None
    chances: TableChances | None
    computing: bool = False  # newer chances are on their way: `chances` are the last ones, or None


def broadcast_frame(delayed: DelayedSnapshots[TableSnapshot], *, now: float,
                    chances: ChancesCache) -> BroadcastFrame:
    """The frame on air at `now`: the newest snapshot that is at least the delay old."""
    shown = delayed.at(now)
    odds = chances.lookup(shown) if shown is not None else ChancesNow(chances=None)
    return BroadcastFrame(now=now, shown=shown, delay_s=delayed.delay_s,
                          next_release=delayed.next_release(now),
                          first_release=delayed.first_release(),
                          chances=odds.chances, computing=odds.computing)


def render_broadcast(surface: pygame.Surface, frame: BroadcastFrame, *, config: DisplayConfig,
                     painter: CardPainter, panels: PanelImages | None = None) -> None:
    """Draw the broadcast picture of `frame` over the whole of `surface` (`panels`: the screen's copies
    of the seat panels it drew before, to copy those that have not changed instead of drawing them)."""
    width, height = surface.get_size()
    s = Scale(width, height)
    surface.fill(theme.BACKGROUND)
    header = pygame.Rect(0, 0, width, s.px(44))
    body = pygame.Rect(0, header.bottom, width, height - header.bottom)
    _draw_header(surface, header, frame)
    shown = frame.shown
    if shown is None:  # no countdown on air: when the picture starts or changes is the operator's to know
        text = "The broadcast starts soon" if frame.first_release is not None else "Waiting for the table…"
        theme.draw_text(surface, text, s.px(40), theme.TEXT, body.center, anchor="center",
                        max_width=body.width - s.px(20))
        return
    if shown.names:  # names typed on the tracker (journaled `name` events), as the delayed snapshot has them
        config = replace(config, seat_names={**config.seat_names, **dict(shown.names)})
    if shown.phase == Phase.IDLE:  # between hands the cards are gone: so are the board, the pot and the result
        shown = replace(shown, board=(), showdown=None, chips=None)
    board_area = pygame.Rect(0, body.top, width, round(body.height * 0.36))
    grid = pygame.Rect(s.px(6), board_area.bottom, width - s.px(12),
                       body.bottom - board_area.bottom - s.px(4))
    _draw_board(surface, board_area, shown, frame, config=config, painter=painter)
    seats = [seat for seat in shown.seats
             if seat.state in IN_HAND or (shown.phase == Phase.IDLE
                                          and seat.state != PlayerState.EMPTY)]
    hands = best_hands(shown)
    winners = set(shown.showdown.winners or ()) if shown.showdown is not None else set()
    split = game_named(shown.game).split  # a high-low split game: the panel shows the hand's share of the pot
    for seat, rect in zip(seats, grid_rects(grid, len(seats), gap=s.px(5)), strict=True):
        chance = frame.chances.seats.get(seat.seat) if frame.chances else None
        win = (chance.share if split and chance.share is not None else chance.win) if chance else None
        _draw_panel(surface, rect, seat, config=config, painter=painter, hand=hands.get(seat.seat),
                    win=win, tie=None if split or not chance else chance.tie,
                    exact=frame.chances.exact if frame.chances else True,
                    winner=seat.seat in winners, slots=game_named(shown.game).hole_cards, images=panels)


def grid_rects(area: pygame.Rect, count: int, *, gap: int) -> list[pygame.Rect]:
    """`count` panels in the grid (1 to 3 columns) that gives their cards the most height."""
    if count == 0:
        return []
    best: tuple[float, int] = (-1.0, 1)
    for cols in (1, 2, 3):
        rows = math.ceil(count / cols)
        w = (area.width - (cols - 1) * gap) / cols
        h = (area.height - (rows - 1) * gap) / rows
        card_h = min(h * 0.86, w * 0.34 / (2 * 0.714))
        if card_h > best[0] + 0.5:
            best = (card_h, cols)
    cols = best[1]
    rows = math.ceil(count / cols)
    w = (area.width - (cols - 1) * gap) // cols
    h = min((area.height - (rows - 1) * gap) // rows, round(w * 0.45))
    return [pygame.Rect(area.left + (i % cols) * (w + gap), area.top + (i // cols) * (h + gap),
                        w, h) for i in range(count)]


def panel_card_rects(panel: pygame.Rect, count: int = 2) -> list[pygame.Rect]:
    """Where a panel's hole cards go: left, side by side, most of its height (Omaha's four or five cards
    share about half the panel's width, smaller, so the name, the action and the chances keep theirs)."""
    return [pygame.Rect(place) for place in _card_places(tuple(panel), count)]


@functools.lru_cache(maxsize=64)
def _card_places(panel_box: tuple[int, ...], count: int) -> tuple[tuple[int, int, int, int], ...]:
    """`panel_card_rects`, kept: a redrawn panel asks for its places twice (its base and its detail), at the
    same few panel boxes frame after frame."""
    panel = pygame.Rect(panel_box)
    pad = max(3, panel.height // 14)
    share = 0.34 if count <= 2 else 0.46 / 1.1  # of the panel's width, for the cards (more cards: their gaps too)
    card_h = min(panel.height - 2 * pad, round(panel.width * share / (max(2, count) * 0.714)))
    card_w, _ = card_size(card_h)
    gap = max(2, card_w // 10)
    top = panel.top + (panel.height - card_h) // 2
    return tuple((panel.left + pad + i * (card_w + gap), top, card_w, card_h) for i in range(count))


def _draw_header(surface: pygame.Surface, rect: pygame.Rect, frame: BroadcastFrame) -> None:
    pygame.draw.rect(surface, (6, 8, 12), rect)
    size = round(rect.height * 0.55)
    pad = round(rect.height * 0.3)
    dot = rect.height // 5
    pygame.draw.circle(surface, theme.ALARM, (pad + dot, rect.centery), dot)
    left = f"DELAYED {theme.mmss(frame.delay_s)}" if frame.delay_s else "NO DELAY (private game)"
    drawn = theme.draw_text(surface, left, size, theme.TEXT, (pad * 2 + 2 * dot, rect.centery),
                            anchor="midleft")
    # No countdown here: "next update in 0:02" told viewers when the next action comes (the operator's
    # screen has it, display.operator.on_air_lines).
    right_rect = pygame.Rect(rect.right - pad, rect.top, 0, rect.height)
    shown = frame.shown
    if shown is not None:
        title = f"Hand {shown.hand_number}" if shown.hand_number else ""
        if shown.chips is not None:  # the level of the hand shown (delayed with it): "100/200 BB ante 200"
            title = f"{title}   Blinds {shown.chips.level}".strip()
        game = game_named(shown.game)
        house = shown.profile_title or shown.profile
        title = f"{title}   {house if game is HOLDEM else f'{game.title} · {house}'}".strip()
        room = right_rect.left - drawn.right - 2 * pad
        if room > 40:
            theme.draw_text(surface, title, round(size * 0.8), theme.TEXT_DIM,
                            ((drawn.right + right_rect.left) // 2, rect.centery), anchor="center",
                            max_width=room)


def _draw_board(surface: pygame.Surface, area: pygame.Rect, shown: TableSnapshot,
                frame: BroadcastFrame, *, config: DisplayConfig, painter: CardPainter) -> None:
    pad = max(4, area.height // 14)
    card_h = area.height - 2 * pad
    card_w, _ = card_size(card_h)
    gap = max(2, card_w // 10)
    left = area.centerx - (5 * card_w + 4 * gap) // 2
    for index in range(5):
        place = pygame.Rect(left + index * (card_w + gap), area.top + pad, card_w, card_h)
        if index < len(shown.board):
            painter.face(surface, place, shown.board[index], role=FaceRole.BOARD)
        else:
            painter.slot(surface, place)
    side = left - 2 * pad
    street = "SHOWDOWN" if shown.phase == Phase.SHOWDOWN else \
        words(shown.street or shown.phase).upper()
    theme.draw_text(surface, street, round(area.height * 0.2), theme.TEXT,
                    (pad * 2, area.top + pad), max_width=side - pad)
    bottom = area.bottom - pad  # the left column fills from the bottom: the pot, then the chances
    if shown.chips is not None:  # the delayed snapshot's pot: amounts are on air no sooner than cards
        pots = shown.chips.contested()  # chips nobody called go back: no side pot
        lines = [f"POT {shown.chips.pot - shown.chips.uncalled:,}"]
        if len(pots) > 1:  # the side pots on a line of their own: the column is narrow
            lines.append("side " + " + ".join(f"{pot.amount:,}" for pot in pots[1:]))
        size = round(area.height * (0.16 if len(lines) == 1 else 0.12))
        for line in reversed(lines):
            bottom = theme.draw_text(surface, line, size, theme.ACCENT, (pad * 2, bottom), anchor="bottomleft",
                                     max_width=side - pad).top
    chances = frame.chances
    if frame.computing or (chances is not None and chances.equity is not None):
        equity = chances.equity if chances is not None else None
        if frame.computing:
            note = "computing…"
        elif equity is None:
            note = ""
        elif equity.exact:
            note = "board complete" if equity.runouts == 1 else f"exact, {equity.runouts:,} boards"
        else:
            note = f"{equity.runouts:,} deals ±{equity.error * 196:.1f} pt"
        size = round(area.height * 0.13)
        step = round(area.height * 0.14)
        top = min(area.centery, bottom - pad // 2 - step - theme.line_height(size))
        theme.draw_text(surface, "win chances", size, theme.TEXT_DIM, (pad * 2, top), max_width=side - pad)
        theme.draw_text(surface, note, size, theme.ACCENT if frame.computing else theme.TEXT_DIM,
                        (pad * 2, top + step), max_width=side - pad)
    result = shown.showdown
    right_x = left + 5 * card_w + 4 * gap + 2 * pad
    if result is not None:
        theme.draw_text(surface, result_line(result, config), round(area.height * 0.2), theme.ACCENT,
                        (right_x, area.top + pad), max_width=area.right - right_x - pad)
        if result.hand:
            for i, line in enumerate(theme.wrap(result.hand, round(area.height * 0.14),
                                                area.right - right_x - pad, 2)):
                theme.draw_text(surface, line, round(area.height * 0.14), theme.TEXT,
                                (right_x, area.top + pad + round(area.height * (0.24 + i * 0.15))))
    if shown.unconfirmed:
        ruling = shown.unconfirmed[0]
        theme.draw_text(surface, words(ruling.ruling).upper(), round(area.height * 0.16),
                        ruling_colour(ruling), (right_x, area.bottom - pad), anchor="bottomleft",
                        max_width=area.right - right_x - pad)


class PanelImages:
    """The seat panels a screen drew last, kept by everything each was drawn from, so a frame draws
    again only the panels whose seat changed and copies the others (a dealt card changes one panel of
    ten; a new street changes every panel's hand and chances, but not its cards, name and badges, kept
    apart as the panel's base).

    One per screen, holding only what that screen drew: a broadcast screen's panels are drawn from the
    delayed snapshots alone, and an image is shown again only for the same seat, cards, hand, chances
    and place. A picture drawn once (the `snapshot` command, tests) draws every panel.
    """

    def __init__(self, *, size: int = 48) -> None:
        self.size = size  # ten panels, their bases, and a street back: a full table redrawn from copies
        self._images: dict[Hashable, tuple[pygame.Surface, tuple[int, int], pygame.Rect]] = {}

    def show(self, surface: pygame.Surface, key: Hashable) -> pygame.Rect | None:
        """Blit the image kept for `key`, if any, where it was copied from; the rect kept with it (None:
        there is no image, draw it)."""
        kept = self._images.get(key)
        if kept is None:
            return None
        image, place, detail = kept
        surface.blit(image, place)
        return detail

    def keep(self, surface: pygame.Surface, rect: pygame.Rect, key: Hashable,
             detail: pygame.Rect | None = None) -> None:
        """Copy what is drawn in `rect` as the image of `key` (`detail`: a rect to give back with it)."""
        area = rect.clip(surface.get_rect())
        if area.width <= 0 or area.height <= 0:
            return
        if len(self._images) >= self.size:
            self._images.pop(next(iter(self._images)))  # the oldest
        self._images[key] = (surface.subsurface(area).copy(), area.topleft, pygame.Rect(detail or rect))


def _draw_panel(surface: pygame.Surface, rect: pygame.Rect, seat: SeatView, *,
                config: DisplayConfig, painter: CardPainter, hand: str | None,
                win: float | None, tie: float | None, exact: bool, winner: bool, slots: int = 2,
                images: PanelImages | None = None) -> None:
    name = config.name(seat.seat)
    whole = ("panel", tuple(rect), seat, name, hand, win, tie, exact, winner, slots)
    if images is not None and images.show(surface, whole) is not None:
        return
    # The base: everything but the action line, the hand's name and the chances.
    base = ("base", tuple(rect), seat.state, seat.cards, seat.to_act, seat.is_button, seat.is_small_blind,
            seat.is_big_blind, seat.stack, name, winner, slots)
    name_rect = images.show(surface, base) if images is not None else None
    if name_rect is None:
        name_rect = _draw_panel_base(surface, rect, seat, name=name, painter=painter, winner=winner,
                                     slots=slots)
        if images is not None:
            images.keep(surface, rect, base, detail=name_rect)
    _draw_panel_detail(surface, rect, seat, name_rect=name_rect, hand=hand, win=win, tie=tie, exact=exact,
                       slots=slots)
    if images is not None:
        images.keep(surface, rect, whole)


def _draw_panel_base(surface: pygame.Surface, rect: pygame.Rect, seat: SeatView, *, name: str,
                     painter: CardPainter, winner: bool, slots: int) -> pygame.Rect:
    """The panel, its cards, the name, the badges and the stack; returns where the name went."""
    out = seat.state in (PlayerState.FOLDED, PlayerState.DEAD)
    radius = max(3, rect.height // 10)
    theme.rounded_rect(surface, theme.SEAT_FOLDED if out else theme.SEAT_FILL, rect, radius=radius)
    edge = theme.ACCENT if winner else ((255, 255, 255) if seat.to_act else (70, 80, 96))
    theme.rounded_rect(surface, edge, rect, width=max(2, rect.height // 25) if winner or seat.to_act else 1,
                       radius=radius)
    places = panel_card_rects(rect, max(slots, len(seat.cards)))  # the game's hole cards, drawn or still to come
    for index, place in enumerate(places):
        if index < len(seat.cards):
            painter.face(surface, place, seat.cards[index], role=FaceRole.HOLE)
        else:
            painter.slot(surface, place)
    if out and seat.cards:  # folded hands greyed: the faces stay readable but clearly out
        veil = pygame.Surface((places[-1].right - places[0].left, places[0].height),
                              pygame.SRCALPHA)
        veil.fill((20, 22, 26, 170))
        surface.blit(veil, places[0].topleft)
    pad = max(3, rect.height // 12)
    x = places[-1].right + 2 * pad
    text_w = rect.right - pad - x
    ink = theme.TEXT_DIM if out else theme.TEXT
    name_size = round(rect.height * 0.3)
    stack = f"{seat.stack:,}" if seat.stack is not None else ""
    stack_w = theme.render_text(stack, round(name_size * 0.85), theme.TEXT).get_width() if stack else 0
    badges = sum((seat.is_button, seat.is_small_blind, seat.is_big_blind)) * name_size  # discs a little apart
    room = text_w - stack_w - badges - 2 * pad  # the name gives way to the badges and the stack (Omaha's cards)
    name_rect = theme.draw_text(surface, name, name_size, ink,
                                (x, rect.top + pad), max_width=max(name_size, min(round(text_w * 0.62), room)))
    draw_badges(surface, seat, (name_rect.right + pad, name_rect.centery), round(name_size * 0.8))
    if stack:
        theme.draw_text(surface, stack, round(name_size * 0.85), theme.TEXT,
                        (rect.right - pad, rect.top + pad), anchor="topright")
    return name_rect


def _draw_panel_detail(surface: pygame.Surface, rect: pygame.Rect, seat: SeatView, *, name_rect: pygame.Rect,
                       hand: str | None, win: float | None, tie: float | None, exact: bool, slots: int) -> None:
    """The action line with the hand's name, and the chances with their bar."""
    out = seat.state in (PlayerState.FOLDED, PlayerState.DEAD)
    places = panel_card_rects(rect, max(slots, len(seat.cards)))
    pad = max(3, rect.height // 12)
    x = places[-1].right + 2 * pad
    text_w = rect.right - pad - x
    status = {PlayerState.FOLDED: "folded", PlayerState.DEAD: "dead hand",
              PlayerState.ALLIN: "all in"}.get(seat.state, "")
    if seat.last_action and seat.state in LIVE:
        status = seat.last_action
    detail = " · ".join(part for part in (status, hand or "") if part)
    detail_rect = theme.draw_text(surface, detail, round(rect.height * 0.2),
                                  theme.TEXT_DIM if out else theme.ACCENT, (x, name_rect.bottom + pad // 2),
                                  max_width=text_w)
    if win is None or out:
        return
    big = f"{win * 100:.1f}%" if exact else f"{win * 100:.0f}%"
    bar_h = max(4, rect.height // 9)
    bar = pygame.Rect(x, rect.bottom - pad - bar_h, text_w, bar_h)
    # The chances sit between the action line and the bar: as large as fits without touching the line.
    size = round(rect.height * 0.34)
    while size > 8 and bar.top - pad // 2 - theme.line_box_height(big, size) + theme.ink_top(big, size) \
            < detail_rect.bottom:
        size -= 1
    pct_rect = theme.draw_text(surface, big, size, theme.TEXT,
                               (rect.right - pad, bar.top - pad // 2), anchor="bottomright")
    if tie and tie >= 0.0005:
        theme.draw_text(surface, f"tie {tie * 100:.1f}%", round(rect.height * 0.18),
                        theme.TIE_BAR, (pct_rect.left - pad, pct_rect.bottom),
                        anchor="bottomright")
    pygame.draw.rect(surface, (50, 54, 60), bar)
    win_w = round(bar.width * win)
    pygame.draw.rect(surface, theme.WIN_BAR, pygame.Rect(bar.left, bar.top, win_w, bar.height))
    tie_w = round(bar.width * (tie or 0))
    pygame.draw.rect(surface, theme.TIE_BAR,
                     pygame.Rect(bar.left + win_w, bar.top, tie_w, bar.height))


# Every character the broadcast picture draws in its own font: names, numbers, hands, actions, the header.
WARM_CHARS = string.ascii_letters + string.digits + string.punctuation + " …·±"
_DECK = tuple(rank + suit for rank in "23456789TJQKA" for suit in "shdc")


def warm_up(size: tuple[int, int], *, config: DisplayConfig, seat_counts: Iterable[int] = range(10, 1, -1)) -> None:
    """Draw, off screen, a rehearsal of the pictures the broadcast view shows at `size`, before it goes on air.

    Why: the first sight of anything is the slow part of a frame. Under qemu (the Pi 4 estimate) a text size
    seen for the first time cost some 14 ms for a short line (SDL_ttf rasterises each glyph once per size),
    a card face 1-2 ms, a rounded panel 2 ms; the first hand on air was all first sights (frames of 120-230 ms
    of the frame's own CPU), and each later hand brought a few more (new sizes as text shrank to fit, and
    the hole cards: every card dealt to a seat was a new face at that seat's place). So at start-up the view
    rehearses a hand at every table size from ten seats to heads-up (each has its own panel size and so its
    own text and card sizes): dealing, betting with a fold and chances, a full board with side pots, a
    showdown. Every text size that rehearsal opens then draws every character once, the board's places draw
    every card face, and so do the seats' places (up to `HOLE_FACES_BYTES` of them, the fullest tables first).
    Nothing of the rehearsal is kept but fonts, glyphs, faces and shapes, which hold no table's state: no seat
    panel is copied from it (its panels go to no PanelImages), and what goes on air is still drawn from the
    delayed snapshots alone.

    `warm_up_steps` is the same rehearsal in small steps: a screen resized after start-up takes them between
    frames, so no frame waits for the whole of it.
    """
    for step in warm_up_steps(size, config=config, seat_counts=seat_counts):
        step()


# The hole faces the warm-up draws (every card at every seat's place, fullest tables first) stop at this many
# bytes of images: all of them at 800x480 (about 9 MB), the places of the fuller tables on a 1920x1080
# screen (all of them there would be some 73 MB); a place not warmed draws each card the first time it is dealt.
HOLE_FACES_BYTES = 48 * 2**20


def warm_up_steps(size: tuple[int, int], *, config: DisplayConfig,
                  seat_counts: Iterable[int] = range(10, 1, -1)) -> Iterator[Callable[[], object]]:
    """`warm_up` as steps of a few milliseconds each (a rehearsal frame, a text size's glyphs, a few faces):
    call each in turn. The places the rehearsal finds are known only as its steps run, so this is a generator."""
    surface = pygame.Surface(size)
    painter = _Rehearsal()
    for count in seat_counts:
        for frame in _rehearsal(count, config):
            yield functools.partial(render_broadcast, surface, frame, config=config, painter=painter)
    for size_px in theme.opened_sizes():
        yield functools.partial(theme.warm_glyphs, WARM_CHARS, sizes=(size_px,))
    budget = HOLE_FACES_BYTES
    places = list(painter.board_places)  # any card can land on any board place
    for place in painter.hole_places:  # in the order seen: the fullest tables first
        width, height, x, y = place
        budget -= (x + width) * (y + height) * 4 * len(_DECK)
        if budget < 0:
            break
        places.append(place)
    for place in places:
        for start in range(0, len(_DECK), FACES_A_STEP):
            yield functools.partial(_warm_faces, _DECK[start:start + FACES_A_STEP], place)


FACES_A_STEP = 8  # some 10 ms under qemu


def _warm_faces(deck: Iterable[str], place: tuple[int, int, int, int]) -> None:
    width, height, x, y = place
    for card in deck:
        face_image(card, width, height, x, y)


class _Rehearsal(CardPainter):
    """Draws as the screen does, noting where cards go (their size and place parity): the board's places, and
    the seats' in the order first seen."""

    def __init__(self) -> None:
        self.board_places: set[tuple[int, int, int, int]] = set()
        self.hole_places: dict[tuple[int, int, int, int], None] = {}  # a set that keeps its order

    def face(self, surface: pygame.Surface, rect: pygame.Rect, card: str, *, role: FaceRole) -> None:
        place = (rect.width, rect.height, rect.left % 2, rect.top % 2)
        if role == FaceRole.BOARD:
            self.board_places.add(place)
        elif role == FaceRole.HOLE:
            self.hole_places.setdefault(place, None)
        super().face(surface, rect, card, role=role)


def _rehearsal(count: int, config: DisplayConfig) -> Iterator[BroadcastFrame]:
    """A hand at `count` seats as the view shows it, step by step: the frames `warm_up` draws."""
    numbers = tuple(range(1, count + 1))
    holes = {seat: (_DECK[2 * seat], _DECK[2 * seat + 27]) for seat in numbers}
    board = ("Ah", "Kd", "7c", "7s", "2h")

    def seats(*, cards: bool, folded: int | None = None, winner: int | None = None) -> tuple[SeatView, ...]:
        return tuple(SeatView(seat=seat, state=PlayerState.FOLDED if seat == folded else PlayerState.ACTIVE,
                              cards=holes[seat] if cards else (), is_button=seat == count,
                              is_small_blind=seat == 1, is_big_blind=seat == min(2, count),
                              to_act=seat == (winner or 1), stack=12_345 * seat,
                              last_action="raise to 1,200" if seat == 1 else "call 600")
                     for seat in numbers)

    pots = (Pot(amount=24_600, seats=numbers), Pot(amount=3_000, seats=numbers[:2]))
    chips = ChipsView(pot=27_600, pots=pots, level="100/200 BB ante 200")
    base = TableSnapshot(t=0.0, profile="robert", profile_title="Robert's Rules", hand_number=123,
                         phase=Phase.DEALING, street=None, seats=seats(cards=False), button=count,
                         small_blind=1, big_blind=min(2, count), to_act=None, board=(), burns=(), in_play="red",
                         chips=chips)
    live = [seat for seat in numbers if seat != 2 or count == 2]
    share = 1 / len(live)
    chances = TableChances(seats={seat: SeatChance(win=share * (0.9 if seat % 2 else 1.1), tie=0.0123)
                                  for seat in live},
                           equity=Equity(win=(share,) * len(live), tie=(0.0123,) * len(live), exact=False,
                                         runouts=20_000, error=0.003))
    exact = replace(chances, equity=replace(chances.equity, exact=True, runouts=990, error=0.0)) \
        if chances.equity is not None else chances
    folded = 2 if count > 2 else None
    showdown = Ruling(t=0.0, ruling=RulingKind.SHOWDOWN, rule="robert: The Showdown 2",
                      remedy="Cards speak.", winners=(1,), hand="full house, sevens full of aces", pots=pots)
    steps = (
        (base, None, False),
        (replace(base, phase=Phase.BETTING, street=Street.PREFLOP, seats=seats(cards=True, folded=folded),
                 to_act=1), chances, True),
        (replace(base, phase=Phase.BETTING, street=Street.PREFLOP, seats=seats(cards=True, folded=folded),
                 to_act=1), chances, False),
        (replace(base, phase=Phase.BETTING, street=Street.RIVER, seats=seats(cards=True, folded=folded),
                 board=board, to_act=1), exact, False),
        (replace(base, phase=Phase.SHOWDOWN, street=Street.RIVER, board=board, showdown=showdown,
                 seats=seats(cards=True, folded=folded, winner=1)), exact, False),
        (replace(base, phase=Phase.IDLE, seats=seats(cards=False)), None, False),
    )
    for shown, odds, computing in steps:
        yield BroadcastFrame(now=0.0, shown=shown, delay_s=config.broadcast_delay_s, next_release=None,
                             first_release=0.0, chances=odds, computing=computing)
