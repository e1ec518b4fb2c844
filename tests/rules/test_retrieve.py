"""A hand folded in error given back, as each book's retrieval sentence says: the `retrieve` press names the seat
and the core rules from its own record (the seat's cards by their tags, every action since the fold).

Four seats, the button on seat 1: seat 2 posts the small blind, seat 3 the big blind, seat 4 acts first before
the flop.
"""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind
from tests.rules.table_driver import Table

DEAD_HANDS_2 = {"robert": "robert: Dead Hands 2", "wfp": "wfp: Dead Hands 2", "upt": "upt: Dead Hands 2"}


def _dealt(profile: str) -> Table:
    t = Table(profile)
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal(["As", "Kd", "Qh", "Jc", "Ah", "Ks", "Qd", "Jh"])  # seat 2 holds As Ah, seat 3 Kd Ks, seat 4 Qh Qd...
    return t


# -- wfp-dealer "Mucked Cards / Unintentional Folds" --------------------------------------------------------

def test_wfp_dealer_folds_in_error_cards_identifiable_returned_if_no_significant_action_since() -> None:
    t = _dealt("wfp-dealer")
    t.act("fold")  # seat 4 folds in error (mistaken about the bet it faced)
    rulings = t.retrieve(4)
    assert [(r.ruling, r.seat, r.rule) for r in rulings] == [
        (RulingKind.HAND_RETRIEVED, 4, "wfp-dealer: Mucked Cards / Unintentional Folds")]
    assert "the table knows its 2 cards by their tags" in rulings[0].remedy
    assert "Qh" not in rulings[0].remedy and "Qd" not in rulings[0].remedy  # face down: never named
    snap = t.core.snapshot()
    assert 4 in t.core.live_seats() and snap.to_act == 4  # its turn again
    t.act("call", "call", "call", "check")  # the hand plays on with seat 4 in it
    assert t.core.snapshot().street == "flop"


def test_wfp_dealer_players_that_fold_are_not_significant_action() -> None:
    t = _dealt("wfp-dealer")
    t.act("fold", "fold")  # seat 4 folds, then seat 1 folds: neither is significant
    rulings = t.retrieve(4)
    assert [r.ruling for r in rulings] == [RulingKind.HAND_RETRIEVED]
    assert 4 in t.core.live_seats() and t.core.snapshot().to_act == 2


def test_wfp_dealer_folded_in_error_not_returned_after_significant_action_a_call() -> None:
    t = _dealt("wfp-dealer")
    t.act("fold", "call")  # seat 1 calls after seat 4's fold: significant action
    rulings = t.retrieve(4)
    assert [(r.ruling, r.seat) for r in rulings] == [(RulingKind.RETRIEVAL_REFUSED, 4)]
    assert rulings[0].rule == "wfp-dealer: Mucked Cards / Unintentional Folds; Misdeals / Button Errors"
    assert "seat 1 call" in rulings[0].remedy
    assert 4 not in t.core.live_seats()


def test_wfp_dealer_a_check_since_the_fold_is_not_significant_action_calls_or_raises_are() -> None:
    t = _dealt("wfp-dealer")
    t.act("call", "call", "call", "check")
    t.street(["2c", "7d", "9s"])
    t.act("fold", "check")  # seat 2 folds in error with no bet to face; seat 3 checks
    rulings = t.retrieve(2)
    assert [(r.ruling, r.seat) for r in rulings] == [(RulingKind.HAND_RETRIEVED, 2)]
    assert t.core.snapshot().to_act == 4
    t.act("check", "check")  # seats 4 and 1; then seat 2, back in, acts before the round closes
    assert t.core.snapshot().to_act == 2 and t.core.snapshot().street == "flop"
    t.act("check")
    assert t.core.snapshot().street != "flop" or t.core.snapshot().phase != "betting"


# -- Robert's, WFP, UPT Dead Hands 2: a clearly identifiable hand, at management's discretion ------------------

@pytest.mark.parametrize("profile", sorted(DEAD_HANDS_2))
def test_dead_hands_2_a_clearly_identifiable_hand_may_be_retrieved_and_ruled_live_at_managements_discretion(
        profile: str) -> None:
    t = _dealt(profile)
    t.act("fold", "call")  # a call since the fold: these books name no significant-action limit
    rulings = t.retrieve(4)
    assert [(r.ruling, r.seat, r.rule) for r in rulings] == [(RulingKind.HAND_RETRIEVED, 4, DEAD_HANDS_2[profile])]
    assert "clearly identifiable (the table knows its 2 cards by their tags; since the fold: seat 1 call)" in (
        rulings[0].remedy)
    assert 4 in t.core.live_seats()
    t.act("call", "check")  # seats 2 and 3; then the action is back on seat 4, which has not acted on the bet
    assert t.core.snapshot().to_act == 4
    t.act("call")
    assert t.core.snapshot().street == "flop"


@pytest.mark.parametrize("profile", sorted(DEAD_HANDS_2))
def test_dead_hands_2_the_hand_is_not_retrieved_once_the_hand_is_over(profile: str) -> None:
    t = _dealt(profile)
    t.act("fold", "fold", "fold")  # the big blind wins uncontested
    rulings = t.retrieve(4)
    assert [r.ruling for r in rulings] == [] or rulings[0].ruling is RulingKind.RETRIEVAL_REFUSED
    assert 4 not in t.core.live_seats()


# -- RPL The Deal 5 --------------------------------------------------------------------------------------

def test_rpl_the_deal_5_mucked_cards_can_not_be_retrieved_from_the_pile() -> None:
    t = _dealt("rpl")
    t.act("fold")
    rulings = t.retrieve(4)
    assert [(r.ruling, r.seat, r.rule) for r in rulings] == [
        (RulingKind.RETRIEVAL_REFUSED, 4, "rpl: The Deal 5; Dead Hands 2")]
    assert 4 not in t.core.live_seats()


# -- the press itself ------------------------------------------------------------------------------------

def test_retrieve_a_seat_that_has_not_folded_is_not_taken() -> None:
    t = _dealt("wfp-dealer")
    assert t.retrieve(2) == []
    assert any("seat 2 has not folded" in n for n in t.notices)


def test_undo_is_not_retrieval_an_undone_fold_and_a_retrieval_both_stay_in_the_journal() -> None:
    t = _dealt("wfp-dealer")
    t.act("fold")
    t.retrieve(4)
    t.press("undo")  # takes back the retrieve press: the fold stands again
    assert 4 not in t.core.live_seats()
    names = [getattr(e, "name", None) for e in t.fed]
    assert names[-3:] == ["fold", "retrieve", "undo"]  # every press is fed (and journaled), the undo too


def test_wfp_dealer_a_hand_folded_mistaken_about_the_bet_is_returned_with_all_its_options() -> None:
    """"This often happens when the player folds when mistaken about the amount of a bet he is facing.\""""
    t = _dealt("wfp-dealer")
    t.bet("raise", 600)  # seat 4
    t.act("fold")  # seat 1, mistaken about the raise
    assert [r.ruling for r in t.retrieve(1)] == [RulingKind.HAND_RETRIEVED]
    assert t.core.snapshot().to_act == 1
    assert t.bet("raise", 1800) == []  # it may raise, as before its fold
    snap = t.core.snapshot()
    assert snap.seat(1).bet == 1800 and snap.seat(1).state == "active" and snap.to_act == 2


def test_retrieve_from_the_dealers_panel_names_no_seat_and_gives_back_the_hand_folded_last() -> None:
    t = _dealt("wfp-dealer")
    t.act("fold", "fold")  # seats 4 and 1
    rulings = t.press("retrieve")
    assert [(r.ruling, r.seat) for r in rulings] == [(RulingKind.HAND_RETRIEVED, 1)]
