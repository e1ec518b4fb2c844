"""The broadcast off the table: the production machine holds every table's feed for the secure delay.

Each broadcast message is held from the moment it *arrives here* (this machine's monotonic
clock), for the full secure delay, before the picture, the overlay page or the JSON feed may use
it: arrival is always after the moment at the table, so the delay on air is at least the
configured one, with no trust in either machine's wall clock. The table may also hold its
broadcast messages back (`broadcast_hold_s` in its `[room]`); the two add up (see docs/room.md).
Nothing reads the held messages except `on_air`.

Win chances are computed here, on arrival, while the message serves its delay (`ChancesAhead`), for the
table on air only (each instance, primary and standby, for its own), at most MAX_CHANCES_PENDING deals
waiting per table; a message goes on air once its chances are ready, or CHANCES_GRACE_S after its delay
without them: the picture never says "computing", and it is never early nor more than that late (issue 34).

Every table of the room is held (not only the one on air), so switching the feature table shows
the new table's delayed picture at once. What is on air never goes back in time: when the delay
is made longer, the picture holds until the new delay has passed (nothing is shown twice or early).
"""

from __future__ import annotations

import collections
import json
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import msgspec

from firmware_py.core import Cause, Ruling, RulingKind, TableSnapshot
from firmware_py.core.game import HandRule, game_named
from firmware_py.core.rulings import Street
from firmware_py.core.snapshot import Phase, PlayerState, SeatView
from firmware_py.room.bounds import (
    CHANCES_GRACE_S,
    DELAY_CEILING_S,
    DELAY_FLOOR_MIN_S,
    DELAY_FLOOR_S,
    MAX_CHANCES_PENDING,
    MAX_HELD,
    MAX_HELD_BYTES,
)
from firmware_py.room.feed import BroadcastFeed, FeedChances, Reveal, SeatChance, reveal
from firmware_py.room.leaderboard import leaderboard
from firmware_py.room.messages import BadMessage, decode

logger = logging.getLogger("firmware_py.room")

WORKER_NICENESS = 10
# What the picture may show of the director's state (docs/tournament.md): never the tables, seats or moves; the chip
# leaders (issue 38 item 6) as names and counts, from the same delayed state.
TOURNAMENT_PUBLIC = ("title", "profile", "structure", "level", "next_level", "on_break", "entrants", "remaining",
                     "places", "payouts", "winner", "hand_for_hand")
CHIP_LEADERS = 5  # rows of the chip counts the picture shows


def _public(state: dict[str, Any]) -> dict[str, Any]:
    """The director's state as the picture may show it (TOURNAMENT_PUBLIC), with its chip leaders: the state is the
    one in force after the delay, so no count is newer than the hand on air may show."""
    public = {key: state.get(key) for key in TOURNAMENT_PUBLIC}
    board = leaderboard(state, top=CHIP_LEADERS)
    public["leaders"] = [{"rank": r["rank"], "name": r["name"], "chips": r["chips"], "bb": r["bb"]}
                         for r in board["rows"]]
    return public


def snapshot_from_broadcast(body: dict[str, Any] | BroadcastFeed) -> TableSnapshot:
    """The TableSnapshot a broadcast message describes (for the pygame broadcast view and the chances)."""
    if isinstance(body, BroadcastFeed):
        return snapshot_from_broadcast(msgspec.to_builtins(body))
    button, small, big, to_act = body.get("button"), body.get("small_blind"), body.get("big_blind"), body.get("to_act")
    seats = tuple(SeatView(seat=int(s["seat"]), state=PlayerState(s["state"]), cards=tuple(s.get("cards", ())),
                           is_button=s["seat"] == button, is_small_blind=s["seat"] == small,
                           is_big_blind=s["seat"] == big, to_act=s["seat"] == to_act, stack=s.get("stack"),
                           bet=s.get("bet"), last_action=s.get("action")) for s in body["seats"])
    showdown = body.get("showdown")
    return TableSnapshot(t=float(body["t"]), profile=str(body.get("profile", "")),
                         profile_title=str(body.get("profile_title", "")), hand_number=int(body["hand"]),
                         phase=Phase(body["phase"]), street=Street(body["street"]) if body.get("street") else None,
                         seats=seats, button=button, small_blind=small, big_blind=big, to_act=to_act,
                         board=tuple(body.get("board", ())), burns=tuple(body.get("burns", ())),
                         in_play=str(body.get("in_play", "")), game=str(body.get("game", "holdem")),
                         showdown=ruling_from_json(showdown) if showdown else None)


def ruling_from_json(data: dict[str, Any]) -> Ruling:
    return Ruling(t=float(data["t"]), ruling=RulingKind(data["ruling"]), rule=str(data.get("rule", "")),
                  remedy=str(data.get("remedy", "")), cause=Cause(data["cause"]) if data.get("cause") else None,
                  card=data.get("card"), seat=data.get("seat"),
                  street=Street(data["street"]) if data.get("street") else None,
                  winners=tuple(data["winners"]) if data.get("winners") is not None else None,
                  hand=data.get("hand"),
                  low_winners=tuple(data["low_winners"]) if data.get("low_winners") is not None else None,
                  low_hand=data.get("low_hand"))


# -- win chances, ahead of the delay ---------------------------------------------------------------

def analyse(key: Any, seed: int = 0) -> FeedChances | None:
    """Chances of every live hand (seeded per deal, as on the table's own screen) and heads-up outs."""
    from firmware_py.odds.chances import compute_chances  # noqa: PLC0415 (loaded in the worker process only)

    table = compute_chances(key, seed=seed)
    if table is None:
        return None
    live, board, dead, name = key
    game = game_named(name)
    # the outs of a high-low split game would be two answers (the high's and the low's): none are said
    outs_seat, outs = (None, ()) if game.split else heads_up_outs(live, board, dead, rule=game.hand_rule)
    equity = table.equity
    return FeedChances(seats=tuple(SeatChance(seat=seat, win=round(c.win, 4), tie=round(c.tie, 4),
                                              share=round(c.share, 4) if game.split and c.share is not None
                                              else None)
                                   for seat, c in sorted(table.seats.items())),
                       exact=table.exact, runouts=equity.runouts if equity else 0,
                       error=round(equity.error, 5) if equity else 0.0, outs_seat=outs_seat, outs=outs)


def heads_up_outs(live: Any, board: tuple[str, ...], dead: frozenset[str], *,
                  rule: HandRule = HandRule.BEST_FIVE) -> tuple[int | None, tuple[str, ...]]:
    """Two hands on the flop or turn: the player behind, and the next cards that put him ahead outright
    (hands read by the game's rule: Omaha's two from the hand and three from the board)."""
    from firmware_py.core.cards import FULL_DECK  # noqa: PLC0415
    from firmware_py.core.evaluator import omaha_strength, strength  # noqa: PLC0415

    def rank(hole: Any, common: tuple[str, ...]) -> int:
        return omaha_strength(hole, common) if rule is HandRule.TWO_FROM_HAND else strength([*hole, *common])

    if len(live) != 2 or len(board) not in (3, 4):
        return None, ()
    (a, cards_a), (b, cards_b) = live
    rank_a, rank_b = rank(cards_a, board), rank(cards_b, board)
    if rank_a == rank_b:
        return None, ()
    (behind, hole), ahead_hole = ((a, cards_a), cards_b) if rank_a > rank_b else ((b, cards_b), cards_a)
    seen = {*cards_a, *cards_b, *board, *dead}
    outs = tuple(card for card in FULL_DECK if card not in seen
                 and rank(hole, (*board, card)) < rank(ahead_hole, (*board, card)))
    return behind, outs


def _worker_start() -> None:
    """In the chances worker: a lower priority (the web server and the picture get the cores first), and an
    end of its own if the broadcast process is killed (a pool's worker would otherwise wait on forever)."""
    os.nice(WORKER_NICENESS)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class ChancesAhead:
    """Computes each message's chances as it arrives, every deal in order (none skipped).

    With `background` a worker process does it (a nine-handed pre-flop deal takes seconds and must
    hold neither paho's thread nor the web server); without, the caller computes (tests, stills).
    """

    def __init__(self, *, background: bool = True, seed: int = 0) -> None:
        self.seed = seed
        self._results: dict[Any, FeedChances | None] = {}
        self._pending: dict[Any, Future[FeedChances | None]] = {}
        self._owners: dict[Any, str] = {}  # a pending deal's table
        self.skipped = 0  # deals shown without chances: their table had MAX_CHANCES_PENDING waiting already
        self._order: deque[Any] = deque()
        self._lock = threading.Lock()
        self._worker: ProcessPoolExecutor | None = None
        self._closed = False
        if background:
            self._worker = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                               initializer=_worker_start)
            self._worker.submit(int)  # start the process now, not with the first deal

    @staticmethod
    def key(feed: BroadcastFeed) -> Any:
        from firmware_py.odds.chances import chances_key  # noqa: PLC0415

        return chances_key(snapshot_from_broadcast(feed))

    def ask(self, key: Any, owner: str = "") -> None:
        """Work out the chances of deal `key` for table `owner`: at most MAX_CHANCES_PENDING of one table's deals
        wait for the worker; a deal beyond them gets none (the picture shows it without chances)."""
        if key is None:
            return
        with self._lock:
            if key in self._results or key in self._pending:
                return
            if self._worker is None:
                self._store(key, analyse(key, self.seed))
                return
            if sum(1 for who in self._owners.values() if who == owner) >= MAX_CHANCES_PENDING:
                self.skipped += 1
                self._store(key, None)
                return
            future = self._worker.submit(analyse, key, self.seed)
            self._pending[key] = future
            self._owners[key] = owner
        future.add_done_callback(lambda done: self._done(key, done))

    def cancel(self, owner: str) -> None:
        """Drop the deals of table `owner` still waiting for the worker (it went off the air)."""
        with self._lock:
            waiting = [key for key, who in self._owners.items() if who == owner]
        for key in waiting:
            future = self._pending.get(key)
            if future is not None:
                future.cancel()  # one the worker has started runs on; its result is kept like any other

    def _done(self, key: Any, future: Future[FeedChances | None]) -> None:
        if self._closed:  # the worker was stopped under it
            return
        if future.cancelled():  # its table went off the air: asked again if it comes back on
            with self._lock:
                self._pending.pop(key, None)
                self._owners.pop(key, None)
            return
        try:
            result = future.result()
        except Exception:  # a failed calculation shows no chances; the picture goes on
            logger.exception("computing win chances failed")
            result = None
        with self._lock:
            self._pending.pop(key, None)
            self._owners.pop(key, None)
            self._store(key, result)

    def _store(self, key: Any, result: FeedChances | None) -> None:
        self._results[key] = result
        self._order.append(key)
        while len(self._order) > 512:
            self._results.pop(self._order.popleft(), None)

    def pending(self) -> int:
        with self._lock:
            return len(self._pending)

    def ready(self, key: Any) -> bool:
        with self._lock:
            return key is None or key in self._results

    def chances(self, key: Any) -> FeedChances | None:
        with self._lock:
            return None if key is None else self._results.get(key)

    def close(self) -> None:
        """Stop the worker at once (a calculation under way is abandoned, not waited for at exit)."""
        from firmware_py.odds.chances import abandon  # noqa: PLC0415

        self._closed = True
        if self._worker is not None:
            abandon(self._worker)
            self._worker = None


# -- the delay ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Held:
    arrived: float  # this machine's monotonic clock
    feed: BroadcastFeed
    key: Any  # what its chances depend on (None: no chances to wait for)
    size: int = 0  # its bytes as they came (MAX_HELD_BYTES)


class DelayedFeed:
    """One table's broadcast messages, held for `delay_s` from their arrival; `on_air(now)` is all anyone may read.

    `wants_chances`: work out the win chances of its deals (the table on air; Production sets it). At most
    MAX_HELD messages and MAX_HELD_BYTES are held: beyond, the oldest (not yet on air) are dropped, counted."""

    def __init__(self, *, delay_s: float, room: str, table: str, chances: ChancesAhead | None = None,
                 wants_chances: bool = True) -> None:
        if delay_s < 0:
            raise ValueError(f"the delay must be zero or more seconds, not {delay_s}")
        self.room, self.table = room, table
        self.delay_s = delay_s
        self.chances = chances or ChancesAhead(background=False)
        self.wants_chances = wants_chances
        self._held: deque[Held] = deque()
        self._bytes = 0
        self._shown: Held | None = None
        self._first: float | None = None
        self._lock = threading.Lock()
        self.received = 0
        self.rejected = 0  # every message refused: another table's, from the past, or quarantined
        self.quarantined = 0  # failed the broadcast schema (feed.BroadcastFeed): counted and logged, never on air
        self.dropped = 0  # held messages dropped over MAX_HELD / MAX_HELD_BYTES before their delay ended
        self.late = 0  # messages put on air without their chances, CHANCES_GRACE_S after their delay
        self.last_seq = 0

    def offer(self, topic_name: str, payload: Any, now: float) -> bool:
        """A message from the broker (paho's thread): its bytes (or parsed JSON); `now` is this machine's
        monotonic clock. Only a message that passes the broadcast schema can reach the picture. False: refused."""
        if not topic_name.endswith("/broadcast"):
            self.rejected += 1
            return False
        try:
            feed = decode(topic_name, payload)
            if not isinstance(feed, BroadcastFeed):
                raise BadMessage(f"{topic_name[:200]}: not a broadcast topic")
            try:
                game_named(feed.game)  # a game this machine does not know: never drawn as another game's hands
            except ValueError as exc:
                raise BadMessage(str(exc)) from None
        except BadMessage as exc:
            self.quarantined += 1
            self.rejected += 1
            logger.warning("room: %s: not a broadcast message (%s); quarantined, not shown (%d so far)",
                           topic_name[:200], exc, self.quarantined)
            return False
        if feed.table != self.table or feed.room != self.room:
            self.rejected += 1
            return False
        return self.push(feed, now, size=len(payload) if isinstance(payload, bytes | bytearray) else 0)

    def push(self, feed: BroadcastFeed, now: float, *, size: int = 0) -> bool:
        key = self.chances.key(feed) if self.wants_chances else None
        with self._lock:
            if self._held and now < self._held[-1].arrived:
                self.rejected += 1  # the clock cannot go backwards
                return False
            self.received += 1
            self.last_seq = max(self.last_seq, feed.seq)
            if self._first is None:
                self._first = now
            self._held.append(Held(now, feed, key, size))
            self._bytes += size
            while len(self._held) > MAX_HELD or (self._bytes > MAX_HELD_BYTES and len(self._held) > 1):
                self._drop_first()
                self.dropped += 1
            if self.dropped and self.dropped % 1000 == 1:
                logger.warning("room: %s/%s sends more than the broadcast holds (%d messages, %d MB): the oldest "
                               "held are dropped (%d so far)", self.room, self.table, MAX_HELD,
                               MAX_HELD_BYTES // 2**20, self.dropped)
        self.chances.ask(key, self.table)  # outside the lock: without a worker this computes
        return True

    def _drop_first(self) -> None:
        self._bytes -= self._held.popleft().size

    def want_chances(self, wanted: bool) -> None:
        """The table goes on air (its held deals' chances are asked for, newest last) or off it (its waiting
        deals are dropped from the worker's queue)."""
        if wanted == self.wants_chances:
            return
        self.wants_chances = wanted
        if not wanted:
            self.chances.cancel(self.table)
            return
        with self._lock:
            self._held = deque(Held(held.arrived, held.feed, self.chances.key(held.feed), held.size)
                               for held in self._held)
            keys = [held.key for held in self._held]
        for key in keys:
            self.chances.ask(key, self.table)

    def set_delay(self, delay_s: float) -> None:
        """A new delay: longer holds the picture until it has passed; shorter shows nothing under it."""
        if delay_s < 0:
            raise ValueError(f"the delay must be zero or more seconds, not {delay_s}")
        with self._lock:
            self.delay_s = delay_s

    def _current(self, now: float) -> Held | None:
        """The newest message that has served the delay and whose chances are ready, or that has waited
        CHANCES_GRACE_S past its delay for them (never an older one than already shown). Called under the lock."""
        cutoff = now - self.delay_s
        chosen = None
        for index, held in enumerate(self._held):
            if held.arrived > cutoff:
                break
            if self.chances.ready(held.key) or held.arrived <= cutoff - CHANCES_GRACE_S:
                chosen = index
        if chosen is not None:
            for _ in range(chosen):  # older ones can never be shown again
                self._drop_first()
            if self._held[0] is not self._shown and not self.chances.ready(self._held[0].key):
                self.late += 1
            self._shown = self._held[0]
        return self._shown

    def on_air(self, now: float) -> BroadcastFeed | None:
        """The message on air at `now` with its chances, all cards in (the reveal policy is the page's)."""
        with self._lock:
            held = self._current(now)
        if held is None:
            return None
        return msgspec.structs.replace(held.feed, chances=self.chances.chances(held.key))

    def next_release(self, now: float) -> float | None:
        """When the next held message is due on air (for the operator only: it says when the next action comes)."""
        with self._lock:
            for held in self._held:
                if held.arrived + self.delay_s > now:
                    return held.arrived + self.delay_s
        return None

    def first_release(self) -> float | None:
        with self._lock:
            return None if self._first is None else self._first + self.delay_s

    def held(self, now: float) -> int:
        with self._lock:
            return sum(1 for held in self._held if held.arrived + self.delay_s > now)

    def held_bytes(self) -> int:
        with self._lock:
            return self._bytes

    def feed(self, now: float, policy: Reveal = Reveal.IMMEDIATELY) -> dict[str, Any]:
        """What the JSON feed serves: the message on air under the reveal policy, or nothing yet."""
        shown = self.on_air(now)
        body: dict[str, Any] = {"v": 1, "room": self.room, "table": self.table, "delay_s": self.delay_s}
        body["on_air"] = None if shown is None else msgspec.to_builtins(reveal(shown, policy))
        return body


# -- the production room's control ----------------------------------------------------------------

class Control(msgspec.Struct, kw_only=True):
    """What the producer chooses, live: the feature table, each table's reveal policy, chips as amounts or big
    blinds, and the delay. Shared by the primary and the standby instance over the broker (retained)."""

    feature: str
    reveal: dict[str, Reveal] = {}
    chips: str = "amounts"  # amounts or bb
    delay_s: float = 120.0
    stamp: float = 0.0  # wall time of the change: the newest wins between instances
    by: str = ""  # the instance that made it

    def policy(self, table: str) -> Reveal:
        return self.reveal.get(table, Reveal.IMMEDIATELY)


POLICIES = ", ".join(policy.value for policy in Reveal)  # what a refusal lists
CHIPS = "amounts, bb"
FUTURE_STAMP_S = 300.0  # a control stamped further ahead than this (two machines' clocks apart) is refused


class ControlError(ValueError):
    pass


class Production:
    """Every table of the room on its delay, the producer's control, and what the page shows.

    The delay a change may set is bounded: `delay_floor_s` (the house's, else bounds.DELAY_FLOOR_S; this
    instance's own `delay_s` when that is shorter) to `delay_ceiling_s` (at most bounds.DELAY_CEILING_S). A
    retained control older than this instance (made before it started) is followed, but never below this
    instance's own `delay_s`. A change the broker refuses to pass on to the
    other instance is a fault on the status (`control_published`)."""

    def __init__(self, *, room: str, feature: str, delay_s: float, allow_zero_delay: bool = False,
                 chances: ChancesAhead | None = None, instance: str = "primary",
                 clock: Callable[[], float] | None = None, wall: Callable[[], float] | None = None,
                 delay_floor_s: float = DELAY_FLOOR_S, delay_ceiling_s: float = DELAY_CEILING_S,
                 bounds_from: str = "firmware_py/room/bounds.py") -> None:
        self.room, self.instance = room, instance
        self.allow_zero_delay = allow_zero_delay
        self.chances = chances or ChancesAhead(background=False)
        self.clock = clock or time.monotonic
        self.wall = wall or time.time
        self.own_delay_s = delay_s  # the --delay this instance was started with
        # The house's bounds ([delay] in the theme file), never past the hard ones (bounds.py): a caller's
        # mistake must not lower the floor under DELAY_FLOOR_MIN_S nor raise the ceiling over what is held.
        if not DELAY_FLOOR_MIN_S <= delay_floor_s <= delay_ceiling_s <= DELAY_CEILING_S:
            raise ValueError(f"delay bounds {delay_floor_s:g}..{delay_ceiling_s:g} s: the floor at least "
                             f"{DELAY_FLOOR_MIN_S:g}, the ceiling at most {DELAY_CEILING_S:g} ({bounds_from})")
        self.delay_ceiling_s, self.bounds_from = delay_ceiling_s, bounds_from
        self.delay_floor_s = 0.0 if allow_zero_delay else min(delay_floor_s, delay_s)
        self.started = self.wall()  # a retained control stamped before this is older than us
        self.control = Control(feature=feature, delay_s=delay_s)
        self.tables: dict[str, DelayedFeed] = {}
        self._lock = threading.Lock()
        self.on_control: Callable[[Control], None] | None = None  # publish a change to the other instance
        self.rejected = 0
        self.control_refused = 0  # control messages refused: out of bounds, not a control, from the broker
        self.publish_refused = 0  # our own control changes the broker refused to pass on (the ACL)
        self.faults: collections.deque[str] = collections.deque(maxlen=10)  # what the status shows, newest last
        self.version = 0  # bumps on every control change (the page redraws)
        self._page: tuple[Any, dict[str, Any]] | None = None
        # The tournament director's states (docs/tournament.md), each held for the delay like the tables'
        # messages: a bust-out must not reach the picture before the hand that caused it.
        self._tournament: collections.deque[tuple[float, dict[str, Any]]] = collections.deque(maxlen=10_000)

    def offer_tournament(self, topic_name: str, payload: Any, now: float) -> bool:
        """The director's state (paho's thread), held for the delay; False when it fails its schema."""
        from firmware_py.room.tournament_messages import decode_director  # noqa: PLC0415

        try:
            state = decode_director(topic_name, payload if isinstance(payload, bytes) else bytes(payload))
        except (BadMessage, TypeError) as exc:
            self.rejected += 1
            logger.warning("room: %s: not the director's state (%s); ignored", topic_name[:200], exc)
            return False
        if state.room != self.room:
            self.rejected += 1
            return False
        with self._lock:
            self._tournament.append((now, msgspec.to_builtins(state)))
        return True

    def tournament(self, now: float) -> dict[str, Any] | None:
        """What the broadcast may show of the tournament now: the director's latest state older than the
        delay, reduced to the public part (level, players left, hand-for-hand, places and payouts, the winner)."""
        in_force = self._tournament_in_force(now)
        return None if in_force is None else _public(in_force[1])

    def _tournament_in_force(self, now: float) -> tuple[float, dict[str, Any]] | None:
        delay = self.control.delay_s
        with self._lock:
            shown = None
            while self._tournament and now - self._tournament[0][0] >= delay:
                shown = self._tournament.popleft()
            if shown is not None:
                self._tournament.appendleft(shown)  # the one in force stays first
            first = self._tournament[0] if self._tournament else None
        if first is None or now - first[0] < delay:
            return None
        return first

    def table(self, table: str) -> DelayedFeed:
        with self._lock:
            feed = self.tables.get(table)
            if feed is None:
                feed = self.tables[table] = DelayedFeed(delay_s=self.control.delay_s, room=self.room, table=table,
                                                        chances=self.chances,
                                                        wants_chances=table == self.control.feature)
            return feed

    def offer(self, topic_name: str, payload: Any, now: float) -> None:
        """A message from the broker (paho's thread): its bytes, or parsed JSON."""
        parts = topic_name.split("/")
        if len(parts) == 4 and parts[2] == "production" and parts[3] == "control":
            try:
                body = json.loads(payload) if isinstance(payload, bytes | bytearray | str) else payload
            except (ValueError, RecursionError):
                body = None
            self.apply_remote(body)
            return
        if len(parts) != 4 or parts[1] != self.room or parts[3] != "broadcast":
            self.rejected += 1
            return
        feed = self.table(parts[2])  # the message's own room and table are checked against the topic there
        if feed.offer(topic_name, payload, now):  # (a refusal is counted there)
            feed.on_air(now)  # drops what can never be shown again, for a table not on air too

    @property
    def feature(self) -> DelayedFeed:
        return self.table(self.control.feature)

    def change(self, **changes: Any) -> Control:
        """A change from this instance's control page; raises ControlError naming what is wrong."""
        current = msgspec.to_builtins(self.control)
        for key, value in changes.items():
            if key == "reveal":
                if not isinstance(value, dict):
                    raise ControlError(f"reveal: give {{table: policy}}, each policy one of {POLICIES}")
                for table in value:
                    self._check_known(table, "reveal")
                current["reveal"] = {**current["reveal"], **value}
            elif key == "feature":
                self._check_known(value, "feature")
                current[key] = value
            elif key in ("chips", "delay_s"):
                current[key] = value
            else:
                raise ControlError(f"{key}: unknown; one of feature, reveal, chips, delay_s")
        current.update(stamp=self.wall(), by=self.instance)
        control = self._validated(current)
        self._apply(control)
        if self.on_control is not None:
            self.on_control(control)
        return control

    def known_tables(self) -> list[str]:
        """The tables this instance has heard of (a message of theirs passed its schema), and the feature table."""
        with self._lock:
            heard = {name for name, feed in self.tables.items() if feed.received}
        return sorted(heard | {self.control.feature})

    def _check_known(self, table: Any, what: str) -> None:
        """A change from this instance's page may name only a table it has heard of: one that does not exist
        would put nothing on air (or keep a policy for nobody) and say nothing. The other instance's retained
        control is not checked so: it may have heard of a table before this one did."""
        from firmware_py.room.room_config import check_table_id  # noqa: PLC0415

        known = self.known_tables()
        if isinstance(table, str) and table in known:
            return
        if isinstance(table, str):
            try:
                check_table_id(table, f"{what} table")
            except ValueError as exc:
                raise ControlError(str(exc)) from None
        shown = repr(table)[:80]
        raise ControlError(f"{what} {shown}: no such table on pokertable/{self.room}/+/broadcast (heard of: "
                           f"{', '.join(known)}); a table appears here once it publishes its broadcast")

    def _validated(self, data: dict[str, Any]) -> Control:
        from firmware_py.room.room_config import check_table_id  # noqa: PLC0415

        try:
            control = msgspec.convert(data, Control)
        except msgspec.ValidationError as exc:
            text = str(exc).replace("$.", "")
            if text.startswith("Invalid enum value") and "reveal" in text:  # say which values there are
                text = f"{text}: a reveal policy is one of {POLICIES}"
            raise ControlError(text) from None
        try:
            check_table_id(control.feature, "feature table")
        except ValueError as exc:
            raise ControlError(str(exc)) from None
        if control.chips not in ("amounts", "bb"):
            raise ControlError(f"chips {control.chips[:80]!r}: one of {CHIPS} (chips as amounts, or in big blinds)")
        if control.stamp > self.wall() + FUTURE_STAMP_S:  # it would win over every change made for days
            raise ControlError(f"stamp {control.stamp:.0f}: in the future (this machine's clock says "
                               f"{self.wall():.0f}); set the clocks of both instances right")
        if not self.delay_floor_s <= control.delay_s <= self.delay_ceiling_s:
            why = ("0 only for a private game started with --allow-zero-delay" if control.delay_s == 0 and
                   not self.allow_zero_delay else "under it, the picture shows cards while their hand is played")
            raise ControlError(f"delay_s {control.delay_s:g}: from {self.delay_floor_s:g} to "
                               f"{self.delay_ceiling_s:g} seconds ({why}; the bounds: {self.bounds_from})")
        return control

    def apply_remote(self, body: Any) -> None:
        """The other instance's change (the retained control message): applied if newer than ours; one made
        before this instance started keeps at least this instance's own delay."""
        if not isinstance(body, dict):
            self._refuse_control("not a control message (a JSON object)")
            return
        try:
            control = self._validated(body)
        except ControlError as exc:
            self._refuse_control(str(exc))
            return
        if control.stamp <= self.control.stamp:
            return
        if control.stamp < self.started and control.delay_s < self.own_delay_s:
            logger.warning("room: the retained control from %s asks for a %g s delay; it is older than this "
                           "instance, which keeps its own --delay %g s", control.by or "?", control.delay_s,
                           self.own_delay_s)
            control = msgspec.structs.replace(control, delay_s=self.own_delay_s)
        self._apply(control)

    def _refuse_control(self, why: str) -> None:
        self.rejected += 1
        self.control_refused += 1
        logger.warning("room: a control message refused: %s (%d so far)", why, self.control_refused)
        self.faults.append(f"control message refused: {why[:300]}")

    def control_published(self, reason: Any) -> None:
        """The broker's answer to our control change (paho's thread): a refusal means the other instance never
        hears of it. Said loudly: logged as an error and a fault on the status."""
        if not getattr(reason, "is_failure", False):
            return
        self.publish_refused += 1
        message = (f"the broker refused this instance's control change ({reason}): the other instance does not "
                   f"follow it; the ACL must let user production write pokertable/{self.room}/production/control "
                   "(config/room/acl)")
        logger.error("room: %s (%d so far)", message, self.publish_refused)
        self.faults.append(message)

    def _apply(self, control: Control) -> None:
        with self._lock:
            before = self.control.feature
            self.control = control
            for feed in self.tables.values():
                feed.set_delay(control.delay_s)
            self.version += 1
            switched = [(feed, feed.table == control.feature) for feed in self.tables.values()
                        if before != control.feature and feed.table in (before, control.feature)]
        for feed, on_air in switched:  # outside the lock: asking for chances may compute them here
            feed.want_chances(on_air)

    def page(self, now: float) -> dict[str, Any]:
        """What the on-air page gets: the feature table's delayed message under its reveal policy. No timing."""
        control = self.control
        shown = self.feature.on_air(now)
        tournament = self._tournament_in_force(now)
        key = (self.version, shown and (shown.seq, shown.hand, shown.chances is not None),
               tournament and (tournament[0], tournament[1].get("session"), tournament[1].get("seq")))
        if self._page is not None and self._page[0] == key:  # the page looks 50 times a second: most are the same
            return self._page[1]
        body: dict[str, Any] = {"table": control.feature, "chips": control.chips}
        body["on_air"] = None if shown is None else msgspec.to_builtins(reveal(shown, control.policy(control.feature)))
        body["tournament"] = None if tournament is None else _public(tournament[1])
        self._page = (key, body)
        return body

    def operator(self, now: float) -> dict[str, Any]:
        """The control page's status: live timing the on-air page must never have."""
        feed = self.feature
        shown = feed.on_air(now)
        upcoming, first = feed.next_release(now), feed.first_release()
        return {"instance": self.instance, "control": msgspec.to_builtins(self.control),
                "tables": sorted(self.tables), "on_air_seq": shown.seq if shown else None,
                "on_air_hand": shown.hand if shown else None,
                "next_in_s": None if upcoming is None else round(upcoming - now, 1),
                "starts_in_s": None if shown is not None or first is None else round(max(first - now, 0.0), 1),
                "held": feed.held(now), "received": feed.received, "rejected": self.rejected + feed.rejected,
                "dropped": feed.dropped, "late": feed.late, "chances_skipped": self.chances.skipped,
                "delay_bounds_s": [self.delay_floor_s, self.delay_ceiling_s], "control_refused": self.control_refused,
                "publish_refused": self.publish_refused, "faults": list(self.faults)}

    def close(self) -> None:
        self.chances.close()
