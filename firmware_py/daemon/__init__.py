"""The daemon: an adapter around the pure rules core (queue, journal, config, screen, sd_notify, faults)."""

from firmware_py.daemon.app import Daemon, SessionClock, Stop, journal_events, replay, state_digest
from firmware_py.daemon.config import TableConfig, load_table_config
from firmware_py.daemon.faults import Fault, FaultState
from firmware_py.daemon.journal import Journal, JournalCorrupt, JournalError, JournalFull
from firmware_py.daemon.sdnotify import Notifier

__all__ = [
    "Daemon",
    "Fault",
    "FaultState",
    "Journal",
    "JournalCorrupt",
    "JournalError",
    "JournalFull",
    "Notifier",
    "SessionClock",
    "Stop",
    "TableConfig",
    "journal_events",
    "load_table_config",
    "replay",
    "state_digest",
]
