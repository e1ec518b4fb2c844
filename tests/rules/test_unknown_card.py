"""A card out of the shoe whose tag no enrolled deck knows: the table cannot see it.

The core alarms at once, naming the antenna (a ruling citing Irregularities 3: its back decides),
counts the card where it fell (a hole card, a burn, a board card), and rules on the cards after it
as if it were there: no short card, dead hand, missing burn or premature card follows from it.
"""

from __future__ import annotations

import pytest

from firmware_py.core import Read, RulingKind
from firmware_py.core.cards import any_unknown, is_unknown
from tests.rules.table_driver import ALL_PROFILES, Table, kinds, only

UNKNOWN = "04AA55AA55AA01"


def unknown(table: Table, antenna: str = "shoe") -> list:
    return table._feed(Read(t=table.tick(), antenna=antenna, uid=UNKNOWN))


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_3_unknown_tag_from_the_shoe_alarms_at_once_naming_the_antenna(profile: str) -> None:
    table = Table(profile)  # seats 1-4, button 1: the deal goes 2, 3, 4, 1
    table.new_hand()
    table.deal(count=2)
    ruling = only(unknown(table))
    assert ruling.ruling is RulingKind.UNKNOWN_CARD and ruling.cause == "unknown_tag"
    assert ruling.rule.endswith("Irregularities 3")
    assert "shoe" in ruling.remedy and UNKNOWN in ruling.remedy and "seat 4's hole card" in ruling.remedy
    assert ruling.seat == 4
    assert ruling in table.core.snapshot().unconfirmed  # on the banner until the dealer confirms


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_3_unknown_hole_card_keeps_the_count_no_false_rulings_follow(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=2)
    unknown(table)  # seat 4's first card
    assert kinds(table.deal(count=5)) == []  # the deal completes at 8 cards: nobody is short
    snap = table.core.snapshot()
    assert [len(v.cards) for v in snap.seats] == [2, 2, 2, 2]
    table.act("call", "call", "call", "check")
    assert kinds(table.flop()) == []  # one burn, three cards: no burn or premature ruling
    table.act("check", "check", "check", "check")
    assert kinds(table.turn()) == []
    table.act("check", "check", "check", "check")
    assert kinds(table.river()) == []
    table.act("check", "check", "check", "check")
    # seat 4's hand cannot be read by the table: no showdown ruling, the dealer reads the hands
    assert [r.ruling for r in table.rulings] == [RulingKind.UNKNOWN_CARD]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_the_showdown_2_is_ruled_when_the_unknown_card_was_folded(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=2)
    unknown(table)  # seat 4
    table.deal(count=5)
    table.press("call", 4)  # seat 4 (under the gun) ... then folds to a raise
    table.press("raise", 1)
    table.press("call", 2)
    table.press("call", 3)
    table.press("fold", 4)
    table.flop()
    table.act("check", "check", "check")
    table.turn()
    table.act("check", "check", "check")
    table.river()
    table.act("check", "check", "check")
    assert kinds(table.rulings) == [RulingKind.UNKNOWN_CARD, RulingKind.SHOWDOWN]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_hold_em_burn_an_unknown_burn_card_counts_as_the_burn(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    ruling = only(unknown(table))  # the flop's burn
    assert ruling.ruling is RulingKind.UNKNOWN_CARD and "the next card out for the board" in ruling.remedy
    assert kinds(table.flop(burns=0)) == []  # no missing burn
    table.act("check", "check", "check", "check")
    assert kinds(table.turn()) == []
    assert len(table.core.snapshot().board) == 4


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_an_unknown_board_card_takes_its_place_on_the_board(profile: str) -> None:
    table = Table(profile)
    table.clean_preflop()
    table.shoe()  # the burn
    table.street(count=2, burns=0)
    assert kinds(unknown(table)) == [RulingKind.UNKNOWN_CARD]
    assert kinds(unknown(table, "board3")) == []  # it lands where the third flop card goes
    snap = table.core.snapshot()
    assert len(snap.board) == 3 and snap.board[2].startswith("?")
    table.act("check", "check", "check", "check")
    assert kinds(table.turn()) == []  # the flop was complete: the turn is not premature


def test_any_unknown_finds_an_unread_card_in_any_group_and_none_among_known_cards() -> None:
    """The showdown's test (cards.any_unknown) asks the joined names: a known card, a joker, never matches."""
    assert any_unknown(["As", "Kd", "Qh", "2c", "3d"], ["Th", "?2"]) and is_unknown("?2")
    assert not any_unknown(["As", "Kd", "Qh", "2c", "3d"], ["Th", "9h"], ["X1", "Jc"])
    assert not any_unknown()
