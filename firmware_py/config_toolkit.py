"""The config toolkit: reading files safely, "did you mean", sections that track their keys, all errors at once.

Every loader (table, display, hardware, room, tracker, keypad, profiles, decks, sessions,
enrollment) reads through here, so a file with a byte that is not UTF-8, nesting a thousand deep,
a number with thousands of digits or `1e400` is a clear error naming the file and where, never a
traceback. A `Section` remembers which keys were read; `finish()` refuses the others, every one of
them in one error, each naming the file, section and key with a suggestion. Bad values are gathered
the same way: a loader notes each mistake in a `ConfigMistakes` (`firmware_py.core.mistakes`, which
the profile validation in the core uses too) and raises them all at the end, one a line:

>>> section = Section("table.toml", "room", {"brokr": "pi", "room": "main"})
>>> section.string("room")
'main'
>>> try:
...     section.finish(extra=("broker",))
... except ConfigError as exc:
...     print(exc)
table.toml: [room] brokr: unknown key (did you mean 'broker'?)

>>> try:
...     parse_json('{"t": 1e400}')
... except FormatError as exc:
...     print(exc)
the number 1e400 is out of range
>>> out_of_range(0, low=0.001, high=1.0)
'must be from 0.001 to 1, not 0'
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, overload

from firmware_py.core.mistakes import Mistakes, closest, shown, unquoted
from firmware_py.errors import ConfigError, FormatError

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "MAX_INT_DIGITS", "ConfigMistakes", "FormatError", "Section",
           "check_depth", "closest", "decode_utf8", "did_you_mean", "how_to_write", "joined", "out_of_range",
           "parse_json", "parse_toml", "read_json", "read_text", "read_toml", "shown", "toml_value",
           "unquoted"]

MAX_FILE_BYTES = 16 * 1024 * 1024  # far beyond any table, profile or deck file; a session reads line by line
MAX_DEPTH = 32  # nesting of tables and lists; the deepest real file nests 4
MAX_INT_DIGITS = 18  # every whole number in these files fits in 64 bits


def decode_utf8(data: bytes) -> str:
    """Bytes to text; FormatError names the line and column of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FormatError(f"line {line}, column {column}: byte 0x{data[exc.start]:02x} is not UTF-8 text "
                          "(save the file as UTF-8)") from None


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """FormatError if tables or lists nest deeper than `limit` (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            raise FormatError(f"tables or lists nest more than {limit} deep")
        stack.extend((child, depth + 1) for child in children)


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise FormatError(f"the number {text[:20]}... has {len(text)} digits, more than {MAX_INT_DIGITS}")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise FormatError(f"the number {text[:40]} is out of range")
    return value


def _json_constant(text: str) -> float:
    raise FormatError(f"{text} is not a number JSON allows")


def parse_json(text: str) -> Any:
    """JSON text to a value: finite numbers of sane length only, nesting at most MAX_DEPTH; else FormatError."""
    try:
        value = json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise FormatError(f"not usable JSON: nested more than {MAX_DEPTH} deep") from None
    except FormatError:
        raise
    except ValueError as exc:  # an int past Python's digit limit, a float beyond range
        raise FormatError(f"not usable JSON: {exc}") from None
    check_depth(value)
    return value


def _check_numbers(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 2**63:
            raise FormatError(f"the number {str(item)[:20]}... is too large (TOML allows 64-bit whole numbers)")
        elif isinstance(item, float) and not math.isfinite(item):
            raise FormatError(f"{item} is not a usable number here")


def parse_toml(text: str) -> dict[str, Any]:
    """TOML text to a dict: nesting at most MAX_DEPTH, 64-bit whole numbers, finite floats; else FormatError."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise FormatError(f"not usable TOML: nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:  # a whole number past Python's digit limit
        raise FormatError(f"not usable TOML: {exc}") from None
    check_depth(data)
    _check_numbers(data)
    return data


def read_text(path: str | Path, *, what: str, error: Callable[[str], Exception] = ConfigError) -> str:
    """The file as text; `error(message)` (naming the file) if it cannot be read or is not UTF-8."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise error(f"{_name(path)}: cannot read the {what} ({exc.strerror or exc})") from None
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{_name(path)}: the {what} is larger than {MAX_FILE_BYTES // 2**20} MiB; is it the right file?")
    try:
        return decode_utf8(data)
    except FormatError as exc:
        raise error(f"{_name(path)}: {exc}") from None


def read_toml(path: str | Path, *, what: str, error: Callable[[str], Exception] = ConfigError) -> dict[str, Any]:
    text = read_text(path, what=what, error=error)
    try:
        return parse_toml(text)
    except FormatError as exc:
        raise error(f"{_name(Path(path))}: {exc}") from None


def read_json(path: str | Path, *, what: str, error: Callable[[str], Exception] = ConfigError) -> Any:
    text = read_text(path, what=what, error=error)
    try:
        return parse_json(text)
    except FormatError as exc:
        raise error(f"{_name(Path(path))}: {exc}") from None


def out_of_range(value: Any, *, low: float, high: float, integer: bool = False) -> str | None:
    """None if `value` is a number (a whole one if `integer`) in low..high; else what is wrong with it."""
    kind = "a whole number" if integer else "a number"
    if isinstance(value, bool) or not isinstance(value, int if integer else int | float):
        return f"must be {kind}, not {shown(value)}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"must be a finite number, not {value}"
    if not low <= value <= high:
        return f"must be from {low:g} to {high:g}, not {shown(value)}"
    return None


def _name(path: Path) -> str:
    """The path for a message: a name too long for the system is cut, not passed back to it."""
    text = str(path)
    return text if len(text) <= 160 else text[:100] + "..." + text[-40:]


def did_you_mean(value: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the closest of `choices`, or "" when none is close.

    >>> did_you_mean("brodcast", ["venue", "broadcast"]), did_you_mean("zzz", ["venue"])
    (" (did you mean 'broadcast'?)", '')
    """
    close = closest(value, choices)
    return f" (did you mean {shown(close)}?)" if close is not None else ""


def joined(errors: Iterable[ConfigError]) -> ConfigError:
    """One ConfigError holding every message, one a line."""
    return ConfigError("\n".join(str(e) for e in errors))


class ConfigMistakes(Mistakes[ConfigError]):
    """The mistakes of one load (a file, and the files it names), raised together as one ConfigError.

    >>> mistakes = ConfigMistakes()
    >>> section = Section("hardware.toml", "panel", {"hold_s": "1", "beep_s": 99}, mistakes=mistakes)
    >>> hold_s = mistakes.attempt(lambda: section.number("hold_s", 1.0), fallback=1.0)
    >>> beep_s = mistakes.attempt(lambda: section.number("beep_s", 0.15, high=5.0), fallback=0.15)
    >>> section.finish(extra=("led_s",))  # nothing unknown; with an unknown key it would be noted too
    >>> mistakes.raise_if_any()
    Traceback (most recent call last):
    ...
    firmware_py.errors.ConfigError: hardware.toml: [panel] hold_s: must be a number of seconds, not '1' \
(write hold_s = 1, without quotes)
    hardware.toml: [panel] beep_s: must be between 0 and 5, not 99
    """

    def __init__(self) -> None:
        super().__init__(ConfigError, joined)

    def section(self, source: str, path: str, data: Any, known: Iterable[str] | None = None) -> Section | None:
        """A Section that notes its unknown keys here; None once `data` not being a table is noted."""
        try:
            return Section(source, path, data, known, mistakes=self)
        except ConfigError as exc:
            self.note(exc)
            return None


def toml_value(value: Any) -> str:
    """`value` as it is written in a TOML file.

    >>> toml_value(True), toml_value(0.05), toml_value("venue"), toml_value([800, 480])
    ('true', '0.05', '"venue"', '[800, 480]')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value)


def how_to_write(key: str, value: Any, example: Any = None) -> str:
    """A suggestion for a value of the wrong kind: a number in quotes without them, else `example` written out.

    >>> how_to_write("small", "25"), how_to_write("hold_s", True, 1.0), how_to_write("port", "x")
    (' (write small = 25, without quotes)', ' (e.g. hold_s = 1.0)', '')
    """
    return unquoted(key, value) or ("" if example is None else f" (e.g. {key} = {toml_value(example)})")


class Section:
    """One TOML table under validation: errors name the file, section and key; keys read are tracked.

    With `known`, keys outside it are refused at once; otherwise `finish()` refuses every key that
    was never read (nor listed in `extra`). Either way all unknown keys are reported together, and
    with `mistakes` they are noted there, beside the load's other mistakes, instead of raised.
    """

    def __init__(self, source: str, path: str, data: Any, known: Iterable[str] | None = None, *,
                 mistakes: Mistakes[ConfigError] | None = None) -> None:
        self.source = source
        self.path = path
        if not isinstance(data, dict):
            raise self.error(f"must be a table (a [{path}] section), not {type(data).__name__}")
        self.data: dict[str, Any] = data
        self.used: set[str] = set()
        self.mistakes = mistakes
        if known is not None:
            self.used.update(known)
            self.finish()

    def error(self, message: str, key: str | None = None) -> ConfigError:
        if self.path:
            where = f"[{self.path}]" if key is None else f"[{self.path}] {key}"
        else:
            where = "top level" if key is None else key
        return ConfigError(f"{self.source}: {where}: {message}")

    def get(self, key: str, default: Any = None) -> Any:
        self.used.add(key)
        return self.data.get(key, default)

    def has(self, key: str) -> bool:
        return key in self.data

    def required(self, key: str) -> Any:
        if key not in self.data:
            typo = closest(key, self.data)
            hint = f" (is {shown(typo)} a misspelling of it?)" if typo is not None else ""
            raise self.error(f"is missing{hint}", key)
        return self.get(key)

    def string(self, key: str, default: str | None = None) -> str:
        value = self.get(key, default)
        if value is None:
            raise self.error("is missing", key)
        if not isinstance(value, str) or not value:
            raise self.error(f"must be a non-empty string, not {shown(value)}{how_to_write(key, value, default)}", key)
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            raise self.error(f"must be true or false, not {shown(value)}{how_to_write(key, value, default)}", key)
        return value

    def number(self, key: str, default: float, *, low: float = 0.0, high: float = math.inf,
               what: str = "a number of seconds") -> float:
        value = self.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise self.error(f"must be {what}, not {shown(value)}{how_to_write(key, value, default)}", key)
        if not low <= value <= high:
            raise self.error(f"must be between {low:g} and {high:g}, not {shown(value)}", key)
        return float(value)

    @overload
    def integer(self, key: str, default: int, *, choices: Iterable[int] | None = None,
                low: int | None = None, high: int | None = None, what: str = "a whole number") -> int: ...

    @overload
    def integer(self, key: str, default: None, *, choices: Iterable[int] | None = None,
                low: int | None = None, high: int | None = None, what: str = "a whole number") -> int | None: ...

    def integer(self, key: str, default: int | None, *, choices: Iterable[int] | None = None,
                low: int | None = None, high: int | None = None, what: str = "a whole number") -> int | None:
        value = self.get(key)
        if value is None:
            if default is None and key not in self.data:
                return None
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"must be {what}, not {shown(value)}{how_to_write(key, value, default)}", key)
        if choices is not None and value not in choices:
            raise self.error(f"must be {what}, not {value}", key)
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.error(f"must be {what} between {low} and {high}, not {value}", key)
        return value

    def finish(self, *, extra: Iterable[str] = ()) -> None:
        """Refuse every key nobody read, all in one ConfigError, each with a suggestion among the known ones."""
        known = sorted(self.used | set(extra))
        unknown = [self.error(f"unknown key{did_you_mean(str(key), known)}", str(key))
                   for key in self.data if key not in known]
        if not unknown:
            return
        if self.mistakes is None:
            raise joined(unknown)
        self.mistakes.errors.extend(unknown)
