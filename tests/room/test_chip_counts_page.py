"""The director's page in a real browser (Debian's chromium through Playwright): the room's chip counts, largest
first, follow each hand the director takes in and stand still for a refused report; a table's jackpot hand is
listed with the player in that seat, the house's rule and the evidence packet.

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/room/test_chip_counts_page.py` keeps the picture."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from firmware_py.room.director import Refused
from firmware_py.room.director_page import director_app
from firmware_py.web.server import WebServer
from tests.browser import browser, open_paired, page  # noqa: F401  (the fixtures)
from tests.room.test_chip_counts import JACKPOT_TOPIC, books, director, jackpot, report

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect

ROWS = """() => [...document.querySelectorAll('#chips tr')].map((tr) => [...tr.children].map((td) => td.textContent))"""


def test_director_page_ranks_the_chip_counts_and_lists_a_jackpot_hand(page: Any) -> None:  # noqa: F811
    d = director()
    stacks = books(d)
    seats = sorted(stacks)
    winner, loser = seats[2], seats[5]
    d.apply(report(d, {**stacks, winner: stacks[winner] + 1200, loser: stacks[loser] - 1200}, hand=1, seq=1))
    app = director_app(d, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        open_paired(page, server.url + "/", app.pairing.code)
        leader = d.tournament.players[d.tournament.tables["t01"].seats[winner]].name
        expect(page.locator("#chips tr").first).to_contain_text(leader)
        rows = page.evaluate(ROWS)
        assert len(rows) == d.state().remaining  # every player still in
        assert rows[0] == ["1", leader, f"t01 seat {winner}", f"{stacks[winner] + 1200:,}", "54 BB"]  # 2,700 at 50
        assert rows[-1][3] == f"{stacks[loser] - 1200:,}"
        expect(page.locator("#chipsummary")).to_contain_text("as of t01 hand 1, t02 hand 0")
        # a forged report: refused and shown in red, the counts unmoved
        forged = {s: (0 if i < 5 else c) for i, (s, c) in enumerate(sorted(books(d).items()))}
        with pytest.raises(Refused):
            d.apply(report(d, forged, hand=2, seq=2, pots=[]))
        expect(page.locator("#refused")).to_contain_text("the pots do not explain")
        assert page.evaluate(ROWS) == rows
        # a jackpot hand from t01's seat: on the page with the player the director seats there
        jackpot_seat = seats[0]
        name = d.tournament.players[d.tournament.tables["t01"].seats[jackpot_seat]].name
        d.feed(JACKPOT_TOPIC, json.dumps(jackpot(seat=jackpot_seat)).encode())
        box = page.locator("#jackpots")
        expect(page.locator("#jackpotbox")).to_be_visible()
        expect(box).to_contain_text(f"JACKPOT Bad beat t01 hand 7, seat {jackpot_seat} ({name}): full house, aces "
                                    "full of kings")
        expect(box).to_contain_text("Hold the cards where they lie and call the floor")
        expect(box.locator(".cite")).to_contain_text("house (jackpots.toml): Bad Beat Jackpot 1: aces full or better "
                                                     "beaten, both hole cards playing; evidence "
                                                     f"jackpot-hand7-seq120-bad-beat-seat{jackpot_seat}.jsonl")
        folder = os.environ.get("POKERTABLE_SCREENSHOTS")
        if folder:
            page.screenshot(path=str(Path(folder) / "tournament-director-chip-counts-1280x800.png"))
        # the next hand taken in moves the counts at once
        stacks = books(d)
        third = seats[3]
        d.apply(report(d, {**stacks, third: stacks[third] + 1500, winner: stacks[winner] - 1500}, hand=2, seq=2))
        expect(page.locator("#chips tr").first).to_contain_text(
            d.tournament.players[d.tournament.tables["t01"].seats[third]].name)
        expect(page.locator("#chips tr").first).to_contain_text("3,000")
    finally:
        app.closing = True
        server.stop()
