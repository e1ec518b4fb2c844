"""Chips: blinds and antes, the minimum bet and raise by profile, short all-ins, pots, side pots, odd chips."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware_py.core import RuleKey, RulingKind, Setup
from firmware_py.core.chips import HandChips, Problem, Stakes
from firmware_py.core.engine import TableCore
from firmware_py.session import read_session
from firmware_py.simulation.dealer import DealerBot
from tests.rules.table_driver import ALL_PROFILES, BLUE, PROFILES, RED, Table, kinds, only

INCREMENT = ("robert", "rpl", "wfp")  # a raise at least the previous bet or raise


def flop_table(profile: str, **stacks: int) -> Table:
    """Four seats (button 1) at 100/200, everyone called pre-flop, the flop out, seat 2 to act."""
    t = Table(profile)
    t.level(100, 200)
    t.stacks(**(stacks or {"s1": 10000, "s2": 10000, "s3": 10000, "s4": 10000}))
    t.clean_preflop()
    t.flop()
    return t


def test_sessions_without_stacks_keep_no_amounts() -> None:
    t = Table("robert")
    t.clean_preflop()
    snap = t.core.snapshot()
    assert snap.chips is None and snap.seat(2).stack is None


def test_blinds_and_antes_come_from_the_level_in_force() -> None:
    t = Table("robert")
    t.level(50, 100, ante=10)
    t.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    t.new_hand()
    t.deal()
    snap = t.core.snapshot()
    assert snap.chips is not None and snap.chips.pot == 4 * 10 + 50 + 100
    assert [snap.seat(s).stack for s in (1, 2, 3, 4)] == [990, 940, 890, 990]
    assert snap.chips.to_call == 100 and snap.chips.min_raise_to == 200


@pytest.mark.parametrize("profile", INCREMENT)
def test_betting_and_raising_min_raise_is_the_previous_raise(profile: str) -> None:
    t = flop_table(profile)
    t.press("check")
    t.bet("bet", 500)
    assert t.core.snapshot().chips.min_raise_to == 1000  # type: ignore[union-attr]
    assert t.bet("raise", 1000) == []
    assert t.core.snapshot().chips.min_raise_to == 1500  # type: ignore[union-attr]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_min_bet_is_the_big_blind(profile: str) -> None:
    t = flop_table(profile)
    ruling = only(t.bet("bet", 150))
    assert ruling.ruling is RulingKind.BET_TOO_SMALL and ruling.cause == "under_min_bet"
    assert ruling.rule == t.core.profile.rule(RuleKey.MIN_BET).cite  # type: ignore[union-attr]
    assert t.core.snapshot().seat(2).bet == 200  # brought up to the big blind


def test_upt_house_rules_raising_double_the_amount_faced() -> None:
    t = flop_table("upt")
    t.press("check")
    t.bet("bet", 500)
    t.bet("raise", 2000)
    assert t.core.snapshot().chips.min_raise_to == 4000  # type: ignore[union-attr]  # the rulebook's example
    ruling = only(t.bet("raise", 3500))
    assert (ruling.ruling, ruling.rule) == (RulingKind.BET_TOO_SMALL, "upt: House Rules: Raising")
    assert t.core.snapshot().seat(1).bet == 4000


@pytest.mark.parametrize("profile", INCREMENT)
def test_robert_no_limit_a_short_allin_raises_the_base(profile: str) -> None:
    # rpl No-Limit Rules 4: bet 100, all in for 140: a raise is to at least 240. Here 400, 575.
    t = flop_table(profile, s1=10000, s2=10000, s3=10000, s4=775)
    t.press("check")
    t.bet("bet", 400)
    t.bet("allin")  # seat 4: 575 behind after the 200 blind call
    assert t.core.snapshot().chips.min_raise_to == 975  # type: ignore[union-attr]


def test_wfp_dealer_minimum_raise_after_a_short_allin_is_double_the_full_bet() -> None:
    # "A bet of 400 followed by an all in of 775, a minimum raise is 800."
    t = flop_table("wfp-dealer", s1=10000, s2=10000, s3=10000, s4=975)
    t.press("check")
    t.bet("bet", 400)
    t.bet("allin")  # seat 4: 775
    assert t.core.snapshot().chips.min_raise_to == 800  # type: ignore[union-attr]
    assert t.bet("raise", 800) == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_no_limit_3_a_short_allin_does_not_reopen_the_betting(profile: str) -> None:
    t = flop_table(profile, s1=10000, s2=10000, s3=10000, s4=700)
    t.press("check")
    t.bet("bet", 400)
    t.bet("allin")  # seat 4: 500
    t.bet("call")
    t.press("call")
    assert t.core.snapshot().chips.may_raise is False  # type: ignore[union-attr]
    ruling = only(t.bet("raise", 1200))
    assert ruling.ruling is RulingKind.RAISE_NOT_ALLOWED and ruling.seat == 3
    assert t.press("call") == [] and t.core.snapshot().phase == "board"  # seat 3's call closes the round


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_an_amount_over_the_stack_is_a_notice_and_not_taken(profile: str) -> None:
    t = flop_table(profile, s1=10000, s2=1000, s3=10000, s4=10000)
    assert t.bet("bet", 5000) == []
    assert any("has only 800" in n for n in t.notices)
    snap = t.core.snapshot()
    assert snap.to_act == 2 and snap.seat(2).stack == 800


def test_check_facing_a_bet_is_a_notice_and_not_taken() -> None:
    t = flop_table("robert")
    t.press("check")
    t.bet("bet", 500)
    t.press("check")
    assert t.core.snapshot().to_act == 4 and any("faces a bet of 500" in n for n in t.notices)


def test_misdeal_returns_the_blinds() -> None:
    t = Table("robert")
    t.level(50, 100)
    t.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    t.new_hand()
    t.deal(count=1)
    assert kinds(t.press("exposed")) == [RulingKind.MISDEAL]
    t.press("hand_end")
    t.new_hand()  # the redeal: blinds posted again from full stacks
    snap = t.core.snapshot()
    assert [snap.seat(s).stack for s in (1, 2, 3, 4)] == [1000, 950, 900, 1000]


def test_uncontested_pot_and_uncalled_bet_go_back_to_the_bettor() -> None:
    t = flop_table("robert")
    t.press("check")
    t.bet("bet", 1000)
    t.act("fold", "fold", "fold")
    snap = t.core.snapshot()
    assert snap.seat(3).stack == 10000 + 3 * 200  # the blinds and calls won; the bet came back
    t.press("hand_end")
    t.new_hand()
    assert t.core.snapshot().seat(3).stack == 10600 - 100  # stacks carry over; seat 3 is small blind now


def test_pots_by_levels_of_commitment() -> None:
    chips = HandChips(order=(2, 3, 4, 1), stacks={1: 5000, 2: 300, 3: 1000, 4: 2000}, blinds=(2, 3),
                      level=Stakes(small=50, big=100))
    for seat, name in ((4, "allin"), (1, "call"), (2, "allin"), (3, "allin")):
        chips.act(seat, name, None)
    assert [(p.amount, p.seats) for p in chips.pots()] == [(1200, (2, 3, 4, 1)), (2100, (3, 4, 1)),
                                                           (2000, (4, 1))]
    pots = chips.award(lambda seats: [max(seats, key=lambda s: -s)])  # lowest seat number wins each
    assert [p.winners for p in pots] == [(1,), (1,), (1,)] and chips.final_stacks()[1] == 8300


def test_ties_odd_chips_one_each_to_the_first_winners_clockwise() -> None:
    chips = HandChips(order=(2, 3, 4, 1), stacks=dict.fromkeys((1, 2, 3, 4), 100), blinds=(2, 3),
                      level=Stakes(small=1, big=2))
    for seat, name in ((4, "call"), (1, "call"), (2, "call"), (3, "check")):
        chips.act(seat, name, None)
    chips.end_round()
    chips.act(4, "fold", None)  # 8 chips in, three seats left: 2 each and two odd chips
    pots = chips.award(list)
    assert pots[0].odd_chips == (2, 3) and dict(pots[0].shares) == {2: 3, 3: 3, 1: 2}


def test_rpl_ties_4d_each_pot_is_named_apart_from_its_amount() -> None:
    """RPL Ties 4(d): each pot is split separately, and the ruling says how each went. A pot's number and
    its amount are kept apart ("side pot 1 of 375"), never side by side ("side pot 1 375" reads as 1,375)."""
    core = TableCore(PROFILES)
    session = Path(__file__).parents[1] / "sessions" / "split_side_pot_rpl.jsonl"
    remedies = [ruling.remedy for _line, event in read_session(session) for ruling in core.feed(event).rulings
                if ruling.ruling is RulingKind.SHOWDOWN]
    assert len(remedies) == 1
    pots = "Pots: main pot of 1,100 to seat 3 (1,100); side pot 1 of 375 to seat 4 (200) and seat 1 (175)."
    assert pots in remedies[0]


def test_problem_kinds_are_never_exceptions() -> None:
    chips = HandChips(order=(2, 1), stacks={1: 100, 2: 100}, blinds=(1, 2), level=Stakes(small=1, big=2))
    assert chips.act(1, "raise", 1000).problem is Problem.OVER_STACK
    assert chips.act(1, "raise", 2).problem is Problem.NOT_ABOVE_BET
    assert chips.act(1, "raise", 3).problem is Problem.UNDER_MINIMUM


def test_stacks_given_between_hands_apply_over_the_last_hands_result() -> None:
    # Regression: a rebuy after a settled hand was overwritten by that hand's final stacks.
    t = flop_table("robert")
    t.press("check")
    t.bet("bet", 1000)
    t.act("fold", "fold", "fold")
    t.press("hand_end")
    t.stacks(s2=5000)
    t.new_hand()
    snap = t.core.snapshot()
    assert snap.seat(2).stack == 5000 and snap.seat(3).stack == 10600 - 100  # seat 3 small blind now


def test_a_blind_that_takes_the_whole_stack_is_all_in_and_never_asked_to_act() -> None:
    # Regression: a big blind posting its last chips was still given the action.
    t = Table("robert")
    t.level(50, 100)
    t.stacks(s1=1000, s2=1000, s3=80, s4=1000)
    t.new_hand()
    t.deal()
    assert t.core.snapshot().seat(3).state == "allin"
    t.act("call", "call", "call")  # seats 4, 1, 2: the round is complete without seat 3
    assert t.core.snapshot().phase == "board"


def test_undo_takes_back_a_raise_and_its_chips() -> None:
    t = flop_table("robert")
    t.press("check")
    t.bet("bet", 700)
    assert t.core.snapshot().seat(3).stack == 10000 - 200 - 700
    t.press("undo")
    snap = t.core.snapshot()
    assert snap.seat(3).stack == 10000 - 200 and snap.to_act == 3 and snap.chips.pot == 800  # type: ignore[union-attr]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_the_dealer_bot_betting_amounts_draws_no_chip_ruling_or_notice(profile: str) -> None:
    """The simulated dealer's amounts are legal in every profile, rulebook errors and all."""
    bot = DealerBot(rng=random.Random(5), deck=RED, other_deck=BLUE, profile=PROFILES[profile],
                    seats=(1, 2, 3, 4, 5), button=1, error_rate=0.3, stack=2000)
    core = TableCore(PROFILES)
    core.feed(Setup(t=0.0, profile=profile, seats=(1, 2, 3, 4, 5), button=1, decks=(RED, BLUE), in_play=RED.name))
    rulings, notices = [], []
    for hand in bot.session(60):
        for event in hand.events:
            outcome = core.feed(event)
            rulings += [r.ruling for r in outcome.rulings]
            notices += [n.message for n in outcome.notices]
    assert RulingKind.SHOWDOWN in rulings
    assert not {RulingKind.BET_TOO_SMALL, RulingKind.RAISE_NOT_ALLOWED} & set(rulings)
    chip_words = ("not taken", "no chips", "not awarded", "no stack")
    assert not [n for n in notices if any(word in n for word in chip_words)]

