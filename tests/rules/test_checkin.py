"""Players checked in by their card: a deal to a seat whose drawn player is not at it, as each book rules it.

Four seats, the button on seat 1: seat 2 posts the small blind, seat 3 the big blind, seat 4 acts first before
the flop. The director's draw puts P1..P4 at seats 1..4; a player card read at a seat checks its player in there.
"""

from __future__ import annotations

import pytest

from firmware_py.core import Cause, RulingKind
from tests.rules.table_driver import ALL_PROFILES, Table, kinds


def _table(profile: str, *, chips: bool = True) -> Table:
    t = Table(profile)
    if chips:
        t.level(100, 200)
        t.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
    t.draw(s1="P1", s2="P2", s3="P3", s4="P4")
    return t


def _all_in_but(t: Table, *absent: int) -> None:
    for seat in (1, 2, 3, 4):
        if seat not in absent:
            t.check_in(f"P{seat}", seat)


# -- every player at the drawn seat: nothing to rule ---------------------------------------------------------

@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_every_drawn_player_checked_in_at_the_seat_deals_without_a_ruling(profile: str) -> None:
    t = _table(profile)
    _all_in_but(t)
    t.new_hand()
    assert t.deal() == []
    assert t.core.snapshot().names == ((1, "Player P1"), (2, "Player P2"), (3, "Player P3"), (4, "Player P4"))


def test_a_table_without_a_draw_checks_no_seat() -> None:
    t = Table("wfp")
    t.new_hand()
    assert t.deal() == []


# -- WFP Tournament Procedures 8 / UPT Tournaments 13: dead once every player has a complete starting hand ---

@pytest.mark.parametrize(("profile", "cite"), [("wfp", "wfp: Tournament Procedures 8"),
                                               ("upt", "upt: Tournaments 13, 7")])
def test_wfp_8_upt_13_absent_player_hand_killed_after_dealing_each_player_a_starting_hand(
        profile: str, cite: str) -> None:
    t = _table(profile)
    _all_in_but(t, 3)  # seat 3, the big blind, has not checked in
    t.new_hand()
    assert t.deal(count=7) == []  # not yet: "by the time all players have their complete starting hands"
    ruling = t.deal(count=1)  # the eighth card: every hand complete
    assert kinds(ruling) == [RulingKind.DEAD_HAND]
    assert (ruling[0].seat, ruling[0].cause, ruling[0].rule) == (3, Cause.NOT_CHECKED_IN, cite)
    assert "P3 has not checked in" in ruling[0].remedy and "in the pot" in ruling[0].remedy
    snap = t.core.snapshot()
    assert snap.to_act == 4
    assert snap.chips is not None and snap.chips.pot == 300  # the big blind stays in the pot: dead money
    t.act("call", "call", "call")  # 4, 1, 2: the dead big blind has no option
    assert t.core.snapshot().phase.value == "board"


@pytest.mark.parametrize(("profile", "cite"), [("wfp", "wfp: Tournament Procedures 8, 10"),
                                               ("upt", "upt: Tournaments 13, 3")])
def test_wfp_10_upt_3_player_in_the_wrong_seat_change_of_seat_not_allowed_hand_dead(profile: str, cite: str) -> None:
    t = _table(profile)
    t.check_in("P1", 1)
    t.check_in("P2", 2)
    t.check_in("P3", 3)
    t.check_in("P4", 1)  # P4 sat down at seat 1, P1's seat: P1 has left it
    t.new_hand()
    rulings = sorted(t.deal(), key=lambda r: r.seat or 0)
    # P1 is at no seat now (its seat taken); P4 is at seat 1, not its own: both hands dead, citing the seat rule
    assert [(r.seat, r.cause, r.rule) for r in rulings] == [(1, Cause.NOT_CHECKED_IN, cite),
                                                            (4, Cause.WRONG_SEAT, cite)]
    assert "Player P4 (P4), checked in here, is drawn to seat 4" in rulings[0].remedy
    assert "P4 checked in at seat 1" in rulings[1].remedy
    assert t.core.snapshot().names[0] == (1, "Player P4")


@pytest.mark.parametrize("profile", ["wfp", "upt"])
def test_wfp_8_upt_13_player_checked_in_at_another_table_is_not_at_this_one(profile: str) -> None:
    t = _table(profile)
    _all_in_but(t, 2)
    t.check_in("P2", 6, table="t05")  # the room: P2's card was read at table t05, seat 6
    t.new_hand()
    ruling = t.deal()
    assert [(r.ruling, r.seat, r.cause) for r in ruling] == [(RulingKind.DEAD_HAND, 2, Cause.WRONG_TABLE)]
    assert "P2 checked in at table t05 seat 6" in ruling[0].remedy


def test_upt_7_absent_player_posts_blinds_and_antes_then_hand_dead() -> None:
    t = Table("upt")
    t.level(100, 200, ante=25)
    t.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
    t.draw(s1="P1", s2="P2", s3="P3", s4="P4")
    _all_in_but(t, 2)
    t.new_hand()
    assert [r.seat for r in t.deal()] == [2]
    snap = t.core.snapshot()
    assert snap.chips is not None and snap.chips.pot == 100 + 200 + 4 * 25
    seat2 = next(v for v in snap.seats if v.seat == 2)
    assert seat2.stack == 5000 - 100 - 25


def test_a_player_who_checks_in_before_the_deal_is_complete_has_a_live_hand() -> None:
    t = _table("wfp")
    _all_in_but(t, 4)
    t.new_hand()
    t.deal(count=6)
    t.check_in("P4", 4)  # "must be at the table by the time all players have their complete starting hands"
    assert t.deal(count=2) == []


# -- RPL Tournaments 12 / WFP dealers' Be at Your Seat: dead when the action reaches the seat --------------

@pytest.mark.parametrize(("profile", "cite"), [("rpl", "rpl: Tournaments 12, 4"),
                                               ("wfp-dealer", "wfp-dealer: Be at Your Seat / Absent Player")])
def test_rpl_12_wfp_dealer_be_at_your_seat_hand_dead_when_the_action_reaches_the_absent_player(
        profile: str, cite: str) -> None:
    t = _table(profile)
    _all_in_but(t, 1)  # seat 1, the button, is away
    t.new_hand()
    assert t.deal() == []  # dealt in: the blinds posted "as if seated"
    ruling = t.act("call")  # seat 4 calls: the action reaches seat 1, whose player is away
    assert [(r.ruling, r.seat, r.cause, r.rule) for r in ruling] == [
        (RulingKind.DEAD_HAND, 1, Cause.NOT_CHECKED_IN, cite)]
    assert t.core.snapshot().to_act == 2


@pytest.mark.parametrize("profile", ["rpl", "wfp-dealer"])
def test_rpl_12_wfp_dealer_be_at_your_seat_even_the_big_blind_is_dead_at_its_turn(profile: str) -> None:
    t = _table(profile)
    _all_in_but(t, 3)
    t.new_hand()
    t.deal()
    assert t.act("call", "call") == []  # 4 and 1; the small blind still to act
    ruling = t.act("call")  # seat 2 completes: the big blind's option comes, and its player is not there
    assert [(r.ruling, r.seat) for r in ruling] == [(RulingKind.DEAD_HAND, 3)]
    assert "even if the player is the big blind" in ruling[0].remedy or profile == "rpl"
    assert t.core.snapshot().phase.value == "board"  # the round is complete


@pytest.mark.parametrize("profile", ["rpl", "wfp-dealer"])
def test_rpl_12_a_player_back_before_the_action_reaches_the_seat_plays_the_hand(profile: str) -> None:
    t = _table(profile)
    _all_in_but(t, 1)
    t.new_hand()
    t.deal()
    t.check_in("P1", 1)  # back from the bar before seat 4 acted
    assert t.act("call", "call", "call", "check") == []


def test_rpl_tournaments_15_wrong_seat_cites_the_seat_change_rule_at_the_turn() -> None:
    t = _table("rpl")
    _all_in_but(t, 4)
    t.check_in("P4", 3, name="Bo")  # P4 sits in P3's seat, and P3's card was read there before: P3 left it
    t.new_hand()
    t.deal()
    dead = [r for r in t.rulings if r.ruling is RulingKind.DEAD_HAND]
    assert [(r.seat, r.cause, r.rule) for r in dead] == [(4, Cause.WRONG_SEAT, "rpl: Tournaments 12, 15; Seating 1")]


# -- Robert's Misdeals 1(i), (j): not present and posted nothing: not entitled, a misdeal -----------------

def test_robert_misdeals_1i_cards_dealt_to_a_player_not_entitled_to_a_hand_misdeal() -> None:
    t = _table("robert")
    _all_in_but(t, 4)  # seat 4 posts no blind
    t.new_hand()
    ruling = t.deal()
    assert [(r.ruling, r.seat, r.cause, r.rule) for r in ruling] == [
        (RulingKind.MISDEAL, 4, Cause.NOT_CHECKED_IN, "robert: Misdeals 1(i), (j)")]
    assert "reshuffle" in ruling[0].remedy
    snap = t.core.snapshot()
    assert snap.chips is not None and snap.chips.pot == 0  # the blinds given back


def test_robert_misdeals_1j_absent_player_who_posted_a_blind_is_entitled_and_the_hand_plays() -> None:
    t = _table("robert")
    _all_in_but(t, 3)  # the big blind is away, its blind posted
    t.new_hand()
    ruling = t.deal()
    assert [(r.ruling, r.seat) for r in ruling] == [(RulingKind.PLAYER_ABSENT, 3)]
    assert "entitled" in ruling[0].remedy
    assert t.core.snapshot().to_act == 4


# -- the check-in itself -------------------------------------------------------------------------------------

def test_a_player_card_at_the_shoe_between_hands_seats_the_player_at_the_drawn_seat() -> None:
    t = _table("wfp")
    t.check_in("P3", None, name="Ann Lee")
    assert (3, "Ann Lee") in t.core.snapshot().names
    assert "check-in: seat 3 is Ann Lee (P3)" in t.notices


def test_a_player_card_at_the_shoe_during_the_deal_is_not_taken() -> None:
    t = _table("wfp")
    _all_in_but(t)
    t.new_hand()
    t.deal(count=2)
    outcome = t.core.feed(__import__("firmware_py.core", fromlist=["CheckIn"]).CheckIn(
        t=t.tick(), player="P3", name="Ann"))
    assert outcome.refused is not None and "read at the shoe during hand 1" in outcome.refused


def test_a_player_not_in_the_draw_at_the_shoe_is_not_taken() -> None:
    t = _table("wfp")
    t.check_in("P9", None)
    assert any("P9) is not in this table's draw" in n for n in t.notices)
    assert t.core.snapshot().names == ()


def test_the_draw_and_the_check_ins_survive_a_restore_into_a_new_core() -> None:
    t = _table("wfp")
    _all_in_but(t, 2)
    saved = t.core.save()
    fresh = Table("wfp")
    fresh.core.restore(saved)
    fresh.new_hand()
    assert [(r.seat, r.cause) for r in fresh.deal()] == [(2, Cause.NOT_CHECKED_IN)]
