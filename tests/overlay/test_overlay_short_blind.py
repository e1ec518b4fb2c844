"""A short blind on the broadcast overlay and the screens: a player all in for less than a blind is the rules at
work (WFP 15, UPT 19: the player gets action on what is left), no dealer's error. It shows as information (the
theme's `info` colour), not as the red banner a misdeal or a boxed card gets."""

from __future__ import annotations

from typing import Any

from firmware_py.core import RulingKind
from tests.overlay.conftest import Clock
from tests.overlay.hand import ROOT
from tests.overlay.test_overlay_control import keep, loaded, show

SHORT = ROOT / "tests" / "sessions" / "bb_ante_short_upt.jsonl"
MISDEAL = ROOT / "tests" / "sessions" / "misdeal_exposed_robert.jsonl"
BANNER = """() => { const b = document.getElementById('ruling');
  return {cls: b.className, background: getComputedStyle(b).backgroundColor, shown: !b.hidden}; }"""


def banner(browser: Any, room_factory: Any, session: Any, kind: RulingKind, shot: str = "") -> dict[str, Any]:
    clock = Clock()
    room, steps = loaded(room_factory, clock, session=session)
    step = next(s for s in steps if any(r.ruling is kind for r in s.snapshot.unconfirmed))
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(room.url + "/")
        seen = show(page, clock, step)
        if shot:
            keep(page, shot)
        return {**seen, **page.evaluate(BANNER)}
    finally:
        page.close()


def test_wfp_15_upt_19_a_short_blind_is_information_on_the_overlay_not_an_alarm(browser: Any,
                                                                                 room_factory: Any) -> None:
    short = banner(browser, room_factory, SHORT, RulingKind.SHORT_BLIND, "overlay-short-blind-1920x1080.png")
    assert short["shown"] and short["ruling"] == "SHORT BLIND"
    assert short["cls"] == "ruling info"
    assert short["background"] == "rgb(31, 95, 158)"  # the theme's info colour
    misdeal = banner(browser, room_factory, MISDEAL, RulingKind.MISDEAL)
    assert misdeal["cls"] == "ruling"
    assert misdeal["background"] == "rgb(215, 38, 61)"  # a dealer's error keeps the alarm


def test_a_short_blind_is_information_on_the_screens_too() -> None:
    from display import theme  # noqa: PLC0415
    from display.widgets import banner_colours, ruling_colour  # noqa: PLC0415
    from firmware_py.core.rulings import Ruling  # noqa: PLC0415

    def ruling(kind: RulingKind) -> Ruling:
        return Ruling(t=1.0, ruling=kind, rule="upt: Tournaments 19", remedy="-", seat=3)

    assert banner_colours(ruling(RulingKind.SHORT_BLIND))[0] == theme.INFO
    assert ruling_colour(ruling(RulingKind.SHORT_BLIND)) == theme.INFO
    assert banner_colours(ruling(RulingKind.MISDEAL))[0] == theme.ALARM
    assert ruling_colour(ruling(RulingKind.BOXED_CARD)) == theme.ALARM
    assert theme.contrast(theme.TEXT, theme.INFO) >= 4.5  # WCAG AA for the banner's text
