"""The replay of a hand on the action tracker, in a real browser (Debian's chromium through Playwright),
against a real daemon: a hand played with presses from the dealer's panel, the tracker and the keypad,
then a hand in play. The page's rows are held against the journal itself (each card the tag's, read by
its antenna; each press with who made it; each ruling with its cite), a hand in play shows no hole card,
and the page prints as one page for a dispute file.

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/web/test_replay_browser.py` writes
docs/img/replay-1280x800.png and the printed page, docs/img/replay-print-a4.png."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_py.core import Button, ButtonName
from firmware_py.daemon.app import Awaited
from firmware_py.daemon.origins import KEYPAD, PANEL
from firmware_py.hand_replay import reader_of
from tests.browser import browser, open_paired, page  # noqa: F401  (the fixtures)
from tests.tracker_table import ROOT, TrackerTable

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect

# Deal order: seats 2, 3, 4, 1, twice. Seat 1 wins with the aces; seats 3 and 4 fold, seat 2 shows down.
CARDS = ["7c", "Ks", "5d", "As", "2d", "Kd", "6d", "Ad",
         "Qc", "9h", "8s", "4c",  # burn, flop
         "Qd", "Jd",  # burn, turn
         "Qh", "3h"]  # burn, river


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TrackerTable]:
    running = TrackerTable(tmp_path).start()
    yield running
    running.stop()


def pressed(table: TrackerTable, name: str, by: str, **extra: Any) -> None:
    """A press from the panel or the keypad: their queue, as the real parts post to it (daemon.presses)."""
    awaited = Awaited(Button(t=table._clock(), name=ButtonName(name), **extra))
    table._last = awaited
    table.daemon.presses(by).put(awaited)
    table.settle()


def tracked(table: TrackerTable, cookie: str, name: str, **extra: Any) -> int:
    """A press on the tracker's page (its HTTP, with the session cookie): the hand and count it was made against."""
    snapshot = table.settle()
    status, _body, _ = table.request("/press", {"name": name, "hand": snapshot.hand_number, "count": snapshot.actions,
                                                **extra}, cookie=cookie)
    table.wait(lambda: (table.tracker.snapshot is not None and table.tracker.snapshot.actions != snapshot.actions)
               or status != 200)
    return status


def play(table: TrackerTable) -> None:
    table.arrange(CARDS)
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    cookie = table.pair()
    table.new_hand()
    pressed(table, "call", PANEL)  # seat 4
    assert tracked(table, cookie, "call") == 200  # seat 1
    pressed(table, "call", KEYPAD)  # seat 2
    pressed(table, "check", PANEL)  # seat 3
    table.street(3, 1)
    pressed(table, "bet", KEYPAD, amount=100)  # seat 2
    assert tracked(table, cookie, "check") == 409  # seat 3 may not check facing a bet: refused, and journaled
    assert tracked(table, cookie, "fold") == 200  # seat 3
    pressed(table, "fold", PANEL)  # seat 4
    pressed(table, "call", PANEL)  # seat 1
    table.street(1, 4)
    pressed(table, "check", PANEL)
    pressed(table, "check", PANEL)
    table.street(1, 5)
    pressed(table, "check", PANEL)
    pressed(table, "check", PANEL)
    snapshot = table.settle()
    assert snapshot.showdown is not None and snapshot.showdown.winners == (1,)
    pressed(table, "hand_end", PANEL)
    table.new_hand()  # the next hand, in play: dealt, no action yet


def journal_rows(table: TrackerTable) -> list[tuple[int, str]]:
    with sqlite3.connect(f"file:{table.journal.path}?mode=ro", uri=True) as db:
        return db.execute("SELECT seq, line FROM events ORDER BY seq").fetchall()


def page_rows(page: Any) -> list[dict[str, str]]:  # noqa: F811
    return page.eval_on_selector_all("#streets tr", """rows => rows.map(r => ({seq: r.dataset.seq, kind: r.dataset.kind,
        what: r.querySelector('td.what').textContent, who: r.querySelector('td.who').textContent}))""")


def shot(page: Any, name: str, *, full_page: bool = False) -> None:  # noqa: F811
    folder = os.environ.get("POKERTABLE_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=full_page)


def test_the_replay_states_each_journal_event_its_reader_who_pressed_and_the_rulings_cite(
        browser: Any, page: Any, table: TrackerTable) -> None:  # noqa: F811
    play(table)
    open_paired(page, table.url + "replay", table.tracker.pairing.code)
    hands = page.locator("#hands button")
    expect(hands).to_have_count(2)
    hands.nth(1).click()  # the list is newest first: the finished hand
    expect(page.locator("#htitle")).to_have_text("Table table · Hand 1")  # the table file's name (no [room])
    expect(page.locator("#result")).to_contain_text("seat 1 wins")
    shown = page_rows(page)
    deck = table.config.deck(table.config.game.in_play).cards
    first = int(shown[0]["seq"])
    last = max(int(r["seq"]) for r in shown)
    events = [(seq, json.loads(line)) for seq, line in journal_rows(table) if first <= seq <= last]
    assert [int(r["seq"]) for r in shown if r["kind"] != "ruling"] == [seq for seq, _ in events]
    by_seq = {int(r["seq"]): r for r in shown if r["kind"] != "ruling"}
    sources = set()
    for seq, line in events:
        row = by_seq[seq]
        if line["kind"] == "read":
            card = deck[line["uid"]]
            assert row["kind"] == "card" and row["who"] == reader_of(line["antenna"])
            # Hole cards of seats 3 and 4 (folded) are face down under the house's default rule (showdown).
            folded = card in {"Ks", "Kd", "5d", "6d"}
            assert row["what"].startswith("hidden card to seat " if folded else card), (seq, card, row)
        elif line["kind"] == "button":
            # The test's own posts (new_hand, as a harness) have no source: "not recorded", never a guess.
            assert row["kind"] == "press" and row["who"] == (f"by {line['by']}" if "by" in line
                                                             else "by: not recorded"), (seq, line, row)
            assert line["name"].replace("_", " ") in row["what"]
            sources.add(line.get("by"))
    assert sources == {"panel", "tracker", "keypad", None}
    refused = page.locator("#streets tr.refused")
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text("check")
    ruling = page.locator("#streets tr.ev-ruling")
    expect(ruling).to_have_count(1)
    showdown = table.tracker.snapshot
    assert showdown is not None
    expect(ruling.locator(".rule")).to_have_text(re.compile(r"^robert: The Showdown"))
    # The hands shown down face up, the folded ones face down; the pot as ruled.
    expect(page.locator('#seats tr[data-seat="1"] .cards')).to_have_text("AsAd")
    expect(page.locator('#seats tr[data-seat="3"] .cards')).to_have_text("????")
    expect(page.locator("#pots tbody tr")).to_have_count(1)
    expect(page.locator("#pots tbody tr td").nth(3)).to_have_text("seat 1")
    shot(page, "replay-1280x800.png")


def test_a_hand_in_play_shows_no_hole_card_on_the_replay(browser: Any, page: Any,  # noqa: F811
                                                         table: TrackerTable) -> None:
    play(table)
    live = table.settle()
    dealt = [card for view in live.seats for card in view.cards]
    assert len(dealt) == 8
    open_paired(page, table.url + "replay", table.tracker.pairing.code)
    expect(page.locator("#htitle")).to_have_text("Table table · Hand 2 (in play)")  # the newest, shown first
    expect(page.locator("#streets tr.ev-card")).to_have_count(8)
    text = page.locator("#hand").inner_text()
    assert not [card for card in dealt if re.search(rf"\b{card}\b", text)]  # (times read "1.44s": not a card)
    expect(page.locator("#seats .card.hid")).to_have_count(8)
    expect(page.locator("#hidden")).to_contain_text("a hand in play")
    key = page.evaluate("new URLSearchParams(location.search).get('key')")
    status, body, _ = table.request(f"/replay/hand?key={key}", cookie=table.pair())
    assert status == 200
    raw = json.dumps(body)
    assert not [card for card in dealt if f'"{card}"' in raw]  # nor in what the page is sent
    uids = {tag for tag, card in table.config.deck(table.config.game.in_play).cards.items() if card in dealt}
    assert not [uid for uid in uids if uid in raw]  # nor the tags, which the deck would name


def test_the_replay_prints_as_one_page_for_a_dispute_file(browser: Any, page: Any,  # noqa: F811
                                                          table: TrackerTable) -> None:
    play(table)
    open_paired(page, table.url + "replay", table.tracker.pairing.code)
    page.locator("#hands button").nth(1).click()
    expect(page.locator("#htitle")).to_have_text("Table table · Hand 1")
    page.emulate_media(media="print")
    expect(page.locator("nav")).to_be_hidden()
    expect(page.locator("header")).to_be_hidden()
    expect(page.locator("#streets tr.ev-ruling")).to_be_visible()
    pdf = page.pdf(format="A4")
    page.set_viewport_size({"width": 718, "height": 1047})  # A4 less the margins, at 96 dpi
    shot(page, "replay-print-a4.png", full_page=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1


def test_the_replay_needs_a_paired_device(table: TrackerTable) -> None:
    table.new_hand()
    for path in ("/replay/hands", "/replay/hand?key=1"):
        assert table.request(path)[0] == 401
    status, body, _ = table.request("/replay", origin=None)
    assert status == 401 and "Pair this device" in str(body)
    cookie = table.pair()
    assert table.request("/replay/hand?key=<script>", cookie=cookie)[0] == 400
    assert table.request("/replay/hand?key=999999", cookie=cookie)[0] == 404


def test_the_replay_page_runs_under_the_strict_csp(browser: Any, page: Any, table: TrackerTable) -> None:  # noqa: F811
    from firmware_py.web import CSP  # noqa: PLC0415

    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)
    play(table)
    cookie = table.pair()
    for path in ("/replay", "/replay/hands", "/static/replay.js", "/static/replay.css"):
        _status, _body, headers = table.request(path, cookie=cookie, origin=None)
        assert headers.get("content-security-policy") == CSP, path
    open_paired(page, table.url + "replay", table.tracker.pairing.code)
    expect(page.locator("#streets tr.ev-press").first).to_be_visible()
    assert violations == []


def test_the_houses_rule_for_replayed_hole_cards_is_checked_naming_the_file_and_key() -> None:
    from firmware_py.daemon.tracker import parse_tracker_config  # noqa: PLC0415
    from firmware_py.errors import ConfigError  # noqa: PLC0415

    with pytest.raises(ConfigError, match=r"table\.toml.*\[tracker\] replay_hole_cards.*none, showdown, all.*"
                                          r"did you mean 'showdown'"):
        parse_tracker_config({"listen": "192.168.4.1", "replay_hole_cards": "showdwn"}, source="table.toml")
    config = parse_tracker_config({"listen": "192.168.4.1", "replay_hole_cards": "all"}, source="table.toml")
    assert config.replay_hole_cards == "all"
    assert parse_tracker_config({"listen": "192.168.4.1"}, source="table.toml").replay_hole_cards == "showdown"


@pytest.mark.parametrize("presses", [60, 130])
def test_a_long_disputed_hand_still_prints_on_one_page(browser: Any, page: Any, table: TrackerTable,  # noqa: F811
                                                       presses: int) -> None:
    table.arrange(CARDS)
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    table.new_hand()
    pressed(table, "bet", KEYPAD, amount=200)  # seat 4 raises the big blind
    for _ in range(presses):  # seat 1, facing it, checks again and again: each refused, each journaled
        pressed(table, "check", PANEL)
    pressed(table, "fold", PANEL)
    open_paired(page, table.url + "replay", table.tracker.pairing.code)
    expect(page.locator("#streets tr.refused")).to_have_count(presses)
    page.emulate_media(media="print")
    page.wait_for_function("document.getElementById('hand').dataset.zoom !== undefined")  # fitted to the page
    zoom = float(page.locator("#hand").get_attribute("data-zoom") or "nan")
    assert (zoom < 1) if presses > 100 else (zoom <= 1)  # zoomed to fit, when it must be
    assert len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4"))) == 1


def test_a_replay_still_reading_a_long_journal_says_so_and_answers_when_ready(tmp_path: Path) -> None:
    """The tracker reads the journal so far on a thread at start; a request meanwhile is told how far it is
    (503, "N of M events"), never kept waiting for the whole journal."""
    import threading  # noqa: PLC0415

    from firmware_py.profiles import load_profiles  # noqa: PLC0415
    from firmware_py.web.replay_page import Busy, JournalReplays  # noqa: PLC0415

    table = TrackerTable(tmp_path).start()
    try:
        play(table)
    finally:
        table.stop()
    replays = JournalReplays(table.journal.path, profiles=load_profiles(ROOT / "config" / "profiles"),
                             base_dir=ROOT / "config")
    release = threading.Event()
    original = replays.book.feed

    def slow(entry: Any) -> None:  # the journal read slowly: a long session on a busy Pi
        release.wait(10)
        original(entry)

    replays.book.feed = slow  # type: ignore[method-assign]
    replays.start()
    with pytest.raises(Busy, match=r"reading the table's journal \(0 of \d+ events\)"):
        replays.listing()
    release.set()
    table.wait(lambda: replays.book.seq > 0)
    assert [h["hand"] for h in replays.listing()] == [2, 1]
    replays.close()
