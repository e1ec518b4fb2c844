"""The project's exceptions; each also inherits the built-in it resembles, so callers can catch either."""

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


class ConfigError(TableError, ValueError):
    """A configuration file that cannot be used: names the file, the key and a suggestion."""
