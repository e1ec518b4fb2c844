"""The director's page when it loses the director, in a real browser (Debian's chromium through Playwright):
every control that asks the director for something is off while it is lost (the clock, hand-for-hand,
registration, rebuys, the deal's form and agreements), and each one's own state is put back when the director
is heard again (the deal's button stays off until every player agrees).

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/room/test_director_page_lost.py` writes the screenshot
of docs/tournament.md."""

from __future__ import annotations

from typing import Any

import pytest

from firmware_py.room.director_page import director_app
from firmware_py.web.server import WebServer
from tests.browser import browser, open_paired, page  # noqa: F401  (the fixtures)
from tests.room.test_tournament_page import shot

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect

# what asks the director for something (director.js controls())
CONTROLS = "header button, main button, main input, main select"


def _three_left() -> Any:
    from tests.tournament.test_money import _director  # noqa: PLC0415
    from tests.tournament.test_registration import Hands  # noqa: PLC0415

    director = _director()
    hands = Hands(director)
    while len(director.tournament.in_play()) > 3:
        table = max(director.tournament.tables.values(), key=lambda t: len(t.seats))
        hands.seq.setdefault(table.id, director.acked.get(table.id, 0))
        chips = director.tournament.players
        hands.play(table.id, losers=[min(table.seats, key=lambda s: chips[table.seats[s]].chips)])
    return director


def test_a_page_that_lost_its_director_turns_off_registration_and_the_deal_and_restores_each_control(
        page: Any) -> None:  # noqa: F811
    director = _three_left()
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    port = server.address[1]
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        open_paired(page, server.url + "/", app.pairing.code)
        expect(page.locator("#dealbox")).to_be_visible()
        page.click("#previewbtn")
        boxes = page.locator("#dealrows input")
        expect(boxes).to_have_count(3)
        boxes.nth(0).check()  # one of three agrees: the deal's button stays off
        expect(page.locator("#dealbtn")).to_be_disabled()
        for on in ("#regform button", "#rebuybtn", "#addonbtn", "#reenterbtn", "#previewbtn", "#regname",
                   "#dealmethod", "#playfor", "#clockbtn"):
            expect(page.locator(on)).to_be_enabled()
        # the director goes away: within seconds the page says so, and nothing on it can be pressed
        app.closing = True
        server.stop()
        expect(page.locator("#stale")).to_contain_text("Lost the director", timeout=10_000)
        expect(page.locator(f":is({CONTROLS}):enabled")).to_have_count(0)
        assert page.locator(CONTROLS).count() >= 12
        shot(page, "tournament-director-lost-controls-1280x800.png")
        # back on the same address: each control as it was, the deal's button still waiting for two players
        app.closing = False
        server = WebServer(app, host="127.0.0.1", port=port, name="tournament page").start()
        expect(page.locator("#stale")).to_be_hidden(timeout=20_000)
        for on in ("#regform button", "#rebuybtn", "#addonbtn", "#reenterbtn", "#previewbtn", "#regname",
                   "#dealmethod", "#playfor", "#clockbtn", "#h4hbtn"):
            expect(page.locator(on)).to_be_enabled()
        expect(boxes.nth(0)).to_be_checked()
        expect(page.locator("#dealbtn")).to_be_disabled()
        boxes.nth(1).check()
        boxes.nth(2).check()
        expect(page.locator("#dealbtn")).to_be_enabled()
    finally:
        app.closing = True
        server.stop()


def test_a_finished_tournament_s_page_offers_no_registration(page: Any) -> None:  # noqa: F811
    from tests.tournament.test_registration import Hands  # noqa: PLC0415

    director = _three_left()
    hands = Hands(director)
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        open_paired(page, server.url + "/", app.pairing.code)
        expect(page.locator("#regform button")).to_be_enabled()
        while not director.tournament.finished:
            table = next(iter(director.tournament.tables.values()))
            hands.seq.setdefault(table.id, director.acked.get(table.id, 0))
            chips = director.tournament.players
            hands.play(table.id, losers=[min(table.seats, key=lambda s: chips[table.seats[s]].chips)])
        expect(page.locator("#over")).to_contain_text("The tournament is over")
        for off in ("#regform button", "#regname", "#regcard", "#buyid", "#rebuybtn", "#addonbtn", "#reenterbtn",
                    "#clockbtn", "#h4hbtn"):
            expect(page.locator(off)).to_be_disabled()
    finally:
        app.closing = True
        server.stop()
