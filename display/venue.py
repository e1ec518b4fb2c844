"""The venue screen for players and the dealer: no hole card is ever drawn face up here."""

from __future__ import annotations

import dataclasses

import pygame

from display import theme
from display.cards import CardPainter, FaceRole
from display.display_config import DisplayConfig
from display.layout import Scale, VenueLayout, hole_card_rects, table_places, venue_layout
from display.redact import hide_hole_cards
from display.widgets import draw_badges, draw_banner, draw_shot_clock, result_line, words
from firmware_py.core.game import HOLDEM, game_named
from firmware_py.core.snapshot import LIVE, Phase, PlayerState, SeatView, TableSnapshot
from firmware_py.tournament.notice import TournamentNotice

STATE_LABELS = {
    PlayerState.FOLDED: "FOLDED",
    PlayerState.ALLIN: "ALL IN",
    PlayerState.DEAD: "DEAD HAND",
    PlayerState.WAITING: "sitting out",
}


def render_venue(surface: pygame.Surface, snapshot: TableSnapshot | None, *, now: float,
                 config: DisplayConfig, painter: CardPainter, keyed: str = "", pairing: str = "",
                 tournament: TournamentNotice | None = None, tournament_left: float | None = None) -> None:
    """Draw the venue view of `snapshot` at session time `now` over the whole of `surface`.

    `keyed` is the amount the dealer is keying on the keypad, shown until the action key sends it;
    `pairing` the action tracker's pairing code, shown while no one is to act; `tournament` what the
    director tells this table (hand-for-hand, a hold on the next deal, players called by name), and
    `tournament_left` the seconds left in the director's level (or break) by this screen's clock.
    """
    width, height = surface.get_size()
    scale = Scale(width, height)
    places = table_places([s.seat for s in snapshot.seats if s.state != PlayerState.EMPTY]
                          if snapshot else [])
    if tournament is not None and tournament.names:  # the players as the director has the field
        config = dataclasses.replace(config, seat_names={**config.seat_names, **dict(tournament.names)})
    if snapshot is not None and snapshot.names:  # names typed on the tracker (journaled `name` events)
        config = dataclasses.replace(config, seat_names={**config.seat_names, **dict(snapshot.names)})
    rows = strip_rows(tournament)
    layout = venue_layout(width, height, places=places, strip_rows=rows)
    surface.fill(theme.BACKGROUND)
    draw_top_bar(surface, layout.top_bar, snapshot, now=now, config=config, tournament=tournament,
                 tournament_left=tournament_left)
    if tournament is not None and layout.strip is not None:
        draw_tournament_strip(surface, layout.strip, tournament)
    felt = layout.table.inflate(scale.px(10), scale.px(10))
    pygame.draw.ellipse(surface, theme.FELT_EDGE, felt)
    pygame.draw.ellipse(surface, theme.FELT, layout.table)
    if snapshot is None:
        theme.draw_text(surface, "Waiting for the table…", scale.px(34), theme.TEXT,
                        layout.table.center, anchor="center")
        return
    public = hide_hole_cards(snapshot)  # from here on there is no hole card to draw
    for seat in public.seats:
        if seat.state != PlayerState.EMPTY:
            draw_seat(surface, layout.seat_boxes[seat.seat], seat, config=config, painter=painter,
                      between_hands=snapshot.phase in (Phase.IDLE, Phase.MISDEALT),
                      hand_over=snapshot.phase == Phase.SHOWDOWN, absent=absence(snapshot, seat.seat))
            if seat.last_action and seat.state in LIVE:
                draw_action_tag(surface, layout.seat_boxes[seat.seat], seat.last_action,
                                toward=layout.table.center)
    street = words(public.street).upper() if public.street else words(public.phase).upper()
    if public.phase == Phase.SHOWDOWN:
        street = "SHOWDOWN"
    pot = pot_text(public)
    if public.race is not None:  # between hands, a chip race: it takes the board's place
        draw_race(surface, layout.table, layout.street, public, config=config)
    elif pot:  # the street on the left of the row over the board, the pot on the right
        theme.draw_text(surface, street, layout.street.height, theme.TEXT, layout.street.bottomleft,
                        anchor="bottomleft", max_width=layout.street.width // 3)
        theme.draw_text(surface, pot, layout.street.height, theme.ACCENT, layout.street.bottomright,
                        anchor="bottomright", max_width=layout.street.width * 2 // 3)
    else:
        theme.draw_text(surface, street, layout.street.height, theme.TEXT, layout.street.midbottom,
                        anchor="midbottom")
    for index, place in enumerate(layout.board if public.race is None else ()):
        if index < len(public.board):
            painter.face(surface, place, public.board[index], role=FaceRole.BOARD)
        else:
            painter.slot(surface, place)
    if public.clock is not None:
        draw_shot_clock(surface, layout.clock, public.clock, now=now, config=config)
    elif public.showdown is not None and public.showdown not in public.unconfirmed:
        result = public.showdown
        text = result_line(result, config) + (f" · {result.hand}" if result.hand else "")
        theme.draw_text(surface, text, round(layout.clock.height * 0.7), theme.ACCENT,
                        layout.clock.center, anchor="center", max_width=layout.clock.width)
    elif public.to_act is not None and keyed:
        theme.draw_text(surface, f"{config.name(public.to_act)}: {int(keyed):,} keyed",
                        round(layout.clock.height * 0.7), theme.SEAT_TO_ACT, layout.clock.center,
                        anchor="center", max_width=layout.clock.width)
    elif public.to_act is not None:
        options = options_text(public)
        theme.draw_text(surface, f"Action: {config.name(public.to_act)}" + (f" · {options}" if options else ""),
                        round(layout.clock.height * 0.7), theme.ACCENT, layout.clock.center,
                        anchor="center", max_width=layout.clock.width)
    elif pairing:
        theme.draw_text(surface, f"Tracker code {pairing[:3]} {pairing[3:]}", round(layout.clock.height * 0.6),
                        theme.TEXT, layout.clock.center, anchor="center", max_width=layout.clock.width)
    dead = dead_button(public)
    if dead is not None:  # the button on a seat nobody holds: shown where everyone sees it, over the board's row
        draw_dead_button(surface, layout.street, dead)
    if public.corrections:  # the operator's last correction, for everyone at the table to see
        theme.draw_text(surface, public.corrections[-1], round(layout.clock.height * 0.42), theme.TEXT_DIM,
                        (layout.clock.centerx, layout.clock.bottom), anchor="midtop", max_width=layout.clock.width)
    between_hands = public.phase in (Phase.IDLE, Phase.MISDEALT)
    if tournament is not None and tournament.hold and between_hands and not public.unconfirmed:
        draw_hold(surface, layout, tournament)  # over the empty board: the dealer must not deal
    if public.unconfirmed:
        first = public.unconfirmed[0]
        draw_banner(surface, layout.banner, first, config=config, painter=painter,
                    pending=len(public.unconfirmed))
    elif public.phase == Phase.MISDEALT:
        theme.draw_text(surface, "MISDEAL: waiting for a new hand", layout.street.height,
                        theme.ALARM, layout.clock.center, anchor="center")


def strip_rows(tournament: TournamentNotice | None) -> int:
    """Lines of the tournament strip: the bubble's (hand-for-hand, the hold) and the newest call."""
    if not tournament:
        return 0
    return int(bool(tournament.hand_for_hand or tournament.hold)) + int(bool(tournament.calls))


def draw_tournament_strip(surface: pygame.Surface, rect: pygame.Rect, tournament: TournamentNotice) -> None:
    """Under the top bar: HAND FOR HAND and the hold (amber: the rules at work, not a dealer's error), then the
    director's newest call for this table by the player's name."""
    rows = strip_rows(tournament)
    line_h = rect.height // max(rows, 1)
    pad = max(4, line_h // 4)
    size = round(line_h * 0.62)
    row = pygame.Rect(rect.left, rect.top, rect.width, line_h)
    if tournament.hand_for_hand or tournament.hold:
        fill = theme.NOTICE if tournament.hold else (40, 34, 10)
        surface.fill(fill, row)
        ink = theme.ink_on(fill)
        x = rect.left + pad
        if tournament.hand_for_hand:
            tag = theme.draw_text(surface, "HAND FOR HAND", size, ink if tournament.hold else theme.ACCENT,
                                  (x, row.centery), anchor="midleft")
            x = tag.right + 2 * pad
        if tournament.hold:
            theme.draw_text(surface, f"HOLD: {tournament.hold}", size, ink, (x, row.centery), anchor="midleft",
                            max_width=rect.right - pad - x)
        elif tournament.hand_for_hand:
            theme.draw_text(surface, "each table plays one hand, then waits for the others", round(size * 0.85),
                            theme.TEXT, (x, row.centery), anchor="midleft", max_width=rect.right - pad - x)
        row = row.move(0, line_h)
    if tournament.calls:
        surface.fill((12, 30, 48), row)
        pygame.draw.line(surface, theme.ACCENT, row.topleft, row.topright, 1)
        label = theme.draw_text(surface, "FLOOR", size, theme.ACCENT, (rect.left + pad, row.centery), anchor="midleft")
        theme.draw_text(surface, tournament.calls[-1], size, theme.TEXT, (label.right + 2 * pad, row.centery),
                        anchor="midleft", max_width=rect.right - 3 * pad - label.right)


def draw_hold(surface: pygame.Surface, layout: VenueLayout, tournament: TournamentNotice) -> None:
    """Between hands with a hold: over the empty board, DO NOT DEAL, why, and the rule."""
    box = layout.street.union(layout.clock).inflate(layout.street.height, layout.street.height // 2)
    radius = max(4, box.height // 12)
    pygame.draw.rect(surface, theme.NOTICE, box, border_radius=radius)
    pygame.draw.rect(surface, theme.TEXT_DARK, box, width=max(2, box.height // 60), border_radius=radius)
    ink = theme.ink_on(theme.NOTICE)
    unit = box.height / 100
    theme.draw_text(surface, "HOLD: DO NOT DEAL", round(unit * 24), ink, (box.centerx, box.top + round(unit * 8)),
                    anchor="midtop", max_width=box.width - 2 * radius)
    reason = tournament.hold[:1].upper() + tournament.hold[1:]
    lines = wrap(reason, round(unit * 13), box.width - 2 * radius, 2)
    y = box.top + round(unit * 40)
    for line in lines:
        theme.draw_text(surface, line, round(unit * 13), ink, (box.centerx, y), anchor="midtop",
                        max_width=box.width - 2 * radius)
        y += round(unit * 16)
    if tournament.hold_rule:
        rule = tournament.hold_rule.split(":", maxsplit=1)[0]
        theme.draw_text(surface, rule, round(unit * 10), ink, (box.centerx, box.bottom - round(unit * 6)),
                        anchor="midbottom", max_width=box.width - 2 * radius)


def wrap(text: str, size: int, width: int, lines: int) -> list[str]:
    """`text` in at most `lines` lines of `width` pixels at `size` (the last one cut short by draw_text)."""
    out: list[str] = []
    for word in text.split():
        if out and (len(out) == lines or theme.text_size(f"{out[-1]} {word}", size)[0] <= width):
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def draw_race(surface: pygame.Surface, table: pygame.Rect, street: pygame.Rect, snapshot: TableSnapshot, *,
              config: DisplayConfig) -> None:
    """The chip race over the felt: the color-up, each racing seat's odd chips and cards, then who got a chip."""
    race = snapshot.race
    assert race is not None
    inner = table.inflate(-table.width // 5, -table.height // 5)
    title = f"CHIP RACE  {race.chip:,} → {race.to:,}"
    if race.done:
        title += "  ·  ruled"
    elif race.due is not None:
        title += f"  ·  card to {config.name(race.due)}"
    theme.draw_text(surface, title, street.height, theme.ACCENT, (inner.centerx, street.bottom),
                    anchor="midbottom", max_width=inner.width)
    rows = [*race.odd] or [(0, 0)]
    line = min(street.height, max(10, (inner.bottom - street.bottom) // max(len(rows), 1)))
    y = street.bottom + line // 4
    for seat, count in race.odd:
        cards = " ".join(card for dealt, card in race.cards if dealt == seat) or "-"
        won = race.won(seat)
        text = f"{config.name(seat)}  {count} × {race.chip:,}   {cards}"
        if race.done:
            first = any(award.seat == seat and award.why == "no_chips_left" for award in race.awards)
            won_text = f"   +{won} × {race.to:,}" + (" (no other chips: first)" if first else "")
            text += won_text if won else "   no chip"
        colour = theme.ACCENT if won else (theme.SEAT_TO_ACT if seat == race.due else theme.TEXT)
        theme.draw_text(surface, text, round(line * 0.8), colour, (inner.centerx, y), anchor="midtop",
                        max_width=inner.width)
        y += line
    if not race.odd:
        theme.draw_text(surface, "no odd chips", round(line * 0.8), theme.TEXT_DIM, (inner.centerx, y),
                        anchor="midtop")


def draw_action_tag(surface: pygame.Surface, box: pygame.Rect, action: str, *,
                    toward: tuple[int, int]) -> None:
    """The seat's last action ("raise 600") on a tag at the box's edge, on the side of the table centre."""
    size = max(13, round(box.height * 0.26))
    width, height = theme.text_size(action, size)
    tag = pygame.Rect(0, 0, min(width + size, box.width), round(height * 1.15))
    tag.centerx = box.centerx
    if box.centery <= toward[1]:
        tag.top = box.bottom + 2
    else:
        tag.bottom = box.top - 2
    pygame.draw.rect(surface, (12, 14, 18), tag, border_radius=tag.height // 2)
    pygame.draw.rect(surface, theme.ACCENT, tag, width=1, border_radius=tag.height // 2)
    theme.draw_text(surface, action, size, theme.ACCENT, tag.center, anchor="center",
                    max_width=tag.width - size // 2)


def options_text(snapshot: TableSnapshot) -> str:
    """What the seat to act may do, as the core's snapshot has it: 'call 200 / raise / fold'. A skipped player
    facing a bet posted out of turn is offered no check; a seat barred from raising (it checked or called out
    of turn) no raise. Empty when the table counts no chips or nobody is to act."""
    chips, seat = snapshot.chips, snapshot.to_act
    if chips is None or seat is None or snapshot.phase is not Phase.BETTING:
        return ""
    view = snapshot.seat(seat)
    stack = view.stack or 0
    options = [f"call {chips.to_call:,}" if chips.to_call else "check"]
    if chips.may_raise and stack > chips.to_call:
        options.append("raise" if (view.bet or 0) + chips.to_call > 0 else "bet")
    options.append("fold")
    return " / ".join(options)


def pot_text(snapshot: TableSnapshot) -> str:
    """'POT 1,250', the side pots when there are any, and chips nobody called going back (no side pot);
    empty when the table counts no chips."""
    chips = snapshot.chips
    if chips is None:
        return ""
    pots = chips.contested()
    text = f"POT {chips.pot - chips.uncalled:,}"
    if len(pots) > 1:
        text += "  (" + " + ".join(f"{pot.amount:,}" for pot in pots) + ")"
    if chips.uncalled:
        text += f"  · {chips.uncalled:,} back to seat {chips.uncalled_seat}"
    return text


def draw_top_bar(surface: pygame.Surface, rect: pygame.Rect, snapshot: TableSnapshot | None, *,
                 now: float, config: DisplayConfig, tournament: TournamentNotice | None = None,
                 tournament_left: float | None = None) -> None:
    """Blind level and its time left, the hand number, the house rules in force. In a tournament the level is
    the director's (between hands its blinds for the next deal) and so is its clock (`tournament_left`, counted
    down from the director's last word; a break says so), so the table file's schedule is not shown."""
    pygame.draw.rect(surface, (6, 8, 12), rect)
    size = round(rect.height * 0.62)
    pad = round(rect.height * 0.25)
    level = config.level_at(now)
    stakes = snapshot.chips.level if snapshot is not None and snapshot.chips is not None else level.level.stakes.label()
    level_number = tournament.level if tournament is not None else 0
    if tournament is not None and tournament.blinds and (snapshot is None or snapshot.chips is None
                                                         or snapshot.phase in (Phase.IDLE, Phase.MISDEALT)):
        stakes = tournament.blinds
    left = f"Level {level_number or level.number}  {stakes}"
    if level.seconds_left is not None and not level_number:
        left += f"  {theme.mmss(level.seconds_left)}"
    elif tournament is not None and level_number and tournament_left is not None:
        clock = theme.mmss(tournament_left)
        left = f"BREAK  {clock}" if tournament.on_break else f"{left}  {clock}"
    drawn = theme.draw_text(surface, left, size, theme.ACCENT, (pad, rect.centery),
                            anchor="midleft", max_width=rect.width // 2 - pad)
    if snapshot is None:
        return
    right = snapshot.profile_title or snapshot.profile
    game = game_named(snapshot.game)
    if game is not HOLDEM:  # another game than hold'em: said beside the house rules (PLO, PLO5, FLHE)
        right = f"{game.short} · {right}"
    hand = f"Hand {snapshot.hand_number}" if snapshot.hand_number else ""
    hand_rect = theme.draw_text(surface, hand, size, theme.TEXT,
                                (rect.right - pad, rect.centery), anchor="midright")
    room = hand_rect.left - drawn.right - 3 * pad
    if room > 40:
        theme.draw_text(surface, right, round(size * 0.7), theme.TEXT_DIM,
                        (hand_rect.left - 2 * pad, rect.centery), anchor="midright",
                        max_width=room)


def absence(snapshot: TableSnapshot, seat: int) -> str:
    """What the director's draw says of a seat whose drawn player's card has not been read at it (docs/checkin.md):
    "wrong player" when another player's card was read there, "not checked in" when none was; else ""."""
    if seat not in snapshot.not_checked_in:
        return ""
    return "wrong player" if any(at == seat for at, _player in snapshot.checked_in) else "not checked in"


def seat_label(seat: SeatView, *, between_hands: bool, hand_over: bool = False, absent: str = "") -> str:
    """The word under a seat: its state in the hand; between hands none (everyone seated is waiting
    for the deal, no one is sitting out), but a seat with no chips says so. Once the pots are awarded a
    seat that went all in and won chips is no longer all in: no word. `absent`: what the director's draw says of
    the seat (`absence`), said where the seat has no other word."""
    if seat.state == PlayerState.WAITING and seat.stack == 0:
        return "no chips"
    if between_hands and seat.state == PlayerState.WAITING:
        return absent
    if hand_over and seat.state == PlayerState.ALLIN and seat.stack:
        return ""
    return STATE_LABELS.get(seat.state, "") or absent


def dead_button(snapshot: TableSnapshot) -> int | None:
    """The seat of a dead button (the button moved to a seat nobody holds this hand), or None."""
    if snapshot.button is None or snapshot.phase == Phase.IDLE:
        return None
    held = {seat.seat for seat in snapshot.seats if seat.state != PlayerState.EMPTY}
    return snapshot.button if snapshot.button not in held else None


def draw_dead_button(surface: pygame.Surface, street: pygame.Rect, seat: int) -> None:
    """A dead button: the D disc and whose empty seat it is on, centred over the row above the board."""
    size = street.height
    text = f"DEAD BUTTON: seat {seat}"  # nobody sits there this hand: a seat, never a player's name
    width = theme.text_size(text, round(size * 0.75))[0]
    left = street.centerx - (size + size // 3 + width) // 2
    y = street.top - size // 2 - max(2, size // 6)
    r = size // 2
    pygame.draw.circle(surface, (238, 238, 238), (left + r, y), r)
    pygame.draw.circle(surface, theme.CARD_EDGE, (left + r, y), r, 1)
    theme.draw_text(surface, "D", round(size * 0.62), theme.TEXT_DARK, (left + r, y), anchor="center")
    theme.draw_text(surface, text, round(size * 0.75), theme.TEXT, (left + size + size // 3, y), anchor="midleft")


def draw_seat(surface: pygame.Surface, box: pygame.Rect, seat: SeatView, *,
              config: DisplayConfig, painter: CardPainter, between_hands: bool = False,
              hand_over: bool = False, absent: str = "") -> None:
    """One seat: its name, badges, state, and its cards face down (counted, never read)."""
    out = seat.state in (PlayerState.FOLDED, PlayerState.DEAD) or (
        seat.state == PlayerState.WAITING and (not between_hands or seat.stack == 0))
    fill = theme.SEAT_FOLDED if out else theme.SEAT_FILL
    radius = box.height // 6
    pygame.draw.rect(surface, fill, box, border_radius=radius)
    if seat.to_act:
        pygame.draw.rect(surface, theme.SEAT_TO_ACT, box.inflate(6, 6),
                         width=max(3, box.height // 14), border_radius=radius)
    else:
        pygame.draw.rect(surface, (70, 80, 96) if not out else (50, 52, 56), box, width=2,
                         border_radius=radius)
    pad = max(3, box.height // 12)
    ink = theme.TEXT_DIM if out else theme.TEXT
    name_size = round(box.height * 0.36)
    stack_w = 0
    if seat.stack is not None:  # chips behind, on the name's row at the right
        stack_w = theme.draw_text(surface, f"{seat.stack:,}", round(name_size * 0.85), theme.ACCENT,
                                  (box.right - pad, box.top + pad), anchor="topright").width + pad
    theme.draw_text(surface, config.name(seat.seat), name_size, ink,
                    (box.left + pad, box.top + pad), max_width=box.width - 2 * pad - stack_w)
    lower = box.top + pad + round(name_size * 0.8)
    card_h = box.bottom - pad - lower
    cards = hole_card_rects(box, len(seat.cards), height=card_h) if seat.cards and not out else []
    for rect in cards:
        painter.back(surface, rect)
    right_edge = cards[0].left - pad if cards else box.right - pad
    row_y = lower + card_h // 2
    badge = round(card_h * 0.62)
    x = draw_badges(surface, seat, (box.left + pad, row_y), badge)
    label = seat_label(seat, between_hands=between_hands, hand_over=hand_over, absent=absent)
    if label:
        colour = ink
        if seat.to_act:
            colour = theme.SEAT_TO_ACT
        elif seat.state == PlayerState.DEAD:
            colour = theme.ALARM
        draw_state_label(surface, label, round(card_h * 0.48), colour, (x, row_y),
                         room=max(10, right_edge - x), height=card_h)


def draw_state_label(surface: pygame.Surface, label: str, size: int, colour: tuple[int, int, int],
                     midleft: tuple[int, int], *, room: int, height: int) -> None:
    """A seat's state beside its badges: on one line if it fits, else a word a line ("ALL" over "IN"
    beside the blind badge of a small seat box) rather than cut short to "AL…"."""
    words = label.split()
    one_line = theme.fit_size(label, size, room)
    if len(words) == 1 or theme.text_size(label, one_line)[0] <= room:
        theme.draw_text(surface, label, size, colour, midleft, anchor="midleft", max_width=room)
        return
    line = min(size, max(theme.READABLE_PX, height // len(words)))
    step = theme.line_height(line) * 0.85
    top = midleft[1] - step * (len(words) - 1) / 2
    for index, word in enumerate(words):
        theme.draw_text(surface, word, line, colour, (midleft[0], round(top + index * step)), anchor="midleft",
                        max_width=room)

