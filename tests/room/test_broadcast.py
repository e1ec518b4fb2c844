"""The broadcast off the table: the production machine holds every message for the whole delay from its
arrival, for the picture and for the JSON feed alike; the table may also hold its messages back."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from firmware_py.room.broadcast import DelayedFeed, Production, snapshot_from_broadcast
from firmware_py.room.overlay import make_app
from firmware_py.room.overlay_theme import load_theme
from firmware_py.web.server import serve
from tests.room.conftest import ROOT, Listener, broker_config, table_file
from tests.room.samples import message
from tests.room.services import Mosquitto, free_port
from tests.room.test_publisher import environment, simulate

MESSAGE = message("broadcast", "t01", 7, session="s", t=12.0, profile_title="Robert", hand=3, phase="betting",
                  street="flop", board=["Ah", "7c", "2d"], button=1, small_blind=2, big_blind=3, to_act=2,
                  in_play="red", seats=[{"seat": 1, "name": "Ada", "state": "active", "cards": ["Ks", "Kd"]},
                                        {"seat": 2, "name": "Bo", "state": "active", "cards": ["Qh", "Jh"]}])


def test_nothing_is_on_air_or_in_the_feed_before_the_whole_delay_from_arrival() -> None:
    feed = DelayedFeed(delay_s=30.0, room="main", table="t01")
    feed.offer("pokertable/main/t01/broadcast", MESSAGE, 100.0)
    for now in (100.0, 110.0, 129.99):
        assert feed.on_air(now) is None
        text = json.dumps(feed.feed(now))
        assert "Ks" not in text and "Qh" not in text and '"on_air": null' in text
    assert feed.on_air(130.0).seq == MESSAGE["seq"]
    assert list(feed.feed(130.0)["on_air"]["seats"][0]["cards"]) == ["Ks", "Kd"]


def test_a_message_for_another_table_never_goes_on_air() -> None:
    feed = DelayedFeed(delay_s=1.0, room="main", table="t01")
    feed.offer("pokertable/main/t02/broadcast", {**MESSAGE, "table": "t02"}, 0.0)
    assert feed.on_air(10.0) is None and feed.rejected == 1


def test_broadcast_message_becomes_the_snapshot_the_broadcast_view_draws() -> None:
    snapshot = snapshot_from_broadcast(MESSAGE)
    assert snapshot.seat(1).cards == ("Ks", "Kd") and snapshot.seat(1).is_button
    assert snapshot.board == ("Ah", "7c", "2d") and str(snapshot.street) == "flop" and snapshot.burns == ()


def test_feed_serves_only_on_loopback_with_a_transparent_page() -> None:
    production = Production(room="main", feature="t01", delay_s=5.0)
    server = serve(make_app(production, load_theme()))
    try:
        assert server.host == "127.0.0.1"
        page = urllib.request.urlopen(f"{server.url}/", timeout=5).read().decode()
        style = urllib.request.urlopen(f"{server.url}/static/overlay.css", timeout=5).read().decode()
        assert "overlay.js" in page and "background: transparent" in style
        body = json.loads(urllib.request.urlopen(f"{server.url}/feed.json", timeout=5).read())
        assert body["on_air"] is None and body["table"] == "t01"
    finally:
        server.stop()


def fetch(port: int) -> dict[str, object] | None:
    try:
        return json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/feed.json", timeout=2).read())
    except OSError:
        return None


def test_broadcast_command_feeds_each_picture_no_earlier_than_the_delay(tmp_path: Path, broker: Mosquitto) -> None:
    delay, port = 4.0, free_port()
    watcher = Listener(broker_config(broker), "pokertable/main/t01/broadcast", client_id="arrivals")
    arrivals: dict[int, float] = {}
    original = watcher.client.on_message

    def on_message(client: object, userdata: object, message: object) -> None:
        body = json.loads(message.payload)  # type: ignore[attr-defined]
        arrivals.setdefault(body["seq"], time.monotonic())
        original(client, userdata, message)

    watcher.client.on_message = on_message
    assert watcher.wait_connected()
    picture = tmp_path / "broadcast.png"
    command = subprocess.Popen([sys.executable, "-m", "firmware_py", "broadcast", "--room", "main", "--table", "t01",
                                "--broker", f"127.0.0.1:{broker.port}", "--delay", str(delay), "--headless",
                                "--feed-port", str(port), "--snapshot", str(picture), "--size", "800x480"],
                               cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    table = None
    try:
        assert any(fetch(port) for _ in range(50) if time.sleep(0.1) is None)
        table = subprocess.Popen([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                                  "--hands", "40", "--speed", "20", "--config", str(table_file(tmp_path,
                                  port=broker.port)), "--journal", str(tmp_path / "t.sqlite3")], cwd=ROOT,
                                 env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen: list[tuple[float, int]] = []
        deadline = time.monotonic() + delay + 8
        while time.monotonic() < deadline:
            body = fetch(port)
            now = time.monotonic()
            if body and body["on_air"]:
                seen.append((now, int(body["on_air"]["seq"])))  # type: ignore[index]
            time.sleep(0.05)
    finally:
        if table is not None:
            table.terminate()
            table.wait(30)
        command.terminate()
        command.communicate(timeout=30)
        watcher.close()
    assert len({seq for _t, seq in seen}) > 5
    first_arrival = min(arrivals.values())
    for when, seq in seen:
        # The watcher and the command hear the broker at the same moment, give or take a few ms.
        assert when - arrivals[seq] >= delay - 0.25, f"seq {seq} on air {when - arrivals[seq]:.2f} s after it came"
        assert when >= first_arrival + delay - 0.25
    assert picture.stat().st_size > 5_000


def test_table_holds_broadcast_messages_back_when_configured(tmp_path: Path, broker: Mosquitto) -> None:
    listener = Listener(broker_config(broker), "pokertable/main/t01/broadcast", "pokertable/main/t01/state")
    stamps: list[tuple[float, str, int]] = []
    original = listener.client.on_message

    def on_message(client: object, userdata: object, message: object) -> None:
        body = json.loads(message.payload)  # type: ignore[attr-defined]
        stamps.append((time.monotonic(), message.topic.rsplit("/", 1)[-1], body["seq"]))  # type: ignore[attr-defined]
        original(client, userdata, message)

    listener.client.on_message = on_message
    assert listener.wait_connected()
    table = subprocess.Popen([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                              "--hands", "40", "--speed", "20", "--config",
                              str(table_file(tmp_path, port=broker.port, extra="broadcast_hold_s = 2")),
                              "--journal", str(tmp_path / "t.sqlite3")], cwd=ROOT, env=environment(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert listener.wait_for(lambda: len(listener.of("broadcast")) > 10, timeout=30)
    finally:
        table.terminate()
        table.wait(30)
        listener.close()
    first_state = min(t for t, kind, _seq in stamps if kind == "state")
    first_broadcast = min(t for t, kind, _seq in stamps if kind == "broadcast")
    assert first_broadcast - first_state >= 1.9
    assert all(m["held_s"] == 2.0 for m in listener.of("broadcast"))


def test_a_table_stopping_drops_held_broadcast_messages_rather_than_send_them_early(tmp_path: Path,
                                                                                  broker: Mosquitto) -> None:
    listener = Listener(broker_config(broker), "pokertable/main/t01/broadcast", "pokertable/main/t01/status")
    assert listener.wait_connected()
    simulate(table_file(tmp_path, port=broker.port, extra="broadcast_hold_s = 30"), tmp_path / "t.sqlite3", hands=3)
    assert listener.wait_for(lambda: any(m.get("reason") == "stopped" for m in listener.of("status")))
    time.sleep(0.5)
    listener.close()
    assert listener.of("broadcast") == []


@pytest.mark.parametrize("argv, message", [
    (["--delay", "0"], "--delay 0 puts live hole cards on the picture: add --allow-zero-delay"),  # the flag to use
    (["--delay", "-5"], "argument --delay: '-5' must be at least zero"),
    (["--feed-port", "70000"], "--feed-port 70000"),
    (["--size", "huge"], "--size is e.g. 1920x1080"),
])
def test_broadcast_command_bad_options_are_named(argv: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-m", "firmware_py", "broadcast", "--room", "main", "--table", "t01",
                             "--headless", *argv], cwd=ROOT, env=environment(), capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


CONTROL_TOPIC = "pokertable/main/production/control"


def control(**changes: object) -> dict[str, object]:
    return {"feature": "t01", "reveal": {}, "chips": "amounts", "delay_s": 120.0, "stamp": 1000.0, "by": "primary",
            **changes}


@pytest.mark.parametrize("delay_s", [0.001, 0, 9.99, -1, 1800.5, 1e9])
def test_a_delay_out_of_its_bounds_is_refused_from_the_page_and_from_the_broker_and_counted(delay_s: float) -> None:
    """Issue 34: one message set the delay to 0.001 s. The floor and ceiling are in firmware_py/room/bounds.py."""
    from firmware_py.room.bounds import DELAY_CEILING_S, DELAY_FLOOR_S  # noqa: PLC0415
    from firmware_py.room.broadcast import ControlError  # noqa: PLC0415

    production = Production(room="main", feature="t01", delay_s=120.0, wall=lambda: 900.0)
    with pytest.raises(ControlError, match=f"from {DELAY_FLOOR_S:g} to {DELAY_CEILING_S:g} seconds"):
        production.change(delay_s=delay_s)
    production.offer(CONTROL_TOPIC, json.dumps(control(delay_s=delay_s)).encode(), 0.0)
    assert production.control.delay_s == 120.0 and production.control_refused == 1
    status = production.operator(0.0)
    assert status["control_refused"] == 1 and "control message refused: delay_s" in status["faults"][0]
    production.offer(CONTROL_TOPIC, json.dumps(control(delay_s=DELAY_FLOOR_S)).encode(), 0.0)
    assert production.control.delay_s == DELAY_FLOOR_S  # the floor itself is allowed
    production.close()


def test_an_instance_started_with_a_short_delay_has_it_as_its_floor() -> None:
    production = Production(room="main", feature="t01", delay_s=2.0)
    production.change(delay_s=2.0)
    with pytest.raises(ValueError, match="from 2 to"):
        production.change(delay_s=1.0)
    production.close()


def test_an_older_retained_control_never_lowers_this_instances_own_delay() -> None:
    """Issue 34: a restarted instance started at stamp 0, so an older retained control overrode its --delay."""
    production = Production(room="main", feature="t01", delay_s=300.0, wall=lambda: 2000.0)
    production.offer(CONTROL_TOPIC, json.dumps(control(feature="t02", reveal={"t02": "never"}, delay_s=30.0,
                                                       stamp=1500.0)).encode(), 0.0)
    assert production.control.feature == "t02" and production.control.policy("t02") == "never"
    assert production.control.delay_s == 300.0  # the producer's choices followed, the delay kept
    production.offer(CONTROL_TOPIC, json.dumps(control(feature="t02", delay_s=30.0, stamp=2200.0)).encode(), 0.0)
    assert production.control.delay_s == 30.0  # a change made since we started is the producer's, live
    production.offer(CONTROL_TOPIC, json.dumps(control(feature="t03", stamp=1e10)).encode(), 0.0)
    assert production.control.feature == "t02" and production.control_refused == 1  # it would win for ever
    production.close()


def test_win_chances_are_worked_out_only_for_the_table_on_air() -> None:
    from firmware_py.room.broadcast import ChancesAhead  # noqa: PLC0415

    asked: list[str] = []

    class Counting(ChancesAhead):
        def ask(self, key: object, owner: str = "") -> None:
            if key is not None:
                asked.append(owner)
            super().ask(key, owner)

    production = Production(room="main", feature="t01", delay_s=30.0, chances=Counting(background=False))
    for table in ("t01", "t02"):
        production.offer(f"pokertable/main/{table}/broadcast", json.dumps({**MESSAGE, "table": table}).encode(), 1.0)
    assert asked == ["t01"]
    production.change(feature="t02")  # t02 goes on air: its held deals' chances are asked for then
    assert asked == ["t01", "t02"]
    production.close()


def test_one_tables_deals_wait_for_the_chances_worker_at_most_a_bounded_number_at_a_time() -> None:
    """Issue 34: a table's deals queued for the worker without end. At most MAX_CHANCES_PENDING of one table
    wait; beyond, a deal is shown without chances (counted), and another table's deal still gets its turn."""
    import random  # noqa: PLC0415

    from firmware_py.room.bounds import MAX_CHANCES_PENDING  # noqa: PLC0415
    from firmware_py.room.broadcast import ChancesAhead  # noqa: PLC0415

    rng = random.Random(3)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]

    def deal() -> tuple[object, ...]:
        cards = rng.sample(deck, 18)
        return (tuple((seat + 1, tuple(cards[2 * seat:2 * seat + 2])) for seat in range(9)), (), frozenset(),
                "holdem")

    chances = ChancesAhead(background=True)
    try:
        for _ in range(MAX_CHANCES_PENDING + 12):
            chances.ask(deal(), "t02")
        assert chances.skipped >= 12 and chances.pending() <= MAX_CHANCES_PENDING
        skipped, other = chances.skipped, deal()
        chances.ask(other, "t01")
        assert chances.skipped == skipped  # t02's full share does not take t01's turn
        chances.cancel("t02")  # off the air: its deals not yet started leave the queue
        deadline = time.monotonic() + 120
        while not chances.ready(other) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert chances.chances(other) is not None
    finally:
        chances.close()


def _watched_broadcast_subscriber(broker: Mosquitto) -> tuple[object, object]:
    """The broadcast's own subscription (its topics, as `broadcast` makes them) on `broker`, with its Watch,
    and t01 online (its retained status) but publishing no broadcast."""
    import threading  # noqa: PLC0415

    from firmware_py.commands import Watch  # noqa: PLC0415
    from firmware_py.room.mqtt import make_client  # noqa: PLC0415
    from firmware_py.room.subscriber import RoomSubscriber  # noqa: PLC0415

    client = make_client(broker_config(broker), client_id="t01.by-hand")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish("pokertable/main/t01/status", json.dumps(message("status", "t01", 0, dealer="Dana")), qos=1,
                   retain=True).wait_for_publish(5)
    client.disconnect()
    client.loop_stop()
    subscriber = RoomSubscriber(broker_config(broker), ["pokertable/main/+/broadcast",
                                                        "pokertable/main/production/control",
                                                        "pokertable/main/director/tournament"],
                                client_id="production.watch-test", on_message=lambda *_: None)
    subscriber.start(deadline=time.monotonic() + 10)
    assert subscriber.subscribed.wait(5)
    deadline = time.monotonic() + 5
    while not subscriber.online.get("t01") and time.monotonic() < deadline:
        time.sleep(0.05)
    return subscriber, Watch(subscriber, "broadcast", threading.Event(), silence_s=1.0)


def test_the_broadcasts_silence_warning_on_an_open_broker_names_no_table_publishing_not_the_acl(
        broker: Mosquitto, capsys: pytest.CaptureFixture[str]) -> None:
    subscriber, watch = _watched_broadcast_subscriber(broker)
    try:
        watch.check(time.monotonic() + 60)  # a minute of silence on the broadcast topic, t01 online
    finally:
        subscriber.stop()
    # The watch's own words (stderr also holds any log record another test's thread left behind).
    said = "\n".join(line for line in capsys.readouterr().err.splitlines() if line.startswith("broadcast: "))
    assert "no table is publishing on pokertable/main/+/broadcast" in said and "broadcast = false" in said
    assert "refused" not in said and "does not let" not in said  # the broker granted every subscription
    assert "production/control" not in said  # no control until a producer changes something: no fault


def test_the_broadcasts_warning_names_the_acl_only_when_the_suback_refused_the_subscription(
        broker: Mosquitto, capsys: pytest.CaptureFixture[str]) -> None:
    from paho.mqtt.packettypes import PacketTypes  # noqa: PLC0415
    from paho.mqtt.reasoncodes import ReasonCode  # noqa: PLC0415

    subscriber, watch = _watched_broadcast_subscriber(broker)
    try:  # the broker's SUBACK for the broadcast topic, as a broker whose ACL checks subscriptions answers it
        mid = next(m for m, name in subscriber._subscribing.items() if name.endswith("/+/broadcast"))
        subscriber._on_subscribe(subscriber.client, None, mid, [ReasonCode(PacketTypes.SUBACK, "Not authorized")],
                                 None)
        watch.check(time.monotonic())  # at once: the broker said so
        watch.check(time.monotonic() + 60)
    finally:
        subscriber.stop()
    said = capsys.readouterr().err
    assert said.count("the broker refused the subscription to pokertable/main/+/broadcast (Not authorized)") == 1
    assert "no table is publishing" not in said


def _theme_with(tmp_path: Path, delay: str) -> Path:
    """The shipped theme file with its [delay] section replaced (the house's own bounds)."""
    shipped = (ROOT / "config" / "overlay" / "theme.toml").read_text()
    theme = tmp_path / "theme.toml"
    theme.write_text(shipped.split("[delay]")[0] + "[delay]\n" + delay)
    for name in ("logo.svg", "theme.css"):
        (tmp_path / name).write_bytes((ROOT / "config" / "overlay" / name).read_bytes())
    return theme


def test_the_houses_delay_floor_and_ceiling_from_the_theme_file_bound_the_producers_changes(tmp_path: Path) -> None:
    from firmware_py.room.broadcast import ControlError  # noqa: PLC0415

    theme = load_theme(_theme_with(tmp_path, "floor_s = 30\nceiling_s = 600\n"))
    assert (theme.delay_floor_s, theme.delay_ceiling_s) == (30.0, 600.0)
    production = Production(room="main", feature="t01", delay_s=120.0, delay_floor_s=theme.delay_floor_s,
                            delay_ceiling_s=theme.delay_ceiling_s, bounds_from="[delay] in theme.toml")
    for delay_s in (20.0, 700.0):  # inside the built-in bounds (10 to 1800), outside the house's
        with pytest.raises(ControlError, match=r"from 30 to 600 seconds .*the bounds: \[delay\] in theme.toml"):
            production.change(delay_s=delay_s)
    production.change(delay_s=30.0)
    assert production.operator(0.0)["delay_bounds_s"] == [30.0, 600.0]
    production.close()
    shipped = load_theme()  # the shipped file says the built-in ones, with the reason beside them
    assert (shipped.delay_floor_s, shipped.delay_ceiling_s) == (10.0, 1800.0)
    assert "a betting decision takes a few seconds" in (ROOT / "config" / "overlay" / "theme.toml").read_text()


@pytest.mark.parametrize("delay, says", [
    ("floor_s = 2\n", "[delay] floor_s: 2 s is under the hard minimum of 5 s"),
    ("ceiling_s = 7200\n", "[delay] ceiling_s: 7200 s is over the most the broadcast holds, 1800 s"),
    ("floor_s = 600\nceiling_s = 60\n", "[delay] floor_s: the floor 600 s is above the ceiling 60 s"),
    ("floor_s = \"ten\"\n", "[delay] floor_s: must be a number of seconds"),
    ("flor_s = 10\n", "[delay] flor_s: unknown key (did you mean 'floor_s'?)"),
])
def test_a_wrong_delay_bound_in_the_theme_file_names_the_file_the_key_and_the_fix(tmp_path: Path, delay: str,
                                                                                  says: str) -> None:
    from firmware_py.errors import ConfigError  # noqa: PLC0415

    theme = _theme_with(tmp_path, delay)
    with pytest.raises(ConfigError) as refused:
        load_theme(theme)
    assert str(theme) in str(refused.value) and says in str(refused.value)
    with pytest.raises(ValueError, match="the floor at least 5"):  # nor by a caller that skips the file
        Production(room="main", feature="t01", delay_s=120.0, delay_floor_s=1.0)


def test_the_broadcast_command_refuses_a_delay_over_the_houses_ceiling_naming_the_file(tmp_path: Path) -> None:
    theme = _theme_with(tmp_path, "ceiling_s = 60\n")
    result = subprocess.run([sys.executable, "-m", "firmware_py", "broadcast", "--room", "main", "--table", "t01",
                             "--headless", "--theme", str(theme), "--delay", "90"], cwd=ROOT, env=environment(),
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2, result.stderr
    assert "--delay 90: at most 60 seconds" in result.stderr and f"[delay] in {theme}" in result.stderr
