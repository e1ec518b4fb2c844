"""The hand's phase changes, in one module below the handlers: a betting round opened and closed, the
next street due, the hand left uncontested, a misdeal, a void hand, a misdeal called too late, and
burns credited to a street.

The handlers (flow.py, shoe.py, streets.py, betting.py) call down into this module and never into each
other; it calls down into showdown.py only (tests/test_core_layers.py checks both).
"""

from __future__ import annotations

from collections.abc import Mapping

from firmware_py.core import showdown
from firmware_py.core.board import NEXT_STREET, UNKNOWN_BURN, StreetDeal
from firmware_py.core.hand import Hand
from firmware_py.core.phase import BETTING, BOARD, IN_PLAY, MISDEALT, SHOWDOWN
from firmware_py.core.rulings import PREFLOP, RIVER, Ruling, RulingKind, Street
from firmware_py.core.state import TableState
from firmware_py.core.vocab import VOID, Cause, RuleKey

# -- betting rounds ---------------------------------------------------------------------------


def start_round(table: TableState, hand: Hand, street: Street) -> None:
    hand.phase = BETTING
    hand.street = street
    betting = hand.betting
    betting.acted = set()
    betting.round_actions = 0
    betting.round_closed = False
    betting.declared = {}
    betting.no_raise = {}
    betting.posted = set()
    betting.round_start = len(betting.taken)
    hand.board.loose = []
    betting.to_act = hand.first_to_act()
    if street is not PREFLOP:
        betting.window_open = False
    if street is not PREFLOP and hand.one_can_act():
        betting.round_closed = True  # no betting possible: everyone else is all in
        betting.to_act = None
        if street is RIVER and len(hand.live()) > 1:
            close_round(table, hand)  # all in and the board complete: the hands are read now


def after_action(table: TableState, hand: Hand) -> None:
    """A seat left the hand (folded, dead, gone): the pot may be uncontested, or the round complete."""
    if uncontested(table, hand):
        return
    if hand.phase is BETTING and hand.betting.round_actions and hand.round_complete():
        close_round(table, hand)  # everyone has acted since the last bet: the round is done


def uncontested(table: TableState, hand: Hand) -> bool:
    """One hand left: the pot goes to it (True), or the hand is at its showdown already (True)."""
    if hand.phase not in IN_PLAY:
        return hand.phase is SHOWDOWN
    if hand.contested():  # asked after every action: the common answer first
        return False
    hand.phase = SHOWDOWN  # the pot goes to the last hand; there is no showdown to read
    hand.betting.to_act = None
    hand.clock = None
    showdown.award(table, hand, None)
    return True


def close_round(table: TableState, hand: Hand) -> None:
    hand.betting.round_closed = True
    if table.chips.hand is not None:
        table.chips.hand.end_round()
    hand.board.last_drawn = None  # a card reshuffled into the stub may be the next one out
    hand.betting.to_act = None
    hand.clock = None
    if hand.street is RIVER:
        showdown.showdown(table, hand)
        return
    if hand.street is PREFLOP:
        hand.betting.window_open = False
        _owed_at_flop(table, hand)
        if hand.phase is not BETTING:
            return
    street = NEXT_STREET[hand.street]
    expected, credited = hand.board.burns.take(street)
    deal = StreetDeal(street, expected, list(credited))  # (street, expected_burns, burns): by position, see events.py
    deal.shoe.extend(hand.board.loose)  # a burn drawn before the round was declared done
    hand.board.loose = []
    hand.board.deal = deal
    hand.phase = BOARD
    hand.street = street
    hand.board.premature = None


def _owed_at_flop(table: TableState, hand: Hand) -> None:
    """Seats still short a card when the flop comes: their hands are dead (or a misdeal)."""
    for seat, _replaces in list(hand.dealt.owed):
        if hand.betting.window_open:
            misdeal(table, hand, RuleKey.WRONG_COUNT, Cause.WRONG_COUNT, seat=seat,
                    fill={"detail": f"seat {seat} has the wrong number of cards"})
            return
        table.ruling(RulingKind.DEAD_HAND, RuleKey.WRONG_COUNT_DEAD, cause=Cause.WRONG_COUNT, seat=seat)
        hand.betting.dead.add(seat)
    hand.dealt.owed = []
    uncontested(table, hand)


# -- misdeals and the misdeal window: a misdeal while it is open, the profile's remedy once it closed --


def misdeal(table: TableState, hand: Hand, key: RuleKey, cause: Cause, *, seat: int | None = None,
            uid: str | None = None, fill: Mapping[str, object] | None = None) -> None:
    table.ruling(RulingKind.MISDEAL, key, cause=cause, seat=seat, uid=uid, fill=fill)
    _refund(table)
    hand.phase = MISDEALT
    hand.betting.to_act = None
    hand.clock = None
    table.redeal = table.redeal or hand.positions


def too_late(table: TableState, hand: Hand, cause: Cause, *, seat: int | None, uid: str | None = None) -> None:
    assert table.profile is not None
    window = table.profile.window
    card = table.cards[uid].card if uid is not None and uid in table.cards else None
    dead_seat = seat if window.too_late_hand_dead else None
    table.emit(Ruling(t=table.t, ruling=RulingKind.MISDEAL_TOO_LATE, cause=cause, seat=dead_seat, card=card,
                      rule=window.cite, remedy=window.too_late_remedy))
    if dead_seat is not None:
        hand.betting.dead.add(dead_seat)
        after_action(table, hand)


def misdeal_or_late(table: TableState, hand: Hand, key: RuleKey, cause: Cause, *, seat: int | None,
                    uid: str | None = None, fill: Mapping[str, object] | None = None) -> None:
    if hand.betting.window_open:
        misdeal(table, hand, key, cause, seat=seat, uid=uid, fill=fill)
    else:
        too_late(table, hand, cause, seat=seat, uid=uid)


def void(table: TableState, hand: Hand, key: RuleKey, cause: Cause, *, uid: str,
         fill: Mapping[str, object] | None = None) -> None:
    table.ruling(RulingKind.VOID_HAND, key, cause=cause, uid=uid, fill=fill)
    _refund(table)
    hand.phase = MISDEALT
    hand.betting.to_act = None
    table.redeal = table.redeal or hand.positions


def _refund(table: TableState) -> None:
    if table.chips.hand is not None and not table.chips.hand.settled:
        table.chips.hand.refund()


# -- burns credited to a street ---------------------------------------------------------------


def forget_burn(hand: Hand, uid: str) -> None:
    """A card out of play came out of the shoe again: where it goes now is what counts.

    If it is the burn it was credited as, the street counts it from the shoe instead.
    """
    hand.board.burns.forget(uid, hand.board.deal)


def credit_burn(hand: Hand, street: Street, uid: str) -> None:
    hand.board.burns.credit(street, uid)
    if uid != UNKNOWN_BURN:
        hand.where[uid] = VOID
