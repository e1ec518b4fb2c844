"""Board cards: premature streets, flops with too many cards, burns (catalog sections 5 to 7)."""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind
from tests.rules.table_driver import ALL_PROFILES, ROBERT_FAMILY, Table, kinds, only

PREMATURE_FLOP_RULE = {"robert": "robert: Hold'em 7", "upt": "upt: Hold'em 5, 7", "rpl": "rpl: Hold'em 7",
                       "wfp": "wfp: Irregularities 21, 22",
                       "wfp-dealer": "wfp-dealer: Premature Flop, Turn or River"}


def _premature_flop(table: Table) -> list:
    table.new_hand()
    table.deal()
    table.act("call", "call")  # seats 4 and 1 call; the blinds have not acted
    out = table.shoe("9s")  # burn
    for i, card in enumerate(["Qs", "Js", "4d"], start=1):
        table.read("shoe", table.take(card))
        out += table.read(f"board{i}", card)
    return out


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_16_premature_flop_does_not_play(profile: str) -> None:
    table = Table(profile)
    ruling = only(_premature_flop(table))
    assert ruling.ruling is RulingKind.PREMATURE_CARD and ruling.street == "flop" and ruling.card == "Qs"
    assert ruling.rule == PREMATURE_FLOP_RULE[profile]
    assert table.core.snapshot().board == ()


@pytest.mark.parametrize("profile", [*ROBERT_FAMILY, "wfp"])
def test_holdem_7_premature_flop_redealt_without_a_burn(profile: str) -> None:
    table = Table(profile)
    _premature_flop(table)
    table.act("call", "check")  # the blinds finish the round
    assert table.flop(["Ah", "Kh", "3c"], burns=0) == []  # the burn stayed on the table
    assert table.act("check") == []
    assert table.core.snapshot().board == ("Ah", "Kh", "3c")
    table.act("check", "check", "check")
    assert table.turn("5c", burns=1) == [] and table.act("check") == []  # the turn has its own burn


def test_wfp_dealer_premature_flop_burns_the_turn_burn_and_skips_the_turn_burn() -> None:
    table = Table("wfp-dealer")
    _premature_flop(table)
    table.act("call", "check")
    assert table.flop(["Ah", "Kh", "3c"], burns=1) == []  # the turn's burn, then the flop
    assert table.act("check", "check", "check", "check") == []
    assert table.turn("5c", burns=0) == [] and table.act("check") == []  # no burn for the turn


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_holdem_8_premature_turn_river_card_becomes_the_turn(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    table.flop()
    table.act("check", "check")  # two of four have acted
    ruling = only(table.turn("5c"))
    assert ruling.ruling is RulingKind.PREMATURE_CARD and ruling.street == "turn" and ruling.card == "5c"
    table.act("check", "check")
    assert table.turn("6d", burns=1) == [] and table.act("check") == []  # burn, and the river card as turn
    table.act("check", "check", "check")
    assert table.river("8h", burns=0) == [] and table.act("check") == []  # after the reshuffle, no burn
    assert table.core.snapshot().board[3:] == ("6d", "8h")


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_holdem_8_premature_river_is_reshuffled_and_redealt_without_a_burn(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    table.flop()
    table.act("check", "check", "check", "check")
    table.turn()
    table.act("bet")
    ruling = only(table.river("8h"))
    assert ruling.ruling is RulingKind.PREMATURE_CARD and ruling.street == "river"
    table.act("call", "call", "call")
    assert table.river("Ac", burns=0) == []
    assert table.act("check") == []  # the burn with the premature river still counts


FOUR_CARD_FLOP = ["Qs", "Js", "4d", "5d"]


@pytest.mark.parametrize("profile", ROBERT_FAMILY)
def test_holdem_3_flop_with_too_many_cards_is_redealt(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    ruling = only(table.flop(FOUR_CARD_FLOP))
    assert ruling.ruling is RulingKind.FLOP_TOO_MANY and "redealt" in ruling.remedy
    assert ruling.rule == {"robert": "robert: Hold'em 3", "upt": "upt: Hold'em 3", "rpl": "rpl: Hold'em 4"}[profile]
    assert table.core.snapshot().board == ()
    assert table.flop(["Ah", "Kh", "3c"], burns=0) == []  # a new flop without a burn
    assert table.act("check") == []
    assert table.core.snapshot().board == ("Ah", "Kh", "3c")


def test_wfp_irregularities_19_extra_flop_card_is_the_next_burn() -> None:
    table = Table("wfp")
    table.clean_preflop()
    ruling = only(table.flop(FOUR_CARD_FLOP))
    assert ruling.ruling is RulingKind.FLOP_TOO_MANY and ruling.card == "5d"
    assert ruling.rule == "wfp: Irregularities 19"
    assert table.core.snapshot().board == ("Qs", "Js", "4d")
    table.act("check", "check", "check", "check")
    assert table.turn("6c", burns=0) == [] and table.act("check") == []  # 5d was the turn's burn


def test_wfp_dealer_extra_cards_drawn_the_card_picked_at_random_is_the_turn_burn() -> None:
    table = Table("wfp-dealer")
    table.clean_preflop()
    ruling = only(table.flop(FOUR_CARD_FLOP))
    assert ruling.ruling is RulingKind.FLOP_TOO_MANY and "random" in ruling.remedy
    table.gone("board2", "Js")  # the dealer's random pick goes on the stub
    assert sorted(table.core.snapshot().board) == sorted(["Qs", "5d", "4d"])
    table.act("check", "check", "check", "check")
    table.read("shoe", "Js")  # it comes off the stub as the turn's burn
    assert table.turn("6c", burns=0) == [] and table.act("check") == []


BURN_RULE_FLOP = {"robert": "robert: Hold'em 4", "upt": "upt: Hold'em 4", "rpl": "rpl: Hold'em 5",
                  "wfp": "wfp: Irregularities 20", "wfp-dealer": "wfp: Irregularities 20"}
BURN_RULE = {"robert": "robert: Irregularities 15", "upt": "upt: Hold'em 6", "rpl": "rpl: Hold'em 6",
             "wfp": "wfp: Irregularities 20", "wfp-dealer": "wfp: Irregularities 20"}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_burn_missing_before_the_flop(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    ruling = only(table.flop(burns=0))
    assert ruling.ruling is RulingKind.BURN_MISSING and ruling.street == "flop"
    assert ruling.rule == BURN_RULE_FLOP[profile]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_burn_extra_before_the_turn_one_goes_back_as_the_river_burn(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    table.flop()
    table.act("check", "check", "check", "check")
    assert table.turn(burns=2) == []  # judged once the board has settled
    ruling = only(table.act("check"))
    assert ruling.ruling is RulingKind.BURN_EXTRA and ruling.street == "turn" and ruling.rule == BURN_RULE[profile]
    assert "river" in ruling.remedy
    table.act("check", "check", "check")
    assert table.river(burns=0) == [] and table.act("check") == []  # the put-back burn served


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_burn_missing_before_the_river(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    table.flop()
    table.act("check", "check", "check", "check")
    table.turn()
    table.act("check", "check", "check", "check")
    ruling = only(table.river(burns=0))
    assert ruling.ruling is RulingKind.BURN_MISSING and ruling.street == "river" and ruling.rule == BURN_RULE[profile]


def test_burn_antenna_card_counts_as_the_burn() -> None:
    table = Table("robert")
    table.clean_preflop()
    table.read("burn", table.take("9s"))  # the shoe missed it; the burn pad saw it
    for i, card in enumerate(["Qs", "Js", "4d"], start=1):
        table.read("shoe", table.take(card))
        table.read(f"board{i}", card)
    assert table.act("check") == []
    assert kinds(table.rulings) == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_16_premature_flop_drawn_whole_before_it_lands(profile: str) -> None:
    """The usual way: burn and three flop cards leave the shoe, then all three are turned."""
    table = Table(profile)
    table.new_hand()
    table.deal()
    table.act("call", "call")
    for card in ["9s", "Qs", "Js", "4d"]:
        table.read("shoe", table.take(card))
    for i, card in enumerate(["Qs", "Js", "4d"], start=1):
        table.read(f"board{i}", card)
    assert [r.ruling for r in table.rulings] == [RulingKind.PREMATURE_CARD]
    table.act("call", "check")
    redeal_burns = 1 if profile == "wfp-dealer" else 0
    # The premature flop was mixed into the stub: one of its cards may come out again.
    for _ in range(redeal_burns):
        table.read("shoe", "Js")
    table.read("shoe", "Qs")
    table.read("board1", "Qs")
    for i, card in enumerate(["Kh", "3c"], start=2):
        table.read("shoe", table.take(card))
        table.read(f"board{i}", card)
    table.act("check")
    assert [r.ruling for r in table.rulings] == [RulingKind.PREMATURE_CARD]
    assert table.core.snapshot().board == ("Qs", "Kh", "3c")


def test_robert_holdem_7_reshuffled_premature_card_can_be_the_next_burn() -> None:
    table = Table("robert")
    table.new_hand()
    table.deal()
    table.act("call", "call")
    for card in ["9s", "Qs", "Js", "4d"]:
        table.read("shoe", table.take(card))
    for i, card in enumerate(["Qs", "Js", "4d"], start=1):
        table.read(f"board{i}", card)
    table.act("call", "check")
    for i, card in enumerate(["Ah", "Kh", "3c"], start=1):  # new flop, no burn
        table.read("shoe", table.take(card))
        table.read(f"board{i}", card)
    table.act("check", "check", "check", "check")
    table.read("shoe", "Js")  # a premature flop card, reshuffled, is the turn's burn
    table.read("shoe", table.take("5c"))
    table.read("board4", "5c")
    assert table.act("check") == []
    assert [r.ruling for r in table.rulings] == [RulingKind.PREMATURE_CARD]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_15_missing_burn_corrected_before_action_draws_no_second_ruling(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    table.flop()
    table.act("check", "check", "check", "check")
    ruling = only(table.turn("5c", burns=0))
    assert ruling.ruling is RulingKind.BURN_MISSING and ruling.street == "turn"
    # The remedy: the turn card becomes the burn and the next card replaces it.
    table.gone("board4", "5c")
    table.read("shoe", table.take("6d"))
    assert table.read("board4", "6d") == []
    assert table.act("check") == []
    snap = table.core.snapshot()
    assert snap.board[3] == "6d" and "5c" in snap.burns


def _two_card_turn(table: Table) -> list:
    table.clean_preflop()
    table.flop()
    table.act("check", "check", "check", "check")
    out = table.shoe()
    for position, card in ((4, "5c"), (5, "6d")):
        table.read("shoe", table.take(card))
        out += table.read(f"board{position}", card)
    return out


@pytest.mark.parametrize("profile", [*ROBERT_FAMILY, "wfp"])
def test_holdem_8_second_card_turned_with_the_turn_is_a_premature_river(profile: str) -> None:
    table = Table(profile)
    ruling = only(_two_card_turn(table))
    assert ruling.ruling is RulingKind.PREMATURE_CARD and ruling.street == "river" and ruling.card == "6d"


def test_wfp_dealer_extra_cards_drawn_two_cards_on_the_turn_one_goes_back_as_the_river_burn() -> None:
    table = Table("wfp-dealer")
    ruling = only(_two_card_turn(table))
    assert ruling.ruling is RulingKind.TOO_MANY_CARDS and ruling.street == "turn"
    assert ruling.rule == "wfp-dealer: Extra Cards Drawn for the Flop, Turn or River"
    table.gone("board4", "5c")  # the dealer's pick goes back on the stub; 6d plays as the turn
    assert table.core.snapshot().board[3] == "6d"
    table.act("check", "check", "check", "check")
    assert table.river("8h", burns=0) == [] and table.act("check") == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_8_joker_on_the_board_is_replaced_by_the_next_card(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    table.shoe()
    for i, card in enumerate(["Qs", "X1"], start=1):
        table.read("shoe", table.take(card))
        table.read(f"board{i}", card)
    scrap = table.rulings[-1]
    assert scrap.ruling is RulingKind.SCRAP_CARD and scrap.card == "X1" and scrap.street == "flop"
    for i, card in enumerate(["Js", "4d"], start=2):
        table.read("shoe", table.take(card))
        table.read(f"board{i}", card)
    assert table.act("check") == []
    assert table.core.snapshot().board == ("Qs", "Js", "4d")
