"""Win chances and best hands of the seats of a snapshot, cached per deal, computed off the frame; no pygame.

The game is read by name with `game_named`, which refuses one it does not know: the chances of an unknown game
are none, never a hold'em calculation in its place.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import os
import random
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from firmware_py.core.cards import is_joker
from firmware_py.core.game import game_named, hand_names
from firmware_py.core.snapshot import LIVE, OUT_OF_HAND, PlayerState, TableSnapshot
from firmware_py.odds.equity import Equity, calculate_equity

logger = logging.getLogger(__name__)

WORKER_NICENESS = 10


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatChance:
    win: float  # a split game: the whole pot (a scoop)
    tie: float  # a split game: a part of the pot (a half, a quarter)
    share: float | None = None  # the expected share of the pot (None: not computed)


@dataclass(frozen=True, kw_only=True, slots=True)
class TableChances:
    """Chances per live seat with a full hand; `equity` says whether exact and the error."""

    seats: dict[int, SeatChance]
    equity: Equity | None  # None when one live hand is left (it wins) or chances cannot be had

    @property
    def exact(self) -> bool:
        return self.equity is None or self.equity.exact

    @property
    def error(self) -> float:
        return 0.0 if self.equity is None else self.equity.error


# live hands, the board, the dead cards, and the game (its hand rule and hole cards)
Key = tuple[tuple[tuple[int, tuple[str, ...]], ...], tuple[str, ...], frozenset[str], str]


def chances_key(snapshot: TableSnapshot) -> Key | None:
    """What the chances depend on: live hands, the board, and the cards known to be out of play.

    None while some live seat still lacks a full hand (the deal is under way).
    """
    live = tuple((s.seat, tuple(s.cards)) for s in snapshot.seats if s.state in LIVE)
    game = game_named(snapshot.game)
    if not live or any(len(cards) != game.hole_cards or any(map(is_joker, cards)) for _, cards in live):
        return None
    dead = frozenset(card for s in snapshot.seats if s.state in OUT_OF_HAND for card in s.cards)
    dead |= frozenset(snapshot.burns)
    board = tuple(card for card in snapshot.board if not is_joker(card))
    return live, board, frozenset(card for card in dead if not is_joker(card)), game.name


def table_chances(snapshot: TableSnapshot, *, rng: random.Random) -> TableChances | None:
    """Chances of every live seat; dead cards (folded hands, burns) are left out of the runouts."""
    key = chances_key(snapshot)
    if key is None:
        return None
    return _compute(key, rng)


def _compute(key: Key, rng: random.Random) -> TableChances | None:
    live, board, dead, name = key
    game = game_named(name)
    if len(live) == 1:
        return TableChances(seats={live[0][0]: SeatChance(win=1.0, tie=0.0, share=1.0)}, equity=None)
    try:
        equity = calculate_equity([cards for _, cards in live], board, dead=dead, rng=rng, game=game)
    except ValueError:
        return None  # a duplicate card: the core rules on it; the picture shows no chances
    seats = {seat: SeatChance(win=equity.win[i], tie=equity.tie[i], share=equity.share[i])
             for i, (seat, _) in enumerate(live)}
    return TableChances(seats=seats, equity=equity)


def compute_chances(key: Key, *, seed: int = 0) -> TableChances | None:
    """The chances of a deal, seeded per deal as `ChancesCache` seeds them: the same numbers on every screen."""
    return _compute(key, _rng_for(seed, key))


def best_hands(snapshot: TableSnapshot) -> dict[int, str]:
    """The best hand each dealt seat holds with the board, named as the showdown ruling names it."""
    board = tuple(card for card in snapshot.board if not is_joker(card))
    game = game_named(snapshot.game).name
    out = {}
    for seat in snapshot.seats:
        cards = tuple(card for card in seat.cards if not is_joker(card))
        if cards and seat.state not in (PlayerState.EMPTY, PlayerState.WAITING):
            name = _hand_name(cards, board, game)
            if name is not None:
                out[seat.seat] = name
    return out


@functools.lru_cache(maxsize=512)
def _hand_name(cards: tuple[str, ...], board: tuple[str, ...], game: str) -> str | None:
    """A hand's name, kept: every frame names every seat's hand, and the same ones frame after frame."""
    try:
        return hand_names(game_named(game), cards, board)
    except ValueError:
        return None


@dataclass(frozen=True, kw_only=True, slots=True)
class ChancesNow:
    """What a frame shows: the newest chances that fit the deal on screen, and whether newer ones
    are still being computed (the picture says "computing" and shows these meanwhile)."""

    chances: TableChances | None
    computing: bool = False


def _yield_to_the_screen() -> None:
    """In the worker: a lower priority, so on a busy machine the frames get a core first."""
    os.nice(WORKER_NICENESS)


def _rng_for(seed: int, key: Key) -> random.Random:
    return random.Random(f"{seed}:{sorted(key[0])}:{key[1]}:{sorted(key[2])}")


def _same_hands(old: Key, snapshot: TableSnapshot) -> bool:
    """Whether every seat of an earlier result still holds the same cards (the same deal)."""
    cards = {seat.seat: tuple(seat.cards) for seat in snapshot.seats}
    return all(cards.get(seat) == held for seat, held in old[0])


TERMINATE_GRACE_S = 2.0  # how long a worker sent SIGTERM has to go before it is killed


def abandon(worker: Executor) -> None:
    """Stop a worker now, the calculation under way included.

    `shutdown(wait=False, cancel_futures=True)` alone cancels what waits but leaves the worker process
    running its calculation, and the interpreter's exit joins it: a stopping command stayed alive until a
    nine-handed pre-flop deal was done (tens of seconds on a loaded machine). Python 3.14 has
    `terminate_workers()`; before it the pool's processes are reachable only as its `_processes`.
    """
    processes = list((getattr(worker, "_processes", None) or {}).values())
    terminate = getattr(worker, "terminate_workers", None)
    if terminate is not None:
        terminate()
    else:
        worker.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
    for process in processes:  # one that outlives SIGTERM (an inherited disposition, say) is killed
        process.join(TERMINATE_GRACE_S)
        if process.is_alive():
            process.kill()


class ChancesCache:
    """Remembers the chances of recent deals so a redraw never recomputes them.

    Seeded per deal from `seed` and the key, so a picture is the same every time it is drawn, and
    the same whether the chances were computed in the frame or in the worker.

    Without a worker, `lookup` computes in the caller (the `snapshot` command, tests). With one
    (`background=True`: a single worker process, so a nine-handed pre-flop calculation holds
    neither the frame nor the GIL), `lookup` never waits: it starts the calculation and returns
    the last result of the same deal (none for a new deal), marked computing; `on_ready` is called
    (from the executor's thread) when a result arrives, so the screen can redraw.
    """

    def __init__(self, *, seed: int = 0, size: int = 256,
                 compute: Callable[[Key, random.Random], TableChances | None] = _compute,
                 background: bool = False) -> None:
        self.seed = seed
        self.size = size
        self._compute = compute
        self._cache: dict[Key, TableChances | None] = {}
        self._lock = threading.RLock()  # RLock: a future already done calls back at once
        self._worker: Executor | None = None
        if background:
            # spawn: the daemon has threads, which a forked child must not inherit half-locked.
            self._worker = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                               initializer=_yield_to_the_screen)
            self._worker.submit(int)  # start the process now, at start-up, not in the first frame that needs it
        self._running: Key | None = None
        self._wanted: Key | None = None  # the newest deal asked for while another was computing
        self._queue: deque[Key] = deque()  # deals prefetched while another was computing, all kept, in order
        self._last: Key | None = None  # the newest key with a result, for the computing state
        self.on_ready: Callable[[], None] | None = None
        self._closed = False

    def get(self, snapshot: TableSnapshot) -> TableChances | None:
        """The chances of the deal in `snapshot` (computed now if there is no worker)."""
        return self.lookup(snapshot).chances

    def lookup(self, snapshot: TableSnapshot) -> ChancesNow:
        key = chances_key(snapshot)
        if key is None:
            return ChancesNow(chances=None)
        with self._lock:
            if key in self._cache:
                return ChancesNow(chances=self._cache[key])
            if self._worker is not None:
                self._ask(key)
                last = self._last
                stale = self._cache.get(last) if last is not None and _same_hands(last, snapshot) else None
                return ChancesNow(chances=stale, computing=True)
        result = self._compute(key, _rng_for(self.seed, key))
        with self._lock:
            self._store(key, result)
        return ChancesNow(chances=result)

    def prefetch(self, snapshot: TableSnapshot) -> None:
        """Start on the chances of this deal now, without waiting (the broadcast view calls it as a snapshot
        enters the secure delay, so they are ready when it goes on air). Unlike a frame's `lookup`, which
        only wants the newest deal, every deal prefetched is computed, in order. Without a worker: nothing
        (the frame computes)."""
        key = chances_key(snapshot)
        if key is None:
            return
        with self._lock:
            if self._worker is None or key in self._cache or key == self._running or key in self._queue:
                return
            if self._running is None:
                self._ask(key)
            else:
                self._queue.append(key)

    def close(self) -> None:
        """Stop the worker (a calculation under way is abandoned)."""
        self._closed = True
        if self._worker is not None:
            abandon(self._worker)
            self._worker = None

    def _store(self, key: Key, result: TableChances | None) -> None:
        if len(self._cache) >= self.size:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = result
        self._last = key

    def _ask(self, key: Key) -> None:
        """Compute `key` in the worker, one deal at a time: while one runs, only the newest waits."""
        if key == self._running:
            return
        if self._running is not None:
            self._wanted = key
            return
        assert self._worker is not None
        self._running = key
        try:
            future = self._worker.submit(self._compute, key, _rng_for(self.seed, key))
        except RuntimeError as exc:  # closed, or the worker process died
            self._lost_worker(exc)
            return
        future.add_done_callback(lambda done: self._done(key, done))

    def _lost_worker(self, exc: BaseException) -> None:
        """Without a worker the chances are computed in the frame again: slower frames, still right."""
        logger.error("the win-chances worker is gone (%s): computing them in the frame from now on", exc)
        worker, self._worker, self._running, self._wanted = self._worker, None, None, None
        self._queue.clear()
        if worker is not None:
            worker.shutdown(wait=False, cancel_futures=True)

    def _done(self, key: Key, future: Future[TableChances | None]) -> None:
        if future.cancelled() or self._closed:  # closed while it waited, or while it ran
            return
        try:
            result = future.result()
        except BrokenProcessPool as exc:
            with self._lock:
                self._lost_worker(exc)
            if self.on_ready is not None:
                self.on_ready()  # the next frame computes them itself
            return
        except Exception:  # a failed calculation must not take the screen down: show no chances
            logger.exception("computing win chances failed")
            result = None
        with self._lock:
            self._store(key, result)
            self._running = None
            wanted, self._wanted = self._wanted, None
            following = wanted if wanted is not None and wanted not in self._cache else None
            while following is None and self._queue:  # then the prefetched deals, oldest first
                queued = self._queue.popleft()
                following = None if queued in self._cache else queued
            if following is not None and self._worker is not None:
                self._ask(following)
        if self.on_ready is not None:
            self.on_ready()
