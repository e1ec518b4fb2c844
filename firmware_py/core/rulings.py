"""Rulings: what the core tells the dealer, with the rule cited and the remedy spelled out."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from firmware_py.core.vocab import Cause

if TYPE_CHECKING:
    from firmware_py.core.pots import Pot


class RulingKind(StrEnum):
    MISDEAL = "misdeal"
    MISDEAL_TOO_LATE = "misdeal_too_late"
    EXPOSED_CARD = "exposed_card"
    BOXED_CARD = "boxed_card"
    EXTRA_CARD = "extra_card"
    PREMATURE_CARD = "premature_card"
    FLOP_TOO_MANY = "flop_too_many"
    TOO_MANY_CARDS = "too_many_cards"  # two cards turned for the turn or the river
    BURN_MISSING = "burn_missing"
    BURN_EXTRA = "burn_extra"
    VOID_HAND = "void_hand"
    SCRAP_CARD = "scrap_card"
    DEAD_HAND = "dead_hand"
    SHOWDOWN = "showdown"
    SHORT_CARD = "short_card"  # a seat short one card that may be dealt in proper sequence
    BET_TOO_SMALL = "bet_too_small"  # a bet or raise under the profile's minimum: brought up to it
    BET_TOO_LARGE = "bet_too_large"  # a bet or raise over the game's limit (the pot, the fixed size): not taken
    RAISE_NOT_ALLOWED = "raise_not_allowed"  # a raise by a seat the betting was not reopened to
    ACTION_OUT_OF_TURN = "action_out_of_turn"  # a press for a seat the action has not reached
    UNKNOWN_CARD = "unknown_card"  # a card out of the shoe with a tag no enrolled deck knows: the dealer looks
    SHORT_BLIND = "short_blind"  # a blind or ante posted short (all in): action on what is left
    CHIP_RACE = "chip_race"  # a color-up's race ruled: who gets each new chip
    RACE_MISDEAL = "race_misdeal"  # a race card misdealt: the race is dealt again
    ACTION_NOT_ALLOWED = "action_not_allowed"  # a press the book's procedure leaves no room for: not taken
    FOLD_RETURNED = "fold_returned"  # a fold the book gives back (the big blind's at its option): the hand plays
    CLOCK_EXPIRED = "clock_expired"  # the shot clock ran out: the hand dead, or checked (the profile's choice)
    HAND_RETRIEVED = "hand_retrieved"  # a hand folded in error given back live, as the book allows
    RETRIEVAL_REFUSED = "retrieval_refused"  # a retrieve press the book does not allow: the hand stays folded
    PLAYER_ABSENT = "player_absent"  # a seat's drawn player not at it when dealt, entitled to the hand: it plays


# Rulings about a card that lies face down (dealt to a player, or to become the burn): not named in public.
FACE_DOWN: Final = frozenset({RulingKind.EXTRA_CARD})
FACE_DOWN_CAUSES: Final = frozenset({Cause.TWO_EXTRA, Cause.OUT_OF_SEQUENCE, Cause.WRONG_COUNT})


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


# Each member also as a module constant, for the code that asks it at every card and action (see phase.py).
PREFLOP: Final = Street.PREFLOP
FLOP: Final = Street.FLOP
TURN: Final = Street.TURN
RIVER: Final = Street.RIVER


@dataclass(frozen=True, kw_only=True, slots=True)
class Ruling:
    """One ruling. `rule` is "profile: section number" of the house's rulebook."""

    t: float
    ruling: RulingKind
    rule: str
    remedy: str
    cause: Cause | None = None
    card: str | None = None
    seat: int | None = None
    street: Street | None = None
    winners: tuple[int, ...] | None = None
    hand: str | None = None
    amount: int | None = None  # the amount keyed, for rulings on amounts
    pots: tuple[Pot, ...] | None = None  # the showdown's pots as awarded, when the table counts chips
    # A high-low split game's showdown: the low's winners and their hand (`winners` and `hand` are the high's);
    # None when the game is not split or no low qualified.
    low_winners: tuple[int, ...] | None = None
    low_hand: str | None = None

    def __init__(self, *, t: float, ruling: RulingKind, rule: str, remedy: str, cause: Cause | None = None,
                 card: str | None = None, seat: int | None = None, street: Street | None = None,
                 winners: tuple[int, ...] | None = None, hand: str | None = None, amount: int | None = None,
                 pots: tuple[Pot, ...] | None = None, low_winners: tuple[int, ...] | None = None,
                 low_hand: str | None = None) -> None:  # written out for mypyc: see the note in events.py
        object.__setattr__(self, "t", t)
        object.__setattr__(self, "ruling", ruling)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "remedy", remedy)
        object.__setattr__(self, "cause", cause)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "street", street)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "pots", pots)
        object.__setattr__(self, "low_winners", low_winners)
        object.__setattr__(self, "low_hand", low_hand)

    def to_json(self) -> dict[str, Any]:
        """The ruling as the JSON object of `table-events.md` (absent fields left out)."""
        out: dict[str, Any] = {"t": self.t, "ruling": str(self.ruling)}
        for key in ("cause", "card", "seat", "street"):
            value = getattr(self, key)
            if value is not None:
                out[key] = str(value) if key != "seat" else value
        if self.winners is not None:
            out["winners"] = list(self.winners)
        if self.hand is not None:
            out["hand"] = self.hand
        if self.low_winners is not None:
            out["low_winners"] = list(self.low_winners)
        if self.low_hand is not None:
            out["low_hand"] = self.low_hand
        if self.amount is not None:
            out["amount"] = self.amount
        if self.pots is not None:
            out["pots"] = [pot.to_json() for pot in self.pots]
        out["rule"] = self.rule
        out["remedy"] = self.remedy
        return out

    def public(self) -> Ruling:
        """The ruling as players may see and hear it: a card that lies face down is not named.

        An extra card dealt to a player becomes the burn card: the screen and the log say that an
        extra card was dealt, not which. The full ruling stays in the journal and the session file.

        >>> r = Ruling(t=5.0, ruling=RulingKind.EXTRA_CARD, rule="robert: Hold'em 2", card="Jd", seat=2,
        ...            remedy="One extra card: return the Jd to the deck; it is the burn card for the flop.")
        >>> r.public().card, r.public().remedy
        (None, 'One extra card: return the extra card to the deck; it is the burn card for the flop.')
        """
        if self.card is None or not (self.ruling in FACE_DOWN or self.cause in FACE_DOWN_CAUSES):
            return self
        name = "extra card" if self.ruling is RulingKind.EXTRA_CARD else "card"

        def hide(match: re.Match[str]) -> str:
            the = match.group(1)
            return f"{the}{name}" if the else f"the {name}"

        remedy = re.sub(rf"(\b[Tt]he )?\b{re.escape(self.card)}\b", hide, self.remedy)
        return replace(self, card=None, remedy=remedy)

    def explain(self) -> str:
        """One line for people: time, ruling, seat and card, rule, remedy."""
        parts = [f"{self.t:9.2f}s", str(self.ruling).upper().replace("_", " ")]
        if self.cause:
            parts.append(f"({self.cause.replace('_', ' ')})")
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        if self.card:
            parts.append(f"card {self.card}")
        if self.street:
            parts.append(f"on the {self.street}")
        if self.winners is not None:
            parts.append("winner " + ", ".join(f"seat {s}" for s in self.winners))
        if self.hand:
            parts.append(f"with {self.hand}")
        if self.low_winners is not None:
            parts.append("low " + ", ".join(f"seat {s}" for s in self.low_winners))
        if self.low_hand:
            parts.append(f"with {self.low_hand}")
        return " ".join(parts) + f" | {self.rule} | {self.remedy}"


class NoticeKind(StrEnum):
    """Things the operator should know that are not rulings of a rulebook."""

    UNKNOWN_TAG = "unknown_tag"
    IGNORED = "ignored"
    CONFIRMED = "confirmed"
    UNDONE = "undone"
    CORRECTED = "corrected"  # a seat's chips changed between hands (rebuy, add-on, correction), a name typed
    CLOCK = "clock"  # the shot clock: called, its warnings and its count of the last seconds
    CHECKIN = "checkin"  # a player checked in by card, or the director's draw for the table (checkin.py)


class Verdict(StrEnum):
    """The core's answer to the one event fed: taken as it was, refused (nothing changed; the reason is given),
    or taken with a ruling (an action out of turn held, a bet brought up, a misdeal)."""

    TAKEN = "taken"
    REFUSED = "refused"
    RULED = "ruled"


@dataclass(frozen=True, kw_only=True, slots=True)
class Notice:
    t: float
    notice: NoticeKind
    message: str

    def __init__(self, *, t: float, notice: NoticeKind, message: str) -> None:  # for mypyc: see events.py
        object.__setattr__(self, "t", t)
        object.__setattr__(self, "notice", notice)
        object.__setattr__(self, "message", message)

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "notice": str(self.notice), "message": self.message}
