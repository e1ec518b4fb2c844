"""The table's benchmarks: each figure a median over repeated runs, each comparison a ratio taken in the same run.

    python -m bench            # the full run: a few minutes on a 2-core machine
    python -m bench --quick    # fewer repeats and a smaller harness, for a check

Prints a table and writes `bench/results/bench.json` (with the machine it ran on).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson
from _startup import ROOT
from pokerkit import (
    Automation,
    Card,
    Deck,
    HandHistory,
    Mode,
    NoLimitTexasHoldem,
    StandardHighHand,
    calculate_equities,
    parse_range,
)

from bench.phh_sessions import PUBLIC_PHH
from firmware_py.core import Button, Event, Read, Setup
from firmware_py.core.engine import TableCore
from firmware_py.odds.equity import calculate_equity
from firmware_py.profiles import load_profiles
from firmware_py.session import event_to_json, load_deck, read_session
from firmware_py.simulation import harness
from firmware_py.simulation.dealer import DealerBot
from hardware.emulation.bus import EmulatedHardware, install_fake_modules
from hardware.emulation.chip import Tag
from hardware.hardware_config import SpiReaderConfig
from hardware.mfrc522_reader import Mfrc522Reader

try:
    import eval7  # C hand evaluator: the speed reference for equity
except ImportError:  # pragma: no cover - reported in the results instead
    eval7 = None

DATA = ROOT / "bench" / "data"
RESULTS = ROOT / "bench" / "results" / "bench.json"
DECKS = ROOT / "config" / "decks"
SESSION_HANDS = 500
SESSION_SEATS = (1, 2, 3, 4, 5, 6)
SESSION_SEED = 2024

Row = dict[str, Any]
_PROFILES: dict[str, Any] = {}


def profiles() -> dict[str, Any]:
    """The house-rule profiles, loaded once (loading is not what the replay measures)."""
    if not _PROFILES:
        _PROFILES.update(load_profiles())
    return _PROFILES


# -- helpers ------------------------------------------------------------------------------------------

def median_time(func: Callable[[], object], repeats: int) -> tuple[float, list[float]]:
    """Median CPU time of `func` over `repeats` runs (after one warm-up run), and every run's time.

    CPU time of this process, not wall time: everything timed here runs on this one thread, and on
    a shared machine the wall clock also counts the neighbours (medians swung 2-5x between runs).
    """
    func()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        func()
        times.append(time.process_time() - start)
    return statistics.median(times), times


def machine() -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return {"cpu": model, "cores": os.cpu_count(), "memory": memory, "os": platform.platform(),
            "python": platform.python_version(), "interpreter": interpreter()}


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages, or None where the system keeps none: the wall clock of a
    shared machine counts its neighbours, and the CPU times here still swing a few percent with them."""
    try:
        return [round(load, 2) for load in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def interpreter() -> str:
    """Which build of Python ran: its path, and whether it runs on a shared libpython. The interpreted
    ratios depend on it more than on the version: on one host the stdlib parse (the floor) took 28-30 ms
    under pyenv's 3.11.7 (libpython shared, no PGO) and 22-24 ms under Debian's 3.11.2 (static,
    PGO-built), while the interpreted core took about the same under both."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return sys.executable
    return f"{sys.executable}, {'libpython shared' if 'libpython' in maps else 'libpython static'}"


# -- the recorded session -----------------------------------------------------------------------------

def session_file() -> Path:
    """A 500-hand session by the seeded dealer bot (clean hands: pokerkit can play every one of them)."""
    path = DATA / f"session-{SESSION_HANDS}.jsonl"
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    profiles = load_profiles()
    red = load_deck(DECKS / "test-red.json")
    bot = DealerBot(rng=random.Random(SESSION_SEED), deck=red, profile=profiles["robert"], seats=SESSION_SEATS,
                    button=1)
    setup = Setup(t=0.0, profile="robert", seats=SESSION_SEATS, button=1, decks=(red,), in_play=red.name,
                  deck_files=(os.path.relpath(DECKS / "test-red.json", DATA),))
    lines = [json.dumps(event_to_json(setup))]
    for hand in bot.session(SESSION_HANDS, t=1.0):
        lines.extend(json.dumps(event_to_json(e)) for e in hand.events)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def replay_core(path: Path) -> int:
    core = TableCore(profiles())
    rulings = 0
    for _line, event in read_session(path):
        rulings += len(core.feed(event).rulings)
    return rulings


def feed_only(events: Sequence[Event]) -> int:
    core = TableCore(profiles())
    return sum(len(core.feed(event).rulings) for event in events)


def bare_parse(path: Path, loads: Callable[[str], object] = json.loads) -> int:
    """Each line parsed and thrown away: the floor (stdlib json), or with orjson (which the reader parses
    the lines its msgspec schema refuses with)."""
    count = 0
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                loads(line)
                count += 1
    return count


def pokerkit_hands(path: Path) -> list[list[tuple[str, str]]]:
    """The session's hands as (operation, card) steps for pokerkit, read from the same file."""
    red = load_deck(DECKS / "test-red.json")
    hands: list[list[tuple[str, str]]] = []
    for _line, event in read_session(path):
        if isinstance(event, Button) and event.name == "new_hand":
            hands.append([])
        elif isinstance(event, Read) and hands:
            hands[-1].append((event.antenna, red.cards[event.uid]))
        elif isinstance(event, Button) and hands and event.name in ("fold", "check", "call", "bet", "raise"):
            hands[-1].append((str(event.name), ""))
    return hands


def replay_pokerkit(hands: list[list[tuple[str, str]]], players: int) -> int:
    """pokerkit's `State` playing the same hands: the same cards dealt, burned and turned, the same actions."""
    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING,
                   Automation.CHIPS_PULLING)
    finished = 0
    for steps in hands:
        state = NoLimitTexasHoldem.create_state(automations, False, 0, (1, 2), 2, (10**6,) * players, players,
                                                mode=Mode.CASH_GAME)
        board: list[str] = []
        for what, card in steps:
            if what == "shoe":
                if state.can_deal_hole():
                    state.deal_hole(card)
                elif state.can_burn_card():
                    state.burn_card(card)
            elif card:
                board.append(card)
                if len(board) == (3 if not state.board_cards else 1):
                    state.deal_board("".join(board))
                    board = []
            elif what == "fold":
                state.fold()
            elif what in ("check", "call"):
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to()
        finished += not state.status
    return finished


def chips_session_files() -> tuple[Path, Path]:
    """A 500-hand session recorded by the simulated table, chips on and dealer errors at the default
    rate, exported as the table exports it: (session.jsonl, hands.phhs). Made once, then reused."""
    out = DATA / f"chips-{SESSION_HANDS}"
    session, phh = out / "session.jsonl", out / "hands.phhs"
    if session.exists() and phh.exists():
        return session, phh
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        journal = str(Path(tmp) / "journal.sqlite3")
        for command in (["run", "--simulate", "--headless", "--fresh", "--hands", str(SESSION_HANDS), "--seed", "1",
                         "--journal", journal], ["export", "--journal", journal, "--out", str(out)]):
            subprocess.run([sys.executable, "-m", "firmware_py", *command], cwd=ROOT, env=env, check=True,
                           stdout=subprocess.DEVNULL)
    # (The export writes the decks beside the session and names them relative to it: the file moves with
    # bench/data, into bench/compiled.sh's scratch copy, the arm64 chroot.)
    return session, phh


def phh_session_file() -> tuple[Path, list[Any]]:
    """The public hands of ../shared/phh/ dealt again as a session (bench/phh_sessions.py), and their PHH."""
    from bench.phh_sessions import convert, load_hands, phh_files  # noqa: PLC0415

    # The deck named relative to the session, as the chips session's: the file moves with bench/data (into
    # bench/compiled.sh's scratch copy, the arm64 chroot's install).
    converted = convert(load_hands(phh_files([PUBLIC_PHH])), relative_to=DATA)
    path = DATA / "phh-public.jsonl"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(line) + "\n" for line in converted.lines), encoding="utf-8")
    return path, converted.histories


def play_histories(histories: Sequence[Any]) -> int:
    """pokerkit playing PHH hand histories: each hand's state, action by action, to its end."""
    finished = 0
    for history in histories:
        state = None
        for state in history:  # noqa: B007 (the last state is the finished hand)
            pass
        finished += state is not None and not state.status
    return finished


def replay_sessions() -> dict[str, tuple[Path, Callable[[], int], int]]:
    """Each replayed session: its file, pokerkit playing the same hands, and how many hands that is."""
    path = session_file()
    hands = pokerkit_hands(path)
    sessions: dict[str, tuple[Path, Callable[[], int], int]] = {
        "bot": (path, lambda: replay_pokerkit(hands, len(SESSION_SEATS)), len(hands))}
    chips, phh = chips_session_files()
    with phh.open("rb") as handle:
        recorded = list(HandHistory.load_all(handle))
    sessions["chips"] = (chips, lambda: play_histories(recorded), len(recorded))
    if PUBLIC_PHH.is_dir():
        public, histories = phh_session_file()
        sessions["public"] = (public, lambda: play_histories(histories), len(histories))
    return sessions


SESSION_LABELS = {
    "bot": "the dealer bot's 500 clean hands, no chips",
    "chips": "500 hands recorded by `run --simulate` (chips, dealer errors), exported",
    "public": "the public hands of ../shared/phh/ (Pluribus), dealt again as a session",
}


def bench_replay(repeats: int, only: Sequence[str] | None = None) -> Row:
    """Each session replayed: the stdlib parse (the floor), the reader, the core, and pokerkit on the same hands."""
    rows: Row = {}
    sessions = replay_sessions()
    for name, (path, pokerkit_play, hands) in sessions.items():
        if only and name not in only:
            continue
        rows[name] = replay_row(path, pokerkit_play, hands, repeats) | {"label": SESSION_LABELS[name]}
    if "public" not in sessions and (not only or "public" in only):
        rows["public"] = f"not measured: no public hand histories in {PUBLIC_PHH} (shared/phh, beside the repository)"
    rows["goal"] = "core within 3x the bare parse compiled, 4x interpreted; at least 20x faster than pokerkit"
    return rows


def replay_row(path: Path, pokerkit_play: Callable[[], int], hands: int, repeats: int) -> Row:
    events = bare_parse(path)
    # Interleaved: each round times every measure once (pokerkit too), so a neighbour's load, or the host
    # running slower for a while, spreads over all of them; each ratio is the median of the rounds' own
    # ratios, not one median over another taken minutes apart (on this shared host the floor alone swung
    # 56-112 ms between runs a minute apart, and pokerkit's ratio 15-40x when it ran after the rest).
    measures: dict[str, Callable[[], object]] = {
        "floor_s": lambda: bare_parse(path),
        "floor_orjson_s": lambda: bare_parse(path, orjson.loads),
        "core_s": lambda: replay_core(path),
        "session_reader_s": lambda: sum(1 for _ in read_session(path)),
    }
    parsed = [event for _line, event in read_session(path)]
    measures["core_feed_only_s"] = lambda: feed_only(parsed)
    measures["pokerkit_s"] = pokerkit_play
    times: dict[str, list[float]] = {key: [] for key in measures}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns on folds with nothing to call; the dealer bot makes them
        done = pokerkit_play()
        for func in measures.values():
            func()  # warm-up
        for _ in range(repeats):
            for key, func in measures.items():
                start = time.process_time()
                func()
                times[key].append(time.process_time() - start)
    row: Row = {key: statistics.median(values) for key, values in times.items()}

    def rounds(over: str, under: str) -> list[float]:  # each round's own ratio
        return [a / b for a, b in zip(times[over], times[under], strict=True)]

    floor, pokerkit = rounds("core_s", "floor_s"), rounds("pokerkit_s", "core_s")
    return row | {"session": str(path.relative_to(ROOT)), "hands": hands, "events": events,
                  "pokerkit_hands_finished": done, "times": times,
                  "core_over_floor": statistics.median(floor), "core_over_floor_range": [min(floor), max(floor)],
                  "core_over_orjson_floor": statistics.median(rounds("core_s", "floor_orjson_s")),
                  "pokerkit_over_core": statistics.median(pokerkit),
                  "pokerkit_over_core_range": [min(pokerkit), max(pokerkit)]}


def bench_latency(repeats: int) -> Row:
    """Time from one input event to its ruling: `feed` on each event of the session, already parsed."""
    events: list[Event] = [event for _line, event in read_session(session_file())]
    rules = profiles()
    samples: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(repeats):
        core = TableCore(rules)
        for event in events:
            start = clock()
            core.feed(event)
            samples.append(clock() - start)
    samples.sort()
    return {"events_timed": len(samples), "median_us": statistics.median(samples) / 1e3,
            "p99_us": samples[int(0.99 * (len(samples) - 1))] / 1e3, "max_us": samples[-1] / 1e3,
            "goal": "p99 <= 1 ms"}


# -- equity -------------------------------------------------------------------------------------------

HEADS_UP = (("As", "Ks"), ("Qh", "Qd"))
HEADS_UP_FLOP = ("Jh", "Ts", "2c")
SIX_WAY = (("As", "Ah"), ("Kd", "Kc"), ("7s", "8s"), ("2c", "2d"), ("Jh", "Th"), ("Qs", "3d"))
TRIALS = 10_000


def _ours_flop() -> object:
    return calculate_equity(HEADS_UP, HEADS_UP_FLOP)


def _ours_six(seed: int = 1) -> object:
    return calculate_equity(SIX_WAY, rng=random.Random(seed), target_error=0.0, max_samples=TRIALS)


def _eval7_exact_flop() -> list[float]:
    hands = [[eval7.Card(c) for c in hand] for hand in HEADS_UP]
    board = [eval7.Card(c) for c in HEADS_UP_FLOP]
    used = {str(c) for c in (*hands[0], *hands[1], *board)}
    stub = [c for c in eval7.Deck().cards if str(c) not in used]
    wins = [0, 0]
    for extra in itertools.combinations(stub, 2):
        full = board + list(extra)
        a, b = eval7.evaluate(hands[0] + full), eval7.evaluate(hands[1] + full)  # higher is stronger
        if a != b:
            wins[0 if a > b else 1] += 1
    return wins


def _eval7_six(seed: int = 1) -> list[int]:
    rng = random.Random(seed)
    hands = [[eval7.Card(c) for c in hand] for hand in SIX_WAY]
    used = {str(c) for hand in hands for c in hand}
    stub = [c for c in eval7.Deck().cards if str(c) not in used]
    wins = [0] * len(hands)
    for _ in range(TRIALS):
        board = rng.sample(stub, 5)
        ranks = [eval7.evaluate(hand + board) for hand in hands]
        best = max(ranks)
        if ranks.count(best) == 1:
            wins[ranks.index(best)] += 1
    return wins


def _pokerkit_equity(hands: Sequence[Sequence[str]], board: Sequence[str], samples: int) -> list[float]:
    return calculate_equities(tuple(parse_range("".join(hand)) for hand in hands), Card.parse("".join(board)), 2, 5,
                              Deck.STANDARD, (StandardHighHand,), sample_count=samples)


def bench_equity(repeats: int) -> Row:
    row: Row = {"goal": "within 1.5x eval7"}
    spots = {
        "heads_up_flop_exact": (_ours_flop, _eval7_exact_flop, lambda: _pokerkit_equity(HEADS_UP, HEADS_UP_FLOP, 990)),
        "six_way_preflop_10k": (_ours_six, _eval7_six, lambda: _pokerkit_equity(SIX_WAY, (), TRIALS)),
    }
    have_eval7 = eval7 is not None
    for name, (ours, theirs, pokerkit) in spots.items():
        ours_s, _ = median_time(ours, repeats)
        spot: Row = {"ours_s": ours_s}
        if have_eval7:
            eval7_s, _ = median_time(theirs, repeats)
            spot |= {"eval7_s": eval7_s, "ours_over_eval7": ours_s / eval7_s}
        else:
            spot["eval7"] = "not installed (pip install eval7)"
        pokerkit_s, _ = median_time(pokerkit, max(1, repeats // 3))
        spot |= {"pokerkit_s": pokerkit_s, "pokerkit_over_ours": pokerkit_s / ours_s}
        row[name] = spot
    return row


# -- the MFRC522 driver on the emulated chip ------------------------------------------------------------

def bench_mfrc522(polls: int) -> Row:
    """SPI transfers per empty poll and per read: our driver, and the `mfrc522` package's SimpleMFRC522."""
    row: Row = {"polls": polls}
    with EmulatedHardware() as hw:
        chip = hw.add_mfrc522(bus=0, device=0, reset_pin=25)
        reader = Mfrc522Reader(SpiReaderConfig(antenna="shoe", bus=0, device=0, reset_pin=25),
                               open_spi=hw.open_spi, gpio=hw.gpio, sleep=hw.sleep)
        reader.open()
        row["ours"] = _count_polls(hw, chip, reader.poll, polls, Tag)
        reader.close()
    with EmulatedHardware() as hw:
        install_fake_modules()  # the package imports spidev and RPi.GPIO as it loads
        from mfrc522 import SimpleMFRC522  # noqa: PLC0415 (only after the fakes are installed)

        chip = hw.add_mfrc522(bus=0, device=0, reset_pin=22)  # SimpleMFRC522 is fixed to bus 0, device 0
        simple = SimpleMFRC522()
        row["simple_mfrc522"] = _count_polls(hw, chip, simple.read_id_no_block, polls, Tag)
    ours, theirs = row["ours"], row["simple_mfrc522"]
    row["simple_over_ours_empty"] = theirs["transfers_per_empty_poll"] / ours["transfers_per_empty_poll"]
    row["goal"] = "fewer SPI transfers than SimpleMFRC522; every poll sees a resting card"
    return row


def _count_polls(hw: Any, chip: Any, poll: Callable[[], object], polls: int, tag_type: Any) -> Row:
    chip.clear()
    chip.reset_counters()
    start = hw.now()
    for _ in range(polls):
        poll()
    empty = chip.transfers / polls
    empty_s = (hw.now() - start) / polls
    chip.place(tag_type.ntag("04A1B2C3D4E5F6"))
    chip.reset_counters()
    start = hw.now()
    seen = sum(1 for _ in range(polls) if poll())
    return {"transfers_per_empty_poll": empty, "transfers_per_poll_with_card": chip.transfers / polls,
            "bus_ms_per_empty_poll": empty_s * 1e3, "bus_ms_per_poll_with_card": (hw.now() - start) / polls * 1e3,
            "polls_seeing_the_card": f"{seen}/{polls}"}


# -- the daemon ---------------------------------------------------------------------------------------

def bench_daemon(seconds: float) -> Row:
    """Resident memory and CPU of `python -m firmware_py run --simulate --headless` while it runs."""
    command = [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--fresh", "--speed", "1",
               "--hands", "1000", "--journal", str(DATA / "bench-journal.sqlite3")]
    DATA.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    try:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError as exc:
        return {"status": f"not measured: {exc}"}
    try:
        time.sleep(min(3.0, seconds))  # start-up, imports, first hand
        if process.poll() is not None:
            error = (process.stderr.read() if process.stderr else b"").decode(errors="replace").strip()
            return {"status": "not measured: the daemon exited", "exit": process.returncode,
                    "stderr": error[-400:]}
        stat = Path(f"/proc/{process.pid}/stat")
        ticks = os.sysconf("SC_CLK_TCK")

        def cpu_s() -> float:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks

        start_cpu, start = cpu_s(), time.monotonic()
        rss = []
        while time.monotonic() - start < seconds and process.poll() is None:
            for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss.append(int(line.split()[1]) / 1024)
            time.sleep(0.25)
        used = cpu_s() - start_cpu
        wall = time.monotonic() - start
        return {"status": "measured", "command": " ".join(command[1:]), "seconds": wall,
                "rss_mib_median": statistics.median(rss) if rss else None, "rss_mib_max": max(rss, default=None),
                "cpu_percent": 100 * used / wall,
                "note": "a simulated session dealt at real speed (--speed 1): a dealing table, not a strictly idle one"}
    except OSError as exc:
        return {"status": f"not measured: {exc}"}
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()


# -- the harness --------------------------------------------------------------------------------------

def bench_harness(clean: int, errors: int, jobs: int) -> Row:
    start = time.perf_counter()
    scores = harness.run(clean=clean, errors=errors, seed=0, jobs=jobs)
    print(harness.format_table(scores))
    return {"clean_per_profile": clean, "errors_per_profile": errors, "seconds": time.perf_counter() - start,
            "goal": "0 false rulings in 10,000 clean hands; 100% of 1,000 irregularities ruled right",
            "profiles": [s.to_json() for s in scores]}


# -- the report ---------------------------------------------------------------------------------------

def _span(bounds: Sequence[float], digits: int) -> str:
    return f"{bounds[0]:.{digits}f}-{bounds[1]:.{digits}f}x"


def report(results: Row) -> str:
    lines = [f"machine: {results['machine']['cpu']}, {results['machine']['cores']} cores, "
             f"{results['machine']['memory']}, Python {results['machine']['python']} "
             f"({results['machine'].get('interpreter', '?')})"]
    start, end = results.get("load_average_start"), results.get("load_average_end")
    if start and end:
        lines.append(f"load average (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in start)} at the start, "
                     f"{' '.join(f'{x:.2f}' for x in end)} at the end")
    lines.append("")
    rows: list[tuple[str, str, str]] = []
    for name, r in (results.get("replay") or {}).items():
        if isinstance(r, str) and name in SESSION_LABELS:  # a session that could not be made, and why
            rows.append((f"replay {name}", "skipped", r))
        if not isinstance(r, dict):
            continue
        what = f"replay {name} ({r['hands']} hands, {r['events']} events)"
        rows += [(f"{what}: bare JSON parse, stdlib (floor)", f"{r['floor_s'] * 1e3:.1f} ms", r["label"]),
                 (f"{what}: bare JSON parse, orjson", f"{r['floor_orjson_s'] * 1e3:.1f} ms",
                  "the reader's for the lines its schema refuses"),
                 (f"{what}: session reader + rules core", f"{r['core_s'] * 1e3:.1f} ms",
                  f"{r['core_over_floor']:.2f}x floor (rounds {_span(r['core_over_floor_range'], 2)}; goal <= 3x "
                  f"compiled, 4x interpreted); "
                  f"{r['core_over_orjson_floor']:.1f}x the orjson parse"),
                 ("  of which: session reader (parse to events)", f"{r['session_reader_s'] * 1e3:.1f} ms",
                  f"{r['session_reader_s'] / r['floor_s']:.2f}x floor"),
                 ("  of which: TableCore.feed on parsed events", f"{r['core_feed_only_s'] * 1e3:.1f} ms",
                  f"{r['core_feed_only_s'] / r['floor_s']:.2f}x floor"),
                 (f"{what}: pokerkit State, same hands", f"{r['pokerkit_s'] * 1e3:.1f} ms",
                  f"core {r['pokerkit_over_core']:.1f}x faster (rounds {_span(r['pokerkit_over_core_range'], 1)}; "
                  f"goal >= 20x); "
                  f"{r['pokerkit_hands_finished']}/{r['hands']} hands finished")]
    r = results.get("latency")
    if r:
        rows.append(("event -> ruling latency", f"median {r['median_us']:.1f} us", f"p99 {r['p99_us']:.1f} us "
                     "(goal <= 1000 us)"))
    r = results.get("equity")
    if r:
        for name, label in (("heads_up_flop_exact", "equity heads-up flop, exact"),
                            ("six_way_preflop_10k", "equity six-way pre-flop, 10k trials")):
            spot = r[name]
            vs = f"{spot['ours_over_eval7']:.2f}x eval7 (goal <= 1.5x)" if "ours_over_eval7" in spot else spot["eval7"]
            rows.append((label, f"{spot['ours_s'] * 1e3:.1f} ms",
                         f"{vs}; pokerkit {spot['pokerkit_over_ours']:.1f}x slower"))
    r = results.get("mfrc522")
    if r:
        ours, theirs = r["ours"], r["simple_mfrc522"]
        rows += [("MFRC522 SPI transfers per empty poll", f"{ours['transfers_per_empty_poll']:.0f}",
                  f"SimpleMFRC522 {theirs['transfers_per_empty_poll']:.0f}"),
                 ("MFRC522 SPI transfers per poll with a card", f"{ours['transfers_per_poll_with_card']:.0f}",
                  f"SimpleMFRC522 {theirs['transfers_per_poll_with_card']:.0f}"),
                 ("MFRC522 polls that see a resting card", ours["polls_seeing_the_card"],
                  f"SimpleMFRC522 {theirs['polls_seeing_the_card']}")]
    r = results.get("daemon")
    if r:
        if r.get("status") == "measured":
            rows.append(("daemon (simulated session, headless)", f"RSS {r['rss_mib_median']:.0f} MiB",
                         f"CPU {r['cpu_percent']:.1f}%"))
        else:
            rows.append(("daemon RSS and CPU", "NOT YET MEASURED", str(r.get("status"))))
    r = results.get("harness")
    if r:
        clean = sum(p["clean_hands"] for p in r["profiles"])
        false = sum(p["false_rulings"] for p in r["profiles"])
        errs = sum(p["error_hands"] for p in r["profiles"])
        right = sum(p["ruled_right"] for p in r["profiles"])
        rows.append(("harness, all profiles, with noise", f"{false} false in {clean} clean",
                     f"{right}/{errs} irregularities ruled right"))
    width = max(len(label) for label, _, _ in rows)
    lines += [f"{label:<{width}}  {value:>22}  {note}" for label, value, note in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and a smaller harness")
    parser.add_argument("--only", nargs="*", choices=("replay", "latency", "equity", "mfrc522", "daemon", "harness"),
                        help="run only these sections")
    parser.add_argument("--sessions", nargs="*", choices=tuple(SESSION_LABELS),
                        help="replay only these sessions (default: all)")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"results file (default {RESULTS.relative_to(ROOT)})")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="harness processes")
    args = parser.parse_args(argv)
    repeats = 5 if args.quick else 15
    wanted = set(args.only or ("replay", "latency", "equity", "mfrc522", "daemon", "harness"))
    results: Row = {"machine": machine(), "quick": args.quick, "repeats": repeats,
                    "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "load_average_start": load_average()}
    sections: list[tuple[str, Callable[[], Row]]] = [
        ("replay", lambda: bench_replay(repeats, args.sessions)),
        ("latency", lambda: bench_latency(3 if args.quick else 10)),
        ("equity", lambda: bench_equity(3 if args.quick else 7)),
        ("mfrc522", lambda: bench_mfrc522(50 if args.quick else 200)),
        ("daemon", lambda: bench_daemon(5.0 if args.quick else 20.0)),
        ("harness", lambda: bench_harness(1_000 if args.quick else 10_000, 100 if args.quick else 1_000, args.jobs)),
    ]
    for name, run in sections:
        if name in wanted:
            print(f"-- {name}", flush=True)
            results[name] = run()
    results["load_average_end"] = load_average()
    print()
    print(report(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1, default=str) + "\n", encoding="utf-8")
    print(f"\nresults written to {args.out}")
    return 0
