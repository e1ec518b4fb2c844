"""Who made each press: the panel's buttons, the action tracker or the USB keypad, journaled with the press.

Every source posts to the daemon's one queue; each gets the queue through a `PressSource`, which notes the
source of each `Button` it passes on (by the event's identity, as `Awaited` is found again). The daemon
writes it into the press's journal line as `"by"` (an extra field the exchange format allows: a reader
that does not know it reads the press the same), so a hand's replay states who pressed what from the
journal itself, never a guess.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from firmware_py.core import Button
from firmware_py.ports import KEYPAD, PANEL, TRACKER, PressNotes
from firmware_py.ports import PRESS_SOURCES as SOURCES

__all__ = ["KEYPAD", "PANEL", "SOURCES", "TRACKER", "Origins", "PressSource", "origin_of", "with_origin"]
MAX_PENDING = 10_000  # presses posted and not yet journaled: far more than a queue ever holds


class Origins:
    """The source of each press posted and not yet journaled, by the event's id (thread-safe)."""

    def __init__(self) -> None:
        self._by: dict[int, tuple[Button, str]] = {}  # id -> (the press itself, kept alive: its id stays its own)
        self._lock = threading.Lock()

    def note(self, event: Button, by: str) -> None:
        with self._lock:
            if len(self._by) < MAX_PENDING:
                self._by[id(event)] = (event, by)

    def take(self, event: object) -> str | None:
        """The source of `event`, forgotten once asked (None: not a press of a known source)."""
        with self._lock:
            found = self._by.pop(id(event), None)
        return found[1] if found is not None and found[0] is event else None

    def moved(self, old: object, new: Button) -> None:
        """`new` replaces `old` (its time made monotonic): the source goes with it."""
        by = self.take(old)
        if by is not None:
            self.note(new, by)


class PressSource:
    """The daemon's queue as one source sees it: `put` as the queue's, each press noted as made by `by`."""

    def __init__(self, queue: Any, origins: PressNotes, by: str) -> None:
        if by not in SOURCES:
            raise ValueError(f"unknown press source {by!r}: one of {', '.join(SOURCES)}")
        self.queue = queue
        self.origins = origins
        self.by = by

    def put(self, item: object, *args: Any, **kwargs: Any) -> None:
        event = getattr(item, "event", item)  # an Awaited press (the tracker's) is the press it waits for
        if isinstance(event, Button):
            self.origins.note(event, self.by)
        self.queue.put(item, *args, **kwargs)


def with_origin(line: str, by: str | None) -> str:
    """A journal line with the press's source added (`line` as `journal.line_of` writes it)."""
    if by is None:
        return line
    data = json.loads(line)
    data["by"] = by
    return json.dumps(data, separators=(", ", ": "))


def origin_of(line: str) -> str | None:
    """The source a journal line names (`by`), if it is one of SOURCES."""
    if '"by"' not in line:
        return None
    try:
        by = json.loads(line).get("by")
    except (ValueError, AttributeError):
        return None
    return by if by in SOURCES else None
