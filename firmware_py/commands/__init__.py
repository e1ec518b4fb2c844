"""One module per command of `python -m firmware_py` (see cli.py), and what several of them share."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware_py.room.subscriber import RoomSubscriber


def start_subscriber(subscriber: RoomSubscriber, command: str, timeout: float = 10.0) -> bool:
    """Start a room command's subscriber and wait up to `timeout` for the broker, telling stderr why
    if it is not there yet. False only when the client cannot start at all (an unreadable password
    or CA file): the command then stops. A broker that refuses or does not answer yet is retried in
    the background."""
    broker = subscriber.broker
    try:
        subscriber.start()
    except Exception as exc:
        print(f"{command}: cannot connect to {broker.host}:{broker.port}: {exc}", file=sys.stderr)
        return False
    if not subscriber.wait_connected(timeout):
        why = f"refused: {subscriber.refused}" if subscriber.refused else f"no answer in {timeout:g} s"
        print(f"{command}: the broker {broker.host}:{broker.port} {why}; still trying", file=sys.stderr)
    return True
