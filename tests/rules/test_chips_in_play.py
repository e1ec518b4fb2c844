"""Chips that exist: every split, odd chip, stack, blind, ante and amount in the smallest chip in play.

Ties in every book with the sentences (WFP Ties 3-5, Robert's Ties 3-5, RPL Ties 2-4; UPT's profile cites
Robert's, the WFP dealers' WFP's): "An odd chip will be broken down to the smallest unit used in the game",
"No player may receive more than one odd chip", and "the first hand clockwise from the button gets the odd
chip". The table knows its chips from the setup (`denominations`); a color-up takes the lowest off
(WFP Tournament Procedures 6, UPT Tournaments 11, RPL Tournaments 10).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_py.core import RulingKind, Setup
from firmware_py.core.chips import HandChips, Stakes
from firmware_py.core.rulings import Ruling
from tests.rules.table_driver import ALL_PROFILES, BLUE, RED, Table

CHIP_SET = (25, 100, 500, 1000)
BROADWAY = ["As", "Kh", "Qd", "Jc", "Ts"]  # a straight on the board: every hand still in splits
# (profile) -> (the order's cite, "broken down to the smallest unit", "no more than one"): each book's numbers
TIES = {
    "wfp": ("wfp: Ties 5(a)", "wfp: Ties 3", "wfp: Ties 4"),
    "wfp-dealer": ("wfp: Ties 5(a)", "wfp: Ties 3", "wfp: Ties 4"),  # the dealers' guidelines have no Ties
    "robert": ("robert: Ties 5(a)", "robert: Ties 3", "robert: Ties 4"),
    "upt": ("robert: Ties 5(a)", "robert: Ties 3", "robert: Ties 4"),  # UPT: Robert's Rules abbreviated
    "rpl": ("rpl: Ties 4(a)", "rpl: Ties 2", "rpl: Ties 3"),
}


def split_125(profile: str, denominations: tuple[int, ...] = CHIP_SET) -> Table:
    """Three seats (button 1) at 25/50: seat 1 calls, seat 2 folds its small blind, seat 3 checks, and the board
    plays: a pot of 125 split between seats 3 and 1 (first clockwise from the button: seat 3)."""
    t = Table(profile, seats=(1, 2, 3), denominations=denominations)
    t.reserved = set(BROADWAY)
    t.level(25, 50)
    t.stacks(s1=1000, s2=1000, s3=1000)
    t.new_hand()
    t.deal(["2c", "3c", "4d", "2d", "3d", "5d"])
    t.act("call", "fold", "check")
    t.flop(BROADWAY[:3])
    t.act("check", "check")
    t.turn(BROADWAY[3])
    t.act("check", "check")
    t.river(BROADWAY[4])
    t.act("check", "check")
    return t


def showdown(t: Table) -> Ruling:
    (ruling,) = [r for r in t.rulings if r.ruling is RulingKind.SHOWDOWN]
    return ruling


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_ties_an_odd_chip_will_be_broken_down_to_the_smallest_unit_used_in_the_game(profile: str) -> None:
    """125 in 25 chips between two: 75 and 50 (the odd 25 chip to the first clockwise from the button), never
    63 and 62: a 1 chip is no chip of this game."""
    t = split_125(profile)
    (pot,) = showdown(t).pots
    assert dict(pot.shares) == {3: 75, 1: 50} and pot.odd_chips == (3,) and pot.chip == 25
    assert pot.to_json()["chip"] == 25
    order, unit, one = TIES[profile]
    remedy = showdown(t).remedy
    assert "main pot (125) in 25 chips is 75 and 50, the odd 25 chip to seat 3" in remedy
    assert f"broken down to the smallest chip in play ({unit})" in remedy
    assert f"no player gets more than one ({one})" in remedy
    assert f"first winner clockwise from the button ({order})" in remedy
    assert t.core.hand_chips is not None and t.core.hand_chips.final_stacks() == {1: 1000, 2: 975, 3: 1025}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_ties_no_player_may_receive_more_than_one_odd_chip(profile: str) -> None:
    """200 in 25 chips among three: 8 chips, two odd: one each to the first two winners clockwise from the
    button (seats 2 and 3), none to the third; no player two."""
    t = Table(profile, denominations=CHIP_SET)
    t.reserved = set(BROADWAY)
    t.level(25, 50)
    t.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    t.new_hand()
    t.deal(["2c", "3c", "4c", "5c", "2d", "3d", "4d", "5d"])  # seats 2, 3, 4, 1
    t.act("call", "call", "call", "check")  # seat 4, seat 1, seat 2 completes, seat 3 checks: 200
    t.flop(BROADWAY[:3])
    t.act("check", "check", "fold", "check")  # seat 4 folds
    t.turn(BROADWAY[3])
    t.act("check", "check", "check")
    t.river(BROADWAY[4])
    t.act("check", "check", "check")
    (pot,) = showdown(t).pots
    assert dict(pot.shares) == {2: 75, 3: 75, 1: 50} and pot.odd_chips == (2, 3)
    assert "the odd 25 chips to seat 2 and seat 3" in showdown(t).remedy


def test_a_session_without_denominations_splits_in_single_units_as_it_always_did() -> None:
    t = split_125("wfp", denominations=())
    (pot,) = showdown(t).pots
    assert dict(pot.shares) == {3: 63, 1: 62} and pot.chip == 1 and "chip" not in pot.to_json()
    assert showdown(t).remedy.endswith("Odd chip to seat 3, first clockwise from the button (wfp: Ties 5(a)).")


def test_a_tournament_stack_of_13_at_25_50_is_a_chip_that_does_not_exist() -> None:
    t = Table("wfp", denominations=CHIP_SET)
    t.level(25, 50)
    t.stacks(s1=1500, s2=13, s3=1500, s4=1500)
    assert t.notices[-1] == ("stacks: seat 2's 13 is not made of the chips in play (the smallest is 25): not taken")
    assert t.core.snapshot().seat(2).stack is None and t.core.snapshot().seat(1).stack == 1500
    t.stacks(s2=1525)
    assert t.core.snapshot().seat(2).stack == 1525


def test_a_level_whose_blind_or_ante_no_chip_makes_up_is_not_taken() -> None:
    t = Table("upt", denominations=CHIP_SET)
    t.level(25, 50)
    t.level(50, 100, ante=10)
    assert "level: ante 10 is not made of the chips in play (the smallest is 25): not taken" in t.notices
    assert t.core.level is not None and (t.core.level.small, t.core.level.big) == (25, 50)


def test_an_amount_keyed_that_no_chips_in_play_make_up_is_not_taken() -> None:
    t = Table("robert", denominations=CHIP_SET)
    t.level(25, 50)
    t.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    t.new_hand()
    t.deal()
    t.bet("raise", 130)  # seat 4: 130 is no number of 25 chips
    assert t.notices[-1].startswith("raise 130: no chips in play make it up (the smallest is 25)")
    assert t.core.snapshot().to_act == 4
    t.bet("raise", 150)
    assert t.core.snapshot().seat(4).bet == 150


@pytest.mark.parametrize("profile", ["wfp", "upt", "rpl"])
def test_a_color_up_removes_the_lowest_denomination_and_the_next_split_is_in_the_next_chip(profile: str) -> None:
    """WFP Tournament Procedures 6 / UPT Tournaments 11 / RPL Tournaments 10: "The lowest denomination of chip in
    play will be removed from the table". After the 25s go, the smallest chip is 100: a level of 50/100 names
    a chip no longer in play, and a pot splits in 100s."""
    t = Table(profile, seats=(1, 2, 3), denominations=CHIP_SET)
    t.stacks(s1=1000, s2=1000, s3=1000)
    t.race(25, 100)  # every stack a whole number of 100s: no odd chips, nothing to race
    assert t.core.denominations == (100, 500, 1000)
    t.level(50, 100)
    assert t.notices[-1] == ("level: small blind 50 is not made of the chips in play (the smallest is 100): "
                             "not taken")
    t.level(100, 200)
    t.reserved = set(BROADWAY)
    t.new_hand()
    t.deal(["2c", "3c", "4d", "2d", "3d", "5d"])
    t.act("call", "fold", "check")  # a pot of 500: seats 3 and 1 split it in 100 chips
    t.flop(BROADWAY[:3])
    t.act("check", "check")
    t.turn(BROADWAY[3])
    t.act("check", "check")
    t.river(BROADWAY[4])
    t.act("check", "check")
    (pot,) = showdown(t).pots
    assert dict(pot.shares) == {3: 300, 1: 200} and pot.chip == 100


def test_a_race_for_a_chip_that_is_not_the_lowest_in_play_is_not_taken() -> None:
    t = Table("wfp", denominations=CHIP_SET)
    t.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    t.race(100, 500)
    assert "race: the 100 chip is not the lowest in play" in t.notices[-1]
    assert t.core.denominations == CHIP_SET and not t.core.racing


def test_the_race_of_the_odd_25s_leaves_every_stack_in_100s() -> None:
    """UPT Tournaments 11: the odd 25s raced for 100s; afterwards every stack is made of the chips in play."""
    t = Table("upt", denominations=CHIP_SET)
    t.stacks(s1=1075, s2=2050, s3=1000, s4=1025)
    t.race(25, 100)  # odd chips: seat 1 three, seat 2 two, seat 4 one: six cards
    for card in ("2c", "Kd", "5h", "Ks", "3d", "Ah"):
        t.read("shoe", card)
    stacks = {seat: t.core.snapshot().seat(seat).stack for seat in (1, 2, 3, 4)}
    assert all(stack is not None and stack % 100 == 0 for stack in stacks.values()), stacks
    assert t.core.denominations == (100, 500, 1000)


def test_a_setup_naming_chips_the_counted_stacks_are_not_made_of_says_so() -> None:
    """A table set up again with 25s the smallest chip, where a stack of 1,010 was counted before it knew its
    chips: the notice names the seat (the split of a pot no chip makes up falls back to single units)."""
    t = Table("robert")
    t.stacks(s1=1000, s2=1010, s3=1000, s4=1000)
    t._feed(Setup(t=t.tick(), profile="robert", seats=(1, 2, 3, 4), button=1, decks=(RED, BLUE), in_play="test-red",
                  denominations=(25, 100)))
    assert t.notices[-1] == ("setup: seat 2's 1,010: not made of the chips in play (the smallest is 25); "
                             "correct the stacks")
    assert t.core.denominations == (25, 100)


def test_a_pot_no_chips_in_play_make_up_splits_in_single_units_rather_than_losing_a_chip() -> None:
    chips = HandChips(order=(2, 1), stacks={1: 1000, 2: 1013}, blinds=(2, 1), level=Stakes(small=25, big=50),
                      unit=25)
    chips.act(2, "allin", None)
    chips.act(1, "allin", None)
    pots = chips.award(list)  # 2,000 called (80 chips of 25: 1,000 each) and 13 no one called
    assert [(pot.amount, dict(pot.shares), pot.chip) for pot in pots] == [(2000, {2: 1000, 1: 1000}, 25),
                                                                         (13, {2: 13}, 1)]
    assert sum(chips.final_stacks().values()) == 2013


@settings(max_examples=200, deadline=None)
@given(unit=st.sampled_from([1, 5, 25, 100]), seats=st.integers(2, 9), folds=st.integers(0, 7),
       calls=st.integers(1, 6))
def test_every_split_is_in_whole_chips_one_odd_chip_each_to_the_first_winners_clockwise(
        unit: int, seats: int, folds: int, calls: int) -> None:
    """Ties, as a property: any pot of chips split among any winners is whole chips of the smallest, shares differ
    by at most one chip, and the odd chips go one each to the first winners clockwise from the button."""
    order = (*range(2, seats + 1), 1)  # seat 1 the button: dealt last
    chips = HandChips(order=order, stacks=dict.fromkeys(order, 1000 * unit), blinds=(order[0], order[1]),
                      level=Stakes(small=unit, big=2 * unit), unit=unit)
    for seat in (*order[2:], *order[:2]):
        chips.act(seat, "call", None)
    chips.end_round()
    chips.act(order[0], "bet", calls * unit)
    folded = set(order[1: 1 + min(folds, seats - 2)])
    for seat in order[1:]:
        chips.act(seat, "fold" if seat in folded else "call", None)
    (pot,) = chips.award(list)
    shares = dict(pot.shares)
    assert sum(shares.values()) == pot.amount and all(share % unit == 0 for share in shares.values())
    assert max(shares.values()) - min(shares.values()) <= unit
    winners = [seat for seat in order if seat not in folded]
    odd = (pot.amount // unit) % len(winners)
    assert pot.odd_chips == tuple(winners[:odd]) and all(shares[s] > shares[winners[-1]] for s in pot.odd_chips)
