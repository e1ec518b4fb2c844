"""The stream graphic's chip leaders (issue 38 item 6), in a real browser: the room's chip counts from the
director's state, on the same secure delay as the table. Nothing live: a count the director took in after the
hand on air never reaches the picture before its own delay has passed, and none before the first delay."""

from __future__ import annotations

import json
from typing import Any

from tests.overlay.conftest import Clock
from tests.overlay.test_overlay_control import DELAY_S, keep, loaded, show
from tests.overlay.test_overlay_tournament import director_state

LEADERS = """() => {
  const box = document.querySelector('#tournament .leaders');
  if (!box || box.hidden || document.getElementById('tournament').hidden) return null;
  return [...box.querySelectorAll('.leader')].map((p) => [p.querySelector('.who').textContent,
                                                          p.querySelector('.prize').textContent]);
}"""
TOPIC = "pokertable/main/director/tournament"


def with_stacks(seq: int, stacks: dict[str, int]) -> bytes:
    """The director's state with one table of these players (name: chips), seats in order."""
    state = json.loads(director_state(seq, remaining=len(stacks), places=[]))
    state["tables"] = [{"table": "t01", "draw": 1, "button": 1, "acked": seq, "hand": seq, "seats": [
        {"seat": n, "player": f"p{n}", "name": name, "chips": chips}
        for n, (name, chips) in enumerate(stacks.items(), start=1)]}]
    return json.dumps(state).encode()


def test_the_chip_leaders_reach_the_picture_only_after_the_delay(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock)
    dealt = next(s for s in steps if s.snapshot.phase == "betting")
    production = room.production
    first = {"Maya Chen": 9000, "Omar Haddad": 4000, "Lena Ortiz": 12500, "Ivan Petrov": 600, "Zoe Adams": 7000,
             "Noor Ali": 3000, "Tom Reyes": 0}
    assert production.offer_tournament(TOPIC, with_stacks(1, first), dealt.t)
    # the picture over a felt backdrop (keep: a constructed style sheet, which the page's CSP allows)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        clock.now = dealt.t + DELAY_S - 0.5  # nothing of the director's state yet: it serves its delay
        page.wait_for_function("() => window.overlayFrames.length > 0")
        page.wait_for_timeout(300)
        assert page.evaluate(LEADERS) is None
        assert "Lena Ortiz" not in page.inner_text("body")
        show(page, clock, dealt)
        page.wait_for_function(LEADERS.replace("return [...", "return !![..."))  # the list is drawn
        assert page.evaluate(LEADERS) == [["1. Lena Ortiz", "12,500"], ["2. Maya Chen", "9,000"],
                                          ["3. Zoe Adams", "7,000"], ["4. Omar Haddad", "4,000"],
                                          ["5. Noor Ali", "3,000"]]  # five, largest first
        keep(page, "overlay-chip-leaders-1280x720.png")
        # the director takes the next hand in now: live, so not on the picture until its own delay has passed
        later = {**first, "Ivan Petrov": 13000, "Maya Chen": 0}
        production.offer_tournament(TOPIC, with_stacks(2, later), clock.now)
        clock.now += DELAY_S - 1.0
        page.wait_for_timeout(600)  # several pushes at this clock
        assert page.evaluate(LEADERS)[0] == ["1. Lena Ortiz", "12,500"]
        clock.now += 1.1
        page.wait_for_function(
            "() => document.querySelector('#tournament .leader .who').textContent === '1. Ivan Petrov'")
        assert page.evaluate(LEADERS)[:2] == [["1. Ivan Petrov", "13,000"], ["2. Lena Ortiz", "12,500"]]
        assert "Maya Chen" not in [who.split(". ", 1)[1] for who, _chips in page.evaluate(LEADERS)]  # out: not listed
    finally:
        page.close()


def test_the_page_never_gets_a_count_newer_than_the_delay(room_factory: Any) -> None:
    """What the picture is pushed, read on the server's side: the leaders of the state in force, never a newer one."""
    clock = Clock()
    room, steps = loaded(room_factory, clock)
    dealt = next(s for s in steps if s.snapshot.phase == "betting")
    production = room.production
    production.offer_tournament(TOPIC, with_stacks(1, {"Maya Chen": 5000, "Omar Haddad": 4000}), dealt.t)
    production.offer_tournament(TOPIC, with_stacks(2, {"Maya Chen": 1000, "Omar Haddad": 8000}), dealt.t + 5)
    assert production.page(dealt.t + DELAY_S - 0.1)["tournament"] is None
    shown = production.page(dealt.t + DELAY_S)["tournament"]
    assert [r["name"] for r in shown["leaders"]] == ["Maya Chen", "Omar Haddad"]
    assert "tables" not in shown  # the seats themselves never go to the picture
    shown = production.page(dealt.t + 5 + DELAY_S)["tournament"]
    assert [(r["name"], r["chips"]) for r in shown["leaders"]] == [("Omar Haddad", 8000), ("Maya Chen", 1000)]
