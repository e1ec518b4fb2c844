"""The pure rules core: events in, rulings and state out. No I/O, no clock, no threads, no randomness."""

from firmware_py.core.cards import FULL_DECK, JOKERS, is_joker, normalise_uid, parse_card
from firmware_py.core.decks import Deck, RegistryError
from firmware_py.core.events import (
    ANTENNAS,
    BOARD_ANTENNAS,
    PLAYER_ACTIONS,
    Button,
    ButtonName,
    CheckIn,
    Draw,
    Event,
    Gone,
    Level,
    Name,
    Race,
    Read,
    Seat,
    SeatStatus,
    Setup,
    Stacks,
    Tick,
)
from firmware_py.core.phase import ClockView, Phase
from firmware_py.core.pots import Pot
from firmware_py.core.rulings import Notice, NoticeKind, Ruling, RulingKind, Street, Verdict
from firmware_py.core.snapshot import ChipsView, PlayerState, SeatView, TableSnapshot
from firmware_py.core.vocab import Cause, RuleKey, Where

__all__ = [
    "ANTENNAS",
    "BOARD_ANTENNAS",
    "FULL_DECK",
    "JOKERS",
    "PLAYER_ACTIONS",
    "Button",
    "ButtonName",
    "Cause",
    "CheckIn",
    "ChipsView",
    "ClockView",
    "Deck",
    "Draw",
    "Event",
    "Gone",
    "Level",
    "Name",
    "Notice",
    "NoticeKind",
    "Phase",
    "PlayerState",
    "Pot",
    "Race",
    "Read",
    "RegistryError",
    "RuleKey",
    "Ruling",
    "RulingKind",
    "Seat",
    "SeatStatus",
    "SeatView",
    "Setup",
    "Stacks",
    "Street",
    "TableSnapshot",
    "Tick",
    "Verdict",
    "Where",
    "is_joker",
    "normalise_uid",
    "parse_card",
]
