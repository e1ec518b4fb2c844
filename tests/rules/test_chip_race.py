"""The chip race from the shoe (WFP Tournament Procedures 6, UPT Tournaments 11; RPL Tournaments 10: none)."""

from __future__ import annotations

import doctest
import random
import shutil

import pytest

from firmware_py.core import RuleKey, RulingKind, Setup
from firmware_py.core import race as race_module
from firmware_py.core.engine import TableCore
from firmware_py.core.race import card_strength, deal_order, rule_race
from firmware_py.profiles import DEFAULT_DIR, load_profiles
from firmware_py.simulation.dealer import DealerBot
from tests.rules.table_driver import BLUE, PROFILES, RED, Table


def race_cards(t: Table, *cards: str) -> list:
    out = []
    for card in cards:
        out += t.read("shoe", card)
    return out


def test_ties_1_suits_rank_spades_hearts_diamonds_clubs() -> None:
    assert sorted(["Kc", "Kd", "Ks", "Kh", "Ac", "2s"], key=card_strength, reverse=True) == [
        "Ac", "Ks", "Kh", "Kd", "Kc", "2s"]


def test_race_cards_go_from_seat_1_each_player_all_their_cards_first() -> None:
    # "Cards are dealt clockwise starting with the seat to the left of the dealer, regardless of the button"
    # (WFP), "starting with the 1-seat" (UPT), "with each player receiving all cards before ... the next".
    assert deal_order({4: 1, 1: 3, 2: 2}) == (1, 1, 1, 2, 2, 4)


def test_wfp_tournament_procedures_6_chip_race_highest_card_then_half_or_more() -> None:
    t = Table("wfp", button=3)  # the button does not matter: seat 1 is dealt first
    assert t.race(25, 100, {1: 3, 2: 2, 4: 1}) == []
    snap = t.core.snapshot()
    assert snap.race is not None and snap.race.due == 1 and snap.race.cards == ()
    rulings = race_cards(t, "2c", "Kd", "5h", "Ks", "3d", "Ah")
    (ruling,) = rulings
    assert ruling.ruling is RulingKind.CHIP_RACE and ruling.rule == "wfp: Tournament Procedures 6; Ties 1"
    # 6 x 25 = 150: one 100 chip to the highest card (Ah, seat 4); 50 left is half a chip: the highest
    # card left (Ks, seat 2) gets one too; seat 1 (Kd) gets none.
    race = t.core.snapshot().race
    assert race is not None and race.done
    assert [(a.seat, a.why, a.card) for a in race.awards] == [(4, "card", "Ah"), (2, "half_or_more", "Ks")]
    assert "seat 4 with Ah" in ruling.remedy and "seat 2 with Ks" in ruling.remedy


def test_wfp_tournament_procedures_6_the_maximum_is_one_chip_to_any_player() -> None:
    result = rule_race(chip=25, to=100, odd={1: 3, 2: 3, 3: 2}, broke=frozenset(), procedure="race",
                       one_chip_each=True, cards=((1, "As"), (1, "Ah"), (1, "2c"), (2, "3c"), (2, "4c"), (2, "5c"),
                                                  (3, "Kd"), (3, "2d")))
    assert [(a.seat, a.card) for a in result.awards] == [(1, "As"), (3, "Kd")]  # 200: two chips, seat 1 once


def test_upt_tournaments_11_every_card_races_on_its_own() -> None:
    t = Table("upt")
    t.race(25, 100, {1: 3, 2: 3, 3: 2})
    (ruling,) = race_cards(t, "As", "Ah", "2c", "3c", "4c", "5c", "Kd", "2d")
    assert ruling.rule == "upt: Tournaments 11"
    race = t.core.snapshot().race
    assert race is not None and [(a.seat, a.card) for a in race.awards] == [(1, "As"), (1, "Ah")]


@pytest.mark.parametrize("profile", ["wfp", "upt"])
def test_a_player_may_not_be_eliminated_by_the_chip_change(profile: str) -> None:
    # Seat 3's only chips are two odd 25s: it gets a new chip before anyone else, whatever its cards.
    t = Table(profile)
    t.stacks(s1=1075, s2=2050, s3=50, s4=1000)
    t.race(25, 100)  # odd chips from the counted stacks: seat 1 three, seat 2 two, seat 3 two
    assert t.core.snapshot().race.odd == ((1, 3), (2, 2), (3, 2))  # type: ignore[union-attr]
    race_cards(t, "Ks", "Qs", "Js", "As", "Ah", "2c", "3c")
    race = t.core.snapshot().race
    assert race is not None and race.awards[0].seat == 3 and race.awards[0].why == "no_chips_left"
    # 7 x 25 = 175: seat 3's chip first leaves 75, more than half a chip: the highest card (As, seat 2).
    assert [(a.seat, a.why) for a in race.awards] == [(3, "no_chips_left"), (2, "half_or_more")]
    assert [t.core.snapshot().seat(s).stack for s in (1, 2, 3, 4)] == [1000, 2100, 100, 1000]


def test_a_remainder_under_half_a_chip_goes_to_nobody() -> None:
    result = rule_race(chip=25, to=100, odd={1: 1, 2: 1, 3: 3}, broke=frozenset(), procedure="race",
                       one_chip_each=True, cards=((1, "2c"), (2, "Ac"), (3, "3c"), (3, "4c"), (3, "5c")))
    assert [(a.seat, a.why) for a in result.awards] == [(2, "card")] and result.remainder == 25


def test_rpl_tournaments_10_no_race_odd_chips_are_chipped_up() -> None:
    # "Removing $25's, if the player has $125 in chips they will receive $200 in $100 chips."
    t = Table("rpl")
    t.stacks(s1=125, s2=1000, s3=1050, s4=975)
    (ruling,) = t.race(25, 100)
    assert ruling.ruling is RulingKind.CHIP_RACE and ruling.rule == "rpl: Tournaments 10"
    assert [t.core.snapshot().seat(s).stack for s in (1, 2, 3, 4)] == [200, 1000, 1100, 1000]


def test_race_stacks_change_with_the_chips_won_and_given_up() -> None:
    t = Table("wfp")
    t.stacks(s1=1075, s2=1025, s3=1000, s4=1000)
    t.race(25, 100)
    race_cards(t, "2c", "3c", "4c", "Ad")  # seat 1's three, seat 2's one: 100, one chip to seat 2
    assert [t.core.snapshot().seat(s).stack for s in (1, 2)] == [1000, 1100]


def test_race_misdeal_a_card_to_the_wrong_seat_is_dealt_again() -> None:
    t = Table("wfp")
    t.race(25, 100, {1: 2, 3: 1})
    race_cards(t, "9c")
    (ruling,) = t.read("seat3", "9c")  # seat 1 was due its second card
    assert (ruling.ruling, ruling.cause, ruling.seat) == (RulingKind.RACE_MISDEAL, "race_out_of_sequence", 3)
    assert ruling.rule == t.core.profile.rule(RuleKey.RACE_MISDEAL).cite  # type: ignore[union-attr]
    snap = t.core.snapshot()
    assert snap.race is not None and snap.race.cards == () and snap.race.due == 1


def test_race_misdeal_a_card_to_a_seat_with_no_odd_chips() -> None:
    t = Table("upt")
    t.race(25, 100, {1: 2, 3: 1})
    race_cards(t, "9c")
    (ruling,) = t.read("seat2", "9c")
    assert (ruling.ruling, ruling.cause, ruling.seat) == (RulingKind.RACE_MISDEAL, "race_no_odd_chips", 2)


def test_race_misdeal_a_card_too_many_takes_the_result_back() -> None:
    t = Table("wfp")
    t.stacks(s1=1075, s2=1025, s3=1000, s4=1000)
    t.race(25, 100)
    race_cards(t, "2c", "3c", "4c", "Ad")
    (ruling,) = race_cards(t, "Kd")  # a fifth card for four odd chips: a player dealt too many
    assert (ruling.ruling, ruling.cause) == (RulingKind.RACE_MISDEAL, "race_too_many")
    assert [t.core.snapshot().seat(s).stack for s in (1, 2)] == [1075, 1025]  # as before the race
    (again,) = race_cards(t, "Ac", "3d", "4d", "5d")  # dealt again: seat 1's ace wins now
    assert again.ruling is RulingKind.CHIP_RACE
    assert [t.core.snapshot().seat(s).stack for s in (1, 2)] == [1100, 1000]


def test_race_dealer_called_misdeal_and_no_new_hand_during_a_race() -> None:
    t = Table("wfp")
    t.race(25, 100, {1: 1, 2: 1})
    race_cards(t, "9c")
    assert t.new_hand() == [] and t.core.hand_number == 0
    assert "chip race is being dealt" in t.notices[-1]
    (ruling,) = t.press("misdeal")
    assert (ruling.ruling, ruling.cause) == (RulingKind.RACE_MISDEAL, "dealer_called")
    race_cards(t, "9c", "Td")
    t.new_hand()  # the race is over: the hand is dealt
    assert t.core.hand_number == 1 and t.core.snapshot().race is None


def test_race_is_refused_during_a_hand_and_with_odd_chips_that_change_up_directly() -> None:
    t = Table("wfp")
    t.new_hand()
    assert t.race(25, 100, {1: 1}) == [] and "between hands" in t.notices[-1]
    t2 = Table("wfp")
    t2.race(25, 100, {1: 4})
    assert "change 4 up directly" in t2.notices[-1] and t2.core.snapshot().race is None


@pytest.mark.parametrize("misdeal", [False, True])
@pytest.mark.parametrize("profile", ["wfp", "upt", "rpl", "robert", "wfp-dealer"])
def test_the_dealer_bot_runs_a_race_at_a_color_up(profile: str, misdeal: bool) -> None:
    """What the tournament simulation calls at a color-up: DealerBot.race, between hands."""

    bot = DealerBot(rng=random.Random(7), deck=RED, profile=PROFILES[profile], seats=(1, 2, 3, 4, 5, 6),
                    button=1, other_deck=BLUE, stack=1000)
    hands = bot.session(3, t=1.0)
    core = bot._core
    assert core is not None
    before = {v.seat: v.stack or 0 for v in core.snapshot().seats}
    race = bot.race(t=hands[-1].t_end + 5, chip=25, to=100, odd={1: 3, 2: 1, 4: 2, 6: 1}, misdeal=misdeal)
    snap = core.snapshot()
    assert snap.race is not None and snap.race.done and race.misdealt is (misdeal and profile != "rpl")
    after = {v.seat: v.stack or 0 for v in snap.seats}
    assert {seat: after[seat] - before[seat] for seat in after if after[seat] != before[seat]} == {
        seat: delta for seat, delta in snap.race.change if delta}
    # 7 odd chips of 25 = 175: one 100 chip and a remainder of 75 (half or more): two chips, or one each in RPL.
    assert len(snap.race.awards) == (4 if profile == "rpl" else 2)
    # The events replay through a fresh core to the same rulings: the misdeal (if made) then the race.
    fresh = TableCore(PROFILES)
    fresh.feed(Setup(t=0.0, profile=profile, seats=(1, 2, 3, 4, 5, 6), button=1, decks=(RED, BLUE), in_play="test-red"))
    for hand in hands:
        for event in hand.events:
            fresh.feed(event)
    ruled = [r.ruling for e in race.events for r in fresh.feed(e).rulings]
    assert ruled == ([RulingKind.RACE_MISDEAL] if misdeal and profile != "rpl" else []) + [RulingKind.CHIP_RACE]
    assert fresh.snapshot().seats == snap.seats  # the same stacks


NIGHTLY = """parent = "wfp"
profile = "wfp-nightly"

[rules.chip_race]
rule = "Tournament Procedures 6 (EXCEPTION); Ties 1"
procedure = "nightly"
"""


@pytest.fixture(scope="module")
def nightly_profiles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The five profiles and a house's WFP nightly-game profile beside them, read as the daemon reads them."""
    folder = tmp_path_factory.mktemp("profiles")
    for path in DEFAULT_DIR.glob("*.toml"):
        shutil.copy(path, folder / path.name)
    (folder / "wfp-nightly.toml").write_text(NIGHTLY)
    return dict(load_profiles(folder))


def test_wfp_tournament_procedures_6_exception_nightly_games_color_up_more_than_one_chip(nightly_profiles) -> None:
    # "During regular nightly games ... Players with more than one chip of the color eliminated will receive
    # one chip of the next highest denomination, in exchange. Players with ONLY one chip will participate in
    # a Chip Race, as described above."
    t = Table("wfp-nightly", seats=(1, 2, 3, 4, 5), profiles=nightly_profiles)
    t.stacks(s1=1075, s2=1025, s3=1025, s4=1000, s5=1050)
    assert t.race(25, 100) == []
    snap = t.core.snapshot()
    assert snap.race is not None and snap.race.due == 2  # seat 1 (three odd chips) is not dealt a card
    (ruling,) = race_cards(t, "9c", "Js")  # seats 2 and 3, one odd chip each: 50 raced, half a chip
    assert ruling.ruling is RulingKind.CHIP_RACE
    assert ruling.rule == "wfp-nightly: Tournament Procedures 6 (EXCEPTION); Ties 1"
    race = t.core.snapshot().race
    assert race is not None and race.done
    assert [(a.seat, a.why, a.card) for a in race.awards] == [
        (1, "colored_up", None), (5, "colored_up", None), (3, "half_or_more", "Js")]
    assert "seat 1, more than one odd chip (colored up)" in ruling.remedy
    assert [t.core.snapshot().seat(s).stack for s in (1, 2, 3, 4, 5)] == [1100, 1000, 1100, 1000, 1100]


def test_wfp_nightly_a_race_card_to_a_player_colored_up_is_a_race_misdeal(nightly_profiles) -> None:
    t = Table("wfp-nightly", profiles=nightly_profiles)
    t.race(25, 100, {1: 2, 3: 1})
    race_cards(t, "9c")  # seat 3's only card
    (ruling,) = t.read("seat1", "9c")
    assert (ruling.ruling, ruling.cause, ruling.seat) == (RulingKind.RACE_MISDEAL, "race_no_odd_chips", 1)
    assert "colored up, not raced" in ruling.remedy or "colored up, not raced" in ruling.detail


def test_wfp_nightly_the_dealer_bot_deals_only_the_one_chip_players(nightly_profiles) -> None:
    bot = DealerBot(rng=random.Random(3), deck=RED, profile=nightly_profiles["wfp-nightly"], seats=(1, 2, 3, 4),
                    button=1, other_deck=BLUE, stack=1000)
    hands = bot.session(2, t=1.0)
    race = bot.race(t=hands[-1].t_end + 5, chip=25, to=100, odd={1: 3, 2: 1, 4: 1}, misdeal=True)
    core = bot._core
    assert core is not None
    snap = core.snapshot().race
    assert snap is not None and snap.done and race.misdealt
    assert snap.cards and {seat for seat, _card in snap.cards} == {2, 4}
    assert (1, "colored_up", None) in [(a.seat, a.why, a.card) for a in snap.awards]


def test_the_race_modules_examples_hold() -> None:
    assert doctest.testmod(race_module).failed == 0
