"""Misdeals and the misdeal window: a misdeal while it is open, the profile's remedy once it closed, a void hand."""

from __future__ import annotations

from collections.abc import Mapping

from firmware_py.core import betting
from firmware_py.core.hand import Hand
from firmware_py.core.rulings import Ruling, RulingKind
from firmware_py.core.seating import first_positions
from firmware_py.core.snapshot import Phase
from firmware_py.core.state import TableState
from firmware_py.core.vocab import Cause, RuleKey


def button_out_of_position(table: TableState, hand: Hand, button: int) -> None:
    corrected = first_positions(button, table.occupied)
    rule = table.rule(RuleKey.BUTTON_OUT_OF_POSITION)
    if hand.betting.window_open:
        misdeal(table, hand, RuleKey.BUTTON_OUT_OF_POSITION, Cause.BUTTON_OUT_OF_POSITION, seat=button)
        table.redeal = corrected
        return
    table.emit(Ruling(t=table.t, ruling=RulingKind.MISDEAL_TOO_LATE, cause=Cause.BUTTON_OUT_OF_POSITION,
                      seat=button, rule=f"{rule.source}: {rule.word('too_late_rule')}",
                      remedy=rule.word("too_late_remedy")))
    table.corrected = corrected  # the next hand moves on from the right positions


def misdeal(table: TableState, hand: Hand, key: RuleKey, cause: Cause, *, seat: int | None = None,
            uid: str | None = None, fill: Mapping[str, object] | None = None) -> None:
    table.ruling(RulingKind.MISDEAL, key, cause=cause, seat=seat, uid=uid, fill=fill)
    _refund(table)
    hand.phase = Phase.MISDEALT
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
        betting.after_action(table, hand)


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
    hand.phase = Phase.MISDEALT
    hand.betting.to_act = None
    table.redeal = table.redeal or hand.positions


def _refund(table: TableState) -> None:
    if table.chips.hand is not None and not table.chips.hand.settled:
        table.chips.hand.refund()
