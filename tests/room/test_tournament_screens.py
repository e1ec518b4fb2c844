"""Issue 39 item 6: the room's clock screen (a TV, 1920x1080) and a player's view on a phone (390x844), in Chromium:
what the room posts (level, time, blinds, next level, break, players left, average stack, prize pool, payouts, my
table and seat), nothing else of the director's state; a screen that loses the director says so and stops its
clock."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from firmware_py.commands.tournament import ROOT, build
from firmware_py.room.director_page import director_app
from firmware_py.room.tournament_screens import public_state
from firmware_py.web.server import WebServer
from tests.browser import browser, page  # noqa: F401  (the fixtures)
from tests.room.services import Mosquitto
from tests.room.test_tournament_page import _run, shot
from tests.room.test_tournament_room import _args
from tests.tracker_table import http_pair

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect


def _director(broker: Mosquitto) -> Any:
    director = build(_args(tables="3", players=24, seats=9, seed=5, buy_in=0,
                           structure=str(ROOT / "config/tournament/house-rebuy.toml"),
                           money=str(ROOT / "config/tournament/money/nightly-pko.toml")), "main", sim_clock=True)
    _run(broker, director, 40)
    return director


def test_the_public_state_carries_what_the_room_posts_and_no_more(broker: Mosquitto) -> None:
    director = _director(broker)
    public = public_state(director.state())
    assert set(public) == {"title", "structure", "over", "winner", "level", "next_level", "on_break", "remaining_s",
                           "running", "remaining", "entrants", "average", "pool", "payouts", "late", "overlay",
                           "deal", "places", "seats"}
    assert all(len(v) == 3 for v in public["seats"].values())  # table, seat, name: no chip counts
    assert public["average"] == director.tournament.total_chips() // len(director.tournament.in_play())


def test_the_room_clock_screen_on_a_tv_and_when_it_loses_the_director(broker: Mosquitto,
                                                                       page: Any) -> None:  # noqa: F811
    director = _director(broker)
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(server.url + "/screen")
        state = director.state()
        # the first state: a shared, loaded machine may take a while to start the stream
        expect(page.locator("#levelno")).to_have_text(f"Level {state.level.number}", timeout=15_000)
        expect(page.locator("#blinds")).to_contain_text(f"{state.level.small:,} / {state.level.big:,}")
        expect(page.locator("#stats")).to_contain_text(f"{state.remaining} of {state.entrants}")
        expect(page.locator("#pool")).to_contain_text(f"{state.pool:,}")
        expect(page.locator("#payouts")).to_contain_text(f"1.{state.payouts[0]:,}")
        expect(page.locator("#late")).to_contain_text("late registration through level 4")
        expect(page.locator("#clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
        box = page.locator("#clock").bounding_box()
        assert box is not None and box["height"] > 200  # readable across a room
        shot(page, "tournament-clock-1920x1080.png")
        app.closing = True
        server.stop()
        expect(page.locator("#stale")).to_contain_text("NOT UP TO DATE", timeout=10_000)
        frozen = page.locator("#clock").inner_text()
        page.wait_for_timeout(1500)
        assert page.locator("#clock").inner_text() == frozen  # the clock does not guess
        shot(page, "tournament-clock-stale-1920x1080.png")
    finally:
        app.closing = True
        server.stop()


def test_a_players_phone_shows_the_level_and_its_own_table_and_seat(broker: Mosquitto,
                                                                    page: Any) -> None:  # noqa: F811
    director = _director(broker)
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        # a slow phone: the page's own script arrives after the first state (which must not be lost)
        page.route("**/static/player.js", lambda route: (time.sleep(1.5), route.continue_()))
        page.goto(server.url + "/player")
        me = director.tournament.in_play()[0]
        page.fill("#me", me.name)
        page.click("#meform button")
        expect(page.locator("#seat")).to_have_text(f"Table {me.table}, seat {me.seat}")
        state = director.state()
        expect(page.locator("#blinds")).to_contain_text(f"{state.level.small:,} / {state.level.big:,}")
        expect(page.locator("#payouts")).to_contain_text(f"1.{state.payouts[0]:,}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390  # no sideways scrolling on a phone
        shot(page, "tournament-player-390x844.png")
        page.reload()  # remembered on the phone
        expect(page.locator("#seat")).to_have_text(f"Table {me.table}, seat {me.seat}")
    finally:
        app.closing = True
        server.stop()


def test_the_room_screens_open_without_pairing_and_the_desk_needs_a_paired_session(broker: Mosquitto) -> None:
    """The TV and the players' phones have no code to type: /screen, /player, /public, /public/events and the
    results answer without a session, read-only and public only; the desk's actions and the director's whole
    state answer 401 until the browser pairs; the phones' streams are bounded apart from the director's."""
    director = _director(broker)
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        for path in ("/screen", "/player", "/public", "/results.json", "/results.csv"):
            with urllib.request.urlopen(server.url + path, timeout=5) as answer:
                assert answer.status == 200, path
                body = answer.read().decode()
            assert "pairing code" not in body, path
        with urllib.request.urlopen(server.url + "/public", timeout=5) as answer:
            public = json.loads(answer.read())
        assert "tables" not in public and "refused" not in public and "entries" not in public  # public data only
        with urllib.request.urlopen(server.url + "/public/events", timeout=5) as stream:
            assert stream.readline().decode().startswith("event: state")  # the stream, unpaired
        for path in ("/state", "/events"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(server.url + path, timeout=5)
            assert refused.value.code == 401, path
        bodies = {"/clock": {"run": True}, "/bubble": {"hand_for_hand": True}, "/register": {"name": "Eve"},
                  "/rebuy": {"player": "p0001"}, "/add_on": {"player": "p0001"}, "/undo": {"n": 1},
                  "/deal": {"method": "icm", "agreed": []}, "/deal/preview": {"method": "icm"}}
        entrants = director.tournament.entrants
        for path, body in bodies.items():
            request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                             headers={"Origin": server.url, "Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=5)
            assert refused.value.code == 401, path
        assert director.tournament.entrants == entrants and not director.actions  # nothing acted
        cookie = http_pair(server.url, app.pairing.code)
        request = urllib.request.Request(server.url + "/register", data=b'{"name": "Eve", "seat": 1}', method="POST",
                                         headers={"Origin": server.url, "Content-Type": "application/json",
                                                  "Cookie": cookie})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 400 and "seat" in json.loads(refused.value.read())["error"]  # the schema's
        # a crowd of phones fills only its own share of the streams: the director's own stream still opens
        app.public_limit = 2
        phones = [urllib.request.urlopen(server.url + "/public/events", timeout=5) for _ in range(2)]
        try:
            for phone in phones:
                assert phone.readline().decode().startswith("event: state")
            with pytest.raises(urllib.error.HTTPError) as busy:
                urllib.request.urlopen(server.url + "/public/events", timeout=5)
            assert busy.value.code == 503 and "busy" in json.loads(busy.value.read())["error"]
            paired = urllib.request.Request(server.url + "/events", headers={"Cookie": cookie})
            with urllib.request.urlopen(paired, timeout=5) as stream:
                assert stream.readline().decode().startswith("event: state")
        finally:
            for phone in phones:
                phone.close()
    finally:
        app.closing = True
        server.stop()
