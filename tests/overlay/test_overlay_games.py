"""The overlay draws every hole card of the game: Omaha's four (and five) in each strip, in a real browser."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.overlay.conftest import Clock
from tests.overlay.hand import ROOT
from tests.overlay.test_overlay_control import keep, loaded, show

PLO = ROOT / "tests" / "sessions" / "omaha_betting_robert.jsonl"
PLO5 = ROOT / "tests" / "sessions" / "omaha5_deal_robert.jsonl"


def test_plo_strips_show_four_cards_each_as_the_core_dealt_them(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock, PLO)
    flop = next(s for s in steps if len(s.snapshot.board) == 3 and s.snapshot.phase == "betting")
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        seen = show(page, clock, flop)
        keep(page, "overlay-plo.png")
        if os.environ.get("GAME_SHOTS"):
            page.screenshot(path=str(Path(os.environ["GAME_SHOTS"]) / "overlay-plo.png"))
        dealt = {v.seat: list(v.cards) for v in flop.snapshot.seats if v.cards}
        drawn = [strip["cards"] for strip in seen["strips"]]
        assert drawn and all(len(cards) == 4 for cards in drawn)
        assert sorted(map(tuple, drawn)) == sorted(tuple(cards) for cards in dealt.values())
    finally:
        page.close()


def test_five_card_plo_strips_show_five_cards(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock, PLO5)
    flop = next(s for s in steps if s.snapshot.hand_number == 2 and len(s.snapshot.board) == 3)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        seen = show(page, clock, flop)
        if os.environ.get("GAME_SHOTS"):
            page.screenshot(path=str(Path(os.environ["GAME_SHOTS"]) / "overlay-plo5.png"))
        assert [len(strip["cards"]) for strip in seen["strips"]] == [5] * len(seen["strips"])
    finally:
        page.close()
