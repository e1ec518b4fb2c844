"""Reading configuration and data files safely: bytes, UTF-8, a parser with a nesting guard, numbers in range.

Every loader (table, hardware, profiles, decks, sessions, enrollment) reads through here, so a
file with a byte that is not UTF-8, nesting a thousand deep, a number with thousands of digits or
`1e400` is a clear error naming the file and where, never a traceback:

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_py.errors import ConfigError, TableError

MAX_FILE_BYTES = 16 * 1024 * 1024  # far beyond any table, profile or deck file; a session reads line by line
MAX_DEPTH = 32  # nesting of tables and lists; the deepest real file nests 4
MAX_INT_DIGITS = 18  # every whole number in these files fits in 64 bits
MAX_SHOWN = 80  # characters of a bad value quoted in a message


class FormatError(TableError, ValueError):
    """Text that does not parse, or parses into something out of bounds; the message says where."""


def shown(value: Any) -> str:
    """A value for an error message: its repr, cut short (a bad file may hold a huge or deep one)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


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
