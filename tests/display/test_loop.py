"""The main loop draws when a snapshot arrives or a shown timer ticks, and otherwise sleeps."""

from __future__ import annotations

import gc
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


def _stops_on_key(key: int, *, close_keys: bool) -> bool:
    """Whether the loop ends on its own within a second of `key` pressed in its window."""
    pygame.display.set_mode((800, 480))
    loop = DisplayLoop(screen=Screen(view=View.VENUE, config=DisplayConfig()), clock=time.perf_counter,
                       close_keys=close_keys)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    stopper = threading.Timer(1.0, loop.stop)
    stopper.start()
    started = time.perf_counter()
    loop.run()
    stopper.cancel()
    return time.perf_counter() - started < 0.9


def test_a_window_closes_on_escape_and_q_but_the_appliance_screen_ignores_them():
    # A window on a PC closes as windows do; on the appliance's full screen no key may stop the table
    # (the dealer's keypad has an Esc key: it clears an amount).
    assert _stops_on_key(pygame.K_ESCAPE, close_keys=True)
    assert _stops_on_key(pygame.K_q, close_keys=True)
    assert not _stops_on_key(pygame.K_a, close_keys=True)
    assert not _stops_on_key(pygame.K_ESCAPE, close_keys=False)


def test_the_daemons_screen_in_a_window_keeps_the_mouse_and_closes_on_q_the_full_screen_hides_it():
    from firmware_py.daemon.fault_state import FaultState  # noqa: PLC0415
    from firmware_py.daemon.screen import DisplayComponent  # noqa: PLC0415
    from firmware_py.daemon.table_config import ScreenConfig  # noqa: PLC0415

    for fullscreen in (False, True):
        closed = threading.Event()
        screen = DisplayComponent(ScreenConfig(size=(640, 400), fullscreen=fullscreen, display=DisplayConfig()),
                                  faults=FaultState(), clock=time.perf_counter, on_closed=closed.set)
        screen.start()
        try:
            if not fullscreen:
                assert pygame.display.get_surface().get_size() == (640, 400)
            assert pygame.mouse.get_visible() is not fullscreen  # hidden on the appliance's screen only
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0, unicode="q", scancode=0))
            assert closed.wait(2.0) is not fullscreen  # q closes the window; the full screen ignores it
        finally:
            screen.stop()
    pygame.display.init()  # the component quit the display: the other display tests expect it open
    pygame.font.init()


def test_the_collector_waits_for_the_frame():
    """No collection runs inside a frame (under qemu one held a frame 1-20 ms, from whichever thread allocated):
    the collector is off while the picture is drawn and on again after it, even when the drawing fails."""
    seen: list[bool] = []

    class Watched(Screen):
        def draw(self, surface: pygame.Surface, now: float) -> None:
            seen.append(gc.isenabled())
            if len(seen) == 2:
                loop.post(samples.dealt(t=0.1))  # the next one, drawn after this one fails
                raise ValueError("a bad snapshot")
            super().draw(surface, now)

    pygame.display.set_mode((800, 480))
    loop = DisplayLoop(screen=Watched(view=View.VENUE, config=DisplayConfig()), clock=time.perf_counter)
    posted = 0

    def on_frame(_now: float, _frame: int) -> None:
        nonlocal posted
        posted += 1
        if posted < 2:
            loop.post(samples.dealt(t=0.1))
        else:
            loop.stop()

    loop.on_frame = on_frame
    loop.post(samples.dealt(t=0.1))
    stopper = threading.Timer(30, loop.stop)  # only if the loop never draws
    stopper.start()
    assert gc.isenabled()
    loop.run()
    stopper.cancel()
    assert len(seen) >= 3 and not any(seen)
    assert gc.isenabled()
