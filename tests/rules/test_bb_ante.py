"""The big-blind ante and short blinds: who posts what, live and dead money, pots, the short-blind ruling."""

from __future__ import annotations

import pytest

from firmware_py.core import RuleKey, RulingKind
from firmware_py.core.chips import HandChips, Stakes
from tests.rules.table_driver import ALL_PROFILES, Table

BBA = Stakes(small=100, big=200, bb_ante=200)


def test_bb_ante_is_posted_by_the_big_blind_for_the_table() -> None:
    t = Table("wfp")
    t.level(100, 200, bb_ante=200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    assert t.new_hand() == []
    t.deal()
    snap = t.core.snapshot()
    assert snap.chips is not None and snap.chips.pot == 100 + 200 + 200
    assert [snap.seat(s).stack for s in (1, 2, 3, 4)] == [10000, 9900, 9600, 10000]
    # The ante is dead money: not the big blind's bet; the bet to call is the big blind.
    assert snap.seat(3).bet == 200 and snap.chips.to_call == 200 and snap.chips.min_raise_to == 400
    assert snap.seat(3).last_action == "big blind 200 + ante 200"
    assert snap.chips.level == "100/200 BB ante 200"


def test_bb_ante_the_big_blind_checks_its_option_for_its_blind_only() -> None:
    t = Table("robert")
    t.level(100, 200, bb_ante=200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.clean_preflop()  # calls round to the big blind's check: the ante is not a bet anyone matches
    snap = t.core.snapshot()
    assert snap.chips is not None and snap.chips.pot == 4 * 200 + 200
    assert [snap.seat(s).stack for s in (1, 2, 3, 4)] == [9800, 9800, 9600, 9800]


def test_bb_ante_everyone_folds_the_big_blind_takes_blinds_and_its_ante() -> None:
    t = Table("robert")
    t.level(100, 200, bb_ante=200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.act("fold", "fold", "fold")
    assert [t.core.snapshot().seat(s).stack for s in (1, 2, 3, 4)] == [10000, 9900, 10100, 10000]


def test_heads_up_the_big_blind_posts_the_bb_ante() -> None:
    chips = HandChips(order=(2, 1), stacks={1: 5000, 2: 5000}, blinds=(1, 2), level=BBA)
    assert chips.behind == {1: 4900, 2: 4600} and chips.dead == {2: 200}


@pytest.mark.parametrize("profile", [p for p in ALL_PROFILES if p != "rpl"])  # (RPL Tournaments 19: below)
def test_tournament_short_blind_big_blind_first_then_ante(profile: str) -> None:
    # WFP Tournament Procedures 15, UPT Tournaments 19: action on what is left. Blind first, then the
    # ante from what is left (TDA practice): 300 chips post the 200 blind and 100 of the 200 ante.
    t = Table(profile)
    t.level(100, 200, bb_ante=200)
    t.stacks(s1=10000, s2=10000, s3=300, s4=10000)
    rulings = t.new_hand()
    assert [r.ruling for r in rulings] == [RulingKind.SHORT_BLIND]
    ruling = rulings[0]
    assert ruling.seat == 3 and ruling.rule == t.core.profile.rule(RuleKey.SHORT_BLIND).cite  # type: ignore[union-attr]
    assert "big blind 200, big-blind ante 100 of 200" in ruling.remedy and "300" in ruling.remedy
    t.deal()
    snap = t.core.snapshot()
    assert snap.seat(3).stack == 0 and snap.seat(3).bet == 200 and snap.seat(3).state == "allin"
    assert snap.chips is not None and snap.chips.to_call == 200


def test_wfp_tournament_15_short_big_blind_callers_call_a_full_big_blind() -> None:
    # wfp-dealer Minimum bets and raises: the big blind all in for 75 at 50/100, callers call 100;
    # the main pot is 75 from each caller, the big blind's 75 and the 50 small blind; the side pot 50.
    t = Table("wfp-dealer")
    t.level(50, 100)
    t.stacks(s1=1000, s2=1000, s3=75, s4=1000)
    assert [r.ruling for r in t.new_hand()] == [RulingKind.SHORT_BLIND]
    t.deal()
    assert t.core.snapshot().chips.to_call == 100  # type: ignore[union-attr]
    t.act("call", "call", "fold")  # seat 4 and the button call 100, the small blind folds
    pots = t.core.hand_chips.pots()  # type: ignore[union-attr]
    assert [(p.amount, p.seats) for p in pots] == [(275, (3, 4, 1)), (50, (4, 1))]


def test_bb_ante_is_dead_money_in_the_main_pot_whoever_is_all_in() -> None:
    # A player all in for 150 wins the whole 200 ante with the main pot (it matches no bet).
    chips = HandChips(order=(2, 3, 4, 1), stacks={1: 150, 2: 10000, 3: 10000, 4: 10000}, blinds=(2, 3), level=BBA)
    chips.act(4, "fold", None)
    chips.act(1, "allin", None)
    chips.act(2, "call", None)
    chips.act(3, "check", None)
    pots = chips.pots()
    assert [(p.amount, p.seats) for p in pots] == [(150 * 3 + 200, (2, 3, 1)), (100, (2, 3))]
    chips.award(lambda seats: [1] if 1 in seats else [2])
    assert chips.final_stacks()[1] == 650 and sum(chips.final_stacks().values()) == 30150


def test_short_bb_ante_is_dead_and_the_blind_is_live() -> None:
    # 250 chips: the 200 blind (live) and a 50 ante (dead). A caller matches the blind only.
    chips = HandChips(order=(2, 3, 1), stacks={1: 5000, 2: 5000, 3: 250}, blinds=(2, 3), level=BBA)
    assert chips.dead == {3: 50} and chips.street_bet[3] == 200 and chips.behind[3] == 0
    assert chips.short == {3: "big blind 200, big-blind ante 50 of 200"}
    chips.act(1, "call", None)
    chips.act(2, "call", None)
    assert [(p.amount, p.seats) for p in chips.pots()] == [(650, (2, 3, 1))]


def test_big_blind_short_of_its_blind_posts_no_ante() -> None:
    chips = HandChips(order=(2, 3, 1), stacks={1: 5000, 2: 5000, 3: 120}, blinds=(2, 3), level=BBA)
    assert chips.street_bet[3] == 120 and chips.dead == {3: 0} and chips.current == 200
    assert chips.short == {3: "big blind 120 of 200, big-blind ante 0 of 200"}


def test_short_small_blind_and_short_ante() -> None:
    chips = HandChips(order=(2, 3, 1), stacks={1: 30, 2: 40, 3: 5000}, blinds=(2, 3),
                      level=Stakes(small=50, big=100, ante=50))
    assert chips.short == {1: "ante 30 of 50", 2: "ante 40 of 50, small blind 0 of 50"}


def test_misdeal_returns_the_bb_ante() -> None:
    chips = HandChips(order=(2, 3, 1), stacks={1: 5000, 2: 5000, 3: 5000}, blinds=(2, 3), level=BBA)
    chips.refund()
    assert chips.final_stacks() == {1: 5000, 2: 5000, 3: 5000} and chips.dead == {}


def test_rpl_tournaments_19_no_chip_left_after_the_ante_is_eliminated() -> None:
    # "You must have at least 1 chip after posting ante's to be considered a live person in tournament. If a
    # player can't post ante & have 1 chip, they are eliminated and those chips will be put into the pot."
    t = Table("rpl")
    t.level(50, 100, ante=25)
    t.stacks(s1=25, s2=1000, s3=1000, s4=1000)
    (ruling,) = t.new_hand()
    assert (ruling.ruling, ruling.cause, ruling.seat) == (RulingKind.SHORT_BLIND, "no_chip_after_ante", 1)
    assert ruling.rule == "rpl: Betting and Raising 6; Tournaments 19" and "eliminated" in ruling.remedy
    t.deal()
    snap = t.core.snapshot()
    assert snap.seat(1).stack == 0 and snap.seat(1).state == "dead"
    assert snap.chips is not None and snap.chips.pot == 25 + 3 * 25 + 50 + 100
    t.act("call", "call", "check")  # seat 4, seat 2 (the small blind), seat 3: seat 1 never acts
    assert t.core.snapshot().seat(1).state == "dead"


def test_rpl_tournaments_19_the_big_blind_that_cannot_post_blind_and_ante_and_keep_a_chip() -> None:
    t = Table("rpl")
    t.level(100, 200, bb_ante=200)
    t.stacks(s1=5000, s2=5000, s3=400, s4=5000)
    (ruling,) = t.new_hand()
    assert (ruling.cause, ruling.seat) == ("no_chip_after_ante", 3)
    chips = t.core.hand_chips
    assert chips is not None and chips.dead == {3: 400} and chips.current == 200  # callers call a full big blind


@pytest.mark.parametrize("profile", ["robert", "upt", "wfp", "wfp-dealer"])
def test_the_other_books_deal_a_player_all_in_for_the_ante(profile: str) -> None:
    t = Table(profile)
    t.level(50, 100, ante=25)
    t.stacks(s1=20, s2=1000, s3=1000, s4=1000)
    (ruling,) = t.new_hand()
    assert (ruling.ruling, ruling.cause, ruling.seat) == (RulingKind.SHORT_BLIND, None, 1)
    assert "ante 20 of 25" in ruling.remedy
    t.deal()
    assert t.core.snapshot().seat(1).state == "allin"
