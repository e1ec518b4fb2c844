"""Win and tie chances of hold'em hands, and names of the best hand held; pure, no pygame.

Hands are evaluated with phevaluator (Apache-2.0): its C core builds from source on the Pi's ARM,
whereas eval7, a little faster on x86, ships no ARM wheels. With two or fewer board cards to come
every runout is enumerated, so the chances are exact; with more, runouts are sampled from the
`random.Random` the caller passes (no hidden randomness), until the standard error of every chance
is below `target_error` or `max_samples` is reached, and the error is reported with the result.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from phevaluator import evaluate_cards

from firmware_py.core.cards import FULL_DECK, RANKS, SUITS

BOARD_SIZE = 5
HOLE_SIZE = 2
EXACT_MAX_TO_COME = 2  # enumerate every runout when at most this many board cards are to come
TARGET_ERROR = 0.0025  # standard error goal for sampling: 95% of estimates within 0.5 points
MAX_SAMPLES = 60_000
BATCH = 2_000

# phevaluator numbers cards rank * 4 + suit, suits in the order clubs, diamonds, hearts, spades.
_PH_SUITS = "cdhs"


def card_id(card: str) -> int:
    """phevaluator's number for a card code such as `As`."""
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"{card!r} is not a playing card (jokers have no hand value)")
    return RANKS.index(card[0]) * 4 + _PH_SUITS.index(card[1])


@dataclass(frozen=True, kw_only=True, slots=True)
class Equity:
    """Chances of each hand, in the order given: `win` outright, `tie` (share the pot).

    `error` is the largest standard error of any chance (0 when `exact`); `runouts` counts the
    boards enumerated or sampled.
    """

    win: tuple[float, ...]
    tie: tuple[float, ...]
    exact: bool
    runouts: int
    error: float


def cards_to_come(board: Sequence[str]) -> int:
    return max(0, BOARD_SIZE - len(board))


def calculate_equity(
    hands: Sequence[Sequence[str]],
    board: Sequence[str] = (),
    *,
    dead: Iterable[str] = (),
    rng: random.Random | None = None,
    target_error: float = TARGET_ERROR,
    max_samples: int = MAX_SAMPLES,
) -> Equity:
    """Chances to win and to tie of each two-card hand, given the board and cards known dead.

    Exact when two or fewer board cards are to come:

    >>> e = calculate_equity([("As", "Ah"), ("Kd", "Kc")], ("2s", "7h", "9d", "Qc"))
    >>> e.exact, e.runouts, round(e.win[1] * 44)
    (True, 44, 2)

    Sampled otherwise, from the generator given:

    >>> e = calculate_equity([("As", "Ah"), ("Kd", "Kc")], rng=random.Random(1))
    >>> e.exact, 0.78 < e.win[0] < 0.84, e.error < 0.0026
    (False, True, True)
    """
    if len(hands) < 2:
        raise ValueError("chances need at least two hands")
    holes = [tuple(card_id(card) for card in hand) for hand in hands]
    if any(len(hole) != HOLE_SIZE for hole in holes):
        raise ValueError("every hand must hold exactly two cards")
    board_ids = tuple(card_id(card) for card in board)
    if len(board_ids) > BOARD_SIZE:
        raise ValueError(f"a board has at most five cards, not {len(board_ids)}")
    known = [card for hole in holes for card in hole] + list(board_ids)
    if len(set(known)) != len(known):
        raise ValueError("a card appears twice among the hands and the board")
    dead_ids = {card_id(card) for card in dead if card[0] in RANKS} - set(known)
    stub = [card_id(card) for card in FULL_DECK if card_id(card) not in set(known) | dead_ids]
    to_come = cards_to_come(board)
    if to_come > len(stub):
        raise ValueError("not enough cards left to complete the board")
    wins = [0.0] * len(holes)
    ties = [0.0] * len(holes)
    if to_come <= EXACT_MAX_TO_COME:
        runouts = 0
        for extra in itertools.combinations(stub, to_come):
            _score(holes, board_ids + extra, wins, ties)
            runouts += 1
        return Equity(win=tuple(w / runouts for w in wins), tie=tuple(t / runouts for t in ties),
                      exact=True, runouts=runouts, error=0.0)
    if rng is None:
        raise ValueError("sampling needs a random.Random from the caller (rng=...)")
    runouts = 0
    error = math.inf
    while runouts < max_samples:
        for _ in range(min(BATCH, max_samples - runouts)):
            _score(holes, board_ids + tuple(rng.sample(stub, to_come)), wins, ties)
            runouts += 1
        error = max(_standard_error(count / runouts, runouts) for count in (*wins, *ties))
        if error <= target_error:
            break
    return Equity(win=tuple(w / runouts for w in wins), tie=tuple(t / runouts for t in ties),
                  exact=False, runouts=runouts, error=error)


def _score(holes: list[tuple[int, ...]], board: tuple[int, ...], wins: list[float],
           ties: list[float]) -> None:
    ranks = [evaluate_cards(*hole, *board) for hole in holes]
    best = min(ranks)  # phevaluator: smaller is stronger
    winners = [i for i, rank in enumerate(ranks) if rank == best]
    if len(winners) == 1:
        wins[winners[0]] += 1
    else:
        for i in winners:
            ties[i] += 1


def _standard_error(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1 / n) / n)


# phevaluator ranks 1..7462; each category is a contiguous block (strongest first).
_CATEGORY_LIMITS = (
    (10, "straight flush"),
    (166, "four of a kind"),
    (322, "full house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three of a kind"),
    (3325, "two pair"),
    (6185, "pair"),
    (7462, "high card"),
)

_RANK_NAMES = dict(zip(RANKS, ("two", "three", "four", "five", "six", "seven", "eight", "nine",
                               "ten", "jack", "queen", "king", "ace"), strict=True))


def _plural(rank: str) -> str:
    name = _RANK_NAMES[rank]
    return "sixes" if name == "six" else name + "s"


def category(rank: int) -> str:
    """The category of a phevaluator rank (`flush`, `pair`, ...)."""
    for limit, name in _CATEGORY_LIMITS:
        if rank <= limit:
            return name
    raise ValueError(f"{rank} is not a phevaluator hand rank (1..7462)")


def describe_hand(cards: Sequence[str]) -> str:
    """The best poker hand in two to seven cards, in words.

    >>> describe_hand(("Ks", "5d", "Kh", "5c", "9s", "2d", "Jh"))
    'two pair, kings and fives'
    >>> describe_hand(("Ah", "Ad"))
    'pair of aces'
    """
    real = [card for card in cards if card[0] in RANKS]
    if len(real) < BOARD_SIZE:
        counts = _rank_groups(real)
        if not counts:
            return ""
        if counts[0][0] >= 3:
            return f"three of a kind, {_plural(counts[0][1])}"
        if counts[0][0] == 2:
            if len(counts) > 1 and counts[1][0] == 2:
                return f"two pair, {_plural(counts[0][1])} and {_plural(counts[1][1])}"
            return f"pair of {_plural(counts[0][1])}"
        return f"{_RANK_NAMES[counts[0][1]]} high"
    best = min(itertools.combinations(real, BOARD_SIZE),
               key=lambda five: evaluate_cards(*(card_id(c) for c in five)))
    name = category(evaluate_cards(*(card_id(c) for c in best)))
    groups = _rank_groups(best)
    top = groups[0][1]
    if name in ("straight", "straight flush"):
        ranks = {card[0] for card in best}
        high = "5" if ranks == set("A2345") else top
        if name == "straight flush" and high == "A":
            return "royal flush"
        return f"{name}, {_RANK_NAMES[high]} high"
    if name == "four of a kind":
        return f"four of a kind, {_plural(top)}"
    if name == "full house":
        return f"full house, {_plural(top)} full of {_plural(groups[1][1])}"
    if name == "three of a kind":
        return f"three of a kind, {_plural(top)}"
    if name == "two pair":
        return f"two pair, {_plural(top)} and {_plural(groups[1][1])}"
    if name == "pair":
        return f"pair of {_plural(top)}"
    if name == "flush":
        return f"flush, {_RANK_NAMES[top]} high"
    return f"{_RANK_NAMES[top]} high"


def _rank_groups(cards: Iterable[str]) -> list[tuple[int, str]]:
    """(count, rank) pairs, most common first, then highest rank first."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card[0]] = counts.get(card[0], 0) + 1
    return sorted(((n, r) for r, n in counts.items()), key=lambda g: (g[0], RANKS.index(g[1])),
                  reverse=True)
