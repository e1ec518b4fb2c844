"""`run --game` chooses the game as the table file's `[table] game` does (checked the same way), and
`export` writes a session that names no path of this machine: its decks beside it, so it replays in any
folder it is copied to (issue 35)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from firmware_py.daemon.journal import Journal
from tests.daemon.conftest import ROOT, environment, run_daemon


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_py", *args], cwd=cwd, env=environment(),
                          capture_output=True, text=True, timeout=120, check=False)


def test_run_game_deals_the_game_chosen_as_the_table_file_would(tmp_path: Path) -> None:
    journal = tmp_path / "omaha.sqlite3"
    result = run_daemon("--simulate", "--headless", "--hands", "3", "--game", "omaha", "--journal", str(journal),
                        timeout=120)
    assert result.returncode == 0, result.stderr
    with Journal.read_only(journal) as read:
        setup = json.loads(next(row.line for row in read.rows() if '"setup"' in row.line))
    assert setup["game"] == "omaha"


def test_run_game_refuses_a_game_there_is_not_naming_the_games(tmp_path: Path) -> None:
    result = run_daemon("--simulate", "--headless", "--game", "omha", "--journal", str(tmp_path / "j.sqlite3"))
    assert result.returncode == 2
    assert "--game: unknown game 'omha'" in result.stderr and "did you mean 'omaha'" in result.stderr
    assert "holdem" in result.stderr and not (tmp_path / "j.sqlite3").exists()


def test_an_exported_session_names_no_path_of_this_machine_and_replays_elsewhere(tmp_path: Path) -> None:
    journal = tmp_path / "state" / "simulated.sqlite3"
    played = run_daemon("--simulate", "--headless", "--hands", "4", "--seed", "3", "--journal", str(journal),
                        timeout=120)
    assert played.returncode == 0, played.stderr
    out = tmp_path / "out"
    exported = _cli("export", "--journal", str(journal), "--out", str(out), cwd=ROOT)
    assert exported.returncode == 0, exported.stderr
    text = (out / "session.jsonl").read_text()
    assert str(ROOT) not in text and str(tmp_path) not in text  # no absolute path of this machine
    setup = json.loads(text.splitlines()[0])
    assert setup["decks"] == ["decks/test-red.json", "decks/test-blue.json"]
    here = _cli("replay", str(out / "session.jsonl"), cwd=ROOT)
    elsewhere = tmp_path / "another" / "machine"
    shutil.copytree(out, elsewhere)
    shutil.rmtree(out)  # nothing of the first folder left to lean on
    there = _cli("replay", "session.jsonl", cwd=elsewhere)
    assert there.returncode == 0, there.stderr
    assert there.stdout == here.stdout and here.stdout.count('"ruling"') >= 4
