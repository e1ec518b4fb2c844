"""The director's page in a real browser (Debian's chromium through Playwright), on a tournament dealt by
simulated tables through a real Mosquitto: the tables and seats, the decisions with their rules, the
clock's start and pause, hand-for-hand and the "all in called" hold, the places and payouts; and the
page's guards (Host, Origin).

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/room/test_tournament_page.py` writes the
screenshots of docs/tournament.md."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from firmware_py.commands.tournament import ROOT, build
from firmware_py.profiles import load_profiles
from firmware_py.room.director_page import director_app
from firmware_py.room.tournament_messages import SeatStack, TableReport
from firmware_py.session import load_deck
from firmware_py.simulation.tournament_sim import simulate_room
from firmware_py.web.server import WebServer
from tests.browser import browser, open_paired, page  # noqa: F401  (the fixtures)
from tests.room.conftest import broker_config
from tests.room.services import Mosquitto
from tests.room.test_tournament_room import _args
from tests.tracker_table import http_pair

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect


def shot(page: Any, name: str) -> None:  # noqa: F811
    folder = os.environ.get("POKERTABLE_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=False)


def _run(broker: Mosquitto, director: Any, hands: int) -> None:
    decks = (load_deck(ROOT / "config/decks/test-red.json"), load_deck(ROOT / "config/decks/test-blue.json"))
    simulate_room(director, broker_config(broker), room="main", profile=load_profiles()["wfp"], decks=decks, seed=5,
                  max_hands=hands, director_client_id="director.page", tables_client_id="tables.page")


def test_director_page_shows_the_room_and_drives_the_clock_and_bubble(broker: Mosquitto, page: Any) -> None:  # noqa: F811
    director = build(_args(tables="5", players=45, seed=5, buy_in=20), "main", sim_clock=True)
    _run(broker, director, 45)
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        open_paired(page, server.url + "/", app.pairing.code)
        expect(page.locator("#title")).to_contain_text("World Free Poker tournament (wfp)")
        tables = page.locator(".table")
        expect(tables.first).to_be_visible()
        assert tables.count() == len(director.tournament.tables)
        expect(page.locator("#decisions")).to_contain_text(re.compile(r"Move .* from t0\d seat \d+ to t0\d seat \d+"))
        expect(page.locator("#decisions .cite").first).to_contain_text("wfp Section 2 WFP Tournament Rules")
        expect(page.locator("#places")).to_contain_text("Payouts 1: 450, 2: 270, 3: 180")
        # the clock: start, then pause (a simulated room's clock is the tables' time, always running)
        page.click("#clockbtn")
        # hand-for-hand, then an all in called at one table: the others hold their next deal
        page.click("#h4hbtn")
        expect(page.locator("#banner")).to_contain_text("Hand-for-hand")
        expect(page.locator("#h4hbtn")).to_have_text("End hand-for-hand")
        first = next(iter(director.tournament.tables))
        director.apply(TableReport(v=1, room="main", table=first, session="manual", seq=1, kind="all_in", hand=99,
                                   t=director.sim_t, draw=director.draws[first]))
        expect(page.locator("#banner")).to_contain_text(f"All in called at {first}")
        held = [t for t in director.tournament.tables if t != first]
        expect(page.locator(f'.table[data-table="{held[0]}"] .holdtext')).to_contain_text("All In / Bubble")
        shot(page, "tournament-director-1280x800.png")
        # the guards: another Host, and a POST from another page, are refused
        request = urllib.request.Request(server.url + "/clock", data=b'{"run": true}', method="POST",
                                         headers={"Origin": "http://evil.example", "Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 403
        # play on to the winner: the page follows by itself
        director.hand_for_hand(False)
        _run(broker, director, 5000)
        expect(page.locator("#winner")).to_contain_text("wins the tournament", timeout=10_000)
        expect(page.locator("#places tr").nth(1)).to_contain_text("450")
        # the end ends everything: the page says so, its buttons are off, the clock is stopped
        expect(page.locator("#over")).to_contain_text("The tournament is over")
        expect(page.locator("#clockbtn")).to_be_disabled()
        expect(page.locator("#h4hbtn")).to_be_disabled()
        expect(page.locator("#clocklabel")).to_have_text("Final time")
        expect(page.locator("#places tr").nth(1)).to_contain_text("last player with chips")
        shot(page, "tournament-director-finished-1280x800.png")
        cookie = http_pair(server.url, app.pairing.code)  # a paired client: refused for the end, not the credential
        over = urllib.request.Request(server.url + "/clock", data=b'{"run": true}', method="POST",
                                      headers={"Origin": server.url, "Content-Type": "application/json",
                                               "Cookie": cookie})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(over, timeout=5)
        assert refused.value.code == 409 and not director.state().running  # over: the clock stays stopped
    finally:
        app.closing = True
        server.stop()


def test_floor_view_shows_the_tournament_moves_and_the_hold(broker: Mosquitto, tmp_path: Path) -> None:
    import json as _json  # noqa: PLC0415

    import pygame  # noqa: PLC0415

    from display.floor import render_floor  # noqa: PLC0415
    from display.render import init_headless, save_png  # noqa: PLC0415
    from firmware_py.room.floor import FloorModel  # noqa: PLC0415
    from firmware_py.room.tournament_messages import DirectorState, director_topic, encode  # noqa: PLC0415

    director = build(_args(tables="5", players=45, seed=5), "main", sim_clock=True)
    _run(broker, director, 60)
    director.hand_for_hand(True)
    first = next(iter(director.tournament.tables))
    director.apply(TableReport(v=1, room="main", table=first, session="manual", seq=1, kind="all_in", hand=99,
                               t=director.sim_t, draw=director.draws[first]))
    table = director.tournament.tables[first]
    books = {s: director.tournament.players[p].chips for s, p in table.seats.items()}
    with pytest.raises(ValueError, match="the pots do not explain"):  # five at 0, nobody gaining: refused
        director.apply(TableReport(
            v=1, room="main", table=first, session="forged", seq=1, kind="hand", hand=10_000, t=director.sim_t,
            draw=director.draws[first], button=min(books),
            start=[SeatStack(seat=s, chips=c) for s, c in sorted(books.items())],
            end=[SeatStack(seat=s, chips=0 if i < 5 else c) for i, (s, c) in enumerate(sorted(books.items()))]))
    model = FloorModel("main")
    model.feed(director_topic("main"), b'{"v": 1, "room": "main"}', now=1.0)  # a bad one: counted, ignored
    assert model.quarantined == 1 and model.tournament is None
    model.feed(director_topic("main"), encode(director.state(), DirectorState), now=1.0)
    for i, table in enumerate(director.tournament.tables):
        status = {"v": 1, "room": "main", "table": table, "session": "s", "seq": i, "online": True, "dealer": "Ada"}
        model.feed(f"pokertable/main/{table}/status", _json.dumps(status).encode(), now=1.0)
    assert model.tournament is not None and model.tournament["hand_for_hand"]
    init_headless()
    surface = pygame.Surface((1920, 1080))
    render_floor(surface, model, now=1.5, title="Room main", clock_text="21:14:05")
    folder = Path(os.environ.get("POKERTABLE_SCREENSHOTS") or tmp_path)
    save_png(surface, folder / "floor-tournament-1920x1080.png")
    assert any(d["kind"] == "moved" for d in model.tournament["decisions"])
    assert "the pots do not explain" in model.tournament["refused"][0]["reason"]


def test_director_page_shows_refused_reports_and_says_when_it_has_lost_the_director(broker: Mosquitto,
                                                                                    page: Any) -> None:  # noqa: F811
    from firmware_py.room.director import Refused  # noqa: PLC0415

    director = build(_args(tables="5", players=45, seed=5, buy_in=0), "main")
    _run(broker, director, 30)
    director.start_clock()
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        open_paired(page, server.url + "/", app.pairing.code)
        expect(page.locator("#nopool")).to_contain_text("No prize pool configured")
        # a forged report from t01 (five players at 0, nobody gaining): refused, shown with its reason
        table = director.tournament.tables["t01"]
        books = {s: director.tournament.players[p].chips for s, p in table.seats.items()}
        end = {s: (0 if i < 5 else c) for i, (s, c) in enumerate(sorted(books.items()))}
        forged = TableReport(v=1, room="main", table="t01", session="forged", seq=1, kind="hand", hand=10_000,
                             t=director.elapsed(), draw=director.draws["t01"], button=min(books), big_blind=None,
                             start=[SeatStack(seat=s, chips=c) for s, c in sorted(books.items())],
                             end=[SeatStack(seat=s, chips=c) for s, c in sorted(end.items())])
        with pytest.raises(Refused):
            director.apply(forged)
        expect(page.locator("#refusedbox")).to_be_visible()
        expect(page.locator("#refused")).to_contain_text("the pots do not explain")
        expect(page.locator("#refused")).to_contain_text("t01")
        shot(page, "tournament-director-refused-1280x800.png")
        # the director goes away: the page says so within seconds and its clock stops counting down
        expect(page.locator("#stale")).to_be_hidden()
        app.closing = True
        server.stop()
        expect(page.locator("#stale")).to_contain_text("Lost the director", timeout=10_000)
        expect(page.locator("#clockbtn")).to_be_disabled()
        shown = page.locator("#clock").inner_text()
        page.wait_for_timeout(2500)
        assert page.locator("#clock").inner_text() == shown
        shot(page, "tournament-director-stale-1280x800.png")
    finally:
        app.closing = True
        server.stop()


def test_director_page_registers_a_late_entry_shows_its_seat_and_undoes_it(broker: Mosquitto,
                                                                           page: Any) -> None:  # noqa: F811
    """Issue 39 item 1 on the page, in Chromium: the form registers a late entry (name and player card), the
    entry is listed with its payment and drawn to a seat; Undo takes it back (seat open, payment returned);
    a request outside the window answers 409 with the director's reason."""
    director = build(_args(tables="2", players=15, seats=9, seed=5, buy_in=20,
                           structure=str(ROOT / "config/tournament/house-rebuy.toml")), "main", sim_clock=True)
    _run(broker, director, 4)
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        open_paired(page, server.url + "/", app.pairing.code)
        expect(page.locator("#late")).to_contain_text("late registration through level 4, 1 re-entry a player")
        page.fill("#regname", "Ada <b>Late</b>")
        page.fill("#regcard", "CARD-9")
        page.click("#regform button")
        expect(page.locator("#entries")).to_contain_text(
            "1. entry: Ada <b>Late</b> (card CARD-9), 1,500 chips, paid 20")
        entry = director.actions[0]
        player = director.tournament.players[entry.player]
        assert player.table is not None and player.card == "CARD-9" and director.pool == 16 * 20
        expect(page.locator(f".table[data-table='{player.table}']")).to_contain_text("Ada <b>Late</b>")
        shot(page, "tournament-director-registration-1280x800.png")
        page.click("#entries button")  # Undo
        expect(page.locator("#entries")).to_contain_text("undone")
        assert entry.player not in director.tournament.players and director.pool == 15 * 20
        short = min(director.tournament.in_play(), key=lambda p: p.chips)  # at or below 1,500: may rebuy
        page.fill("#buyid", short.id)
        page.click("#rebuybtn")
        expect(page.locator("#entries")).to_contain_text(f"2. rebuy: {short.name}, 1,500 chips, paid 20")
        director.sim_t = 4 * 15 * 60 + 10 * 60 + 1  # level 5: late registration closed
        body = json.dumps({"name": "Too late"}).encode()
        request = urllib.request.Request(server.url + "/register", data=body, method="POST", headers={
            "Content-Type": "application/json", "Origin": server.url})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 401  # the desk's actions need a paired session
        request.add_header("Cookie", http_pair(server.url, app.pairing.code))
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 409
        assert "through level 4 and the clock is at level 5" in json.loads(refused.value.read())["error"]
        with urllib.request.urlopen(server.url + "/results.csv", timeout=5) as answer:  # open: no credential
            assert answer.read().decode().startswith("place,shared,entry,name,card,re_entry_of,prize,bounties,")
    finally:
        server.stop()


def test_director_page_shows_an_icm_split_and_records_the_deal_only_when_every_player_agrees(
        page: Any) -> None:  # noqa: F811
    from tests.tournament.test_money import _director  # noqa: PLC0415
    from tests.tournament.test_registration import Hands  # noqa: PLC0415

    director = _director()
    hands = Hands(director)
    while len(director.tournament.in_play()) > 3:
        table = max(director.tournament.tables.values(), key=lambda t: len(t.seats))
        hands.seq.setdefault(table.id, director.acked.get(table.id, 0))
        chips = director.tournament.players
        hands.play(table.id, losers=[min(table.seats, key=lambda s: chips[table.seats[s]].chips)])
    app = director_app(director, hosts=[])
    server = WebServer(app, host="127.0.0.1", port=0, name="tournament page").start()
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        open_paired(page, server.url + "/", app.pairing.code)
        expect(page.locator("#dealbox")).to_be_visible()
        page.fill("#playfor", "100")
        page.click("#previewbtn")
        rows = page.locator("#dealrows label")
        expect(rows).to_have_count(3)
        preview = director.deal_preview("icm", play_for=100)
        for i, share in enumerate(preview.shares):
            expect(rows.nth(i)).to_contain_text(f"{share.name} ({share.chips:,} chips): {share.share:,} agrees")
        boxes = page.locator("#dealrows input")
        boxes.nth(0).check()
        boxes.nth(1).check()
        expect(page.locator("#dealbtn")).to_be_disabled()  # the third has not agreed
        boxes.nth(2).check()
        shot(page, "tournament-director-deal-1280x800.png")
        page.click("#dealbtn")
        expect(page.locator("#dealdone")).to_contain_text("Deal (icm) agreed by")
        assert director.deal is not None and [s.share for s in director.deal.shares] == [
            s.share for s in preview.shares]
    finally:
        app.closing = True
        server.stop()
