"""The director resumes after a SIGKILL exactly where it was (issue 35): the real `tournament` command, its
journal (SQLite, state/director-<room>.sqlite3 by default), a real Mosquitto, the test as tables t01 and t02
reporting through the schema. Killed with the clock running at level 2, hand-for-hand on and a player out,
it comes back with the same players, chips, level, clock, places and decisions; the tables go on
with their own sessions and counts, and a report it took before the kill is still refused when replayed."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from firmware_py.commands.tournament import ROOT
from tests.room.conftest import Listener, broker_config
from tests.room.services import Mosquitto, wait_subscribed
from tests.tournament.pots import pots_for
from tests.tracker_table import http_pair

STRUCTURE = """
[structure]
name = "quick"
source = "the resume test: a first level of six seconds"
starting_stack = 1500

[[steps]]
small = 25
big = 50
minutes = 0.1

[[steps]]
small = 50
big = 100
minutes = 30
"""


class Command:
    def __init__(self, broker: Mosquitto, tmp: Path, name: str, money: list[str] | None = None) -> None:
        self.log = tmp / f"{name}.log"
        argv = [sys.executable, "-m", "firmware_py", "tournament", "--room", "main", "--broker",
                f"127.0.0.1:{broker.port}", "--tables", "2", "--players", "12", "--seed", "3", "--structure",
                str(tmp / "quick.toml"), "--journal", str(tmp / "director.sqlite3"), "--listen", "127.0.0.1:0",
                *(money or ["--buy-in", "10"]), "--client-id", f"director.{name}"]
        self.process = subprocess.Popen(argv, stdout=self.log.open("w"), stderr=subprocess.STDOUT, cwd=ROOT, text=True)
        wait_subscribed(self.process, self.log)
        found = re.search(r"page is on (http://[0-9.:]+)/", self.log.read_text())
        assert found, self.log.read_text()
        self.url = found.group(1)
        code = re.search(r"pair a browser with the code ([0-9 ]+)", self.log.read_text())
        assert code, self.log.read_text()
        self.cookie = http_pair(self.url, code.group(1))  # the director's page acts for a paired client only

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Origin": self.url, "Content-Type": "application/json",
                                                  "Cookie": self.cookie})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 200
            reply: dict[str, Any] = json.loads(answer.read())
            return reply

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def _latest(listener: Listener, predicate: Any = lambda s: True, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = [b for _t, b, _r in listener.messages if isinstance(b, dict) and predicate(b)]
        if states:
            return states[-1]
        time.sleep(0.05)
    raise AssertionError("no such director state came")


def _hand(state: dict[str, Any], table: str, *, session: str, seq: int, hand: int,
          swing: tuple[int, int, int] | None = None) -> dict[str, Any]:
    """A hand's report from the director's seats: `swing` (loser seat index, winner seat index, chips)."""
    entry = next(t for t in state["tables"] if t["table"] == table)
    start = {s["seat"]: s["chips"] for s in entry["seats"]}
    end = dict(start)
    seats = sorted(start)
    if swing is not None:
        loser, winner, chips = seats[swing[0]], seats[swing[1]], swing[2]
        chips = min(chips, start[loser])
        end[loser] -= chips
        end[winner] += chips
    return {"v": 1, "room": "main", "table": table, "session": session, "seq": seq, "kind": "hand", "hand": hand,
            "t": 30.0 * hand, "draw": entry["draw"], "button": seats[0], "big_blind": seats[2],
            "start": [{"seat": s, "chips": c} for s, c in sorted(start.items())],
            "end": [{"seat": s, "chips": c} for s, c in sorted(end.items())], "pots": pots_for(start, end)}


def _same_room(before: dict[str, Any], after: dict[str, Any]) -> None:
    for key in ("tournament", "entrants", "remaining", "chips_in_play", "level", "hand_for_hand", "places",
                "payouts", "pool", "tables", "all_in", "winner", "over", "refused", "refused_total"):
        assert after[key] == before[key], (key, before[key], after[key])
    assert [(d["n"], d["text"]) for d in after["decisions"]] == [(d["n"], d["text"]) for d in before["decisions"]]


def test_director_killed_mid_tournament_resumes_with_the_same_players_level_clock_and_places(
        broker: Mosquitto, tmp_path: Path) -> None:
    (tmp_path / "quick.toml").write_text(STRUCTURE)
    room = Listener(broker_config(broker), "pokertable/main/director/tournament", client_id="watch")
    tables = Listener(broker_config(broker), client_id="tables")
    first = Command(broker, tmp_path, "one")
    second = None
    try:
        assert room.wait_connected() and tables.wait_connected()
        state = _latest(room, lambda s: s["entrants"] == 12)
        first.post("/clock", {"run": True})
        # t01 busts a player (all in, lost): eliminated, 12th place; the tables out of balance: a move
        report1 = _hand(state, "t01", session="t01-a", seq=1, hand=1, swing=(0, 1, 10**6))
        tables.client.publish("pokertable/main/t01/tournament", json.dumps(report1), qos=1).wait_for_publish(5)
        state = _latest(room, lambda s: any(t["table"] == "t01" and t["acked"] == 1 for t in s["tables"]))
        report2 = _hand(state, "t02", session="t02-a", seq=1, hand=1, swing=(1, 2, 300))
        tables.client.publish("pokertable/main/t02/tournament", json.dumps(report2), qos=1).wait_for_publish(5)
        _latest(room, lambda s: any(t["table"] == "t02" and t["acked"] == 1 for t in s["tables"]))
        first.post("/bubble", {"hand_for_hand": True})
        # the clock reaches level 2 (six seconds), then the director is killed
        before = _latest(room, lambda s: s["level"]["number"] == 2 and s["hand_for_hand"], timeout=30)
        assert before["remaining"] == 11 and before["places"][0]["place"] == 12 and before["running"]
        assert {d["kind"] for d in before["decisions"]} >= {"eliminated", "level", "bubble"}
        time.sleep(1.5)
        before = _latest(room)
        killed_at = time.time()
        first.kill()
        time.sleep(2.0)
        room.messages.clear()
        second = Command(broker, tmp_path, "two")
        after = _latest(room, lambda s: s["session"] != before["session"])
        assert "resumed" in second.log.read_text()
        _same_room(before, after)
        assert after["running"]
        # the clock went on while the director was down, as the tables played on (wall time)
        gone = time.time() - killed_at
        assert abs((before["remaining_s"] - after["remaining_s"]) - gone) < 3.0, (before["remaining_s"],
                                                                                  after["remaining_s"], gone)
        # the tables go on as they were: t01's next report in its own session and count is taken ...
        state = after
        report3 = _hand(state, "t01", session="t01-a", seq=2, hand=2, swing=(1, 2, 100))
        tables.client.publish("pokertable/main/t01/tournament", json.dumps(report3), qos=1).wait_for_publish(5)
        state = _latest(room, lambda s: any(t["table"] == "t01" and t["acked"] == 2 for t in s["tables"]))
        assert state["refused"] == []
        # ... and the report taken before the kill, replayed under a new session id, is refused
        tables.client.publish("pokertable/main/t01/tournament", json.dumps({**report1, "session": "t01-b"}),
                              qos=1).wait_for_publish(5)
        state = _latest(room, lambda s: s["refused_total"] == 1)
        assert "hand 1 again" in state["refused"][0]["reason"]
    finally:
        first.stop()
        if second is not None:
            second.stop()
        room.close()
        tables.close()


def test_director_killed_after_late_entries_rebuys_an_undo_and_a_knockout_resumes_the_whole_event(
        broker: Mosquitto, tmp_path: Path) -> None:
    """Issue 39: the desk's actions through the page (a late entry with its player card, an entry undone, a
    re-entry, a rebuy), the money (a guarantee, bounties) and a knockout from a table's pots, then a SIGKILL: the
    director comes back with the same field, actions, money, bounties and places, and numbers its next entry on."""
    (tmp_path / "quick.toml").write_text(STRUCTURE.replace("minutes = 0.1", "minutes = 30") + """
[entries]
late_registration_until_level = 2
re_entries = 1
rebuys = 1
rebuy_chips = 1500
rebuy_until_level = 2
""")
    money = ["--money", str(ROOT / "config/tournament/money/nightly-pko.toml")]
    room = Listener(broker_config(broker), "pokertable/main/director/tournament", client_id="watch")
    tables = Listener(broker_config(broker), client_id="tables")
    first = Command(broker, tmp_path, "one", money)
    second = None
    try:
        assert room.wait_connected() and tables.wait_connected()
        state = _latest(room, lambda s: s["entrants"] == 12)
        report1 = _hand(state, "t01", session="t01-a", seq=1, hand=1, swing=(0, 1, 10**6))  # a knockout
        tables.client.publish("pokertable/main/t01/tournament", json.dumps(report1), qos=1).wait_for_publish(5)
        state = _latest(room, lambda s: any(t["table"] == "t01" and t["acked"] == 1 for t in s["tables"]))
        assert len(state["knockouts"]) == 1
        ada = first.post("/register", {"name": "Ada", "card": "C-1"})["entry"]
        oops = first.post("/register", {"name": "Oops"})["entry"]
        first.post("/undo", {"n": oops["n"]})
        busted = state["places"][0]["player"]
        first.post("/register", {"person": busted})
        short = min((s for t in state["tables"] for s in t["seats"]), key=lambda s: s["chips"])
        first.post("/rebuy", {"player": short["player"]})
        before = _latest(room, lambda s: len(s["entries"]) == 4)
        assert before["money"]["collected"] == 14 * 140 + 100 and before["entrants"] == 14
        first.kill()
        room.messages.clear()
        second = Command(broker, tmp_path, "two", money)
        after = _latest(room, lambda s: s["session"] != before["session"])
        for key in ("entrants", "remaining", "chips_in_play", "tables", "places", "entries", "alternates", "money",
                    "pool", "payouts", "knockouts", "bounties"):
            assert after[key] == before[key], (key, before[key], after[key])
        assert ada["player"] == "p0013"
        assert second.post("/register", {"name": "Bea"})["entry"]["player"] == "p0016"  # ids go on, never reused
    finally:
        first.stop()
        if second is not None:
            second.stop()
        room.close()
        tables.close()
