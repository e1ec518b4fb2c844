"""A hand folded in error given back: the `retrieve` press names the seat, and the core rules from its own record
(the seat's cards by their tags, every action since the fold) whether the profile's book allows it.

A handler: route.py calls it. `[rules.retrieve] procedure` is the book's: `no_significant_action` (the WFP
dealers: identifiable and no call or raise since), `identifiable` (Robert's Dead Hands 2 and the books from it:
a clearly identifiable hand, at management's discretion, which the press is), `never` (RPL: mucked cards are not
retrieved from the pile). Undo is not retrieval: a retrieve press is journaled as any other, and undone as one.
"""

from __future__ import annotations

from firmware_py.core.cards import UNKNOWN_PREFIX
from firmware_py.core.hand import Hand
from firmware_py.core.phase import BETTING, BOARD, DEALING
from firmware_py.core.rulings import Ruling, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import RuleKey

SIGNIFICANT = ("call", "bet", "raise")  # "'Significant Action' is when any player calls or raises" (wfp-dealer)


def retrieve(table: TableState, hand: Hand, seat: int | None) -> None:
    betting = hand.betting
    if seat is None:  # the dealer's panel names no seat: the last hand folded
        seat = next((t.seat for t in reversed(betting.taken) if t.word == "fold" and t.seat in betting.folded), None)
        if seat is None:
            table.refuse("retrieve: no hand has been folded in this hand; not taken")
            return
    if seat not in hand.positions.deal_order or seat not in betting.folded:
        table.refuse(f"retrieve: seat {seat} has not folded in this hand; not taken")
        return
    rule = table.rule(RuleKey.RETRIEVE)
    cards = [table.cards[uid].card for uid in hand.dealt.hole.get(seat, ()) if uid in table.cards]
    fold = _fold_index(hand, seat)
    since = hand.betting.taken[fold + 1:] if fold is not None else []
    significant = [t for t in since if t.word in SIGNIFICANT]
    refusal: str | None = None
    if rule.procedure == "never":
        refusal = "the hand went into the muck"
    elif hand.phase not in (DEALING, BETTING, BOARD):
        refusal = "the hand is over"
    elif len(cards) != hand.game.hole_cards or any(c.startswith(UNKNOWN_PREFIX) for c in cards):
        refusal = f"the table does not know all {hand.game.hole_cards} of its cards, so they are not identifiable"
    elif rule.procedure == "no_significant_action" and significant:
        acts = ", ".join(f"seat {t.seat} {t.word}" for t in significant)
        refusal = f"there was significant action since the fold ({acts})"
    if refusal is not None:
        table.emit(Ruling(t=table.t, ruling=RulingKind.RETRIEVAL_REFUSED, seat=seat,
                          rule=f"{rule.source}: {rule.word('refused_rule')}",
                          remedy=rule.word("refused_remedy").format(seat=seat, detail=refusal)))
        return
    # The cards are face down: the ruling says the table knows them, never which they are (it is shown and heard).
    detail = f"the table knows its {len(cards)} cards by their tags"
    if since:
        detail += "; since the fold: " + ", ".join(f"seat {t.seat} {t.word}" for t in since)
    table.ruling(RulingKind.HAND_RETRIEVED, RuleKey.RETRIEVE, seat=seat, fill={"detail": detail})
    betting.folded.discard(seat)
    betting.acted.discard(seat)
    chips = table.chips.hand
    if chips is not None:
        chips.out.discard(seat)  # its chips count for the pots again
        chips.last.pop(seat, None)
        chips.acted_at.pop(seat, None)  # its options are those it had before the fold
    if hand.phase is BETTING and (betting.to_act is None or (since == [] and fold is not None
                                                             and hand.betting.taken[fold].street is hand.street)):
        betting.to_act = seat  # the fold was the last action: the turn is the seat's again


def _fold_index(hand: Hand, seat: int) -> int | None:
    for index in range(len(hand.betting.taken) - 1, -1, -1):
        taken = hand.betting.taken[index]
        if taken.seat == seat and taken.word == "fold":
            return index
    return None
