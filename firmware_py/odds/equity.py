"""Win and tie chances of hold'em and Omaha hands (by the game's hand kinds), and each hand's share of the pot.

A high-low split game (Omaha Hi-Lo, eight or better) halves the pot between the best high and the best
qualifying low: its chances count a hand that takes the whole pot (scoops) as a win, a part of it as a
tie, and `share` is what a hand can expect of the pot, split halves and quarters included.

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from firmware_py.core.cards import FULL_DECK, RANKS
from firmware_py.core.evaluator import RANK_7, RANK_OMAHA, card_id
from firmware_py.core.game import Game, HandRule, Share

BOARD_SIZE = 5
HOLE_SIZE = 2
EXACT_MAX_TO_COME = 2  # enumerate every runout when at most this many board cards are to come
TARGET_ERROR = 0.0025  # standard error goal for sampling: 95% of estimates within 0.5 points
MAX_SAMPLES = 60_000
BATCH = 2_000

# One runout scored: the hands' card ids, the board's, and the counts it adds to (wins; ties, then parts).
Scorer = Callable[[list[tuple[int, ...]], tuple[int, ...], list[float], list[float]], None]


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
    share: tuple[float, ...] = ()  # each hand's expected share of the pot (ties and split halves counted in parts)


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
    game: Game | None = None,
) -> Equity:
    """Chances to win and to tie of each hand of `hole_size` cards, given the board and cards known dead.

    `rule` is how a hand is made (hold'em: any five; Omaha: exactly two from the hand and three from
    the board, four or five hole cards). A `game` given decides both, and its hand kinds: a high-low
    split game's low half goes to the best qualifying low (`share`).

    Exact when two or fewer board cards are to come:

    >>> e = calculate_equity([("As", "Ah"), ("Kd", "Kc")], ("2s", "7h", "9d", "Qc"))
    >>> e.exact, e.runouts, round(e.win[1] * 44)
    (True, 44, 2)

    Sampled otherwise, from the generator given:

    >>> e = calculate_equity([("As", "Ah"), ("Kd", "Kc")], rng=random.Random(1))
    >>> e.exact, 0.78 < e.win[0] < 0.84, e.error < 0.0026
    (False, True, True)

    Omaha Hi-Lo: a hand sure of the low and tied for the high takes three quarters of the pot:

    >>> from firmware_py.core.game import GAMES
    >>> e = calculate_equity([("Ac", "2d", "Kh", "Qs"), ("Kc", "Qd", "9h", "9s")], ("Kd", "Qh", "7c", "4s", "3h"),
    ...                      game=GAMES["omaha_hilo"])
    >>> e.share, e.win, e.tie
    ((0.75, 0.25), (0.0, 0.0), (1.0, 1.0))
    """
    if game is not None:
        rule, hole_size = game.hand_rule, game.hole_cards
    low_qualifier = next((kind.qualifier for kind in game.hands if kind.share is Share.LOW), 0) if game else 0
    if len(hands) < 2:
        raise ValueError("chances need at least two hands")
    holes = [tuple(card_id(card) for card in hand) for hand in hands]
    if any(len(hole) != hole_size for hole in holes):
        count = {2: "two", 4: "four", 5: "five"}.get(hole_size, str(hole_size))
        raise ValueError(f"every hand must hold exactly {count} cards")
    score: Scorer = _score if rule is HandRule.BEST_FIVE else _score_omaha
    if low_qualifier:
        score = _split_scorer(score, low_qualifier, omaha=rule is HandRule.TWO_FROM_HAND)
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
    ties = [0.0] * (2 * len(holes))  # the ties, then each hand's part of the pots it tied for
    if to_come <= EXACT_MAX_TO_COME:
        runouts = 0
        for extra in itertools.combinations(stub, to_come):
            score(holes, board_ids + extra, wins, ties)
            runouts += 1
        return _equity(wins, ties, exact=True, runouts=runouts, error=0.0)
    if rng is None:
        raise ValueError("sampling needs a random.Random from the caller (rng=...)")
    runouts = 0
    error = math.inf
    while runouts < max_samples:
        for _ in range(min(BATCH, max_samples - runouts)):
            score(holes, board_ids + tuple(rng.sample(stub, to_come)), wins, ties)
            runouts += 1
        error = max(_standard_error(count / runouts, runouts) for count in (*wins, *ties[:len(holes)]))
        if error <= target_error:
            break
    return _equity(wins, ties, exact=False, runouts=runouts, error=error)


def _equity(wins: list[float], ties: list[float], *, exact: bool, runouts: int, error: float) -> Equity:
    n = len(wins)
    return Equity(win=tuple(w / runouts for w in wins), tie=tuple(t / runouts for t in ties[:n]), exact=exact,
                  runouts=runouts, error=error, share=tuple((w + p) / runouts for w, p in zip(wins, ties[n:],
                                                                                             strict=True)))


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
    """One runout's result: a win to the one best hand, a tie to each of several (phevaluator: smaller is stronger).

    `ties` holds the ties, then each hand's part of the pots it tied for (a win's part is the win)."""
    best = min(ranks)
    winners = [i for i, rank in enumerate(ranks) if rank == best]
    if len(winners) == 1:
        wins[winners[0]] += 1
    else:
        n = len(ranks)
        for i in winners:
            ties[i] += 1
            ties[n + i] += 1 / len(winners)


# A card id's value in a low (the ace 1, two to eight as they are), 0 for a card that plays no low.
_LOW_OF_ID = tuple((1 if rank == 12 else rank + 2) if rank == 12 or rank <= 6 else 0
                   for rank in range(13) for _suit in range(4))


def _low_code(hole_lows: tuple[int, ...], board: tuple[int, ...], qualifier: int, *, omaha: bool) -> int:
    """The low's rank (as evaluator.low_rank: lower is better), 0 for no low: two from the hand and the three lowest
    other ranks of the board for Omaha, or the five lowest ranks of all."""
    board_lows = {value for value in (_LOW_OF_ID[card] for card in board) if 0 < value <= qualifier}
    if not omaha:
        lows = sorted(board_lows | set(hole_lows))
        return _code(lows[:5]) if len(lows) >= 5 else 0
    best = 0
    for two in itertools.combinations(hole_lows, 2):
        rest = sorted(board_lows.difference(two))
        if len(rest) >= 3:
            code = _code([*two, *rest[:3]])
            if not best or code < best:
                best = code
    return best


def _code(values: list[int]) -> int:
    code = 0
    for value in sorted(values, reverse=True):
        code = code * 16 + value
    return code


def _split_scorer(high: Scorer, qualifier: int, *, omaha: bool) -> Scorer:
    """A high-low split game's scorer: the high half by `high`'s ranks, the low half to the best qualifying low;
    no low: the high takes the whole pot. A hand taking the whole pot wins; a part of it is a tie."""
    lows_of: dict[tuple[int, ...], tuple[int, ...]] = {}

    def score(holes: list[tuple[int, ...]], board: tuple[int, ...], wins: list[float], ties: list[float]) -> None:
        n = len(holes)
        high_wins = [0.0] * n
        high_ties = [0.0] * (2 * n)
        high(holes, board, high_wins, high_ties)
        highs = [high_wins[i] + high_ties[n + i] for i in range(n)]  # each hand's part of the high
        codes = []
        for hole in holes:
            lows = lows_of.get(hole)
            if lows is None:
                lows = lows_of[hole] = tuple(sorted({v for v in (_LOW_OF_ID[c] for c in hole) if 0 < v <= qualifier}))
            codes.append(_low_code(lows, board, qualifier, omaha=omaha))
        qualified = [code for code in codes if code]
        if qualified:
            best = min(qualified)
            low_winners = [i for i, code in enumerate(codes) if code == best]
            parts = [part / 2 for part in highs]
            for i in low_winners:
                parts[i] += 0.5 / len(low_winners)
        else:
            parts = highs
        for i, part in enumerate(parts):
            if part >= 1.0 - 1e-9:
                wins[i] += 1
            elif part > 0:
                ties[i] += 1
                ties[n + i] += part

    return score


def _standard_error(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1 / n) / n)
