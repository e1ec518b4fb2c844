"""The shot clock, as each book's clock sentence says: who may call it, how long, its warnings and count, and
what time running out does to the hand.

Four seats, the button on seat 1: seat 2 posts the small blind, seat 3 the big blind, seat 4 acts first before
the flop. Time arrives as `tick` events (`Table.wait`), as the daemon posts them.
"""

from __future__ import annotations

import pytest

from firmware_py.core import Cause, RulingKind
from tests.rules.table_driver import Table

NO_LIMIT_CLOCKS = {  # profile: (its clock sentence, its dead-hand sentence)
    "wfp": ("wfp: No-Limit 13", "wfp: Dead Hands 1(e)"),
    "robert": ("robert: No-Limit 16", "robert: Dead Hands 1(f)"),
    "upt": ("upt: No-Limit 16", "upt: Dead Hands 1(d)"),
    "rpl": ("rpl: No-Limit Rules 14", "rpl: Dead Hands 1(e)"),
}


def _dealt(profile: str, *, chips: bool = True) -> Table:
    t = Table(profile)
    if chips:
        t.level(100, 200)
        t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    return t


def _clock_notices(t: Table) -> list[str]:
    return [n for n in t.notices if n.startswith("Clock on seat")]


# -- wfp-dealer "Clock" -----------------------------------------------------------------------------------

def test_wfp_dealer_clock_any_player_dealt_in_even_one_who_folded_may_call_clock() -> None:
    t = _dealt("wfp-dealer")
    t.act("fold")  # seat 4 folds; seat 1 is to act
    t.clock(4)  # "Any player who was dealt into a hand, even those that already folded, can call 'Clock'"
    clock = t.core.snapshot().clock
    assert clock is not None and (clock.seat, clock.called_by, clock.seconds) == (1, 4, 30)
    assert clock.rule == "wfp-dealer: Clock"
    assert "called by seat 4" in _clock_notices(t)[0]


def test_wfp_dealer_clock_the_dealer_can_also_call_clock() -> None:
    t = _dealt("wfp-dealer")
    t.clock()
    clock = t.core.snapshot().clock
    assert clock is not None and clock.seat == 4 and clock.called_by is None
    assert "called by the dealer" in _clock_notices(t)[0]


def test_clock_called_by_a_seat_not_dealt_in_is_not_taken() -> None:
    t = _dealt("wfp-dealer")
    t.seat(5, "in")  # seat 5 sits down during the hand: not dealt in
    t.clock(5)
    assert t.core.snapshot().clock is None
    assert any("not dealt into this hand" in n for n in t.notices)


def test_wfp_dealer_clock_30_seconds_warnings_at_20_and_10_and_a_countdown_of_the_last_5() -> None:
    t = _dealt("wfp-dealer")
    t.clock(2)
    t.wait(29.5)
    said = [n.split(": ", 1)[1] for n in _clock_notices(t)[1:]]
    assert said == ["20 seconds (wfp-dealer: Clock)", "10 seconds (wfp-dealer: Clock)", "5", "4", "3", "2", "1"]
    assert t.core.snapshot().clock is not None  # not dead before the 30 seconds


def test_wfp_dealer_clock_if_the_player_does_nothing_his_hand_will_be_dead_when_time_runs_out() -> None:
    t = _dealt("wfp-dealer")
    t.clock(2)
    rulings = t.wait(31)
    assert [(r.ruling, r.cause, r.seat, r.rule) for r in rulings] == [
        (RulingKind.DEAD_HAND, Cause.CLOCK_EXPIRED, 4, "wfp-dealer: Clock")]
    snap = t.core.snapshot()
    assert snap.clock is None and snap.to_act == 1  # the action moves on past the dead hand


def test_wfp_dealer_clock_the_hand_is_dead_when_the_dealer_says_dead_even_if_the_player_acts_then() -> None:
    t = _dealt("wfp-dealer")
    t.clock(2)
    t.wait(29)
    t.t += 1.5  # the press comes after the 30 seconds, before the next tick
    rulings = t.act("call")
    assert [(r.ruling, r.seat) for r in rulings] == [(RulingKind.DEAD_HAND, 4)]
    assert t.core.snapshot().to_act == 1 and t.core.action_count == 0  # the call was not taken


def test_wfp_dealer_clock_dead_even_with_no_bet_to_call() -> None:
    t = _dealt("wfp-dealer", chips=False)
    t.act("call", "call", "call", "check")  # preflop done; the flop
    t.street(["Ah", "Kd", "Qs"])
    t.clock()
    rulings = t.wait(31)
    assert [(r.ruling, r.seat) for r in rulings] == [(RulingKind.DEAD_HAND, 2)]
    assert "with no bet to call" in rulings[0].remedy


def test_wfp_dealer_clock_saying_raise_does_not_stop_the_clock_and_no_amount_is_a_minimum_raise() -> None:
    t = _dealt("wfp-dealer")
    t.clock(2)
    t.wait(5)
    assert t.press("raise") == []  # "raise" with no amount: the clock runs on
    clock = t.core.snapshot().clock
    assert clock is not None and clock.raise_said
    rulings = t.wait(26)
    assert [(r.ruling, r.seat, r.amount) for r in rulings] == [(RulingKind.CLOCK_EXPIRED, 4, 400)]
    assert "minimum raise" in rulings[0].remedy
    assert t.core.snapshot().seat(4).bet == 400 and t.core.snapshot().to_act == 1


def test_the_clock_stops_when_the_player_acts() -> None:
    t = _dealt("wfp-dealer")
    t.clock(2)
    t.wait(12)
    t.act("call")
    assert t.core.snapshot().clock is None
    assert t.wait(30) == []


# -- WFP No-Limit 13, Robert's, UPT No-Limit 16, RPL No-Limit Rules 14: the house's time limit facing a bet --

@pytest.mark.parametrize("profile", sorted(NO_LIMIT_CLOCKS))
def test_no_limit_clock_facing_a_bet_one_additional_minute_a_ten_second_warning_then_the_hand_is_dead(
        profile: str) -> None:
    clock_rule, dead_rule = NO_LIMIT_CLOCKS[profile]
    t = _dealt(profile)
    t.clock(1)
    clock = t.core.snapshot().clock
    assert clock is not None and (clock.seconds, clock.warnings, clock.rule) == (60, (10.0,), clock_rule)
    assert t.wait(50.5) == []
    assert [n.split(": ", 1)[1] for n in _clock_notices(t)[1:]] == [f"10 seconds ({clock_rule})"]
    rulings = t.wait(10)
    assert [(r.ruling, r.cause, r.seat) for r in rulings] == [(RulingKind.DEAD_HAND, Cause.CLOCK_EXPIRED, 4)]
    assert rulings[0].rule == f"{dead_rule}; {clock_rule}"  # "you have the clock on you when facing a bet"


@pytest.mark.parametrize("profile", sorted(NO_LIMIT_CLOCKS))
def test_no_limit_clock_not_facing_a_bet_the_hand_is_checked_not_dead(profile: str) -> None:
    t = _dealt(profile, chips=False)
    t.act("call", "call", "call", "check")
    t.street(["Ah", "Kd", "Qs"])
    t.clock(4)
    rulings = t.wait(61)
    assert [(r.ruling, r.seat) for r in rulings] == [(RulingKind.CLOCK_EXPIRED, 2)]
    assert "checked" in rulings[0].remedy
    assert 2 in t.core.live_seats() and t.core.snapshot().to_act == 3


@pytest.mark.parametrize("profile", sorted(NO_LIMIT_CLOCKS))
def test_no_limit_clock_raise_said_without_an_amount_does_not_count_as_acting(profile: str) -> None:
    t = _dealt(profile)
    t.clock(1)
    t.press("raise")  # these books say nothing of "raise" alone: the press is a minimum raise, the clock stops
    assert t.core.snapshot().clock is None and t.core.snapshot().seat(4).bet == 400


def test_the_snapshot_carries_the_clock_who_and_seconds_left() -> None:
    t = _dealt("wfp-dealer")
    t.clock(3)
    t.wait(7)
    snap = t.core.snapshot()
    assert snap.clock is not None
    assert (snap.clock.seat, snap.clock.called_by) == (4, 3)
    assert snap.clock.left(snap.t) == pytest.approx(23.0, abs=0.6)


def test_undo_takes_back_a_clock_expiry_with_the_tick_that_caused_it() -> None:
    t = _dealt("wfp-dealer")
    t.clock(2)
    t.wait(31)
    assert 4 not in t.core.live_seats()
    t.press("undo")  # undo takes back the last press: the clock call; the ticks go with it
    assert 4 in t.core.live_seats() and t.core.snapshot().clock is None
