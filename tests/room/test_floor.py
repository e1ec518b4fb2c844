"""The floor view: its bookkeeping from the room's messages, its picture at 50 tables in 1080p, and the
`floor` command against a real broker and a simulated table."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from display import theme
from display.floor import STATUS_COLOURS, render_floor, tile_rects
from display.render import init_headless
from firmware_py.room.floor import FloorModel
from tests.room.conftest import ROOT, table_file
from tests.room.samples import message, room_of
from tests.room.services import Mosquitto
from tests.room.test_publisher import environment, journal_truth, simulate


def ruling(seq: int, n: int = 0, kind: str = "misdeal", dealer: str = "Ana") -> dict[str, object]:
    return message("ruling", "t07", seq, session="abc", n=n, dealer=dealer,
                   ruling={"t": 1.0, "ruling": kind, "rule": "robert: Misdeals 1(a)", "remedy": "Redeal."})


def test_a_ruling_delivered_twice_is_counted_once_for_the_table_and_its_dealer() -> None:
    model = FloorModel("main")
    for body in (ruling(5), ruling(5), ruling(6, kind="exposed_card"), ruling(6, kind="exposed_card"),
                 ruling(9, kind="showdown")):
        model.feed("pokertable/main/t07/ruling", body, now=0.0)
    view = model.table("t07")
    assert view is not None
    assert (view.misdeals_seen, view.irregularities_seen) == (1, 2)  # a showdown is no irregularity
    assert model.duplicates == 2
    assert vars(model.dealers()["Ana"]) == {"misdeals": 1, "irregularities": 2}


def test_status_follows_the_state_and_the_last_will_and_a_silent_table_goes_offline() -> None:
    model = FloorModel("main")
    topic = "pokertable/main/t07/"
    model.feed(topic + "status", message("status", "t07", 0, heartbeat_s=2), now=0.0)
    model.feed(topic + "state", message("state", "t07", 10, status="flop"), now=0.0)
    view = model.table("t07")
    assert view is not None and view.status(1.0) == "flop"
    model.feed(topic + "state", message("state", "t07", 8, status="dealing"), now=1.0)  # an older one, redelivered
    assert view.status(1.0) == "flop"
    assert view.status(7.5) == "offline"  # three heartbeats (2 s) missed since the last message
    model.feed(topic + "heartbeat", message("heartbeat", "t07", 10), now=7.5)
    assert view.status(7.6) == "flop"
    model.feed(topic + "status", message("status", "t07", 10, online=False, reason="connection lost"), now=8.0)
    assert view.status(8.0) == "offline" and view.offline_reason == "connection lost"


def test_messages_of_another_room_or_kind_are_ignored_and_another_version_is_quarantined() -> None:
    model = FloorModel("main")
    model.feed("pokertable/other/t1/state", message("state", "t1", room="other"), now=0.0)
    model.feed("pokertable/main/t1/hand", message("hand", "t1"), now=0.0)
    assert model.tables() == [] and model.ignored == 2
    model.feed("pokertable/main/t1/state", {**message("state", "t1"), "v": 2}, now=0.0)
    model.feed("somewhere/else", message("state", "t1"), now=0.0)
    assert model.quarantined == 2
    view = model.table("t1")
    assert view is not None and view.status(1.0) == "bad_message" and view.bad_reason.startswith("state: ")
    assert view.status(61.0) == "offline"  # the fault tile for a minute after the last bad message


def test_fifty_tables_fit_a_1080p_screen_in_readable_tiles() -> None:
    rects = tile_rects(50, (1920, 1080))
    assert min(r.height for r in rects) >= 130 and min(r.width for r in rects) >= 170  # ids 28 px, lines 18 px
    assert all(r.right <= 1920 * 0.76 and r.bottom <= 1080 for r in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    init_headless()
    surface = pygame.Surface((1920, 1080))
    model = room_of(50)
    render_floor(surface, model, now=1000.0, title="Room main", clock_text="21:14:05")
    tables = model.tables()
    assert tables[16].status(1000.0) == "fault" and tables[22].status(1000.0) == "offline"
    colours = set()
    for view, rect in zip(tables, rects, strict=True):
        colour = tuple(surface.get_at((rect.centerx, rect.top + round(rect.height * 0.3) - 2)))[:3]  # status band
        colours.add(colour)
        assert colour == STATUS_COLOURS[view.status(1000.0)], view.table
    assert theme.ALARM in colours and STATUS_COLOURS["offline"] in colours


def test_floor_command_shows_the_table_state_a_simulated_table_ends_with(tmp_path: Path, broker: Mosquitto) -> None:
    dump, picture = tmp_path / "floor.json", tmp_path / "floor.png"
    floor = subprocess.Popen([sys.executable, "-m", "firmware_py", "floor", "--room", "main", "--broker",
                              f"127.0.0.1:{broker.port}", "--headless", "--dump", str(dump), "--snapshot",
                              str(picture), "--size", "1280x720"], cwd=ROOT, env=environment(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.5)
        journal = tmp_path / "t01.sqlite3"
        simulate(table_file(tmp_path, port=broker.port), journal, hands=10)
        rulings, final = journal_truth(journal)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if dump.exists() and json.loads(dump.read_text())["tables"].get("t01", {}).get("digest") == final["digest"]:
                break
            time.sleep(0.2)
    finally:
        floor.terminate()
        _out, err = floor.communicate(timeout=30)
    assert floor.returncode == 0, err
    seen = json.loads(dump.read_text())
    table = seen["tables"]["t01"]
    assert table["digest"] == final["digest"]
    assert table["status"] == "offline"  # the table stopped and said so
    # The floor counted each ruling it received once; the table counted them from its journal: the same.
    assert rulings and table["counts"]["irregularities"] == seen["dealers"]["Dana"]["irregularities"] > 0
    assert table["counts"]["misdeals"] == seen["dealers"]["Dana"]["misdeals"]
    assert picture.stat().st_size > 10_000


@pytest.mark.parametrize("argv, message", [
    (["--room", "a+b", "--headless", "--dump", "x"], "--room 'a+b' may hold only letters"),
    (["--room", "main", "--headless"], "--headless needs --snapshot FILE.png or --dump FILE.json"),
    (["--room", "main", "--size", "big", "--headless", "--dump", "x"], "--size 'big' is not a size"),
    (["--room", "main", "--ca-file", "/nonexistent", "--tls", "--headless", "--dump", "x"],
     "--ca-file /nonexistent: no such file"),
])
def test_floor_command_bad_options_are_named(argv: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-m", "firmware_py", "floor", *argv], cwd=ROOT, env=environment(),
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def _stopped_table(model: FloorModel, name: str, *, at: float) -> None:
    topic = f"pokertable/main/{name}/"
    model.feed(topic + "status", message("status", name, 0, session="abc", heartbeat_s=2), now=0.0)
    model.feed(topic + "state", message("state", name, 40, session="abc"), now=0.0)
    model.feed(topic + "status", message("status", name, 40, session="abc", online=False, reason="stopped"), now=at)


def test_a_stopped_table_is_retired_after_the_time_given_and_comes_back_when_it_is_heard_from() -> None:
    model = FloorModel("main")
    _stopped_table(model, "t07", at=10.0)
    topic = "pokertable/main/t07/"
    model.feed("pokertable/main/t08/heartbeat", message("heartbeat", "t08", 1, session="abc"), now=30.0)  # online
    assert model.retire(39.0, offline_for_s=30) == []  # offline for 29 s only
    assert model.retire(40.0, offline_for_s=30) == ["t07"]
    assert [v.table for v in model.tables()] == ["t08"]
    # What the broker delivers again (the retained state and status, after a reconnect) keeps it off the floor
    model.feed(topic + "state", message("state", "t07", 40, session="abc"), now=41.0)
    model.feed(topic + "status", message("status", "t07", 40, session="abc", online=False, reason="stopped"),
               now=41.0)
    assert [v.table for v in model.tables()] == ["t08"]
    # ... and the table started again is back
    model.feed(topic + "status", message("status", "t07", 41, session="abc", heartbeat_s=2), now=50.0)
    assert model.table("t07") is not None and model.table("t07").status(50.0) == "idle"


def test_a_table_gone_silent_counts_offline_from_its_missed_heartbeats() -> None:
    model = FloorModel("main")
    model.feed("pokertable/main/t07/status", message("status", "t07", 0, session="abc", heartbeat_s=2), now=0.0)
    view = model.table("t07")
    assert view.offline_for(5.0) is None and view.offline_for(16.0) == 10.0  # silent since 0 + 3 beats of 2 s
    assert model.retire(16.0, offline_for_s=11) == [] and model.retire(16.0, offline_for_s=10) == ["t07"]


def test_r_in_the_floor_window_retires_every_offline_table_and_esc_closes_it() -> None:
    import argparse  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from firmware_py.commands import floor  # noqa: PLC0415

    model = FloorModel("main")
    _stopped_table(model, "t07", at=0.0)
    model.feed("pokertable/main/t08/heartbeat", message("heartbeat", "t08", 1, session="abc"), now=time.monotonic())
    init_headless()
    ticks = []
    for key in (pygame.K_r, pygame.K_ESCAPE):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    status = floor._window(model, "main", (640, 360), argparse.Namespace(windowed=True), stop=threading.Event(),
                           deadline=time.monotonic() + 10, every_frame=lambda: ticks.append(1))
    assert status == 0 and ticks  # closed by Esc, after one frame (which did the dump and the retiring)
    assert [v.table for v in model.tables()] == ["t08"]


def test_the_floor_header_counts_in_the_singular_for_one() -> None:
    from display import floor as floor_view  # noqa: PLC0415

    model = FloorModel("main")
    model.feed("pokertable/main/t07/status", message("status", "t07", 0, session="abc", heartbeat_s=2), now=0.0)
    model.feed("pokertable/main/t07/state", message("state", "t07", 3, session="abc", status="flop",
                                                    open_rulings=[ruling(3)["ruling"]]), now=0.0)
    drawn: list[str] = []
    original = theme.draw_text
    init_headless()
    try:
        floor_view.theme.draw_text = lambda surface, text, *a, **k: drawn.append(text) or original(surface, text,
                                                                                                  *a, **k)
        render_floor(pygame.Surface((1280, 720)), model, now=1.0, title="Room main", clock_text="12:00:00")
    finally:
        floor_view.theme.draw_text = original
    assert "1 table   1 open ruling" in drawn, drawn


def test_floor_dump_is_written_every_second_with_a_window_too(tmp_path: Path, broker: Mosquitto) -> None:
    dump = tmp_path / "floor.json"
    floor = subprocess.Popen([sys.executable, "-m", "firmware_py", "floor", "--room", "main", "--broker",
                              f"127.0.0.1:{broker.port}", "--windowed", "--size", "640x360", "--dump", str(dump),
                              "--seconds", "30"], cwd=ROOT, env={**environment(), "SDL_VIDEODRIVER": "dummy"},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        written = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(set(written)) < 3:
            if dump.exists():
                written.append(dump.stat().st_mtime_ns)
            time.sleep(0.2)
        assert floor.poll() is None  # still running: the dumps came from the window's loop, not the stop
        assert len(set(written)) >= 3, written
        assert json.loads(dump.read_text())["room"] == "main"
    finally:
        floor.terminate()
        floor.communicate(timeout=30)


def test_retained_bad_states_show_as_fault_tiles_at_every_start_and_the_good_table_still_shows(
        tmp_path: Path, broker: Mosquitto) -> None:
    from firmware_py.room.mqtt import make_client  # noqa: PLC0415
    from tests.room.conftest import broker_config  # noqa: PLC0415
    from tests.room.poison import KIND_MUTATIONS, MUTATIONS, good  # noqa: PLC0415

    names = sorted({**MUTATIONS, **KIND_MUTATIONS["state"]})
    client = make_client(broker_config(broker), client_id="poisoner")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    infos = []
    for number, name in enumerate(names, start=1):  # one retained bad state per table, every way there is
        mutate = {**MUTATIONS, **KIND_MUTATIONS["state"]}[name]
        result = mutate(good("state", f"t{number}", 5), random.Random(number))
        payload = result if isinstance(result, bytes) else json.dumps(result).encode()
        infos.append(client.publish(f"pokertable/main/t{number}/state", payload, qos=1, retain=True))
    infos.append(client.publish("pokertable/main/good/state", json.dumps(good("state", "good", 5)).encode(), qos=1,
                                retain=True))
    infos.append(client.publish("pokertable/main/good/status", json.dumps(message("status", "good", 0)).encode(),
                                qos=1, retain=True))
    for info in infos:
        info.wait_for_publish(timeout=10)
    client.disconnect()
    client.loop_stop()
    for start in range(2):  # the retained poison is there at every start
        dump = tmp_path / f"floor{start}.json"
        result = subprocess.run([sys.executable, "-m", "firmware_py", "floor", "--room", "main", "--broker",
                                 f"127.0.0.1:{broker.port}", "--headless", "--seconds", "3", "--dump", str(dump),
                                 "--client-id", f"floor.start{start}"], cwd=ROOT, env=environment(),
                                capture_output=True, text=True, timeout=60, check=False)
        assert result.returncode == 0 and "Traceback" not in result.stdout + result.stderr, result.stderr[-1500:]
        seen = json.loads(dump.read_text())
        assert seen["quarantined"] == len(names) - 1  # an empty retained payload clears the retained message
        statuses = {table: view["status"] for table, view in seen["tables"].items()}
        assert statuses.pop("good") == "flop"
        assert set(statuses.values()) == {"bad_message"} and len(statuses) <= len(names)
