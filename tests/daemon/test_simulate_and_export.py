"""`run --simulate --headless --hands 50` deals through the real drivers and prints rulings; its
journal exports to a session that replays to the same rulings and to PHH that pokerkit plays."""

from __future__ import annotations

import json
import re
import stat
import subprocess
import sys

import pytest
from pokerkit import ChipsPushing, HandHistory

from firmware_py.core import Cause, Gone, Level, Ruling, RulingKind, Stacks, Street
from firmware_py.daemon.app import journal_events
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.table_config import load_table_config
from firmware_py.profiles import load_profiles
from firmware_py.simulation.export_check import table_stacks, table_winners
from tests.daemon.conftest import ROOT, environment, run_daemon

RULING_LINE = re.compile(r"firmware_py\.ruling: +(.*) \[(reader|board|button) [^\]]+\]$")


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sim")
    journal = tmp / "journal.sqlite3"
    result = run_daemon("--simulate", "--headless", "--hands", "50", "--seed", "11", "--error-rate", "0.4",
                        "--journal", str(journal), timeout=120)
    return tmp, journal, result


def test_fifty_simulated_hands_complete_and_print_rulings_with_their_sensor(session):
    _tmp, journal, result = session
    assert result.returncode == 0, result.stderr
    rulings = [m for m in map(RULING_LINE.search, result.stdout.splitlines()) if m]
    kinds = {m.group(1).split()[1] for m in rulings}
    assert "SHOWDOWN" in kinds and len(kinds) >= 4, kinds  # the bot's errors drew rulings
    played = re.search(r"simulated table: (\d+) hands played(?: and (\d+) misdealt or void)?", result.stdout)
    assert played and int(played.group(1)) + int(played.group(2) or 0) == 50
    with Journal.open(journal) as j:
        events = journal_events(j, base_dir=ROOT / "config")
    assert any(isinstance(e, Gone) for e in events)  # the board reported cards leaving: real presence logic


def test_the_simulated_table_plays_the_configured_blind_levels(session):
    # config/table.toml counts no chips ([chips] is commented out), yet the simulated dealer bets: at the
    # levels of [display] blind_levels (25/50 first), which the header shows, not a level of its own.
    _tmp, journal, _result = session
    schedule = load_table_config(ROOT / "config" / "table.toml", with_display=False).schedule
    with Journal.open(journal) as j:
        levels = [e for e in journal_events(j, base_dir=ROOT / "config") if isinstance(e, Level)]
    assert (levels[0].small, levels[0].big, levels[0].ante) == (25, 50, 0)
    for level in levels:
        now = schedule.level_at(level.t).level
        assert (level.small, level.big, level.ante) == (now.small, now.big, now.ante), level
    assert len({(e.small, e.big) for e in levels}) >= 2  # 50 hands last past the first 20-minute level


def _public(obj: dict) -> str:
    ruling = Ruling(t=obj["t"], ruling=RulingKind(obj["ruling"]), rule=obj["rule"], remedy=obj["remedy"],
                    cause=Cause(obj["cause"]) if obj.get("cause") else None, card=obj.get("card"), seat=obj.get("seat"),
                    street=Street(obj["street"]) if obj.get("street") else None,
                    winners=tuple(obj["winners"]) if "winners" in obj else None, hand=obj.get("hand"))
    return ruling.public().explain()


def test_export_replays_to_the_same_rulings_and_loads_in_pokerkit(session):
    tmp, journal, result = session
    out = tmp / "export"
    exported = subprocess.run([sys.executable, "-m", "firmware_py", "export", "--journal", str(journal),
                               "--out", str(out)], cwd=ROOT, env=environment(), capture_output=True, text=True,
                              timeout=60, check=False)
    assert exported.returncode == 0, exported.stderr
    for name in ("session.jsonl", "hands.phhs"):
        assert stat.S_IMODE((out / name).stat().st_mode) == 0o600

    replayed = subprocess.run([sys.executable, "-m", "firmware_py", "replay", str(out / "session.jsonl")],
                              cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=60, check=False)
    assert replayed.returncode == 0, replayed.stderr
    live = [m.group(1).strip() for m in map(RULING_LINE.search, result.stdout.splitlines()) if m]
    # The live log names no face-down card (an extra card): compare with the replay's rulings told the same way.
    assert [_public(json.loads(line)).strip() for line in replayed.stdout.splitlines()] == live

    names = load_table_config(ROOT / "config" / "table.toml", with_display=False).seat_names
    assert names[1] == "Ada"
    with open(out / "hands.phhs", "rb") as handle:
        histories = list(HandHistory.load_all(handle))
    assert len(histories) >= 30
    with Journal.open(journal) as j:
        events = journal_events(j, base_dir=ROOT / "config")
    truth = table_winners(events, load_profiles())
    stacks = table_stacks(events, load_profiles())  # the simulated dealer keys amounts: the table counts chips
    for history in histories:
        states = list(history)  # pokerkit plays every action of the hand
        final = states[-1]
        assert not final.status  # the hand ran to its end
        paid = sorted({history.seats[i] for op in final.operations if isinstance(op, ChipsPushing)
                       for i, amount in enumerate(op.amounts) if amount > 0})
        assert set(truth[history.hand]) <= set(paid), history.hand  # the file pays whom the table ruled
        # ... and every pot and side pot as the table counted it: pokerkit ends with the table's stacks
        assert list(final.stacks) == [stacks[history.hand][seat] for seat in history.seats], history.hand
        assert len(history.user_defined_fields["_burns"]) <= 6
        assert history.user_defined_fields["_seats"] == history.seats
        # The players by the table file's [display.seat_names]; the table by its name, not this machine's path
        assert history.players == [names[seat] for seat in history.seats]
        assert history.table == "table"


def test_the_bots_top_ups_are_journaled_and_exported_as_rebuys(session):
    # Before issue 35 the bot topped up a short seat with a `stacks` line with no reason: shown nowhere,
    # exported as a starting stack like any other. Now a top-up is a rebuy: said on the venue screen (the
    # core's `corrected` notice), and in the PHH of the next hand the seat plays, apart from its stack.
    tmp, journal, _result = session
    with Journal.open(journal) as j:
        events = journal_events(j, base_dir=ROOT / "config")
    stacks = [e for e in events if isinstance(e, Stacks)]
    assert stacks[0].why is None  # the buy-ins: the session's first stacks
    rebuys = [e for e in stacks[1:] if e.why == "rebuy"]
    assert rebuys and all(e.why in ("rebuy", "correction") for e in stacks[1:])
    out = tmp / "export-rebuys"
    exported = subprocess.run([sys.executable, "-m", "firmware_py", "export", "--journal", str(journal),
                               "--out", str(out)], cwd=ROOT, env=environment(), capture_output=True, text=True,
                              timeout=60, check=False)
    assert exported.returncode == 0, exported.stderr
    with open(out / "hands.phhs", "rb") as handle:
        histories = list(HandHistory.load_all(handle))
    bought = [h for h in histories if "_rebuys" in h.user_defined_fields]
    assert bought, "no exported hand says its rebuys"
    for history in bought:
        added = history.user_defined_fields["_rebuys"]
        assert len(added) == len(history.seats) and any(added)
        for chips, start in zip(added, history.starting_stacks, strict=True):
            assert 0 <= chips <= start  # the chips bought are part of the starting stack
