"""Omaha Hi-Lo in the room: a showdown's low winners travel in the ruling messages (the room's schema carries
them, none is quarantined), the collector stores them, and the broadcast feed says who took each half."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from firmware_py.core.engine import TableCore
from firmware_py.core.rulings import RulingKind
from firmware_py.profiles import load_profiles
from firmware_py.room.collector import Collector, open_store
from firmware_py.room.feed import BroadcastFeed, FeedBuilder
from firmware_py.room.messages import decode, encode
from firmware_py.session import read_session
from tests.room.conftest import ROOT, Listener, broker_config, table_file
from tests.room.samples import message
from tests.room.services import Mosquitto
from tests.room.test_publisher import environment

SESSIONS = ROOT / "tests" / "sessions"
HILO = sorted(p for p in SESSIONS.glob("*omaha_hilo_split_*.jsonl") if not p.name.endswith(".expected.jsonl"))


def _showdowns(path: Path) -> list[Any]:
    core = TableCore(load_profiles())
    return [(ruling, core.snapshot()) for _line, event in read_session(path) for ruling in core.feed(event).rulings
            if ruling.ruling is RulingKind.SHOWDOWN]


@pytest.mark.parametrize("session", HILO, ids=[p.stem for p in HILO])
def test_a_hilo_showdown_ruling_message_carries_the_low_winners_and_is_not_quarantined(session: Path) -> None:
    showdowns = _showdowns(session)
    assert showdowns and all(ruling.low_winners for ruling, _snap in showdowns)
    for ruling, _snap in showdowns:
        body = message("ruling", ruling=ruling.to_json())
        decoded = decode("pokertable/main/t01/ruling", json.dumps(body).encode())  # raises BadMessage if refused
        assert decoded.ruling.low_winners == list(ruling.low_winners)
        assert decoded.ruling.low_hand == ruling.low_hand
        assert [pot.low_winners for pot in decoded.ruling.pots] == [list(p.low_winners) for p in ruling.pots]
        assert json.loads(encode("ruling", body))["ruling"]["low_winners"] == list(ruling.low_winners)


def test_the_broadcast_feed_says_who_took_the_high_and_who_the_low() -> None:
    session = SESSIONS / "omaha_hilo_split_robert.jsonl"
    _ruling, snapshot = _showdowns(session)[0]
    feed = FeedBuilder(room="main", table="t01").build(snapshot, seq=1)
    decoded = msgspec.json.decode(msgspec.json.encode(feed), type=BroadcastFeed)  # the feed's schema takes it
    assert decoded.showdown is not None and decoded.showdown.low_winners == (2, 3)
    assert decoded.showdown.low_hand == "7-4-3-2-A low"
    assert decoded.result is not None
    assert decoded.result.lines == ("Seat 1 wins the high of the main pot, 200, with three of a kind, kings; "
                                    "Seat 2 & Seat 3 split the low, with 7-4-3-2-A low",)
    assert {seat.seat: seat.hand for seat in decoded.seats}[2] == "high card, ace; 7-4-3-2-A low"


def test_a_simulated_hilo_table_publishes_its_low_winners_and_the_collector_quarantines_none(
        tmp_path: Path, broker: Mosquitto) -> None:
    """A simulated fixed-limit Omaha Hi-Lo table through the real daemon and the real broker."""
    listener = Listener(broker_config(broker), "pokertable/+/+/ruling", "pokertable/+/+/hand", client_id="log")
    assert listener.wait_connected()
    journal = tmp_path / "t01.sqlite3"
    result = subprocess.run([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh",
                             "--hands", "12", "--seed", "4", "--error-rate", "0", "--game", "limit_omaha_hilo",
                             "--config", str(table_file(tmp_path, port=broker.port)), "--journal", str(journal)],
                            cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(listener.of("hand")) < 12:
        time.sleep(0.2)
    listener.close()
    messages = [(name, body) for name, body, _r in listener.messages if isinstance(body, dict)]
    lows = [body for name, body in messages if name.endswith("/ruling") and body["ruling"].get("low_winners")]
    assert lows, "no showdown split high and low in the simulated session"
    store = open_store(str(tmp_path / "room.sqlite3"))
    collector = Collector(store)
    collector.start()
    for name, body in messages:
        collector.offer(name, body)
    collector.stop()
    assert collector.stats.rejected == 0 and collector.stats.inserted == len(messages)


def test_a_broadcast_of_a_game_this_machine_does_not_know_is_quarantined_not_drawn_as_holdem() -> None:
    from firmware_py.room.broadcast import DelayedFeed  # noqa: PLC0415

    feed = DelayedFeed(delay_s=1.0, room="main", table="t01")
    assert not feed.offer("pokertable/main/t01/broadcast", message("broadcast", game="razz"), 0.0)
    assert feed.quarantined == 1 and feed.on_air(10.0) is None
    assert feed.offer("pokertable/main/t01/broadcast", message("broadcast", seq=2, game="omaha_hilo"), 0.0)


def test_the_director_takes_a_hand_whose_pot_pays_a_low_winner() -> None:
    """A tournament table's report of a high-low split: the low's share is explained by the pot's low winners (a
    share to a seat outside `winners` alone is refused, as before)."""
    from firmware_py.room.director import Refused, check_pots  # noqa: PLC0415
    from firmware_py.room.tournament_messages import PotJson, PotShare  # noqa: PLC0415

    shares = [PotShare(seat=1, chips=150), PotShare(seat=2, chips=150)]  # each put in 100: high and low halves
    start, end = {1: 1000, 2: 1000, 3: 1000}, {1: 1050, 2: 1050, 3: 900}
    check_pots(table="t01", start=start, end=end,
               pots=[PotJson(amount=300, seats=[1, 2, 3], winners=[1], shares=shares, low_winners=[2])])
    with pytest.raises(Refused, match="pays seat 2 a share, not one of its winners"):
        check_pots(table="t01", start=start, end=end,
                   pots=[PotJson(amount=300, seats=[1, 2, 3], winners=[1], shares=shares)])
