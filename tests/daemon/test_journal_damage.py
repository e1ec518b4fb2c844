"""A damaged journal never loses events silently: it opens intact, or refuses naming what is missing,
and `recover` copies every intact event into a new journal. The full 150 cases: bench/journal_damage.py."""

from __future__ import annotations

import random
import stat
import subprocess
import sys

import pytest

from bench.journal_damage import KINDS, damage, make_journal, run_case
from firmware_py.daemon.journal import Journal, JournalLoss
from tests.daemon.conftest import ROOT, environment


def _killed(tmp_path, events=300, seed=1):
    return make_journal(tmp_path, random.Random(seed), events)


@pytest.mark.parametrize("kind", ["flip_wal", "truncate_wal", "delete_wal", "empty_wal"])
def test_damage_to_the_wal_refuses_with_the_count_of_missing_events(tmp_path, kind):
    path, lines = _killed(tmp_path)
    damage(path, kind, random.Random(5))
    with pytest.raises(JournalLoss, match=r"acknowledged events are missing") as caught:
        Journal.open(path)
    assert 0 < caught.value.missing <= len(lines)
    assert f"of {len(lines)} acknowledged events" in str(caught.value)
    assert "recover" in str(caught.value)


def test_an_empty_main_file_with_acknowledged_events_is_not_a_new_session(tmp_path):
    path, lines = _killed(tmp_path)
    path.write_bytes(b"")
    (tmp_path / "killed.sqlite3-wal").unlink()
    with pytest.raises(JournalLoss) as caught:
        Journal.open(path)
    assert caught.value.missing == len(lines)


def test_a_truncated_wal_is_never_called_intact(tmp_path, caplog):
    path, _lines = _killed(tmp_path)
    wal = tmp_path / "killed.sqlite3-wal"
    wal.write_bytes(wal.read_bytes()[: wal.stat().st_size // 2 + 7])
    with pytest.raises(JournalLoss):
        Journal.open(path)
    assert "every acknowledged event is intact" not in caplog.text


def test_a_refused_journal_is_left_unchanged(tmp_path):
    path, _lines = _killed(tmp_path)
    damage(path, "flip_wal", random.Random(5))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("killed") and "shm" not in p.name
              and not p.name.endswith("-lock")}
    with pytest.raises(JournalLoss):
        Journal.open(path)
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("killed") and "shm" not in p.name
              and not p.name.endswith("-lock")}
    assert after == before


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "firmware_py", *args], cwd=ROOT, env=environment(),
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_daemon_refuses_to_resume_over_lost_events_and_recover_salvages_the_rest(tmp_path):
    path, lines = _killed(tmp_path)
    damage(path, "flip_wal", random.Random(5))
    run = _cli("run", "--headless", "--journal", str(path), "--hands", "1")
    assert run.returncode == 3
    assert "acknowledged events are missing or damaged" in run.stderr and "recover" in run.stderr
    new = tmp_path / "new.sqlite3"
    recovered = _cli("recover", str(path), "--out", str(new))
    assert recovered.returncode == 1, recovered.stderr
    with Journal.open(new) as journal:
        kept = [row.line for row in journal.rows()]
    assert 0 < len(kept) < len(lines) and kept == lines[: len(kept)]
    assert f"{len(kept)} of {len(lines)} events recovered" in recovered.stdout
    assert f"lost: {len(lines) - len(kept)} events (#{len(kept) + 1}," in recovered.stderr
    assert stat.S_IMODE(new.stat().st_mode) == 0o600
    exported = _cli("export", "--journal", str(new), "--out", str(tmp_path / "out"))
    assert exported.returncode == 0, exported.stderr
    assert f"{len(kept)} events" in exported.stdout


def test_an_intact_journal_after_a_kill_opens_with_every_event(tmp_path):
    path, lines = _killed(tmp_path)
    with Journal.open(path) as journal:
        assert [row.line for row in journal.rows()] == lines
        journal.append([])
        assert journal.last_seq == len(lines)


@pytest.mark.parametrize("index", range(2 * len(KINDS)))
def test_damaged_journals_are_intact_or_refused_with_a_count(tmp_path, index):
    outcome = run_case(index, tmp_path, seed=7)
    assert outcome.verdict in ("intact", "refused"), outcome


def test_a_journal_of_the_first_schema_opens_and_gains_the_chain_and_the_ack_record(tmp_path):
    import sqlite3  # noqa: PLC0415
    import zlib  # noqa: PLC0415

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, line TEXT NOT NULL, crc INTEGER NOT NULL)")
    lines = [f'{{"t": {i}.0, "kind": "button", "name": "check"}}' for i in range(1, 6)]
    db.executemany("INSERT INTO events (line, crc) VALUES (?, ?)",
                   [(line, zlib.crc32(line.encode())) for line in lines])
    db.commit()
    db.close()
    with Journal.open(path) as journal:
        assert [row.line for row in journal.rows()] == lines
        assert journal.append([]) == [] and journal.last_seq == 5
    assert (tmp_path / "old.sqlite3-ack").read_text().startswith("pokertable-ack 1 seq=5 ")
    (tmp_path / "old.sqlite3-wal").unlink(missing_ok=True)
    with Journal.open(path) as journal:
        assert journal.count() == 5


def _export(path, out):
    return subprocess.run([sys.executable, "-m", "firmware_py", "export", "--journal", str(path), "--out", str(out)],
                          cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=120, check=False)


def test_a_journal_copied_without_its_wal_and_ack_is_refused_not_exported_short(tmp_path):
    path, _lines = _killed(tmp_path)
    alone = tmp_path / "copy"
    alone.mkdir()
    (alone / path.name).write_bytes(path.read_bytes())  # the main file only: part of it is in the WAL
    result = _export(alone / path.name, tmp_path / "out")
    assert result.returncode == 3, result.stdout + result.stderr
    assert "killed.sqlite3-ack is missing" in result.stderr and "recover" in result.stderr
    assert not (tmp_path / "out").exists()
    with pytest.raises(JournalLoss, match="acknowledgement record"):
        Journal.open(alone / path.name)
    assert sorted(p.name for p in alone.iterdir()) == [path.name]  # no -ack made up for it, no -wal, no -shm


def test_exporting_a_damaged_journal_changes_no_file_and_creates_none(tmp_path):
    path, _lines = _killed(tmp_path)
    (tmp_path / "killed.sqlite3-wal").unlink()  # the WAL lost: acknowledged events missing
    before = {p.name: (p.read_bytes(), p.stat().st_mode) for p in tmp_path.iterdir() if p.name.startswith("killed")}
    result = _export(path, tmp_path / "out")
    assert result.returncode == 3 and "acknowledged events are missing" in result.stderr
    after = {p.name: (p.read_bytes(), p.stat().st_mode) for p in tmp_path.iterdir() if p.name.startswith("killed")}
    assert after == before  # in particular no empty killed.sqlite3-wal or -shm


def test_a_journal_closed_cleanly_still_opens_alone_with_its_ack(tmp_path):
    path = tmp_path / "clean.sqlite3"
    with Journal.open(path) as journal:
        journal.append_lines(['{"t": 1.0, "kind": "button", "name": "new_hand"}'])
    assert not (tmp_path / "clean.sqlite3-wal").exists()
    with Journal.open(path) as journal:
        assert journal.last_seq == 1
