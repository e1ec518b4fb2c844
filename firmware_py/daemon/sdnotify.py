"""systemd's notify protocol: one datagram to $NOTIFY_SOCKET (READY=1, WATCHDOG=1, STATUS=...).

A few lines over the standard library's socket module, rather than a dependency: the protocol
is a newline-separated `KEY=value` datagram to a unix socket (an abstract one when the path
starts with `@`). Without NOTIFY_SOCKET (not under systemd) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket

logger = logging.getLogger(__name__)


class Notifier:
    """Talks to the service manager; `enabled` is False outside systemd."""

    def __init__(self, address: str | None = None) -> None:
        address = os.environ.get("NOTIFY_SOCKET") if address is None else address
        self.address: str | None = None
        if address:
            self.address = "\0" + address[1:] if address.startswith("@") else address
        self._socket: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *fields: str) -> bool:
        """Send `fields` (e.g. "READY=1") as one datagram; False if it could not be sent."""
        if self.address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto("\n".join(fields).encode(), self.address)
        except OSError as exc:
            logger.warning("sd_notify %s failed: %s", fields[0] if fields else "", exc)
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.notify("READY=1", *((f"STATUS={status}",) if status else ()))

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def watchdog_interval_s() -> float | None:
    """Half the watchdog timeout systemd set for this process (WATCHDOG_USEC), or None."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1e6 / 2
    except ValueError:
        return None
