"""Putting a daemon together: the real readers and panel, or the simulated table on emulated hardware."""

from __future__ import annotations

import dataclasses
import logging
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_py.core.cards import FULL_DECK
from firmware_py.core.game import GAMES
from firmware_py.daemon.app import CallbackComponent, Daemon, Stop, iter_journal_events
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.origins import KEYPAD, PANEL, TRACKER
from firmware_py.daemon.table_config import TableConfig
from firmware_py.errors import ConfigError, HardwareError

if TYPE_CHECKING:
    from firmware_py.daemon.tracker import ActionTracker, TrackerConfig
    from firmware_py.web import Pairing
    from hardware.keypad import KeypadConfig

logger = logging.getLogger("firmware_py.daemon")

SIM_JOURNAL = "simulated-table.sqlite3"
SIM_STACK = 10_000  # the simulated players' chips when the table config sets no starting stack


def add_real_hardware(daemon: Daemon, config: TableConfig) -> None:
    """The configured SPI readers and serial board on their threads, the panel on the Pi's GPIO (the optional
    parts, a keypad among them, attach as extensions: `firmware_py.extensions.attach_extensions`)."""
    from hardware.rig import Sensors, start_sensors  # noqa: PLC0415

    running: dict[str, Any] = {}

    def start_readers() -> None:
        running["sensors"] = start_sensors(config.hardware, queue=daemon.queue, clock=daemon.clock)

    def stop_readers() -> None:
        sensors: Sensors | None = running.pop("sensors", None)
        if sensors is not None:
            sensors.stop()

    daemon.readers.append(CallbackComponent("readers", start_readers, stop_readers))
    if config.hardware.panel is None:
        return

    shown: list[tuple[int, int] | None] = [None]  # the table as last published: what a press is made against
    daemon.on_snapshot.append(lambda snapshot: shown.__setitem__(0, (snapshot.hand_number, snapshot.actions)))

    def start_panel() -> None:
        from gpiozero import Device  # noqa: PLC0415

        from hardware.panel import DealerPanel  # noqa: PLC0415

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # gpiozero warns of each factory it falls back from
                Device.ensure_pin_factory()  # lgpio on Raspberry Pi OS; passed on explicitly from here
        except Exception as exc:  # gpiozero's BadPinFactory: no GPIO library or no Pi here
            raise HardwareError(f"no GPIO to drive the dealer panel ({exc}): on a Raspberry Pi install lgpio "
                                "(python3-lgpio); without one, run --simulate") from None
        panel = DealerPanel(config.hardware.panel, pin_factory=Device.pin_factory, queue=daemon.presses(PANEL),
                            clock=daemon.clock, made_against=lambda: shown[0])
        panel.start()
        running["panel"] = panel
        daemon.on_ruling.append(lambda _ruling: panel.signal_ruling())

    def stop_panel() -> None:
        panel = running.pop("panel", None)
        if panel is not None:
            panel.close()

    daemon.panel = CallbackComponent("panel", start_panel, stop_panel)


def add_keypad(daemon: Daemon, keypad: KeypadConfig, *, device: Any = None) -> None:
    """The USB numeric keypad's reader thread, posting actions with amounts to the daemon's queue."""
    from hardware.keypad import KeypadReader, open_keypad  # noqa: PLC0415

    running: dict[str, Any] = {}

    def start() -> None:
        def show(text: str) -> None:  # the display starts after the readers: looked up when keyed
            if daemon.display is not None:
                daemon.display.post_keyed(text)

        reader = KeypadReader(keypad, device=device if device is not None else open_keypad(keypad),
                              queue=daemon.presses(KEYPAD), clock=daemon.clock, on_entry=show)
        reader.start()
        running["reader"] = reader

    def stop() -> None:
        reader = running.pop("reader", None)
        if reader is not None:
            reader.stop()

    daemon.readers.append(CallbackComponent("keypad", start, stop))


def add_tracker(daemon: Daemon, tracker_config: TrackerConfig, *, pairing: Pairing | None = None) -> ActionTracker:
    """The action-tracker page (only when `[tracker]` is configured), started after the core."""
    from firmware_py.daemon.tracker import ActionTracker  # noqa: PLC0415
    from firmware_py.hand_replay import HoleCards  # noqa: PLC0415
    from firmware_py.web.replay_page import JournalReplays  # noqa: PLC0415

    replays = JournalReplays(daemon.journal.path, profiles=daemon.config.profiles,
                             base_dir=daemon.config.hardware_file.parent,
                             hole_cards=HoleCards(tracker_config.replay_hole_cards),
                             # the table as the hand histories name it: its room id, else its file's name
                             table=daemon.config.room.table if daemon.config.room is not None
                             else Path(daemon.config.source).stem)
    tracker = ActionTracker(tracker_config, post=daemon.presses(TRACKER).put, clock=daemon.clock, pairing=pairing,
                            replays=replays)
    # The players' names as the venue screen and the hand histories have them ([display.seat_names]), not
    # "Seat N" on the operator's page beside "Ada" on the screen.
    tracker.names.update(getattr(daemon.config, "seat_names", {}) or {})
    daemon.on_snapshot.append(tracker.update)

    def show(code: str) -> None:  # the venue screen shows the code a device pairs with
        if daemon.display is not None:
            daemon.display.post_pairing(code)

    def start() -> None:
        tracker.start()
        tracker.pairing.listeners.append(show)
        show(tracker.pairing.code)
        replays.start()  # the journal so far read for the replay page, on its own thread

    def stop() -> None:
        tracker.stop()
        replays.close()

    daemon.extras.insert(0, CallbackComponent("action tracker", start, stop))
    return tracker


@dataclass(frozen=True, kw_only=True, slots=True)
class SimulationPlan:
    seed: int
    hands: int
    error_rate: float

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "hands": self.hands, "error_rate": self.error_rate}


def add_simulated_table(daemon: Daemon, config: TableConfig, plan: SimulationPlan, *,
                        speed: float | None, practice: bool = False) -> Any:
    """Emulated readers, board and panel driven by the seeded dealer bot; returns the dealer.

    `practice`: the bot deals and waits for the players' actions from the action tracker."""
    from firmware_py.simulation.simulated_table import EmulatedSensors, SimulatedDealer, stream  # noqa: PLC0415

    in_play = config.deck(config.game.in_play)
    missing = [card for card in FULL_DECK if card not in set(in_play.cards.values())]
    if missing:
        game = config.game
        where = next((f for f, d in zip(game.deck_files, game.decks, strict=True) if d is in_play), config.source)
        raise ConfigError(f"{where}: deck {in_play.name!r} lacks {len(missing)} card"
                          f"{'s' if len(missing) > 1 else ''} ({', '.join(missing[:8])}"
                          f"{', ...' if len(missing) > 8 else ''}): the simulated dealer deals from a full deck. "
                          f"Enroll the missing cards (`python -m firmware_py enroll --deck {in_play.name} "
                          f"--back {in_play.back} --out {where}` resumes it), or set [table] in_play in "
                          f"{config.source} to a complete deck")
    sensors = EmulatedSensors(config.hardware, queue=daemon.queue, clock=daemon.clock, origins=daemon.origins)
    other = next((d for d in config.game.decks if d.name != config.game.in_play), None)
    game = config.game
    tournament = config.in_tournament
    cell: list[Any] = [None]  # the dealer, once made
    acts = stream(profile=config.profiles[game.profile], seats=game.seats, button=game.button,
                  deck=in_play, other_deck=other, seed=plan.seed, hands=plan.hands,
                  error_rate=plan.error_rate, stack=config.starting_stack or SIM_STACK,
                  schedule=None if tournament else config.schedule, game=GAMES[game.game],
                  rebuy=not tournament, denominations=game.denominations,  # the bot's table: the table's chips
                  made=lambda error: cell[0].made.append(error),  # noqa: PLW0108 (made below)
                  # Before each deal the bot takes the table's seats and stacks (a tournament's: the director's).
                  before_hand=(lambda bot: _tournament_deal(daemon, bot, lambda: cell[0] is not None
                                                            and cell[0].stopped)) if tournament
                  else (lambda bot: cell[0].follow(bot)))  # noqa: PLW0108 (the dealer is made below)
    latest: list[Any] = [None]
    if practice:
        daemon.on_snapshot.append(lambda snapshot: latest.__setitem__(0, snapshot))
    dealer = SimulatedDealer(sensors, acts, speed=speed,
                             on_done=lambda: daemon.queue.put(Stop("the simulated session is over")),
                             practice=(lambda: latest[0]) if practice else None,
                             practice_deck=tuple(in_play.cards) if practice else ())
    cell[0] = dealer
    daemon.on_snapshot.append(dealer.table_seen)
    daemon.readers.append(CallbackComponent("readers", sensors.start_readers, sensors.stop_readers))
    daemon.panel = CallbackComponent("panel", sensors.start_panel, sensors.stop_panel)
    if sensors.config.panel is not None:
        daemon.on_ruling.append(lambda _ruling: sensors.panel.signal_ruling() if sensors.panel else None)

    def start_dealer() -> None:
        if daemon.resumed_t is not None:
            daemon.clock.set_at_least(daemon.resumed_t)  # type: ignore[attr-defined]
        if daemon.resumed:
            dealer.resume(iter_journal_events(daemon.journal, base_dir=config.hardware_file.parent))
        dealer.start()

    daemon.extras.append(CallbackComponent("simulated dealer", start_dealer, dealer.stop))
    return dealer


def _tournament_deal(daemon: Daemon, bot: Any, stopped: Any) -> bool:
    """A simulated table in a tournament: before each deal the dealer waits as a dealer at a real table does
    (for the director to take in the last hand, for the table to be made as the director says, and through a
    hold), then takes the table side's events into its own view of the table. False: no more deals here."""
    table = daemon.tournament
    if table is None:
        return True
    core = bot._core
    why = table.wait_to_deal(core.hand_number if core is not None else 0, stopped=stopped)
    if why:
        logger.info("simulated dealer: no more deals: %s", why)
        return False
    if core is None:
        return True
    for event in table.take_posted():
        try:
            core.feed(dataclasses.replace(event, t=max(event.t, core.t)))
        except ValueError as exc:
            logger.warning("simulated dealer: its view of the table refused %s: %s", event, exc)
    last = table.follower.last
    if last is not None:  # the table as the daemon's core has it: the bot's view must agree
        mine = {v.seat: v.stack for v in core.snapshot().seats if v.state != "empty"}
        theirs = {v.seat: v.stack for v in last.seats if v.state != "empty"}
        if mine != theirs:
            logger.warning("simulated dealer: its view of the table %s is not the table's %s", mine, theirs)
    bot.seats = tuple(v.seat for v in core.snapshot().seats if v.state != "empty")
    level = core.level
    if level is not None:  # the bot deals at the director's level, which the table side set
        bot.level, bot.bb_ante = (level.small, level.big, level.ante), level.bb_ante
    return True


def open_simulation_journal(path: Path, plan: SimulationPlan, *, fresh: bool,
                            table: str = "") -> tuple[Journal, SimulationPlan]:
    """The simulation's own journal; a finished (or --fresh) one is moved aside and a new one begun.

    After a crash the stored plan wins over the command line, so the same script resumes.
    """
    if path.exists():
        journal = Journal.open(path, table=table)
        stored = journal.meta("simulation")
        done = bool(journal.meta("simulation_done"))
        if stored is not None and not fresh and not done:
            kept = SimulationPlan(seed=int(stored["seed"]), hands=int(stored["hands"]),
                                  error_rate=float(stored["error_rate"]))
            if kept != plan:
                logger.info("resuming the unfinished simulated session (seed %d, %d hands); --fresh starts anew",
                            kept.seed, kept.hands)
            return journal, kept
        journal.close()
        previous = path.with_name(path.stem + ".previous" + path.suffix)
        for suffix in ("", "-wal", "-shm", "-ack"):
            source = Path(str(path) + suffix)
            if source.exists():
                shutil.move(source, Path(str(previous) + suffix))
    journal = Journal.open(path, table=table)
    journal.set_meta("simulation", plan.to_json())
    return journal, plan
