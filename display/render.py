"""Headless pictures of a view, for the `snapshot` command, tests and the README."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pygame

from display.app import Screen
from display.cards import CardPainter
from display.display_config import DisplayConfig, View
from firmware_py.core.snapshot import TableSnapshot


def init_headless() -> None:
    """Start pygame's display and fonts without a screen (SDL's dummy driver) and without sound."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()


def render_view(view: View, history: Iterable[tuple[float, TableSnapshot]], *, at: float,
                size: tuple[int, int], config: DisplayConfig,
                painter: CardPainter | None = None) -> pygame.Surface:
    """The picture of `view` at session time `at`, given the snapshots taken up to then.

    `history` is (time, snapshot) pairs in time order: the venue view shows the last; the
    broadcast view shows the newest one at least the configured delay old.
    """
    init_headless()
    screen = Screen(view=view, config=config, painter=painter)
    for t, snapshot in history:
        if t <= at:
            screen.update(snapshot, t=t)
    surface = pygame.Surface(size)
    screen.draw(surface, at)
    return surface


def save_png(surface: pygame.Surface, path: str | Path, *, private: bool = False) -> None:
    """Write the picture; `private` (it shows hole cards): mode 0600 from the first byte, whatever was there."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not private:
        pygame.image.save(surface, str(path))
        return
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(handle.fileno(), 0o600)
        pygame.image.save(surface, handle, path.name)
