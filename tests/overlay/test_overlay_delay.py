"""Nothing newer than the delay is ever in the page: every frame the browser drew during a hand, compared
with the journal's times and with each message's arrival, including across a live change of the delay."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from typing import Any

from tests.overlay.hand import hand_messages
from tests.overlay.page import PAIRED, frames, wait_seq

SPEED = 6.0  # the hand's 18 s of journal time in 3 s
DELAY_S = 1.0
LONGER_S = 2.0


def post(url: str, body: dict[str, Any], *, cookie: str | None = None) -> dict[str, Any]:
    """A POST as the control page makes it, with its own Origin (the served command refuses others) and
    the room's session cookie (paired when served: tests/overlay/page.PAIRED)."""
    origin = "/".join(url.split("/")[:3])
    headers = {"Content-Type": "application/json", "Origin": origin}
    cookie = cookie or PAIRED.get(origin)
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=5) as answer:
        return dict(json.loads(answer.read()))


def test_every_frame_of_a_hand_is_at_least_the_delay_behind_the_journal(browser: Any, room_factory: Any) -> None:
    steps = hand_messages()
    room = room_factory(delay_s=DELAY_S, clock=time.monotonic)
    chances = room.production.chances
    for step in steps:  # computed ahead here (the command has a worker process): the table's pace is kept
        chances.ask(chances.key(step.feed))
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    arrived: dict[int, float] = {}  # seq: wall clock (the browser's Date.now is the same clock)
    changed: list[float] = []
    try:
        page.goto(room.url + "/")
        wait_seq(page, None)
        start = time.time() + 0.2

        def table() -> None:  # the table's events at their journal times, sped up
            for step in steps:
                time.sleep(max(0.0, start + step.t / SPEED - time.time()))
                if step.t >= 9.0 and not changed:  # the producer makes the delay longer mid-hand
                    post(room.url + "/api/control", {"delay_s": LONGER_S})
                    changed.append(time.time())
                arrived[step.seq] = time.time()
                room.production.table("t01").push(step.feed, time.monotonic())

        thread = threading.Thread(target=table)
        thread.start()
        thread.join()
        wait_seq(page, steps[-1].seq, timeout_ms=(LONGER_S + 3) * 1000)
        drawn = frames(page)
    finally:
        page.close()
    assert changed
    on_air = [frame for frame in drawn if frame["seq"] is not None]
    assert len({frame["seq"] for frame in on_air}) >= len(steps) // 2  # the hand went on air, step by step
    journal = {step.seq: step.t for step in steps}
    last_seq = 0
    for frame in drawn:
        at = frame["at"] / 1000.0
        if frame["seq"] is None:
            assert at - start < DELAY_S + 0.5  # empty only before the first message's delay
            continue
        if changed and at >= changed[0] and frame["seq"] < last_seq:
            raise AssertionError("the picture went back in time when the delay grew")
        happened = start + journal[frame["seq"]] / SPEED  # the event's moment at the table
        # The longer delay holds every message not yet due when it was set (the POST had returned by changed[0]);
        # one already due went on air under the shorter one, and a loaded browser may draw it a little later.
        delay = LONGER_S if changed and arrived[frame["seq"]] + DELAY_S >= changed[0] else DELAY_S
        assert at - happened >= delay - 0.005, f"seq {frame['seq']} drawn {at - happened:.3f} s after the table"
        assert at - arrived[frame["seq"]] >= delay - 0.005, f"seq {frame['seq']} {at - arrived[frame['seq']]:.3f} s"
        last_seq = max(last_seq, frame["seq"])
    assert [frame["seq"] for frame in on_air] == sorted(frame["seq"] for frame in on_air)  # never backwards
