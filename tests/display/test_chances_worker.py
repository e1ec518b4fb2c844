"""Win chances off the frame: a worker process computes them, the frame shows the last result and says "computing"."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import threading
import time
from pathlib import Path

import pygame
import samples
from pictures import count_colour

from display import theme
from display.app import DisplayLoop, Screen, View
from display.broadcast import broadcast_frame, render_broadcast
from display.cards import CardPainter
from display.delay import DelayedSnapshots
from display.display_config import DisplayConfig
from firmware_py.core.snapshot import TableSnapshot
from firmware_py.odds.chances import ChancesCache, _compute
from tests.rules.table_driver import Table

WAIT_S = 60.0  # a generous bound for a loaded machine; the worker needs well under a second here


def nine_handed_preflop() -> TableSnapshot:
    table = Table("robert", seats=tuple(range(1, 10)), button=1)
    table.new_hand()
    table.deal()
    return table.core.snapshot()


def ready_event(cache: ChancesCache) -> threading.Event:
    ready = threading.Event()
    cache.on_ready = ready.set
    return ready


def test_the_frame_never_computes_it_shows_computing_then_the_same_chances_as_in_the_frame():
    snapshot = nine_handed_preflop()
    cache = ChancesCache(background=True)
    ready = ready_event(cache)
    try:
        first = cache.lookup(snapshot)
        assert first.computing and first.chances is None  # nothing yet: the frame did not wait
        assert ready.wait(WAIT_S)
        done = cache.lookup(snapshot)
    finally:
        cache.close()
    assert not done.computing
    in_frame = ChancesCache().get(snapshot)  # seeded per deal: the worker's answer is the same
    assert done.chances == in_frame
    assert done.chances is not None and len(done.chances.seats) == 9


def test_while_the_next_street_computes_the_last_chances_of_the_same_deal_stay_on_screen():
    preflop = samples.dealt(t=1.0)
    flop = samples.dealt(t=2.0, board=("2s", "7h", "9d"))
    cache = ChancesCache(background=True)
    ready = ready_event(cache)
    try:
        cache.lookup(preflop)
        assert ready.wait(WAIT_S)
        ready.clear()
        before = cache.lookup(preflop).chances
        meanwhile = cache.lookup(flop)
        assert ready.wait(WAIT_S)
        after = cache.lookup(flop)
    finally:
        cache.close()
    assert meanwhile.computing and meanwhile.chances == before
    assert not after.computing and after.chances != before


def test_a_new_deal_shows_no_chances_of_the_old_one_while_computing():
    cache = ChancesCache(background=True)
    ready = ready_event(cache)
    try:
        cache.lookup(samples.dealt(t=1.0))
        assert ready.wait(WAIT_S)
        first = samples.dealt(t=2.0)
        other = dataclasses.replace(first, seats=first.seats[1:])  # seat 1 left: another deal
        meanwhile = cache.lookup(other)
    finally:
        cache.close()
    assert meanwhile.computing and meanwhile.chances is None


def test_the_broadcast_picture_says_computing():
    config = DisplayConfig(broadcast_delay_s=0, allow_zero_delay=True)
    delayed: DelayedSnapshots[TableSnapshot] = DelayedSnapshots(delay_s=0)
    snapshot = samples.dealt(t=1.0)
    delayed.push(1.0, snapshot)
    cache = ChancesCache(background=True)
    try:
        frame = broadcast_frame(delayed, now=1.0, chances=cache)
    finally:
        cache.close()
    assert frame.computing and frame.chances is None
    computing = pygame.Surface((800, 480))
    render_broadcast(computing, frame, config=config, painter=CardPainter())
    finished = pygame.Surface((800, 480))
    render_broadcast(finished, broadcast_frame(delayed, now=1.0, chances=ChancesCache()),
                     config=config, painter=CardPainter())
    board_side = pygame.Rect(0, 30, 150, 170)  # left of the board: "win chances" and its note
    assert count_colour(computing, theme.ACCENT, board_side) > 20  # "computing…" in the accent colour
    assert count_colour(finished, theme.ACCENT, board_side) == 0
    assert count_colour(finished, theme.WIN_BAR) > count_colour(computing, theme.WIN_BAR)  # no bars yet


def test_the_loop_redraws_when_the_worker_answers():
    pygame.display.set_mode((800, 480))
    config = DisplayConfig(broadcast_delay_s=0, allow_zero_delay=True)
    screen = Screen(view=View.BROADCAST, config=config, chances=ChancesCache(background=True))
    start = time.perf_counter()
    loop = DisplayLoop(screen=screen, clock=lambda: time.perf_counter() - start)
    answered: list[int] = []  # the frames drawn when the worker's answer came
    tell_the_loop = screen.chances.on_ready
    assert tell_the_loop is not None

    def on_ready() -> None:
        answered.append(loop.frames)
        tell_the_loop()

    screen.chances.on_ready = on_ready
    snapshot = nine_handed_preflop()

    def feed() -> None:
        time.sleep(0.1)
        loop.post(snapshot, t=0.0)
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and not answered:
            time.sleep(0.05)
        time.sleep(0.3)
        loop.stop()

    thread = threading.Thread(target=feed)
    thread.start()
    loop.run()
    thread.join()
    assert answered and answered[0] >= 2  # the first picture, then the snapshot's (computing)
    assert loop.frames > answered[0]  # and one more with the chances, with no new snapshot
    assert not screen.chances.lookup(snapshot).computing


def _dies_in_the_worker(key, rng):
    if multiprocessing.parent_process() is not None:
        os._exit(3)  # the worker process dies mid-calculation
    return _compute(key, rng)


def test_if_the_worker_dies_the_frame_computes_the_chances_again():
    snapshot = samples.dealt(t=1.0)
    cache = ChancesCache(background=True, compute=_dies_in_the_worker)
    ready = ready_event(cache)
    try:
        assert cache.lookup(snapshot).computing
        assert ready.wait(WAIT_S)  # told to redraw: the worker is gone
        after = cache.lookup(snapshot)
    finally:
        cache.close()
    assert not after.computing
    assert after.chances == ChancesCache().get(snapshot)


PID_FILE = "CHANCES_TEST_PID_FILE"


def _never_done(key, rng):
    """A calculation still running when the screen stops; it names its process first."""
    with open(os.environ[PID_FILE], "w") as out:
        out.write(str(os.getpid()))
    time.sleep(600)


def test_closing_abandons_a_calculation_under_way_and_the_process_exits(tmp_path, monkeypatch):
    """close() stops the worker process at once: before, the interpreter's exit waited for the running
    calculation (a stopping `broadcast` command outlived its 30 s allowance under load).

    The process checked is the one that wrote its pid from inside the calculation: under xdist, other
    tests' threads in this process may start children of their own at the same moment."""
    pid_file = tmp_path / "worker.pid"
    monkeypatch.setenv(PID_FILE, str(pid_file))  # a spawned worker inherits the environment
    snapshot = samples.dealt(t=1.0)
    cache = ChancesCache(background=True, compute=_never_done)
    started = time.monotonic()
    assert cache.lookup(snapshot).computing
    while not (pid_file.exists() and pid_file.read_text()):
        assert time.monotonic() - started < WAIT_S, "the worker never started the calculation"
        time.sleep(0.05)
    pid = int(pid_file.read_text())
    [process] = [child for child in multiprocessing.active_children() if child.pid == pid]
    cache.close()
    process.join(WAIT_S)
    assert exited(pid), f"the worker {pid} still runs: {Path(f'/proc/{pid}/status').read_text()[:300]}"
    assert time.monotonic() - started < WAIT_S  # not the 600 s calculation


def exited(pid: int) -> bool:
    """Whether the process has ended: gone, or a zombie not yet reaped (is_alive() alone says True for a child
    something else in this process reaped first, as CI twice saw)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")
