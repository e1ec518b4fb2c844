"""One module per command of `python -m firmware_py` (see cli.py), and what several of them share."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
