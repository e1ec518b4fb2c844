"""The one ledger of a hand's burns: credited to streets to come, taken when a street is dealt, recorded once."""

from __future__ import annotations

from firmware_py.core.board import UNKNOWN_BURN, BurnLedger, StreetDeal
from firmware_py.core.rulings import Street


def test_a_street_expects_one_burn_unless_the_ledger_says_otherwise() -> None:
    ledger = BurnLedger()
    assert ledger.take(Street.TURN) == (1, [])
    ledger.due[Street.TURN] = (0, [])  # a premature flop redealt without a burn (Irregularities 15)
    ledger.credit(Street.TURN, "A1")
    assert ledger.take(Street.TURN) == (0, ["A1"]) and Street.TURN not in ledger.due


def test_an_exposed_card_credited_as_the_flop_burn_is_forgotten_when_it_comes_out_again() -> None:
    ledger = BurnLedger()
    ledger.credit(Street.FLOP, "A1")
    ledger.credit(Street.FLOP, UNKNOWN_BURN)
    deal = StreetDeal(street=Street.FLOP, expected_burns=1, burns=["A1"])
    ledger.record("A1")
    ledger.forget("A1", deal)
    assert ledger.due[Street.FLOP] == (1, [UNKNOWN_BURN]) and deal.burns == [] and ledger.out == []


def test_a_burn_is_recorded_once_and_an_unknown_burn_not_at_all() -> None:
    ledger = BurnLedger()
    for uid in ("A1", "A1", UNKNOWN_BURN, "B2"):
        ledger.record(uid)
    assert ledger.out == ["A1", "B2"]


def test_a_street_burns_are_those_credited_then_the_shoe_cards_not_on_the_board() -> None:
    deal = StreetDeal(street=Street.TURN, expected_burns=1, burns=["A1"], shoe=["B2", "C3", "A1"], board=["C3"])
    assert deal.burn_cards() == ["A1", "B2"] and deal.needed == 1
