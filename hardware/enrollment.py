"""Deck enrollment: which card comes next, which UID to refuse, and a registry file saved after every card."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_py.core.cards import FULL_DECK, JOKERS
from firmware_py.core.decks import Deck
from firmware_py.errors import DeckFileError
from firmware_py.session import load_deck

ENROLL_ORDER: tuple[str, ...] = (*FULL_DECK, *JOKERS)  # spades 2..A, hearts, diamonds, clubs, then jokers


@dataclass(frozen=True, slots=True)
class Outcome:
    accepted: bool
    message: str


class Enrollment:
    """One deck being enrolled, card by card in `ENROLL_ORDER`, into the registry file at `path`.

    The file is rewritten (atomically) after each card, so an interrupted enrollment resumes
    where it stopped: `Enrollment.open()` reads what is already there.
    """

    def __init__(self, *, deck: str, back: str, path: Path, cards: Mapping[str, str] | None = None,
                 elsewhere: Mapping[str, str] | None = None, order: tuple[str, ...] = ENROLL_ORDER) -> None:
        self.deck, self.back, self.path = deck, back, path
        self.cards: dict[str, str] = dict(cards or {})
        self.elsewhere = dict(elsewhere or {})  # UID -> "deck test-red as 7h"
        self.order = order

    @classmethod
    def open(cls, *, deck: str, back: str, path: Path, others: list[Path] = ()) -> Enrollment:  # type: ignore[assignment]
        """Start, or resume the enrollment already in `path`; UIDs of the `others` registries are refused."""
        cards: dict[str, str] = {}
        if path.exists():
            existing = load_deck(path)
            if existing.name != deck or existing.back != back:
                raise DeckFileError(f"{path}: holds deck {existing.name!r} with {existing.back} backs, not "
                                    f"{deck!r} with {back} backs: choose another --out file")
            cards = dict(existing.cards)
        elsewhere: dict[str, str] = {}
        for other in others:
            if other.resolve() == path.resolve():
                continue
            registry = load_deck(other)
            for uid, card in registry.cards.items():
                elsewhere[uid] = f"deck {registry.name!r} ({other.name}) as {card}"
        return cls(deck=deck, back=back, path=path, cards=cards, elsewhere=elsewhere)

    @property
    def expected(self) -> str | None:
        """The card to scan next, or None when the deck is complete."""
        have = set(self.cards.values())
        return next((card for card in self.order if card not in have), None)

    @property
    def progress(self) -> tuple[int, int]:
        return len(self.cards), len(self.order)

    def offer(self, uid: str) -> Outcome:
        """A tag was read: enroll it as the expected card, or say why not."""
        card = self.expected
        if card is None:
            return Outcome(False, "the deck is complete")
        if uid in self.cards:
            return Outcome(False, f"UID {uid} is already enrolled in this deck as {self.cards[uid]}: "
                                  f"put that card aside and scan {card}")
        if uid in self.elsewhere:
            return Outcome(False, f"UID {uid} is already enrolled in {self.elsewhere[uid]}: a card of "
                                  "another deck is mixed in")
        self.cards[uid] = card
        self.save()
        done, total = self.progress
        return Outcome(True, f"{card} enrolled as {uid} ({done}/{total})")

    def save(self) -> None:
        deck = Deck(name=self.deck, back=self.back, cards=self.cards)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".partial")
        temporary.write_text(json.dumps(deck.to_json(), indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, self.path)
