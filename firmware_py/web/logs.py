"""Logs of the web pages: one line per problem, never a traceback, a secret or a request's query."""

from __future__ import annotations

import logging

SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


class OneLine(logging.Filter):
    """Drops a record's traceback, keeping its one-line message with the exception's type and words.

    uvicorn logs a broken connection or an app's exception with the whole stack; a page facing
    a hostile LAN must not let anyone fill the appliance's log with them.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info:
            exc = record.exc_info[1]
            if exc is not None:
                record.msg = f"{record.getMessage()} ({type(exc).__name__}: {exc})"
                record.args = ()
            record.exc_info = None
            record.exc_text = None
        record.stack_info = None
        return True


_ONE_LINE = OneLine()


def quiet_server_logs() -> None:
    """uvicorn's loggers: no access log, no traceback, and warnings only (its start-up lines, "Press
    CTRL+C to quit" among them, say less than the page's own "<name> on http://..." line, and
    nothing to a dealer under systemd); idempotent."""
    for name in SERVER_LOGGERS:
        log = logging.getLogger(name)
        if _ONE_LINE not in log.filters:
            log.addFilter(_ONE_LINE)
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    logging.getLogger("uvicorn.access").disabled = True
