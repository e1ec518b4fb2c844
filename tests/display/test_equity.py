"""Win and tie chances against an independent calculation: pokerkit's hand evaluator and equities."""

from __future__ import annotations

import itertools
import random

import pytest
from phevaluator import evaluate_cards
from pokerkit import Card, Deck, StandardHighHand, calculate_equities, parse_range

from display.equity import calculate_equity
from firmware_py.core.cards import FULL_DECK
from firmware_py.core.evaluator import card_id, category, describe


def brute_force(hands: list[tuple[str, str]], board: tuple[str, ...],
                dead: tuple[str, ...] = ()) -> tuple[list[float], list[float]]:
    """Every runout, each hand judged by pokerkit (pure Python, written independently)."""
    used = {*(c for h in hands for c in h), *board, *dead}
    stub = [card for card in FULL_DECK if card not in used]
    wins = [0] * len(hands)
    ties = [0] * len(hands)
    total = 0
    for extra in itertools.combinations(stub, 5 - len(board)):
        full = "".join(board + extra)
        best = [StandardHighHand.from_game("".join(h), full) for h in hands]
        top = max(best)
        winners = [i for i, hand in enumerate(best) if hand == top]
        if len(winners) == 1:
            wins[winners[0]] += 1
        else:
            for i in winners:
                ties[i] += 1
        total += 1
    return [w / total for w in wins], [t / total for t in ties]


EXACT_CASES = [
    ([("As", "Ah"), ("Kd", "Kc")], ("2s", "7h", "9d")),
    ([("As", "Kh"), ("Ad", "Kc")], ("2s", "7h", "9d", "Qc")),  # mostly a split pot
    ([("7s", "8s"), ("Qh", "Jh"), ("2c", "2d")], ("9s", "Ts", "2h")),
    ([("Ah", "5h"), ("Kc", "Kd"), ("6s", "7s")], ("Th", "9h", "8c", "2d")),
    ([("As", "Ad"), ("Kh", "Kd")], ("Ac", "Kc", "2h", "2d", "7s")),  # river: one runout
]


@pytest.mark.parametrize(("hands", "board"), EXACT_CASES)
def test_exact_chances_equal_an_independent_enumeration(hands, board):
    equity = calculate_equity(hands, board)
    wins, ties = brute_force(hands, board)
    assert equity.exact
    assert equity.error == 0
    assert list(equity.win) == pytest.approx(wins, abs=1e-12)
    assert list(equity.tie) == pytest.approx(ties, abs=1e-12)


def test_dead_cards_are_left_out_of_the_runouts():
    hands = [("As", "Ah"), ("Kd", "Kc")]
    board = ("2s", "7h", "9d")
    dead = ("Ks", "Qc", "3d")  # a folded hand and a burn
    equity = calculate_equity(hands, board, dead=dead)
    wins, ties = brute_force(hands, board, dead)
    assert equity.runouts == 42 * 41 // 2
    assert list(equity.win) == pytest.approx(wins, abs=1e-12)
    assert list(equity.tie) == pytest.approx(ties, abs=1e-12)


@pytest.mark.slow  # about a minute: pokerkit's pure-Python equities; CI runs it (`pytest -m slow`)
@pytest.mark.parametrize(("hands", "board"), [
    ([("As", "Ah"), ("Kd", "Kc")], ()),
    ([("7s", "8s"), ("Qh", "Jh"), ("2c", "2d"), ("Ad", "Kc")], ()),
])
def test_sampled_chances_agree_with_pokerkit_within_the_error_shown(hands, board):
    equity = calculate_equity(hands, board, rng=random.Random(7))
    assert not equity.exact
    assert equity.error <= 0.0026  # below half a point at 95% confidence
    # pokerkit gives each hand's pot share (ties split); ours: win + tie / hands tied.
    theirs = calculate_equities([parse_range("".join(h)) for h in hands],
                                Card.parse("".join(board)), 2, 5, Deck.STANDARD,
                                (StandardHighHand,), sample_count=40_000)
    for i, share in enumerate(theirs):
        mine = equity.win[i] + equity.tie[i] / 2  # two-way ties dominate; bounded below anyway
        assert mine == pytest.approx(share, abs=0.02)


def test_sampling_is_repeatable_from_the_seed_given():
    hands = [("As", "Ah"), ("Kd", "Kc")]
    first = calculate_equity(hands, rng=random.Random(3), max_samples=4000)
    again = calculate_equity(hands, rng=random.Random(3), max_samples=4000)
    assert first == again


def test_sampling_needs_a_generator_from_the_caller():
    with pytest.raises(ValueError, match=r"random\.Random"):
        calculate_equity([("As", "Ah"), ("Kd", "Kc")])


@pytest.mark.parametrize(("hands", "board", "message"), [
    ([("As", "Ah")], (), "two hands"),
    ([("As", "Ah"), ("As", "Kc")], (), "twice"),
    ([("As", "Ah"), ("Kd",)], (), "two cards"),
    ([("As", "Ah"), ("Kd", "X1")], (), "not a playing card"),
])
def test_impossible_hands_are_refused(hands, board, message):
    with pytest.raises(ValueError, match=message):
        calculate_equity(hands, board, rng=random.Random(0))


def test_hand_categories_match_pokerkit():
    rng = random.Random(11)
    for _ in range(300):
        cards = rng.sample(FULL_DECK, 7)
        ours = category(evaluate_cards(*(card_id(c) for c in cards)))
        theirs = StandardHighHand.from_game("".join(cards[:2]), "".join(cards[2:])).entry.label
        assert ours == str(theirs.value).lower().replace("one pair", "pair")


@pytest.mark.parametrize(("cards", "words"), [
    (("Ks", "5d", "Kh", "5c", "9s", "2d", "Jh"), "two pair, kings and fives"),
    (("Ah", "2d", "3c", "4s", "5h", "Kd", "Kc"), "straight, five high"),
    (("Ah", "Kh", "Qh", "Jh", "Th", "2c", "3c"), "royal flush"),
    (("Qd", "Qh", "Qc", "7s", "7d", "2c", "3c"), "full house, queens full of sevens"),
    (("6d", "6h", "9c", "Ts"), "pair of sixes"),
    (("Ad", "Kh"), "high card, ace"),
    (("Ks", "Kd", "Kc", "Kh"), "four of a kind, kings"),
])
def test_best_hand_in_words(cards, words):
    assert describe(cards) == words
