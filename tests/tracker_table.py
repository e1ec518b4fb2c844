"""A real daemon with the action tracker on a free loopback port: the test plays the shoe and the
board antennas (it posts their reads to the daemon's queue, as the reader threads do) and presses
through the page. Used by the tracker's HTTP tests and its browser tests."""

from __future__ import annotations

import dataclasses
import json
import queue
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from display.display_config import DisplayConfig
from firmware_py.core import Button, ButtonName, Read, Stacks, TableSnapshot
from firmware_py.core.game import GAMES
from firmware_py.daemon.app import Awaited, Daemon
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.port import DaemonPort
from firmware_py.daemon.table_config import load_table_config
from firmware_py.daemon.tracker import ActionTracker, add_tracker
from firmware_py.daemon.tracker_config import TrackerConfig
from firmware_py.web import Pairing

ROOT = Path(__file__).resolve().parents[1]
WAIT_S = 10.0


class TrackerTable:
    """Seats 1-4 (button 1) at the default blind levels (25/50 first); `stacks` given before each hand."""

    def __init__(self, tmp_path: Path, *, seats: tuple[int, ...] = (1, 2, 3, 4),
                 schedule: DisplayConfig | None = None, game: str = "holdem", profile: str | None = None) -> None:
        shipped = load_table_config(ROOT / "config" / "table.toml", with_display=False)
        self.hole_cards = GAMES[game].hole_cards
        setup = dataclasses.replace(shipped.game, seats=seats, button=1, game=game,
                                    profile=profile or shipped.game.profile)
        self.config = dataclasses.replace(shipped, game=setup,
                                          starting_stack=0, schedule=schedule or DisplayConfig(), seat_names={})
        self.events: queue.Queue[object] = queue.Queue()
        self.journal = Journal.open(tmp_path / "journal.sqlite3")
        self.daemon = Daemon(self.config, journal=self.journal, clock=self._clock, events=self.events,
                             stop_when_done=False)
        self.codes = iter(f"{n:06d}" for n in range(246810, 999999, 7))
        self.tracker: ActionTracker = add_tracker(DaemonPort(self.daemon), TrackerConfig(listen="127.0.0.1", port=0),
                                                  pairing=Pairing(new_code=lambda: next(self.codes)))
        self._cards = list(self.config.deck(self.config.game.in_play).cards)
        self._t = 1.0
        self._last: Awaited | None = None
        self._thread = threading.Thread(target=self.daemon.run, name="daemon under test", daemon=True)

    def _clock(self) -> float:
        self._t += 0.01
        return self._t

    def start(self) -> TrackerTable:
        self._thread.start()
        self.wait(lambda: self.tracker.snapshot is not None and self.tracker.ready.is_set())
        return self

    def stop(self) -> None:
        self.daemon.stop("test over")
        self._thread.join(WAIT_S)
        self.journal.close()

    @property
    def url(self) -> str:
        host, port = self.tracker.address
        return f"http://{host}:{port}/"

    # -- the table's side --------------------------------------------------------------------------

    def post(self, event: Any) -> None:
        self._last = Awaited(event)
        self.events.put(self._last)

    def settle(self) -> TableSnapshot:
        """Wait until the main loop has fed everything posted so far (and published it); the snapshot then."""
        last = self._last
        if last is not None:
            last.verdict.result(WAIT_S)
            self.wait(lambda: self.tracker.snapshot is not None and self.tracker.snapshot.t >= last.event.t)
        snapshot = self.tracker.snapshot
        assert snapshot is not None
        return snapshot

    def arrange(self, cards: list[str]) -> None:
        """The next cards out of the shoe, in this order (by name): hole cards in deal order, then burns and board."""
        deck = self.config.deck(self.config.game.in_play).cards
        uid = {card: tag for tag, card in deck.items()}
        first = [uid[card] for card in cards]
        self._cards = first + [tag for tag in self._cards if tag not in first]

    def stacks(self, **chips: int) -> None:
        self.post(Stacks(t=self._clock(), stacks=tuple(sorted((int(k[1:]), v) for k, v in chips.items()))))

    def new_hand(self) -> TableSnapshot:
        self.post(Button(t=self._clock(), name=ButtonName.NEW_HAND))
        snapshot = self.settle()
        for _ in range(self.hole_cards * len([v for v in snapshot.seats if v.state not in ("empty", "waiting")])):
            self.shoe()
        return self.settle()

    def shoe(self) -> str:
        uid = self._cards.pop(0)
        self.post(Read(t=self._clock(), antenna="shoe", uid=uid))
        return uid

    def street(self, count: int, first: int) -> TableSnapshot:
        self.shoe()  # the burn
        for position in range(first, first + count):
            uid = self.shoe()
            self.post(Read(t=self._clock(), antenna=f"board{position}", uid=uid))
        return self.settle()

    def hand_end(self) -> TableSnapshot:
        self.post(Button(t=self._clock(), name=ButtonName.HAND_END))
        return self.settle()

    @staticmethod
    def wait(ready: Callable[[], bool], timeout_s: float = WAIT_S) -> None:
        deadline = time.monotonic() + timeout_s
        while not ready():
            if time.monotonic() > deadline:
                raise TimeoutError("the table did not get there in time")
            time.sleep(0.01)

    # -- an HTTP client as the page is ------------------------------------------------------------

    def request(self, path: str, body: object = None, *, cookie: str | None = None,
                origin: str | None = "self", host: str | None = None) -> tuple[int, Any, dict[str, str]]:
        return http_json(self.url.rstrip("/"), path, body, cookie=cookie, origin=origin, host=host)

    def pair(self) -> str:
        """Pair as a device would: the code off the screen for the session cookie (`name=value`)."""
        status, _body, headers = self.request("/pair", {"code": self.tracker.pairing.code})
        assert status == 200
        return headers["set-cookie"].split(";")[0]


def http_json(base: str, path: str, body: object = None, *, cookie: str | None = None,
              origin: str | None = "self", host: str | None = None) -> tuple[int, Any, dict[str, str]]:
    """One request as the page makes it (its Origin, the cookie): status, the JSON (or text) and headers."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if origin is not None:
        headers["Origin"] = base if origin == "self" else origin
    if cookie:
        headers["Cookie"] = cookie
    if host is not None:
        headers["Host"] = host
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=WAIT_S) as response:
            status, raw, got = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        status, raw, got = exc.code, exc.read(), dict(exc.headers)
    try:
        return status, json.loads(raw), got
    except ValueError:
        return status, raw.decode(errors="replace"), got


def http_pair(base: str, code: str) -> str:
    """Pair over HTTP as a device does: the session cookie (`name=value`) for the code."""
    status, body, headers = http_json(base.rstrip("/"), "/pair", {"code": code})
    assert status == 200, body
    return headers["set-cookie"].split(";")[0]
