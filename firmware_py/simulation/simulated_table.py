"""The simulated table: the dealer bot's hands acted out on emulated hardware, read by the real drivers.

Nothing here posts a core event itself (except for a sensor the hardware config lacks): the bot's
script becomes physical acts, a tag on an emulated MFRC522's antenna, a tag on a port of an
emulated serial board behind pyserial's `loop://`, a MockFactory pin driven low, and the real
`ReaderThread`, `SerialBoardReader` and `DealerPanel` turn them into events on the daemon's
queue, stamped by a virtual session clock. The emulated parts are those of one
`hardware.emulation.emulated_table.EmulatedTable`, handed to the drivers explicitly. The world is stepped in
lockstep on that clock, so fifty hands take seconds, not hours; `speed` slows it to a multiple of
real time for a window.

On a restart after a crash, `align` finds how far the journal got through the same seeded script,
the cards the journal says lie on the board are put back on the emulated antennas (known to their
readers, so not read again), and the dealer carries on from the next act: the hand resumes where
it was. Some acts are silent: a card put back where it already lies is sensed by nobody, so `align`
expects no event for it rather than waiting there for one.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_py.core import Button, ButtonName, Event, Gone, Level, Race, Read, Stacks
from firmware_py.core.game import HOLDEM, Game
from firmware_py.core.profiles import Profile
from firmware_py.daemon.origins import KEYPAD, PANEL, Origins, PressSource
from firmware_py.ports import PressNotes
from firmware_py.simulation.dealer import DealerBot, DealerMistake

logger = logging.getLogger(__name__)

BOARD_SCAN_S = 0.02  # the emulated serial board writes a scan line per port this often
PANEL_SERVICE_S = 0.01
MAX_WAIT_S = 3.0  # a sensor that has not reported an act by then has missed it (logged)
CLEAR_AFTER_HAND_S = 1.0  # the dealer gathers the board this long after the pot is pushed
HAND_GAP_S = 5.0  # between two hands (shuffle, cut)
BOARD_ANTENNAS = frozenset({"board1", "board2", "board3", "board4", "board5", "muck"})  # cards lie there


class SimClock:
    """A session clock that moves only when the simulated world says so (thread-safe)."""

    def __init__(self, start: float = 0.0) -> None:
        self._t = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._t

    def advance(self, seconds: float) -> float:
        with self._lock:
            self._t = round(self._t + max(seconds, 0.0), 6)
            return self._t

    def set_at_least(self, t: float) -> float:
        with self._lock:
            self._t = max(self._t, t)
            return self._t


@dataclass(frozen=True, slots=True)
class Act:
    """One physical act of the dealer: a card read or landed, a button pressed, the board cleared."""

    t: float
    hand: int
    kind: str  # "read" (a tag onto an antenna), "lift" (a tag off one), "press", "key" (an amount and an action
    # key), "chips", "clear"
    antenna: str = ""
    uid: str = ""
    button: str = ""
    amount: int = 0  # "key": the amount keyed on the keypad before the action key
    chips: Stacks | Level | Race | None = None  # "chips": stacks, the blind level or a color-up, entered by the floor

    def key(self) -> tuple[str, ...] | None:
        """What the journal holds when this act has been sensed (None: nothing expected)."""
        if self.kind == "read":
            return ("read", self.antenna, self.uid)
        if self.kind == "press":
            return ("button", self.button)
        if self.kind == "key":
            return ("button", _keyed(self.button))
        return None


def _keyed(name: str) -> str:
    """One keypad key serves bet and raise (the core tells which from the bet faced)."""
    return "raise" if name == "bet" else name


def event_key(event: Event) -> tuple[str, ...] | None:
    if isinstance(event, Read):
        return ("read", event.antenna, event.uid)
    if isinstance(event, Button):
        return ("button", _keyed(str(event.name)) if event.amount is not None else str(event.name))
    return None


def script(*, profile: Profile, seats: Sequence[int], button: int, deck: Any, other_deck: Any,
           seed: int, hands: int, error_rate: float,
           errors: Sequence[DealerMistake] = tuple(DealerMistake),
           stack: int = 0, schedule: Any = None, game: Game = HOLDEM) -> tuple[list[Act], list[DealerMistake | None]]:
    """The seeded bot's session as acts (the same seed always gives the same acts); with `stack`, amounts at
    the blind levels of `schedule` (`level_at(t)`)."""
    made: list[DealerMistake | None] = []
    acts = list(stream(profile=profile, seats=seats, button=button, deck=deck, other_deck=other_deck, seed=seed,
                       hands=hands, error_rate=error_rate, errors=errors, stack=stack, schedule=schedule,
                       made=made.append, game=game))
    return acts, made


def stream(*, profile: Profile, seats: Sequence[int], button: int, deck: Any, other_deck: Any,
           seed: int, hands: int, error_rate: float,
           errors: Sequence[DealerMistake] = tuple(DealerMistake),
           stack: int = 0, schedule: Any = None,
           made: Callable[[DealerMistake | None], object] | None = None, game: Game = HOLDEM,
           rebuy: bool = True, before_hand: Callable[[DealerBot], bool] | None = None,
           denominations: tuple[int, ...] = ()) -> Iterator[Act]:
    """`script`'s acts one hand at a time, each hand scripted as the dealer comes to it: a long session
    starts at once and holds one hand's acts, not the whole session's. `made` hears each hand's error.

    `before_hand` is asked before each deal, the last hand's acts all performed: it may wait (a tournament's
    hold), bring the bot's view of the table up to date, or end the session (False)."""
    bot = DealerBot(rng=random.Random(seed), deck=deck, other_deck=other_deck, profile=profile,
                    seats=tuple(seats), button=button, error_rate=error_rate, errors=errors, stack=stack,
                    schedule=schedule, game=game, rebuy=rebuy, denominations=denominations)
    t = 1.0
    for number in range(1, hands + 1):
        if before_hand is not None:
            if not before_hand(bot):
                return
            if bot._core is not None:
                t = max(t, bot._core.t + 1.0)
            race = bot.deal_race(t=t)  # the table started a chip race (a tournament's color-up): its cards first
            if race is not None:
                yield from _acts(race.events, number)
                t = race.t_end + HAND_GAP_S
                if not before_hand(bot):  # and asked again: the table rules the race before the next deal
                    return
        hand = bot.hand(t=t)
        if made is not None:
            made(hand.error)
        yield from _acts(hand.events, number)
        yield Act(t=hand.t_end + CLEAR_AFTER_HAND_S, hand=number, kind="clear")
        t = hand.t_end + HAND_GAP_S


def _acts(events: Iterable[Event], number: int) -> Iterator[Act]:
    """What the dealer does for each scripted event: a card to an antenna or off it, a press, an amount keyed,
    chips."""
    for event in events:
        if isinstance(event, Read):
            yield Act(t=event.t, hand=number, kind="read", antenna=event.antenna, uid=event.uid)
        elif isinstance(event, Gone):
            # A remedy takes cards off the board (a premature flop, a flop of four): the dealer lifts them,
            # or the card dealt there next lands on one still lying there and nobody senses it.
            yield Act(t=event.t, hand=number, kind="lift", antenna=event.antenna, uid=event.uid)
        elif isinstance(event, Button) and event.amount is not None:
            # An amount: keyed on the USB keypad, then its action key.
            yield Act(t=event.t, hand=number, kind="key", button=str(event.name), amount=event.amount)
        elif isinstance(event, Button):
            # The panel has no seat keys: the acting seat is the one to act, as the bot intends.
            yield Act(t=event.t, hand=number, kind="press", button=str(event.name))
        elif isinstance(event, Stacks | Level | Race):
            yield Act(t=event.t, hand=number, kind="chips", chips=event)


def expected_keys(acts: Sequence[Act], stays: Collection[str]) -> list[tuple[str, ...] | None]:
    """What the journal holds for each act: None for an act no sensor reports.

    Cards stay on the antennas in `stays` (the board's) until the next card there or the clear;
    a card put on one of those where it already lies is not a new arrival.
    """
    lying: dict[str, str] = {}
    keys: list[tuple[str, ...] | None] = []
    for act in acts:
        if act.kind == "clear":
            lying.clear()
        if act.kind == "lift" and lying.get(act.antenna) == act.uid:
            del lying[act.antenna]
        if act.kind == "read" and act.antenna in stays:
            silent = lying.get(act.antenna) == act.uid
            lying[act.antenna] = act.uid
            keys.append(None if silent else act.key())
        else:
            keys.append(act.key())
    return keys


def align(acts: Sequence[Act], journaled: Iterable[Event], *,
          stays: Collection[str] = BOARD_ANTENNAS) -> tuple[int, int]:
    """(index of the next act to perform, journal events that match no act) after a restart."""
    keys = expected_keys(acts, stays)
    index, unmatched = 0, 0
    for event in journaled:
        key = event_key(event)
        if key is None:
            continue
        probe = index
        while probe < len(acts) and keys[probe] is None:
            probe += 1
        if probe < len(acts) and keys[probe] == key:
            index = probe + 1
            continue
        # A card put back on its board antenna before it was reported gone is not sensed either: skip
        # board reads (never past a card out of the shoe or a press) to find the act this event is.
        ahead = probe
        while ahead < len(acts) and keys[ahead] != key and (keys[ahead] is None or acts[ahead].antenna in stays):
            ahead += 1
        if ahead < len(acts) and keys[ahead] == key:
            index = ahead + 1
        else:
            unmatched += 1  # e.g. a card re-read after a restart: harmless, the core tolerates it
    return index, unmatched


def lying_cards(journaled: Iterable[Event], stays: Collection[str] = BOARD_ANTENNAS) -> dict[str, list[str]]:
    """The cards on the antennas in `stays` at the end of the journal, as their readers reported them."""
    lying: dict[str, list[str]] = {}
    for event in journaled:
        track_lying(lying, event, stays)
    return {antenna: uids for antenna, uids in lying.items() if uids}


def track_lying(lying: dict[str, list[str]], event: Event, stays: Collection[str]) -> None:
    if isinstance(event, Read | Gone) and event.antenna in stays:
        here = lying.setdefault(event.antenna, [])
        if isinstance(event, Read) and event.uid not in here:
            here.append(event.uid)
        elif isinstance(event, Gone) and event.uid in here:
            here.remove(event.uid)


class _Tap:
    """The daemon's queue, seen by the world too, so it knows when a sensor has reported an act.

    It keeps only what was queued since the last `mark` (the dealer marks before each act and looks
    at what came after): a session of any length holds one act's events, not the session's.
    """

    def __init__(self, queue: Any) -> None:
        self.queue = queue
        self.seen: list[object] = []  # queued since the last mark
        self._marked = 0  # items queued before seen[0]
        self.last: object | None = None  # the last item queued
        self._hand_reads: set[str] = set()  # the tags read since the last new_hand (practice deals from the rest)
        self._lock = threading.Lock()

    def put(self, item: object) -> None:
        with self._lock:
            self.seen.append(item)
            self.last = item
            if isinstance(item, Button) and item.name is ButtonName.NEW_HAND:
                self._hand_reads = set()
            elif isinstance(item, Read):
                self._hand_reads.add(item.uid)
        self.queue.put(item)

    def hand_reads(self) -> set[str]:
        with self._lock:
            return set(self._hand_reads)

    def mark(self) -> int:
        """A mark to ask `since` about; what was queued before it is forgotten."""
        with self._lock:
            self._marked += len(self.seen)
            self.seen = []
            return self._marked

    def since(self, mark: int) -> list[object]:
        with self._lock:
            if mark < self._marked:
                raise ValueError(f"mark {mark} is older than the last one ({self._marked}): its events are forgotten")
            return self.seen[mark - self._marked:]


class EmulatedSensors:
    """The configured readers and panel on an `EmulatedTable`, stepped by the world, not by threads."""

    def __init__(self, hardware_config: Any, *, queue: Any, clock: SimClock, origins: PressNotes | None = None) -> None:
        import serial  # noqa: PLC0415

        from hardware.emulation.emulated_table import EmulatedTable  # noqa: PLC0415

        self.clock = clock
        self.tap = _Tap(queue)
        # the panel's and keypad's presses, so marked
        self.origins: PressNotes = origins if origins is not None else Origins()
        self._loop = serial.serial_for_url("loop://", timeout=0)  # the board's wire, looped back
        # SPI time is virtual (polls cost no waiting); the board writes a scan when the world steps it.
        self.table = EmulatedTable(hardware_config, realtime=False, board_port=self._loop)
        self.config = self.table.config
        self.spi: dict[str, Any] = {}  # antenna -> ReaderThread (never started: step() is called)
        self.serial: Any = None
        self.board_antennas: tuple[str, ...] = () if self.config.serial is None else self.config.serial.antennas
        self.panel: Any = None
        self.keypad: Any = None  # hardware.keypad.KeypadReader, fed the key events an emulated keypad sends

    @property
    def board(self) -> Any:
        return self.table.board

    @property
    def pin_factory(self) -> Any:
        return self.table.pin_factory

    # -- life cycle (the daemon starts readers, then the panel; stops them in reverse) ------------

    def start_readers(self) -> None:
        from hardware.mfrc522_reader import Mfrc522Reader  # noqa: PLC0415
        from hardware.polling import ReaderThread  # noqa: PLC0415
        from hardware.presence import Presence  # noqa: PLC0415

        hardware = self.table.hardware
        for reader in self.config.readers:
            driver = Mfrc522Reader(reader, open_spi=hardware.open_spi, gpio=hardware.gpio, sleep=hardware.sleep)
            presence = Presence(reader.antenna, self.config.timing_for(reader.antenna))
            self.spi[reader.antenna] = ReaderThread(driver, presence, queue=self.tap, clock=self.clock,
                                                    poll_interval_s=self.config.poll_interval_s)
        if self.config.serial is not None:
            from hardware.serial_board import SerialBoardReader  # noqa: PLC0415

            loop = self._loop
            self.serial = SerialBoardReader(self.config.serial, queue=self.tap, clock=self.clock,
                                            timing_for=self.config.timing_for,
                                            open_port=lambda *_args, **_kwargs: loop)
            self.serial.step()  # opens the port; the first line after opening is skipped (mid-line)
            self.board.hello()
            self.board.hello()
            self.serial.step()
        for thread in self.spi.values():
            thread.step()  # opens the reader and configures the chip

    def stop_readers(self) -> None:
        for thread in reversed(list(self.spi.values())):
            thread.stop()
        if self.serial is not None:
            self.serial.stop()
        self.table.close()

    def start_panel(self) -> None:
        if self.config.panel is None:
            return
        from hardware.panel import DealerPanel  # noqa: PLC0415

        self.panel = DealerPanel(self.config.panel, pin_factory=self.pin_factory,
                                 queue=PressSource(self.tap, self.origins, PANEL), clock=self.clock)
        from hardware.keypad import KeypadConfig, KeypadReader, keypad_of  # noqa: PLC0415

        keypad = keypad_of(self.config) or KeypadConfig()  # amounts: a USB keypad, emulated even if none is configured
        self.keypad = KeypadReader(keypad, device=None, queue=PressSource(self.tap, self.origins, KEYPAD),
                                   clock=self.clock)

    def stop_panel(self) -> None:
        if self.panel is not None:
            self.panel.close()
        self.pin_factory.reset()

    # -- the physical world -----------------------------------------------------------------------

    def poll(self, antenna: str | None = None) -> None:
        """One poll of the reader sensing `antenna` (every reader when None)."""
        if (antenna is None or antenna in self.board_antennas) and self.board is not None:
            self.board.scan()
            self.serial.step()
        for name, thread in self.spi.items():
            if antenna is None or antenna == name:
                thread.step()
        if antenna is None and self.panel is not None:
            self.panel.service()

    def place(self, antenna: str, uid: str) -> bool:
        """Put a tag on `antenna`; False when no sensor of the config watches it."""
        if not self.table.senses(antenna):
            return False
        self.table.place(antenna, uid)
        return True

    def remove(self, antenna: str, uid: str) -> None:
        if self.table.senses(antenna):
            self.table.remove(antenna, uid)

    def restore(self, lying: dict[str, list[str]]) -> None:
        """After a restart: the cards that lay on the board before it lie there again, already known."""
        now = self.clock()
        for antenna, uids in lying.items():
            if antenna not in self.board_antennas:
                continue  # cards slide past the SPI antennas: nothing stays on them
            port = self.board_antennas.index(antenna)
            for uid in uids:
                self.board.place(port, uid)
            self.serial.presence[port].assume(uids, now)

    def on_antenna(self, antenna: str) -> list[str]:
        if antenna in self.board_antennas:
            return list(self.board.tags[self.board_antennas.index(antenna)])
        return []

    def forget_pin_history(self) -> None:
        """gpiozero's mock pins record every change of state (for tests' `assert_states`); the simulated
        table presses buttons and sounds the buzzer all session, so it forgets them after each hand."""
        for pin in self.pin_factory.pins.values():
            pin.clear_states()

    def pin(self, name: str) -> Any:
        if self.panel is None or self.config.panel is None:
            return None
        button = self.config.panel.button(name)
        return None if button is None else self.pin_factory.pin(button.pin)


FOLLOW_WAIT_S = 10.0  # real seconds the dealer waits for the table to take in its last act before a deal
PRACTICE_SKIPS = frozenset({"fold", "check", "call", "bet", "raise", "allin", "round_done"})
PRACTICE_POLL_S = 0.05
PRACTICE_SHOWDOWN_S = 2.0  # real seconds the practice dealer leaves a showdown on the page


def _betting_open(snapshot: Any) -> bool:
    """A betting round the players still have to close: someone is to act (the core closes a round itself once
    everyone has acted; with everyone but one all in it opens none, and the board runs out)."""
    return snapshot.phase == "betting" and snapshot.to_act is not None


def _board_due(snapshot: Any) -> bool:
    """Cards are due on the board: the round is done, or nobody can bet (an all-in run-out) before the river."""
    return snapshot.phase == "board" or (snapshot.phase == "betting" and snapshot.to_act is None
                                         and len(snapshot.board) < 5 and not snapshot.unconfirmed)


class SimulatedDealer:
    """The dealer: acts out the script on the emulated sensors, on its own thread."""

    def __init__(self, sensors: EmulatedSensors, acts: Iterable[Act], *, speed: float | None = None,
                 on_done: Callable[[], None] | None = None,
                 practice: Callable[[], Any] | None = None, practice_deck: Sequence[str] = ()) -> None:
        self.sensors = sensors
        self.practice_deck = tuple(practice_deck)  # the in-play deck's tags: cards for a board the script lacks
        self._shown_down = 0  # the last hand whose showdown practice paused on
        # Practice (`run --simulate --tracker`): the dealer deals but presses no player's action; it
        # waits for the betting round the operator enters on the tracker to close (`practice` gives
        # the table's latest snapshot), and skips the rest of a hand the operator's actions ended.
        self.practice = practice
        # The script, read as it is performed (a `stream` holds one hand at a time); a resume reads it
        # ahead as far as the journal goes.
        self._acts: Iterator[Act] = iter(acts)
        self.speed = speed  # None: as fast as the world can be stepped; 1.0: real time
        self.on_done = on_done
        self.next_act = 0
        self.missed = 0
        self.direct: set[str] = set()
        # Following the table (`follow`, a `stream`'s before_hand): its latest snapshot, and how many deals
        # found the bot's view of the table not the table's (a fault outside practice).
        self._latest: Any = None
        self._seen = threading.Condition()
        self._resuming = False
        self.diverged = 0
        self.made: list[DealerMistake | None] = []  # the error the bot meant in each hand it dealt (None: none)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def clock(self) -> SimClock:
        clock: SimClock = self.sensors.clock
        return clock

    def resume(self, journaled: Iterable[Event]) -> None:
        """Carry on after a restart: `journaled` is read once (a long journal is not held in memory)."""
        stays = self.sensors.board_antennas or BOARD_ANTENNAS
        tracked: dict[str, list[str]] = {}

        def watch(events: Iterable[Event]) -> Iterator[Event]:
            for event in events:
                track_lying(tracked, event, stays)
                yield event

        # align() looks at the whole script: it is read in full here, and only what is left is kept. The bot
        # follows its own view of the table as it did the first time (the table is at the journal's end).
        self._resuming = True
        try:
            acts = list(self._acts)
        finally:
            self._resuming = False
        self.next_act, unmatched = align(acts, watch(journaled), stays=stays)
        lying = {antenna: uids for antenna, uids in tracked.items() if uids}
        if lying and self.sensors.board is not None:
            self.sensors.restore(lying)
        if self.next_act:
            hand = acts[min(self.next_act, len(acts) - 1)].hand
            logger.info("simulated dealer resumes at act %d of %d (hand %d)%s", self.next_act, len(acts),
                        hand, f"; {unmatched} journaled events were not the script's" if unmatched else "")
        self._acts = iter(acts[self.next_act:])

    def table_seen(self, snapshot: Any) -> None:
        """A snapshot listener (the daemon's thread): the table as its core has it now."""
        with self._seen:
            self._latest = snapshot
            self._seen.notify_all()

    def _table_after(self, t: float) -> Any:
        """The table's snapshot once its core has taken in what happened up to `t`; None if it has not after
        FOLLOW_WAIT_S real seconds (or at a stop)."""
        deadline = time.monotonic() + FOLLOW_WAIT_S
        with self._seen:
            while not self._stop.is_set():
                latest = self._latest
                if latest is not None and latest.t >= t:
                    return latest
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._seen.wait(min(left, 0.1))
            return None

    def follow(self, bot: DealerBot) -> bool:
        """Before each deal (a `stream`'s `before_hand`): the bot's view of the table becomes the table's (who
        is seated, their stacks), so it deals the seats the table deals in and tops up the ones it has short,
        between hands. False: the dealer is stopped."""
        if self._resuming or self._stop.is_set():
            return not self._stop.is_set()
        last = self.sensors.tap.last
        table = self._table_after(last.t if isinstance(last, Read | Gone | Button | Stacks | Level | Race) else 0.0)
        if self._stop.is_set():
            return False
        if table is None:  # a table this far behind is not one to follow: the bot deals on from its own view
            self.diverged += 1
            logger.warning("simulated dealer: the table has not taken in the dealer's last act (%r) after %g s",
                           last, FOLLOW_WAIT_S)
            return True
        try:
            differ = bot.follow(table)
        except ValueError as exc:  # its own core refused a correction: say so, and deal on
            differ = [f"the bot's view refused the table's: {exc}"]
        if table.phase in ("dealing", "betting", "board"):
            differ.append(f"the table's hand {table.hand_number} is still in play ({table.phase})")
        if differ and self.practice is None:  # in practice the operator's hands make the stacks
            self.diverged += 1
            logger.warning("simulated dealer: its view of the table was not the table's before hand %d: %s",
                           table.hand_number + 1, "; ".join(differ))
        return True

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="simulated-dealer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._seen:
            self._seen.notify_all()
        if self._thread is not None:
            self._thread.join(5.0)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _run(self) -> None:
        try:
            for act in self._acts:
                if self._stop.is_set():
                    break
                if self.practice is None or self._practice_turn(act):
                    self._perform(act)
                self.next_act += 1
        except Exception:  # a callback boundary: the daemon must see the dealer stop, not hang
            logger.exception("simulated dealer failed at act %d", self.next_act)
        if not self._stop.is_set() and self.on_done is not None:
            self.on_done()

    def _practice_turn(self, act: Act) -> bool:
        """Practice: whether the dealer does this act (a player's action is the operator's; a card
        waits for the betting round to close, and is not dealt once the hand is over)."""
        if act.kind in ("press", "key") and act.button in PRACTICE_SKIPS:
            return False
        if act.kind == "clear" or (act.kind == "press" and act.button in ("hand_end", "new_hand")):
            self._finish_board(act.hand)  # the script's hand ended before the operator's did
            snapshot = self.practice() if self.practice is not None else None
            if snapshot is not None and snapshot.phase == "showdown" and self._shown_down != snapshot.hand_number:
                self._shown_down = snapshot.hand_number
                # The operator sees the result before the next deal (at --speed, that much faster).
                self._stop.wait(PRACTICE_SHOWDOWN_S / (self.speed or 1.0))
            return True
        if act.kind != "read":
            return True
        snapshot = self._caught_up()
        over = snapshot is not None and snapshot.phase in ("showdown", "idle", "misdealt")
        return not (over and act.hand == snapshot.hand_number)

    def _caught_up(self) -> Any:
        """The table's snapshot once it has fed the last event the dealer made and no betting round is open
        (a round with no one to act, everyone but one all in, is closed: the board runs out)."""
        last = self.sensors.tap.last
        caught_up = last.t if isinstance(last, Read | Gone | Button) else 0.0
        snapshot = None
        while not self._stop.is_set():
            snapshot = self.practice() if self.practice is not None else None
            if snapshot is not None and snapshot.t >= caught_up and not _betting_open(snapshot):
                break
            with self._seen:  # woken by the table's next snapshot (table_seen), if it is wired
                if self._latest is snapshot:
                    self._seen.wait(PRACTICE_POLL_S)
        return snapshot

    def _finish_board(self, hand: int) -> None:
        """Deal the streets the operator's hand still needs (burn and board) from cards not seen this hand: after
        a closed round, and each street of an all-in run-out."""
        snapshot = self._caught_up()
        while snapshot is not None and _board_due(snapshot) and not self._stop.is_set():
            seen = self.sensors.tap.hand_reads()
            free = [uid for uid in self.practice_deck if uid not in seen]
            count = 3 if not snapshot.board else 1
            if len(free) < count + 1:
                return
            self._card(Act(t=self.clock(), hand=hand, kind="read", antenna="shoe", uid=free[0]))  # the burn
            for index, uid in enumerate(free[1:count + 1]):
                self._card(Act(t=self.clock(), hand=hand, kind="read", antenna="shoe", uid=uid))
                self._card(Act(t=self.clock(), hand=hand, kind="read",
                               antenna=f"board{len(snapshot.board) + index + 1}", uid=uid))
            snapshot = self._caught_up()

    def _wait_real(self, session_dt: float) -> None:
        if self.speed and session_dt > 0:
            self._stop.wait(session_dt / self.speed)

    def _perform(self, act: Act) -> None:
        now = self.clock()
        self._wait_real(act.t - now)
        self.clock.set_at_least(act.t)
        self.sensors.poll()  # time has passed: the readers look once (departures, forgetting)
        if act.kind == "read":
            self._card(act)
        elif act.kind == "lift":
            self._lift(act)
        elif act.kind == "press":
            self._press(act)
        elif act.kind == "key":
            self._key(act)
        elif act.kind == "chips" and act.chips is not None:
            self.sensors.tap.put(dataclasses.replace(act.chips, t=self.clock()))  # the floor enters them
        else:
            self._clear()

    def _sensed(self, mark: int, key: tuple[str, ...]) -> bool:
        return any(event_key(e) == key for e in self.sensors.tap.since(mark) if isinstance(e, Read | Button))

    def _card(self, act: Act) -> None:
        sensors = self.sensors
        antenna, uid = act.antenna, act.uid
        for old in sensors.on_antenna(antenna):
            if old != uid:
                sensors.remove(antenna, old)  # the dealer lifts the card that lay there
        mark = sensors.tap.mark()
        if not sensors.place(antenna, uid):
            self._direct(antenna, Read(t=self.clock(), antenna=antenna, uid=uid))
            return
        step = BOARD_SCAN_S if antenna in sensors.board_antennas else sensors.config.poll_interval_s
        waited = 0.0
        while True:
            sensors.poll(antenna)
            if self._sensed(mark, act.key() or ()):
                break
            if waited >= MAX_WAIT_S:
                self.missed += 1
                logger.warning("simulated table: %s did not report card %s", antenna, uid)
                break
            waited += step
            self.clock.advance(step)
        if antenna == "shoe" or antenna not in sensors.board_antennas:
            sensors.remove(antenna, uid)  # the card slides past the shoe's antenna

    def _lift(self, act: Act) -> None:
        """The dealer takes a card off a board antenna; its reader reports it gone after the removal delay."""
        sensors = self.sensors
        if act.uid not in sensors.on_antenna(act.antenna):
            return  # not lying there (an antenna no sensor watches): nothing to sense
        mark = sensors.tap.mark()
        sensors.remove(act.antenna, act.uid)
        waited = 0.0
        while not any(isinstance(e, Gone) and e.antenna == act.antenna and e.uid == act.uid
                      for e in sensors.tap.since(mark)):
            if waited >= MAX_WAIT_S:
                self.missed += 1
                logger.warning("simulated table: %s did not report card %s gone", act.antenna, act.uid)
                break
            waited += BOARD_SCAN_S
            self.clock.advance(BOARD_SCAN_S)
            sensors.poll(act.antenna)

    def _press(self, act: Act) -> None:
        sensors = self.sensors
        pin = sensors.pin(act.button)
        if pin is None:
            self._direct(f"button {act.button}", Button(t=self.clock(), name=ButtonName(act.button)))
            return
        mark = sensors.tap.mark()
        pin.drive_low()  # pressed: the button connects its GPIO to ground
        waited = 0.0
        while True:
            sensors.panel.service()
            if self._sensed(mark, act.key() or ()):
                break
            if waited >= MAX_WAIT_S:
                self.missed += 1
                logger.warning("simulated table: the panel did not report %s", act.button)
                break
            waited += PANEL_SERVICE_S
            self.clock.advance(PANEL_SERVICE_S)
        pin.drive_high()
        self.clock.advance((sensors.config.panel.debounce_s if sensors.config.panel else 0.0) + PANEL_SERVICE_S)
        sensors.panel.service()  # the release settles

    def _key(self, act: Act) -> None:
        """Key the amount on the emulated USB keypad, then the action key: the real decoder posts it."""
        from evdev import InputEvent, ecodes  # noqa: PLC0415

        keypad = self.sensors.keypad
        if keypad is None:
            self._direct("the keypad", Button(t=self.clock(), name=ButtonName(act.button), amount=act.amount))
            return
        action = next(code for code, name in keypad.decoder.config.keys.items() if name == act.button
                      or (act.button == "bet" and name == "raise"))
        codes = [getattr(ecodes, f"KEY_KP{digit}") for digit in str(act.amount)] + [action]
        for code in codes:
            for value in (1, 0):  # down, up
                now = self.clock()
                keypad.handle(InputEvent(int(now), int(now % 1 * 1e6), ecodes.EV_KEY, code, value))
                self.clock.advance(0.05)

    def _clear(self) -> None:
        """The dealer gathers the board: every tag leaves its antenna, and the board reports them gone."""
        sensors = self.sensors
        for antenna in sensors.board_antennas:
            for uid in sensors.on_antenna(antenna):
                sensors.remove(antenna, uid)
        wait = max((sensors.config.timing_for(a).removal_delay_s for a in sensors.board_antennas), default=0.0)
        end = self.clock() + wait + 2 * BOARD_SCAN_S
        while self.clock() < end:
            self.clock.advance(BOARD_SCAN_S * 5)
            sensors.poll()
        sensors.forget_pin_history()

    def _direct(self, what: str, event: Event) -> None:
        if what not in self.direct:
            self.direct.add(what)
            logger.warning("simulated table: no emulated sensor for %s in the hardware config; "
                           "its events are posted directly", what)
        self.sensors.tap.put(event)


__all__ = ["Act", "EmulatedSensors", "SimClock", "SimulatedDealer", "align", "expected_keys", "lying_cards", "script",
           "stream"]
