"""The pure rules core: events in, rulings and state out. No I/O, no clock, no threads, no randomness."""

from firmware_py.core.cards import FULL_DECK, JOKERS, is_joker, normalise_uid, parse_card
from firmware_py.core.decks import Deck, RegistryError
from firmware_py.core.events import (
    ANTENNAS,
    BOARD_ANTENNAS,
    PLAYER_ACTIONS,
    Button,
    ButtonName,
    Event,
    Gone,
    Read,
    Seat,
    SeatStatus,
    Setup,
)
from firmware_py.core.rulings import Notice, NoticeKind, Ruling, RulingKind, Street
from firmware_py.core.snapshot import ClockView, Phase, PlayerState, SeatView, TableSnapshot

__all__ = [
    "ANTENNAS",
    "BOARD_ANTENNAS",
    "FULL_DECK",
    "JOKERS",
    "PLAYER_ACTIONS",
    "Button",
    "ButtonName",
    "ClockView",
    "Deck",
    "Event",
    "Gone",
    "Notice",
    "NoticeKind",
    "Phase",
    "PlayerState",
    "Read",
    "RegistryError",
    "Ruling",
    "RulingKind",
    "Seat",
    "SeatStatus",
    "SeatView",
    "Setup",
    "Street",
    "TableSnapshot",
    "is_joker",
    "normalise_uid",
    "parse_card",
]
