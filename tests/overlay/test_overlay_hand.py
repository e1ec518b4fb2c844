"""The overlay page through a whole hand with a side pot, in 1920x1080, 1280x720 and 1080x1920: every
picture's names, stacks, pot, percentages and result checked against the table's own rulings and chances.

Set OVERLAY_SHOTS=DIR to keep the pictures (docs/img/make.sh does, for the README).
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from firmware_py.core.snapshot import Phase, PlayerState, TableSnapshot
from firmware_py.odds.chances import ChancesCache
from tests.overlay.conftest import Clock
from tests.overlay.hand import NAMES, Step, hand_messages
from tests.overlay.page import read, wait_seq

LAYOUTS = [(1920, 1080), (1280, 720), (1080, 1920)]
DELAY_S = 30.0
IN_HAND = {PlayerState.ACTIVE, PlayerState.ALLIN, PlayerState.FOLDED, PlayerState.DEAD}
FELT = "html { background: #1d5236; }"  # a flat felt behind the transparent page, for the docs (PNG stays small)


def moment(step: Step, previous: Step | None) -> str | None:
    """The pictures kept: the hand dealt, each street's first picture, and the result."""
    shot, before = step.snapshot, previous.snapshot if previous else None
    if shot.phase is Phase.SHOWDOWN and (before is None or before.phase is not Phase.SHOWDOWN):
        return "showdown"
    if shot.phase is Phase.BETTING and before is not None and before.phase is not Phase.BETTING:
        return {0: "preflop", 3: "flop", 4: "turn", 5: "river"}.get(len(shot.board))
    return None


def expected_percent(win: float, exact: bool) -> float:
    return round(win * 100, 1) if exact else round(win * 100)


def check_picture(seen: dict[str, Any], snapshot: TableSnapshot, chances: ChancesCache) -> None:
    """The page against the core's snapshot (stacks, pot, cards), its showdown ruling and the table's chances."""
    dealt = [seat for seat in snapshot.seats if seat.state in IN_HAND]
    assert [strip["name"] for strip in seen["strips"]] == [NAMES[seat.seat] for seat in dealt]
    odds = chances.get(snapshot)
    for strip, seat in zip(seen["strips"], dealt, strict=True):
        assert strip["stack"] == f"{seat.stack:,}", (seat.seat, strip)
        assert [card for card in strip["cards"] if card not in ("slot", "back")] == list(seat.cards)
        assert ("to-act" in strip["cls"]) == (seat.to_act and seat.state is PlayerState.ACTIVE)
        assert ("out" in strip["cls"]) == (seat.state in (PlayerState.FOLDED, PlayerState.DEAD))
        if seat.state is PlayerState.ALLIN:
            assert strip["action"] == "all in"
        elif seat.last_action and seat.state is PlayerState.ACTIVE:
            assert strip["action"] == seat.last_action
        chance = odds.seats.get(seat.seat) if odds is not None and snapshot.showdown is None else None
        if chance is None or seat.state not in (PlayerState.ACTIVE, PlayerState.ALLIN):
            assert strip["win"] is None
        else:  # the same figure as the table's own broadcast view, to the digit shown
            shown = float(strip["win"].rstrip("%"))
            assert abs(shown - chance.win * 100) <= (0.05 if odds.exact else 0.5) + 1e-9, (seat.seat, strip, chance)
    assert [card for card in seen["board"] if card != "slot"] == list(snapshot.board)
    assert snapshot.chips is not None
    assert seen["pot"] == f"POT {snapshot.chips.pot:,}"
    if len(snapshot.chips.pots) > 1:
        assert seen["side"] == " · ".join(
            ("Main" if i == 0 else f"Side {i}") + f" {pot.amount:,}" for i, pot in enumerate(snapshot.chips.pots))
    ruling = snapshot.showdown
    if ruling is None:
        assert seen["result"] is None
        return
    assert ruling.pots is not None and seen["result"] is not None
    assert len(seen["result"]) == len(ruling.pots)  # every pot, each with its winners, as the table ruled
    for line, pot in zip(seen["result"], ruling.pots, strict=True):
        assert f", {pot.amount:,}" in line
        for seat in pot.winners:
            assert NAMES[seat] in line
        for seat in set(pot.seats) - set(pot.winners):
            assert NAMES[seat] not in line
    assert {strip["name"] for strip in seen["strips"] if "winner" in strip["cls"]} == {
        NAMES[seat] for pot in ruling.pots for seat in pot.winners}


def transparent_corner(png: bytes) -> bool:
    import pygame  # noqa: PLC0415

    image = pygame.image.load(io.BytesIO(png), "shot.png")
    return image.get_at((image.get_width() // 2, 5)).a == 0


@pytest.mark.parametrize("size", LAYOUTS, ids=[f"{w}x{h}" for w, h in LAYOUTS])
def test_overlay_through_a_hand_with_a_side_pot_matches_the_tables_rulings(browser: Any, room_factory: Any,
                                                                         size: tuple[int, int]) -> None:
    steps = hand_messages()
    assert any(len(s.snapshot.chips.pots) > 1 for s in steps if s.snapshot.chips)  # the hand has a side pot
    clock = Clock()
    room = room_factory(delay_s=DELAY_S, clock=clock)
    for step in steps:
        room.production.table("t01").push(step.feed, step.t)  # arrival at the journal's time
    shots = Path(os.environ["OVERLAY_SHOTS"]) if os.environ.get("OVERLAY_SHOTS") else None
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    chances = ChancesCache()
    kept = []
    try:
        page.goto(room.url + "/")
        wait_seq(page, None)
        assert read(page)["strips"] == []  # nothing before the delay
        previous = None
        for step in steps:
            clock.now = step.t + DELAY_S
            wait_seq(page, step.seq)
            seen = read(page)
            if step.snapshot.phase is not Phase.IDLE and step.snapshot.chips is not None:
                check_picture(seen, step.snapshot, chances)
            name = moment(step, previous)
            if name is not None:
                kept.append(name)
                raw = page.screenshot(omit_background=True)
                assert transparent_corner(raw)  # OBS keys nothing: the page itself is see-through
                if shots is not None:
                    style = page.add_style_tag(content=FELT)
                    page.screenshot(path=str(shots / f"overlay-{name}-{size[0]}x{size[1]}.png"))
                    style.evaluate("node => node.remove()")
            previous = step
    finally:
        page.close()
    assert kept == ["preflop", "flop", "turn", "river", "showdown"]


def test_overlay_shows_a_big_blind_ante_level_and_its_dead_money_in_the_pot(browser: Any, room_factory: Any) -> None:
    """The BB-ante session (bb_ante_short_upt): the level on air names the big-blind ante, the pot counts it."""
    steps = hand_messages(Path(__file__).resolve().parents[1] / "sessions" / "bb_ante_short_upt.jsonl")
    clock = Clock()
    room = room_factory(delay_s=DELAY_S, clock=clock)
    for step in steps:
        room.production.table("t01").push(step.feed, step.t)
    flop = next(step for step in steps if step.snapshot.phase is Phase.BETTING and len(step.snapshot.board) == 3)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        clock.now = flop.t + DELAY_S
        wait_seq(page, flop.seq)
        assert page.locator("#level .blinds").inner_text() == "100/200 BB ante 200"
        assert read(page)["pot"] == "POT 800"  # 200 x 3 called, the 100 small blind and the 100 ante posted
        if os.environ.get("OVERLAY_SHOTS"):
            page.add_style_tag(content=FELT)
            page.screenshot(path=str(Path(os.environ["OVERLAY_SHOTS"]) / "overlay-bb-ante-1280x720.png"))
    finally:
        page.close()
