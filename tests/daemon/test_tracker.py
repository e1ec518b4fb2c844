"""The action-tracker page: off by default, one interface, a token on every request, no cards shown."""

from __future__ import annotations

import json
import queue
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.core import Button, ButtonName
from firmware_py.daemon.table_config import load_table_config
from firmware_py.daemon.tracker import ActionTracker, TrackerConfig, parse_tracker_config, public_state
from firmware_py.errors import ConfigError
from tests.chips_daemon import dealt_daemon
from tests.config_mistakes import assert_mistakes
from tests.rules.table_driver import Table

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "a-long-enough-test-token"


@pytest.fixture
def tracker() -> Iterator[tuple[ActionTracker, queue.Queue[object]]]:
    posted: queue.Queue[object] = queue.Queue()
    tracker = ActionTracker(TrackerConfig(listen="127.0.0.1", port=0, token=TOKEN), post=posted.put,
                            clock=lambda: 12.5)
    tracker.start()
    yield tracker, posted
    tracker.stop()


def request(tracker: ActionTracker, path: str, body: object = None, token: str | None = TOKEN) -> tuple[int, str]:
    host, port = tracker.address
    url = f"http://{host}:{port}{path}" + (f"?token={token}" if token is not None else "")
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_the_tracker_is_off_unless_configured() -> None:
    assert load_table_config(ROOT / "config" / "table.toml", with_display=False).tracker is None


def test_every_request_needs_the_token(tracker: tuple[ActionTracker, queue.Queue[object]]) -> None:
    page, posted = tracker
    assert request(page, "/", token=None)[0] == 403
    assert request(page, "/", token="wrong-token-of-some-length")[0] == 403
    assert request(page, "/action", {"name": "fold"}, token=None)[0] == 403
    assert posted.empty()
    status, html = request(page, "/")
    assert status == 200 and "Action tracker" in html


def test_an_action_with_an_amount_goes_to_the_daemon_queue(tracker: tuple[ActionTracker, queue.Queue[object]]) -> None:
    page, posted = tracker
    assert request(page, "/action", {"name": "raise", "amount": 600}) == (200, '{"ok": true}')
    assert posted.get_nowait() == Button(t=12.5, name=ButtonName.RAISE, amount=600)
    assert request(page, "/action", {"name": "call", "amount": 600})[0] == 200
    assert posted.get_nowait() == Button(t=12.5, name=ButtonName.CALL)  # no amount on a call
    assert request(page, "/action", {"name": "raise", "amount": -5}) == \
        (400, "the amount must be a whole number of chips")
    assert request(page, "/action", {"name": "misdeal"}) == (400, "unknown action 'misdeal'")
    assert posted.empty()


def test_the_state_shows_stacks_and_pot_but_never_a_card(tracker: tuple[ActionTracker, queue.Queue[object]]) -> None:
    page, _posted = tracker
    table = Table("robert")
    table.level(50, 100)
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    table.new_hand()
    table.deal()
    page.update(table.core.snapshot())
    status, text = request(page, "/state")
    state = json.loads(text)
    assert status == 200 and state["pot"] == 150 and state["to_act"] == 4 and state["to_call"] == 100
    assert state == public_state(table.core.snapshot())
    for card in table.core.snapshot().seat(2).cards:
        assert card not in text


@pytest.mark.parametrize(("raw", "message"), [
    ({"listen": "0.0.0.0", "port": 8080, "token": TOKEN}, "every interface"),
    ({"listen": "tablet", "port": 8080, "token": TOKEN}, "not an IP address"),
    ({"listen": "192.168.4.1", "port": 80, "token": TOKEN}, "1024..65535"),
    ({"listen": "192.168.4.1", "token": "short"}, "at least 16 characters"),
    ({"listen": "192.168.4.1", "token": TOKEN, "tokn": 1}, "tokn: unknown key"),
])
def test_a_bad_tracker_config_names_the_key(raw: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_tracker_config(raw, source="table.toml")


def test_tracker_config_reports_every_bad_value_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_tracker_config({"listen": "tablet", "port": "8080", "token": "short", "tokn": 1}, source="table.toml")
    assert_mistakes(caught.value, "table.toml", [
        ("[tracker] tokn", "did you mean 'token'"), ("[tracker] listen", 'e.g. listen = "192.168.4.1"'),
        ("[tracker] port", "write port = 8080, without quotes"), ("[tracker] token", "token_urlsafe")])


def test_tracker_config_with_every_key_right_is_still_accepted() -> None:
    config = parse_tracker_config({"listen": "192.168.4.1", "port": 8081, "token": TOKEN}, source="table.toml")
    assert config == TrackerConfig(listen="192.168.4.1", port=8081, token=TOKEN)


def test_an_action_from_the_page_reaches_the_core_through_the_daemon(tmp_path: Path) -> None:
    import threading  # noqa: PLC0415
    import time  # noqa: PLC0415

    from firmware_py.daemon.app import Stop  # noqa: PLC0415
    from firmware_py.daemon.wiring import add_tracker  # noqa: PLC0415

    daemon, journal, events = dealt_daemon(tmp_path)
    page = add_tracker(daemon, TrackerConfig(listen="127.0.0.1", port=0, token=TOKEN))

    def operator() -> None:
        deadline = time.monotonic() + 10
        while (page.snapshot is None or page.snapshot.to_act is None) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert request(page, "/action", {"name": "raise", "amount": 400})[0] == 200
        while daemon.events_fed < 10 and time.monotonic() < deadline:
            time.sleep(0.02)
        events.put(Stop("test"))

    thread = threading.Thread(target=operator)
    thread.start()
    assert daemon.run() == 0
    thread.join()
    journal.close()
    snapshot = daemon.core.snapshot()
    assert snapshot.seat(1).last_action == "raise 400" and snapshot.seat(1).stack == 600
