"""The project's exceptions, in one module (config, session, decks, hardware, the journal); each also inherits
the built-in it resembles, so callers can catch either."""

from __future__ import annotations


class TableError(Exception):
    """Base of every error this package raises on purpose."""


class SessionError(TableError, ValueError):
    """A session file line that cannot be read: names the file, the line number and what is wrong."""

    def __init__(self, message: str, *, source: str = "", line: int | None = None) -> None:
        self.source = source
        self.line = line
        self.reason = message
        where = source or "session"
        if line is not None:
            where += f", line {line}"
        super().__init__(f"{where}: {message}")


class DeckFileError(TableError, ValueError):
    """A deck registry file that cannot be used: names the file, the entry and the reason."""


class FormatError(TableError, ValueError):
    """Text that does not parse, or parses into something out of bounds; the message says where."""


class ConfigError(TableError, ValueError):
    """A configuration file that cannot be used: names the file, the key and a suggestion."""


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


class JournalError(TableError, OSError):
    """The journal cannot be read or written; the message names the file and the way out."""


class JournalCorrupt(JournalError):
    """A page of the journal is damaged: the daemon stops rather than resume from a partial session."""


class JournalLoss(JournalCorrupt):
    """Acknowledged events are missing or damaged: `missing` counts them, `first` is the first one."""

    def __init__(self, message: str, *, missing: int, first: int, intact: int) -> None:
        super().__init__(message)
        self.missing, self.first, self.intact = missing, first, intact


class JournalLocked(JournalError):
    """Another table (a process, or another open in this one) holds the journal: one journal, one writer."""


class JournalFull(JournalError):
    """The disk (or the journal's page limit) is full: the event was not recorded, nor acted on."""


class BrokerError(TableError, ConnectionError):
    """A room client cannot use the MQTT broker; the message names the broker and why."""


class BrokerRefused(BrokerError):
    """The broker cannot be used as configured (its certificate's name or CA, our user or password):
    retrying will not help, so the program stops and says what to change."""


class BrokerUnreachable(BrokerError):
    """Nothing answers at the broker's address (refused, unknown host, no route, no answer in time)."""
