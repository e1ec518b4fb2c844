"""The dealer's buttons on the deal and the cards seen at the seats: a deal interrupted, exposed and
boxed cards pressed, a card that no deck knows, and a hole card at the wrong seat.

A handler: route.py calls it; it deals through deal.py and changes the phase through transitions.py.
"""

from __future__ import annotations

from firmware_py.core import deal, transitions
from firmware_py.core.cards import UNKNOWN_PREFIX, is_unknown
from firmware_py.core.events import SHOE, Read
from firmware_py.core.hand import CardInfo, Hand
from firmware_py.core.phase import BETTING, DEALING, HAND_OVER
from firmware_py.core.rulings import PREFLOP, NoticeKind, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import HOLE, SCRAP, Cause, RuleKey, Where


def unknown_tag(table: TableState, event: Read) -> None:
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
        stand_in = CardInfo(card=f"{UNKNOWN_PREFIX}{unknown + 1}", deck=table.in_play or "", back=table.back)
        table.cards = {**table.cards, event.uid: stand_in}  # a new dict: the undo checkpoints share the old one
    seat: int | None = None
    if hand.phase is DEALING and hand.seats:
        seat = hand.seats[hand.dealt.next_slot % len(hand.seats)]
    elif hand.phase is BETTING and hand.street is PREFLOP and hand.dealt.owed:
        seat = hand.dealt.owed[0][0]
    counted = (f"seat {seat}'s hole card" if seat is not None
               else "the next card out for the board: a burn or, once it lands on the board, a board card")
    table.ruling(RulingKind.UNKNOWN_CARD, RuleKey.UNKNOWN_CARD, cause=Cause.UNKNOWN_TAG, uid=event.uid, seat=seat,
                 fill={"antenna": event.antenna, "uid": event.uid, "counted": counted})
    deal.draw(table, hand, event.uid, table.cards[event.uid].card, hand.where.get(event.uid))
    hand.board.last_drawn = event.uid


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
        transitions.start_round(table, hand, PREFLOP)
        return True
    seats = ", ".join(str(s) for s in dict.fromkeys(short))
    transitions.misdeal(table, hand, RuleKey.WRONG_COUNT, Cause.WRONG_COUNT, seat=short[0],
                     fill={"detail": f"action began with seats {seats} short of cards"})
    return False


def exposed_button(table: TableState, hand: Hand) -> None:
    uid = hand.board.last_drawn
    if uid is None:
        table.refuse("exposed pressed before any card was dealt")
        return
    if hand.where.get(uid) == HOLE and hand.street is PREFLOP:
        deal.exposed(table, hand, uid)
    else:
        table.notice(NoticeKind.IGNORED, f"{table.cards[uid].card} exposed while dealing the board: "
                                         "show it to all; it stays where it is")


def boxed_button(table: TableState, hand: Hand) -> None:
    uid = hand.board.last_drawn
    if uid is None:
        table.refuse("boxed pressed before any card was drawn")
        return
    where = hand.where.get(uid)
    if where == HOLE and hand.street is PREFLOP:
        procedure = table.rule(RuleKey.BOXED_CARD).procedure
        if procedure == "as_exposed":
            deal.exposed(table, hand, uid)
            return
        hand.dealt.boxed += 1
        seat = hand.dealt.seat_of(uid)
        if hand.dealt.boxed >= 2:
            transitions.misdeal_or_late(table, hand, RuleKey.TWO_BOXED, Cause.TWO_BOXED, seat=seat, uid=uid)
            return
        table.ruling(RulingKind.BOXED_CARD, RuleKey.BOXED_CARD, seat=seat, uid=uid, street=PREFLOP)
        _scrap_hole_card(table, hand, uid, seat)
        return
    street = hand.street
    procedure = table.rule(RuleKey.BOXED_CARD_BOARD).procedure
    table.ruling(RulingKind.BOXED_CARD, RuleKey.BOXED_CARD_BOARD, uid=uid, street=street)
    if procedure == "plays":
        return
    hand.dealt.boxed += 1
    hand.where[uid] = SCRAP
    street_deal = hand.board.deal
    if street_deal is not None:
        for cards in (street_deal.shoe, street_deal.board):
            if uid in cards:
                cards.remove(uid)
    if uid in hand.board.loose:
        hand.board.loose.remove(uid)
    if uid in hand.board.cards:
        hand.board.cards.remove(uid)
    if hand.dealt.boxed >= 2 and hand.betting.window_open:
        transitions.misdeal(table, hand, RuleKey.TWO_BOXED, Cause.TWO_BOXED, uid=uid)


def _scrap_hole_card(table: TableState, hand: Hand, uid: str, seat: int | None) -> None:
    """Irregularities 7: the boxed card is a scrap of paper; the next card takes its place."""
    hand.where[uid] = SCRAP
    if seat is not None:
        hand.dealt.hole[seat].remove(uid)
    slot = hand.dealt.slot_of(uid)
    if slot is not None and hand.phase is DEALING and slot == hand.dealt.next_slot - 1:
        hand.dealt.slots[slot] = None
        hand.dealt.next_slot -= 1
    elif seat is not None:
        hand.dealt.owed.insert(0, (seat, None))


def seat_read(table: TableState, hand: Hand, seat: int, uid: str, where: Where | None) -> None:
    if hand.phase not in (DEALING, BETTING) or hand.street is not PREFLOP:
        return
    if seat not in hand.seats:
        transitions.misdeal_or_late(table, hand, RuleKey.EMPTY_SEAT_DEALT, Cause.WRONG_COUNT, seat=seat, uid=uid)
        return
    if where != HOLE:
        return
    owner = hand.dealt.seat_of(uid)
    if owner is None or owner == seat:
        return
    if hand.dealt.slot_of(uid) == 0:
        transitions.misdeal_or_late(table, hand, RuleKey.FIRST_CARD_WRONG_SEAT, Cause.OUT_OF_SEQUENCE, seat=seat,
                                    uid=uid, fill={"expected": owner})
    else:
        transitions.misdeal_or_late(table, hand, RuleKey.OUT_OF_SEQUENCE, Cause.OUT_OF_SEQUENCE, seat=seat, uid=uid,
                                    fill={"detail": f"the card for seat {owner} went to seat {seat}"})
