"""The journal: durable before acted on; torn writes, corrupt pages and a full disk reported, never lost."""

from __future__ import annotations

import queue
import shutil
import stat

import pytest

from firmware_py.core import Button, ButtonName, Read
from firmware_py.daemon.app import Daemon, Stop
from firmware_py.daemon.journal import Journal, JournalCorrupt, JournalFull, line_of
from firmware_py.daemon.table_config import load_table_config
from tests.daemon.conftest import ROOT


def _presses(n: int, start: float = 1.0) -> list[Button]:
    return [Button(t=start + i, name=ButtonName.CHECK) for i in range(n)]


def test_events_come_back_in_order_with_their_lines(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        events = [Button(t=1.0, name=ButtonName.NEW_HAND), Read(t=2.0, antenna="shoe", uid="04FD5DB0E8DF1D")]
        assert journal.append(events) == [1, 2]
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        assert [row.line for row in journal.rows()] == [line_of(e) for e in events]
    assert stat.S_IMODE((tmp_path / "j.sqlite3").stat().st_mode) == 0o600


def test_journal_is_wal_with_full_sync(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_torn_last_write_is_reported_and_every_committed_event_survives(tmp_path, caplog):
    live = tmp_path / "live.sqlite3"
    journal = Journal.open(live)
    journal.append(_presses(20))
    # Power is cut while the process runs: copy the files as they are on disk, then tear the WAL's tail.
    crashed = tmp_path / "crashed.sqlite3"
    shutil.copy(live, crashed)
    shutil.copy(str(live) + "-wal", str(crashed) + "-wal")
    shutil.copy(str(live) + "-ack", str(crashed) + "-ack")  # a power cut leaves every file of the journal
    journal.close()
    with open(str(crashed) + "-wal", "ab") as wal:
        wal.write(b"\x00\x01partial frame")
    with Journal.open(crashed) as reopened:
        assert reopened.torn_bytes == len(b"\x00\x01partial frame")
        assert reopened.count() == 20
    assert "torn" in caplog.text


def test_a_corrupt_page_stops_with_the_file_named(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        for chunk in range(20):
            journal.append(_presses(50, start=chunk * 100.0))
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page: 3 * page + 200] = b"\xff" * 200
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match=str(path)), Journal.open(path) as journal:
        list(journal.rows())
    assert path.exists()  # kept for recovery


def test_a_full_disk_refuses_the_event_and_keeps_the_earlier_ones(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        journal.append(_presses(5))
        pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    with Journal.open(path, max_pages=pages) as journal:
        with pytest.raises(JournalFull, match="disk is full"):
            for chunk in range(200):
                journal.append([Button(t=100.0 + chunk, name=ButtonName.CHECK)] * 20)
        kept = journal.count()
    with Journal.open(path) as journal:
        assert journal.count() == kept >= 5


def test_the_daemon_does_not_feed_the_core_what_it_could_not_journal(tmp_path):
    config = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        journal.append([config.setup()])
        pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal = Journal.open(path, max_pages=pages)
    events: queue.Queue[object] = queue.Queue()
    daemon = Daemon(config, journal=journal, clock=lambda: 0.0, events=events)
    for i in range(400):
        events.put(Button(t=1.0 + i, name=ButtonName.NEW_HAND if i == 0 else ButtonName.CHECK))
    events.put(Stop("test"))
    assert daemon.run() == 0
    assert daemon.faults.has("journal") and "disk is full" in daemon.faults.current()[0].message
    assert not daemon.healthy()  # the watchdog stops: systemd sees it
    assert daemon.events_fed == 1  # only the journaled setup reached the core
    journal.close()
