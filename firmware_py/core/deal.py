"""A card out of the shoe, wherever it goes (a hole card, one owed, an extra card, a burn, a board card),
and a hole card exposed in the deal.

Below the handlers: the shoe's reads (route.py), the board antennas (streets.py) and the dealer's
buttons (shoe.py) all deal through here; it calls down into transitions.py only.
"""

from __future__ import annotations

from firmware_py.core import transitions
from firmware_py.core.cards import JOKERS
from firmware_py.core.hand import Hand
from firmware_py.core.phase import BETTING, BOARD, DEALING
from firmware_py.core.rulings import FLOP, PREFLOP, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import BURN, HOLE, SCRAP, VOID, Cause, RuleKey, Where

ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")


def draw(table: TableState, hand: Hand, uid: str, card: str, where: Where | None) -> None:
    """A card came out of the shoe: a hole card, a replacement, an extra card, a burn or a board card.
    `card` is the tag's card and `where` the hand's place for it so far (the caller has both at hand)."""
    if where == VOID:
        transitions.forget_burn(hand, uid)
    hand.board.last_drawn = uid
    if hand.phase is DEALING:
        dealt, seats = hand.dealt, hand.positions.deal_order
        seat = seats[dealt.next_slot % len(seats)]
        dealt.slots[dealt.next_slot] = uid
        dealt.next_slot += 1
        dealt.hole[seat].append(uid)
        hand.where[uid] = HOLE
        if card in JOKERS:  # (cards.is_joker written out: asked of every hole card)
            dealt.jokers[seat] = uid
            dealt.owed.append((seat, uid))
            table.ruling(RulingKind.SCRAP_CARD, RuleKey.JOKER, cause=Cause.JOKER, seat=seat, uid=uid)
        if dealt.next_slot == len(dealt.slots):
            transitions.start_round(table, hand, PREFLOP)
        return
    if hand.phase is BETTING and hand.street is PREFLOP and hand.dealt.owed:
        _deliver_owed(table, hand, uid)
        return
    if hand.phase is BETTING and hand.round_complete():
        transitions.close_round(table, hand)
    if hand.phase is BETTING:
        if hand.street is PREFLOP and hand.betting.preflop_actions == 0 and not hand.board.loose:
            _extra_card(table, hand, uid)
        else:
            hand.board.loose.append(uid)
            hand.where[uid] = BURN
        return
    if hand.phase is BOARD and hand.board.deal is not None:
        hand.board.deal.shoe.append(uid)
        hand.where[uid] = BURN  # until it lands on the board


def _deliver_owed(table: TableState, hand: Hand, uid: str) -> None:
    seat, replaces = hand.dealt.owed.pop(0)
    hand.dealt.hole[seat].append(uid)
    hand.where[uid] = HOLE
    if replaces is not None and replaces in hand.dealt.hole[seat]:
        hand.dealt.hole[seat].remove(replaces)
        if hand.dealt.jokers.get(seat) == replaces:
            del hand.dealt.jokers[seat]
            hand.where[replaces] = SCRAP
        else:  # an exposed card: it becomes the burn for the flop
            transitions.credit_burn(hand, FLOP, replaces)


def _extra_card(table: TableState, hand: Hand, uid: str) -> None:
    hand.dealt.extra.append(uid)
    first = hand.seats[0]
    if len(hand.dealt.extra) == 1:
        table.ruling(RulingKind.EXTRA_CARD, RuleKey.EXTRA_CARD, seat=first, uid=uid)
        transitions.credit_burn(hand, FLOP, uid)
    else:
        hand.where[uid] = VOID
        transitions.misdeal_or_late(table, hand, RuleKey.TWO_EXTRA, Cause.TWO_EXTRA, seat=first, uid=uid)


def exposed(table: TableState, hand: Hand, uid: str) -> None:
    """A hole card exposed by the dealer (Misdeals 1(a)/(b), Hold'em 1, or the profile's own)."""
    hand.dealt.exposed += 1
    seat = hand.dealt.seat_of(uid)
    slot = hand.dealt.slot_of(uid)
    first_cards = table.rule(RuleKey.EXPOSED_FIRST_CARDS).number("first_cards")
    if slot is not None and slot < first_cards:
        transitions.misdeal_or_late(table, hand, RuleKey.EXPOSED_FIRST_CARDS, Cause.EXPOSED_FIRST_CARDS,
                                    seat=seat, uid=uid, fill={"position": ORDINAL[slot]})
    elif hand.dealt.exposed >= 2:
        transitions.misdeal_or_late(table, hand, RuleKey.TWO_EXPOSED, Cause.TWO_EXPOSED, seat=seat, uid=uid)
    else:
        table.ruling(RulingKind.EXPOSED_CARD, RuleKey.EXPOSED_CARD, seat=seat, uid=uid)
        if seat is not None:
            hand.dealt.owed.append((seat, uid))
