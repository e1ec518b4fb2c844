"""Playing cards as short codes: rank `23456789TJQKA` then suit `shdc` (`As`, `Td`); jokers `X1`, `X2`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "shdc"
JOKERS: Final = ("X1", "X2")
FULL_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

_RANK_ALIASES = {"10": "T"}
_CANONICAL_UID = re.compile(r"(?:[0-9A-F]{2})+")


def parse_card(text: str) -> str:
    """Return the canonical code of a card written loosely.

    >>> parse_card("as"), parse_card("10h"), parse_card("x1")
    ('As', 'Th', 'X1')
    """
    raw = text.strip()
    if raw.upper() in JOKERS:
        return raw.upper()
    if len(raw) < 2:
        raise ValueError(f"{text!r} is not a card: expected rank {RANKS} then suit {SUITS}, or X1/X2")
    rank, suit = raw[:-1].upper(), raw[-1].lower()
    rank = _RANK_ALIASES.get(rank, rank)
    if len(rank) != 1 or rank not in RANKS or suit not in SUITS:
        raise ValueError(f"{text!r} is not a card: expected rank {RANKS} then suit {SUITS}, or X1/X2")
    return rank + suit


def is_joker(card: str) -> bool:
    return card in JOKERS


UNKNOWN_PREFIX: Final = "?"  # `?1`, `?2`: a card out of the shoe whose tag no enrolled deck knows (face unseen)


def is_unknown(card: str) -> bool:
    return card.startswith(UNKNOWN_PREFIX)


def any_unknown(*groups: Sequence[str]) -> bool:
    """Whether any card of the groups is unknown (`is_unknown`), asked of each group's joined names at once:
    no known card's name holds the prefix (the showdown asks it of the board and every hand)."""
    return any(UNKNOWN_PREFIX in "".join(cards) for cards in groups)


@lru_cache(maxsize=1024)  # a table reads the same hundred-odd tags all session: a look-up, not a regex, per read
def normalise_uid(text: str) -> str:
    """Return a tag UID as upper-case hex with no separators.

    >>> normalise_uid("04:fd:5d b0-e8df1d")
    '04FD5DB0E8DF1D'
    """
    if _CANONICAL_UID.fullmatch(text):  # as readers and session files write it: nothing to do
        return text
    uid = "".join(ch for ch in text if ch not in ": -").upper()
    if not uid or len(uid) % 2 or any(ch not in "0123456789ABCDEF" for ch in uid):
        raise ValueError(f"{text!r} is not a tag UID: expected hex bytes, optionally separated by ':' or spaces")
    return uid
