"""Secrecy at the edges: the venue screen and the INFO log say that an extra card was dealt, not which (it
becomes the face-down burn); everything holding hole cards is 0600 in a 0700 directory, whatever was there."""

from __future__ import annotations

import logging
import os
import queue
import stat
import subprocess
import sys

from firmware_py.core import RulingKind
from firmware_py.core.engine import TableCore
from firmware_py.daemon.app import Daemon, Stop
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.table_config import load_table_config
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session
from tests.daemon.conftest import ROOT, environment

SESSION = ROOT / "tests" / "sessions" / "extra_and_premature_wfp.jsonl"  # seat 2 gets the Jd as an extra card


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_venue_view_shows_that_an_extra_card_was_dealt_not_which():
    from display.redact import hide_hole_cards  # noqa: PLC0415

    core = TableCore(load_profiles())
    for _line, event in read_session(SESSION):
        core.feed(event)
        if core.snapshot().unconfirmed:
            break
    ruling = core.snapshot().unconfirmed[0]
    assert ruling.ruling is RulingKind.EXTRA_CARD and ruling.card == "Jd"  # the record keeps it
    shown = hide_hole_cards(core.snapshot()).unconfirmed[0]
    assert shown.card is None and "Jd" not in shown.remedy
    assert shown.remedy == "One extra card: return the extra card to the deck; it is the burn card for the flop."
    assert all("Jd" not in r.remedy and r.card != "Jd" for r in hide_hole_cards(core.snapshot()).hand_rulings)


def test_the_info_log_names_the_extra_card_nowhere(tmp_path, caplog):
    config = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    journal = Journal.open(tmp_path / "j.sqlite3")
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(config, journal=journal, clock=lambda: 0.0, events=inbox)
    for _line, event in read_session(SESSION):
        inbox.put(event)
    inbox.put(Stop("test"))
    with caplog.at_level(logging.INFO):
        assert daemon.run() == 0
    journal.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "firmware_py.ruling"]
    extra = [line for line in lines if "EXTRA CARD" in line]
    assert extra and all("Jd" not in line for line in extra), extra
    assert any("PREMATURE CARD" in line and "Ad" in line for line in lines)  # exposed cards are still named


def test_an_existing_0644_journal_and_a_0755_state_directory_become_private(tmp_path):
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    os.chmod(state, 0o755)
    path = state / "journal.sqlite3"
    with Journal.open(path) as journal:
        journal.append([e for _n, e in read_session(SESSION)][:5])
    for suffix in ("", "-ack"):
        os.chmod(str(path) + suffix, 0o644)
    os.chmod(state, 0o755)
    with Journal.open(path) as journal:
        journal.append([])
        assert _mode(path) == 0o600
        assert _mode(str(path) + "-wal") == 0o600 and _mode(str(path) + "-ack") == 0o600
    assert _mode(state) == 0o700


def test_a_directory_holding_other_files_is_left_as_it_was(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    os.chmod(tmp_path, 0o755)
    with Journal.open(tmp_path / "journal.sqlite3"):
        pass
    assert _mode(tmp_path) == 0o755 and _mode(tmp_path / "journal.sqlite3") == 0o600


def test_a_broadcast_snapshot_is_written_0600_even_over_a_0644_file(tmp_path):
    out = tmp_path / "b.png"
    out.write_bytes(b"old")
    os.chmod(out, 0o644)
    result = subprocess.run([sys.executable, "-m", "firmware_py", "snapshot", str(ROOT / "tests" / "sessions" /
                             "clean_showdown.jsonl"), "--view", "broadcast", "--at", "42.5", "--out", str(out)],
                            cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert _mode(out) == 0o600 and out.read_bytes().startswith(b"\x89PNG")
