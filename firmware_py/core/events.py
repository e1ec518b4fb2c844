"""Input events of a table session, as in `shared/spec/table-events.md`, as frozen records."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from firmware_py.core.decks import Deck


class ButtonName(StrEnum):
    """The buttons of the dealer's panel."""

    NEW_HAND = "new_hand"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALLIN = "allin"
    ROUND_DONE = "round_done"
    EXPOSED = "exposed"
    BOXED = "boxed"
    MISDEAL = "misdeal"
    CLOCK = "clock"
    CONFIRM = "confirm"
    UNDO = "undo"
    HAND_END = "hand_end"
    RETRIEVE = "retrieve"  # a hand folded in error given back (`seat`: whose), if the book allows it
    EXTEND = "extend"  # a house's action clock: the player on it spends a time-extension chip


# Each member also as a module constant, for the code that asks it at every press (see phase.py).
NEW_HAND: Final = ButtonName.NEW_HAND
FOLD: Final = ButtonName.FOLD
CHECK: Final = ButtonName.CHECK
CALL: Final = ButtonName.CALL
BET: Final = ButtonName.BET
RAISE: Final = ButtonName.RAISE
ALLIN: Final = ButtonName.ALLIN
ROUND_DONE: Final = ButtonName.ROUND_DONE
EXPOSED: Final = ButtonName.EXPOSED
BOXED: Final = ButtonName.BOXED
MISDEAL: Final = ButtonName.MISDEAL
CLOCK: Final = ButtonName.CLOCK
CONFIRM: Final = ButtonName.CONFIRM
UNDO: Final = ButtonName.UNDO
HAND_END: Final = ButtonName.HAND_END
RETRIEVE: Final = ButtonName.RETRIEVE
EXTEND: Final = ButtonName.EXTEND

# The core's constants are Final: compiled, mypyc reads a final name as a constant, not from the module's
# dict at every use (a look-up at every event for the routing's).
PLAYER_ACTIONS: Final = frozenset(
    {ButtonName.FOLD, ButtonName.CHECK, ButtonName.CALL, ButtonName.BET, ButtonName.RAISE, ButtonName.ALLIN}
)
AMOUNT_ACTIONS: Final = frozenset({ButtonName.BET, ButtonName.RAISE, ButtonName.ALLIN})  # the actions that put in chips

SHOE: Final = "shoe"
BURN: Final = "burn"
MUCK: Final = "muck"
BOARD_ANTENNAS: Final = tuple(f"board{i}" for i in range(1, 6))
SEAT_ANTENNAS: Final = tuple(f"seat{i}" for i in range(1, 11))
ANTENNAS: Final = frozenset({SHOE, BURN, MUCK, *BOARD_ANTENNAS, *SEAT_ANTENNAS})
MAX_SEATS: Final = 10


class SeatStatus(StrEnum):
    """What a `seat` event says of a seat."""

    IN = "in"
    OUT = "out"


# The records made at every event or hand write their `__init__` out, with the dataclass's signature, so that
# mypyc compiles it (the one @dataclass generates stays interpreted); those made at every press are read-only
# by `Final` fields (no class-level default: the `__init__`'s), and the undo checkpoints share them as frozen.
# Where one is made at every line, press or hand (and in the undo copies) its leading fields go by position,
# elsewhere by keyword. Why, with the figures: bench/HISTORY.md, "The compiled core's records". Each such
# `__init__`, copy and positional call is found and held to the record's fields by tests/rules/test_core_records.py.


@dataclass(frozen=True, kw_only=True, slots=True)
class Setup:
    """The table's configuration: profile, occupied seats, button, and the decks (already loaded)."""

    t: float
    profile: str
    seats: tuple[int, ...]
    button: int
    decks: tuple[Deck, ...]
    in_play: str
    deck_files: tuple[str, ...] = ()
    game: str = "holdem"  # the game dealt from the next hand (a name in core/game.py's GAMES)
    # The chip denominations in play, smallest first (Ties: "An odd chip will be broken down to the smallest unit
    # used in the game"); () when not given: amounts in single units, as sessions without it always were.
    denominations: tuple[int, ...] = ()


@dataclass(kw_only=True, slots=True, unsafe_hash=True)  # read-only by its Final fields: see the note above Setup
class Sighting:
    """What an antenna says of a tag, at session time `t`: it arrived (`Read`) or left (`Gone`)."""

    t: Final[float]
    antenna: Final[str]
    uid: Final[str]

    def __init__(self, t: float, antenna: str, uid: str) -> None:  # written out, positional too: see above Setup
        self.t = t
        self.antenna = antenna
        self.uid = uid


@dataclass(kw_only=True, slots=True, unsafe_hash=True, init=False)
class Read(Sighting):
    """An antenna saw a tag arrive."""


@dataclass(kw_only=True, slots=True, unsafe_hash=True, init=False)
class Gone(Sighting):
    """An antenna stopped seeing a tag."""


@dataclass(kw_only=True, slots=True, unsafe_hash=True)  # read-only by its Final fields: see the note above Setup
class Button:
    """A press on the dealer's panel; `seat` names the acting seat when it is not the one to act.

    `hand` and `count`, when given, are the hand number and the number of actions the table had
    taken in it when the press was made: a press made against another state (stale, or the same
    press twice) is refused, never moved on to the next player. `ruling`, with `confirm` only, names
    the ruling confirmed (its number in the session, the snapshot's `ruling_number`): a confirm of one
    already confirmed (a second tablet's) is refused, never taken for the next one.
    """

    t: Final[float]
    name: Final[ButtonName]
    seat: Final[int | None]  # None unless given
    amount: Final[int | None]  # bet, raise, allin: the seat's total for the round, in chips (None unless given)
    hand: Final[int | None]  # None unless given
    count: Final[int | None]  # None unless given
    ruling: Final[int | None]  # confirm: the number of the ruling confirmed (None: the oldest shown)

    # By position too: the session reader makes one at every press line (see the note above Setup).
    def __init__(self, t: float, name: ButtonName, seat: int | None = None,  # noqa: PLR0917 (as said)
                 amount: int | None = None, hand: int | None = None, count: int | None = None,
                 ruling: int | None = None) -> None:
        self.t = t
        self.name = name
        self.seat = seat
        self.amount = amount
        self.hand = hand
        self.count = count
        self.ruling = ruling


@dataclass(frozen=True, kw_only=True, slots=True)
class Seat:
    """A player sits down (`in`) or leaves or is eliminated (`out`); `moved`: sat down having been moved
    from another table to balance tables (the profile says where such a player may be dealt in)."""

    t: float
    seat: int
    status: SeatStatus
    moved: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Stacks:
    """Each seat's chips before the next hand (or now, between hands); seats not named keep theirs."""

    t: float
    stacks: tuple[tuple[int, int], ...]  # (seat, chips), by seat
    why: str | None = None  # one of STACK_REASONS: what the operator did (journaled, shown on the venue screen)


NAME_MAX = 24  # characters in a player's name (the tracker's field, the venue screen's seat box)


@dataclass(frozen=True, kw_only=True, slots=True)
class Name:
    """The name a seat's player goes by from now on, as the operator typed it (the action tracker): every surface
    (venue screen, broadcast, floor, hand histories) shows it over the table file's `[display.seat_names]`;
    an empty name gives the seat back to that default. Rules nothing: the core only keeps it in its snapshot."""

    t: float
    seat: int
    name: str


STACK_REASONS = ("rebuy", "add_on", "correction", "moved")  # moved: a player moved here by the tournament director


@dataclass(frozen=True, kw_only=True, slots=True)
class Level:
    """The blind level in force from now on: small and big blind, the ante every dealt player posts, and
    the big-blind ante (one forced bet the big blind posts for the table: dead money, not its bet)."""

    t: float
    small: int
    big: int
    ante: int = 0
    bb_ante: int = 0
    number: int | None = None  # the structure's level number, where given (a house's action clock resets at some)


@dataclass(frozen=True, kw_only=True, slots=True)
class Race:
    """A color-up with a chip race: the `chip` denomination leaves the table for chips of `to`; `odd` is each
    seat's odd chips of it (those that do not make up a new chip). Without `odd` the core takes them from the
    counted stacks ((stack mod `to`) / `chip`: every higher denomination a multiple of `to`)."""

    t: float
    chip: int
    to: int
    odd: tuple[tuple[int, int], ...] | None = None  # (seat, odd chips), by seat


@dataclass(frozen=True, kw_only=True, slots=True)
class Tick:
    """Time passing while a shot clock runs: the daemon posts one each second (the core reads no clock), and
    the core gives the clock's warnings and its expiry at the tick that reaches them (docs/table-events-clock.md)."""

    t: float


PLAYER_ID_MAX = 64  # characters in a player id (the registry's, the director's: a room id, bounds.Id)
# A player id, and another table's id in a check-in: letters, digits, "_", "." and "-" (a topic-safe word).
PLAYER_ID_PATTERN: Final = r"^[A-Za-z0-9_.\-]{1,64}\Z"


@dataclass(frozen=True, kw_only=True, slots=True)
class Draw:
    """The director's draw for this table from now on: the player id each seat belongs to (`seats`, by seat). A seat
    not named has no drawn player and is never checked; an empty draw ends the checks (docs/checkin.md)."""

    t: float
    seats: tuple[tuple[int, str], ...]  # (seat, player id), by seat


@dataclass(frozen=True, kw_only=True, slots=True)
class CheckIn:
    """A player card read (docs/checkin.md): the player `player` (its registry id), who goes by `name`, sits at
    `seat`. `seat` None: read at the shoe's reader between hands, the player is seated at the seat the draw gives.
    `table` given: the player checked in at that other table (the room tells it), so is at no seat here."""

    t: float
    player: str
    name: str
    seat: int | None = None
    table: str | None = None


Event = Setup | Read | Gone | Button | Seat | Stacks | Level | Race | Tick | Name | Draw | CheckIn
