"""The daemon: one queue, one main loop that journals each event and only then feeds the rules core.

Reader threads and the panel post `Read`/`Gone`/`Button` events and reader health records to
the queue; only the main loop touches the core. Components start in order (readers, panel,
core, display, then the simulated dealer when there is one) and stop in reverse in `finally`;
a component that fails to start or fails later becomes a line in the fault state on the screen,
not a crash. The core's state after a restart is the journal replayed: from the core checkpoint
the journal keeps at each hand boundary (made by the same core code and profiles), so a resume
costs the current hand, not the session; rulings still open (not confirmed) are announced again.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import io
import logging
import math
import os
import pickle
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import is_dataclass, replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from firmware_py.core import (
    Button,
    ButtonName,
    CheckIn,
    Draw,
    Event,
    Gone,
    Level,
    Name,
    Race,
    Read,
    Ruling,
    RulingKind,
    Seat,
    Setup,
    Stacks,
    TableSnapshot,
    Tick,
    engine,
)
from firmware_py.core.engine import Outcome, TableCore
from firmware_py.core.profiles import Profile
from firmware_py.daemon.fault_state import ComponentFault, FaultState
from firmware_py.daemon.journal import Journal, line_of
from firmware_py.daemon.origins import Origins, PressSource, with_origin
from firmware_py.daemon.sdnotify import Notifier, watchdog_interval_s
from firmware_py.daemon.table_config import TableConfig
from firmware_py.errors import JournalError, TableError
from firmware_py.ports import CallbackComponent, Component
from firmware_py.session import SessionReader

if TYPE_CHECKING:
    from firmware_py.daemon.screen import DisplayComponent  # pygame only with a screen

logger = logging.getLogger("firmware_py.daemon")
ruling_log = logging.getLogger("firmware_py.ruling")

BATCH_MAX = 256  # events journaled in one commit when they queue up faster than the disk syncs
IDLE_WAKE_S = 0.25
TICK_S = 1.0  # while a shot clock runs, a `tick` event each second of session time (the core reads no clock)
JOURNAL_RETRY_S = 1.0
DEFAULT_WATCHDOG_S = 5.0


class Awaited:
    """An event posted by a page that waits for the core's verdict: `verdict` gets the Outcome (or the
    ValueError the core raised) once the main loop has journaled and fed it."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self.verdict: concurrent.futures.Future[Outcome] = concurrent.futures.Future()


class Stop:
    """Posted to the queue to end the main loop (the simulated dealer is done, or a signal came)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


class SessionClock:
    """Session seconds: `base` plus monotonic time since start, so a resumed session never goes back."""

    def __init__(self, base: float = 0.0) -> None:
        self.base = base
        self._start = time.monotonic()

    def __call__(self) -> float:
        return self.base + (time.monotonic() - self._start)

    def resume_at(self, t: float) -> None:
        self.base, self._start = t, time.monotonic()


def state_digest(snapshot: TableSnapshot) -> str:
    """A short fingerprint of the table's state, to compare a resumed daemon with a replay."""
    return hashlib.sha256(repr(snapshot).encode()).hexdigest()[:16]


def replay(events: Sequence[Event], core: TableCore) -> list[Ruling]:
    """Feed journaled events to a core as the main loop did; returns the rulings."""
    rulings: list[Ruling] = []
    for event in events:
        try:
            rulings.extend(core.feed(event).rulings)
        except ValueError as exc:  # the core refused it live too: same state either way
            logger.debug("replay: event refused: %s", exc)
    return rulings


def iter_journal_events(journal: Journal, *, base_dir: Path, after: int = 0) -> Iterator[Event]:
    """The journaled events after sequence number `after`, parsed back one by one (memory stays flat)."""
    reader = SessionReader(source=str(journal.path), base_dir=base_dir)
    for row in journal.rows(after=after):
        event = reader.parse_line(row.line, row.seq)
        if event is not None:
            yield event


def journal_events(journal: Journal, *, base_dir: Path) -> list[Event]:
    """Every journaled event, parsed back; deck paths in setup lines are absolute."""
    return list(iter_journal_events(journal, base_dir=base_dir))


CORE_SOURCES = Path(__file__).resolve().parent.parent / "core"


def core_fingerprint(profiles: Mapping[str, Profile]) -> str:
    """What a core checkpoint is valid for: this core's code and build, these profiles, this Python."""
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for source in sorted(CORE_SOURCES.glob("*.py")):
        digest.update(source.name.encode() + source.read_bytes())
    # Compiled (mypyc, setup.py) or not: the two builds pickle the core's mutable records differently.
    digest.update(Path(engine.__file__ or "").suffix.encode())
    digest.update(_canonical(dict(profiles)).encode())
    return digest.hexdigest()[:32]


def _canonical(value: Any) -> str:
    """A repr that is the same in every process (sets sorted: their order follows the string hash seed)."""
    if is_dataclass(value) and not isinstance(value, type):
        inner = ", ".join(f"{name}={_canonical(getattr(value, name))}" for name in value.__dataclass_fields__)
        return f"{type(value).__name__}({inner})"
    if isinstance(value, Mapping):
        return "{" + ", ".join(sorted(f"{_canonical(k)}: {_canonical(v)}" for k, v in value.items())) + "}"
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(sorted(_canonical(item) for item in value)) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_canonical(item) for item in value) + "]"
    return repr(value)


class _CoreUnpickler(pickle.Unpickler):
    """Reads back a core checkpoint: the rules core's own classes and plain containers, nothing else."""

    ALLOWED = frozenset({("builtins", "set"), ("builtins", "frozenset"), ("copyreg", "_reconstructor"),
                         ("builtins", "object")})

    def find_class(self, module: str, name: str) -> Any:
        if module.startswith("firmware_py.core.") or (module, name) in self.ALLOWED:
            return super().find_class(module, name)
        if (module, name) == ("builtins", "getattr"):
            # Some Python builds (Debian bookworm's 3.11.2, the Pi's) pickle an enum member as
            # getattr(its class, its name): a member of a core enum, and nothing else, comes back.
            return _core_enum_member
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a core checkpoint")


def _core_enum_member(kind: object, name: str) -> Enum:
    if (isinstance(kind, type) and issubclass(kind, Enum) and kind.__module__.startswith("firmware_py.core.")
            and name in kind.__members__):
        return kind.__members__[name]
    raise pickle.UnpicklingError(f"getattr({kind!r}, {name!r}) is not a member of a core enum")


def load_core_state(data: bytes) -> dict[str, Any]:
    state = _CoreUnpickler(io.BytesIO(data)).load()
    if not isinstance(state, dict) or state.get("version") != 1:
        raise ValueError("not a core checkpoint of this version")
    return state


class Daemon:
    """The table's main loop. `run()` returns the exit status."""

    def __init__(self, config: TableConfig, *, journal: Journal, clock: Callable[[], float],
                 events: queue.Queue[object] | None = None, notifier: Notifier | None = None,
                 acks: TextIO | None = None, stop_when_done: bool = True) -> None:
        self.config = config
        self.journal = journal
        self.clock = clock
        self.queue: queue.Queue[object] = events if events is not None else queue.Queue()
        self.notifier = notifier or Notifier()
        self.acks = acks
        self.stop_when_done = stop_when_done
        self.core = TableCore(config.profiles)
        self.faults = FaultState()
        self.readers: list[Component] = []
        self.panel: Component | None = None
        self.display: DisplayComponent | None = None
        self.extras: list[Component] = []  # started last: the simulated dealer
        # A feature that keeps the table's seats, button, chips and levels (a tournament's director, through
        # the room's tournament table side): `firmware_py.ports.TablePort.hand_over_table`. None: the table file.
        self.table_keeper: str | None = None
        self.offers: dict[str, list[object]] = {}  # parts the features offer each other, by kind (TablePort.offer)
        self.on_snapshot: list[Callable[[TableSnapshot], None]] = []
        self.on_ruling: list[Callable[[Ruling], None]] = []
        self.resumed = 0  # events in the journal when the daemon started
        self.resumed_t: float | None = None  # the session time of the last of them
        self.replayed_on_resume = 0  # of them, the events after the core checkpoint, replayed at start
        self.announced_again: list[Ruling] = []  # open rulings announced again after a restart
        self._fingerprint = core_fingerprint(config.profiles)
        self._setup_line: str | None = None  # the last setup event, kept with each core checkpoint
        self.rulings = 0  # in the whole session, a restart's replayed part included (kept with the checkpoint)
        self.void_deals = 0  # deals ended by a misdeal or a void ruling
        self.events_fed = 0
        self._clock_running = False  # a shot clock on a player in the last snapshot: ticks are posted
        self._last_tick_t = -TICK_S
        self.stop_reason = ""
        self._pending: list[Event] = []
        # Extensions' translations of a reader's events before the core sees them (players.py: a player card read
        # is a `checkin`, journaled as one); None drops the event.
        self.read_filters: list[Callable[[Read | Gone], Event | None]] = []
        self._awaited: dict[int, Awaited] = {}  # by id() of the event: a page waits for its verdict
        self.origins = Origins()  # who made each press posted (panel, tracker, keypad): journaled with it
        self._last_t = -math.inf
        self._next_retry = 0.0
        self._stop = threading.Event()
        self._sources = self._source_names()

    # -- the components --------------------------------------------------------------------------

    def _source_names(self) -> dict[str, str]:
        """Which reader senses each antenna, for the log lines."""
        hardware = self.config.hardware
        names = {r.antenna: f"reader {r.antenna}" for r in hardware.readers}
        if hardware.serial is not None:
            for antenna in hardware.serial.antennas:
                names[antenna] = f"board {hardware.serial.name} {antenna}"
        return names

    def source_of(self, event: Event) -> str:
        if isinstance(event, Read | Gone):
            return self._sources.get(event.antenna, f"antenna {event.antenna}")
        if isinstance(event, Button):
            return f"button {event.name}"
        if isinstance(event, Seat | Name):
            return f"seat {event.seat}"
        if isinstance(event, CheckIn):
            return f"player card {event.player}" + (f" at seat {event.seat}" if event.seat else " at the shoe")
        if isinstance(event, Draw):
            return "director's draw"
        if isinstance(event, Stacks | Level | Race):
            return "chips"
        if isinstance(event, Tick):
            return "shot clock"
        return "table config"

    def run(self) -> int:
        started: list[Component] = []
        core = CallbackComponent("core", self._resume, lambda: None)
        order: list[Component] = [*self.readers, *([self.panel] if self.panel else []), core,
                                  *([self.display] if self.display else []), *self.extras]
        try:
            for component in order:
                try:
                    component.start()
                except JournalError:
                    raise
                except TableError as exc:  # an expected fault (no hardware, a bad setting): one clear line
                    self._fault(component.name, f"failed to start: {exc}")
                    if component is self.display:
                        self.display = None
                    continue
                except Exception as exc:  # a broken part shows on screen; the table carries on without it
                    logger.exception("%s failed to start", component.name)
                    self._fault(component.name, f"failed to start: {exc}")
                    if component is self.display:
                        self.display = None
                    continue
                started.append(component)
            self.notifier.ready(f"resumed {self.resumed} events" if self.resumed else "new session")
            self._loop()
        except JournalError as exc:
            logger.critical("%s", exc)
            return 3
        finally:
            self.notifier.stopping()
            for component in reversed(started):
                try:
                    component.stop()
                except Exception:
                    logger.exception("%s failed to stop", component.name)
        logger.info("stopped: %s", self.stop_reason or "done")
        return 0

    def stop(self, reason: str = "stop requested") -> None:
        self.queue.put(Stop(reason))

    # -- the core ----------------------------------------------------------------------------------

    def _resume(self) -> None:
        """Bring the core to the journal's end (from its checkpoint, then the events after it);
        a fresh journal gets the setup line of the config."""
        base_dir = self.config.hardware_file.parent
        after, last_t = self._restore_checkpoint(), None
        replayed = 0
        for event in iter_journal_events(self.journal, base_dir=base_dir, after=after):
            try:
                for ruling in self.core.feed(event).rulings:  # the session's counts include what came before
                    self._count(ruling)
            except ValueError as exc:  # the core refused it live too: same state either way
                logger.debug("replay: event refused: %s", exc)
            if isinstance(event, Setup):
                self._setup_line = line_of(event)
            last_t, replayed = event.t, replayed + 1
        self.resumed, self.replayed_on_resume = self.journal.last_seq, replayed
        self.events_fed = self.resumed
        if self.resumed:
            self._last_t = last_t if last_t is not None else self.core.t
            self.resumed_t = self._last_t
            if isinstance(self.clock, SessionClock):
                self.clock.resume_at(self._last_t)
            snapshot = self.core.snapshot()
            logger.info("resumed the session: %d events (%d replayed after the hand's checkpoint), hand %d (%s), "
                        "state %s", self.resumed, replayed, snapshot.hand_number, snapshot.phase,
                        state_digest(snapshot))
            self._ack(f"resume {self.resumed} {state_digest(snapshot)}")
            if after == 0 or replayed > 0:
                self._save_checkpoint(self.journal.last_seq)
            self._announce_open_rulings()
            if not self._same_setup():
                logger.warning("the table config differs from the journaled setup: it applies from now")
                self._commit([self.config.setup(t=max(self._last_t, self.clock()))])
        else:
            logger.info("new session: %s, seats %s, button %d", self.config.game.profile,
                        ",".join(map(str, self.config.game.seats)), self.config.game.button)
            t = max(0.0, self.clock())
            start: list[Event] = [self.config.setup(t=t)]
            if self.config.starting_stack:
                start.append(Stacks(t=t, stacks=tuple((s, self.config.starting_stack) for s in self.config.game.seats)))
            self._commit(start)

    def _restore_checkpoint(self) -> int:
        """Restore the core from the journal's checkpoint; the sequence number it is after (0: none)."""
        found = self.journal.load_checkpoint(self._fingerprint)
        if found is None:
            return 0
        seq, data = found
        try:
            state = load_core_state(data)
            TableCore(self.config.profiles).restore(state["core"])  # a probe: the live core is touched only if it takes
        except Exception:  # an unreadable checkpoint costs a full replay, never the session
            logger.warning("journal %s: the core checkpoint cannot be used; the session is replayed instead",
                           self.journal.path, exc_info=True)
            return 0
        self.core.restore(state["core"])
        self._setup_line = state.get("setup")
        counts = state.get("counts") or {}
        self.rulings, self.void_deals = int(counts.get("rulings", 0)), int(counts.get("void_deals", 0))
        return seq

    def _save_checkpoint(self, seq: int) -> None:
        state = {"version": 1, "core": self.core.save(), "setup": self._setup_line,
                 "counts": {"rulings": self.rulings, "void_deals": self.void_deals}}
        try:
            self.journal.save_checkpoint(seq, self._fingerprint, pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        except (JournalError, pickle.PicklingError, TypeError) as exc:  # events are safe; a resume replays more
            logger.warning("the core checkpoint was not saved (%s): a restart replays from the one before", exc)

    def _announce_open_rulings(self) -> None:
        """Rulings made before the restart and not yet confirmed: the dealer may never have seen them."""
        for ruling in self.core.unconfirmed:
            self.announced_again.append(ruling)
            ruling_log.info("%s [open before the restart]", ruling.public().explain())
            self._tell_ruling(ruling)

    def _same_setup(self) -> bool:
        if self._setup_line is None:
            return False
        try:
            last = SessionReader(base_dir=self.config.hardware_file.parent).parse_line(self._setup_line, 0)
        except ValueError:
            return False
        want = self.config.setup()
        if self.table_keeper is not None and isinstance(last, Setup):  # seats, button and chips: the keeper's
            last = replace(last, seats=want.seats, button=want.button, denominations=want.denominations)
        return isinstance(last, Setup) and (last.profile, last.seats, last.in_play, tuple(last.deck_files),
                                            last.game, last.denominations) == (
            want.profile, want.seats, want.in_play, tuple(want.deck_files), want.game, want.denominations)

    def _loop(self) -> None:
        watchdog_s = watchdog_interval_s()
        next_ping = 0.0
        self._publish()
        while True:
            batch: list[object] = []
            try:
                batch.append(self.queue.get(timeout=IDLE_WAKE_S))
                while len(batch) < BATCH_MAX:
                    batch.append(self.queue.get_nowait())
            except queue.Empty:
                pass
            events: list[Event] = []
            stop: Stop | None = None
            for taken in batch:
                item = self._filtered(taken) if self.read_filters and isinstance(taken, Read | Gone) else taken
                if item is None:
                    continue  # a player card's sighting that checks no one in
                if isinstance(item, Setup | Read | Gone | Button | Seat | Stacks | Level | Race | Tick | Name | Draw
                              | CheckIn):
                    events.append(item)
                elif isinstance(item, tuple):  # events that go together (a tournament's seats): one commit
                    events.extend(e for e in item
                                  if isinstance(e, Setup | Seat | Stacks | Level | Race | Name | Draw | CheckIn))
                elif isinstance(item, Awaited):
                    events.append(item.event)
                    self._awaited[id(item.event)] = item
                elif isinstance(item, Stop):
                    stop = item
                else:
                    self._health(item)
            tick = self._tick_due()
            if tick is not None:
                events.append(tick)
            if events or (self._pending and time.monotonic() >= self._next_retry):
                self._commit(events)
            if watchdog_s is not None and time.monotonic() >= next_ping:
                if self.healthy():
                    self.notifier.watchdog()
                next_ping = time.monotonic() + min(watchdog_s, DEFAULT_WATCHDOG_S)
            if stop is not None:
                self.stop_reason = stop.reason
                if not self._pending:
                    return
                logger.error("stopping with %d events not journaled (the journal is failing)", len(self._pending))
                return

    def _filtered(self, event: Read | Gone) -> Event | None:
        """A reader's event through the read filters (the [checkin] extension's player cards): what the core sees."""
        out: Event | None = event
        for translate in self.read_filters:
            if not isinstance(out, Read | Gone):
                break
            out = translate(out)
        return out

    def _tick_due(self) -> Tick | None:
        """While a shot clock runs, a `tick` each second of session time: its warnings, count and expiry come
        from the core at the tick that reaches them (the core stays pure: time arrives as events)."""
        if not self._clock_running:
            return None
        now = max(self.clock(), self._last_t)
        if now - self._last_tick_t < TICK_S:
            return None
        self._last_tick_t = now
        return Tick(t=now)

    def healthy(self) -> bool:
        """What the watchdog pings for: the loop turns, the journal records, the screen draws."""
        if self.faults.has("journal"):
            return False
        return self.display is None or self.display.alive()

    def _health(self, item: object) -> None:
        from hardware.reader_health import ReaderFault, ReaderRecovered  # noqa: PLC0415

        if isinstance(item, ReaderFault):
            self._fault(self._reader_component(item.reader), item.message)
        elif isinstance(item, ReaderRecovered):
            if self.faults.clear(self._reader_component(item.reader)):
                self._publish()
        elif isinstance(item, ComponentFault):  # a component that broke while running
            self._fault(item.component, item.message)
        else:
            logger.warning("main loop: ignored %r on the queue", item)

    def _reader_component(self, reader: str) -> str:
        serial = self.config.hardware.serial
        if serial is not None and reader == serial.name:
            return f"board {reader}"
        return f"reader {reader}"

    def _fault(self, component: str, message: str) -> None:
        if self.faults.raise_fault(component, message, t=self.clock()):
            self._publish()

    def _commit(self, events: list[Event]) -> None:
        """Journal the events (and any left from a failed commit), then, and only then, feed them."""
        fresh = []
        for event in self._with_levels(events):
            t = max(event.t, self._last_t, 0.0)  # threads race to the queue: keep session time monotonic
            fresh.append(event if t == event.t else replace(event, t=t))
            if fresh[-1] is not event and id(event) in self._awaited:
                self._awaited[id(fresh[-1])] = self._awaited.pop(id(event))
            if fresh[-1] is not event and isinstance(fresh[-1], Button):
                self.origins.moved(event, fresh[-1])
            self._last_t = t
        batch = self._pending + fresh
        if not batch:
            return
        try:
            lines = [self._line(event) for event in batch]
            seqs = self.journal.append_lines(lines)
        except JournalError as exc:
            self._pending = batch
            self._next_retry = time.monotonic() + JOURNAL_RETRY_S
            self._fault("journal", str(exc))
            return
        self._pending = []
        for event in batch:
            if isinstance(event, Button):
                self.origins.take(event)
        if self.faults.clear("journal", note="events are recorded again"):
            self._publish()
        for seq, event, line in zip(seqs, batch, lines, strict=True):
            self._ack(f"ack {seq} {line}")
            if isinstance(event, Setup):
                self._setup_line = line_of(event)
        hand = shown = self.core.hand_number
        fed = raced = False  # since the listeners last saw the table: anything fed, a chip race under way
        answers: list[tuple[Awaited, Outcome | ValueError]] = []
        for event in batch:
            if (fed and isinstance(event, Button) and event.name is ButtonName.NEW_HAND
                    and (self.core.hand_number != shown or raced)):
                # A hand, or a chip race, went on in this batch: the listeners see the table between hands before
                # the next deal, however fast the dealer was. The room's table side reports each from that picture.
                self._publish()
                shown, fed, raced = self.core.hand_number, False, False
            outcome = self._feed(event)
            fed, raced = True, raced or self.core.racing
            awaited = self._awaited.pop(id(event), None)
            if awaited is not None:
                answers.append((awaited, outcome))
        if self.core.hand_number != hand or any(isinstance(event, Setup) for event in batch):
            self._save_checkpoint(seqs[-1])  # a hand boundary: a restart replays from here
        self._publish()
        # Answered once the listeners have the table the press made: a tracker's reply never comes before its
        # page's state, so a next press is never made against the table as it was before this one.
        for waiting, answer in answers:
            if not waiting.verdict.done():
                if isinstance(answer, Outcome):
                    waiting.verdict.set_result(answer)
                else:
                    waiting.verdict.set_exception(answer)

    def presses(self, by: str) -> PressSource:
        """The queue for one source of presses (`origins.PANEL`, `TRACKER`, `KEYPAD`): its presses are journaled
        with `by`, so a hand's replay says who pressed what."""
        return PressSource(self.queue, self.origins, by)

    def _line(self, event: Event) -> str:
        """The event's journal line; a press with its source, while that is known (a failed commit keeps it)."""
        line = line_of(event)
        if isinstance(event, Button):
            by = self.origins.take(event)
            if by is not None:
                self.origins.note(event, by)  # until the commit holds: a retried batch writes it again
                line = with_origin(line, by)
        return line

    def _with_levels(self, events: list[Event]) -> list[Event]:
        """A `level` line before each `new_hand` that starts a new blind level, when chips are counted (a
        starting stack in the table file, or stacks given on the way); a chip-free journal gets none."""
        schedule = self.config.schedule
        if schedule is None or self.table_keeper is not None:
            return events  # a tournament's level is the director's (room/tournament_table.py), not the table file's
        counting = bool(self.config.starting_stack) or self.core.counts_chips
        out: list[Event] = []
        for event in events:
            counting = counting or isinstance(event, Stacks)
            if counting and isinstance(event, Button) and event.name is ButtonName.NEW_HAND:
                at = schedule.level_at(event.t)
                now = at.level
                current = self.core.level
                if current is None or current != now.stakes:
                    out.append(Level(t=event.t, small=now.small, big=now.big, ante=now.ante, bb_ante=now.bb_ante,
                                     number=at.number))
            out.append(event)
        return out

    def _feed(self, event: Event) -> Outcome | ValueError:
        try:
            outcome = self.core.feed(event)
        except ValueError as exc:
            logger.error("the rules core refused %s from %s: %s", line_of(event), self.source_of(event), exc)
            return exc
        self.events_fed += 1
        source = self.source_of(event)
        for ruling in outcome.rulings:
            self._count(ruling)
            ruling_log.info("%s [%s]", ruling.public().explain(), source)  # no face-down card named
            self._tell_ruling(ruling)
        for notice in outcome.notices:
            logger.info("notice t=%.2f %s: %s [%s]", notice.t, notice.notice, notice.message, source)
        return outcome

    def _count(self, ruling: Ruling) -> None:
        self.rulings += 1
        if ruling.ruling in (RulingKind.MISDEAL, RulingKind.VOID_HAND):
            self.void_deals += 1  # a deal that was never played: not a hand

    def _tell_ruling(self, ruling: Ruling) -> None:
        """Each ruling listener (the buzzer, the LED) in turn: one that raises is logged, not fatal."""
        for callback in self.on_ruling:
            try:
                callback(ruling)
            except Exception:
                logger.exception("a ruling listener failed")

    def _publish(self) -> None:
        snapshot = self.core.snapshot()
        self._clock_running = snapshot.clock is not None
        for callback in self.on_snapshot:
            try:
                callback(snapshot)
            except Exception:
                logger.exception("a snapshot listener failed")

    def _ack(self, line: str) -> None:
        if self.acks is not None:
            self.acks.write(line + "\n")
            self.acks.flush()


def open_acks(path: str | None) -> TextIO | None:
    """The acknowledgement log (one line per journaled event), for tests and tooling."""
    if not path:
        return None
    handle = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (lives as long as the daemon)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)
    return handle
