"""Cards out of the shoe: each read routed, the hole cards dealt, and the deal's irregular cards.

Exposed, boxed, extra, jokers, short and out of sequence; board antennas' reads go on to streets.py.
"""

from __future__ import annotations

from firmware_py.core import betting, misdeals, streets
from firmware_py.core.cards import UNKNOWN_PREFIX, is_joker, is_unknown
from firmware_py.core.events import BOARD_ANTENNAS, BURN, SHOE, Read
from firmware_py.core.hand import CardInfo, Hand
from firmware_py.core.rulings import NoticeKind, RulingKind, Street
from firmware_py.core.snapshot import HAND_OVER, Phase
from firmware_py.core.state import TableState
from firmware_py.core.vocab import Cause, RuleKey, Where

ORDINAL = ("first", "second")


def read(table: TableState, event: Read) -> None:
    uid, antenna = event.uid, event.antenna
    info = table.cards.get(uid)
    hand = table.hand
    if info is None or (antenna == SHOE and hand is not None and uid not in hand.where and is_unknown(info.card)):
        _unknown_tag(table, event)
        return
    if hand is None or hand.phase in HAND_OVER:
        return  # cards gathered, mucked or shown between hands
    if info.back != table.back:
        misdeals.void(table, hand, RuleKey.FOREIGN_CARD, Cause.FOREIGN_CARD, uid=uid, fill={"back": info.back})
        return
    known = hand.identity.get(info.card)
    if known is not None and known != uid:
        misdeals.void(table, hand, RuleKey.DUPLICATE_CARD, Cause.DUPLICATE_CARD, uid=uid)
        return
    hand.identity[info.card] = uid
    where = hand.where.get(uid)
    if antenna == SHOE:
        # A card out of play (a premature or redealt board card) comes out again only after
        # it was mixed back into the stub; any other card already out is a double read.
        # The card just drawn cannot come out again at once: that is the reader seeing it twice.
        if (where is None or where is Where.VOID) and uid != hand.board.last_drawn:
            draw(table, hand, uid)
    elif antenna in BOARD_ANTENNAS:
        streets.board_read(table, hand, uid, where, position=int(antenna[5:]))
    elif antenna == BURN:
        if where is None or where == Where.VOID:
            draw(table, hand, uid)
    elif antenna.startswith("seat"):
        _seat_read(table, hand, int(antenna[4:]), uid, where)


def _unknown_tag(table: TableState, event: Read) -> None:
    """A tag no enrolled deck knows. Out of the shoe during a hand it is a card the table cannot
    see: it takes its place in the count like any card (so the cards after it are not ruled on
    as if it were absent) and the dealer is alarmed at once to look at it (its back decides,
    Irregularities 3). Anywhere else, or between hands, it is a notice for the operator."""
    hand = table.hand
    if event.antenna != SHOE or hand is None or hand.phase in HAND_OVER:
        table.notice(NoticeKind.UNKNOWN_TAG,
                     f"unknown tag {event.uid} on antenna {event.antenna}: not in any enrolled deck")
        return
    if event.uid not in table.cards:  # a stand-in card, `?1`, `?2`...: its face is unknown
        unknown = sum(1 for c in table.cards.values() if is_unknown(c.card))
        table.cards[event.uid] = CardInfo(card=f"{UNKNOWN_PREFIX}{unknown + 1}", deck=table.in_play or "",
                                          back=table.back)
    seat: int | None = None
    if hand.phase is Phase.DEALING and hand.seats:
        seat = hand.seats[hand.dealt.next_slot % len(hand.seats)]
    elif hand.phase is Phase.BETTING and hand.street is Street.PREFLOP and hand.dealt.owed:
        seat = hand.dealt.owed[0][0]
    counted = (f"seat {seat}'s hole card" if seat is not None
               else "the next card out for the board: a burn or, once it lands on the board, a board card")
    table.ruling(RulingKind.UNKNOWN_CARD, RuleKey.UNKNOWN_CARD, cause=Cause.UNKNOWN_TAG, uid=event.uid, seat=seat,
                 fill={"antenna": event.antenna, "uid": event.uid, "counted": counted})
    draw(table, hand, event.uid)
    hand.board.last_drawn = event.uid


def draw(table: TableState, hand: Hand, uid: str) -> None:
    """A card came out of the shoe: a hole card, a replacement, an extra card, a burn or a board card."""
    if hand.where.get(uid) == Where.VOID:
        streets.forget_burn(hand, uid)
    hand.board.last_drawn = uid
    card = table.cards[uid].card
    if hand.phase is Phase.DEALING:
        dealt, seats = hand.dealt, hand.positions.deal_order
        seat = seats[dealt.next_slot % len(seats)]
        dealt.slots[dealt.next_slot] = uid
        dealt.next_slot += 1
        dealt.hole[seat].append(uid)
        hand.where[uid] = Where.HOLE
        if is_joker(card):
            dealt.jokers[seat] = uid
            dealt.owed.append((seat, uid))
            table.ruling(RulingKind.SCRAP_CARD, RuleKey.JOKER, cause=Cause.JOKER, seat=seat, uid=uid)
        if dealt.next_slot == len(dealt.slots):
            betting.start_round(table, hand, Street.PREFLOP)
        return
    if hand.phase is Phase.BETTING and hand.street is Street.PREFLOP and hand.dealt.owed:
        _deliver_owed(table, hand, uid)
        return
    if hand.phase is Phase.BETTING and hand.round_complete():
        betting.close_round(table, hand)
    if hand.phase is Phase.BETTING:
        if hand.street is Street.PREFLOP and hand.betting.preflop_actions == 0 and not hand.board.loose:
            _extra_card(table, hand, uid)
        else:
            hand.board.loose.append(uid)
            hand.where[uid] = Where.BURN
        return
    if hand.phase is Phase.BOARD and hand.board.deal is not None:
        hand.board.deal.shoe.append(uid)
        hand.where[uid] = Where.BURN  # until it lands on the board


def _deliver_owed(table: TableState, hand: Hand, uid: str) -> None:
    seat, replaces = hand.dealt.owed.pop(0)
    hand.dealt.hole[seat].append(uid)
    hand.where[uid] = Where.HOLE
    if replaces is not None and replaces in hand.dealt.hole[seat]:
        hand.dealt.hole[seat].remove(replaces)
        if hand.dealt.jokers.get(seat) == replaces:
            del hand.dealt.jokers[seat]
            hand.where[replaces] = Where.SCRAP
        else:  # an exposed card: it becomes the burn for the flop
            streets.credit_burn(hand, Street.FLOP, replaces)


def _extra_card(table: TableState, hand: Hand, uid: str) -> None:
    hand.dealt.extra.append(uid)
    first = hand.seats[0]
    if len(hand.dealt.extra) == 1:
        table.ruling(RulingKind.EXTRA_CARD, RuleKey.EXTRA_CARD, seat=first, uid=uid)
        streets.credit_burn(hand, Street.FLOP, uid)
    else:
        hand.where[uid] = Where.VOID
        misdeals.misdeal_or_late(table, hand, RuleKey.TWO_EXTRA, Cause.TWO_EXTRA, seat=first, uid=uid)


def deal_interrupted(table: TableState, hand: Hand) -> bool:
    """A player acted before every seat had two cards; True when the deal can be completed."""
    missing = len(hand.dealt.slots) - hand.dealt.next_slot
    fixable = table.rule(RuleKey.SHORT_CARD).number("fixable_short")
    short = [hand.seats[i % len(hand.seats)] for i in range(hand.dealt.next_slot, len(hand.dealt.slots))]
    if missing <= fixable:
        for seat in short:
            table.ruling(RulingKind.SHORT_CARD, RuleKey.SHORT_CARD, cause=Cause.WRONG_COUNT, seat=seat)
            hand.dealt.owed.append((seat, None))
        hand.dealt.next_slot = len(hand.dealt.slots)
        betting.start_round(table, hand, Street.PREFLOP)
        return True
    seats = ", ".join(str(s) for s in dict.fromkeys(short))
    misdeals.misdeal(table, hand, RuleKey.WRONG_COUNT, Cause.WRONG_COUNT, seat=short[0],
                     fill={"detail": f"action began with seats {seats} short of cards"})
    return False


def exposed_button(table: TableState, hand: Hand) -> None:
    uid = hand.board.last_drawn
    if uid is None:
        table.notice(NoticeKind.IGNORED, "exposed pressed before any card was dealt")
        return
    if hand.where.get(uid) == Where.HOLE and hand.street is Street.PREFLOP:
        exposed(table, hand, uid)
    else:
        table.notice(NoticeKind.IGNORED, f"{table.cards[uid].card} exposed while dealing the board: "
                                         "show it to all; it stays where it is")


def exposed(table: TableState, hand: Hand, uid: str) -> None:
    """A hole card exposed by the dealer (Misdeals 1(a)/(b), Hold'em 1, or the profile's own)."""
    hand.dealt.exposed += 1
    seat = hand.dealt.seat_of(uid)
    slot = hand.dealt.slot_of(uid)
    first_cards = table.rule(RuleKey.EXPOSED_FIRST_CARDS).number("first_cards")
    if slot is not None and slot < first_cards:
        misdeals.misdeal_or_late(table, hand, RuleKey.EXPOSED_FIRST_CARDS, Cause.EXPOSED_FIRST_CARDS, seat=seat,
                                 uid=uid, fill={"position": ORDINAL[slot]})
    elif hand.dealt.exposed >= 2:
        misdeals.misdeal_or_late(table, hand, RuleKey.TWO_EXPOSED, Cause.TWO_EXPOSED, seat=seat, uid=uid)
    else:
        table.ruling(RulingKind.EXPOSED_CARD, RuleKey.EXPOSED_CARD, seat=seat, uid=uid)
        if seat is not None:
            hand.dealt.owed.append((seat, uid))


def boxed_button(table: TableState, hand: Hand) -> None:
    uid = hand.board.last_drawn
    if uid is None:
        table.notice(NoticeKind.IGNORED, "boxed pressed before any card was drawn")
        return
    where = hand.where.get(uid)
    if where == Where.HOLE and hand.street is Street.PREFLOP:
        procedure = table.rule(RuleKey.BOXED_CARD).procedure
        if procedure == "as_exposed":
            exposed(table, hand, uid)
            return
        hand.dealt.boxed += 1
        seat = hand.dealt.seat_of(uid)
        if hand.dealt.boxed >= 2:
            misdeals.misdeal_or_late(table, hand, RuleKey.TWO_BOXED, Cause.TWO_BOXED, seat=seat, uid=uid)
            return
        table.ruling(RulingKind.BOXED_CARD, RuleKey.BOXED_CARD, seat=seat, uid=uid, street=Street.PREFLOP)
        _scrap_hole_card(table, hand, uid, seat)
        return
    street = hand.street
    procedure = table.rule(RuleKey.BOXED_CARD_BOARD).procedure
    table.ruling(RulingKind.BOXED_CARD, RuleKey.BOXED_CARD_BOARD, uid=uid, street=street)
    if procedure == "plays":
        return
    hand.dealt.boxed += 1
    hand.where[uid] = Where.SCRAP
    deal = hand.board.deal
    if deal is not None:
        for cards in (deal.shoe, deal.board):
            if uid in cards:
                cards.remove(uid)
    if uid in hand.board.loose:
        hand.board.loose.remove(uid)
    if uid in hand.board.cards:
        hand.board.cards.remove(uid)
    if hand.dealt.boxed >= 2 and hand.betting.window_open:
        misdeals.misdeal(table, hand, RuleKey.TWO_BOXED, Cause.TWO_BOXED, uid=uid)


def _scrap_hole_card(table: TableState, hand: Hand, uid: str, seat: int | None) -> None:
    """Irregularities 7: the boxed card is a scrap of paper; the next card takes its place."""
    hand.where[uid] = Where.SCRAP
    if seat is not None:
        hand.dealt.hole[seat].remove(uid)
    slot = hand.dealt.slot_of(uid)
    if slot is not None and hand.phase is Phase.DEALING and slot == hand.dealt.next_slot - 1:
        hand.dealt.slots[slot] = None
        hand.dealt.next_slot -= 1
    elif seat is not None:
        hand.dealt.owed.insert(0, (seat, None))


def _seat_read(table: TableState, hand: Hand, seat: int, uid: str, where: Where | None) -> None:
    if hand.phase not in (Phase.DEALING, Phase.BETTING) or hand.street is not Street.PREFLOP:
        return
    if seat not in hand.seats:
        misdeals.misdeal_or_late(table, hand, RuleKey.EMPTY_SEAT_DEALT, Cause.WRONG_COUNT, seat=seat, uid=uid)
        return
    if where != Where.HOLE:
        return
    owner = hand.dealt.seat_of(uid)
    if owner is None or owner == seat:
        return
    if hand.dealt.slot_of(uid) == 0:
        misdeals.misdeal_or_late(table, hand, RuleKey.FIRST_CARD_WRONG_SEAT, Cause.OUT_OF_SEQUENCE, seat=seat, uid=uid,
                                 fill={"expected": owner})
    else:
        misdeals.misdeal_or_late(table, hand, RuleKey.OUT_OF_SEQUENCE, Cause.OUT_OF_SEQUENCE, seat=seat, uid=uid,
                                 fill={"detail": f"the card for seat {owner} went to seat {seat}"})
