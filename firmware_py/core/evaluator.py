"""Reading hands at showdown with phevaluator (a well-kept C evaluator), and naming them for people."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from phevaluator import evaluate_cards

RANK_NAMES = {
    "2": ("two", "twos"), "3": ("three", "threes"), "4": ("four", "fours"), "5": ("five", "fives"),
    "6": ("six", "sixes"), "7": ("seven", "sevens"), "8": ("eight", "eights"), "9": ("nine", "nines"),
    "T": ("ten", "tens"), "J": ("jack", "jacks"), "Q": ("queen", "queens"), "K": ("king", "kings"),
    "A": ("ace", "aces"),
}
RANK_ORDER = "23456789TJQKA"
# phevaluator ranks 1 (royal flush) to 7462 (seven high); category upper bounds, best first.
_CATEGORIES = (
    (10, "straight flush"), (166, "four of a kind"), (322, "full house"), (1599, "flush"),
    (1609, "straight"), (2467, "three of a kind"), (3325, "two pair"), (6185, "pair"), (7462, "high card"),
)


def strength(cards: Sequence[str]) -> int:
    """Rank of the best five of 5 to 7 cards: lower is better."""
    return int(evaluate_cards(*cards))


def best_five(cards: Sequence[str]) -> tuple[int, tuple[str, ...]]:
    best: tuple[int, tuple[str, ...]] | None = None
    for combo in combinations(cards, 5):
        rank = strength(combo)
        if best is None or rank < best[0]:
            best = (rank, combo)
    assert best is not None
    return best


def category(rank: int) -> str:
    for bound, name in _CATEGORIES:
        if rank <= bound:
            return name
    raise ValueError(f"not a hand rank: {rank}")


def describe(cards: Sequence[str]) -> str:
    """Name the best hand in people's words.

    >>> describe(["Ah", "Kh", "9h", "5h", "2h", "3c", "4d"])
    'flush, ace high'
    >>> describe(["Ks", "Kd", "Kc", "7h", "7s", "2c", "3d"])
    'full house, kings full of sevens'
    """
    rank, five = best_five(cards)
    name = category(rank)
    counts = Counter(card[0] for card in five)
    by_count = sorted(counts, key=lambda r: (counts[r], RANK_ORDER.index(r)), reverse=True)
    top = by_count[0]
    if name in ("straight", "straight flush"):
        ranks = {RANK_ORDER.index(r) for r in counts}
        high = "5" if ranks == {12, 0, 1, 2, 3} else RANK_ORDER[max(ranks)]
        if name == "straight flush" and high == "A":
            return "royal flush"
        return f"{name}, {RANK_NAMES[high][0]} high"
    if name == "four of a kind":
        return f"four of a kind, {RANK_NAMES[top][1]}"
    if name == "full house":
        return f"full house, {RANK_NAMES[top][1]} full of {RANK_NAMES[by_count[1]][1]}"
    if name == "flush":
        return f"flush, {RANK_NAMES[top][0]} high"
    if name == "three of a kind":
        return f"three of a kind, {RANK_NAMES[top][1]}"
    if name == "two pair":
        return f"two pair, {RANK_NAMES[top][1]} and {RANK_NAMES[by_count[1]][1]}"
    if name == "pair":
        return f"pair of {RANK_NAMES[top][1]}"
    return f"high card, {RANK_NAMES[top][0]}"


def winners(hands: dict[int, Sequence[str]], board: Sequence[str]) -> tuple[tuple[int, ...], str]:
    """The seats with the best hand (ties split) and the winning hand's name."""
    ranks = {seat: strength([*cards, *board]) for seat, cards in hands.items()}
    best = min(ranks.values())
    tied = tuple(sorted(seat for seat, rank in ranks.items() if rank == best))
    return tied, describe([*hands[tied[0]], *board])
