"""Presence: raw, repeating, sometimes missing tag sightings of one antenna become `read` and `gone` events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from firmware_py.core.events import SHOE, Gone, Read
from hardware.hardware_config import PresenceTiming


@dataclass(slots=True)
class _Sighting:
    first: float
    last: float
    reported: bool = False


class Presence:
    """The tags on one antenna, debounced: a flickering tag is one arrival, and one departure.

    A tag is reported (`Read`) once it has been seen over `debounce_s` with no gap longer than
    `debounce_s`; it is `Gone` once unseen for `removal_delay_s`. The shoe never reports `Gone`
    (a card leaves it for good); it only forgets the tag so a reshuffled card reads again.

    >>> p = Presence("board1", PresenceTiming(debounce_s=0.05, removal_delay_s=0.5))
    >>> p.update(["04AB"], 0.00), p.update(["04AB"], 0.03), p.update(["04AB"], 0.06)
    ([], [], [Read(t=0.06, antenna='board1', uid='04AB')])
    >>> p.update([], 0.30), p.update(["04AB"], 0.40), p.update([], 0.95)
    ([], [], [Gone(t=0.95, antenna='board1', uid='04AB')])
    """

    def __init__(self, antenna: str, timing: PresenceTiming, *, reports_gone: bool | None = None) -> None:
        self.antenna = antenna
        self.timing = timing
        self.reports_gone = antenna != SHOE if reports_gone is None else reports_gone
        self._tags: dict[str, _Sighting] = {}

    @property
    def present(self) -> tuple[str, ...]:
        """UIDs reported and not yet gone."""
        return tuple(uid for uid, s in self._tags.items() if s.reported)

    def update(self, uids: Iterable[str], now: float) -> list[Read | Gone]:
        """Feed one poll's sightings, taken at `now`; returns the events it decides."""
        events: list[Read | Gone] = []
        seen = set(uids)
        debounce, removal = self.timing.debounce_s, self.timing.removal_delay_s
        for uid in seen:
            sighting = self._tags.get(uid)
            if sighting is None or (not sighting.reported and now - sighting.last > debounce):
                sighting = self._tags[uid] = _Sighting(first=now, last=now)
            sighting.last = now
            if not sighting.reported and now - sighting.first >= debounce:
                sighting.reported = True
                events.append(Read(t=now, antenna=self.antenna, uid=uid))
        for uid in [u for u in self._tags if u not in seen]:
            sighting = self._tags[uid]
            if sighting.reported and now - sighting.last >= removal:
                del self._tags[uid]
                if self.reports_gone:
                    events.append(Gone(t=now, antenna=self.antenna, uid=uid))
            elif not sighting.reported and now - sighting.last > debounce:
                del self._tags[uid]  # an edge flicker that never became an arrival
        return events

    def assume(self, uids: Iterable[str], now: float) -> None:
        """Tags known to lie on the antenna already (reported before a restart): not reported again."""
        for uid in uids:
            self._tags[uid] = _Sighting(first=now, last=now, reported=True)

    def resume(self, now: float) -> None:
        """After a reader fault: what was present gets a fresh removal window instead of going at once."""
        for sighting in self._tags.values():
            sighting.last = max(sighting.last, now)
