"""The screen's main loop: redraws when a snapshot arrives or a shown timer ticks, else sleeps."""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator

import pygame

from display.broadcast import PanelImages, broadcast_frame, render_broadcast, warm_up_steps
from display.cards import CardPainter
from display.delay import DelayedSnapshots
from display.display_config import DisplayConfig, View
from display.operator import OperatorStatus, on_air_lines, render_operator
from display.venue import render_venue
from display.widgets import clock_remaining
from firmware_py.core.snapshot import TableSnapshot
from firmware_py.odds.chances import ChancesCache
from firmware_py.tournament.notice import TournamentNotice

logger = logging.getLogger(__name__)

TICK_SLACK_S = 0.002  # wake this much after a second boundary so the new digit is due
# SDL's event wait polls every millisecond under some video drivers (about 2% of a core idle), so
# the loop sleeps on a threading.Event instead and looks at window events this often.
WINDOW_POLL_S = 0.25


def init_display() -> None:
    """Start pygame's display and fonts for a screen; pygame.error when no display answers (SDL would
    otherwise fall back to drawing off screen, and a window would run where no one sees it)."""
    pygame.display.init()
    pygame.font.init()
    driver = pygame.display.get_driver()
    if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
        pygame.display.quit()
        raise pygame.error(f"no display answers there (SDL fell back to its {driver} driver)")


def is_close_key(event: pygame.event.Event) -> bool:
    """Esc or q: the keys that close a window of the project (the window's close button is QUIT)."""
    return event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_q)


def _next_boundary(now: float, remaining: float) -> float:
    """When a countdown of `remaining` seconds next shows a different whole second."""
    fraction = remaining % 1.0
    return now + (fraction if fraction > 1e-6 else 1.0) + TICK_SLACK_S


class Screen:
    """One view: it keeps the snapshots it is given, draws a picture, and says when it goes stale.

    The daemon calls `update` with every new snapshot (the live state); the broadcast view holds
    them back for the configured delay itself, so a caller cannot show one early by mistake.
    """

    def __init__(self, *, view: View, config: DisplayConfig, painter: CardPainter | None = None,
                 chances: ChancesCache | None = None) -> None:
        self.view = view
        self.config = config
        self.painter = painter or CardPainter()
        # Computed in the frame unless the caller gives a cache with a worker (the daemon's screen):
        # a still picture (`snapshot`, tests) then always shows the finished chances.
        self.chances = chances or ChancesCache()
        self.delayed: DelayedSnapshots[TableSnapshot] = DelayedSnapshots(
            delay_s=config.broadcast_delay_s)
        self.live: TableSnapshot | None = None
        self.panels = PanelImages()  # the broadcast panels this screen drew, copied when unchanged
        self.operator: OperatorStatus | None = None
        self.keyed = ""  # the amount the dealer is keying on the USB keypad (the venue view shows it)
        self.pairing = ""  # the action tracker's pairing code (the venue view shows it)
        self.tournament: TournamentNotice | None = None  # the director's word to this table (the venue view)
        self.tournament_at = 0.0  # session time when it came: its level clock counts down from there

    def update(self, snapshot: TableSnapshot, *, t: float | None = None) -> None:
        """A new live snapshot, taken at session time `t` (its own `t` by default)."""
        self.live = snapshot
        if self.view in (View.BROADCAST, View.OPERATOR):  # the operator sees when the picture on air changes
            self.delayed.push(snapshot.t if t is None else t, snapshot)
        if self.view == View.BROADCAST:
            self.chances.prefetch(snapshot)  # computed while it waits for the delay: on air it is ready

    def warm_up(self, size: tuple[int, int]) -> None:
        """Before the first frame: the broadcast view rehearses its pictures off screen at `size`, so the first
        hand on air is not the first sight of every text size and card face (`display.broadcast.warm_up`
        says why). Seconds under qemu, once; the other views draw too little to need it."""
        for step in self.warm_up_steps(size):
            step()

    def warm_up_steps(self, size: tuple[int, int]) -> Iterator[Callable[[], object]]:
        """`warm_up` in steps of a few milliseconds: what the loop runs between frames after a resize."""
        if self.view == View.BROADCAST:
            yield from warm_up_steps(size, config=self.config)

    def draw(self, surface: pygame.Surface, now: float) -> None:
        if self.view == View.VENUE:
            render_venue(surface, self.live, now=now, config=self.config, painter=self.painter,
                         keyed=self.keyed, pairing=self.pairing, tournament=self.tournament,
                         tournament_left=self._tournament_left(now))
            return
        if self.view == View.OPERATOR:
            render_operator(surface, self.live, operator=self.operator, on_air=on_air_lines(self.delayed, now))
            return
        # Only the delayed snapshots reach the broadcast picture: not self.live, not self.operator.
        frame = broadcast_frame(self.delayed, now=now, chances=self.chances)
        render_broadcast(surface, frame, config=self.config, painter=self.painter, panels=self.panels)

    def next_tick(self, now: float) -> float | None:
        """Session time at which the picture changes with no new snapshot; None if it never does."""
        ticks: list[float] = []
        if self.view == View.VENUE:
            level = self.config.level_at(now)
            left = self._tournament_left(now)
            if left is None and level.seconds_left is not None:  # in a tournament the file's schedule is not shown
                ticks.append(_next_boundary(now, level.seconds_left))
            clock = self.live.clock if self.live is not None else None
            if clock is not None and clock_remaining(clock, now) > 0:
                ticks.append(_next_boundary(now, clock_remaining(clock, now)))
            if left and self.tournament is not None and self.tournament.running:
                ticks.append(_next_boundary(now, left))
        else:
            release = self.delayed.next_release(now)
            if release is not None:
                ticks.append(_next_boundary(now, release - now))
        return min(ticks) if ticks else None

    def _tournament_left(self, now: float) -> float | None:
        """Seconds left in the director's level or break at session time `now`; None outside a tournament."""
        notice = self.tournament
        if notice is None or not notice.level:
            return None
        return notice.seconds_left(max(0.0, now - self.tournament_at))


class DisplayLoop:
    """Runs a Screen on a pygame display surface. `post` may be called from any thread.

    It sleeps until a snapshot is posted, the next timer tick is due, or (every WINDOW_POLL_S) to
    read window events: no busy loop, so an idle table costs next to no CPU.
    """

    def __init__(self, *, screen: Screen, clock: Callable[[], float],
                 on_frame: Callable[[float, int], None] | None = None, close_keys: bool = False) -> None:
        self.screen = screen
        self.clock = clock
        self.on_frame = on_frame  # called after each flip with (session time, frame number)
        # Esc and q close a window; the appliance's full screen ignores them, as a keypad's Esc clears
        # an amount and no key may stop the table.
        self.close_keys = close_keys
        self.frames = 0
        self.last_frame_s = 0.0  # how long the last frame took to draw and flip (for the benchmark)
        self.last_frame_cpu_s = 0.0  # the CPU time this thread spent on it (the wall time less waiting)
        self._lock = threading.Lock()
        self._pending: list[tuple[TableSnapshot, float | None]] = []
        self._wake = threading.Event()
        self._stop = False
        self._chances_ready = False
        self._keyed_changed = False
        self._warmed_size: tuple[int, int] | None = None  # the size the screen's rehearsal was drawn at
        self._warming: Iterator[Callable[[], object]] | None = None  # its steps still to run, after a resize
        screen.chances.on_ready = self._on_chances  # results from the worker redraw the picture

    def post(self, snapshot: TableSnapshot, *, t: float | None = None) -> None:
        """Hand a new snapshot to the loop (thread-safe); the next frame shows it."""
        with self._lock:
            self._pending.append((snapshot, t))
        self._wake.set()

    def stop(self) -> None:
        self._stop = True
        self._wake.set()

    def post_keyed(self, text: str) -> None:
        """The digits keyed so far on the keypad (thread-safe); '' once the action key sent them."""
        self.screen.keyed = text
        self._keyed_changed = True
        self._wake.set()

    def post_pairing(self, code: str) -> None:
        """The action tracker's pairing code (thread-safe): the venue view shows it between hands."""
        self.screen.pairing = code
        self._keyed_changed = True
        self._wake.set()

    def post_tournament(self, notice: TournamentNotice) -> None:
        """What the tournament director tells this table (thread-safe): the venue view shows it."""
        self.screen.tournament_at = self.clock()
        self.screen.tournament = notice
        self._keyed_changed = True
        self._wake.set()

    def _on_chances(self) -> None:
        self._chances_ready = True
        self._wake.set()

    def run(self) -> None:
        try:
            surface = pygame.display.get_surface()
            if surface is not None:
                self.screen.warm_up(surface.get_size())
                self._warmed_size = surface.get_size()
            # Start-up is over: what lives now (modules, profiles, fonts, the warm-up's images) lives as long as
            # the process. Frozen, it is no longer walked by the collector's full collections, which took 60 to
            # 250 ms under qemu, in whichever thread allocated, and held a frame (as its own CPU, or waiting for
            # the GIL).
            gc.collect()
            gc.freeze()
            self._run()
        finally:
            self.screen.chances.close()

    def _run(self) -> None:
        dirty = True
        tick: float | None = None
        while not self._stop:
            now = self.clock()
            if dirty or (tick is not None and now >= tick - TICK_SLACK_S):
                self._draw(now)
                tick = self.screen.next_tick(now)
                dirty = False
            wait_s = WINDOW_POLL_S if tick is None else min(WINDOW_POLL_S, tick - self.clock())
            if wait_s > 0 and self._warming is not None and not self._wake.is_set():
                self._warm_step()  # the screen changed size: its rehearsal a step at a time, between frames
                wait_s = 0
            if wait_s > 0:
                self._wake.wait(wait_s)
            self._wake.clear()
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (self.close_keys and is_close_key(event)):
                    self._stop = True
                elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWEXPOSED):
                    dirty = True
            if self._take_pending() or self._chances_ready or self._keyed_changed:
                self._chances_ready = self._keyed_changed = False
                dirty = True

    def _take_pending(self) -> bool:
        with self._lock:
            pending, self._pending = self._pending, []
        for snapshot, t in pending:
            self.screen.update(snapshot, t=t)
        return bool(pending)

    def _warm_step(self) -> None:
        """One step of the rehearsal at the screen's new size; after the last, what it kept is frozen as the
        start-up's is (`run`)."""
        assert self._warming is not None
        try:
            next(self._warming)()
        except StopIteration:
            self._warming = None
            gc.freeze()
        except Exception:  # a rehearsal is no reason to stop the screen
            logger.exception("warming the %s view up after a resize failed", self.screen.view)
            self._warming = None

    def _draw(self, now: float) -> None:
        started, started_cpu = time.perf_counter(), time.thread_time()
        surface = pygame.display.get_surface()
        if surface is not None and surface.get_size() != self._warmed_size:
            # Resized (a window, or a screen that changed mode): this frame is drawn as it comes, and the
            # rehearsal at the new size runs between the frames that follow (start-up's ran before the first).
            self._warmed_size = surface.get_size()
            self._warming = self.screen.warm_up_steps(self._warmed_size)
        # The collector waits for the frame: a collection due meanwhile (in any of the process's threads: it
        # holds the GIL while it runs, 1-20 ms under qemu) runs at the first allocation after it instead.
        collecting = gc.isenabled()
        gc.disable()
        try:
            try:
                self.screen.draw(surface, now)
            except Exception:  # a bad snapshot must not take the screen down: log, keep the old frame
                logger.exception("drawing the %s view failed", self.screen.view)
                return
            pygame.display.flip()
        finally:
            if collecting:
                gc.enable()
        self.last_frame_s = time.perf_counter() - started
        self.last_frame_cpu_s = time.thread_time() - started_cpu
        self.frames += 1
        if self.on_frame is not None:
            self.on_frame(now, self.frames)
