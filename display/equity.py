"""Win and tie chances of hold'em and Omaha hands (by the game's hand rule); pure, no pygame.

Hands are ranked by the core's evaluator (`firmware_py.core.evaluator`, phevaluator's C core, which
builds from source on the Pi's ARM, whereas eval7 ships no ARM wheels), the same one that rules at
showdown and names the hands. With two or fewer board cards to come
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

from firmware_py.core.cards import FULL_DECK, RANKS
from firmware_py.core.evaluator import RANK_7, RANK_OMAHA, card_id
from firmware_py.core.game import HandRule

BOARD_SIZE = 5
HOLE_SIZE = 2
EXACT_MAX_TO_COME = 2  # enumerate every runout when at most this many board cards are to come
TARGET_ERROR = 0.0025  # standard error goal for sampling: 95% of estimates within 0.5 points
MAX_SAMPLES = 60_000
BATCH = 2_000

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
    rule: HandRule = HandRule.BEST_FIVE,
    hole_size: int = HOLE_SIZE,
) -> Equity:
    """Chances to win and to tie of each hand of `hole_size` cards, given the board and cards known dead.

    `rule` is how a hand is made (hold'em: any five; Omaha: exactly two from the hand and three from
    the board, four or five hole cards).

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
    if any(len(hole) != hole_size for hole in holes):
        count = {2: "two", 4: "four", 5: "five"}.get(hole_size, str(hole_size))
        raise ValueError(f"every hand must hold exactly {count} cards")
    score = _score if rule is HandRule.BEST_FIVE else _score_omaha
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
            score(holes, board_ids + extra, wins, ties)
            runouts += 1
        return Equity(win=tuple(w / runouts for w in wins), tie=tuple(t / runouts for t in ties),
                      exact=True, runouts=runouts, error=0.0)
    if rng is None:
        raise ValueError("sampling needs a random.Random from the caller (rng=...)")
    runouts = 0
    error = math.inf
    while runouts < max_samples:
        for _ in range(min(BATCH, max_samples - runouts)):
            score(holes, board_ids + tuple(rng.sample(stub, to_come)), wins, ties)
            runouts += 1
        error = max(_standard_error(count / runouts, runouts) for count in (*wins, *ties))
        if error <= target_error:
            break
    return Equity(win=tuple(w / runouts for w in wins), tie=tuple(t / runouts for t in ties),
                  exact=False, runouts=runouts, error=error)


def _score(holes: list[tuple[int, ...]], board: tuple[int, ...], wins: list[float],
           ties: list[float]) -> None:
    _credit([RANK_7(*hole, *board) for hole in holes], wins, ties)


def _score_omaha(holes: list[tuple[int, ...]], board: tuple[int, ...], wins: list[float],
                 ties: list[float]) -> None:
    """Omaha: phevaluator's best of two hole cards and three board cards (five hole cards: of every four)."""
    _credit([RANK_OMAHA(*board, *hole) if len(hole) == 4
             else min(RANK_OMAHA(*board, *four) for four in itertools.combinations(hole, 4)) for hole in holes],
            wins, ties)


def _credit(ranks: list[int], wins: list[float], ties: list[float]) -> None:
    """One runout's result: a win to the one best hand, a tie to each of several (phevaluator: smaller is stronger)."""
    best = min(ranks)
    winners = [i for i, rank in enumerate(ranks) if rank == best]
    if len(winners) == 1:
        wins[winners[0]] += 1
    else:
        for i in winners:
            ties[i] += 1


def _standard_error(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1 / n) / n)
