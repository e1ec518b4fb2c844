"""The misdeal window, extra and missing cards, cards out of sequence (catalog sections 1 and 4)."""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind, Setup
from tests.rules.table_driver import ALL_PROFILES, BLUE, RED, ROBERT_FAMILY, Table, only


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_misdeals_1_dealer_called_misdeal_before_action(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal()
    ruling = only(table.press("misdeal"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "dealer_called"
    assert table.core.snapshot().phase == "misdealt"


@pytest.mark.parametrize("profile", [*ROBERT_FAMILY, "wfp"])
def test_misdeals_2_window_closes_when_two_players_after_the_blinds_act(profile: str) -> None:
    table = Table(profile, seats=(1, 2, 3, 4, 5, 6))
    table.new_hand()
    table.deal()
    table.act("fold")  # seat 4, first after the big blind: one player has acted
    assert only(table.press("misdeal")).ruling is RulingKind.MISDEAL

    table = Table(profile, seats=(1, 2, 3, 4, 5, 6))
    table.new_hand()
    table.deal()
    table.act("fold", "fold")  # a fold is an action
    ruling = only(table.press("misdeal"))
    assert ruling.ruling is RulingKind.MISDEAL_TOO_LATE
    assert ruling.seat is None  # no hand is killed: the deal is played to conclusion
    assert ruling.rule == {"robert": "robert: Misdeals 2", "upt": "upt: Misdeals 1",
                           "rpl": "rpl: Misdeals 2", "wfp": "wfp: Misdeals 2"}[profile]


def test_wfp_dealer_misdeals_button_errors_folds_are_not_significant_action() -> None:
    table = Table("wfp-dealer", seats=(1, 2, 3, 4, 5, 6))
    table.new_hand()
    table.deal()
    table.act("fold", "fold", "fold")
    assert only(table.press("misdeal")).ruling is RulingKind.MISDEAL


def test_wfp_dealer_misdeals_button_errors_a_call_closes_the_window_and_kills_the_misdealt_hand() -> None:
    table = Table("wfp-dealer", seats=(1, 2, 3, 4, 5, 6))
    table.new_hand()
    table.deal()
    table.act("call")  # seat 4 calls: significant action
    ruling = only(table.read("seat5", table.core.snapshot().seat(6).cards[0]))
    assert ruling.ruling is RulingKind.MISDEAL_TOO_LATE and ruling.seat == 5
    assert ruling.rule == "wfp-dealer: Misdeals / Button Errors" and "dead" in ruling.remedy
    assert table.core.snapshot().seat(5).state == "dead"


def test_robert_misdeals_2_heads_up_window_counts_the_blinds() -> None:
    table = Table("robert", seats=(1, 2), button=1)
    table.new_hand()
    table.deal()
    table.act("call", "check")
    assert only(table.press("misdeal")).ruling is RulingKind.MISDEAL_TOO_LATE


EXTRA_RULE = {"robert": "robert: Irregularities 11", "upt": "upt: Hold'em 2", "rpl": "rpl: Hold'em 3",
              "wfp": "wfp: Irregularities 18", "wfp-dealer": "wfp-dealer: Misdeals / Button Errors"}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_11_one_extra_card_is_returned_and_used_as_the_burn(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal()
    ruling = only(table.shoe("Jc"))
    assert ruling.ruling is RulingKind.EXTRA_CARD and ruling.card == "Jc" and ruling.seat == 2
    assert ruling.rule == EXTRA_RULE[profile]
    table.act("call", "call", "call", "check")
    # The extra card goes back on the deck and comes out again as the burn: no burn ruling.
    table.read("shoe", "Jc")
    assert table.flop(["Qs", "Js", "4d"], burns=0) == []
    assert table.act("check") == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_misdeals_1d_two_extra_cards_is_a_misdeal(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal()
    table.shoe()
    ruling = only(table.shoe())
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "two_extra"


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_misdeals_1e_button_short_one_card_is_dealt_in_proper_sequence(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=7)
    ruling = only(table.press("call"))
    assert ruling.ruling is RulingKind.SHORT_CARD and ruling.seat == 1  # the button
    table.shoe("Jc")
    assert table.core.snapshot().seat(1).cards[-1] == "Jc"
    assert table.act("call", "call", "check") == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_misdeals_1e_wrong_number_of_cards_is_a_misdeal(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=6)
    ruling = only(table.press("call"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "wrong_count"
    assert "4, 1" in ruling.remedy


DEAD_RULE = {"robert": "robert: Dead Hands 1(d)", "upt": "upt: Dead Hands 1(c)", "rpl": "rpl: Dead Hands 1(c)",
             "wfp": "wfp: Dead Hands 1(c)", "wfp-dealer": "wfp-dealer: Two Cards to Win"}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_dead_hands_1c_short_hand_after_the_window_is_dead(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=7)
    table.act("call")  # short_card: the button is owed the top card, but it never comes
    table.act("call", "call", "check")
    dead = [r for r in table.rulings if r.ruling is RulingKind.DEAD_HAND]
    assert len(dead) == 1 and dead[0].seat == 1 and dead[0].cause == "wrong_count"
    assert dead[0].rule == DEAD_RULE[profile]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_misdeals_1f_card_seen_at_the_wrong_seat_is_out_of_sequence(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(["2s", "7h", "Td"], count=3)
    ruling = only(table.read("seat2", "7h"))  # seat 3's card is at seat 2
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "out_of_sequence"


def test_robert_misdeals_1h_first_card_to_the_wrong_position() -> None:
    table = Table("robert")
    table.new_hand()
    table.shoe("2s")
    ruling = only(table.read("seat3", "2s"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.rule == "robert: Misdeals 1(h)"


def test_robert_misdeals_1i_card_dealt_to_an_empty_seat() -> None:
    table = Table("robert", seats=(1, 2, 4, 5))
    table.new_hand()
    table.shoe("2s")
    ruling = only(table.read("seat3", "2s"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.rule == "robert: Misdeals 1(i)" and ruling.seat == 3


def test_seat_antenna_confirming_the_deal_makes_no_ruling() -> None:
    table = Table("robert")
    table.new_hand()
    table.shoe("2s")
    assert table.read("seat2", "2s") == []
    assert table.read("seat2", "2s") == []  # read again: a card that never left


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_misdeals_1g_button_out_of_position_before_action_is_a_misdeal(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=3)
    rulings = table._feed(Setup(t=table.tick(), profile=profile, seats=(1, 2, 3, 4), button=2,
                                decks=(RED, BLUE), in_play="test-red"))
    ruling = only(rulings)
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "button_out_of_position" and ruling.seat == 2
    table.new_hand()
    assert table.core.snapshot().button == 2
