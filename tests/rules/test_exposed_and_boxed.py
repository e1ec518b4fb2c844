"""Exposed hole cards, boxed cards and jokers (rules-catalog sections 2 and 3)."""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind
from tests.rules.table_driver import ALL_PROFILES, Table, kinds, only

FIRST_EXPOSED_RULE = {
    "robert": "robert: Misdeals 1(a)",
    "upt": "upt: Hold'em 1",
    "rpl": "rpl: Hold'em 2",
    "wfp": "wfp: Irregularities 17",
    "wfp-dealer": "wfp-dealer: Exposed Cards",
}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_misdeals_1a_first_card_exposed_is_a_misdeal(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.shoe("As")
    ruling = only(table.press("exposed"))
    assert ruling.ruling is RulingKind.MISDEAL
    assert ruling.cause == "exposed_first_cards"
    assert ruling.card == "As" and ruling.seat == 2  # first card goes left of the button
    assert ruling.rule == FIRST_EXPOSED_RULE[profile]
    assert "reshuffle" in ruling.remedy


@pytest.mark.parametrize("profile", ["robert", "upt", "wfp", "wfp-dealer"])
def test_misdeals_1a_second_card_exposed_is_a_misdeal(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=2)
    ruling = only(table.press("exposed"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "exposed_first_cards"
    assert ruling.seat == 3


def test_rpl_holdem_2_only_the_first_holecard_exposed_is_a_misdeal() -> None:
    table = Table("rpl")
    table.new_hand()
    table.deal(["2s", "Kd"], count=2)
    ruling = only(table.press("exposed"))
    assert ruling.ruling is RulingKind.EXPOSED_CARD
    assert ruling.card == "Kd" and ruling.seat == 3 and ruling.rule == "rpl: Hold'em 2"


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_holdem_1_later_exposed_card_is_replaced_and_becomes_the_burn(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(["2s", "7h", "Td", "4c", "9s"], count=5)
    ruling = only(table.press("exposed"))
    assert ruling.ruling is RulingKind.EXPOSED_CARD and ruling.card == "9s" and ruling.seat == 2
    assert "burn" in ruling.remedy
    table.deal(["Kh", "3d", "8c"], count=3)  # the rest of the deal
    assert table.core.snapshot().phase == "betting"
    assert table.shoe("Jc") == []  # the replacement goes to seat 2
    assert table.core.snapshot().seat(2).cards == ("2s", "Jc")
    table.act("call", "call", "call", "check")
    # The exposed card is the flop's burn: the flop comes with no new burn and draws no ruling.
    assert table.flop(["Qs", "Js", "4d"], burns=0) == []
    assert table.act("check") == []
    assert "9s" in table.core.snapshot().burns


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_misdeals_1b_two_cards_exposed_is_a_misdeal(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=4)
    table.press("exposed")
    table.shoe()
    ruling = only(table.press("exposed"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "two_exposed"


def test_robert_misdeals_1a_hole_card_seen_on_a_board_antenna_is_exposed() -> None:
    table = Table("robert")
    table.new_hand()
    table.shoe("As")
    ruling = only(table.read("board1", "As"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "exposed_first_cards" and ruling.card == "As"


@pytest.mark.parametrize("profile", ["robert", "upt", "rpl", "wfp"])
def test_irregularities_7_boxed_card_is_a_scrap_replaced_by_the_next_card(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(["2s", "7h", "Td"], count=3)
    ruling = only(table.press("boxed"))
    assert ruling.ruling is RulingKind.BOXED_CARD and ruling.card == "Td" and ruling.seat == 4
    assert ruling.rule.endswith("Irregularities 7" if profile != "wfp" else "Irregularities 6")
    table.deal(["4c", "9s", "Kh", "3d", "8c", "Jh"], count=6)
    snap = table.core.snapshot()
    assert snap.seat(4).cards == ("4c", "8c")  # the next card took the boxed card's place
    assert snap.seat(1).cards == ("9s", "Jh")
    assert snap.phase == "betting"


@pytest.mark.parametrize("profile", ["robert", "upt", "rpl", "wfp"])
def test_misdeals_1c_two_boxed_cards_is_a_misdeal(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=2)
    table.press("boxed")
    table.deal(count=2)
    ruling = only(table.press("boxed"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.cause == "two_boxed"


def test_wfp_dealer_exposed_cards_face_up_card_while_dealing_is_an_exposed_card() -> None:
    table = Table("wfp-dealer")
    table.new_hand()
    table.deal(count=4)
    ruling = only(table.press("boxed"))
    assert ruling.ruling is RulingKind.EXPOSED_CARD and ruling.rule == "wfp-dealer: Exposed Cards"
    table.shoe()
    second = only(table.press("boxed"))
    assert second.ruling is RulingKind.MISDEAL and second.cause == "two_exposed"


def test_wfp_dealer_exposed_cards_face_up_first_card_is_a_misdeal() -> None:
    table = Table("wfp-dealer")
    table.new_hand()
    table.shoe()
    assert only(table.press("boxed")).cause == "exposed_first_cards"


def test_robert_irregularities_7_boxed_board_card_is_replaced_by_the_next_card() -> None:
    table = Table("robert")
    table.clean_preflop()
    table.shoe("9s")  # burn
    table.read("shoe", table.take("Qs"))
    ruling = only(table.press("boxed"))
    assert ruling.ruling is RulingKind.BOXED_CARD and ruling.card == "Qs" and ruling.street == "flop"
    for i, card in enumerate(["Js", "4d", "5d"], start=1):
        table.read("shoe", table.take(card))
        table.read(f"board{i}", card)
    assert table.core.snapshot().board == ("Js", "4d", "5d")
    assert table.act("check") == []  # one burn: no burn ruling


def test_wfp_dealer_exposed_cards_face_up_board_card_plays() -> None:
    table = Table("wfp-dealer")
    table.clean_preflop()
    table.shoe("9s")
    ruling = only(table.press("boxed"))
    assert ruling.ruling is RulingKind.BOXED_CARD and "plays" in ruling.remedy
    for i, card in enumerate(["Qs", "Js", "4d"], start=1):
        table.read("shoe", table.take(card))
        table.read(f"board{i}", card)
    assert table.act("check") == []  # the boxed burn still counts as the burn


JOKER_DEAD_RULE = {
    "robert": "robert: Dead Hands 1(e)",
    "upt": "upt: Irregularities 8",
    "rpl": "rpl: Dead Hands 1(d)",
    "wfp": "wfp: Dead Hands 1(d)",
    "wfp-dealer": "wfp: Dead Hands 1(d)",
}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_8_joker_is_a_scrap_and_acting_on_it_kills_the_hand(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(["2s", "7h", "X1"], count=3)
    scrap = table.rulings[-1]
    assert scrap.ruling is RulingKind.SCRAP_CARD and scrap.card == "X1" and scrap.seat == 4
    table.deal(count=5)
    dead = only(table.press("call"))  # seat 4 acts first and still holds the joker
    assert dead.ruling is RulingKind.DEAD_HAND and dead.seat == 4 and dead.rule == JOKER_DEAD_RULE[profile]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_8_joker_replaced_after_the_round_causes_no_misdeal(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(["2s", "7h", "X2", "4c", "9s", "Kh", "3d", "8c"])
    assert kinds(table.rulings) == [RulingKind.SCRAP_CARD]
    table.shoe("Jh")  # the replacement, after all other cards of the round
    assert table.core.snapshot().seat(4).cards == ("3d", "Jh")
    assert table.act("call", "call", "call", "check") == []
    assert table.core.snapshot().phase == "board"
