"""Rules looked up by (profile, game): a book's section written for hold'em rules hold'em only; another game
falls under the book's general section, and the ruling cites the section it applied."""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind
from firmware_py.core.game import GAMES
from tests.rules.table_driver import ALL_PROFILES, Table, only

# The section that rules the first (or second) card of an Omaha deal exposed: each book's general misdeal rule.
OMAHA_FIRST_CARDS = {"robert": "robert: Misdeals 1(a)", "upt": "upt: Misdeals 2(a)", "rpl": "rpl: Misdeals 1(a)",
                     "wfp": "wfp: Misdeals 1(a)", "wfp-dealer": "wfp-dealer: Exposed Cards"}
HOLDEM_FIRST_CARDS = {**OMAHA_FIRST_CARDS, "upt": "upt: Hold'em 1", "rpl": "rpl: Hold'em 2",
                      "wfp": "wfp: Irregularities 17"}


def test_rpl_holdem_2_if_the_first_holecard_dealt_is_exposed_a_misdeal_results_in_holdem() -> None:
    t = Table("rpl")
    t.new_hand()
    t.deal(count=1)
    ruling = only(t.press("exposed"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.rule == "rpl: Hold'em 2"


def test_rpl_holdem_2_any_other_holecard_exposed_the_deal_continues_in_holdem() -> None:
    t = Table("rpl")
    t.new_hand()
    t.deal(count=2)
    ruling = only(t.press("exposed"))
    assert ruling.ruling is RulingKind.EXPOSED_CARD and ruling.rule == "rpl: Hold'em 2"


@pytest.mark.parametrize("game", ["omaha", "omaha5"])
def test_rpl_misdeals_1a_the_second_card_exposed_in_omaha_is_a_misdeal_under_the_general_rule(game: str) -> None:
    """Hold'em 2 is written for hold'em: an Omaha deal falls under Misdeals 1(a), "the first or second card"."""
    t = Table("rpl", game=game)
    t.new_hand()
    t.deal(count=2)
    ruling = only(t.press("exposed"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.rule == "rpl: Misdeals 1(a)"


@pytest.mark.parametrize(("game", "cites"), [("holdem", HOLDEM_FIRST_CARDS), ("omaha", OMAHA_FIRST_CARDS)])
@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_the_first_card_exposed_cites_the_section_that_governs_the_game(profile: str, game: str,
                                                                       cites: dict[str, str]) -> None:
    t = Table(profile, game=game)
    t.new_hand()
    t.deal(count=1)
    ruling = only(t.press("exposed"))
    assert ruling.ruling is RulingKind.MISDEAL and ruling.rule == cites[profile]


@pytest.mark.parametrize("profile", ["upt", "rpl", "wfp"])
def test_two_extra_cards_in_omaha_cite_the_general_misdeal_rule_not_the_holdem_section(profile: str) -> None:
    t = Table(profile, game="omaha")
    t.new_hand()
    t.deal()
    rulings = t.shoe() + t.shoe()  # two extra cards
    misdeal = next(r for r in rulings if r.ruling is RulingKind.MISDEAL)
    assert "Hold'em" not in misdeal.rule and "Irregularities 18" not in misdeal.rule
    assert misdeal.rule.endswith("(d)")


@pytest.mark.parametrize("game", ["holdem", "omaha", "omaha5"])
@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_dead_hands_a_short_hand_remedy_speaks_of_the_games_own_hole_cards(profile: str, game: str) -> None:
    """Dead Hands 1(c): "the proper number of cards for that particular game"; never "two cards" to Omaha."""
    t = Table(profile, game=game)
    t.new_hand()
    t.deal(count=4 * GAMES[game].hole_cards - 1)
    t.act("call")  # short_card: the button is owed the top card, but it never comes
    t.act("call", "call", "check")
    dead = [r for r in t.rulings if r.ruling is RulingKind.DEAD_HAND]
    assert len(dead) == 1 and dead[0].seat == 1
    if game == "holdem":
        assert "two" in dead[0].remedy
    else:
        assert "two cards" not in dead[0].remedy and "two hole cards" not in dead[0].remedy
        assert GAMES[game].hole_text() in dead[0].remedy
        assert dead[0].rule != "wfp-dealer: Two Cards to Win"


def test_wfp_dealer_two_cards_to_win_rules_holdem_and_omaha_falls_to_wfp_dead_hands_1c() -> None:
    for game, cite in (("holdem", "wfp-dealer: Two Cards to Win"), ("omaha", "wfp: Dead Hands 1(c)")):
        t = Table("wfp-dealer", game=game)
        t.new_hand()
        t.deal(count=4 * GAMES[game].hole_cards - 1)
        t.act("call", "call", "call", "check")
        assert [r.rule for r in t.rulings if r.ruling is RulingKind.DEAD_HAND] == [cite]


