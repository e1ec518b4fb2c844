"""Reader health records: posted to the daemon's queue beside the core events, never fed to the core."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class ReaderFault:
    """A reader stopped working; the table must say so (its antennas are blind until it recovers)."""

    t: float
    reader: str
    message: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ReaderRecovered:
    """A reader that had a fault works again."""

    t: float
    reader: str


ReaderHealth = ReaderFault | ReaderRecovered
