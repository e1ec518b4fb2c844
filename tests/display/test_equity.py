"""Win and tie chances against an independent calculation: pokerkit's hand evaluator and equities."""

from __future__ import annotations

import itertools
import random

import pytest
from phevaluator import evaluate_cards
from pokerkit import Card, Deck, StandardHighHand, calculate_equities, parse_range

from firmware_py.core.cards import FULL_DECK, RANKS
from firmware_py.core.evaluator import CARD_IDS, card_id, category, describe, hand_name, strength
from firmware_py.odds.equity import calculate_equity


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


@pytest.mark.slow  # under a minute: pokerkit's pure-Python equities; CI runs it (`pytest -m slow`)
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
                                (StandardHighHand,), sample_count=20_000)  # 5 standard errors inside 0.02
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


_SAID = {"2": ("two", "twos"), "3": ("three", "threes"), "4": ("four", "fours"), "5": ("five", "fives"),
         "6": ("six", "sixes"), "7": ("seven", "sevens"), "8": ("eight", "eights"), "9": ("nine", "nines"),
         "T": ("ten", "tens"), "J": ("jack", "jacks"), "Q": ("queen", "queens"), "K": ("king", "kings"),
         "A": ("ace", "aces")}


def words_by_pokerkit(cards: list[str]) -> str:
    """The best hand in words, from pokerkit's best five and its category, the ranks counted here: the
    reference `hand_name` is checked against (written apart from it, phevaluator not asked)."""
    best = StandardHighHand.from_game("".join(cards[:2]), "".join(cards[2:]))
    label = str(best.entry.label.value).lower().replace("one pair", "pair")
    ranks = sorted((RANKS.index(str(card.rank.value)) for card in best.cards), reverse=True)
    if label in ("straight", "straight flush"):
        top = 3 if ranks == [12, 3, 2, 1, 0] else ranks[0]  # the wheel is five high
        if label == "straight flush" and top == 12:
            return "royal flush"
        return f"{label}, {_SAID[RANKS[top]][0]} high"
    if label == "flush":
        return f"flush, {_SAID[RANKS[ranks[0]]][0]} high"
    if label == "high card":
        return f"high card, {_SAID[RANKS[ranks[0]]][0]}"
    by_count = sorted(((ranks.count(rank), rank) for rank in set(ranks)), reverse=True)
    top, second = (_SAID[RANKS[rank]][1] for _count, rank in by_count[:2])
    return {"four of a kind": f"four of a kind, {top}", "full house": f"full house, {top} full of {second}",
            "three of a kind": f"three of a kind, {top}", "two pair": f"two pair, {top} and {second}",
            "pair": f"pair of {top}"}[label]


def test_every_kind_of_hand_is_named_as_pokerkit_reads_it():
    """Each of phevaluator's 7,462 ranks (all 2,598,960 hands of five read, the first of each rank kept)
    in the words pokerkit's best five say."""
    names = {number: card for card, number in CARD_IDS.items()}
    first: dict[int, tuple[int, ...]] = {}
    for five in itertools.combinations(range(52), 5):
        first.setdefault(evaluate_cards(*five), five)
    assert sorted(first) == list(range(1, 7463))
    wrong = {rank: hand_name(rank) for rank, five in first.items()
             if hand_name(rank) != words_by_pokerkit([names[number] for number in five])}
    assert not wrong
    with pytest.raises(ValueError, match="not a phevaluator hand rank"):
        hand_name(7463)


def test_seven_cards_are_named_by_their_best_five():
    rng = random.Random(23)
    for _ in range(2000):
        cards = rng.sample(FULL_DECK, rng.choice((5, 6, 7)))
        assert describe(cards) == hand_name(strength(cards)) == words_by_pokerkit(cards), cards
