"""The floor's replay of any hand of any table (issue 38, item 3), through the room as a card room runs it:
two simulated tables (the dealer bot on the emulated readers, panel and keypad, errors and all) publishing to
a real Mosquitto, the `collect` command storing into a real PostgreSQL and serving the replay page
(`--listen`), and Debian's chromium paired with the code it printed. Every hand the page offers is held
against the table's own journal: each event by its seq, each card the tag's and its antenna, each press
with who made it, each ruling of the hand (its seq and number) with its cite.

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/room/test_floor_replay.py` writes
docs/img/replay-floor-1280x800.png."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_py.hand_replay import reader_of
from tests.browser import browser, open_paired, page  # noqa: F401  (the fixtures)
from tests.room.conftest import ROOT, table_file
from tests.room.services import Mosquitto, Postgres, wait_subscribed
from tests.room.test_publisher import environment, journal_truth, simulate

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect
DECK = json.loads((ROOT / "config" / "decks" / "test-red.json").read_text())["cards"]
OTHER = json.loads((ROOT / "config" / "decks" / "test-blue.json").read_text())["cards"]


class Floor:
    """`collect --listen`: the archive and the floor's replay page; its URL and code as it printed them."""

    def __init__(self, broker: Mosquitto, db: str, log: Path) -> None:
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware_py", "collect", "--room", "main", "--broker",
             f"127.0.0.1:{broker.port}", "--db", db, "--listen", "127.0.0.1:0", "--hole-cards", "all"],
            cwd=ROOT, env=environment(), stdout=log.open("w"), stderr=subprocess.PIPE, text=True)
        wait_subscribed(self.process, log)
        said = re.search(r"replay is on (http://\S+)/replay .* the code (\d{3} \d{3})", log.read_text())
        assert said, log.read_text()
        self.url, self.code = said.group(1), said.group(2).replace(" ", "")

    def stop(self) -> str:
        self.process.send_signal(signal.SIGTERM)
        _out, err = self.process.communicate(timeout=30)
        assert self.process.returncode == 0, err
        return err


@pytest.fixture
def floor(tmp_path: Path, broker: Mosquitto, postgres_server: Postgres) -> Iterator[Floor]:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(postgres_server.url, autocommit=True) as db:
        for table in ("rulings", "hands"):
            db.execute(f"DROP TABLE IF EXISTS {table}")  # made again by this collector, with the replay column
    running = Floor(broker, postgres_server.url, tmp_path / "collect.out")
    yield running
    running.stop()


def journal_lines(path: Path) -> dict[int, dict[str, Any]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return {seq: json.loads(line) for seq, line in db.execute("SELECT seq, line FROM events")}


def api(page: Any, path: str) -> Any:  # noqa: F811
    return page.evaluate("async path => (await fetch(path)).json()", path)


def check_against_journal(replay: dict[str, Any], lines: dict[int, dict[str, Any]],
                          rulings: set[tuple[int, int]]) -> int:
    """Every row of the hand against the journal; the number of presses whose source the line names."""
    entries = [e for street in replay["streets"] for e in street["entries"]]
    events = [e for e in entries if e["kind"] != "ruling"]
    first, last = replay["first_seq"], replay["last_seq"]
    ruled = {(e["seq"], e["n"]) for e in entries if e["kind"] == "ruling"}
    assert [e["seq"] for e in events] == [seq for seq in range(first, last + 1) if lines[seq]["kind"] != "tick"
                                          or any(s == seq for s, _n in ruled)]
    assert ruled == {(seq, n) for seq, n in rulings if first <= seq <= last}
    sourced = 0
    for entry in events:
        line = lines[entry["seq"]]
        assert json.loads(entry["line"]) == line  # the journal's own line
        if line["kind"] == "read":
            assert entry["card"] == DECK.get(line["uid"], OTHER.get(line["uid"])), (entry, line)
            assert entry["reader"] == reader_of(line["antenna"])
        elif line["kind"] == "button":
            assert entry["press"] == line["name"] and entry.get("by") == line.get("by")
            sourced += "by" in line
    for entry in entries:
        if entry["kind"] == "ruling":
            assert re.match(r"^[a-z-]+: \S", entry["rule"]) and entry["remedy"]
    return sourced


def test_the_floor_replays_any_hand_of_any_table_as_its_journal_holds_it(
        tmp_path: Path, broker: Mosquitto, floor: Floor, page: Any) -> None:  # noqa: F811
    journals = {}
    for table, seed in (("t01", 3), ("t02", 11)):
        journals[table] = tmp_path / f"{table}.sqlite3"
        simulate(table_file(tmp_path, table=table, port=broker.port), journals[table], hands=4, seed=seed)
    open_paired(page, floor.url + "/replay", floor.code)
    deadline = time.monotonic() + 60
    while True:
        listed = api(page, "/replay/hands")["hands"]
        if sum(1 for h in listed if h["table"] in journals) >= 8 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    by_table = {table: [h for h in listed if h["table"] == table] for table in journals}
    assert all(len(hands) >= 4 for hands in by_table.values()), listed  # played hands, and misdeals' deals
    sourced = 0
    for table, path in journals.items():
        lines = journal_lines(path)
        rulings, _state = journal_truth(path)
        for hand in by_table[table]:
            body = api(page, "/replay/hand?key=" + hand["key"])
            assert body["table"] == table and body["replay"]["finished"]
            sourced += check_against_journal(body["replay"], lines, rulings)
    assert sourced > 0  # the simulated dealer's presses: the emulated panel's and keypad's, so journaled
    # One hand with a ruling, in the page as the floor sees it.
    ruled = max((h for hands in by_table.values() for h in hands), key=lambda h: h["rulings"])  # the most disputed
    assert ruled["rulings"] > 1  # a rulebook error and its ruling, beside the showdown's
    page.goto(floor.url + "/replay?key=" + ruled["key"])
    expect(page.locator("#htitle")).to_have_text(f"Table {ruled['table']} · Hand {ruled['hand']}")
    expect(page.locator("#streets tr.ev-ruling")).to_have_count(ruled["rulings"])
    expect(page.locator("#streets tr.ev-ruling .rule").first).to_have_text(re.compile(r"^robert: "))
    expect(page.locator("#streets tr.ev-press td.who").first).to_have_text(
        re.compile(r"^by (panel|keypad|: not recorded)$"))
    folder = os.environ.get("POKERTABLE_SCREENSHOTS")
    if folder:
        page.locator("#streets tr.ev-ruling").first.evaluate("row => row.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(Path(folder) / "replay-floor-1280x800.png"))
    # The longest hand of the room prints on one page for the dispute file.
    longest = max((h for hands in by_table.values() for h in hands),
                  key=lambda h: len([e for s in api(page, "/replay/hand?key=" + h["key"])["replay"]["streets"]
                                     for e in s["entries"]]))
    page.goto(floor.url + "/replay?key=" + longest["key"])
    expect(page.locator("#htitle")).to_have_text(f"Table {longest['table']} · Hand {longest['hand']}")
    rows = page.locator("#streets tr").count()
    page.emulate_media(media="print")
    assert len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4"))) == 1, rows
    page.emulate_media(media="screen")
    # Unpaired, nothing: the page asks for a code, its data answers 401.
    fresh = page.context.browser.new_context()
    try:
        other = fresh.new_page()
        assert other.goto(floor.url + "/replay/hands").status == 401
        assert other.goto(floor.url + "/replay").status == 401
    finally:
        fresh.close()


@pytest.mark.parametrize("listen", ["floor", "127.0.0.1:99999", "127.0.0.1:"])
def test_a_bad_listen_address_for_the_floors_replay_is_named(tmp_path: Path, listen: str) -> None:
    result = subprocess.run([sys.executable, "-m", "firmware_py", "collect", "--room", "main", "--db",
                             str(tmp_path / "room.sqlite3"), "--listen", listen], cwd=ROOT, env=environment(),
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2, result.stderr
    assert f"collect: --listen {listen!r}: HOST:PORT" in result.stderr and "Traceback" not in result.stderr


def test_the_floors_replay_reads_a_sqlite_archive_and_lists_by_table(tmp_path: Path) -> None:
    """The collector's SQLite default (a room without PostgreSQL): the page's source reads it on its own
    read-only connection while the collector holds it; a hand message without a replay is not listed."""
    import msgspec  # noqa: PLC0415

    from firmware_py.hand_replay import HoleCards  # noqa: PLC0415
    from firmware_py.room.collector import Collector, open_store  # noqa: PLC0415
    from firmware_py.room.replay_archive import ArchiveReplays  # noqa: PLC0415
    from tests.test_hand_replay import SESSIONS, book  # noqa: PLC0415

    hand = book(SESSIONS / "clean_showdown.jsonl").hands[0]
    store = open_store(str(tmp_path / "room.sqlite3"))
    collector = Collector(store)
    collector.start()
    for idx, (table, replay) in enumerate([("t01", hand), ("t02", hand), ("t03", None)], start=1):
        body = {"v": 1, "room": "main", "table": table, "session": "s1", "seq": hand.last_seq, "idx": idx,
                "hand": 1, "t": hand.t, "dealer": "Dana", "played": True, "rulings": ["showdown"], "phh": None,
                "phh_problem": None, **({"replay": msgspec.to_builtins(replay)} if replay else {})}
        collector.offer(f"pokertable/main/{table}/hand", msgspec.json.encode(body))
    collector.stop()
    source = ArchiveReplays(str(tmp_path / "room.sqlite3"), hole_cards=HoleCards.NONE)
    try:
        assert sorted(h["table"] for h in source.listing()) == ["t01", "t02"]
        assert [h["key"] for h in source.listing("t02")] == [f"main/t02/s1/{hand.last_seq}"]
        found = source.replay(f"main/t02/s1/{hand.last_seq}")
        assert found is not None and found[0] == hand and found[1]["table"] == "t02"
        assert source.replay("main/t03/s1/1") is None and source.replay("nonsense") is None
    finally:
        source.close()
        store.close()
