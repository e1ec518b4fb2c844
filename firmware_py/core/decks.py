"""Deck registries: which tag UID is which card, and which back colour it has."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_py.core.cards import FULL_DECK, JOKERS, normalise_uid, parse_card


class RegistryError(ValueError):
    """A deck registry that cannot be used; the message names the entry and the reason."""


@dataclass(frozen=True, kw_only=True)
class Deck:
    """One enrolled deck: its name, back colour and the card behind each tag UID."""

    name: str
    back: str
    cards: Mapping[str, str] = field(default_factory=dict)
    source: str = ""

    @classmethod
    def from_json(cls, data: Any, *, source: str = "") -> Deck:
        """Validate a registry object as read from JSON (`{"deck", "back", "cards"}`)."""
        if not isinstance(data, dict):
            raise RegistryError("the file must hold one JSON object with 'deck', 'back' and 'cards'")
        for key in ("deck", "back", "cards"):
            if key not in data:
                raise RegistryError(f"missing key {key!r}")
        name, back, raw_cards = data["deck"], data["back"], data["cards"]
        if not isinstance(name, str) or not name:
            raise RegistryError("'deck' must be a non-empty name")
        if not isinstance(back, str) or not back:
            raise RegistryError("'back' must name the back colour, e.g. \"red\"")
        if not isinstance(raw_cards, dict):
            raise RegistryError("'cards' must map tag UIDs to cards")
        cards: dict[str, str] = {}
        seen: dict[str, str] = {}
        for raw_uid, raw_card in raw_cards.items():
            where = f"entry {raw_uid!r}"
            try:
                uid = normalise_uid(raw_uid)
            except ValueError as exc:
                raise RegistryError(f"{where}: {exc}") from None
            if not isinstance(raw_card, str):
                raise RegistryError(f"{where}: the card must be a string such as \"As\"")
            try:
                card = parse_card(raw_card)
            except ValueError as exc:
                raise RegistryError(f"{where}: {exc}") from None
            if uid in cards:
                raise RegistryError(f"{where}: UID {uid} is listed twice")
            if card in seen:
                raise RegistryError(f"{where}: card {card} is already UID {seen[card]}")
            cards[uid] = card
            seen[card] = uid
        return cls(name=name, back=back, cards=cards, source=source)

    def to_json(self) -> dict[str, Any]:
        return {"deck": self.name, "back": self.back, "cards": dict(self.cards)}

    @property
    def missing(self) -> tuple[str, ...]:
        """Cards of a full deck (and jokers) not enrolled in this registry."""
        have = set(self.cards.values())
        return tuple(card for card in (*FULL_DECK, *JOKERS) if card not in have)
