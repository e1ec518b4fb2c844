"""The game as data: how many hole cards, which streets, the betting structure and how a hand is made.

Every game the table deals is one `Game` record in `GAMES`; the session's `setup` names it (hold'em
when it names none) and each profile says which games its house deals. The rules core reads the
record and never a game's name: adding a game is adding a record here (and naming it in a profile).

A game's hands are hand kinds (`HandKind`): each ranks the hands for one share of the pot, so a
high-low split game is two kinds, high and low, and the pots are awarded per kind (showdown.py).

>>> GAMES["omaha"].hole_cards, GAMES["omaha"].betting, GAMES["omaha"].hand_rule
(4, <Structure.POT_LIMIT: 'pot_limit'>, <HandRule.TWO_FROM_HAND: 'two_from_hand'>)
>>> GAMES["limit_holdem"].bet_sizes(big_blind=100)
(100, 100, 200, 200)
>>> [kind.title for kind in GAMES["omaha_hilo"].hands]
['high, two from the hand', 'low, eight or better']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from firmware_py.core.evaluator import (
    BEST_FIVE,
    TWO_FROM_HAND,
    HandRule,
    best_of,
    describe_hand,
    hand_name,
    hand_ranks,
    low_name,
    low_rank,
    low_ranks,
)
from firmware_py.core.rulings import Street

__all__ = ["BEST_FIVE", "GAMES", "TWO_FROM_HAND", "Game", "HandKind", "HandRule", "Share", "Structure", "game_named",
           "hand_names"]

STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)  # the board games: three, one and one


class Structure(StrEnum):
    """How much a bet or raise may be."""

    NO_LIMIT = "no_limit"  # anything up to the whole stack (table stakes)
    POT_LIMIT = "pot_limit"  # up to the size of the pot, the call included
    FIXED_LIMIT = "fixed_limit"  # one fixed size a street, and a cap on the raises


class Share(StrEnum):
    """The part of a pot a hand kind plays for: the whole (or, in a split game, the high half) or the low half."""

    HIGH = "high"
    LOW = "low"


@dataclass(frozen=True, kw_only=True, slots=True)
class HandKind:
    """One way hands are ranked for a share of the pot: its name, the cards that make it, and its comparison.

    Ranks are numbers, lower is better, for every kind (a high hand: phevaluator's rank; a low: its five ranks);
    a hand that does not qualify (no low eight or better) has no rank and plays for no part of the pot.

    >>> board = ["Ah", "Kh", "7c", "5d", "2s"]
    >>> LOW_EIGHT_OR_BETTER.ranks({1: ["3c", "4c", "Qd", "Qs"], 2: ["Ks", "Kd", "9c", "9h"]}, board)
    {1: 344865}
    >>> LOW_EIGHT_OR_BETTER.rank_name(344865), HIGH_TWO_FROM_HAND.describe(["Ks", "Kd", "9c", "9h"], board)
    ('5-4-3-2-A low', 'three of a kind, kings')
    """

    name: str  # as the record names it: "high", "omaha_high", "low8"
    title: str  # in people's words: "low, eight or better"
    share: Share
    rule: HandRule  # which cards make it: any five, or exactly two from the hand and three from the board
    qualifier: int = 0  # a low: its highest card allowed (8: eight or better); 0 for a high hand

    def ranks(self, hands: Mapping[int, Sequence[str]], board: Sequence[str]) -> dict[int, int]:
        """Each seat's rank with the board, read once for every pot; a seat that does not qualify is left out."""
        if self.share is Share.LOW:
            return low_ranks(hands, board, rule=self.rule, qualifier=self.qualifier)
        return hand_ranks(hands, board, self.rule)

    def best(self, ranks: Mapping[int, int], seats: Iterable[int]) -> tuple[int, ...]:
        """The seats among `seats` whose rank is best (ties: all of them); () when none qualifies."""
        return best_of(ranks, seats)

    def rank_name(self, rank: int) -> str:
        """A rank of this kind in people's words: 'flush, ace high', '7-5-4-3-A low'."""
        return low_name(rank) if self.share is Share.LOW else hand_name(rank)

    def describe(self, hole: Sequence[str], board: Sequence[str]) -> str:
        """The hand a player holds with the board, as this kind reads it ('no low' when it makes none)."""
        if self.share is Share.LOW:
            return low_name(low_rank(hole, board, rule=self.rule, qualifier=self.qualifier))
        return describe_hand(hole, board, self.rule)


HIGH_ANY_FIVE: Final = HandKind(name="high", title="high, any five", share=Share.HIGH, rule=HandRule.BEST_FIVE)
HIGH_TWO_FROM_HAND: Final = HandKind(name="omaha_high", title="high, two from the hand", share=Share.HIGH,
                                     rule=HandRule.TWO_FROM_HAND)
# Omaha's low: two hole cards and three board cards, five different ranks of eight or lower, aces low.
LOW_EIGHT_OR_BETTER: Final = HandKind(name="low8", title="low, eight or better", share=Share.LOW,
                                      rule=HandRule.TWO_FROM_HAND, qualifier=8)
HAND_KINDS: Final = {kind.name: kind for kind in (HIGH_ANY_FIVE, HIGH_TWO_FROM_HAND, LOW_EIGHT_OR_BETTER)}


@dataclass(frozen=True, kw_only=True, slots=True)
class Game:
    """One game: its cards, its streets, its betting, its showdown, and its name in a PHH hand history."""

    name: str  # as a setup and a profile name it
    title: str  # as people say it: "Pot-Limit Omaha"
    short: str  # on a screen with little room: "PLO"
    hole_cards: int
    betting: Structure
    hands: tuple[HandKind, ...]  # the hand kinds the pot is split between: high first (one: no split)
    streets: tuple[Street, ...] = STREETS
    # Fixed limit: the bet on each street in big blinds (small bet, small bet, big bet, big bet).
    limit_bets: tuple[int, ...] = ()
    phh_variant: str | None = None  # pokerkit's code for the game ("NT", "PO", "FT"); None: it has none

    @property
    def hand_rule(self) -> HandRule:
        """Which cards make the high hand (the rule of the first hand kind)."""
        return self.hands[0].rule

    @property
    def split(self) -> bool:
        """A high-low split game: each pot is shared between its hand kinds."""
        return len(self.hands) > 1

    def bet_sizes(self, *, big_blind: int) -> tuple[int, ...]:
        """The fixed bet of each street, in chips (fixed limit; empty for the big-bet games)."""
        return tuple(big_blind * bets for bets in self.limit_bets)

    @property
    def max_players(self) -> int:
        """The most players one deck deals to: 52 cards less the board and its three burns."""
        return (52 - 5 - 3) // self.hole_cards

    def shown_cards(self) -> str:
        """What a winner shows at the showdown: 'both cards', 'all four cards'."""
        return "both cards" if self.hole_cards == 2 else f"all {self.hole_text().removesuffix(' hole cards')} cards"

    def hole_text(self) -> str:
        """'two hole cards', 'four hole cards': for rulings and notices."""
        words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
        return f"{words.get(self.hole_cards, str(self.hole_cards))} hole cards"


HOLDEM: Final = Game(name="holdem", title="No-Limit Hold'em", short="NLHE", hole_cards=2, betting=Structure.NO_LIMIT,
                     hands=(HIGH_ANY_FIVE,), phh_variant="NT")
OMAHA = Game(name="omaha", title="Pot-Limit Omaha", short="PLO", hole_cards=4, betting=Structure.POT_LIMIT,
             hands=(HIGH_TWO_FROM_HAND,), phh_variant="PO")
# pokerkit's PotLimitOmahaHoldem deals four hole cards and its hand history variants have no
# five-card Omaha: a five-card hand is refused for export, by name (daemon/export.py).
OMAHA5 = Game(name="omaha5", title="Five-Card Pot-Limit Omaha", short="PLO5", hole_cards=5,
              betting=Structure.POT_LIMIT, hands=(HIGH_TWO_FROM_HAND,))
LIMIT_HOLDEM = Game(name="limit_holdem", title="Fixed-Limit Hold'em", short="FLHE", hole_cards=2,
                    betting=Structure.FIXED_LIMIT, hands=(HIGH_ANY_FIVE,), limit_bets=(1, 1, 2, 2),
                    phh_variant="FT")
# Omaha high-low split, eight or better: the high hand and the low hand each win half of every pot.
# pokerkit's hand histories have its fixed-limit form ("FO/8") and no pot-limit one: a pot-limit hand is
# refused for export, by name (daemon/export.py).
OMAHA_HILO = Game(name="omaha_hilo", title="Pot-Limit Omaha Hi-Lo", short="PLO8", hole_cards=4,
                  betting=Structure.POT_LIMIT, hands=(HIGH_TWO_FROM_HAND, LOW_EIGHT_OR_BETTER))
LIMIT_OMAHA_HILO = Game(name="limit_omaha_hilo", title="Fixed-Limit Omaha Hi-Lo", short="FLO8", hole_cards=4,
                        betting=Structure.FIXED_LIMIT, hands=(HIGH_TWO_FROM_HAND, LOW_EIGHT_OR_BETTER),
                        limit_bets=(1, 1, 2, 2), phh_variant="FO/8")

GAMES: Final[dict[str, Game]] = {game.name: game for game in (HOLDEM, OMAHA, OMAHA5, LIMIT_HOLDEM, OMAHA_HILO,
                                                              LIMIT_OMAHA_HILO)}
DEFAULT = HOLDEM.name  # what a setup that names no game deals


def game_named(name: str) -> Game:
    """The game of a snapshot, a setup or a message, by its name: the one way the views and the odds get a game.

    An unknown name is refused, naming it and the games there are: a view never draws another game's hand
    (a hold'em hand for an Omaha Hi-Lo one) in silence.

    >>> game_named("omaha_hilo").short
    'PLO8'
    >>> game_named("razz")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'razz' is not a game this table knows; the games are holdem, omaha, ..., limit_omaha_hilo
    """
    game = GAMES.get(name)
    if game is None:
        raise ValueError(f"{name!r} is not a game this table knows; the games are {', '.join(GAMES)}")
    return game


def hand_names(game: Game, hole: Sequence[str], board: Sequence[str]) -> str:
    """The hand a player holds with the board, each of the game's hand kinds said: a split game's high, then its
    low ('three of a kind, kings; 7-4-3-2-A low'; a low not made is not said)."""
    names = [game.hands[0].describe(hole, board)]
    if len(board) >= 3:
        names += [name for name in (kind.describe(hole, board) for kind in game.hands[1:]) if name != "no low"]
    return "; ".join(names)
