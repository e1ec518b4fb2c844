"""One module per command of `python -m firmware_py` (see cli.py), and what several of them share."""

from __future__ import annotations

import argparse
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware_py.room.subscriber import RoomSubscriber

# Exit statuses of the room's commands when the broker cannot be used (systemd/README.md): a unit restarts
# on UNREACHABLE (the broker may come back) and not on REFUSED (a certificate or password to change).
UNREACHABLE, REFUSED = 3, 4
TAKEN_OVER = 2  # another process connected with our client id, again and again: stop, rather than fight it
SILENCE_WARN_S = 30.0  # subscribed this long, tables online, and nothing of a kind: warn once
SLOW_KINDS = {"ruling": 20, "hand": 20}  # these may not come for minutes: warn after 20 times as long
# Silence on these says nothing: a tournament's state comes only while a tournament runs, the production room's
# control only once a producer changed something (it is retained from then on).
OPTIONAL_KINDS = frozenset({"tournament", "control"})
# Why the tables online may send nothing of a kind, the first thing to look at (Watch.check).
SILENT_WHY = {
    "broadcast": "a table publishes its broadcast once it seats players or deals, and never when its room file "
                 "says broadcast = false",
    "": "they may not have played yet",
}


def start_subscriber(subscriber: RoomSubscriber, command: str, *, seconds: float | None,
                     stop: threading.Event) -> int:
    """Connect a room command's subscriber; 0 when it is connected and subscribed, else the exit status,
    having told stderr why: REFUSED at once for the broker's certificate (name or CA), a TLS handshake
    that fails or a refused user or password; UNREACHABLE when nothing answers within the connect
    timeout, or within `seconds` (the command's --seconds) if that is shorter."""
    from firmware_py.errors import BrokerError, BrokerRefused, ConfigError  # noqa: PLC0415
    from firmware_py.room.mqtt import CONNECT_TIMEOUT_S  # noqa: PLC0415

    limit = CONNECT_TIMEOUT_S if seconds is None else min(seconds, CONNECT_TIMEOUT_S)
    try:
        subscriber.start(deadline=time.monotonic() + limit, stop=stop)
    except BrokerError as exc:
        print(f"{command}: cannot connect: {exc}", file=sys.stderr)
        return REFUSED if isinstance(exc, BrokerRefused) else UNREACHABLE
    except ConfigError as exc:  # the password file cannot be read
        print(f"{command}: {exc}", file=sys.stderr)
        return REFUSED
    if not subscriber.connected.is_set():  # stopped (a signal) before the broker answered
        print(f"{command}: stopped before the broker {subscriber.broker.host}:{subscriber.broker.port} answered",
              file=sys.stderr)
        return UNREACHABLE
    return 0


class Watch:
    """Beside a running room command: stops it (status REFUSED) when the broker refuses it for good on a
    reconnect, or (status TAKEN_OVER) when another process keeps taking its client id; and warns once per
    kind of message that never comes while tables are online, which is how a user the ACL lets read
    nothing shows (the broker grants every subscription)."""

    def __init__(self, subscriber: RoomSubscriber, command: str, stop: threading.Event, *,
                 silence_s: float = SILENCE_WARN_S) -> None:
        self.subscriber, self.command, self.stop, self.silence_s = subscriber, command, stop, silence_s
        self.status = 0
        self.warned: set[str] = set()
        self._thread = threading.Thread(target=self._run, name=f"{command}-watch", daemon=True)

    def start(self) -> Watch:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self.stop.wait(0.5):
            self.check(time.monotonic())

    def check(self, now: float) -> None:
        from firmware_py.room.mqtt import refusal  # noqa: PLC0415

        subscriber = self.subscriber
        refused = refusal(subscriber.refused, subscriber.broker) if subscriber.refused else None
        if refused is not None:
            print(f"{self.command}: {refused}", file=sys.stderr, flush=True)
            self.status = REFUSED
            self.stop.set()
            return
        if subscriber.taken_over:
            print(f"{self.command}: another client connected as {subscriber.client_id} and took the session "
                  "over; give each its own --client-id", file=sys.stderr, flush=True)
            self.status = TAKEN_OVER
            self.stop.set()
            return
        if subscriber.subscribed_at is None:
            return
        user = subscriber.broker.username or "(anonymous)"
        for name, reason in list(subscriber.subscription_refused.items()):  # the broker said so: certain, at once
            if f"refused:{name}" not in self.warned:
                self.warned.update((f"refused:{name}", name.rsplit("/", 1)[-1]))
                print(f"{self.command}: the broker refused the subscription to {name} ({reason}): its ACL does "
                      f"not let user {user!r} read it (check --user)", file=sys.stderr, flush=True)
        if now - subscriber.subscribed_at < self.silence_s:
            return
        waited = now - subscriber.subscribed_at
        if not subscriber.received and "*" not in self.warned:
            self.warned.add("*")
            print(f"{self.command}: subscribed {self.silence_s:g} s as user {user!r} and nothing has come, not "
                  f"even a table's status: either no table has ever connected to this broker, or its ACL (which "
                  f"grants a subscription and then withholds what a user may not read) lets {user!r} read nothing "
                  f"under {', '.join(subscriber.topics)} (check --user)", file=sys.stderr, flush=True)
            return
        online = sum(subscriber.online.values())
        if not online:
            return
        for name in subscriber.topics:
            kind = name.rsplit("/", 1)[-1]
            if kind == "status" or kind in OPTIONAL_KINDS or kind in self.warned or subscriber.received.get(kind) \
                    or waited < self.silence_s * SLOW_KINDS.get(kind, 1):
                continue
            self.warned.add(kind)
            # The subscription was granted (a refusal is told above): the tables are not sending it, or the ACL
            # withholds it; the first is the usual cause, and what to look at comes first.
            print(f"{self.command}: subscribed {waited:.0f} s as user {user!r}, {online} tables online, and no "
                  f"table is publishing on {name}: {SILENT_WHY.get(kind, SILENT_WHY[''])} (the broker granted "
                  f"this subscription; if the tables do send it, its ACL withholds it from {user!r}: check --user)",
                  file=sys.stderr, flush=True)

    def final(self) -> None:
        """At the end of a run at least `silence_s` long: the kinds that never came while tables were online
        (a collector run as the wrong user gets rulings but never a hand)."""
        if self.status or self.subscriber.subscribed_at is None \
                or time.monotonic() - self.subscriber.subscribed_at < self.silence_s:
            return
        user = self.subscriber.broker.username or "(anonymous)"
        online = sum(self.subscriber.online.values())
        missing = [name for name in self.subscriber.topics if not name.endswith("/status")
                   and name.rsplit("/", 1)[-1] not in OPTIONAL_KINDS
                   and not self.subscriber.received.get(name.rsplit("/", 1)[-1])
                   and name.rsplit("/", 1)[-1] not in self.warned]
        if missing and (online or "*" in self.warned):
            print(f"{self.command}: nothing came on {', '.join(missing)} while {online} tables were online: if "
                  f"they played, the broker's ACL does not let user {user!r} read it (check --user)",
                  file=sys.stderr, flush=True)


def has_screen() -> bool:
    """Whether a window can open here: a desktop session (X11 or Wayland) or an SDL driver chosen."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("SDL_VIDEODRIVER"))


NO_SCREEN = "no display here (DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER unset)"


def open_window(size: tuple[int, int], *, fullscreen: bool, title: str, command: str) -> Any:
    """A room command's pygame screen (the whole screen, or a window of `size`); None, told on stderr,
    when SDL cannot open one (a display that is set but not there)."""
    import pygame  # noqa: PLC0415 (pygame loads only for a window)

    from display.app import init_display  # noqa: PLC0415

    try:
        init_display()
        screen = pygame.display.set_mode(size, pygame.FULLSCREEN if fullscreen else 0)
    except pygame.error as exc:
        where = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("SDL_VIDEODRIVER")
        print(f"{command}: cannot open a window on {where}: {exc}", file=sys.stderr)
        pygame.display.quit()
        return None
    pygame.display.set_caption(title)
    return screen


ZERO_DELAY = "--delay 0 puts live hole cards on the picture: add --allow-zero-delay (a private game only)"


def number(*, positive: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number, 0 or more (`positive`: more than 0), e.g. seconds or a speed."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise argparse.ArgumentTypeError(f"{text!r} must be {'more than' if positive else 'at least'} zero")
        return value
    return parse
