"""Putting a simulated table together: emulated readers, board and panel driven by the seeded dealer bot,
attached to the daemon through its port (`firmware_py.ports.TablePort`), and the simulation's own journal."""

from __future__ import annotations

import dataclasses
import logging
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from firmware_py.core.cards import FULL_DECK
from firmware_py.core.game import GAMES
from firmware_py.daemon.app import Stop
from firmware_py.daemon.journal import Journal
from firmware_py.errors import ConfigError
from firmware_py.ports import CallbackComponent, PortSink, TablePort
from firmware_py.simulation.simulated_table import EmulatedSensors, SimClock, SimulatedDealer, stream

if TYPE_CHECKING:
    from firmware_py.core import Event, TableSnapshot
    from firmware_py.daemon.table_config import TableConfig
    from firmware_py.simulation.dealer import DealerBot

__all__ = ["DEAL_GATE", "SIM_JOURNAL", "SIM_STACK", "DealGate", "SimulationPlan", "add_simulated_table",
           "open_simulation_journal"]

logger = logging.getLogger("firmware_py.daemon")

SIM_JOURNAL = "simulated-table.sqlite3"
SIM_STACK = 10_000  # the simulated players' chips when the table config sets no starting stack


@dataclass(frozen=True, kw_only=True, slots=True)
class SimulationPlan:
    seed: int
    hands: int
    error_rate: float

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "hands": self.hands, "error_rate": self.error_rate}


def add_simulated_table(port: TablePort, config: TableConfig, plan: SimulationPlan, *, clock: SimClock,
                        speed: float | None, practice: bool = False) -> SimulatedDealer:
    """Emulated readers, board and panel driven by the seeded dealer bot, attached through the table's port
    (`clock`: the session clock the port reads, which the simulated world moves); returns the dealer.

    `practice`: the bot deals and waits for the players' actions from the action tracker."""
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
    sensors = EmulatedSensors(config.hardware, queue=PortSink(port), clock=clock, origins=port.press_notes)
    other = next((d for d in config.game.decks if d.name != config.game.in_play), None)
    game = config.game
    tournament = config.in_tournament
    cell: list[SimulatedDealer | None] = [None]  # the dealer, once made
    acts = stream(profile=config.profiles[game.profile], seats=game.seats, button=game.button,
                  deck=in_play, other_deck=other, seed=plan.seed, hands=plan.hands,
                  error_rate=plan.error_rate, stack=config.starting_stack or SIM_STACK,
                  schedule=None if tournament else config.schedule, game=GAMES[game.game],
                  rebuy=not tournament, denominations=game.denominations,  # the bot's table: the table's chips
                  made=lambda error: _dealer(cell).made.append(error),  # noqa: PLW0108 (the dealer is made below)
                  # Before each deal the bot takes the table's seats and stacks (a tournament's: the director's).
                  before_hand=(lambda bot: _tournament_deal(port, bot, lambda: cell[0] is not None
                                                            and cell[0].stopped)) if tournament
                  else (lambda bot: _dealer(cell).follow(bot)))
    latest: list[TableSnapshot | None] = [None]
    if practice:
        port.on_snapshot(lambda snapshot: latest.__setitem__(0, snapshot))
    dealer = SimulatedDealer(sensors, acts, speed=speed,
                             on_done=lambda: port.post(Stop("the simulated session is over")),
                             practice=(lambda: latest[0]) if practice else None,
                             practice_deck=tuple(in_play.cards) if practice else ())
    cell[0] = dealer
    port.on_snapshot(dealer.table_seen)
    port.add_reader(CallbackComponent("readers", sensors.start_readers, sensors.stop_readers))
    port.add_panel(CallbackComponent("panel", sensors.start_panel, sensors.stop_panel))
    if sensors.config.panel is not None:
        port.on_ruling(lambda _ruling: sensors.panel.signal_ruling() if sensors.panel else None)

    def start_dealer() -> None:
        resumed_t = port.resumed_t
        if resumed_t is not None:  # a resumed session: the simulated world goes on from its last event
            clock.set_at_least(resumed_t)
            dealer.resume(port.journaled())
        dealer.start()

    port.add_component(CallbackComponent("simulated dealer", start_dealer, dealer.stop))
    return dealer


def _dealer(cell: list[SimulatedDealer | None]) -> SimulatedDealer:
    dealer = cell[0]
    if dealer is None:  # the acts are asked for only once the dealer runs
        raise RuntimeError("the simulated dealer is not made yet")
    return dealer


class DealGate(Protocol):
    """What a simulated dealer waits at before each deal in a tournament (the room's tournament table side,
    offered through the port as "deal gate": `firmware_py.room.tournament_table.TournamentTable`)."""

    @property
    def follower(self) -> Any: ...  # its view of the table: `.last`, the last snapshot it saw

    def wait_to_deal(self, hands: int, *, stopped: Callable[[], bool]) -> str: ...

    def take_posted(self) -> list[Event]: ...


DEAL_GATE = "deal gate"


def _tournament_deal(port: TablePort, bot: DealerBot, stopped: Callable[[], bool]) -> bool:
    """A simulated table in a tournament: before each deal the dealer waits as a dealer at a real table does
    (for the director to take in the last hand, for the table to be made as the director says, and through a
    hold), then takes the table side's events into its own view of the table. False: no more deals here."""
    gates = port.offered(DEAL_GATE)
    if not gates:
        return True
    table = cast("DealGate", gates[0])
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
