"""Reading and writing sessions in the JSON Lines exchange format of `table-events.md`."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, Final

import msgspec
import orjson

from firmware_py.config_toolkit import FormatError, decode_utf8, did_you_mean, read_json, shown
from firmware_py.core import (
    ANTENNAS,
    Button,
    ButtonName,
    CheckIn,
    Deck,
    Draw,
    Event,
    Gone,
    Level,
    Name,
    Race,
    Read,
    RegistryError,
    Seat,
    SeatStatus,
    Setup,
    Stacks,
    Tick,
    normalise_uid,
)
from firmware_py.core.chips import denominations_problem
from firmware_py.core.events import (
    AMOUNT_ACTIONS,
    MAX_SEATS,
    NAME_MAX,
    PLAYER_ID_MAX,
    PLAYER_ID_PATTERN,
    STACK_REASONS,
)
from firmware_py.core.game import DEFAULT as DEFAULT_GAME
from firmware_py.core.game import GAMES
from firmware_py.errors import DeckFileError, SessionError
from firmware_py.session_schema import (
    DECODER,
    ButtonLine,
    CheckInLine,
    DrawLine,
    GoneLine,
    LevelLine,
    NameLine,
    RaceLine,
    ReadLine,
    SeatLine,
    SetupLine,
    StacksLine,
    TickLine,
)

KINDS = ("setup", "read", "gone", "button", "seat", "stacks", "level", "race", "tick", "name", "draw", "checkin")
BUTTONS = {button.value: button for button in ButtonName}  # a dict look-up: calling the enum is slower
NUMBER = (int, float)
MAX_T_S = 1e9  # session seconds: some 30 years
MAX_UIDS_REMEMBERED = 10_000  # a few decks' tags many times over; past it, each new one is checked every time
# The schema's decoder and classes as Final names: compiled, mypyc keeps them in C variables (a module's
# other names are looked up in its dict at each use), and `type(line) is _ReadLine` is one comparison.
_decode: Final = DECODER.decode
_ReadLine: Final = ReadLine
_GoneLine: Final = GoneLine
_ButtonLine: Final = ButtonLine
_StacksLine: Final = StacksLine
_SeatLine: Final = SeatLine
_LevelLine: Final = LevelLine
_RaceLine: Final = RaceLine
_SetupLine: Final = SetupLine
_TickLine: Final = TickLine
_NameLine: Final = NameLine
_DrawLine: Final = DrawLine
_CheckInLine: Final = CheckInLine

def load_deck(path: str | Path) -> Deck:
    """Load and validate one deck registry file; a broken one names the file, entry and reason."""
    path = Path(path)
    data = read_json(path, what="deck registry", error=DeckFileError)
    try:
        return Deck.from_json(data, source=str(path))
    except RegistryError as exc:
        raise DeckFileError(f"{path}: {exc}") from None


class SessionReader:
    """Turns session lines into core events, resolving deck files relative to the session file."""

    def __init__(self, *, source: str = "session", base_dir: Path | None = None) -> None:
        self.source = source
        self.base_dir = base_dir or Path.cwd()
        self._deck_cache: dict[Path, Deck] = {}
        self._last_t = -math.inf
        self._uids: set[str] = set()  # tag uids seen, each already as normalise_uid writes it

    def parse_line(self, text: str, line: int) -> Event | None:
        """Parse one line; blank lines give None. Raises SessionError naming the line."""
        event = self._schema_event(text)
        if event is None:
            return self._parse_line_by_hand(text, line)
        return self._in_order(event, line)

    def read(self, lines: Iterable[bytes], *, closing: BinaryIO | None = None) -> Iterator[tuple[int, Event]]:
        """(line number, event) for each line of a file's bytes; SessionError on the first bad line.
        `closing`: a file closed once its lines are read (or left unread).

        Each line is decoded straight from its bytes against the schema (session_schema.py); a line
        it refuses is read the hand-written way (`_read_by_hand`), which reads it or words the error.
        """
        uids = self._uids
        try:
            for number, data in enumerate(lines, start=1):
                # `_schema_event` written out for the commonest lines, a card read of a tag already seen (half
                # of a session's lines) and a press: interpreted, each call saved is a tenth of the line's time.
                try:
                    line = _decode(data)
                except (msgspec.DecodeError, UnicodeError, RecursionError):  # read by hand below, which words it
                    line = None
                event: Event | None
                if type(line) is _ReadLine and line.uid in uids:
                    event = Read(line.t, line.antenna, line.uid)
                elif type(line) is _ButtonLine and (line.amount is None or line.name in AMOUNT_ACTIONS) and (
                        line.ruling is None or line.name is ButtonName.CONFIRM):
                    event = Button(line.t, line.name, line.seat, line.amount, line.hand, line.count,  # field order
                                   line.ruling)
                else:
                    event = self._line_event(line) if line is not None else None
                    if event is None:
                        event = self._read_by_hand(data, number)
                        if event is None:
                            continue
                        yield number, event
                        continue
                if event.t < self._last_t:
                    self._in_order(event, number)  # raises, naming the line
                self._last_t = event.t
                yield number, event
        finally:
            if closing is not None:
                closing.close()

    # -- the fast path: the schema, then what it cannot say ----------------------------------------

    def _schema_event(self, data: bytes | str) -> Event | None:
        """The event of a line the schema takes and the checks after it pass, or None: then the line
        goes the hand-written way, which reads it the same or says what is wrong with it."""
        try:
            line = _decode(data)
        except (msgspec.DecodeError, UnicodeError, RecursionError):  # ValidationError too; not UTF-8; nested too deep
            return None
        return self._line_event(line)

    def _line_event(self, line: object) -> Event | None:
        """`_schema_event` after the decode: the checks the schema cannot say, and the core's event."""
        # The commonest kinds first; `type(line) is` (one comparison, compiled) narrows the union for mypy.
        if type(line) is _ReadLine or type(line) is _GoneLine:
            uid = line.uid
            if uid not in self._uids:
                normal = self._new_uid(uid)
                if normal is None:
                    return None
                uid = normal
            # By position (t, antenna, uid), as the press below: made at every line (see core/events.py).
            if type(line) is _ReadLine:
                return Read(line.t, line.antenna, uid)
            return Gone(line.t, line.antenna, uid)
        if type(line) is _ButtonLine:
            if (line.amount is not None and line.name not in AMOUNT_ACTIONS) or (
                    line.ruling is not None and line.name is not ButtonName.CONFIRM):
                return None  # the hand-written way words it
            return Button(line.t, line.name, line.seat, line.amount, line.hand, line.count, line.ruling)  # in order
        if type(line) is _StacksLine:
            return Stacks(t=line.t, stacks=_seat_pairs(line.stacks), why=line.why)
        if type(line) is _SeatLine:
            return Seat(t=line.t, seat=line.seat, status=line.status, moved=line.moved)
        if type(line) is _LevelLine:
            if line.small > line.big or (line.ante and line.bb_ante):
                return None
            return Level(t=line.t, small=line.small, big=line.big, ante=line.ante, bb_ante=line.bb_ante,
                         number=line.number)
        if type(line) is _RaceLine:
            if line.to <= line.chip or line.to % line.chip:
                return None
            if line.odd is None:
                return Race(t=line.t, chip=line.chip, to=line.to)
            return Race(t=line.t, chip=line.chip, to=line.to, odd=_seat_pairs(line.odd))
        if type(line) is _TickLine:
            return Tick(t=line.t)
        if type(line) is _NameLine:
            return Name(t=line.t, seat=line.seat, name=line.name.strip())
        if type(line) is _DrawLine:
            return Draw(t=line.t, seats=tuple(sorted((int(seat), player) for seat, player in line.seats.items())))
        if type(line) is _CheckInLine:
            return CheckIn(t=line.t, player=line.player, name=line.name.strip(), seat=line.seat, table=line.table)
        if type(line) is not _SetupLine:
            return None  # (there is no other kind)
        return self._schema_setup(line)

    def _new_uid(self, uid: str) -> str | None:
        """A uid not seen yet in this session, as `normalise_uid` writes it (None: not a uid, the hand-written
        path says why). One written as readers write it is remembered: a session sees a few hundred tags,
        and the check, a regular expression, costs about as much as the rest of the line."""
        try:
            normal = normalise_uid(uid)
        except ValueError:
            return None
        if normal == uid and len(self._uids) < MAX_UIDS_REMEMBERED:
            self._uids.add(uid)
        return normal

    def _schema_setup(self, line: SetupLine) -> Setup | None:
        seats = tuple(sorted(line.seats))
        if len(set(seats)) != len(seats):
            return None
        try:
            decks = tuple(self._deck(name) for name in line.decks)
        except DeckFileError:
            return None
        if line.in_play not in [d.name for d in decks]:
            return None
        denominations = tuple(sorted(line.denominations or ()))
        if denominations_problem(denominations):
            return None
        return Setup(t=line.t, profile=line.profile, seats=seats, button=line.button, decks=decks,
                     in_play=line.in_play, deck_files=tuple(line.decks), game=line.game, denominations=denominations)

    def _in_order(self, event: Event, line: int) -> Event:
        """The event, once its time is not before the last line's: t is monotonic."""
        if event.t < self._last_t:
            raise SessionError(
                f"time goes backwards: t={event.t} after t={self._last_t} (t must be monotonic)",
                source=self.source,
                line=line,
            )
        self._last_t = event.t
        return event

    # -- the hand-written path: every line the schema refuses, and every error's words ---------------

    def _read_by_hand(self, data: bytes, line: int) -> Event | None:
        """A line of a file's bytes: orjson parses it straight from them (it checks they are UTF-8); any
        other goes the way of `_parse_line_by_hand`, for the same errors."""
        try:
            obj = orjson.loads(data)
        except orjson.JSONDecodeError:
            try:
                text = decode_utf8(data)
            except FormatError as exc:
                raise SessionError(str(exc).split(", ", 1)[-1], source=self.source, line=line) from None
            return self._parse_line_by_hand(text, line)
        return self._event(obj, line)

    def _parse_line_by_hand(self, text: str, line: int) -> Event | None:
        if not text.strip():
            return None
        try:
            obj = _loads(text)
        except json.JSONDecodeError as exc:
            raise SessionError(f"not valid JSON (column {exc.colno}: {exc.msg})",
                               source=self.source, line=line) from None
        except (RecursionError, ValueError) as exc:  # nested past the parser's limit, an int past Python's
            raise SessionError(f"not usable JSON ({shown(str(exc))})", source=self.source, line=line) from None
        return self._event(obj, line)

    def _event(self, obj: Any, line: int) -> Event:
        try:
            event = self.parse_object(obj)
        except (ValueError, DeckFileError) as exc:
            raise SessionError(str(exc), source=self.source, line=line) from None
        return self._in_order(event, line)

    def parse_object(self, obj: Any) -> Event:
        """One event from a parsed line. Raises ValueError saying what is wrong with it."""
        if not isinstance(obj, dict):
            raise ValueError("each line must be one JSON object")
        kind = obj.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            hint = did_you_mean(str(kind), KINDS) if isinstance(kind, str) else ""
            raise ValueError(f"'kind' must be one of {', '.join(KINDS)}, not {shown(kind)}{hint}")
        t = obj.get("t")
        if isinstance(t, bool) or not isinstance(t, NUMBER) or not 0 <= t <= MAX_T_S:
            raise ValueError(f"'t' must be a non-negative number of seconds (at most {MAX_T_S:g}), not {shown(t)}")
        at = float(t)
        # Called by name, the commonest kinds first: a direct call, which mypyc compiles to a C call.
        if kind == "read":
            return _read(obj, at)
        if kind == "button":
            return _button(obj, at)
        if kind == "gone":
            return _gone(obj, at)
        if kind == "stacks":
            return _stacks(obj, at)
        if kind == "seat":
            return _seat(obj, at)
        if kind == "level":
            return _level(obj, at)
        if kind == "race":
            return _race(obj, at)
        if kind == "tick":
            return Tick(t=at)
        if kind == "name":
            return _name(obj, at)
        if kind == "draw":
            return _draw(obj, at)
        if kind == "checkin":
            return _check_in(obj, at)
        return self._setup(obj, at)

    def _setup(self, obj: dict[str, Any], t: float) -> Setup:
        profile = _string(obj, "profile")
        seats = obj.get("seats")
        if not isinstance(seats, list) or not seats:
            raise ValueError("'seats' must be a non-empty list of seat numbers 1..10")
        seat_numbers = tuple(sorted(_seat_number(s, "seats") for s in seats))
        if len(set(seat_numbers)) != len(seat_numbers):
            raise ValueError("'seats' lists a seat twice")
        button = _seat_number(obj.get("button"), "button")
        deck_files = obj.get("decks")
        if not isinstance(deck_files, list) or not deck_files or not all(isinstance(d, str) for d in deck_files):
            raise ValueError("'decks' must be a non-empty list of deck registry file names")
        decks = tuple(self._deck(name) for name in deck_files)
        in_play = _string(obj, "in_play")
        names = [d.name for d in decks]
        if in_play not in names:
            raise ValueError(f"'in_play' is {shown(in_play)}, which is none of the decks {names}"
                             f"{did_you_mean(in_play, names)}")
        game = obj.get("game", DEFAULT_GAME)
        if not isinstance(game, str) or game not in GAMES:
            hint = did_you_mean(game, GAMES) if isinstance(game, str) else ""
            raise ValueError(f"'game' is {shown(game)}, not a game the table deals{hint}; "
                             f"the games are {', '.join(GAMES)}")
        return Setup(t=t, profile=profile, seats=seat_numbers, button=button, decks=decks, in_play=in_play,
                     deck_files=tuple(deck_files), game=game, denominations=_denominations(obj))

    def _deck(self, name: str) -> Deck:
        path = Path(name)
        if not path.is_absolute():
            path = self.base_dir / path
        path = path.resolve()
        if path not in self._deck_cache:
            self._deck_cache[path] = load_deck(path)
        return self._deck_cache[path]


# -- one function per kind of line: the common line takes the first test of each field, anything
# else the full check that words the error

def _read(obj: dict[str, Any], t: float) -> Read:
    antenna, uid = _tag(obj)
    return Read(t=t, antenna=antenna, uid=uid)


def _gone(obj: dict[str, Any], t: float) -> Gone:
    antenna, uid = _tag(obj)
    return Gone(t=t, antenna=antenna, uid=uid)


def _tag(obj: dict[str, Any]) -> tuple[str, str]:
    antenna = obj.get("antenna")
    if type(antenna) is not str or antenna not in ANTENNAS:
        antenna = _antenna(obj)
    uid = obj.get("uid")
    if type(uid) is not str or not uid:
        uid = _string(obj, "uid")  # raises, saying why
    return antenna, normalise_uid(uid)


def _antenna(obj: dict[str, Any]) -> str:
    antenna = _string(obj, "antenna")
    if antenna not in ANTENNAS:
        raise ValueError(f"unknown antenna {shown(antenna)}{did_you_mean(antenna, sorted(ANTENNAS))}")
    return antenna


def _button(obj: dict[str, Any], t: float) -> Button:
    name = obj.get("name")
    button = BUTTONS.get(name) if type(name) is str else None
    if button is None:
        button = _button_name(obj)
    seat = obj.get("seat")
    if seat is not None:
        seat = _seat_number(seat, "seat")
    amount = obj.get("amount")
    if amount is not None:
        if button not in AMOUNT_ACTIONS:
            raise ValueError(f"'amount' goes with bet, raise or allin, not with {button}")
        amount = _chips(amount, "amount", least=1)
    ruling = _optional_whole(obj, "ruling")
    if ruling is not None and button is not ButtonName.CONFIRM:
        raise ValueError(f"'ruling' goes with confirm (the ruling it confirms), not with {button}")
    return Button(t=t, name=button, seat=seat, amount=amount, hand=_optional_whole(obj, "hand"),
                  count=_optional_whole(obj, "count"), ruling=ruling)


def _button_name(obj: dict[str, Any]) -> ButtonName:
    name = _string(obj, "name")
    try:
        return ButtonName(name)
    except ValueError:
        names = [b.value for b in ButtonName]
        raise ValueError(f"unknown button {shown(name)}{did_you_mean(name, names)}") from None


def _stacks(obj: dict[str, Any], t: float) -> Stacks:
    stacks = obj.get("stacks")
    if not isinstance(stacks, dict) or not stacks:
        raise ValueError("'stacks' must be an object of seat number to chips, e.g. {\"1\": 10000}")
    pairs = []
    for key, chips in stacks.items():
        try:
            number = int(key)
        except ValueError:
            raise ValueError(f"'stacks' key {key!r} is not a seat number 1..{MAX_SEATS}") from None
        pairs.append((_seat_number(number, "stacks"), _chips(chips, f"stacks[{key}]", least=0)))
    why = obj.get("why")
    if why is not None and why not in STACK_REASONS:
        raise ValueError(f"'why' must be one of {', '.join(STACK_REASONS)}, not {shown(why)}")
    return Stacks(t=t, stacks=tuple(sorted(pairs)), why=why)


def _denominations(obj: dict[str, Any]) -> tuple[int, ...]:
    """A setup's `denominations`, the chips in play smallest first (none given: ())."""
    given = obj.get("denominations")
    if given is None:
        return ()
    if not isinstance(given, list) or not given:
        raise ValueError("'denominations' must be a list of the chip values in play, e.g. [25, 100, 500, 1000]")
    chips = tuple(sorted(_chips(chip, f"denominations[{index}]", least=1) for index, chip in enumerate(given)))
    problem = denominations_problem(chips)
    if problem:
        raise ValueError(f"'denominations' {list(given)}: {problem}")
    return chips


def _level(obj: dict[str, Any], t: float) -> Level:
    small, big = _chips(obj.get("small"), "small", least=0), _chips(obj.get("big"), "big", least=1)
    ante = _chips(obj.get("ante", 0), "ante", least=0)
    bb_ante = _chips(obj.get("bb_ante", 0), "bb_ante", least=0)
    if small > big:
        raise ValueError(f"the small blind {small} is more than the big blind {big}")
    if ante and bb_ante:
        raise ValueError(f"a level has an 'ante' every player posts ({ante}) or a 'bb_ante' the big blind posts "
                         f"for the table ({bb_ante}), not both: keep one")
    number = obj.get("number")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 10_000):
        raise ValueError(f"'number' (the level's number) must be a whole number from 1 to 10000, not {number!r}")
    return Level(t=t, small=small, big=big, ante=ante, bb_ante=bb_ante, number=number)


def _race(obj: dict[str, Any], t: float) -> Race:
    chip, to = _chips(obj.get("chip"), "chip", least=1), _chips(obj.get("to"), "to", least=2)
    if to <= chip or to % chip:
        raise ValueError(f"'to' ({to}) must be a multiple of 'chip' ({chip}) above it: the new chip's value, "
                         "e.g. chip 25, to 100")
    odd = obj.get("odd")
    if odd is None:
        return Race(t=t, chip=chip, to=to)
    if not isinstance(odd, dict):
        raise ValueError("'odd' must be an object of seat number to odd chips, e.g. {\"1\": 3}")
    pairs = []
    for key, count in odd.items():
        try:
            number = int(key)
        except ValueError:
            raise ValueError(f"'odd' key {key!r} is not a seat number 1..{MAX_SEATS}") from None
        pairs.append((_seat_number(number, "odd"), _chips(count, f"odd[{key}]", least=0)))
    return Race(t=t, chip=chip, to=to, odd=tuple(sorted(pairs)))


def _name(obj: dict[str, Any], t: float) -> Name:
    seat_no = _seat_number(obj.get("seat"), "seat")
    name = obj.get("name")
    if not isinstance(name, str) or len(name) > NAME_MAX:
        raise ValueError(f"'name' must be text of at most {NAME_MAX} characters (\"\" for the seat's default), "
                         f"not {shown(name)}")
    return Name(t=t, seat=seat_no, name=name.strip())


def _player_id(value: Any, key: str) -> str:
    if not isinstance(value, str) or re.match(PLAYER_ID_PATTERN, value) is None:
        raise ValueError(f"'{key}' must be a player id (1 to {PLAYER_ID_MAX} letters, digits, '_', '.' or '-'), "
                         f"not {shown(value)}")
    return value


def _draw(obj: dict[str, Any], t: float) -> Draw:
    seats = obj.get("seats")
    if not isinstance(seats, dict):
        raise ValueError("'seats' must be an object of seat number to player id, e.g. {\"3\": \"P0012\"} "
                         "({} ends the draw)")
    pairs = []
    for key, player in seats.items():
        try:
            number = int(key)
        except ValueError:
            raise ValueError(f"'seats' key {key!r} is not a seat number 1..{MAX_SEATS}") from None
        pairs.append((_seat_number(number, "seats"), _player_id(player, f"seats[{key}]")))
    return Draw(t=t, seats=tuple(sorted(pairs)))


def _check_in(obj: dict[str, Any], t: float) -> CheckIn:
    player = _player_id(obj.get("player"), "player")
    name = obj.get("name")
    if not isinstance(name, str) or len(name) > NAME_MAX:
        raise ValueError(f"'name' must be text of at most {NAME_MAX} characters, not {shown(name)}")
    seat = obj.get("seat")
    table = obj.get("table")
    return CheckIn(t=t, player=player, name=name.strip(),
                   seat=_seat_number(seat, "seat") if seat is not None else None,
                   table=_player_id(table, "table") if table is not None else None)


def _seat(obj: dict[str, Any], t: float) -> Seat:
    seat_no = _seat_number(obj.get("seat"), "seat")
    status = _string(obj, "status")
    moved = obj.get("moved", False)
    if not isinstance(moved, bool):
        raise ValueError(f"'moved' must be true or false, not {shown(moved)}")
    try:
        return Seat(t=t, seat=seat_no, status=SeatStatus(status), moved=moved)
    except ValueError:
        raise ValueError(f"'status' must be 'in' or 'out', not {shown(status)}") from None


def _seat_pairs(by_seat: dict[str, int]) -> tuple[tuple[int, int], ...]:
    """An object of seat number ("1".."10", as the schema checked) to a whole number: (seat, number), by seat."""
    return tuple(sorted([(int(key), value) for key, value in by_seat.items()]))


def _loads(text: str) -> Any:
    """One JSON value: orjson (a C parser, about four times the standard library's speed) reads the
    lines it accepts; the standard library reads the rest (NaN, huge integers, lone surrogates) and
    words the errors, so what is accepted and what is said are exactly as before."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _string(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key!r} must be a non-empty string, not {shown(value)}")
    return value


def _seat_number(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEATS:
        raise ValueError(f"{key!r} must hold seat numbers 1..{MAX_SEATS}, not {shown(value)}")
    return value


def _optional_whole(obj: dict[str, Any], key: str) -> int | None:
    value = obj.get(key)
    return None if value is None else _whole(value, key)


def _whole(value: Any, key: str) -> int:
    """A press's `hand` (the hand number) or `count` (actions taken in it) when it was made."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{key!r} must be a whole number, 0 or more, not {shown(value)}")
    return value


def _chips(value: Any, key: str, *, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{key!r} must be a whole number of chips, at least {least}, not {value!r}")
    return value


def read_session(path: str | Path) -> Iterator[tuple[int, Event]]:
    """Yield (line number, event) for each line of a session file; SessionError on the first bad line."""
    path = Path(path)
    reader = SessionReader(source=str(path), base_dir=path.parent)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise SessionError(f"cannot open the session file ({exc.strerror or exc})", source=str(path)) from None
    return reader.read(handle, closing=handle)  # (its generator, not one around it: a step less a line)


def event_to_json(event: Event) -> dict[str, Any]:
    """The event as a line of the exchange format (the inverse of SessionReader.parse_object)."""
    if isinstance(event, Setup):
        return {"t": event.t, "kind": "setup", "profile": event.profile, "seats": list(event.seats),
                "button": event.button, "decks": list(event.deck_files or (d.source for d in event.decks)),
                "in_play": event.in_play, **({"game": event.game} if event.game != DEFAULT_GAME else {}),
                **({"denominations": list(event.denominations)} if event.denominations else {})}
    if isinstance(event, Read | Gone):
        kind = "read" if isinstance(event, Read) else "gone"
        return {"t": event.t, "kind": kind, "antenna": event.antenna, "uid": event.uid}
    if isinstance(event, Button):
        out: dict[str, Any] = {"t": event.t, "kind": "button", "name": str(event.name)}
        if event.seat is not None:
            out["seat"] = event.seat
        if event.amount is not None:
            out["amount"] = event.amount
        if event.hand is not None:
            out["hand"] = event.hand
        if event.count is not None:
            out["count"] = event.count
        if event.ruling is not None:
            out["ruling"] = event.ruling
        return out
    if isinstance(event, Stacks):
        out = {"t": event.t, "kind": "stacks", "stacks": {str(seat): chips for seat, chips in event.stacks}}
        if event.why is not None:
            out["why"] = event.why
        return out
    if isinstance(event, Race):
        race: dict[str, Any] = {"t": event.t, "kind": "race", "chip": event.chip, "to": event.to}
        if event.odd is not None:
            race["odd"] = {str(seat): count for seat, count in event.odd}
        return race
    if isinstance(event, Tick):
        return {"t": event.t, "kind": "tick"}
    if isinstance(event, Name):
        return {"t": event.t, "kind": "name", "seat": event.seat, "name": event.name}
    if isinstance(event, Draw):
        return {"t": event.t, "kind": "draw", "seats": {str(seat): player for seat, player in event.seats}}
    if isinstance(event, CheckIn):
        checkin: dict[str, Any] = {"t": event.t, "kind": "checkin", "player": event.player, "name": event.name}
        if event.seat is not None:
            checkin["seat"] = event.seat
        if event.table is not None:
            checkin["table"] = event.table
        return checkin
    if isinstance(event, Level):
        line: dict[str, Any] = {"t": event.t, "kind": "level", "small": event.small, "big": event.big,
                                "ante": event.ante}
        if event.bb_ante:  # (written only when there is one: sessions without it stay as they were)
            line["bb_ante"] = event.bb_ante
        if event.number is not None:  # (likewise: docs/table-events-clock.md)
            line["number"] = event.number
        return line
    out = {"t": event.t, "kind": "seat", "seat": event.seat, "status": str(event.status)}
    if event.moved:
        out["moved"] = True
    return out
