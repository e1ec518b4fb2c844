"""The daemon: an adapter around the pure rules core (queue, journal, config, screen, sd_notify, faults)."""

from firmware_py.daemon.app import Daemon, SessionClock, Stop, iter_journal_events, journal_events, replay, state_digest
from firmware_py.daemon.config import TableConfig, load_table_config
from firmware_py.daemon.faults import Fault, FaultState
from firmware_py.daemon.journal import Journal, JournalCorrupt, JournalError, JournalFull, JournalLoss, recover
from firmware_py.daemon.sdnotify import Notifier

__all__ = [
    "Daemon",
    "Fault",
    "FaultState",
    "Journal",
    "JournalCorrupt",
    "JournalError",
    "JournalFull",
    "JournalLoss",
    "Notifier",
    "SessionClock",
    "Stop",
    "TableConfig",
    "iter_journal_events",
    "journal_events",
    "load_table_config",
    "recover",
    "replay",
    "state_digest",
]
