"""The action tracker in a real browser (Debian's chromium through Playwright): pairing, a full hand
with a side pot, a refused raise with its words on screen, an undo, a stale press from a second page,
a rebuy and a bust-out; and the page's amount parser agrees with the server's.

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/web/test_tracker_browser.py` writes the
README's screenshots (tablet 1280x800, phone 390x844)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from display.display_config import BlindLevel, DisplayConfig
from firmware_py.core import Button, ButtonName, Seat, SeatStatus, Verdict
from firmware_py.core.engine import Outcome, TableCore
from firmware_py.core.snapshot import TableSnapshot
from firmware_py.daemon.app import journal_events
from firmware_py.daemon.journal import Journal
from firmware_py.web.amounts import parse_amount
from tests.browser import browser, page  # noqa: F401  (the fixtures)
from tests.browser import open_paired as paired
from tests.tracker_table import TrackerTable

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect

# Seat 2 gets the worst hand and busts; seat 3 wins both pots. Deal order: seats 2, 3, 4, 1, twice.
CARDS = ["7c", "As", "Ks", "5d", "2d", "Ad", "Kd", "6d",
         "Qc", "9h", "8s", "4c",  # burn, flop
         "Qd", "Jd",  # burn, turn
         "Qh", "3h"]  # burn, river


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TrackerTable]:
    running = TrackerTable(tmp_path).start()
    yield running
    running.stop()


def open_paired(page: Any, table: TrackerTable) -> Any:  # noqa: F811
    paired(page, table.url, table.tracker.pairing.code)  # the shared pairing page, then the tracker
    expect(page.locator("#who")).to_be_visible()
    return page


def seat(page: Any, number: int) -> Any:  # noqa: F811
    return page.locator(f'#seats button[data-seat="{number}"]')


def act(page: Any, button: str, amount: str = "") -> None:  # noqa: F811
    if amount:
        page.fill("#amount", amount)
    page.click(f"#{button}")


def taken(page: Any, words: str = "") -> None:  # noqa: F811
    expect(page.locator("#verdict")).to_contain_text(re.compile(r"taken" + (f".*{re.escape(words)}" if words else ""),
                                                                re.IGNORECASE))


def shot(page: Any, name: str) -> None:  # noqa: F811
    folder = os.environ.get("POKERTABLE_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=False)


def test_a_full_hand_with_a_side_pot_refusal_undo_stale_press_rebuy_and_bust_out(
        browser: Any, page: Any, table: TrackerTable) -> None:  # noqa: F811
    table.arrange(CARDS)
    table.stacks(s1=5000, s2=1000, s3=5000, s4=5000)
    open_paired(page, table)
    seat(page, 4).click()  # named on the page; the others as if named earlier
    page.fill("#pname", "Dee")
    page.click("#savename")
    taken(page, "name changed")
    seat(page, 4).click()
    table.tracker.names.update({1: "Ann", 2: "Bob", 3: "Cy"})
    table.new_hand()  # blinds 25/50: seat 2 small, seat 3 big, seat 4 first to act
    expect(seat(page, 4)).to_have_class(re.compile("toact"))
    expect(page.locator("#who")).to_have_text("Seat 4 (Dee) to act")
    expect(page.locator("#limits")).to_contain_text("raise from 100 to 5,000")

    page.fill("#amount", "1,2")  # refused on the page, in words, before sending
    page.click("#raise")
    expect(page.locator("#verdict")).to_contain_text("Not sent: \"1,2\": commas go between groups of three digits")
    page.fill("#amount", "5,000")
    page.evaluate("document.getElementById('limits')")  # the page's own check is on the stack; the table's too:
    act(page, "raise", "5,001")
    expect(page.locator("#verdict")).to_contain_text("more than the 5,000")
    act(page, "raise", "50")  # a raise to the bet already faced: the table refuses it, in its words
    expect(page.locator("#verdict")).to_contain_text("Refused: raise 50 is not above the bet of 50")

    act(page, "raise", "300")
    taken(page)
    expect(seat(page, 4)).to_contain_text("raise 300")
    page.click("#undo")
    taken(page, "took back the raise")
    expect(seat(page, 4)).not_to_contain_text("raise 300")
    expect(page.locator("#who")).to_have_text("Seat 4 (Dee) to act")
    act(page, "raise", "0.3k")
    taken(page)
    expect(page.locator("#who")).to_have_text("Seat 1 (Ann) to act")
    page.click("#fold")
    expect(page.locator("#who")).to_have_text("Seat 2 (Bob) to act")
    page.click("#allin")
    expect(page.locator("#who")).to_have_text("Seat 3 (Cy) to act")
    expect(page.locator("#call")).to_have_text("Call 950")
    page.click("#call")
    expect(page.locator("#call")).to_have_text("Call 700")
    page.click("#call")
    expect(page.locator("#who")).to_have_text("Dealing the flop")

    table.street(3, 1)  # the flop
    expect(page.locator("#board")).to_contain_text("9\u2665")
    second = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    second.route("**/events", lambda route: route.abort())  # a second page whose updates stopped
    open_paired(second, table)
    expect(second.locator("#who")).to_have_text("Seat 3 (Cy) to act")
    act(page, "raise", "500")  # seat 3 bets 500
    taken(page)
    second.click("#call")  # seat 3 "checks" from the page that did not see the bet: stale
    expect(second.locator("#verdict")).to_contain_text("Refused: check: stale press")
    second.context.close()
    expect(page.locator("#who")).to_have_text("Seat 4 (Dee) to act")  # not moved on by the stale press
    shot(page, "tracker-1280x800.png")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "tracker-390x844.png")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#call")
    expect(page.locator("#who")).to_have_text("Dealing the turn")
    expect(page.locator("#pot")).to_contain_text("POT 4,000 (main 3,000 + side 1,000)")
    table.street(1, 4)
    for _ in range(2):
        page.click("#call")
        page.wait_for_timeout(50)
    expect(page.locator("#who")).to_have_text("Dealing the river")
    table.street(1, 5)
    page.click("#call")
    expect(page.locator("#who")).to_have_text("Seat 4 (Dee) to act")
    page.click("#call")
    expect(page.locator("#street")).to_have_text("SHOWDOWN")
    expect(page.locator("#verdict")).to_contain_text("main pot of 3,000 to seat 3")
    expect(page.locator("#verdict")).to_contain_text("side pot 1 of 1,000 to seat 3")
    expect(page.locator("#who")).to_have_text("Hand over: showdown")
    shot(page, "tracker-showdown-1280x800.png")
    table.hand_end()

    expect(seat(page, 2)).to_contain_text("NO CHIPS")
    seat(page, 2).click()
    page.click("#bust")
    taken(page)
    expect(seat(page, 2)).to_contain_text("empty")
    seat(page, 4).click()
    page.fill("#pamount", "1,500")
    page.click("#rebuy")
    taken(page, "rebuy: seat 4 3,500 to 5,000")
    expect(seat(page, 4)).to_contain_text("5,000")
    expect(page.locator("#notes")).to_contain_text("rebuy: seat 4 3,500 to 5,000")


def test_an_action_out_of_turn_is_entered_by_tapping_the_seat(page: Any, table: TrackerTable) -> None:  # noqa: F811
    table.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
    open_paired(page, table)
    table.new_hand()
    expect(page.locator("#who")).to_have_text("Seat 4 to act")
    seat(page, 1).click()
    expect(page.locator("#who")).to_have_text("Seat 1: acting OUT OF TURN (the action is on seat 4)")
    page.click("#call")
    expect(page.locator("#verdict")).to_contain_text("ACTION OUT OF TURN: Seat 1 acted out of turn (call)")
    expect(seat(page, 1)).to_contain_text("call out of turn")
    page.click("#fold")  # seat 4 folds: nothing changed, seat 1's call stands
    expect(seat(page, 1)).to_contain_text("call 50")
    expect(page.locator("#who")).to_have_text("Seat 2 to act")


AMOUNTS = ["1,200", "1.2k", "1.25K", " 12 000 ", "\uff11\uff12\uff10\uff10", "2m", "1\u202f500", "1,2", "1.5",
           "abc", "", "0", "1.2345k", "-5", "\u0661\u0662", "12,000,000,000", "1,200.5", "k", "1..2k"]
PARSE_ALL = "cases => cases.map(t => { try { return parseAmount(t) } catch (e) { return 'error: ' + e.message } })"


def test_the_page_parses_amounts_as_the_server_does(page: Any, table: TrackerTable) -> None:  # noqa: F811
    open_paired(page, table)  # the page (and its amounts.js) only once paired
    got = page.evaluate(PARSE_ALL, AMOUNTS)
    want: list[object] = []
    for typed in AMOUNTS:
        try:
            want.append(parse_amount(typed))
        except ValueError as exc:
            want.append(f"error: {exc}")
    assert got == want


def test_pot_limit_omaha_offers_bets_up_to_the_pot_and_refuses_above_it(page: Any, tmp_path: Path) -> None:  # noqa: F811
    """PLO at blinds 25/50: the first to act may raise from 100 to the pot (175); all in is off; a raise keyed
    above the pot is refused on the page, and the core's ruling cites the pot-limit rule."""
    table = TrackerTable(tmp_path, game="omaha").start()
    try:
        table.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
        open_paired(page, table)
        table.new_hand()
        expect(page.locator("#who")).to_have_text("Seat 4 to act")
        expect(page.locator("#limits")).to_contain_text("raise from 100 to 175")
        expect(page.locator("#allin")).to_be_disabled()
        act(page, "raise", "400")
        expect(page.locator("#verdict")).to_contain_text("over the limit (Pot-Limit Omaha): at most 175")
        shot(page, "tracker-plo-1280x800.png")
        act(page, "raise", "175")
        taken(page)
        expect(seat(page, 4)).to_contain_text("raise 175")
        assert [len(v.cards) for v in table.settle().seats] == [4, 4, 4, 4]
    finally:
        table.stop()


def test_the_tracker_shows_a_big_blind_ante_level_and_the_big_blinds_post(browser: Any, page: Any,  # noqa: F811
                                                                          tmp_path: Path) -> None:
    schedule = DisplayConfig(blind_levels=(BlindLevel(small=100, big=200, bb_ante=200, minutes=20),), levels_start_t=0)
    running = TrackerTable(tmp_path, schedule=schedule).start()
    try:
        running.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
        open_paired(page, running)
        snapshot = running.new_hand()  # seat 2 small blind, seat 3 big blind and the table's ante
        assert snapshot.chips is not None and snapshot.chips.pot == 500
        expect(page.locator("#level")).to_have_text("Blinds 100/200 BB ante 200")
        expect(seat(page, 3)).to_contain_text("big blind 200 + ante 200")
        expect(page.locator("#call")).to_have_text("Call 200")  # the ante is dead: the bet to call is the blind
        shot(page, "tracker-bb-ante-1280x800.png")
    finally:
        running.stop()


def journal_holds(table: TrackerTable) -> tuple[Outcome, TableSnapshot]:
    """The journal replayed into a core of its own: its answer to the last event journaled, and the table then."""
    core = TableCore(table.config.profiles)
    outcome = Outcome()
    with Journal.read_only(table.journal.path) as journal:
        for event in journal_events(journal, base_dir=table.config.hardware_file.parent):
            outcome = core.feed(event)
    return outcome, core.snapshot()


# A hand at six seats, Robert's rules (blinds 25/50: seat 2 small, seat 3 big, seat 4 first): presses taken,
# held out of turn (a ruling), refused, a held fold that no longer binds, an undo and a ruling confirmed.
SCRIPT: list[tuple[int | None, str, str]] = [
    (6, "fold", ""),  # out of turn: held, ruled
    (None, "call", ""),  # seat 4
    (None, "call", ""),  # seat 5, in turn: taken; seat 6's fold no longer binds (the action changed)
    (None, "raise", "50"),  # seat 6: not above the bet, refused
    (None, "raise", "200"),  # seat 6 raises
    (None, "fold", ""),  # seat 1
    (1, "fold", ""),  # seat 1 again: it cannot act now, refused
    (3, "call", ""),  # seat 3 out of turn: held, ruled (seat 2 is to act)
    (None, "undo", ""),  # takes back the last press taken: seat 3's held call
    (None, "confirm", ""),  # the dealer confirms the ruling shown
    (None, "call", ""),  # seat 2
    (None, "call", ""),  # seat 3
    (None, "call", ""),  # seat 4
    (None, "allin", ""),  # seat 5
    (None, "fold", ""),  # seat 6
    (None, "fold", ""),  # seat 2
    (None, "fold", ""),  # seat 3
    (None, "fold", ""),  # seat 4: seat 5 wins, the others folded
]


def test_after_every_press_the_page_says_what_the_journal_holds(page: Any, tmp_path: Path) -> None:  # noqa: F811
    """The page's answer to each press of a scripted hand is the core's answer to that press as the journal
    replays it (taken, ruled, or refused and why), and its seats are the journal's: the words on the screen
    are never inferred from something else the table said."""
    running = TrackerTable(tmp_path, seats=(1, 2, 3, 4, 5, 6)).start()
    try:
        running.stacks(s1=10000, s2=10000, s3=10000, s4=10000, s5=10000, s6=10000)
        open_paired(page, running)
        running.new_hand()
        expect(page.locator("#who")).to_have_text("Seat 4 to act")
        for number, (chosen, name, amount) in enumerate(SCRIPT):
            if chosen is not None:
                seat(page, chosen).click()
            if amount:
                page.fill("#amount", amount)
            page.click(f"#{name}")
            verdict = page.locator("#verdict")
            expect(verdict).not_to_contain_text("Sending", timeout=10000)
            said = verdict.inner_text()
            outcome, snapshot = journal_holds(running)
            where = f"press {number} ({name}): the page says {said!r}"
            if outcome.verdict is Verdict.REFUSED:
                assert said == f"Refused: {outcome.refused}", where
            else:
                assert re.match(rf"{name}\b.*: {outcome.verdict}\b", said), where
                for ruling in outcome.rulings:
                    assert ruling.remedy in said, where
                for notice in outcome.notices:
                    assert notice.message in said, where
            if outcome.verdict is Verdict.REFUSED and chosen is not None:
                seat(page, chosen).click()  # the seat chosen for a refused press stays chosen: let it go
            for view in snapshot.seats:  # the seats as the journal has them
                expect(seat(page, view.seat).locator(".stack")).to_have_text(f"{view.stack:,}")
            if snapshot.to_act is not None:
                expect(page.locator("#who")).to_contain_text(f"Seat {snapshot.to_act} to act")
        expect(page.locator("#who")).to_have_text("Hand over: Seat 5 wins, the others folded")
        expect(seat(page, 5)).not_to_contain_text(re.compile("ALL ?IN"))  # all in in the hand; it has won chips since
        shot(page, "tracker-verdicts-1280x800.png")
        running.hand_end()
        expect(page.locator("#notes")).not_to_have_text("")
        seat(page, 2).click()  # chosen between hands, for a player operation
        expect(page.locator("#seats .seat.sel")).to_have_count(1)
        running.new_hand()
        expect(page.locator("#hand")).to_have_text("Hand 2")
        expect(page.locator("#seats .seat.sel")).to_have_count(0)  # a new hand: no seat chosen
        expect(page.locator("#who")).to_have_text("Seat 5 to act")  # not seat 2 acting out of turn
        expect(page.locator("#notes")).to_have_text("")  # the last hand's notices are not this hand's
    finally:
        running.stop()


def test_a_dead_button_is_shown_on_its_empty_seat(page: Any, tmp_path: Path) -> None:  # noqa: F811
    """Robert's rules: the small blind (seat 2) leaves between hands; the button moves to its empty seat."""
    running = TrackerTable(tmp_path, seats=(1, 2, 3, 4, 5)).start()
    try:
        running.stacks(s1=5000, s2=5000, s3=5000, s4=5000, s5=5000)
        open_paired(page, running)
        running.new_hand()  # button 1, blinds 2 and 3
        for _ in range(4):
            running.post(Button(t=running._clock(), name=ButtonName.FOLD))
        running.hand_end()
        running.post(Seat(t=running._clock(), seat=2, status=SeatStatus.OUT))
        snapshot = running.new_hand()
        assert snapshot.button == 2 and snapshot.small_blind == 3
        expect(seat(page, 2)).to_have_text("Seat 2: empty \u00b7 D (dead button)")
        expect(seat(page, 1)).not_to_contain_text("D")  # the player who had it
        shot(page, "tracker-dead-button-1280x800.png")
    finally:
        running.stop()


def test_call_clock_by_a_seat_shows_the_countdown_and_a_folded_hand_is_retrieved(
        browser: Any, page: Any, table: TrackerTable) -> None:  # noqa: F811
    table.arrange(CARDS)
    table.stacks(s1=5000, s2=1000, s3=5000, s4=5000)
    open_paired(page, table)
    table.new_hand()  # seat 4 first to act
    expect(page.locator("#clock")).to_be_enabled()
    seat(page, 2).click()  # seat 2 calls the clock on seat 4
    expect(page.locator("#clock")).to_have_text("Clock (called by seat 2)")
    page.click("#clock")
    taken(page)
    expect(page.locator("#shotclock")).to_contain_text(re.compile(r"CLOCK on Seat 4: \d+ s \(called by seat 2\)"))
    expect(page.locator("#clock")).to_be_disabled()  # one clock at a time
    seat(page, 2).click()  # deselect
    act(page, "fold")  # seat 4 folds: the clock stops
    taken(page)
    expect(page.locator("#shotclock")).to_have_text("")
    seat(page, 4).click()
    expect(page.locator("#retrieve")).to_be_enabled()
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#retrieve")
    expect(page.locator("#verdict")).to_contain_text(re.compile(r"retrieve for Seat 4: ruled .*HAND RETRIEVED"))
