"""The rules core's vocabulary: the rule keys a profile defines, the causes a ruling names, where a card is."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class RuleKey(StrEnum):
    """A rule the core consults: each is a `[rules.KEY]` table of every profile (inherited from the root)."""

    EXPOSED_FIRST_CARDS = "exposed_first_cards"
    TWO_EXPOSED = "two_exposed"
    EXPOSED_CARD = "exposed_card"
    BOXED_CARD = "boxed_card"
    BOXED_CARD_BOARD = "boxed_card_board"
    TWO_BOXED = "two_boxed"
    JOKER = "joker"
    JOKER_ACTED = "joker_acted"
    JOKER_BOARD = "joker_board"
    EXTRA_CARD = "extra_card"
    TWO_EXTRA = "two_extra"
    WRONG_COUNT = "wrong_count"
    SHORT_CARD = "short_card"
    WRONG_COUNT_DEAD = "wrong_count_dead"
    OUT_OF_SEQUENCE = "out_of_sequence"
    FIRST_CARD_WRONG_SEAT = "first_card_wrong_seat"
    EMPTY_SEAT_DEALT = "empty_seat_dealt"
    BUTTON_OUT_OF_POSITION = "button_out_of_position"
    DEALER_CALLED = "dealer_called"
    PREMATURE_FLOP = "premature_flop"
    PREMATURE_TURN = "premature_turn"
    PREMATURE_RIVER = "premature_river"
    FLOP_TOO_MANY = "flop_too_many"
    TURN_RIVER_TOO_MANY = "turn_river_too_many"
    BURN_MISSING = "burn_missing"
    BURN_EXTRA = "burn_extra"
    BURN_MISSING_FLOP = "burn_missing_flop"
    BURN_EXTRA_FLOP = "burn_extra_flop"
    DUPLICATE_CARD = "duplicate_card"
    FOREIGN_CARD = "foreign_card"
    UNKNOWN_CARD = "unknown_card"
    SHOWDOWN = "showdown"
    # Chips (only when the table knows stacks): the minimum bet and raise, reopening, pots.
    MIN_BET = "min_bet"
    MIN_RAISE = "min_raise"
    RAISE_NOT_REOPENED = "raise_not_reopened"
    SIDE_POTS = "side_pots"
    ODD_CHIP = "odd_chip"
    # Action out of turn, by what was done: a check, call (and anything without its own rule) held for the seat's
    # turn; a bet or raise (held, or posted at once); a fold (held, or mucked at once); a raise refused after it.
    OUT_OF_TURN = "out_of_turn"
    OUT_OF_TURN_BET = "out_of_turn_bet"
    OUT_OF_TURN_FOLD = "out_of_turn_fold"
    OUT_OF_TURN_NO_RAISE = "out_of_turn_no_raise"
    BIG_BLIND_FOLD = "big_blind_fold"  # the big blind folds in turn with nothing to call: taken, or returned
    # The betting structures past no limit (the game's, core/game.py): the pot limit and the raise cap.
    POT_LIMIT = "pot_limit"
    LIMIT_RAISES = "limit_raises"
    LIMIT_ALLIN = "limit_allin"  # fixed limit: an all-in of half a bet or more is a full bet; less reopens nothing
    SHORT_BLIND = "short_blind"  # a blind or ante posted short: action on what is left
    CHIP_RACE = "chip_race"  # a color-up's odd chips raced for with cards (procedure: who may win what)
    RACE_MISDEAL = "race_misdeal"  # a race card dealt out of order, too many, to a seat with no odd chips
    RETRIEVE = "retrieve"  # a hand folded in error: given back live, or refused (procedure: when the book allows it)
    # A seat dealt in whose drawn player is not checked in at it (absent, at another seat or table): the book's
    # "be at your seat" (procedure: when the hand is dead, or whether the player was entitled to a hand at all).
    ABSENT = "absent"


class Cause(StrEnum):
    """Why a ruling was made, when its kind alone does not say (the `cause` of a ruling line)."""

    BUTTON_OUT_OF_POSITION = "button_out_of_position"
    DEALER_CALLED = "dealer_called"
    WRONG_COUNT = "wrong_count"
    OUT_OF_SEQUENCE = "out_of_sequence"
    EXPOSED_FIRST_CARDS = "exposed_first_cards"
    TWO_EXPOSED = "two_exposed"
    TWO_BOXED = "two_boxed"
    TWO_EXTRA = "two_extra"
    JOKER = "joker"
    FOREIGN_CARD = "foreign_card"
    DUPLICATE_CARD = "duplicate_card"
    UNKNOWN_TAG = "unknown_tag"
    UNDER_MIN_BET = "under_min_bet"
    UNDER_MIN_RAISE = "under_min_raise"
    NOT_REOPENED = "not_reopened"
    OUT_OF_TURN = "out_of_turn"
    NO_CHIP_AFTER_ANTE = "no_chip_after_ante"  # RPL Tournaments 19: eliminated at the deal
    OVER_POT_LIMIT = "over_pot_limit"
    RAISES_CAPPED = "raises_capped"
    RACE_OUT_OF_SEQUENCE = "race_out_of_sequence"
    RACE_TOO_MANY = "race_too_many"
    RACE_NO_ODD_CHIPS = "race_no_odd_chips"
    CLOCK_EXPIRED = "clock_expired"  # the shot clock ran out on the seat
    NOT_CHECKED_IN = "not_checked_in"  # the seat's drawn player has not checked in (checkin.py)
    WRONG_SEAT = "wrong_seat"  # the seat's drawn player checked in at another seat of this table
    WRONG_TABLE = "wrong_table"  # the seat's drawn player checked in at another table


class Where(StrEnum):
    """Where a card of the hand is (by UID)."""

    HOLE = "hole"
    BOARD = "board"
    BURN = "burn"
    # Out of play: premature or redealt board cards, an exposed or extra card taken back. It may
    # come out of the shoe again once mixed back into the stub; antennas seeing it again are noise.
    VOID = "void"
    SCRAP = "scrap"  # boxed cards and jokers treated as scraps of paper


# Each member also as a module constant, for the code that asks it at every card (see phase.py). A module
# that needs the phase BOARD too imports this one as ON_BOARD.
HOLE: Final = Where.HOLE
BOARD: Final = Where.BOARD
BURN: Final = Where.BURN
VOID: Final = Where.VOID
SCRAP: Final = Where.SCRAP
