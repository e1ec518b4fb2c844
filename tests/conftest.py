"""Fixtures shared by test modules in different folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def room_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A plain Mosquitto on loopback (no TLS, anonymous) for commands that only need a broker that answers."""
    from tests.room.services import Mosquitto, ensure_installed  # noqa: PLC0415

    reason = ensure_installed("mosquitto", ["mosquitto", "mosquitto-clients"])
    if reason:
        pytest.skip(f"no Mosquitto broker: {reason}")
    server = Mosquitto(tmp_path_factory.mktemp("broker")).start()
    yield server.port
    server.stop()
