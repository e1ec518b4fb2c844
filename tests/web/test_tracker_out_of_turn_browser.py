"""The action tracker shows the skipped player's real options after an action out of turn, as each book
rules it (the core's snapshot: `legal`), in a real browser (Debian's chromium through Playwright)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import browser, page  # noqa: F401  (the fixtures)
from tests.tracker_table import TrackerTable
from tests.web.test_tracker_browser import open_paired, seat

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect


@pytest.fixture
def upt_table(tmp_path: Path) -> Iterator[TrackerTable]:
    running = TrackerTable(tmp_path, profile="upt").start()
    yield running
    running.stop()


@pytest.fixture
def robert_table(tmp_path: Path) -> Iterator[TrackerTable]:
    running = TrackerTable(tmp_path, profile="robert").start()
    yield running
    running.stop()


def test_upt_out_of_turn_bet_the_skipped_player_is_offered_call_raise_or_fold(page: Any,  # noqa: F811
                                                                             upt_table: TrackerTable) -> None:
    """UPT's Out Of Turn Bet: seat 1 raises out of turn, the minimum raise (100) is posted at once, and seat 4,
    skipped, faces it: the page offers "Call 100" (no check) and a raise."""
    table = upt_table
    table.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
    open_paired(page, table)
    table.new_hand()
    expect(page.locator("#who")).to_have_text("Seat 4 to act")
    seat(page, 1).click()
    page.fill("#amount", "400")
    page.click("#raise")
    expect(page.locator("#verdict")).to_contain_text("ACTION OUT OF TURN")
    expect(seat(page, 1)).to_contain_text("raise 100")
    seat(page, 4).click()  # the operator taps the seat the action is on (the page draws it anew)
    expect(page.locator("#who")).to_have_text("Seat 4 to act")
    expect(page.locator("#call")).to_have_text("Call 100")
    expect(page.locator("#raise")).to_be_enabled()
    expect(page.locator("#limits")).to_contain_text("to call 100")


def test_robert_a_player_who_checked_out_of_turn_is_offered_no_raise(page: Any,  # noqa: F811
                                                                     robert_table: TrackerTable) -> None:
    """Robert's Betting and Raising 10: seat 3 checks out of turn on the flop, seat 2 bets; at seat 3's turn the
    page offers a call or a fold, and says it may not raise."""
    table = robert_table
    table.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
    open_paired(page, table)
    table.new_hand()
    for acting, after in ((4, 1), (1, 2), (2, 3)):  # seats 4, 1 and 2 call
        expect(page.locator("#who")).to_have_text(f"Seat {acting} to act")
        page.click("#call")
        expect(page.locator("#who")).to_have_text(f"Seat {after} to act")
    page.click("#call")  # seat 3, the big blind, checks
    expect(page.locator("#who")).not_to_have_text("Seat 3 to act")
    table.street(3, 1)
    expect(page.locator("#who")).to_have_text("Seat 2 to act")
    seat(page, 3).click()
    page.click("#call")  # a check out of turn (nothing to call)
    expect(page.locator("#verdict")).to_contain_text("ACTION OUT OF TURN")
    seat(page, 2).click()  # the operator taps the seat the action is on
    expect(page.locator("#who")).to_have_text("Seat 2 to act")
    page.fill("#amount", "100")
    page.click("#raise")  # seat 2 bets 100: seat 3 is freed, and may not raise
    expect(seat(page, 2)).to_contain_text("bet 100")
    seat(page, 3).click()
    expect(page.locator("#who")).to_have_text("Seat 3 to act")
    expect(page.locator("#raise")).to_be_disabled()
    expect(page.locator("#limits")).to_contain_text("may not raise")
    expect(page.locator("#call")).to_have_text("Call 100")
