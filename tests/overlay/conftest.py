"""The pages' browser (tests/browser.py: one Debian chromium per module) and a production room served
on a free loopback port with a clock the test moves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_py.room.broadcast import ChancesAhead, Production
from firmware_py.room.overlay import make_app
from firmware_py.room.overlay_theme import load_theme
from firmware_py.web.server import WebServer, serve
from tests.browser import browser  # noqa: F401 (the fixture, for every overlay test module)
from tests.overlay.page import PAIRED
from tests.tracker_table import http_pair


class Clock:
    """The production machine's monotonic clock, moved by the test."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Room:
    """A production room (as the broadcast command builds it) with its web server."""

    def __init__(self, *, delay_s: float, clock: Any, feature: str = "t01", theme: Path | None = None) -> None:
        self.clock = clock
        self.production = Production(room="main", feature=feature, delay_s=delay_s,
                                     chances=ChancesAhead(background=False), clock=clock)
        self.app = make_app(self.production, load_theme(theme) if theme else load_theme())
        self.server: WebServer = serve(self.app)
        PAIRED[self.url] = http_pair(self.url, self.app.pairing.code)  # the control's paths need a session

    @property
    def url(self) -> str:
        return self.server.url

    def close(self) -> None:
        PAIRED.pop(self.url, None)
        self.server.stop()
        self.production.close()


@pytest.fixture
def room_factory() -> Iterator[Any]:
    rooms: list[Room] = []

    def make(**kwargs: Any) -> Room:
        rooms.append(Room(**kwargs))
        return rooms[-1]

    yield make
    for made in rooms:
        made.close()


# The room's real-service fixtures (Mosquitto on loopback), shared with tests/room.
from tests.room.conftest import broker, guard_plugin, mosquitto_installed, secure_broker  # noqa: E402, F401
