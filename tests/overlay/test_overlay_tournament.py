"""The stream graphic shows the tournament (issue 20, item 3: places on the broadcast feed): players left,
hand-for-hand, the latest places with their prizes and the winner, in a real browser, on the same secure
delay as the table: a bust-out never reaches the picture before the hand that caused it."""

from __future__ import annotations

import json
from typing import Any

from tests.overlay.conftest import Clock
from tests.overlay.test_overlay_control import DELAY_S, keep, loaded, show

READ = """() => {
  const box = document.getElementById('tournament');
  if (box.hidden) return null;
  return { title: box.querySelector('.title').textContent, left: box.querySelector('.left').textContent,
           hfh: !box.querySelector('.hfh').hidden,
           places: [...box.querySelectorAll('.place')].map((p) => [p.querySelector('.who').textContent,
                                                                   p.querySelector('.prize').textContent]) };
}"""


def director_state(seq: int, *, remaining: int, places: list[tuple[int, str]], hand_for_hand: bool = False,
                   winner: str = "") -> bytes:
    """The director's state as it publishes it (firmware_py/room/tournament_messages.py, checked on the way in)."""
    payouts = [4500, 2700, 1800, 1200, 900]
    return json.dumps({
        "v": 1, "room": "main", "seq": seq, "session": "run1", "profile": "wfp", "title": "WFP Thursday",
        "structure": "wfp-nightly", "level": {"number": 6, "small": 300, "big": 600}, "next_level": None,
        "on_break": False, "remaining_s": 600.0, "running": True, "entrants": 45, "remaining": remaining,
        "chips_in_play": 67500, "tables": [], "decisions": [],
        "places": [{"place": place, "player": f"p{place}", "name": name,
                    "prize": payouts[place - 1] if place <= len(payouts) else 0} for place, name in places],
        "payouts": payouts, "hand_for_hand": hand_for_hand, "all_in": [], "winner": winner}).encode()


def tournament(page: Any) -> dict[str, Any] | None:
    result = page.evaluate(READ)
    return None if result is None else dict(result)


def test_the_overlay_shows_places_and_prizes_only_after_the_delay(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock)
    dealt = next(s for s in steps if s.snapshot.phase == "betting")
    busted = [(45 - i, f"Player {45 - i}") for i in range(39)] + [(6, "Dana Reyes")]  # 40 out, 6th the latest
    production = room.production
    assert production.offer_tournament("pokertable/main/director/tournament",
                                       director_state(1, remaining=6, places=busted, hand_for_hand=False), dealt.t)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        clock.now = dealt.t + DELAY_S - 0.5  # the hand is not on air yet, nor is the bust-out
        page.wait_for_function("() => window.overlayFrames.length > 0")
        page.wait_for_timeout(300)  # several pushes at this clock
        assert tournament(page) is None
        show(page, clock, dealt)
        page.wait_for_function("() => !document.getElementById('tournament').hidden")
        seen = tournament(page)
        assert seen == {"title": "WFP Thursday", "left": "6 of 45 left", "hfh": False,
                        "places": [["6th Dana Reyes", ""], ["7th Player 7", ""], ["8th Player 8", ""]]}
        keep(page, "overlay-tournament.png")
    finally:
        page.close()


def test_the_overlay_shows_hand_for_hand_shared_places_and_the_winner(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock)
    dealt = next(s for s in steps if s.snapshot.phase == "betting")
    production = room.production
    topic = "pokertable/main/director/tournament"
    out = [(45 - i, f"Player {45 - i}") for i in range(39)]
    production.offer_tournament(topic, director_state(1, remaining=6, places=out, hand_for_hand=True), dealt.t - 5)
    shared = json.loads(director_state(2, remaining=4, places=out))
    shared["places"] += [{"place": 5, "player": "p5", "name": "Ann", "shared": [5, 6], "prize": 1050},
                         {"place": 5, "player": "p6", "name": "Bo", "shared": [5, 6], "prize": 1050}]
    production.offer_tournament(topic, json.dumps(shared).encode(), dealt.t - 3)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        clock.now = dealt.t - 5 + DELAY_S + 0.1  # the hand-for-hand state is on air, the next not yet
        page.wait_for_function("() => !document.getElementById('tournament').hidden")
        seen = tournament(page)
        assert seen is not None and seen["hfh"] and seen["left"] == "6 of 45 left"
        clock.now = dealt.t - 3 + DELAY_S + 0.1
        page.wait_for_function("() => document.querySelector('#tournament .left').textContent === '4 of 45 left'")
        seen = tournament(page)
        assert seen is not None and not seen["hfh"]
        assert seen["places"][:2] == [["5th-6th Ann", "1,050"], ["5th-6th Bo", "1,050"]]
        winner = json.loads(director_state(3, remaining=1, places=[*out, (6, "Ann"), (5, "Bo"), (4, "Cy"), (3, "Di"),
                                                                     (2, "Ed"), (1, "Flo")], winner="Flo"))
        production.offer_tournament(topic, json.dumps(winner).encode(), clock.now)
        clock.now += DELAY_S
        page.wait_for_function("() => document.querySelector('#tournament .place.winner') !== null")
        seen = tournament(page)
        assert seen is not None and seen["left"] == ""
        assert seen["places"] == [["Winner: Flo", "4,500"], ["2nd Ed", "2,700"], ["3rd Di", "1,800"],
                                  ["4th Cy", "1,200"]]
        keep(page, "overlay-tournament-winner.png")
    finally:
        page.close()
