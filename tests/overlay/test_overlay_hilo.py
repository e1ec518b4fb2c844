"""Omaha Hi-Lo on the overlay, in a real browser: each strip shows the hand's share of the pot (split halves and
quarters counted, as the odds compute it), its high and low hand, and the result says who took each half."""

from __future__ import annotations

from typing import Any

import pytest

from firmware_py.core.game import GAMES
from firmware_py.odds import calculate_equity
from tests.overlay.conftest import Clock
from tests.overlay.hand import NAMES, ROOT
from tests.overlay.test_overlay_control import loaded, show

HILO = ROOT / "tests" / "sessions" / "omaha_hilo_split_robert.jsonl"


def test_hilo_strips_show_each_hands_share_of_the_pot_on_the_turn(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock, HILO)
    turn = next(s for s in steps if len(s.snapshot.board) == 4 and s.snapshot.phase == "betting")
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        seen = show(page, clock, turn)
        live = [(v.seat, v.cards) for v in turn.snapshot.seats if v.cards]
        equity = calculate_equity([cards for _seat, cards in live], turn.snapshot.board, dead=turn.snapshot.burns,
                                  game=GAMES["omaha_hilo"])  # the burns are known dead, as the chances take them
        expected = [f"pot {share * 100:.1f}%" for share in equity.share]
        by_name = {strip["name"]: strip for strip in seen["strips"]}
        assert [by_name[NAMES[seat]]["win"] for seat, _cards in live] == expected
        assert all(strip["tie"] is None for strip in seen["strips"])  # a part of the pot is in the share
        assert sum(float(text[4:-1]) for text in expected) == pytest.approx(100.0, abs=0.3)
        assert "; 7-4-3-2-A low" in by_name[NAMES[2]]["hand"]
    finally:
        page.close()


def test_hilo_result_says_who_took_the_high_and_who_the_low(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock, HILO)
    end = next(s for s in steps if s.feed.result is not None)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        seen = show(page, clock, end)
        assert seen["result"] == ["Ada Lovelace wins the high of the main pot, 200, with three of a kind, kings; "
                                  "Bo Jackson & Cy Young split the low, with 7-4-3-2-A low"]
    finally:
        page.close()
