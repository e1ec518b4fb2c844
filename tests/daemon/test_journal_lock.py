"""One journal, one writer: a journal is locked by the table that writes it (a second writer, in this process
or another, is refused with the holder's pid, table id and since when), a journal is one table's, a room
table's default journal is in its own folder, and docs/room.md's second table, followed literally, keeps
its own journal."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_py.core import Button, ButtonName
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.table_config import load_table_config
from firmware_py.errors import JournalLocked

ROOT = Path(__file__).resolve().parents[2]


def test_a_second_open_of_a_journal_is_refused_naming_the_holder(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, table="t01") as journal:
        journal.append([Button(t=1.0, name=ButtonName.NEW_HAND)])
        with pytest.raises(JournalLocked) as refused:
            Journal.open(path, table="t02")
        message = str(refused.value)
        assert str(path) in message and f"process {os.getpid()} (table t01) since 20" in message
        assert "--journal FILE" in message
        assert Journal.read_only(path).count() == 1  # an export reads it while the table runs
    with Journal.open(path, table="t01") as journal:  # closed: free again
        assert journal.last_seq == 1


def test_another_process_is_refused_while_the_table_holds_its_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, table="t01"):
        second = subprocess.run(
            [sys.executable, "-c", "import sys; from firmware_py.daemon.journal import Journal\n"
             "try:\n    Journal.open(sys.argv[1], table='t01')\nexcept Exception as exc:\n    print(exc); sys.exit(3)",
             str(path)], capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert second.returncode == 3, second.stderr
    assert f"in use by process {os.getpid()} (table t01) since" in second.stdout
    # The holder gone (its process ended, however it ended): the next table takes the journal.
    holder = ("import sys, time; from firmware_py.daemon.journal import Journal\n"
              "Journal.open(sys.argv[1], table='t01'); print('held', flush=True); time.sleep(60)")
    killed = subprocess.Popen([sys.executable, "-c", holder, str(path)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert killed.stdout is not None and killed.stdout.readline().strip() == "held"
        with pytest.raises(JournalLocked, match=f"process {killed.pid} "):
            Journal.open(path, table="t01")
    finally:
        killed.kill()
        killed.wait()
    Journal.open(path, table="t01").close()


def test_a_journal_another_table_wrote_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal.open(path, table="t01").close()
    with pytest.raises(JournalLocked, match="this journal is table t01's, not table t02's"):
        Journal.open(path, table="t02")
    Journal.open(path, table="t01").close()


def test_a_room_table_keeps_its_journal_in_a_folder_of_its_own() -> None:
    plain = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    room = load_table_config(ROOT / "config" / "table-room.toml", with_display=False)
    assert plain.journal_path == Path("state") / "journal.sqlite3"
    assert room.journal_path == Path("state") / "t01" / "journal.sqlite3"


def _doc_block(name: str) -> str:
    found = re.search(rf"<!-- {name} -->\s*```sh\n(.*?)```", (ROOT / "docs" / "room.md").read_text(), re.S)
    assert found, f"docs/room.md has no block {name!r}"
    return found.group(1)


def test_docs_second_table_followed_literally_keeps_its_own_journal(tmp_path: Path) -> None:
    """The one-machine table and the second table, started from docs/room.md's own lines in a copy of the
    config folder, each resume their own journal: t02 never opens t01's; the same table started twice is
    refused naming the first."""
    shutil.copytree(ROOT / "config", tmp_path / "config")
    closed = tmp_path / "config" / "table-room.toml"  # no broker here: a port nothing listens on, the table deals on
    closed.write_text(closed.read_text().replace('broker = "localhost"', 'broker = "127.0.0.1"\nport = 9'))
    first = next(line for line in _doc_block("one machine").splitlines() if " run --simulate" in line)
    script = "\n".join([first, *_doc_block("second table").splitlines()])
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER",
                                                             "STATE_DIRECTORY")}
    env["PYTHONPATH"] = str(ROOT)
    started = time.monotonic()
    done = subprocess.run(["bash", "-ec", script + "\nwait"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=240, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert time.monotonic() - started < 240
    t01 = tmp_path / "state" / "t01" / "simulated-table.sqlite3"
    t02 = tmp_path / "state" / "t02" / "simulated-table.sqlite3"
    with Journal.read_only(t01) as one, Journal.read_only(t02) as two:
        assert one.meta("table") == "t01" and two.meta("table") == "t02"
        assert one.count() > 100 and two.count() > 100
    assert f"journal {t02.relative_to(tmp_path)}" in done.stdout
    # The same table twice: the second is refused, naming the first.
    with Journal.open(t02, table="t02"):
        again = subprocess.run([sys.executable, "-m", "firmware_py", "run", "--simulate", "--config",
                                "config/table-room-t02.toml"], cwd=tmp_path, env=env, capture_output=True,
                               text=True, timeout=60, check=False)
    assert again.returncode == 3
    assert f"in use by process {os.getpid()} (table t02) since" in again.stderr
