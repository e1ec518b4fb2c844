"""Action out of turn, stale presses and seats with no chips, in every profile as its rulebook says.

Four seats, the button on seat 1: seat 2 posts the small blind, seat 3 the big blind, seat 4 acts
first before the flop. A press naming a seat the action has not reached is an action out of turn.
"""

from __future__ import annotations

import pytest

from firmware_py.core import Button, ButtonName, RuleKey, Ruling, RulingKind
from firmware_py.daemon.tracker_view import legal_actions
from firmware_py.simulation.export_check import check_events
from tests.rules.table_driver import ALL_PROFILES, PROFILES, Table

# The cite of the first ruling, by what was done out of turn: a check or call (held), a bet or raise.
CITES = {
    "robert": "robert: Betting and Raising 10",
    "wfp": "wfp: Betting and Raising 7",
    "wfp-dealer": "wfp: Betting and Raising 7",  # the guidelines say nothing of checks and calls: WFP's rulebook
    "upt": "upt: Betting and Raising 9",
    "rpl": "rpl: Betting and Raising 9; Betting 8",
}
BET_CITES = {**CITES, "upt": "upt: House Rules: Out Of Turn Bet",
             "wfp-dealer": "wfp-dealer: Act in Turn, Know the Blinds"}
HELD = ("robert", "wfp", "rpl")  # a bet out of turn waits for the seat's turn (no rule of their own for it)
POSTED = ("upt", "wfp-dealer")  # a bet out of turn goes in at once and the action moves back


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


def _flop(profile: str) -> Table:
    """Everyone in for 200; the flop is out and seat 2 (the small blind) is to act."""
    t = _dealt(profile)
    t.act("call", "call", "call", "check")
    t.flop()
    return t


def _heads_up_flop(profile: str) -> Table:
    """Seats 3 (the big blind) and 4 see the flop for 200 each; seat 3 is to act."""
    t = _dealt(profile)
    t.act("call", "fold", "fold", "check")  # seats 4, 1, 2, 3
    t.flop()
    return t


def _seat(t: Table, seat: int) -> tuple[int | None, int | None]:
    view = t.core.snapshot().seat(seat)
    return view.stack, view.bet


def _legal(t: Table) -> dict[str, object]:
    legal = legal_actions(t.core.snapshot())
    assert legal is not None
    return legal


# -- every profile: the ruling and its cite --------------------------------------------------------------

@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_out_of_turn_call_is_ruled_with_the_profiles_rule_and_the_turn_stays(profile: str) -> None:
    t = _dealt(profile)
    rulings = t.press("call", seat=1)  # seat 4 is to act
    assert [r.ruling for r in rulings] == [RulingKind.ACTION_OUT_OF_TURN]
    assert rulings[0].rule == CITES[profile] and rulings[0].seat == 1
    assert "seat 4" in rulings[0].remedy
    assert t.core.snapshot().to_act == 4 and _seat(t, 1) == (10000, 0)  # held: nothing in yet
    assert t.core.action_count == 0


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_out_of_turn_raise_is_ruled_with_the_books_rule_for_a_bet_out_of_turn(profile: str) -> None:
    t = _dealt(profile)
    rulings = t.press("raise", seat=1, amount=600)  # seat 4 is to act
    assert [r.ruling for r in rulings] == [RulingKind.ACTION_OUT_OF_TURN]
    assert rulings[0].rule == BET_CITES[profile] and rulings[0].seat == 1
    assert t.core.snapshot().to_act == 4  # the action is back on (or stays with) the skipped player
    posted = {"upt": 400, "wfp-dealer": 600}.get(profile, 0)
    assert _seat(t, 1) == (10000 - posted, posted)


# -- Robert's Betting and Raising 10, WFP's Betting and Raising 7, RPL's 9 (held declarations) -------------

@pytest.mark.parametrize("profile", HELD)
def test_betting_and_raising_an_action_out_of_turn_is_freed_by_an_intervening_call(profile: str) -> None:
    """Robert 10, WFP 7, RPL 9: "may be ruled binding if there is no bet, call, or raise by an intervening
    player": a call in between frees the out-of-turn raise; nothing of it went in."""
    t = _dealt(profile)
    t.press("raise", seat=1, amount=600)
    t.press("call")  # seat 4
    assert t.core.snapshot().to_act == 1 and _seat(t, 1) == (10000, 0)
    assert any("not binding" in n for n in t.notices)


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_out_of_turn_action_is_binding_when_nobody_in_between_bets_calls_or_raises(profile: str) -> None:
    t = _dealt(profile)
    t.press("call", seat=1)
    t.press("fold")  # seat 4: a fold changes nothing
    assert _seat(t, 1) == (9800, 200) and t.core.snapshot().to_act == 2
    assert [a.seat for a in t.core.hand_actions()] == [4, 1]  # taken in turn order: the export's order


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_a_player_who_checks_out_of_turn_may_not_bet_or_raise_on_the_next_turn_to_act(profile: str) -> None:
    """Robert 10, WFP 7 (so WFP's dealers too: their guidelines say nothing of checks), UPT 9, RPL 9; the
    refusal is a ruling with its cite, and the snapshot (the tracker's legal actions) offers no raise."""
    t = _flop(profile)
    t.press("check", seat=3)  # seat 2 is to act
    t.bet("bet", 400)  # seat 2: the action changed
    assert t.core.snapshot().to_act == 3
    assert _legal(t)["may_raise"] is False and _legal(t)["to_call"] == 400
    rulings = t.bet("raise", 1200)  # seat 3
    assert [(r.ruling, r.cause) for r in rulings] == [(RulingKind.RAISE_NOT_ALLOWED, "out_of_turn")]
    assert rulings[0].rule == t.core.profile.rule(RuleKey.OUT_OF_TURN_NO_RAISE).cite  # type: ignore[union-attr]
    assert rulings[0].rule.split(":")[0] in {"robert", "wfp", "upt", "rpl"} and "checked" in rulings[0].remedy
    assert t.core.snapshot().to_act == 3 and _seat(t, 3)[1] == 0
    t.press("call")
    assert _seat(t, 3)[1] == 400


@pytest.mark.parametrize(("profile", "may_raise"), [
    ("robert", False), ("wfp", False), ("wfp-dealer", False), ("upt", False), ("rpl", True)])
def test_a_player_who_has_called_out_of_turn_may_not_change_his_wager_to_a_raise(profile: str,
                                                                                 may_raise: bool) -> None:
    """Robert 10 and WFP 7: "under any circumstances"; UPT 9: "on the next turn to act"; RPL 9 has no such
    sentence: a call out of turn that the action freed may raise."""
    t = _dealt(profile)
    t.press("call", seat=1)
    t.bet("raise", 600)  # seat 4 raises: the call is not binding
    assert _legal(t)["may_raise"] is may_raise
    rulings = t.bet("raise", 1800)  # seat 1
    assert (_seat(t, 1)[1] == 1800) is may_raise
    if not may_raise:
        assert [r.ruling for r in rulings] == [RulingKind.RAISE_NOT_ALLOWED] and "called" in rulings[0].remedy


def test_robert_betting_and_raising_10_a_bet_out_of_turn_waits_for_the_turn_and_goes_in_as_made() -> None:
    t = _flop("robert")
    t.press("bet", seat=4, amount=1000)  # seat 2 is to act
    assert _seat(t, 4) == (9800, 0)
    t.act("check", "check")  # seats 2 and 3: nobody bets, calls or raises: binding
    assert _seat(t, 4) == (8800, 1000)


def test_rpl_betting_8_do_not_fold_out_of_turn_the_fold_is_held_and_freed_by_a_raise() -> None:
    t = _dealt("rpl")
    rulings = t.press("fold", seat=1)
    assert rulings[0].rule == "rpl: Betting and Raising 9; Betting 8"
    assert t.core.snapshot().seat(1).state == "active"
    t.bet("raise", 600)  # seat 4: the action changed, the fold is not binding
    assert t.core.snapshot().to_act == 1 and t.core.snapshot().seat(1).state == "active"


# -- UPT: House Rules, Out Of Turn Bet; Betting and Raising 9 ---------------------------------------------

def test_upt_out_of_turn_bet_posts_the_minimum_bet_the_big_blind_when_no_bet_was_made() -> None:
    t = _flop("upt")
    rulings = t.press("bet", seat=4, amount=1000)  # seat 2 is to act
    assert rulings[0].amount == 200 and rulings[0].rule == "upt: House Rules: Out Of Turn Bet"
    assert _seat(t, 4) == (9600, 200)  # posted at once: the minimum bet, whatever was said


def test_upt_out_of_turn_bet_posts_the_minimum_raise_when_there_is_already_a_bet() -> None:
    """"if there is already a bet of 1,000 then the player that has bet out of turn will post 2,000"."""
    t = _flop("upt")
    t.bet("bet", 1000)  # seat 2
    t.press("raise", seat=1, amount=5000)  # seat 3 is to act
    assert _seat(t, 1) == (7800, 2000)


def test_upt_out_of_turn_bet_the_action_moves_back_to_the_player_that_was_due_to_act() -> None:
    """The skipped player faces the posted bet at once: call, fold or raise; no check."""
    t = _flop("upt")
    t.press("bet", seat=4, amount=1000)
    assert t.core.snapshot().to_act == 2
    legal = _legal(t)
    assert legal["to_call"] == 200 and legal["may_raise"] is True and legal["word"] == "raise"
    rulings = t.press("check")  # not an option: seat 2 faces the posted bet
    assert [(r.ruling, r.rule, r.seat) for r in rulings] == [
        (RulingKind.ACTION_NOT_ALLOWED, "upt: House Rules: Out Of Turn Bet", 2)]
    assert "call, fold or raise" in rulings[0].remedy
    assert t.core.snapshot().to_act == 2 and _seat(t, 2) == (9800, 0)


def test_upt_out_of_turn_bet_the_skipped_player_may_not_check_at_a_table_that_counts_no_chips() -> None:
    t = Table("upt")
    t.clean_preflop()
    t.flop()
    t.press("bet", seat=4)
    assert [r.ruling for r in t.press("check")] == [RulingKind.ACTION_NOT_ALLOWED]
    t.act("call", "call")  # seats 2 and 3; seat 4 may only check
    t.press("call")  # seat 1
    assert t.core.snapshot().phase == "board"


def test_upt_out_of_turn_bet_call_the_bet_then_the_out_of_turn_player_may_only_check() -> None:
    """A call of the posted bet ends the round when nobody else is to act, and the hand reaches its showdown."""
    t = _heads_up_flop("upt")
    t.press("bet", seat=4)
    t.press("call")  # seat 3
    snap = t.core.snapshot()
    assert snap.phase == "board" and snap.to_act is None and snap.chips is not None and snap.chips.pot == 900
    t.turn()
    t.act("check", "check")
    t.river()
    t.act("check", "check")
    assert t.core.snapshot().phase == "showdown"
    assert not [r for r in t.rulings if r.ruling is RulingKind.PREMATURE_CARD]


def test_upt_out_of_turn_bet_fold_then_the_out_of_turn_player_may_only_check() -> None:
    t = _flop("upt")
    t.press("fold")  # seat 2 folds in turn: seats 3, 4 and 1 left
    t.press("bet", seat=1)  # seat 3 is to act; seat 4 skipped too
    t.act("fold", "call")  # seats 3 and 4
    snap = t.core.snapshot()
    assert snap.to_act is None and snap.phase == "board"  # seat 1 has nothing left to do: the turn is next
    assert snap.seat(1).stack == 9600 and snap.chips is not None and snap.chips.pot == 800 + 400


def test_upt_out_of_turn_bet_raise_then_the_out_of_turn_player_may_call_fold_or_re_raise() -> None:
    t = _heads_up_flop("upt")
    t.press("bet", seat=4)  # posts 200
    t.bet("raise", 600)  # seat 3
    assert t.core.snapshot().to_act == 4 and _legal(t)["may_raise"] is True and _legal(t)["to_call"] == 400
    t.press("fold")  # seat 4: the 200 it posted stays in the pot
    snap = t.core.snapshot()
    assert snap.phase == "showdown" and snap.seat(3).stack == 9200 + 500 + 200 + 600  # the pot, its 200 in it


def test_upt_betting_and_raising_9_binding_unless_changed_by_a_bet_or_raise_an_intervening_call_binds() -> None:
    """"If there is an intervening call, an action may be ruled binding": UPT rules it binding."""
    t = _dealt("upt")
    t.press("call", seat=1)
    t.press("call")  # seat 4
    assert _seat(t, 1) == (9800, 200) and t.core.snapshot().to_act == 2


# -- WFP dealer guidelines: Act in Turn, Know the Blinds ---------------------------------------------------

def test_wfp_dealer_act_in_turn_an_out_of_turn_folded_hand_will_be_mucked_immediately() -> None:
    t = _dealt("wfp-dealer")
    rulings = t.press("fold", seat=1)  # seat 4 is to act
    assert rulings[0].rule == "wfp-dealer: Act in Turn, Know the Blinds"
    snap = t.core.snapshot()
    assert snap.seat(1).state == "folded" and snap.to_act == 4
    t.bet("raise", 600)  # seat 4's raise does not bring the fold back
    assert t.core.snapshot().seat(1).state == "folded" and t.core.snapshot().to_act == 2


def test_wfp_dealer_act_in_turn_a_bet_or_raise_out_of_turn_play_is_backed_up_to_the_skipped_player() -> None:
    t = _dealt("wfp-dealer")
    t.press("raise", seat=1, amount=600)
    snap = t.core.snapshot()
    assert snap.to_act == 4 and _seat(t, 1) == (9400, 600) and _legal(t)["to_call"] == 600
    t.press("call")  # seat 4: the raise stands; seats 2 and 3 to act
    assert t.core.snapshot().to_act == 2


def test_wfp_dealer_act_in_turn_if_the_skipped_player_raises_the_oot_action_stands_folded_chips_remain() -> None:
    t = _dealt("wfp-dealer")
    t.press("raise", seat=1, amount=600)
    t.bet("raise", 1800)  # seat 4, the skipped player, raises
    assert t.core.snapshot().to_act == 1 and _legal(t)["may_raise"] is True  # call the raise, or re-raise
    t.press("fold")  # seat 1: its 600 remain in the pot
    t.act("fold", "fold")  # seats 2 and 3
    snap = t.core.snapshot()
    assert snap.seat(1).stack == 9400 and snap.seat(4).stack == 10000 + 600 + 100 + 200


def test_wfp_dealer_act_in_turn_a_blind_that_folds_before_others_acted_gets_the_cards_back() -> None:
    t = _dealt("wfp-dealer")
    rulings = t.press("fold", seat=3)  # the big blind, before anyone acted
    assert rulings[0].rule == "wfp-dealer: Act in Turn, Know the Blinds" and "return the cards" in rulings[0].remedy
    assert t.core.snapshot().seat(3).state == "active" and _seat(t, 3) == (9800, 200)
    t.act("call", "call", "call")  # seats 4, 1 and 2
    assert t.core.snapshot().to_act == 3  # the big blind acts in turn


# -- the same in every profile ------------------------------------------------------------------------------

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
    """A call out of turn (freed by a raise), a fold out of turn, a check out of turn on the flop and a
    showdown: pokerkit reads the history back and ends with the table's stacks, in every profile (a fold
    mucked at once is the same fold at its turn)."""
    t = _dealt(profile, Recording)
    t.press("call", seat=1)
    t.bet("raise", 600)  # seat 4: frees seat 1's call
    t.press("fold", seat=3)  # the big blind folds out of turn (seat 1 is to act)
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


@pytest.mark.parametrize("profile", POSTED)
def test_a_bet_posted_out_of_turn_is_refused_by_the_phh_export_with_its_reason(profile: str) -> None:
    """PHH plays actions in turn only: a hand where the house took a bet out of turn at once is left out,
    saying why, never bent to fit."""
    t = _dealt(profile, Recording)
    t.press("raise", seat=1, amount=600)
    t.act("call", "fold", "fold")  # seats 4, 2 and 3
    for street in (t.flop, t.turn, t.river):
        street()
        t.act("check", "check")
    t.press("hand_end")
    result = check_events(t.__dict__["events"], PROFILES)
    assert result.exported == 0 and not result.mismatches
    assert any("out of turn" in reason for reason in result.refused), result


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


def test_the_venue_screen_offers_the_skipped_player_its_real_options() -> None:
    """UPT's posted bet: the skipped player is offered call, raise or fold (no check); a seat that checked out
    of turn and was freed is offered no raise."""
    from display.venue import options_text  # noqa: PLC0415

    t = _flop("upt")
    t.press("bet", seat=4, amount=1000)
    assert options_text(t.core.snapshot()) == "call 200 / raise / fold"
    t2 = _flop("robert")
    t2.press("check", seat=3)
    t2.bet("bet", 400)  # seat 2: seat 3 is freed, and may not raise
    assert options_text(t2.core.snapshot()) == "call 400 / fold"


@pytest.mark.parametrize(("profile", "returned"), [
    ("wfp-dealer", True), ("robert", False), ("wfp", False), ("upt", False), ("rpl", False)])
def test_wfp_dealer_mucked_cards_the_big_blind_that_folds_at_its_option_to_check_gets_the_cards_back(
        profile: str, returned: bool) -> None:
    """WFP dealers' Mucked Cards / Unintentional Folds: "If the big blind folds when it is their option to check,
    these cards are also returned"; the other books take the fold."""
    t = _dealt(profile)
    t.act("call", "call", "call")  # seats 4, 1 and 2: the big blind's option
    rulings = t.press("fold")  # seat 3, in turn, with nothing to call
    assert (t.core.snapshot().seat(3).state == "active") is returned
    if returned:
        assert [(r.ruling, r.rule) for r in rulings] == [
            (RulingKind.FOLD_RETURNED, "wfp-dealer: Mucked Cards / Unintentional Folds")]
        assert t.core.snapshot().to_act == 3
        t.press("check")
        assert t.core.snapshot().phase == "board"
    else:
        assert rulings == []


def test_wfp_dealer_mucked_cards_the_big_blind_facing_a_raise_folds() -> None:
    t = _dealt("wfp-dealer")
    t.bet("raise", 600)
    t.act("fold", "fold", "fold")  # seats 1, 2 and 3: the big blind faces a raise, its fold is a fold
    assert t.core.snapshot().seat(3).state == "folded"
