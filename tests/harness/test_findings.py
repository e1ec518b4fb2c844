"""Core findings of the noise harness, each as its minimal event sequence (see the harness's `minimise`).

Each is noise the hardware layer passes through (or, for the last, a fuzzed sequence) that once made
the rules core rule wrongly; kept as regression tests now that the core handles them.
"""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind
from tests.rules.table_driver import ROBERT_FAMILY, Table, kinds

FOUR_CARD_FLOP = ["Qs", "Js", "4d", "5d"]


@pytest.mark.parametrize("profile", ["robert", "wfp"])
def test_shoe_double_read_of_the_extra_card_is_one_extra_card(profile: str) -> None:
    table = Table(profile, seats=(1, 2))
    table.new_hand()
    table.deal()
    table.shoe("9c")  # the extra card: goes back on the deck as the flop's burn
    table.read("shoe", "9c")  # the same card, still at the mouth of the shoe, read again 50 ms later
    assert kinds(table.rulings) == [RulingKind.EXTRA_CARD]


@pytest.mark.parametrize("profile", ROBERT_FAMILY)
def test_board_reread_after_a_flop_redeal_ruling_is_not_a_new_card(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    table.flop(FOUR_CARD_FLOP)  # flop_too_many: the four go back into the stub
    table.read("board3", "5d")  # the neighbouring antenna (or a flicker) sees the fourth card again
    table.press("confirm")
    for position, card in enumerate(FOUR_CARD_FLOP, start=1):
        table.gone(f"board{position}", card)  # the dealer gathers the four cards
    table.flop(["Ah", "Kh", "3c"], burns=0)  # the new flop, without a burn
    table.act("check")
    assert kinds(table.rulings) == [RulingKind.FLOP_TOO_MANY]
    assert table.core.snapshot().board == ("Ah", "Kh", "3c")


def test_flicker_of_a_flop_card_before_the_extra_card_is_lifted_does_not_crash() -> None:
    table = Table("wfp", seats=(1, 2))
    table.clean_preflop()
    table.shoe()  # the burn
    for card in FOUR_CARD_FLOP:  # four cards out of the shoe, then turned on the board
        table.read("shoe", table.take(card))
    for position, card in enumerate(FOUR_CARD_FLOP, start=1):
        table.read(f"board{position}", card)  # flop_too_many: 5d goes back as the turn's burn
    table.gone("board3", "4d")  # 4d flickers out of the field ...
    table.press("confirm")
    table.gone("board4", "5d")  # ... and the dealer lifts the extra card
    table.read("board3", "4d")  # 4d is seen again: it never moved
    table.act("check", "check")
    table.turn("6c", burns=0)
    table.act("check", "check")
    table.river("7h")
    table.act("check", "check")  # showdown
    assert kinds(table.rulings) == [RulingKind.FLOP_TOO_MANY, RulingKind.SHOWDOWN]
    assert table.core.snapshot().board == ("Qs", "Js", "4d", "6c", "7h")


def test_burn_kept_through_a_flop_redeal_is_one_burn() -> None:
    table = Table("robert", seats=(1, 2))
    table.new_hand()
    table.deal(["2s", "4d", "2h", "6d"])
    table.act("call", "call")
    table.shoe("Ad")  # the burn
    for position, card in enumerate(["Qs", "2d", "As"], start=1):
        table.read(f"board{position}", table.take(card))  # the shoe missed these three
    table.press("confirm")
    table.read("board4", table.take("9c"))  # a fourth flop card: the flop is redealt, the burn stays
    for position, card in enumerate(["Td", "Qd", "Js"], start=1):
        table.read(f"board{position}", table.take(card))
    table.act("check")
    snapshot = table.core.snapshot()
    assert snapshot.burns.count("Ad") == 1, snapshot.burns
