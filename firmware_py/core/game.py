"""The game as data: how many hole cards, which streets, the betting structure and how a hand is made.

Every game the table deals is one `Game` record in `GAMES`; the session's `setup` names it (hold'em
when it names none) and each profile says which games its house deals. The rules core reads the
record and never a game's name: adding a game is adding a record here (and naming it in a profile).

>>> GAMES["omaha"].hole_cards, GAMES["omaha"].betting, GAMES["omaha"].hand_rule
(4, <Structure.POT_LIMIT: 'pot_limit'>, <HandRule.TWO_FROM_HAND: 'two_from_hand'>)
>>> GAMES["limit_holdem"].bet_sizes(big_blind=100)
(100, 100, 200, 200)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from firmware_py.core.rulings import Street

STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)  # the board games: three, one and one


class Structure(StrEnum):
    """How much a bet or raise may be."""

    NO_LIMIT = "no_limit"  # anything up to the whole stack (table stakes)
    POT_LIMIT = "pot_limit"  # up to the size of the pot, the call included
    FIXED_LIMIT = "fixed_limit"  # one fixed size a street, and a cap on the raises


class HandRule(StrEnum):
    """How a player's hand is made at the showdown."""

    BEST_FIVE = "best_five"  # any five of the hole cards and the board (hold'em)
    TWO_FROM_HAND = "two_from_hand"  # exactly two hole cards and exactly three board cards (Omaha)


# Each member also as a module constant, for the code that asks it at every showdown (see phase.py).
BEST_FIVE: Final = HandRule.BEST_FIVE
TWO_FROM_HAND: Final = HandRule.TWO_FROM_HAND


@dataclass(frozen=True, kw_only=True, slots=True)
class Game:
    """One game: its cards, its streets, its betting, its showdown, and its name in a PHH hand history."""

    name: str  # as a setup and a profile name it
    title: str  # as people say it: "Pot-Limit Omaha"
    short: str  # on a screen with little room: "PLO"
    hole_cards: int
    betting: Structure
    hand_rule: HandRule
    streets: tuple[Street, ...] = STREETS
    # Fixed limit: the bet on each street in big blinds (small bet, small bet, big bet, big bet).
    limit_bets: tuple[int, ...] = ()
    phh_variant: str | None = None  # pokerkit's code for the game ("NT", "PO", "FT"); None: it has none

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
                     hand_rule=HandRule.BEST_FIVE, phh_variant="NT")
OMAHA = Game(name="omaha", title="Pot-Limit Omaha", short="PLO", hole_cards=4, betting=Structure.POT_LIMIT,
             hand_rule=HandRule.TWO_FROM_HAND, phh_variant="PO")
# pokerkit's PotLimitOmahaHoldem deals four hole cards and its hand history variants have no
# five-card Omaha: a five-card hand is refused for export, by name (daemon/export.py).
OMAHA5 = Game(name="omaha5", title="Five-Card Pot-Limit Omaha", short="PLO5", hole_cards=5,
              betting=Structure.POT_LIMIT, hand_rule=HandRule.TWO_FROM_HAND)
LIMIT_HOLDEM = Game(name="limit_holdem", title="Fixed-Limit Hold'em", short="FLHE", hole_cards=2,
                    betting=Structure.FIXED_LIMIT, hand_rule=HandRule.BEST_FIVE, limit_bets=(1, 1, 2, 2),
                    phh_variant="FT")

GAMES: Final[dict[str, Game]] = {game.name: game for game in (HOLDEM, OMAHA, OMAHA5, LIMIT_HOLDEM)}
DEFAULT = HOLDEM.name  # what a setup that names no game deals
