"""Omaha Hi-Lo, eight or better: the high and the low hand each win half of every pot (Robert's Ties 5(c)).

The game is its record (core/game.py: two hand kinds, high two-from-hand and low eight-or-better), its
profile entries (robert's `games`, the odd chip's `split_rule`) and these tests.
"""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind
from firmware_py.core.game import (
    GAMES,
    HIGH_ANY_FIVE,
    HIGH_TWO_FROM_HAND,
    LOW_EIGHT_OR_BETTER,
    Game,
    HandKind,
    HandRule,
    Share,
    Structure,
)
from firmware_py.core.rulings import Ruling
from tests.rules.table_driver import ALL_PROFILES, Table

BOARD = ["Kd", "7c", "4s", "2h", "Qs"]  # three low cards (7, 4, 2): a low is possible
NO_LOW_BOARD = ["Kd", "Qs", "7c", "4s", "Jc"]  # two low cards: no hand makes a low
SPLIT_CITES = {"robert": "robert: Ties 5(c)", "upt": "robert: Ties 5(c)", "rpl": "rpl: Ties 4(c)",
               "wfp": "robert: Ties 5(c)", "wfp-dealer": "robert: Ties 5(c)"}


def _showdown(hands: dict[int, list[str]], board: list[str], *, profile: str = "robert", game: str = "omaha_hilo",
              small: int = 50, big: int = 100, preflop: tuple[str, ...] = ("call", "call", "check"),
              stacks: int = 5000, profiles: dict[str, object] | None = None) -> tuple[Table, Ruling]:
    """A three-handed hand (button 1: seat 2 the small blind, seat 3 the big) checked down to the showdown."""
    t = Table(profile, seats=(1, 2, 3), game=game, profiles=profiles)
    t.reserved = {card for cards in hands.values() for card in cards} | set(board)
    t.level(small, big)
    t.stacks(s1=stacks, s2=stacks, s3=stacks)
    t.new_hand()
    order = (2, 3, 1)
    t.deal([hands[seat][n] for n in range(len(hands[1])) for seat in order])
    t.act(*preflop)
    live = len([name for name in preflop if name != "fold"])
    t.flop(board[:3])
    t.act(*["check"] * live)
    t.turn(board[3])
    t.act(*["check"] * live)
    rulings = t.river(board[4]) + t.act(*["check"] * live)
    return t, next(r for r in rulings if r.ruling is RulingKind.SHOWDOWN)


KINGS = ["Ks", "Kh", "Jd", "Tc"]  # the high: three kings (two from the hand), no low
WHEEL_DRAW = ["Ac", "3d", "Jh", "Ts"]  # the low: 7-4-3-2-A
NINES = ["9c", "9d", "8h", "6h"]  # a pair of nines and an 8-7-6-4-2 low


def _shares(ruling: Ruling) -> dict[int, int]:
    assert ruling.pots is not None
    out: dict[int, int] = {}
    for pot in ruling.pots:
        for seat, chips in pot.shares:
            out[seat] = out.get(seat, 0) + chips
    return out


def test_the_hilo_games_are_records_with_two_hand_kinds_pot_limit_and_fixed_limit() -> None:
    plo8, flo8 = GAMES["omaha_hilo"], GAMES["limit_omaha_hilo"]
    assert plo8.hands == flo8.hands == (HIGH_TWO_FROM_HAND, LOW_EIGHT_OR_BETTER)
    assert [kind.share for kind in plo8.hands] == [Share.HIGH, Share.LOW] and plo8.split and not GAMES["omaha"].split
    assert (plo8.betting, flo8.betting) == (Structure.POT_LIMIT, Structure.FIXED_LIMIT)
    assert (plo8.hole_cards, flo8.phh_variant, plo8.phh_variant) == (4, "FO/8", None)


def test_low_eight_or_better_is_two_from_the_hand_and_three_from_the_board() -> None:
    low = LOW_EIGHT_OR_BETTER
    # three low hole cards, two low board cards: no low (exactly three must come from the board)
    assert low.ranks({1: ["Ac", "2d", "3h", "Ks"]}, ["4c", "5d", "Kh", "Qs", "Jd"]) == {}
    # a pair in the hand counts once: A-A-4 plays A-4 with the board's 2-3-6
    assert low.describe(["Ac", "Ad", "4h", "Ks"], ["2c", "3d", "6h", "Qs", "Jd"]) == "6-4-3-2-A low"
    # a nine does not qualify; straights and flushes do not spoil a low
    assert low.describe(["9c", "Td", "Ah", "Ks"], ["2c", "3d", "6h", "Qs", "Jd"]) == "no low"
    assert low.describe(["Ac", "2c", "Kh", "Ks"], ["3c", "4c", "5c", "Qs", "Jd"]) == "5-4-3-2-A low"
    ranks = low.ranks({1: ["Ac", "3d", "Kh", "Ks"], 2: ["8c", "6d", "Qh", "Qc"]}, BOARD)
    assert low.best(ranks, ranks) == (1,) and low.rank_name(ranks[1]) == "7-4-3-2-A low"


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_robert_ties_5c_the_high_and_the_low_hand_each_win_half_the_pot(profile: str) -> None:
    _t, ruling = _showdown({1: KINGS, 2: WHEEL_DRAW, 3: NINES}, BOARD, profile=profile)
    assert ruling.winners == (1,) and ruling.hand == "three of a kind, kings"
    assert ruling.low_winners == (2,) and ruling.low_hand == "7-4-3-2-A low"
    assert _shares(ruling) == {1: 150, 2: 150}
    assert ruling.pots is not None and ruling.pots[0].low_winners == (2,)
    assert "seat 1 wins the high half with three of a kind, kings; seat 2 wins the low half with 7-4-3-2-A low" \
        in ruling.remedy
    assert "main pot of 300 split high to seat 1, low to seat 2: seat 2 (150) and seat 1 (150)" in ruling.remedy


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_robert_ties_5c_the_odd_chip_between_high_and_low_goes_to_the_high_hand(profile: str) -> None:
    # seat 2 (the small blind, 25) folds: 125 between seat 1's high and seat 3's low, the odd chip to the high
    _t, ruling = _showdown({1: KINGS, 2: WHEEL_DRAW, 3: NINES}, BOARD, profile=profile, small=25, big=50,
                           preflop=("call", "fold", "check"))
    assert ruling.winners == (1,) and ruling.low_winners == (3,)
    assert _shares(ruling) == {1: 63, 3: 62}
    assert (f"The odd chip of a split between the high and the low hands goes to the high hand "
            f"({SPLIT_CITES[profile]}).") in ruling.remedy


def test_robert_ties_5c_tied_lows_quarter_the_pot() -> None:
    # seats 2 and 3 hold the same low (7-4-3-2-A): each takes a quarter, seat 1 the high half
    _t, ruling = _showdown({1: KINGS, 2: WHEEL_DRAW, 3: ["As", "3c", "9c", "9d"]}, BOARD)
    assert ruling.low_winners == (2, 3) and "seat 2 and seat 3 split the low half with 7-4-3-2-A low" in ruling.remedy
    assert _shares(ruling) == {1: 150, 2: 75, 3: 75}


def test_robert_ties_5c_quartered_odd_chip_of_the_low_half_to_the_first_low_clockwise_from_the_button() -> None:
    # 125 (the small blind of 25 folded): high 63 to seat 1; the low's 62 split 31 and 31 between seats 1 and 3
    _t, ruling = _showdown({1: ["Ac", "3d", "Kh", "Ks"], 2: NINES, 3: ["As", "3c", "9s", "Jd"]}, BOARD,
                           small=25, big=50, preflop=("call", "fold", "check"))
    assert ruling.winners == (1,) and ruling.low_winners == (1, 3)
    assert ruling.pots is not None and ruling.pots[0].low_winners == (3, 1)  # clockwise from the button (seat 1)
    assert _shares(ruling) == {3: 31, 1: 94}


def test_one_hand_winning_high_and_low_scoops_the_pot() -> None:
    _t, ruling = _showdown({1: ["Ac", "3d", "Kc", "Kh"], 2: ["Jd", "Tc", "Js", "Th"], 3: NINES}, BOARD)
    assert ruling.winners == ruling.low_winners == (1,)
    assert "seat 1 scoops the pot, the high with three of a kind, kings and the low with 7-4-3-2-A low" \
        in ruling.remedy
    assert _shares(ruling) == {1: 300}


def test_no_low_qualifying_the_high_hand_takes_the_whole_pot() -> None:
    _t, ruling = _showdown({1: KINGS, 2: ["Ac", "3d", "5h", "6c"], 3: NINES}, NO_LOW_BOARD)
    assert ruling.winners == (1,) and ruling.low_winners is None and ruling.low_hand is None
    assert "no hand qualifying for the low, eight or better" in ruling.remedy
    assert _shares(ruling) == {1: 300}
    assert ruling.pots is not None and ruling.pots[0].low_winners == ()


def test_fixed_limit_omaha_hilo_bets_fixed_sizes_and_splits_the_pot() -> None:
    t, ruling = _showdown({1: KINGS, 2: WHEEL_DRAW, 3: NINES}, BOARD, game="limit_omaha_hilo")
    assert _shares(ruling) == {1: 150, 2: 150}
    assert t.core.snapshot().game == "limit_omaha_hilo"


def test_the_showdown_ruling_carries_the_low_in_its_json() -> None:
    _t, ruling = _showdown({1: KINGS, 2: WHEEL_DRAW, 3: NINES}, BOARD)
    line = ruling.to_json()
    assert line["low_winners"] == [2] and line["low_hand"] == "7-4-3-2-A low"
    assert line["pots"][0]["low_winners"] == [2]


def test_the_hand_kinds_pick_the_same_high_and_low_winners_as_pokerkit() -> None:
    """Five hundred random four-handed deals read by the record's hand kinds and by pokerkit's Omaha hands (its
    `OmahaHoldemHand` and `OmahaEightOrBetterLowHand`): the same best high and the same best qualifying low."""
    import random  # noqa: PLC0415

    from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand  # noqa: PLC0415

    from firmware_py.core.cards import FULL_DECK  # noqa: PLC0415

    rng = random.Random(36)
    high, low = GAMES["omaha_hilo"].hands
    lows_seen = 0
    for _ in range(500):
        cards = rng.sample(FULL_DECK, 4 * 4 + 5)
        hands = {seat: cards[4 * (seat - 1):4 * seat] for seat in (1, 2, 3, 4)}
        board = cards[16:]
        highs = {seat: OmahaHoldemHand.from_game("".join(hole), "".join(board)) for seat, hole in hands.items()}
        theirs_low = {}
        for seat, hole in hands.items():
            try:
                theirs_low[seat] = OmahaEightOrBetterLowHand.from_game("".join(hole), "".join(board))
            except ValueError:  # no low eight or better
                continue
        best_high = max(highs.values())
        ranks = high.ranks(hands, board)
        assert high.best(ranks, ranks) == tuple(s for s in sorted(highs) if highs[s] == best_high), (hands, board)
        lows = low.ranks(hands, board)
        assert set(lows) == set(theirs_low), (hands, board)
        if theirs_low:
            lows_seen += 1
            best_low = max(theirs_low.values())  # pokerkit: the stronger hand is the greater
            assert low.best(lows, lows) == tuple(s for s in sorted(theirs_low) if theirs_low[s] == best_low)
    assert lows_seen > 120  # the check covers lows, not only boards without one


@pytest.mark.parametrize(("game", "hands", "low"), [
    # five-card Omaha Hi-Lo: more hole cards, the same hand kinds
    (Game(name="omaha5_hilo", title="Five-Card Omaha Hi-Lo", short="PLO8-5", hole_cards=5, betting=Structure.POT_LIMIT,
          hands=(HIGH_TWO_FROM_HAND, LOW_EIGHT_OR_BETTER)),
     {1: [*KINGS, "Td"], 2: [*WHEEL_DRAW, "Qc"], 3: [*NINES, "Th"]}, "7-4-3-2-A low"),
    # hold'em high-low: a new hand kind, the low of any five cards
    (Game(name="holdem_hilo", title="Fixed-Limit Hold'em Hi-Lo", short="FLHE8", hole_cards=2,
          betting=Structure.FIXED_LIMIT, limit_bets=(1, 1, 2, 2),
          hands=(HIGH_ANY_FIVE, HandKind(name="low8_any", title="low, eight or better", share=Share.LOW,
                                         rule=HandRule.BEST_FIVE, qualifier=8))),
     {1: ["Ks", "Kh"], 2: ["Ac", "3d"], 3: ["9c", "9d"]}, "7-4-3-2-A low"),
])
def test_a_new_split_game_is_one_record_and_a_profile_naming_it(monkeypatch: pytest.MonkeyPatch, game: Game,
                                                                hands: dict[int, list[str]], low: str) -> None:
    """Issue 36 item 2: a game varying cards, betting or hand kinds is its record, its profile entry and its tests:
    added to the registry and named by a profile, nothing else changes, and its pots are split high and low."""
    from dataclasses import replace  # noqa: PLC0415

    from firmware_py.profiles import load_profiles  # noqa: PLC0415

    monkeypatch.setitem(GAMES, game.name, game)
    profiles = load_profiles()
    profiles = {**profiles, "robert": replace(profiles["robert"], games=(*profiles["robert"].games, game.name))}
    _t, ruling = _showdown(hands, BOARD, game=game.name, profiles=profiles)  # type: ignore[arg-type]
    assert ruling.winners == (1,) and ruling.low_winners == (2,) and ruling.low_hand == low
    assert _shares(ruling) == {1: 150, 2: 150}
