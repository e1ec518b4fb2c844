"""The odds of a high-low split game: each hand's share of the pot counts split halves and quarters, and matches
what the rules core's own hand kinds award on every runout."""

from __future__ import annotations

import itertools
import random

import pytest

from firmware_py.core.cards import FULL_DECK
from firmware_py.core.game import GAMES
from firmware_py.odds import calculate_equity

HILO = GAMES["omaha_hilo"]


def _shares_by_the_hand_kinds(hands: list[list[str]], board: list[str]) -> list[float]:
    """Every runout awarded as the showdown does it: half to the best high, half to the best low (none: all to
    the high), each half split among its ties."""
    seen = {*board, *(card for hand in hands for card in hand)}
    stub = [card for card in FULL_DECK if card not in seen]
    high, low = HILO.hands
    totals = [0.0] * len(hands)
    runouts = list(itertools.combinations(stub, 5 - len(board)))
    for extra in runouts:
        full = [*board, *extra]
        seats = dict(enumerate(hands))
        highs, lows = high.ranks(seats, full), low.ranks(seats, full)
        high_winners, low_winners = high.best(highs, highs), low.best(lows, lows)
        half = 0.5 if low_winners else 1.0
        for i in high_winners:
            totals[i] += half / len(high_winners)
        for i in low_winners:
            totals[i] += 0.5 / len(low_winners)
    return [total / len(runouts) for total in totals]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hilo_equity_share_on_the_turn_is_what_the_hand_kinds_award_on_every_river(seed: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample(FULL_DECK, 3 * 4 + 4)
    hands = [cards[0:4], cards[4:8], cards[8:12]]
    board = cards[12:]
    equity = calculate_equity(hands, board, game=HILO)
    assert equity.exact and equity.share == pytest.approx(_shares_by_the_hand_kinds(hands, board))
    assert sum(equity.share) == pytest.approx(1.0)


def test_a_hand_sure_of_the_low_and_tied_for_the_high_owns_three_quarters() -> None:
    equity = calculate_equity([("Ac", "2d", "Kh", "Qs"), ("Kc", "Qd", "9h", "9s")], ("Kd", "Qh", "7c", "4s", "3h"),
                              game=HILO)
    assert equity.share == (0.75, 0.25)
    assert equity.win == (0.0, 0.0) and equity.tie == (1.0, 1.0)  # neither takes the whole pot: each a part


def test_without_a_low_the_high_hand_scoops_and_its_share_is_the_whole_pot() -> None:
    equity = calculate_equity([("Kc", "Ks", "Jd", "Td"), ("Ac", "2d", "9h", "9s")], ("Kd", "Qh", "Tc", "9c", "3h"),
                              game=HILO)
    assert equity.win == (1.0, 0.0) and equity.share == (1.0, 0.0)


def test_a_high_only_game_share_is_its_wins_and_its_part_of_each_tie() -> None:
    equity = calculate_equity([("As", "Kd"), ("Ac", "Kh"), ("Qs", "Qd")], ("2s", "7h", "9d", "Jc"))
    for win, tie, share in zip(equity.win, equity.tie, equity.share, strict=True):
        assert win <= share <= win + tie
    assert sum(equity.share) == pytest.approx(1.0)


def test_hilo_chances_preflop_are_sampled_from_the_generator_given() -> None:
    hands = [("Ac", "2c", "3d", "Kd"), ("Kh", "Ks", "Qh", "Qs")]
    first = calculate_equity(hands, game=HILO, rng=random.Random(5), max_samples=4000, target_error=0.0)
    again = calculate_equity(hands, game=HILO, rng=random.Random(5), max_samples=4000, target_error=0.0)
    assert first == again and not first.exact and first.runouts == 4000
    assert first.share[0] > 0.5  # the nut low draw with an ace-high flush draw against two pairs
