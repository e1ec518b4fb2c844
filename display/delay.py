"""The secure delay: snapshots are held back until they are old enough to show on a broadcast."""

from __future__ import annotations

import bisect
import threading
from typing import Generic, TypeVar

T = TypeVar("T")


class DelayedSnapshots(Generic[T]):
    """Keeps the snapshots it is given with their times; yields the newest that is `delay_s` old.

    >>> d = DelayedSnapshots(delay_s=60)
    >>> d.push(0.0, "dealt"); d.push(30.0, "flop")
    >>> d.at(59.0), d.at(60.0), d.at(95.0)
    (None, 'dealt', 'flop')
    >>> d.next_release(70.0)
    90.0

    Thread-safe: the daemon pushes while the display reads.
    """

    def __init__(self, *, delay_s: float) -> None:
        if delay_s < 0:
            raise ValueError(f"delay_s must be zero or more seconds, not {delay_s}")
        self.delay_s = delay_s
        self._times: list[float] = []
        self._items: list[T] = []
        self._first_t: float | None = None
        self._lock = threading.Lock()

    def push(self, t: float, snapshot: T) -> None:
        """Add the snapshot of session time `t` (times must not go backwards)."""
        with self._lock:
            if self._times and t < self._times[-1]:
                raise ValueError(f"snapshot time {t} is before the previous one {self._times[-1]}")
            if self._first_t is None:
                self._first_t = t
            self._times.append(t)
            self._items.append(snapshot)

    def at(self, now: float) -> T | None:
        """The newest snapshot taken at or before `now - delay_s`; None if there is none yet."""
        with self._lock:
            index = bisect.bisect_right(self._times, now - self.delay_s) - 1
            if index < 0:
                return None
            if index > 0:  # older ones can never be shown again: drop them
                del self._times[:index]
                del self._items[:index]
            return self._items[0]

    def next_release(self, now: float) -> float | None:
        """Session time at which the next held snapshot becomes visible; None if none is held."""
        with self._lock:
            index = bisect.bisect_right(self._times, now - self.delay_s)
            if index >= len(self._times):
                return None
            return self._times[index] + self.delay_s

    def first_release(self) -> float | None:
        """Session time at which the first snapshot ever pushed becomes visible."""
        with self._lock:
            return None if self._first_t is None else self._first_t + self.delay_s

    def held(self, now: float) -> int:
        """How many snapshots are waiting for their delay to pass."""
        with self._lock:
            return len(self._times) - bisect.bisect_right(self._times, now - self.delay_s)

