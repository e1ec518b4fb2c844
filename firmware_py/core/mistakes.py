"""Reporting bad input: a value shown short, the closest known word, and every mistake at once.

Pure, so the profile validation in the core and the file loaders around it (`config_toolkit`) report
mistakes the same way. A loader runs each independent check under `check()` (or reads a value with
`attempt()`), and the ones that fail are noted instead of ending the load; `raise_if_any()` then
raises them together, one a line:

>>> mistakes = Mistakes(ValueError, lambda errors: ValueError("\\n".join(map(str, errors))))
>>> with mistakes.check():
...     raise ValueError("seats: must list at least two seats")
>>> mistakes.attempt(lambda: int("9"), fallback=0), mistakes.attempt(lambda: int("nine"), fallback=0)
(9, 0)
>>> mistakes.raise_if_any()
Traceback (most recent call last):
...
ValueError: seats: must list at least two seats
invalid literal for int() with base 10: 'nine'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

MAX_SHOWN = 80  # characters of a bad value quoted in a message
QUOTED_NUMBER = re.compile(r"[+-]?[0-9][0-9_]*(\.[0-9]+)?")

E = TypeVar("E", bound=Exception)
T = TypeVar("T")


def shown(value: Any) -> str:
    """A value for an error message: its repr, cut short (a bad file may hold a huge or deep one)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def unquoted(key: str, value: Any) -> str:
    """The suggestion for a number written in quotes ("25" where 25 was meant), else "".

    >>> unquoted("small", " 25"), unquoted("view", "venue")
    (' (write small = 25, without quotes)', '')
    """
    if isinstance(value, str) and QUOTED_NUMBER.fullmatch(value.strip()):
        return f" (write {key} = {value.strip()}, without quotes)"
    return ""


def closest(value: str, choices: Iterable[Any]) -> str | None:
    """The known word closest to a misspelt `value`, or None when none is close.

    >>> closest("brodcast", ["venue", "broadcast"]), closest("zzz", ["venue"])
    ('broadcast', None)
    """
    close = difflib.get_close_matches(value, [str(c) for c in choices], n=1, cutoff=0.6)
    return close[0] if close else None


class Mistakes(Generic[E]):
    """The mistakes of one load: errors of `kind` are noted as checks go on; `combine` makes them one."""

    def __init__(self, kind: type[E], combine: Callable[[Sequence[E]], E]) -> None:
        self.kind = kind
        self.combine = combine
        self.errors: list[E] = []

    def __bool__(self) -> bool:
        return bool(self.errors)

    def note(self, error: E) -> None:
        self.errors.append(error)

    @contextmanager
    def check(self) -> Iterator[None]:
        """Run one check: an error of `kind` in the block is noted, and the code after the block goes on."""
        try:
            yield
        except self.kind as exc:
            self.errors.append(exc)

    def attempt(self, read: Callable[[], T], fallback: T) -> T:
        """`read()`; if it fails, its error is noted and `fallback` stands in until `raise_if_any()`."""
        try:
            return read()
        except self.kind as exc:
            self.errors.append(exc)
            return fallback

    def raise_if_any(self) -> None:
        """Raise every noted mistake as one error (none noted: nothing happens)."""
        if self.errors:
            raise self.combine(self.errors)
