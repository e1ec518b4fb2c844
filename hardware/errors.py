"""Exceptions of the hardware layer; each also inherits the built-in it resembles."""

from __future__ import annotations

from firmware_py.errors import TableError


class HardwareError(TableError, OSError):
    """A sensor or panel that cannot be used as configured."""


class ReaderError(HardwareError):
    """A reader that failed a poll: not answering, or answering nonsense."""

    def __init__(self, reader: str, message: str) -> None:
        self.reader = reader
        self.reason = message
        super().__init__(f"reader {reader!r}: {message}")


class ReaderNotAnswering(ReaderError, TimeoutError):
    """A reader that no longer answers on its bus (unplugged, unpowered, or a broken wire)."""


class ProtocolError(TableError, ValueError):
    """A serial line that breaks the antenna board's line protocol; the message says how."""
