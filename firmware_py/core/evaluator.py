"""The one hand evaluator: ranks hands with phevaluator (a well-kept C evaluator) and names them for people.

The rules core rules on showdowns with it and the display names hands and counts chances with it,
so a ruling and the broadcast always call a hand the same thing.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from itertools import combinations
from typing import Final

from firmware_py.core.cards import RANKS, SUITS


class HandRule(StrEnum):
    """Which cards make a player's hand at the showdown (a hand kind's, core/game.py)."""

    BEST_FIVE = "best_five"  # any five of the hole cards and the board (hold'em)
    TWO_FROM_HAND = "two_from_hand"  # exactly two hole cards and exactly three board cards (Omaha)


# Each member also as a module constant, for the code that asks it at every showdown (see phase.py).
BEST_FIVE: Final = HandRule.BEST_FIVE
TWO_FROM_HAND: Final = HandRule.TWO_FROM_HAND

try:
    # The C functions behind phevaluator's public `evaluate_5cards` ... `evaluate_7cards`, called
    # directly: the public wrappers convert every argument in Python, which is most of the time
    # when the chances enumerate a thousand boards. If a release moves them, the public ones work.
    from phevaluator._pheval import evaluate_5cards, evaluate_6cards, evaluate_7cards, evaluate_omaha_cards
except ImportError:  # pragma: no cover - depends on the installed phevaluator
    from phevaluator import evaluate_5cards, evaluate_6cards, evaluate_7cards, evaluate_omaha_cards

# phevaluator numbers cards rank * 4 + suit, suits in the order clubs, diamonds, hearts, spades.
_PH_SUITS = "cdhs"
CARD_IDS: Final[dict[str, int]] = {rank + suit: r * 4 + _PH_SUITS.index(suit)
                            for r, rank in enumerate(RANKS) for suit in SUITS}
_RANK_BY_SIZE: Final[dict[int, Callable[..., int]]] = {5: evaluate_5cards, 6: evaluate_6cards, 7: evaluate_7cards}
_RANK_ORDER: Final = {rank: index for index, rank in enumerate(RANKS)}
RANK_7: Callable[[int, int, int, int, int, int, int], int] = evaluate_7cards
"""Rank of seven card ids (`card_id`): lower is better. The inner loop of the win chances."""
RANK_OMAHA: Callable[..., int] = evaluate_omaha_cards
"""Rank of five board card ids then four hole card ids, exactly two from the hand: lower is better."""

RANK_NAMES: Final = {
    "2": ("two", "twos"), "3": ("three", "threes"), "4": ("four", "fours"), "5": ("five", "fives"),
    "6": ("six", "sixes"), "7": ("seven", "sevens"), "8": ("eight", "eights"), "9": ("nine", "nines"),
    "T": ("ten", "tens"), "J": ("jack", "jacks"), "Q": ("queen", "queens"), "K": ("king", "kings"),
    "A": ("ace", "aces"),
}
# phevaluator ranks 1 (royal flush) to 7462 (seven high); category upper bounds, best first.
_CATEGORIES: Final = (
    (10, "straight flush"), (166, "four of a kind"), (322, "full house"), (1599, "flush"),
    (1609, "straight"), (2467, "three of a kind"), (3325, "two pair"), (6185, "pair"), (7462, "high card"),
)
_CATEGORY_BOUNDS: Final = tuple(bound for bound, _name in _CATEGORIES)
_CATEGORY_NAMES: Final = tuple(name for _bound, name in _CATEGORIES)

# How each category is said: `one`/`many` name the top rank (the most cards, then the highest),
# `next` the second.
_WORDS: Final = {
    "four of a kind": "four of a kind, {many}",
    "full house": "full house, {many} full of {next}",
    "flush": "flush, {one} high",
    "three of a kind": "three of a kind, {many}",
    "two pair": "two pair, {many} and {next}",
    "pair": "pair of {many}",
    "high card": "high card, {one}",
}


def card_id(card: str) -> int:
    """phevaluator's number for a card code such as `As`; jokers have no hand value."""
    try:
        return CARD_IDS[card]
    except KeyError:
        raise ValueError(f"{card!r} is not a playing card (jokers have no hand value)") from None


def card_ids(cards: Sequence[str]) -> list[int]:
    """phevaluator's numbers for the cards, a look-up each (a showdown reads some twenty); `card_id` names
    a card that has none."""
    try:
        return [CARD_IDS[card] for card in cards]
    except KeyError:
        return [card_id(card) for card in cards]  # raises, naming the card


def strength(cards: Sequence[str]) -> int:
    """Rank of the best five of 5 to 7 cards: lower is better."""
    return _rank(card_ids(cards))


def _rank(ids: Sequence[int]) -> int:
    """Rank of the best five of 5 to 7 card ids: lower is better."""
    if len(ids) not in _RANK_BY_SIZE:
        raise ValueError(f"a hand to rank is five to seven cards, not {len(ids)}")
    return int(_RANK_BY_SIZE[len(ids)](*ids))


def category(rank: int) -> str:
    """The category of a phevaluator rank (`flush`, `pair`, ...)."""
    if rank > _CATEGORY_BOUNDS[-1]:
        raise ValueError(f"{rank} is not a phevaluator hand rank (1..7462)")
    return _CATEGORY_NAMES[bisect_left(_CATEGORY_BOUNDS, rank)]  # the first category whose bound it is within


def _words_by_rank() -> tuple[str, ...]:
    """Every phevaluator rank in words, best first (the words of rank r at r - 1).

    phevaluator numbers the 7,462 kinds of five-card hand as Cactus Kev did: by category, best first, and in
    a category by the ranks that decide it, highest first (the sets, then the kickers). A hand's words name
    only its top ranks, so each kind is said once here. tests/display/test_equity.py checks every kind (one
    hand of each, found among all 2,598,960 hands of five) and seven-card hands against pokerkit's best five.
    """
    down = range(len(RANKS) - 1, -1, -1)  # ace (12) down to two (0)
    highs = range(len(RANKS) - 1, 2, -1)  # a straight's top card, ace down to the five (the wheel: A2345)
    runs = {frozenset((12, 0, 1, 2, 3)), *(frozenset(range(high - 4, high + 1)) for high in highs[:-1])}
    tops = [five[0] for five in combinations(down, 5) if frozenset(five) not in runs]  # five ranks, no run

    def say(category: str, top: int, second: int = 0) -> str:
        return _WORDS[category].format(one=RANK_NAMES[RANKS[top]][0], many=RANK_NAMES[RANKS[top]][1],
                                       next=RANK_NAMES[RANKS[second]][1])

    words = ["royal flush", *(f"straight flush, {RANK_NAMES[RANKS[high]][0]} high" for high in highs[1:])]
    for four in down:  # each with twelve kickers
        words += [say("four of a kind", four)] * 12
    words += [say("full house", three, two) for three in down for two in down if two != three]
    words += [say("flush", top) for top in tops]
    words += [f"straight, {RANK_NAMES[RANKS[high]][0]} high" for high in highs]
    for three in down:  # with two kickers of the other twelve ranks: 66
        words += [say("three of a kind", three)] * 66
    for high, low in combinations(down, 2):  # with a kicker of the other eleven
        words += [say("two pair", high, low)] * 11
    for pair in down:  # with three kickers of the other twelve: 220
        words += [say("pair", pair)] * 220
    words += [say("high card", top) for top in tops]
    return tuple(words)


_WORDS_BY_RANK: Final = _words_by_rank()


def hand_name(rank: int) -> str:
    """A phevaluator rank (`strength`, `hand_ranks`) in people's words, as `describe` says its cards.

    >>> hand_name(1), hand_name(strength(["Ks", "Kd", "Kc", "7h", "7s", "2c", "3d"]))
    ('royal flush', 'full house, kings full of sevens')
    """
    if not 1 <= rank <= len(_WORDS_BY_RANK):
        raise ValueError(f"{rank} is not a phevaluator hand rank (1..{len(_WORDS_BY_RANK)})")
    return _WORDS_BY_RANK[rank - 1]


def describe(cards: Sequence[str]) -> str:
    """Name the best hand in one to seven cards in people's words (fewer than five: what they hold).

    Five or more: the words of their phevaluator rank (`hand_name`). Fewer: the sets among them, or the
    highest card.

    >>> describe(["Ah", "Kh", "9h", "5h", "2h", "3c", "4d"])
    'flush, ace high'
    >>> describe(["Ks", "Kd", "Kc", "7h", "7s", "2c", "3d"])
    'full house, kings full of sevens'
    >>> describe(["Ad", "Kh"]), describe(["6d", "6h", "9c", "Ts"])
    ('high card, ace', 'pair of sixes')
    """
    ids = card_ids(cards)
    if not 1 <= len(ids) <= 7:
        raise ValueError(f"a hand is one to seven cards, not {len(ids)}")
    if len(set(ids)) != len(ids):
        raise ValueError("a card appears twice in the hand")
    if len(ids) >= 5:
        return hand_name(_rank(ids))
    counts: dict[str, int] = {}
    for card in cards:
        counts[card[0]] = counts.get(card[0], 0) + 1
    sizes = sorted(counts.values(), reverse=True)
    name = {4: "four of a kind", 3: "three of a kind"}.get(sizes[0], "high card")
    if sizes[0] == 2:
        name = "two pair" if len(sizes) > 1 and sizes[1] == 2 else "pair"
    by_count = sorted(((count, _RANK_ORDER[rank], rank) for rank, count in counts.items()), reverse=True)
    top = by_count[0][2]
    second = by_count[1][2] if len(by_count) > 1 else top
    return _WORDS[name].format(one=RANK_NAMES[top][0], many=RANK_NAMES[top][1], next=RANK_NAMES[second][1])


def hand_ranks(hands: Mapping[int, Sequence[str]], board: Sequence[str],
               rule: HandRule = HandRule.BEST_FIVE) -> dict[int, int]:
    """Each seat's rank (lower is better) with the board: read once, then asked of every pot."""
    if rule is TWO_FROM_HAND:
        return {seat: omaha_strength(cards, board) for seat, cards in hands.items()}
    common = card_ids(board)  # the board's card ids, read once for every hand
    return {seat: _rank(card_ids(cards) + common) for seat, cards in hands.items()}


def omaha_strength(hole: Sequence[str], board: Sequence[str]) -> int:
    """Rank of the best hand of exactly two hole cards and three of the five board cards: lower is better.

    phevaluator reads four hole cards; with five, the best two are among some four of them.

    >>> board = ["Ah", "Kh", "Qh", "2c", "3d"]
    >>> category(omaha_strength(["Jh", "7s", "8s", "9c"], board)), category(strength(["Jh", "Th", *board]))
    ('high card', 'straight flush')
    """
    if not 3 <= len(board) <= 5 or not 4 <= len(hole) <= 6:
        raise ValueError(f"an Omaha hand is read with three to five board cards and four to six hole cards, "
                         f"not {len(board)} and {len(hole)}")
    common = card_ids(board)
    ids = card_ids(hole)
    if len(common) < 5:  # before the river (the outs on the flop and the turn): every two and three
        return min(int(evaluate_5cards(*two, *three)) for two in combinations(ids, 2)
                   for three in combinations(common, 3))
    return min(int(evaluate_omaha_cards(*common, *four)) for four in combinations(ids, 4))


def best_omaha_five(hole: Sequence[str], board: Sequence[str]) -> tuple[str, ...]:
    """The five cards of the best Omaha hand: two of the hole cards, then three of the board."""
    best = omaha_strength(hole, board)
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            if evaluate_5cards(*(card_id(card) for card in (*two, *three))) == best:
                return (*two, *three)
    raise AssertionError("phevaluator ranked the Omaha hand better than any two and three")  # pragma: no cover


def _two_card_order(two: Sequence[str]) -> tuple[int, int, int]:
    high, low = sorted((_RANK_ORDER[card[0]] for card in two), reverse=True)
    return (int(high == low), high, low)


def describe_hand(hole: Sequence[str], board: Sequence[str], rule: HandRule = HandRule.BEST_FIVE) -> str:
    """The hand a player holds with the board, by the game's rule, in people's words."""
    if rule is TWO_FROM_HAND and len(board) == 5:
        return describe(best_omaha_five(hole, board))
    if rule is TWO_FROM_HAND:  # before the river: what the hand holds so far, two from the hand
        best = min((strength([*two, *three]), (*two, *three))
                   for two in combinations(hole, 2) for three in combinations(board, 3)) if len(board) >= 3 else None
        if best is not None:
            return describe(best[1])
        return describe(max(combinations(hole, 2), key=_two_card_order))  # before the flop: the best two
    return describe([*hole, *board])


def best_of(ranks: Mapping[int, int], seats: Iterable[int]) -> tuple[int, ...]:
    """The seats among `seats` with the best rank (ties: all of them), in seat order."""
    best: list[int] = []  # (a loop, not min() over a generator: asked for every pot of every showdown)
    best_rank = 0
    for seat in seats:
        rank = ranks.get(seat)
        if rank is None:
            continue
        if not best or rank < best_rank:
            best, best_rank = [seat], rank
        elif rank == best_rank:
            best.append(seat)
    return tuple(sorted(best))


# -- low hands (eight or better) ------------------------------------------------------------------
# A low hand is five cards of different ranks, none above the qualifier (8: "eight or better"); the ace is
# low, straights and flushes do not count against it. Its rank is its five ranks (ace 1), highest first,
# read as one number in base 16: lower is better, 5-4-3-2-A (the wheel) the best of all.
_LOW_VALUE: Final = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 11, "Q": 12, "K": 13}
_LOW_SYMBOL: Final = {1: "A", **{n: str(n) for n in range(2, 10)}}


def _low_code(values: Sequence[int]) -> int:
    code = 0
    for value in sorted(values, reverse=True):
        code = code * 16 + value
    return code


def low_rank(hole: Sequence[str], board: Sequence[str], *, rule: HandRule, qualifier: int = 8) -> int | None:
    """Rank of the best low of the hand (lower is better), or None when it makes no low `qualifier` or better.

    Omaha (`TWO_FROM_HAND`): exactly two hole cards and three board cards, all five of different ranks.

    >>> low_name(low_rank(["Ad", "2c", "Kh", "Ks"], ["3h", "7d", "8s", "Qc", "Jd"], rule=TWO_FROM_HAND))
    '8-7-3-2-A low'
    >>> low_rank(["Ad", "2c", "Kh", "Ks"], ["3h", "7d", "9s", "Qc", "Jd"], rule=TWO_FROM_HAND) is None
    True
    """
    card_ids(hole)  # every card a playing card (a joker has no value, low or high): raises naming it
    card_ids(board)
    hole_lows = sorted({_LOW_VALUE[card[0]] for card in hole if _LOW_VALUE[card[0]] <= qualifier})
    board_lows = sorted({_LOW_VALUE[card[0]] for card in board if _LOW_VALUE[card[0]] <= qualifier})
    if rule is not TWO_FROM_HAND:  # any five: the five lowest different ranks among all the cards
        lows = sorted(set(hole_lows) | set(board_lows))
        return _low_code(lows[:5]) if len(lows) >= 5 else None
    best: int | None = None
    for two in combinations(hole_lows, 2):
        for three in combinations([value for value in board_lows if value not in two], 3):
            code = _low_code((*two, *three))
            if best is None or code < best:
                best = code
    return best


def low_ranks(hands: Mapping[int, Sequence[str]], board: Sequence[str], *, rule: HandRule,
              qualifier: int = 8) -> dict[int, int]:
    """Each seat's low rank with the board (lower is better); a seat whose hand makes no low is left out."""
    out: dict[int, int] = {}
    for seat, cards in hands.items():
        rank = low_rank(cards, board, rule=rule, qualifier=qualifier)
        if rank is not None:
            out[seat] = rank
    return out


def low_name(rank: int | None) -> str:
    """A low rank in people's words, its five cards highest first: '7-5-4-2-A low'.

    >>> low_name(0x54321)
    '5-4-3-2-A low'
    """
    if rank is None:
        return "no low"
    values = []
    rest = rank
    while rest:
        rest, value = divmod(rest, 16)
        values.append(value)
    if len(values) != 5 or any(value not in _LOW_SYMBOL for value in values):
        raise ValueError(f"{rank} is not a low hand's rank")
    return "-".join(_LOW_SYMBOL[value] for value in reversed(values)) + " low"
