"""The daemon: an adapter around the pure rules core (queue, journal, config, screen, sd_notify, faults)."""

from firmware_py.daemon.app import Daemon, SessionClock, Stop, iter_journal_events, journal_events, replay, state_digest
from firmware_py.daemon.fault_state import ComponentFault, FaultState
from firmware_py.daemon.journal import Journal, recover
from firmware_py.daemon.sdnotify import Notifier
from firmware_py.daemon.table_config import TableConfig, load_table_config
from firmware_py.errors import JournalCorrupt, JournalError, JournalFull, JournalLoss

__all__ = [
    "ComponentFault",
    "Daemon",
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
