"""Display benchmark: input event to the frame that shows it, idle CPU, frame times, win-chance timings.

Run as `python bench/bench_display.py [--seconds 3]`; prints a table and writes
bench/results/bench_display.json. Headless (SDL's dummy driver) unless SDL_VIDEODRIVER is set, so
on a Pi with a screen the figures include the real flip.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import io
import json
import os
import platform
import pstats
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable

from _startup import ROOT

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from display import cards, theme
from display.app import DisplayLoop, Screen, View
from display.display_config import BlindLevel, DisplayConfig
from firmware_py.core import Setup
from firmware_py.core.engine import TableCore
from firmware_py.odds.chances import ChancesCache
from firmware_py.odds.equity import calculate_equity
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck, read_session
from firmware_py.simulation.dealer import DealerBot

SESSION = ROOT / "tests" / "sessions" / "clean_showdown.jsonl"
DECK = ROOT / "config" / "decks" / "test-red.json"
FRAME_BUDGET_MS = 33.0  # 30 frames a second
DENSE_GAP_S = 0.02  # the dense pace: an event every 20 ms, far denser than any dealer (a stress figure)
# The dealer's pace: each event after the one before as the simulated dealer times them (0.4 s a card from the
# shoe, 0.2 s a board card, 2 s a player's action), each wait cut to this at most so a run stays short: denser
# than the dealer, never sparser.
DEALER_MAX_GAP_S = 0.5
HANDS = [("As", "Ah"), ("Kd", "Kc"), ("7s", "8s"), ("2c", "2d"), ("Jh", "Th"), ("Qs", "3d"),
         ("4h", "5h"), ("9c", "9h"), ("6d", "6c"), ("Ac", "Ks")]


def event_to_frame(size: tuple[int, int], rounds: int) -> list[float]:
    """Milliseconds from feeding an event to the core until the frame showing it is flipped."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(size)
    events = [event for _, event in read_session(SESSION)]
    start = time.perf_counter()
    screen = Screen(view=View.VENUE, config=DisplayConfig())
    shown = threading.Event()
    loop = DisplayLoop(screen=screen, clock=lambda: time.perf_counter() - start,
                       on_frame=lambda _now, _n: shown.set())
    latencies: list[float] = []

    def feeder() -> None:
        shown.wait(5)  # the first frame
        for _ in range(rounds):
            core = TableCore(load_profiles())
            for event in events:
                shown.clear()
                t0 = time.perf_counter()
                core.feed(event)
                loop.post(core.snapshot())
                shown.wait(5)
                latencies.append((time.perf_counter() - t0) * 1000)
        loop.stop()

    run_with_feeder(loop, feeder)
    return latencies


def run_with_feeder(loop: DisplayLoop, feeder: Callable[[], None]) -> None:
    """Run the display loop here (pygame's thread) while `feeder` posts to it from another thread."""
    thread = threading.Thread(target=feeder, daemon=True)
    thread.start()
    loop.run()
    thread.join()
    pygame.display.quit()


def idle(size: tuple[int, int], seconds: float, *, level_clock: bool) -> dict[str, float]:
    """CPU used by the loop with no events: with a blind-level countdown (1 Hz) or none at all."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(size)
    levels = (BlindLevel(small=25, big=50, minutes=20),) * (2 if level_clock else 1)
    screen = Screen(view=View.VENUE, config=DisplayConfig(blind_levels=levels))
    start = time.perf_counter()
    marks: dict[str, float] = {}

    def first_frame(_now: float, frame: int) -> None:
        if frame == 1:  # measure from the first frame on: font loading is start-up, not idling
            marks["cpu"], marks["wall"] = time.process_time(), time.perf_counter()
            threading.Timer(seconds, loop.stop).start()

    loop = DisplayLoop(screen=screen, clock=lambda: time.perf_counter() - start,
                       on_frame=first_frame)
    loop.run()
    cpu = time.process_time() - marks["cpu"]
    wall = time.perf_counter() - marks["wall"]
    pygame.display.quit()
    return {"cpu_percent": 100 * cpu / wall, "frames": loop.frames - 1, "seconds": wall}


def frame_times(size: tuple[int, int], seats: int, hands: int, *, worker: bool, ready: bool = False,
                pace: str = "dense", profile: int = 0, worker_cpu: int | None = None) -> dict[str, float]:
    """Every frame's draw-and-flip time on the broadcast view (no delay) while a dealer bot deals
    `hands` hands at `seats` seats, at `pace`: "dense", an event every DENSE_GAP_S, or "dealer", as the
    simulated dealer times them (each wait at most DEALER_MAX_GAP_S). Each deal needs new win chances,
    computed in the worker process (`worker`) or, as before, inside the frame. `ready`: every deal's
    chances are computed before the dealing starts (no worker runs beside the frames: what the frame
    costs when nothing else in the appliance competes for the processor). `profile`: each frame is profiled
    (cProfile, which slows it) and the `profile` frames with the most CPU are printed. `worker_cpu`: the
    chances worker runs on that core alone (`--pin`)."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(size)
    profiles = load_profiles()
    deck = load_deck(DECK)
    numbers = tuple(range(1, seats + 1))
    bot = DealerBot(rng=random.Random(seats), deck=deck, profile=profiles["robert"], seats=numbers, button=1)
    events = [Setup(t=0.0, profile="robert", seats=numbers, button=1, decks=(deck,), in_play=deck.name)]
    first_hand = 0
    for hand in bot.session(hands, t=1.0):
        events.extend(hand.events)
        first_hand = first_hand or len(events)
    gaps = [DENSE_GAP_S if pace == "dense" else min(DEALER_MAX_GAP_S, max(0.0, after.t - before.t))
            for before, after in zip(events, [*events[1:], events[-1]], strict=True)]
    _cold_start()
    config = DisplayConfig(broadcast_delay_s=0, allow_zero_delay=True)
    chances = ChancesCache(background=worker and not ready)
    if worker_cpu is not None:
        for process in (getattr(chances._worker, "_processes", None) or {}).values():
            os.sched_setaffinity(process.pid, {worker_cpu})
    if ready:
        core = TableCore(profiles)
        for event in events:
            core.feed(event)
            chances.get(core.snapshot())
    screen = Screen(view=View.BROADCAST, config=config, chances=chances)
    start = time.perf_counter()
    # (wall ms, the display thread's CPU ms, its ms waiting for a core, when it ended) per frame
    frames: list[tuple[float, float, float, float]] = []
    first_frame = threading.Event()

    def on_frame(_now: float, _frame: int) -> None:
        frames.append((loop.last_frame_s * 1000, loop.last_frame_cpu_s * 1000, loop.last_frame_queued_s * 1000,
                       time.perf_counter()))
        first_frame.set()

    loop = (functools.partial(ProfiledLoop, keep=profile) if profile else QueueTimedLoop)(
        screen=screen, clock=lambda: time.perf_counter() - start, on_frame=on_frame)
    later = [float("inf")]  # when the second hand's first event was posted

    def feeder() -> None:
        core = TableCore(profiles)
        first_frame.wait(600)  # start-up (the view's warm-up, then its first frame) is not dealing
        time.sleep(0.5)
        for index, event in enumerate(events):
            if index == first_hand:
                later[0] = time.perf_counter()
            core.feed(event)
            loop.post(core.snapshot(), t=0.0)
            time.sleep(gaps[index])
        time.sleep(1.0)  # the last chances arrive
        loop.stop()

    collections: list[tuple[float, float, int]] = []  # the collector's runs: start, end, generation
    gc.callbacks.append(collector := _CollectorTimes(collections))
    try:
        run_with_feeder(loop, feeder)
    finally:
        gc.callbacks.remove(collector)
    if isinstance(loop, ProfiledLoop):
        loop.report(f"{seats} seats", later[0])
    frames = frames[1:]  # the first frame loads the fonts: start-up, not dealing
    wall = sorted(frame[0] for frame in frames)
    cpu = sorted(frame[1] for frame in frames)
    longest = max(frames)
    over = [frame for frame in frames if frame[0] > FRAME_BUDGET_MS]
    # After the first hand the glyphs, card faces and lines a hand draws have been drawn once.
    after_first = [frame for frame in frames if frame[3] > later[0]] or [(0.0, 0.0, 0.0, 0.0)]
    # The collector's time inside frames (in any thread: a collection holds the GIL), and its longest run.
    in_frames = [(min(end, f[3]) - max(begin, f[3] - f[0] / 1000), generation)
                 for f in frames for begin, end, generation in collections
                 if begin < f[3] and end > f[3] - f[0] / 1000]
    return {"frames": len(frames), "median_ms": statistics.median(wall), "p99_ms": _p99(wall),
            "max_ms": wall[-1], "over_budget": len(over),
            "cpu_median_ms": statistics.median(cpu), "cpu_p99_ms": _p99(cpu), "cpu_max_ms": cpu[-1],
            "later_max_ms": max(f[0] for f in after_first), "later_cpu_max_ms": max(f[1] for f in after_first),
            "later_over_budget": sum(1 for f in after_first if f[0] > FRAME_BUDGET_MS),
            "later_frames": len(after_first),
            # where the longest frame's time went: its own CPU, waiting for a core (another process, the
            # worker or a neighbour, had it), and the rest (waiting for the GIL: another thread of this
            # process, the feeder or the worker's result thread, held it)
            "longest_cpu_ms": longest[1], "longest_queued_ms": longest[2],
            "longest_rest_ms": max(0.0, longest[0] - longest[1] - longest[2]),  # schedstat is coarse
            # the same over every frame over budget, summed
            "over_wall_ms": sum(f[0] for f in over), "over_cpu_ms": sum(f[1] for f in over),
            "over_queued_ms": sum(f[2] for f in over),
            "gc_in_frames": len(in_frames), "gc_in_frames_ms": 1000 * sum(ms for ms, _ in in_frames),
            "gc_full_in_frames": sum(1 for _, generation in in_frames if generation == 2),
            "gc_max_ms": 1000 * max((end - begin for begin, end, _ in collections), default=0.0)}


class _CollectorTimes:
    """A gc callback noting when each collection ran (perf_counter seconds) and its generation."""

    def __init__(self, out: list[tuple[float, float, int]]) -> None:
        self.out = out
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        else:
            self.out.append((self.started, time.perf_counter(), info["generation"]))


def _cold_start() -> None:
    """Forget the fonts, glyphs, text, card faces and shapes an earlier run drew: every run starts as a screen
    does (its warm-up included)."""
    for module, name in ((theme, "_font_at"), (theme, "_rendered"), (theme, "text_size"), (theme, "ink_top"),
                         (theme, "_glyph_top"), (theme, "_shape"), (theme, "_ellipsize"), (cards, "face_image")):
        clear = getattr(getattr(module, name, None), "cache_clear", None)  # (an older display/ lacks some)
        if clear is not None:
            clear()
    getattr(theme, "_SIZES_OPENED", set()).clear()


def _run_queue_s() -> float:
    """Seconds this thread has waited on a run queue for a core (Linux's schedstat; 0 elsewhere)."""
    try:
        with open("/proc/thread-self/schedstat") as handle:
            return int(handle.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class QueueTimedLoop(DisplayLoop):
    """The display loop, also timing how long each frame waited for a core (runnable, not running)."""

    last_frame_queued_s = 0.0

    def _draw(self, now: float) -> None:
        queued = _run_queue_s()
        super()._draw(now)
        self.last_frame_queued_s = _run_queue_s() - queued


class ProfiledLoop(QueueTimedLoop):
    """The display loop with each frame under cProfile, keeping the profiles of the `keep` frames that
    took the most CPU (the first frame, start-up, left out), to print what the longest frames spend on."""

    def __init__(self, *, keep: int, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.keep = keep
        self.worst: list[tuple[float, float, int, float, cProfile.Profile]] = []  # CPU s, wall s, frame, when

    def _draw(self, now: float) -> None:
        profile = cProfile.Profile(time.thread_time)  # its own CPU: not the time waiting for a core
        profile.enable()
        super()._draw(now)
        profile.disable()
        if self.frames > 1:
            self.worst.append((self.last_frame_cpu_s, self.last_frame_s, self.frames, time.perf_counter(), profile))
            self.worst.sort(key=lambda kept: -kept[0])
            del self.worst[self.keep:]

    def report(self, label: str, later: float) -> None:
        for cpu_s, wall_s, frame, when, profile in self.worst:
            hand = "the first hand" if when <= later else "after the first hand"
            print(f"--- profile, {label}, frame {frame} ({hand}): own CPU {cpu_s * 1000:.1f} ms, "
                  f"wall {wall_s * 1000:.1f} ms (both slowed by the profiler)")
            for order, count in (("tottime", 12), ("cumulative", 22)):
                out = io.StringIO()
                pstats.Stats(profile, stream=out).sort_stats(order).print_stats(count)
                print("\n".join(line for line in out.getvalue().splitlines()[4:] if line.strip()))


def _load_average() -> str:
    try:
        with open("/proc/loadavg") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:  # not Linux
        return "?"


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def equity_times(repeats: int) -> dict[str, float]:
    out = {}
    for players in (2, 6, 9, 10):
        for label, board in (("preflop", ()), ("flop", ("2s", "3s", "Td"))):
            times = []
            for seed in range(repeats):
                t0 = time.perf_counter()
                calculate_equity(HANDS[:players], board, rng=random.Random(seed))
                times.append((time.perf_counter() - t0) * 1000)
            out[f"{players} players {label}"] = statistics.median(times)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="idle measurement length")
    parser.add_argument("--rounds", type=int, default=3, help="session replays per size")
    parser.add_argument("--hands", type=int, default=6, help="hands dealt per frame-time run")
    parser.add_argument("--frames-only", action="store_true",
                        help="only the broadcast frame rows: chances in the worker, and computed before the deal")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="profile every frame (cProfile) and print the N frames with the most CPU")
    parser.add_argument("--seats", type=int, nargs="+", default=[9, 10], help="the frame rows' seats")
    parser.add_argument("--pace", nargs="+", choices=("dense", "dealer"), default=["dense"],
                        help="how fast the frame rows' events come: dense, one every "
                             f"{DENSE_GAP_S * 1000:g} ms (the stress figure, every row before this option), and/or "
                             "dealer, as the simulated dealer times them (0.4 s a card, 2 s an action; each wait "
                             f"at most {DEALER_MAX_GAP_S:g} s), chances in the worker only")
    parser.add_argument("--pin", metavar="FRAME,WORKER", default="",
                        help="run the frames (this process) on core FRAME and the chances worker on core WORKER "
                             "(Linux): the Pi's spare cores stood in for on a shared host, e.g. --pin 0,1")
    args = parser.parse_args()
    frame_cpu, worker_cpu = (int(cpu) for cpu in args.pin.split(",")) if args.pin else (None, None)
    if frame_cpu is not None:
        os.sched_setaffinity(0, {frame_cpu})  # before any thread starts: they all inherit it
    results: dict[str, object] = {
        "machine": platform.machine(), "python": platform.python_version(),
        "sdl_driver": os.environ["SDL_VIDEODRIVER"], "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    rows = []
    for size in () if args.frames_only else ((800, 480), (1920, 1080)):
        lat = event_to_frame(size, args.rounds)
        name = f"{size[0]}x{size[1]}"
        results[f"event_to_frame_ms_{name}"] = {
            "median": statistics.median(lat), "p95": sorted(lat)[int(len(lat) * 0.95)],
            "max": max(lat), "n": len(lat)}
        rows.append((f"event -> frame, venue {name}", f"median {statistics.median(lat):.1f} ms",
                     f"p95 {sorted(lat)[int(len(lat) * 0.95)]:.1f} ms, n={len(lat)}"))
        for level_clock in (False, True):
            stats = idle(size, args.seconds, level_clock=level_clock)
            key = f"idle_{name}_{'level_clock' if level_clock else 'no_timers'}"
            results[key] = stats
            rows.append((f"idle CPU, {name}, {'1 Hz level clock' if level_clock else 'no timers'}",
                         f"{stats['cpu_percent']:.2f} %",
                         f"{stats['frames']} redraws in {stats['seconds']:.1f} s"))
    modes = (("worker", True, False), ("ready", True, True)) if args.frames_only else \
        (("worker", True, False), ("in_frame", False, False))
    where = {"worker": "in the worker", "in_frame": "in the frame", "ready": "computed before the deal"}
    runs = [(seats, pace, mode, worker, ready) for pace in args.pace for seats in args.seats
            for mode, worker, ready in modes if pace == "dense" or mode == "worker"]
    for seats, pace, mode, worker, ready in runs:
        load = _load_average()
        stats = frame_times((800, 480), seats, args.hands, worker=worker, ready=ready, pace=pace,
                            profile=args.profile, worker_cpu=worker_cpu)
        stats["load_average"] = load
        results[f"broadcast_frames_{seats}_seats_{mode}{'' if pace == 'dense' else '_dealer_pace'}"] = stats
        pinned = f", pinned: frames on core {frame_cpu}, worker on {worker_cpu}" if args.pin else ""
        paced = f", an event every {DENSE_GAP_S * 1000:g} ms" if pace == "dense" else ", the dealer's pace"
        rows.append((f"broadcast frame, {seats} seats, chances {where[mode]}{paced}{pinned}",
                     f"max {stats['max_ms']:.1f} ms",
                     f"p99 {stats['p99_ms']:.1f} ms, median {stats['median_ms']:.1f} ms, "
                     f"{stats['over_budget']} of {stats['frames']} over {FRAME_BUDGET_MS:g} ms; "
                     f"the frame's own CPU: max {stats['cpu_max_ms']:.1f} ms, p99 {stats['cpu_p99_ms']:.1f} ms, "
                      f"median {stats['cpu_median_ms']:.1f} ms; after the first hand: longest "
                      f"{stats['later_max_ms']:.1f} ms (own CPU at most {stats['later_cpu_max_ms']:.1f} ms), "
                      f"{stats['later_over_budget']} of {stats['later_frames']} over {FRAME_BUDGET_MS:g} ms; "
                      f"the longest: {stats['longest_cpu_ms']:.1f} ms "
                      f"CPU, {stats['longest_queued_ms']:.1f} ms waiting for a core, "
                      f"{stats['longest_rest_ms']:.1f} ms the rest (the GIL); over {FRAME_BUDGET_MS:g} ms: "
                      f"{stats['over_cpu_ms']:.0f} ms CPU, {stats['over_queued_ms']:.0f} ms waiting for a core "
                      f"of {stats['over_wall_ms']:.0f} ms; the collector in frames: {stats['gc_in_frames']} "
                      f"runs ({stats['gc_full_in_frames']} full), {stats['gc_in_frames_ms']:.1f} ms, its longest "
                      f"run anywhere {stats['gc_max_ms']:.1f} ms; load average {load}"))
    if not args.frames_only:
        equity = equity_times(3)
        results["equity_ms_median"] = equity
        for label, ms in equity.items():
            rows.append((f"win chances, {label}", f"{ms:.1f} ms", ""))
    width = max(len(row[0]) for row in rows)
    for row in rows:
        print(f"{row[0]:<{width}}  {row[1]:>16}  {row[2]}")
    out = ROOT / "bench" / "results" / ("bench_frames.json" if args.frames_only else "bench_display.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
