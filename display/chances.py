"""Win chances and best hands of the seats of a snapshot, cached per deal; pure, no pygame."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass

from display.equity import HOLE_SIZE, Equity, calculate_equity
from firmware_py.core.cards import is_joker
from firmware_py.core.evaluator import describe
from firmware_py.core.snapshot import PlayerState, TableSnapshot

LIVE = frozenset({PlayerState.ACTIVE, PlayerState.ALLIN})
OUT_OF_HAND = frozenset({PlayerState.FOLDED, PlayerState.DEAD})


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatChance:
    win: float
    tie: float


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


Key = tuple[tuple[tuple[int, tuple[str, ...]], ...], tuple[str, ...], frozenset[str]]


def chances_key(snapshot: TableSnapshot) -> Key | None:
    """What the chances depend on: live hands, the board, and the cards known to be out of play.

    None while some live seat still lacks a full hand (the deal is under way).
    """
    live = tuple((s.seat, tuple(s.cards)) for s in snapshot.seats if s.state in LIVE)
    if not live or any(len(cards) != HOLE_SIZE or any(map(is_joker, cards)) for _, cards in live):
        return None
    dead = frozenset(card for s in snapshot.seats if s.state in OUT_OF_HAND for card in s.cards)
    dead |= frozenset(snapshot.burns)
    board = tuple(card for card in snapshot.board if not is_joker(card))
    return live, board, frozenset(card for card in dead if not is_joker(card))


def table_chances(snapshot: TableSnapshot, *, rng: random.Random) -> TableChances | None:
    """Chances of every live seat; dead cards (folded hands, burns) are left out of the runouts."""
    key = chances_key(snapshot)
    if key is None:
        return None
    return _compute(key, rng)


def _compute(key: Key, rng: random.Random) -> TableChances | None:
    live, board, dead = key
    if len(live) == 1:
        return TableChances(seats={live[0][0]: SeatChance(win=1.0, tie=0.0)}, equity=None)
    try:
        equity = calculate_equity([cards for _, cards in live], board, dead=dead, rng=rng)
    except ValueError:
        return None  # a duplicate card: the core rules on it; the picture shows no chances
    seats = {seat: SeatChance(win=equity.win[i], tie=equity.tie[i])
             for i, (seat, _) in enumerate(live)}
    return TableChances(seats=seats, equity=equity)


def best_hands(snapshot: TableSnapshot) -> dict[int, str]:
    """The best hand each dealt seat holds with the board, named as the showdown ruling names it."""
    board = [card for card in snapshot.board if not is_joker(card)]
    out = {}
    for seat in snapshot.seats:
        cards = [card for card in seat.cards if not is_joker(card)]
        if cards and seat.state not in (PlayerState.EMPTY, PlayerState.WAITING):
            try:
                out[seat.seat] = describe(cards + board)
            except ValueError:
                continue
    return out


class ChancesCache:
    """Remembers the chances of recent deals so a redraw never recomputes them.

    Seeded per deal from `seed` and the key, so a picture is the same every time it is drawn.
    """

    def __init__(self, *, seed: int = 0, size: int = 64,
                 compute: Callable[[Key, random.Random], TableChances | None] = _compute) -> None:
        self.seed = seed
        self.size = size
        self._compute = compute
        self._cache: dict[Key, TableChances | None] = {}
        self._lock = threading.Lock()

    def get(self, snapshot: TableSnapshot) -> TableChances | None:
        key = chances_key(snapshot)
        if key is None:
            return None
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        rng = random.Random(f"{self.seed}:{sorted(key[0])}:{key[1]}:{sorted(key[2])}")
        result = self._compute(key, rng)
        with self._lock:
            if len(self._cache) >= self.size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = result
        return result
