"""The floor view: every table of the room on one screen, and the rulings the floor must see to.

A grid of tiles (one per table: status, hand, hands per hour, misdeals and irregularities,
dealer, the open ruling, a jackpot hand) and a side column with the jackpot hands, every open ruling and its
remedy (until the dealer confirms it at the table) and the counts per dealer (the sums of their tiles). In a
tournament the side column starts with the director's panel and the room's chip counts (room/leaderboard.py).
Sized for a 1080p screen at 50 tables; a tile's figures shrink to its width, never cut short (two tall tiles at 720p).
"""

from __future__ import annotations

import math
import time
from typing import Any

import pygame

from display import theme
from display.layout import Scale
from display.widgets import INFORMATION
from firmware_py.room.floor import DealerCounts, FloorModel, TableView
from firmware_py.room.leaderboard import leaderboard

STATUS_COLOURS = {
    "offline": (70, 70, 78), "fault": theme.ALARM, "misdealt": (170, 30, 120), "dealing": (40, 110, 200),
    "preflop": (20, 130, 90), "flop": (20, 130, 90), "turn": (20, 130, 90), "river": (20, 130, 90),
    "board": (60, 120, 110), "showdown": (150, 110, 20), "idle": (45, 52, 66), "bad_message": theme.ALARM,
}
STATUS_WORDS = {"misdealt": "MISDEAL", "board": "BOARD DUE", "fault": "READER FAULT", "bad_message": "BAD MESSAGE"}


def counted(n: int, thing: str) -> str:
    """'1 table', '2 tables', '0 open rulings'."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def status_label(status: str) -> str:
    return STATUS_WORDS.get(status, status.upper())


def grid_shape(count: int, width: int, height: int) -> tuple[int, int]:
    """(columns, rows) whose tiles are closest to 4:3 for `count` tables."""
    count = max(count, 1)
    best = (1, count)
    best_score = math.inf
    for columns in range(1, count + 1):
        rows = math.ceil(count / columns)
        aspect = (width / columns) / (height / rows)
        score = abs(math.log(aspect / (4 / 3)))
        if score < best_score:
            best, best_score = (columns, rows), score
    return best


def tile_rects(count: int, size: tuple[int, int]) -> list[pygame.Rect]:
    """Where the tiles of `count` tables go on a screen of `size`, in reading order."""
    width, height = size
    s = Scale(width, height)
    top = s.px(30)
    grid = pygame.Rect(0, top, width - round(width * 0.24), height - top)
    columns, rows = grid_shape(count, grid.width, grid.height)
    gap = max(3, s.px(3))
    tile_w = (grid.width - gap * (columns + 1)) // columns
    tile_h = (grid.height - gap * (rows + 1)) // rows
    return [pygame.Rect(grid.left + gap + (i % columns) * (tile_w + gap),
                        grid.top + gap + (i // columns) * (tile_h + gap), tile_w, tile_h) for i in range(count)]


def render_floor(surface: pygame.Surface, model: FloorModel, *, now: float, title: str = "",
                 clock_text: str | None = None) -> None:
    """Draw the whole floor view over `surface`."""
    width, height = surface.get_size()
    s = Scale(width, height)
    surface.fill(theme.BACKGROUND)
    tables = model.tables()
    header = pygame.Rect(0, 0, width, s.px(30))
    side_w = round(width * 0.24)
    side = pygame.Rect(width - side_w, header.bottom, side_w, height - header.bottom)
    grid = pygame.Rect(0, header.bottom, width - side_w, height - header.bottom)
    tournament = getattr(model, "tournament", None)
    lead = _tournament_title(tournament) if tournament is not None else ""
    _header(surface, header, model, tables, now=now, title=title, clock_text=clock_text, s=s, lead=lead)
    if not tables:
        theme.draw_text(surface, "Waiting for the tables…", s.px(26), theme.TEXT_DIM, grid.center, anchor="center")
    else:
        holds = {t["table"]: t["hold"] for t in tournament["tables"] if t.get("hold")} if tournament else {}
        for view, rect in zip(tables, tile_rects(len(tables), (width, height)), strict=True):
            _tile(surface, rect, view, now=now, hold=holds.get(view.table, ""))
    if tournament is not None:
        used = _tournament_side(surface, side, tournament, s=s)
        used += _chip_counts(surface, pygame.Rect(side.left, side.top + used, side.width, side.height - used),
                             tournament, s=s)
        side = pygame.Rect(side.left, side.top + used, side.width, side.height - used)
    _side(surface, side, model, tables, now=now, s=s)


CHIP_COUNTS_SHARE = 0.3  # of the screen's height


def _chip_counts(surface: pygame.Surface, rect: pygame.Rect, state: dict[str, Any], *, s: Scale) -> int:
    """The room's chip counts, largest first, as the director's state has them (each table's stacks after the
    last hand the director took in: a refused report never moved them). Returns the height used."""
    height = round(surface.get_height() * CHIP_COUNTS_SHARE)
    pad = s.px(8)
    x, y, width = rect.left + pad, rect.top + pad, rect.width - 2 * pad
    head, body = s.px(15), s.px(12)
    pygame.draw.rect(surface, (22, 28, 44), pygame.Rect(rect.left, rect.top, rect.width, height))
    board = leaderboard(state)
    theme.draw_text(surface, "Chip counts", head, theme.ACCENT, (x, y))
    theme.draw_text(surface, f"avg {board['average']:,}", body, theme.TEXT_DIM, (x + width, y + head - body),
                    anchor="topright")
    y += head + s.px(4)
    room = max(0, (rect.top + height - pad - y) // (body + s.px(3)))
    if not board["rows"]:
        theme.draw_text(surface, "no stacks yet", body, theme.TEXT_DIM, (x, y))
    for row in board["rows"][:room]:
        theme.draw_text(surface, str(row["rank"]), body, theme.TEXT_DIM, (x, y))
        theme.draw_text(surface, row["name"], body, theme.TEXT, (x + s.px(16), y), max_width=round(width * 0.46))
        theme.draw_text(surface, f"{row['table']}:{row['seat']}", body, theme.TEXT_DIM,
                        (x + round(width * 0.74), y), anchor="topright")
        theme.draw_text(surface, f"{row['chips']:,}", body, theme.TEXT, (x + width, y), anchor="topright")
        y += body + s.px(3)
    return height


def _tournament_title(state: dict[str, Any]) -> str:
    level = state["level"]
    blinds = "break" if state["on_break"] else f"{level['small']:,}/{level['big']:,}"
    if level.get("ante"):
        blinds += f" ante {level['ante']:,}"
    if level.get("bb_ante"):
        blinds += f" BB ante {level['bb_ante']:,}"
    left = int(state["remaining_s"])
    return (f"level {level['number']} {blinds} {left // 60}:{left % 60:02d}   "
            f"{state['remaining']}/{state['entrants']} players")


def prize_line(state: dict[str, Any]) -> str:
    """The prize pool and each paid place's prize (the director's payouts, locked or not; a deal's shares)."""
    payouts = state.get("payouts") or []
    if not payouts:
        return ""
    money = state.get("money") or {}
    overlay = f" (overlay {money['overlay']:,})" if money.get("overlay") else ""
    locked = " LOCKED" if money.get("locked") else ""
    deal = " - deal made" if state.get("deal") else ""
    places = "  ".join(f"{i}. {v:,}" for i, v in enumerate(payouts[:6], 1)) + ("  ..." if len(payouts) > 6 else "")
    return f"Prize pool {state.get('pool', 0):,}{overlay}{locked}{deal}: {places}"


def _tournament_side(surface: pygame.Surface, rect: pygame.Rect, state: dict[str, Any], *, s: Scale) -> int:
    """The tournament's part of the side panel: hand-for-hand and holds, the latest moves, breaks and
    eliminations with their rules. Returns the height used."""
    pad = s.px(8)
    x, y, width = rect.left + pad, rect.top + pad, rect.width - 2 * pad
    head, body = s.px(17), s.px(12)
    pygame.draw.rect(surface, (18, 32, 26), pygame.Rect(rect.left, rect.top, rect.width, round(rect.height * 0.42)))
    theme.draw_text(surface, "Tournament", head, theme.ACCENT, (x, y))
    y += head + s.px(4)
    if state.get("winner"):
        theme.draw_text(surface, f"{state['winner']} wins", body, theme.ACCENT,
                        (x, y), max_width=width)
        y += body + s.px(4)
    if state.get("over"):
        theme.draw_text(surface, "OVER: clock stopped, tables stop", body, theme.ACCENT, (x, y), max_width=width)
        y += body + s.px(4)
    prize = prize_line(state)
    if prize:
        for line in theme.wrap(prize, body, width, 2):
            theme.draw_text(surface, line, body, theme.TEXT, (x, y), max_width=width)
            y += body + s.px(2)
        y += s.px(2)
    for refused in list(reversed(state.get("refused", [])))[:2]:  # a report the director did not apply, and why
        hand = f" hand {refused['hand']}" if refused.get("hand") else ""
        theme.draw_text(surface, f"REFUSED {refused['table']}{hand}", body, theme.ALARM, (x, y), max_width=width)
        y += body + s.px(2)
        for line in theme.wrap(refused["reason"], round(body * 0.9), width - s.px(8), 2):
            theme.draw_text(surface, line, round(body * 0.9), theme.ALARM, (x + s.px(8), y), max_width=width - s.px(8))
            y += round(body * 0.9) + s.px(2)
        y += s.px(2)
    if state.get("all_in"):
        theme.draw_text(surface, f"ALL IN CALLED at {', '.join(state['all_in'])}: others hold", body, theme.ALARM,
                        (x, y), max_width=width)
        y += body + s.px(4)
    elif state.get("hand_for_hand"):
        theme.draw_text(surface, "HAND-FOR-HAND", body, theme.WARN, (x, y), max_width=width)
        y += body + s.px(4)
    limit = rect.top + round(rect.height * 0.42) - body
    wanted = ("moved", "broken", "redrawn", "eliminated", "finished", "level", "color_up", "seated", "knockout",
              "deal", "money")
    for decision in reversed([d for d in state.get("decisions", []) if d["kind"] in wanted]):
        lines = theme.wrap(decision["text"], body, width, 2)
        cites = "; ".join(f"{c['profile']} {c['section']} {c['rule']}".strip() for c in decision["cites"][:2])
        if y + (len(lines) + 1) * (body + s.px(2)) > limit:
            break
        colour = theme.WARN if decision["kind"] in ("moved", "broken", "redrawn") else theme.TEXT
        for line in lines:
            theme.draw_text(surface, line, body, colour, (x, y), max_width=width)
            y += body + s.px(2)
        if cites:
            theme.draw_text(surface, cites, round(body * 0.9), theme.TEXT_DIM, (x + s.px(8), y), max_width=width)
            y += round(body * 0.9) + s.px(4)
    return min(round(rect.height * 0.42), y - rect.top + pad)  # what it took: the rest goes to the panels below


def _header(surface: pygame.Surface, rect: pygame.Rect, model: FloorModel, tables: list[TableView], *,
            now: float, title: str, clock_text: str | None, s: Scale, lead: str = "") -> None:
    pygame.draw.rect(surface, (24, 30, 42), rect)
    size = round(rect.height * 0.72)
    theme.draw_text(surface, title or "Floor", size, theme.ACCENT, (s.px(8), rect.centery), anchor="midleft")
    summary = model.summary(now)
    open_count = sum(1 for v in tables if v.open_rulings and v.status(now) != "offline")
    parts = [*([lead] if lead else []), counted(len(tables), "table"), counted(open_count, "open ruling")]
    parts += [f"{n} {status_label(k).lower()}" for k, n in sorted(summary.items())
              if k in ("offline", "fault", "bad_message")]
    theme.draw_text(surface, "   ".join(parts), round(size * 0.8), theme.TEXT, rect.center, anchor="center")
    stamp = clock_text if clock_text is not None else time.strftime("%H:%M:%S")
    theme.draw_text(surface, stamp, size, theme.TEXT, (rect.right - s.px(8), rect.centery), anchor="midright")


def fitting(texts: list[str], size: int, width: int) -> int:
    """The largest size no bigger than `size` at which every one of `texts` fits `width` (not below the
    readable size): a tile's key figures are shrunk together, never cut short ("irre…", "BOARD…")."""
    while size > theme.READABLE_PX and any(theme.text_size(text, size)[0] > width for text in texts):
        size = max(theme.READABLE_PX, int(size * 0.92))
    return size


def _tile(surface: pygame.Surface, rect: pygame.Rect, view: TableView, *, now: float, hold: str = "") -> None:
    status = view.status(now)
    colour = STATUS_COLOURS.get(status, (45, 52, 66))
    ruling = view.open_rulings[-1] if view.open_rulings and status != "offline" else None
    radius = max(4, rect.height // 16)
    pygame.draw.rect(surface, (28, 34, 46), rect, border_radius=radius)
    unit = rect.height / 100
    band = pygame.Rect(rect.left, rect.top, rect.width, round(unit * 30))
    pygame.draw.rect(surface, colour, band, border_top_left_radius=radius, border_top_right_radius=radius)
    pad = max(4, round(rect.width * 0.04))
    # Sizes by the tile's height, no larger than its width holds: a tall, narrow tile (two tables at 720p)
    # gets text its width shows whole.
    label = status_label(status)
    id_size = fitting([view.table], round(unit * 22), band.width // 2 - pad)
    id_rect = theme.draw_text(surface, view.table, id_size, theme.TEXT, (band.left + pad, band.centery),
                              anchor="midleft", max_width=band.width // 2 - pad)
    room = band.right - pad - (id_rect.right + pad)
    theme.draw_text(surface, label, fitting([label], round(unit * 16), room), theme.TEXT,
                    (band.right - pad, band.centery), anchor="midright", max_width=room)
    counts = view.counts
    y = band.bottom + round(unit * 4)
    hand = view.state.get("hand", "–") if view.state else "–"
    per_hour = counts.get("hands_per_hour")
    line1 = f"hand {hand}   {per_hour:.0f}/h" if per_hour is not None else f"hand {hand}"
    misdeals, irregular = counts.get("misdeals", 0), counts.get("irregularities", 0)
    line2 = f"misdeals {misdeals}   irreg. {irregular}"
    text_size = fitting([line1, line2], round(unit * 14), rect.width - 2 * pad)
    theme.draw_text(surface, line1, text_size, theme.TEXT, (rect.left + pad, y), max_width=rect.width - 2 * pad)
    y += round(unit * 15)
    theme.draw_text(surface, line2, text_size,
                    theme.WARN if misdeals else theme.TEXT, (rect.left + pad, y), max_width=rect.width - 2 * pad)
    y += round(unit * 15)
    who = view.dealer or "no dealer"
    if status == "offline" and view.offline_reason:
        who = view.offline_reason
    elif status == "fault":
        faults = view.state.get("faults", [])
        who = faults[0]["component"] if faults else who
    elif status == "bad_message":
        who = view.bad_reason  # quarantined by the floor: the table's messages fail the room's schema
    theme.draw_text(surface, who, text_size, theme.TEXT_DIM, (rect.left + pad, y), max_width=rect.width - 2 * pad)
    info = ruling is not None and ruling.get("ruling") in INFORMATION  # a short blind, a chip race: no alarm
    if hold and ruling is None:  # the bubble: this table holds its next deal
        strip = pygame.Rect(rect.left, rect.bottom - round(unit * 22), rect.width, round(unit * 22))
        pygame.draw.rect(surface, theme.WARN, strip, border_bottom_left_radius=radius,
                         border_bottom_right_radius=radius)
        theme.draw_text(surface, "HOLD: " + hold.split(":", maxsplit=1)[0], round(unit * 15), theme.TEXT_DARK,
                        strip.center,
                        anchor="center", max_width=strip.width - 2 * pad)
    jackpot = view.jackpot_now(now)
    if ruling is not None and jackpot is None:
        strip = pygame.Rect(rect.left, rect.bottom - round(unit * 22), rect.width, round(unit * 22))
        pygame.draw.rect(surface, theme.INFO if info else theme.ALARM, strip, border_bottom_left_radius=radius,
                         border_bottom_right_radius=radius)
        theme.draw_text(surface, _ruling_name(ruling), round(unit * 15), theme.TEXT, strip.center, anchor="center",
                        max_width=strip.width - 2 * pad)
    if jackpot is not None:  # the floor is called to it: the cards are held where they lie
        strip = pygame.Rect(rect.left, rect.bottom - round(unit * 22), rect.width, round(unit * 22))
        pygame.draw.rect(surface, theme.ACCENT, strip, border_bottom_left_radius=radius,
                         border_bottom_right_radius=radius)
        theme.draw_text(surface, f"JACKPOT seat {jackpot['seat']}", round(unit * 15), theme.TEXT_DARK, strip.center,
                        anchor="center", max_width=strip.width - 2 * pad)
    edge = theme.ACCENT if jackpot is not None else theme.ALARM_EDGE if ruling is not None and not info else colour
    pygame.draw.rect(surface, edge, rect, width=max(2, rect.height // 50), border_radius=radius)


def _ruling_name(ruling: dict[str, object]) -> str:
    text = str(ruling.get("ruling", "")).replace("_", " ").upper()
    if ruling.get("seat") is not None:
        text += f" seat {ruling['seat']}"
    return text


def dealer_counts(tables: list[TableView]) -> dict[str, DealerCounts]:
    """Misdeals and irregularities per dealer: the sum of their tables' tiles (each table's own count of its
    session, as its tile shows it), so the column and the tiles always agree. (The floor's own tally of the
    rulings it received misses those made before it started or while it was away.)"""
    out: dict[str, DealerCounts] = {}
    for view in tables:
        counts = view.counts
        if not counts:
            continue
        mine = out.setdefault(view.dealer or "(no dealer)", DealerCounts())
        mine.misdeals += int(counts.get("misdeals", 0))
        mine.irregularities += int(counts.get("irregularities", 0))
    return out


def _side(surface: pygame.Surface, rect: pygame.Rect, model: FloorModel, tables: list[TableView], *,
          now: float, s: Scale) -> None:
    pygame.draw.rect(surface, (20, 25, 35), rect)
    pad = s.px(8)
    x, y, width = rect.left + pad, rect.top + pad, rect.width - 2 * pad
    head = s.px(17)
    body = s.px(12)
    dealers = dealer_counts(tables)
    dealer_rows = min(len(dealers), 8)
    dealers_top = rect.bottom - pad - (dealer_rows + 2) * (body + s.px(3))
    for view in tables:  # a jackpot hand first: the floor is called to it as it ends
        jackpot = view.jackpot_now(now)
        if jackpot is None:
            continue
        lines = theme.wrap(str(jackpot["remedy"]), body, width - s.px(10), 6)  # whole: it ends "call the floor"
        if y + (len(lines) + 2) * (body + s.px(2)) > dealers_top - s.px(10):
            break
        title = f"{view.table} hand {jackpot['hand']}: JACKPOT {jackpot['jackpot']}"
        theme.draw_text(surface, title, round(body * 1.15), theme.ACCENT, (x, y), max_width=width)
        y += round(body * 1.15) + s.px(2)
        for line in lines:
            theme.draw_text(surface, line, body, theme.TEXT, (x + s.px(10), y))
            y += body + s.px(2)
        theme.draw_text(surface, str(jackpot["rule"]), body, theme.TEXT_DIM, (x + s.px(10), y),
                        max_width=width - s.px(10))
        y += body + s.px(10)
    theme.draw_text(surface, "Open rulings", head, theme.ACCENT, (x, y))
    y += head + s.px(4)
    shown = 0
    for view in tables:
        if view.status(now) == "offline":
            continue
        for ruling in view.open_rulings:
            lines = theme.wrap(str(ruling.get("remedy", "")), body, width - s.px(10), 3)
            needed = head + len(lines) * (body + s.px(2)) + body + s.px(10)
            if y + needed > dealers_top - s.px(10):
                theme.draw_text(surface, "… more", body, theme.TEXT_DIM, (x, y))
                y = dealers_top
                break
            theme.draw_text(surface, f"{view.table}: {_ruling_name(ruling)}", round(body * 1.15), theme.WARN, (x, y),
                            max_width=width)
            y += round(body * 1.15) + s.px(2)
            for line in lines:
                theme.draw_text(surface, line, body, theme.TEXT, (x + s.px(10), y))
                y += body + s.px(2)
            theme.draw_text(surface, str(ruling.get("rule", "")), body, theme.TEXT_DIM, (x + s.px(10), y),
                            max_width=width - s.px(10))
            y += body + s.px(10)
            shown += 1
        if y >= dealers_top:
            break
    if not shown:
        theme.draw_text(surface, "none", body, theme.TEXT_DIM, (x, y))
    y = dealers_top
    pygame.draw.line(surface, theme.TEXT_DIM, (x, y - s.px(5)), (rect.right - pad, y - s.px(5)))
    theme.draw_text(surface, "Dealer", body, theme.ACCENT, (x, y))
    theme.draw_text(surface, "misdeals", body, theme.ACCENT, (x + round(width * 0.62), y), anchor="topright")
    theme.draw_text(surface, "irregularities", body, theme.ACCENT, (x + width, y), anchor="topright")
    y += body + s.px(3)
    ranked = sorted(dealers.items(), key=lambda item: (-item[1].misdeals, -item[1].irregularities, item[0]))
    for name, counts in ranked[:dealer_rows]:
        theme.draw_text(surface, name, body, theme.TEXT, (x, y), max_width=round(width * 0.45))
        theme.draw_text(surface, str(counts.misdeals), body, theme.TEXT, (x + round(width * 0.62), y),
                        anchor="topright")
        theme.draw_text(surface, str(counts.irregularities), body, theme.TEXT, (x + width, y), anchor="topright")
        y += body + s.px(3)
