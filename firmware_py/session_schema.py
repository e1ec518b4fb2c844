"""The schema of a session line (`table-events.md`): one msgspec Struct per `kind`, a tagged union on it.

The session reader (session.py) decodes each line with `DECODER` straight from its bytes: msgspec parses
the JSON and checks every type and bound in one C pass. A line the schema refuses is not an error here:
the reader reads it again the hand-written way, which either reads it (a field the schema does not know,
a seat key written "01", a number past a bound below) or words the error (file, line, what is wrong, a
did-you-mean). So the schema only ever needs to be stricter than the hand-written
checks, never looser; tests/test_session_schema.py checks the two read every generated line the same.

What the schema cannot say, session.py checks after it, sending the line the hand-written way when a
check fails: `amount` only with bet, raise or allin, the blinds' order, one ante, a chip race's
multiple, a setup's seats once each, its denominations (each a multiple of the smallest), its decks and
`in_play`, a uid as `normalise_uid` reads it; and time never going backwards, for every line.

Interpreted, never compiled (setup.py compiles firmware_py/compiled.py's list, which leaves it out):
msgspec reads a Struct's annotations when it is defined, and mypyc gives a compiled class's annotations
another shape (a Literal field then refuses every string). session.py, compiled, uses these classes as
the plain Python classes they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal, TypeAlias

import msgspec

from firmware_py.core.events import ANTENNAS, NAME_MAX, PLAYER_ID_PATTERN, STACK_REASONS, ButtonName, SeatStatus
from firmware_py.core.game import DEFAULT, GAMES

# Every bound is at least as strict as the hand-written check's, with an upper one on each number: a
# number past it (a whole number of 5,000 digits, which the standard library refuses) goes the
# hand-written way, which reads or refuses it as it always has.
MAX_T_S = 1e9  # as session.py's
MAX_LEVEL = 10_000  # a level's number (as session.py's)
MAX_WHOLE = 10**15  # chips, a hand's number, a count of actions: past it, the hand-written path
Seconds = Annotated[float, msgspec.Meta(ge=0, le=MAX_T_S)]
SeatNo = Annotated[int, msgspec.Meta(ge=1, le=10)]  # core.events.MAX_SEATS
Chips = Annotated[int, msgspec.Meta(ge=0, le=MAX_WHOLE)]
Chips1 = Annotated[int, msgspec.Meta(ge=1, le=MAX_WHOLE)]
Chips2 = Annotated[int, msgspec.Meta(ge=2, le=MAX_WHOLE)]
Whole = Annotated[int, msgspec.Meta(ge=0, le=MAX_WHOLE)]
# A seat number as an object key, written as the table writes it ("1".."10"): `int()` of it is the number.
# "01", " 1" or "+1" (which the hand-written check also reads as seat 1) go the hand-written way.
SeatKey = Annotated[str, msgspec.Meta(pattern=r"^(?:[1-9]|10)\Z")]
NonEmpty = Annotated[str, msgspec.Meta(min_length=1)]
# A uid: session.py normalises it as the hand-written path does (core.cards.normalise_uid), remembering
# those already so written (a pattern here would cost a regular expression per line).
Uid = Annotated[str, msgspec.Meta(min_length=1)]
# The core's own tables, as Literals: a game, an antenna or a stack's reason the core adds is one the schema
# reads (no second list). The type checker, which cannot read a Literal made at run time, takes them as str.
if TYPE_CHECKING:
    Antenna: TypeAlias = str
    StackReason: TypeAlias = str
    GameName: TypeAlias = str
else:
    Antenna = Literal[tuple(sorted(ANTENNAS))]
    StackReason = Literal[tuple(STACK_REASONS)]
    GameName = Literal[tuple(GAMES)]


# forbid_unknown_fields: the spec lets a line carry fields a reader does not know, but msgspec skips
# their values without the checks the standard library makes (it takes bytes that are not UTF-8 and
# whole numbers of any length there); such a line goes the hand-written way, which reads it the same.
# gc=False: a line's record holds no other record, so it need not be tracked by the cycle collector.
class Line(msgspec.Struct, tag_field="kind", forbid_unknown_fields=True, gc=False):
    """What every line has: `t`, seconds since the session began (and `kind`, the tag)."""

    t: Seconds


class ReadLine(Line, tag="read"):
    antenna: Antenna
    uid: Uid


class GoneLine(Line, tag="gone"):
    antenna: Antenna
    uid: Uid


class ButtonLine(Line, tag="button"):
    name: ButtonName
    seat: SeatNo | None = None
    amount: Chips1 | None = None
    hand: Whole | None = None
    count: Whole | None = None
    ruling: Whole | None = None  # confirm only (session.py checks it): the number of the ruling confirmed
    # Who pressed it (the journal writes it: daemon/origins.py); the rules read the press the same either way.
    by: Literal["panel", "tracker", "keypad"] | None = None


class SeatLine(Line, tag="seat"):
    seat: SeatNo
    status: SeatStatus
    moved: bool = False


class NameLine(Line, tag="name"):
    """A player's name for a seat (docs/table-events-chips.md); an empty one gives the seat its default back."""
    seat: SeatNo
    name: Annotated[str, msgspec.Meta(max_length=NAME_MAX)]


class StacksLine(Line, tag="stacks"):
    stacks: Annotated[dict[SeatKey, Chips], msgspec.Meta(min_length=1)]
    why: StackReason | None = None


class LevelLine(Line, tag="level"):
    small: Chips
    big: Chips1
    ante: Chips = 0
    bb_ante: Chips = 0
    number: Annotated[int, msgspec.Meta(ge=1, le=MAX_LEVEL)] | None = None  # docs/table-events-clock.md


class RaceLine(Line, tag="race"):
    chip: Chips1
    to: Chips2
    odd: dict[SeatKey, Chips] | None = None


class SetupLine(Line, tag="setup"):
    profile: NonEmpty
    seats: Annotated[list[SeatNo], msgspec.Meta(min_length=1)]
    button: SeatNo
    decks: Annotated[list[str], msgspec.Meta(min_length=1)]
    in_play: NonEmpty
    game: GameName = DEFAULT
    # the chip denominations in play (core.events.Setup); each a multiple of the smallest: session.py checks
    denominations: Annotated[list[Chips1], msgspec.Meta(min_length=1, max_length=20)] | None = None


PlayerId = Annotated[str, msgspec.Meta(pattern=PLAYER_ID_PATTERN)]
TableId = Annotated[str, msgspec.Meta(pattern=PLAYER_ID_PATTERN)]  # another table's id (as a room's ids are)


class DrawLine(Line, tag="draw"):
    """The director's draw for the table (docs/checkin.md): seat -> player id; {} ends the checks."""
    seats: dict[SeatKey, PlayerId]


class CheckInLine(Line, tag="checkin"):
    """A player card read (docs/checkin.md): at `seat`, at the shoe (no seat), or at another `table`."""
    player: PlayerId
    name: Annotated[str, msgspec.Meta(max_length=NAME_MAX)]
    seat: SeatNo | None = None
    table: TableId | None = None


class TickLine(Line, tag="tick"):
    """Time passing while a shot clock runs (docs/table-events-clock.md): only `t`."""


AnyLine: TypeAlias = (ReadLine | GoneLine | ButtonLine | SeatLine | StacksLine | LevelLine | RaceLine | SetupLine
                      | TickLine | NameLine | DrawLine | CheckInLine)
DECODER: msgspec.json.Decoder[AnyLine] = msgspec.json.Decoder(AnyLine)
