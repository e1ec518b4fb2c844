"""Action out of turn, stale presses and seats with no chips, in every profile as its rulebook says.

Four seats, the button on seat 1: seat 2 posts the small blind, seat 3 the big blind, seat 4 acts
first before the flop. A press naming a seat the action has not reached is an action out of turn.
"""

from __future__ import annotations

import pytest

from firmware_py.core import Button, ButtonName, Ruling, RulingKind
from firmware_py.simulation.export_check import check_events
from tests.rules.table_driver import ALL_PROFILES, PROFILES, Table

CITES = {
    "robert": "robert: Betting and Raising 10",
    "wfp": "wfp: Betting and Raising 7",
    "wfp-dealer": "wfp-dealer: Act in Turn, Know the Blinds",
    "upt": "upt: House Rules: Out Of Turn Bet; Betting and Raising 9",
    "rpl": "rpl: Betting and Raising 9; Betting 8",
}


class Recording(Table):
    """A test table that keeps every event it feeds, for the export."""

    def _feed(self, event: object) -> list[Ruling]:
        self.__dict__.setdefault("events", []).append(event)
        return super()._feed(event)


def _dealt(profile: str, kind: type[Table] = Table) -> Table:
    t = kind(profile)
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    return t


def _seat(t: Table, seat: int) -> tuple[int | None, int | None]:
    view = t.core.snapshot().seat(seat)
    return view.stack, view.bet


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_out_of_turn_action_is_ruled_with_the_profiles_rule_and_the_turn_stays(profile: str) -> None:
    t = _dealt(profile)
    rulings = t.press("raise", seat=1, amount=600)  # seat 4 is to act
    assert [r.ruling for r in rulings] == [RulingKind.ACTION_OUT_OF_TURN]
    assert rulings[0].rule == CITES[profile] and rulings[0].seat == 1
    assert "seat 4" in rulings[0].remedy
    snap = t.core.snapshot()
    assert snap.to_act == 4 and _seat(t, 1) == (10000, 0)  # nothing moved, no chips in yet
    assert t.core.action_count == 0


@pytest.mark.parametrize(("profile", "stands_as"), [
    ("robert", None), ("wfp", None), ("rpl", None),  # an intervening call changes the action
    ("upt", 400),  # binding unless a bet or raise; the house posts the minimum raise (double the 200 faced)
    ("wfp-dealer", 600),  # the out-of-turn raise stands as declared
])
def test_out_of_turn_raise_after_an_intervening_call(profile: str, stands_as: int | None) -> None:
    t = _dealt(profile)
    t.press("raise", seat=1, amount=600)
    t.press("call")  # seat 4
    snap = t.core.snapshot()
    if stands_as is None:
        assert snap.to_act == 1 and _seat(t, 1) == (10000, 0)
        assert any("not binding" in n for n in t.notices)
    else:
        assert _seat(t, 1) == (10000 - stands_as, stands_as) and snap.to_act == 2
        assert any("stands" in n for n in t.notices)


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_out_of_turn_action_is_binding_when_nobody_in_between_bets_calls_or_raises(profile: str) -> None:
    t = _dealt(profile)
    t.press("call", seat=1)
    t.press("fold")  # seat 4: a fold changes nothing
    assert _seat(t, 1) == (9800, 200) and t.core.snapshot().to_act == 2
    assert [a.seat for a in t.core.hand_actions()] == [4, 1]  # taken in turn order: the export's order


@pytest.mark.parametrize(("profile", "may_raise"), [
    ("robert", False), ("wfp", False), ("upt", False), ("rpl", False), ("wfp-dealer", True)])
def test_check_out_of_turn_may_not_bet_or_raise_on_the_next_turn(profile: str, may_raise: bool) -> None:
    t = _dealt(profile)
    t.act("call", "call", "call", "check")
    t.flop()
    t.press("check", seat=3)  # seat 2 is to act
    t.bet("bet", 400)  # seat 2: the action changed
    t.bet("raise", 1200)  # seat 3
    assert (_seat(t, 3)[1] == 1200) is may_raise
    if not may_raise:
        assert t.core.snapshot().to_act == 3 and "may not bet or raise" in t.notices[-1]
        t.press("call")
        assert _seat(t, 3)[1] == 400


@pytest.mark.parametrize(("profile", "may_raise"), [
    ("robert", False), ("wfp", False), ("upt", False), ("rpl", True), ("wfp-dealer", True)])
def test_call_out_of_turn_may_not_become_a_raise(profile: str, may_raise: bool) -> None:
    t = _dealt(profile)
    t.press("call", seat=1)
    t.bet("raise", 600)  # seat 4 raises: the call is not binding
    t.bet("raise", 1800)  # seat 1
    assert (_seat(t, 1)[1] == 1800) is may_raise


def test_upt_house_rules_out_of_turn_bet_posts_the_minimum_bet() -> None:
    t = _dealt("upt")
    t.act("call", "call", "call", "check")
    t.flop()
    t.press("bet", seat=4, amount=1000)
    t.act("check", "check")  # seats 2 and 3
    assert _seat(t, 4) == (9600, 200)


def test_wfp_dealer_act_in_turn_out_of_turn_fold_is_mucked() -> None:
    t = _dealt("wfp-dealer")
    t.press("fold", seat=1)
    t.bet("raise", 600)  # seat 4's raise does not bring the fold back
    assert t.core.snapshot().seat(1).state == "folded"


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_a_second_press_out_of_turn_for_the_same_seat_is_not_taken(profile: str) -> None:
    t = _dealt(profile)
    t.press("call", seat=1)
    assert t.press("raise", seat=1, amount=800) == []
    assert "already acted out of turn" in t.notices[-1]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_stale_press_is_refused_never_moved_to_the_next_player(profile: str) -> None:
    t = _dealt(profile)
    made = (t.core.hand_number, t.core.action_count)
    t._feed(Button(t=t.tick(), name=ButtonName.CALL, hand=made[0], count=made[1]))  # seat 4 calls
    t._feed(Button(t=t.tick(), name=ButtonName.CALL, hand=made[0], count=made[1]))  # the same press again
    assert "stale press" in t.notices[-1]
    assert t.core.snapshot().to_act == 1 and _seat(t, 1) == (10000, 0)
    t._feed(Button(t=t.tick(), name=ButtonName.UNDO, hand=made[0], count=made[1]))  # an undo made before the call
    assert _seat(t, 4) == (9800, 200)  # not taken back
    t._feed(Button(t=t.tick(), name=ButtonName.CALL, hand=made[0] - 1, count=1))  # a press of the last hand
    assert t.core.snapshot().to_act == 1 and "stale press" in t.notices[-1]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_seat_with_no_chips_is_never_dealt_in(profile: str) -> None:
    t = Table(profile)
    t.level(100, 200)
    t.stacks(s1=10000, s2=0, s3=10000, s4=10000)
    t.new_hand()
    snap = t.core.snapshot()
    assert 2 not in {snap.button, snap.small_blind, snap.big_blind}
    assert snap.seat(2).state == "waiting" and snap.seat(2).stack == 0
    assert any("seat 2 has no chips: not dealt in" in n for n in t.notices)
    t.deal(count=6)  # three seats, two cards each: no card owed to seat 2
    assert snap.to_act is None and t.core.snapshot().to_act is not None
    assert not [r for r in t.rulings if r.ruling in (RulingKind.MISDEAL, RulingKind.VOID_HAND)]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_out_of_turn_hands_export_to_phh_and_pokerkit_pays_the_table_stacks(profile: str) -> None:
    """An out-of-turn raise (standing or not, by profile), a check out of turn on the flop and a
    showdown: pokerkit reads the history back and ends with the table's stacks."""
    t = _dealt(profile, Recording)
    t.press("raise", seat=1, amount=600)
    t.press("call")  # seat 4: frees seat 1 in Robert's family, not in UPT or WFP dealers
    for street in (None, t.flop, t.turn, t.river):
        if street is not None:
            street()
            t.press("check", seat=4)  # out of turn on every street: binding, nobody bets
        while t.core.snapshot().phase == "betting":
            t.press("call")
    assert t.core.snapshot().phase == "showdown"
    t.press("hand_end")
    result = check_events(t.__dict__["events"], PROFILES)
    assert result.exported == 1 and result.replayed_right == 1 and not result.mismatches, result


# -- players moved to the table (balancing) ------------------------------------------------------------

def _moved_into(profile: str, seat: int) -> Table:
    """Six seats, button on 1 for the first hand; seat `seat` empty, then a moved player sits there.
    The second hand: button 2, small blind 3, big blind 4."""
    seats = tuple(s for s in (1, 2, 3, 4, 5, 6) if s != seat)
    t = Table(profile, seats=seats, button=1)
    t.new_hand()
    t.deal()
    t.act("fold", "fold", "fold", "fold")
    t.press("hand_end")
    from firmware_py.core import Seat, SeatStatus  # noqa: PLC0415

    t._feed(Seat(t=t.tick(), seat=seat, status=SeatStatus.IN, moved=True))
    t.new_hand()
    return t


@pytest.mark.parametrize(("profile", "seat", "dealt"), [
    # The second hand: button 2, small blind 4, big blind 5 when seat 3 is the moved player's; with seat
    # 6 or 2: no seat between the button and the blinds.
    ("robert", 3, False), ("robert", 6, True),  # Rules for Using Blinds 4, as for a new player
    ("upt", 3, True), ("upt", 6, True),  # Tournaments 16: dealt in unless in the small blind or button position
    ("wfp", 3, False), ("wfp-dealer", 3, False), ("wfp", 2, True),  # not between the button and small blind
    ("rpl", 3, True), ("rpl", 2, True),  # Blinds 2: the moved player takes the seat's position at once
])
def test_moved_players_are_dealt_in_where_the_profile_allows(profile: str, seat: int, dealt: bool) -> None:
    t = _moved_into(profile, seat)
    snapshot = t.core.snapshot()
    assert (snapshot.seat(seat).state != "waiting") is dealt, (snapshot.button, snapshot.small_blind)


@pytest.mark.parametrize(("profile", "waits"), [
    ("upt", True),  # Tournaments 16: on the button, the moved player waits for it to pass
    ("rpl", False),  # Blinds 2: takes the position at once
    ("wfp", False),  # Tournament Procedures 12: dealt in "at either the button, small or big blind"
])
def test_a_moved_player_on_the_button(profile: str, waits: bool) -> None:
    from firmware_py.core.flow import _seat_new_players  # noqa: PLC0415
    from firmware_py.core.seating import Positions  # noqa: PLC0415
    from firmware_py.core.state import TableState  # noqa: PLC0415

    table = TableState(profiles=PROFILES, profile=PROFILES[profile], moved={2})
    positions = Positions(button=2, small_blind=3, big_blind=4, deal_order=(3, 4, 5, 6, 1, 2))
    dealt = _seat_new_players(table, positions)
    assert (2 not in dealt.deal_order) is waits and dealt.button == 2
