"""Logging for the appliance: one line per record to stdout (systemd puts it in its journal)."""

from __future__ import annotations

import logging
import os
import sys

# Under systemd the time stamp and unit come from journald; at a terminal they help.
TERMINAL_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
SYSLOG_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class _SyslogPriority(logging.Filter):
    """Map Python levels to the `<N>` prefixes journald reads as priorities (SyslogLevelPrefix=)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno_syslog = SYSLOG_PRIORITY.get(record.levelno, 6)
        return True


def setup_logging(*, verbose: bool = False, stream: object = None) -> None:
    under_systemd = bool(os.environ.get("JOURNAL_STREAM") or os.environ.get("INVOCATION_ID"))
    handler = logging.StreamHandler(stream or sys.stdout)  # type: ignore[arg-type]
    if under_systemd:
        handler.addFilter(_SyslogPriority())
        handler.setFormatter(logging.Formatter("<%(levelno_syslog)s>%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter(TERMINAL_FORMAT, datefmt="%H:%M:%S"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
