"""The main loop draws when a snapshot arrives or a shown timer ticks, and otherwise sleeps."""

from __future__ import annotations

import threading
import time

import pygame
import samples

from display.app import DisplayLoop, Screen, View
from display.display_config import BlindLevel, DisplayConfig


def test_loop_redraws_on_snapshots_only_when_nothing_ticks():
    pygame.display.set_mode((800, 480))
    config = DisplayConfig(blind_levels=(BlindLevel(small=25, big=50, minutes=20),))
    start = time.perf_counter()
    loop = DisplayLoop(screen=Screen(view=View.VENUE, config=config),
                       clock=lambda: time.perf_counter() - start)

    def feed() -> None:
        time.sleep(0.1)
        loop.post(samples.dealt(t=0.1))
        time.sleep(0.6)  # nothing changes: no frame should be drawn meanwhile
        loop.stop()

    thread = threading.Thread(target=feed)
    thread.start()
    loop.run()
    thread.join()
    assert loop.frames == 2  # the first picture and the one with the snapshot
    assert loop.screen.live is not None


def test_broadcast_ticks_until_the_held_snapshot_is_released():
    screen = Screen(view=View.BROADCAST, config=DisplayConfig(broadcast_delay_s=60))
    screen.update(samples.dealt(t=10))
    assert screen.next_tick(20.5) == __import__("pytest").approx(21.002)
    assert screen.next_tick(70.5) is None  # released; nothing more held
