"""The board and its burns: board cards landing, a street complete, burns judged, premature and extra cards.

A handler: route.py calls it; it deals through deal.py and changes the phase through transitions.py.
"""

from __future__ import annotations

from typing import Final

from firmware_py.core import deal as dealing
from firmware_py.core import transitions
from firmware_py.core.board import (
    NEXT_STREET,
    POSITION_STREET,
    STREET_ORDER,
    UNKNOWN_BURN,
    StreetDeal,
)
from firmware_py.core.cards import is_joker
from firmware_py.core.events import BOARD_ANTENNAS, Gone
from firmware_py.core.hand import Hand
from firmware_py.core.phase import BETTING, BOARD, DEALING, MISDEALT, SHOWDOWN
from firmware_py.core.rulings import FLOP, PREFLOP, TURN, NoticeKind, RulingKind, Street
from firmware_py.core.state import TableState
from firmware_py.core.vocab import BOARD as ON_BOARD  # where a card is (BOARD here is the phase)
from firmware_py.core.vocab import BURN, HOLE, SCRAP, VOID, Cause, RuleKey, Where

PREMATURE_RULES: Final = {Street.FLOP: RuleKey.PREMATURE_FLOP, Street.TURN: RuleKey.PREMATURE_TURN,
                   Street.RIVER: RuleKey.PREMATURE_RIVER}
# Where a card is when a board antenna seeing it again changes nothing: it never left, or it is out of play.
READ_AGAIN: Final = frozenset({Where.BOARD, Where.VOID, Where.SCRAP})
BURN_RULES: Final = {  # (missing, on the flop): the flop's burn may be ruled on apart from the turn's and river's
    (True, True): RuleKey.BURN_MISSING_FLOP, (True, False): RuleKey.BURN_MISSING,
    (False, True): RuleKey.BURN_EXTRA_FLOP, (False, False): RuleKey.BURN_EXTRA,
}


def board_read(table: TableState, hand: Hand, uid: str, where: Where | None, *, position: int) -> None:
    """A card seen on the board antenna at `position` (1-3 the flop, 4 the turn, 5 the river)."""
    deal = hand.board.deal
    if deal is not None and uid in deal.lifted:
        deal.lifted.remove(uid)  # it flickered, or was put back: nothing changed
        return
    if where in READ_AGAIN:
        return  # a card that never left, read again
    if deal is not None and deal.lifted and hand.before_action_on(deal) and where != HOLE \
            and not (uid in hand.board.loose and hand.one_can_act()):  # all in: the next street's card
        _replace_lifted(table, hand, deal, uid)
        return
    if where == HOLE:
        if hand.phase is DEALING or (hand.street is PREFLOP and hand.betting.preflop_actions == 0):
            hand.board.last_drawn = uid
            dealing.exposed(table, hand, uid)
        else:
            table.notice(NoticeKind.IGNORED, f"hole card {table.cards[uid].card} seen on the board antenna")
        return
    if hand.phase is DEALING:
        table.notice(NoticeKind.IGNORED, f"{table.cards[uid].card} on the board during the deal")
        return
    if where is None:  # (a void card returned above: antennas seeing it again are noise)
        dealing.draw(table, hand, uid, table.cards[uid].card, None)  # the shoe missed it: it came out all the same
        where = hand.where.get(uid)
        if hand.phase is MISDEALT or where not in (BURN, None):
            return
    if _ahead_of_its_street(hand, position):
        hand.board.early.append((uid, position))  # placed once the street before it is complete
        return
    # All in, no betting: a card with a burn drawn before it is the next street, not an extra card.
    runout = uid in hand.board.loose and hand.board.loose.index(uid) > 0 and hand.one_can_act()
    if uid in hand.board.loose:
        hand.board.loose.remove(uid)
    if hand.phase is BETTING and hand.round_complete():
        if (hand.board.deal is not None and hand.board.deal.street is hand.street
                and hand.betting.round_actions == 0 and not runout):
            _extra_board_card(table, hand, hand.board.deal, uid)
            return
        transitions.close_round(table, hand)
    if hand.phase is SHOWDOWN:
        return
    if hand.phase is BETTING:
        if (hand.board.deal is not None and hand.board.deal.street is hand.street
                and hand.betting.round_actions == 0):
            _extra_board_card(table, hand, hand.board.deal, uid)
        else:
            _premature(table, hand, uid)
        return
    deal = hand.board.deal
    if hand.phase is not BOARD or deal is None:
        return
    if uid not in deal.shoe:
        deal.shoe.append(uid)
    if is_joker(table.cards[uid].card):
        hand.where[uid] = SCRAP
        deal.shoe.remove(uid)
        table.ruling(RulingKind.SCRAP_CARD, RuleKey.JOKER_BOARD, cause=Cause.JOKER, uid=uid, street=deal.street)
        return
    transitions.forget_burn(hand, uid)  # a card counted as a burn that lands on the board is a board card
    deal.board.append(uid)
    hand.board.cards.append(uid)
    hand.where[uid] = ON_BOARD
    if len(deal.board) >= deal.needed:
        complete_street(table, hand, deal)


def complete_street(table: TableState, hand: Hand, deal: StreetDeal) -> None:
    # No betting on this street (all in): the dealer runs the next cards out at once, and a board
    # card read late may come after the next street's burn left the shoe. A card drawn after the
    # street's last board card was drawn is the next street's, not a second burn of this one.
    ahead = deal.drawn_after_board() if hand.one_can_act() else []
    for uid in ahead:
        deal.shoe.remove(uid)
    if len(deal.burn_cards()) < deal.expected_burns:
        _burn_ruling(table, hand, deal, missing=True)
    hand.board.settle = deal
    transitions.start_round(table, hand, deal.street)
    if ahead and hand.phase is BETTING:
        hand.board.loose.extend(ahead)
    early, hand.board.early = hand.board.early, []
    if early:  # a later street's card is down already: this street has settled, its burns are judged now
        judge_burns(table, hand, deal)
    for uid, position in early:  # the later street's cards that landed first, read now in their turn
        board_read(table, hand, uid, hand.where.get(uid), position=position)


def _ahead_of_its_street(hand: Hand, position: int) -> bool:
    """All in, the board run out: a card landed on a later street's position while the street being
    dealt still waits for a card (its read late: a reader dropped out for a moment). The positions
    say which street each card is; the order of the reads does not."""
    deal = hand.board.deal
    return (hand.phase is BOARD and deal is not None and len(deal.board) < deal.needed
            and STREET_ORDER[POSITION_STREET[position]] > STREET_ORDER[deal.street] and hand.one_can_act())


def judge_burns(table: TableState, hand: Hand, deal: StreetDeal) -> None:
    hand.board.settle = None
    if deal.judged or hand.phase is MISDEALT:
        return
    deal.judged = True
    burns = deal.burn_cards()
    for uid in burns:
        if hand.where.get(uid) != ON_BOARD:
            hand.board.burns.record(uid)
    if len(burns) < deal.expected_burns and not deal.missing_ruled:
        _burn_ruling(table, hand, deal, missing=True)
    elif len(burns) > deal.expected_burns:
        _burn_ruling(table, hand, deal, missing=False)


def _burn_ruling(table: TableState, hand: Hand, deal: StreetDeal, *, missing: bool) -> None:
    street = deal.street
    kind = RulingKind.BURN_MISSING if missing else RulingKind.BURN_EXTRA
    key = BURN_RULES[missing, street is FLOP]
    next_street = NEXT_STREET.get(street)
    table.ruling(kind, key, street=street, fill={"next_street": next_street or "next deal"})
    if missing:
        deal.missing_ruled = True
    elif next_street is not None:
        transitions.credit_burn(hand, next_street, UNKNOWN_BURN)


def _extra_board_card(table: TableState, hand: Hand, deal: StreetDeal, uid: str) -> None:
    """A board card beyond the street's count before anyone acted on it."""
    if deal.street is not FLOP:
        rule = table.rule(RuleKey.TURN_RIVER_TOO_MANY)
        if rule.procedure == "premature":
            _premature(table, hand, uid)
            return
        # One of the two goes back on the stub as the next street's burn; the dealer's pick
        # is whichever card leaves the board (its `gone`), else the last one turned.
        deal.extra.append(uid)
        if uid not in deal.shoe:
            deal.shoe.append(uid)
        table.ruling(RulingKind.TOO_MANY_CARDS, RuleKey.TURN_RIVER_TOO_MANY, uid=uid, street=deal.street)
        after = NEXT_STREET.get(deal.street)
        if after is not None:
            transitions.credit_burn(hand, after, uid)
        return
    deal.extra.append(uid)
    if uid not in deal.shoe:
        deal.shoe.append(uid)
    hand.where[uid] = ON_BOARD
    rule = table.rule(RuleKey.FLOP_TOO_MANY)
    table.ruling(RulingKind.FLOP_TOO_MANY, RuleKey.FLOP_TOO_MANY, uid=uid, street=FLOP)
    if rule.procedure == "next_burn":
        # One card goes on the stub as the turn's burn: the last one turned unless the dealer
        # lifts another off the board (its `gone` tells which).
        transitions.credit_burn(hand, TURN, uid)
        return
    # Redeal: the flop goes back into the stub; the burn stays; a new flop comes without a burn.
    for card_uid in [*deal.board, *deal.extra]:
        hand.where[card_uid] = VOID  # still on the felt until gathered; may come out again later
        if card_uid in hand.board.cards:
            hand.board.cards.remove(card_uid)
    kept = deal.burn_cards()
    hand.board.settle = None
    hand.board.last_drawn = None  # the flop goes back into the stub: any of it may be the next card out
    hand.board.deal = StreetDeal(street=FLOP, expected_burns=len(kept), burns=kept)
    hand.phase = BOARD
    hand.street = FLOP
    hand.betting.to_act = None


def _premature(table: TableState, hand: Hand, uid: str) -> None:
    """A board card before the betting round was complete: it does not play (Irr. 15/16)."""
    street = NEXT_STREET.get(hand.street)
    hand.where[uid] = VOID
    if street is None:
        table.notice(NoticeKind.IGNORED, f"{table.cards[uid].card} on the board after the river")
        return
    if hand.board.premature is street:
        # The rest of the same premature street: drawn before it landed, it is no burn.
        expected, credited = hand.board.burns.due[street]
        hand.board.burns.due[street] = (expected, [card for card in credited if card != uid])
        return
    hand.board.premature = street
    rule = table.rule(PREMATURE_RULES[street])
    burns = [card for card in hand.board.loose if card != uid]
    hand.board.loose = []
    hand.board.burns.due[street] = (rule.number("redeal_burns"), burns)
    after = NEXT_STREET.get(street)
    if after is not None:
        hand.board.burns.due[after] = (rule.number("next_street_burns"), [])
    table.ruling(RulingKind.PREMATURE_CARD, PREMATURE_RULES[street], uid=uid, street=street)


def _replace_lifted(table: TableState, hand: Hand, deal: StreetDeal, uid: str) -> None:
    """A board card was taken off before anyone acted and another put in its place.

    That is how a dealer corrects a missing burn (the card becomes the burn and the next card
    replaces it): the lifted card stays out as a burn.
    """
    lifted = deal.lifted.pop(0)
    if uid not in deal.shoe:
        deal.shoe.append(uid)
    deal.board[deal.board.index(lifted)] = uid
    hand.board.cards[hand.board.cards.index(lifted)] = uid
    hand.where[lifted] = BURN
    hand.where[uid] = ON_BOARD
    if deal.judged:
        hand.board.burns.record(lifted)  # judged already: record the new burn here
    if uid in hand.board.loose:
        hand.board.loose.remove(uid)


def gone(table: TableState, event: Gone) -> None:
    hand = table.hand
    if hand is None or event.antenna not in BOARD_ANTENNAS or hand.phase is not BETTING:
        return
    deal = hand.board.deal
    if deal is None or not hand.before_action_on(deal):
        return
    if not deal.extra:
        if event.uid in deal.board and event.uid not in deal.lifted:
            deal.lifted.append(event.uid)
        return
    after = NEXT_STREET.get(deal.street)
    if after is None:
        return
    expected, credited = hand.board.burns.due.get(after, (1, []))
    set_aside = [uid for uid in credited if uid in deal.extra]
    if event.uid in deal.board and set_aside:
        # The dealer picked this card for the next burn: the one set aside before plays.
        back_on_board = set_aside[-1]
        deal.board[deal.board.index(event.uid)] = back_on_board
        hand.board.cards[hand.board.cards.index(event.uid)] = back_on_board
        deal.extra[deal.extra.index(back_on_board)] = event.uid
        hand.where[back_on_board] = ON_BOARD
        hand.where[event.uid] = VOID
        hand.board.burns.due[after] = (expected, [event.uid if uid == back_on_board else uid for uid in credited])
