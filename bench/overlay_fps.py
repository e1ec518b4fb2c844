"""Frame pacing of the overlay page in headless chromium while a hand is played at 10 actions a second.

    python bench/overlay_fps.py [--seconds 20] [--rounds 3] [--rate 10] [--size 1920x1080]

The production side (the real Starlette app, uvicorn, the delay and the reveal policy) pushes a new
message to the page every 1/rate seconds: the side-pot hand of tests/sessions, played again and again
with each hand's messages in order. Debian's chromium (Playwright, executable path) draws it; the page
records every requestAnimationFrame timestamp. Reported per round: frames per second, the median and
99th-percentile frame interval, frames longer than 1.5 vsync intervals (25 ms: a frame missed), and
messages drawn per second, and the page's own time to draw a message. Each round is run twice on the same
page: with the table idle (what the shared machine alone costs the page's frames) and at the rate; then
the median of the rounds. Goal: 60 fps held at 10 actions a second.
Results also go to bench/results/overlay_fps.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import threading
import time

import msgspec
from _startup import ROOT

from firmware_py.room.broadcast import ChancesAhead, Production
from firmware_py.room.overlay import make_app
from firmware_py.room.overlay_theme import load_theme
from firmware_py.web.server import serve
from tests.overlay.hand import hand_messages

MISSED_MS = 25.0
MEASURE = """(seconds) => new Promise((done) => {
  const stamps = [], drawn0 = window.overlayFrames.length;  // (the page keeps its last 10,000 to 20,000)
  const first = performance.now();
  function frame(t) {
    stamps.push(t);
    if (t - first < seconds * 1000) requestAnimationFrame(frame);
    else done({ stamps, drawn: window.overlayFrames.length - drawn0,
                costs: window.overlayFrames.slice(drawn0).map((f) => f.ms) });
  }
  requestAnimationFrame(frame);
})"""


def feeder(production: Production, rate: float, stop: threading.Event, playing: threading.Event) -> None:
    """The table: a message every 1/rate s while `playing`, the hand replayed with new seqs and hand numbers."""
    steps = [step.feed for step in hand_messages()]
    table, seq, hand = production.table("t01"), 0, 0
    while not stop.is_set():
        hand += 1
        for feed in steps:
            while not playing.is_set() and not stop.is_set():
                playing.wait(0.1)
            seq += 1
            table.push(msgspec.structs.replace(feed, seq=seq, hand=hand, t=seq / rate), time.monotonic())
            if stop.wait(1.0 / rate):
                return


def run_round(page: object, seconds: float) -> dict[str, float]:
    result = page.evaluate(MEASURE, seconds)  # type: ignore[attr-defined]
    stamps, costs = result["stamps"], sorted(result["costs"]) or [0.0]
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    span = (stamps[-1] - stamps[0]) / 1000
    gaps_sorted = sorted(gaps)
    return {"fps": round(len(gaps) / span, 2), "median_ms": round(statistics.median(gaps), 2),
            "p99_ms": round(gaps_sorted[int(0.99 * (len(gaps_sorted) - 1))], 2),
            "max_ms": round(max(gaps), 2), "missed": sum(1 for gap in gaps if gap > MISSED_MS),
            "frames": len(gaps), "messages_per_s": round(result["drawn"] / span, 2),
            "draw_median_ms": round(statistics.median(costs), 3), "draw_max_ms": round(costs[-1], 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=float, default=10.0, help="messages (actions) a second")
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    chances = ChancesAhead(background=False)
    for step in hand_messages():  # computed ahead, as the worker does during the delay
        chances.ask(chances.key(step.feed))
    production = Production(room="main", feature="t01", delay_s=0.5, chances=chances)
    server = serve(make_app(production, load_theme()))
    stop, playing = threading.Event(), threading.Event()
    playing.set()
    thread = threading.Thread(target=feeder, args=(production, args.rate, stop, playing), daemon=True)
    thread.start()
    rounds, idle = [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            try:
                page = browser.new_page(viewport={"width": size[0], "height": size[1]})
                page.goto(server.url + "/")
                page.wait_for_function("() => window.overlayFrames.length > 5 && window.overlayFrames.at(-1).seq")
                for number in range(1, args.rounds + 1):
                    playing.clear()
                    idle.append(run_round(page, args.seconds))
                    playing.set()
                    rounds.append(run_round(page, args.seconds))
                    print(f"round {number}: idle {idle[-1]}\n         {args.rate:g}/s {rounds[-1]}", flush=True)
            finally:
                browser.close()
    finally:
        stop.set()
        thread.join(5)
        server.stop()
        production.close()
    summary = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    quiet = {key: statistics.median(r[key] for r in idle) for key in idle[0]}
    print(f"overlay {args.size}, median of {len(rounds)} rounds of {args.seconds:g} s, load average "
          f"{os.getloadavg()[0]:.1f}:\n"
          f"  at {args.rate:g} actions/s: {summary['fps']:.1f} fps, frame interval median "
          f"{summary['median_ms']:.1f} ms, "
          f"p99 {summary['p99_ms']:.1f} ms, {summary['missed']:g} frames over {MISSED_MS:g} ms, "
          f"{summary['messages_per_s']:.1f} messages drawn/s, {summary['draw_median_ms']:.2f} ms to draw one "
          f"(max {summary['draw_max_ms']:.1f})\n"
          f"  table idle: {quiet['fps']:.1f} fps, p99 {quiet['p99_ms']:.1f} ms, {quiet['missed']:g} frames over "
          f"{MISSED_MS:g} ms")
    out = ROOT / "bench" / "results" / "overlay_fps.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"args": vars(args), "rounds": rounds, "idle": idle, "median": summary,
                               "idle_median": quiet}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
