"""`run`: the table's daemon (readers, panel, rules core, screen, journal), or `run --simulate`."""

from __future__ import annotations

import argparse
import ipaddress
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_py.commands import NO_SCREEN, has_screen, number
from firmware_py.errors import ConfigError

if TYPE_CHECKING:
    from firmware_py.daemon.app import Daemon
    from firmware_py.daemon.tracker_config import TrackerConfig
    from firmware_py.simulation.simulated_table import SimClock
    from firmware_py.simulation.wiring import SimulationPlan

HELP = "run the table: read the sensors, rule on the deal, drive the screen (--simulate: no hardware needed)"


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0 and 1")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE.toml", default=None,
                        help="the table file (default: config/table.toml)")
    parser.add_argument("--journal", metavar="FILE", help="the journal, locked while the table runs (default: "
                        "from the config, or $STATE_DIRECTORY; --simulate: state/simulated-table.sqlite3; a room "
                        "table's in state/<table id>/)")
    parser.add_argument("--game", metavar="GAME", default=None,
                        help="the game dealt, as the table file's [table] game chooses it (holdem, omaha, omaha5, "
                        "limit_holdem...; default: the table file's)")
    parser.add_argument("--simulate", action="store_true",
                        help="a simulated table: emulated readers, board and panel, a dealer bot")
    parser.add_argument("--headless", action="store_true", help="no screen; print the rulings (and stop "
                        "when the simulated session is over)")
    parser.add_argument("--hands", type=int, default=20, help="hands the simulated dealer deals (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="the simulated dealer's seed (default 1)")
    parser.add_argument("--error-rate", type=_rate, default=None,
                        help="share of simulated hands with a dealer error (default 0.25; 0 with --tracker)")
    parser.add_argument("--speed", type=number(positive=True), default=None,
                        help="simulated time per real second (default: 1 with a window, as fast as "
                        "possible headless)")
    parser.add_argument("--fresh", action="store_true", help="--simulate: start a new simulated session "
                        "even if the last one did not finish")
    parser.add_argument("--tracker", nargs="?", const="127.0.0.1:8080", metavar="ADDRESS:PORT", default=None,
                        help="--simulate: practise on the action tracker (default 127.0.0.1:8080): the dealer "
                        "bot deals and waits for the players' actions entered on the page")
    parser.add_argument("--windowed", action="store_true",
                        help="a window instead of the full screen, as --simulate always opens (Esc, q or its "
                        "close button stop the table; the full screen ignores keys)")
    parser.add_argument("--acks", metavar="FILE", help=argparse.SUPPRESS)  # one line per journaled event (tests)
    parser.add_argument("--verbose", action="store_true", help="debug logging")


def _tracker_address(text: str) -> TrackerConfig | None:
    """`ADDRESS:PORT` for the practice tracker (a TrackerConfig), or None when it is not one."""
    from firmware_py.daemon.tracker_config import TrackerConfig  # noqa: PLC0415

    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    try:
        number = int(port)
        ipaddress.ip_address(host)
    except ValueError:
        return None
    return TrackerConfig(listen=host, port=number) if 0 <= number <= 65535 else None  # 0: a free port


def run(args: argparse.Namespace) -> int:
    import dataclasses  # noqa: PLC0415

    from firmware_py.daemon.app import Daemon, SessionClock, open_acks  # noqa: PLC0415
    from firmware_py.daemon.journal import Journal  # noqa: PLC0415
    from firmware_py.daemon.logs import setup_logging  # noqa: PLC0415
    from firmware_py.daemon.port import DaemonPort  # noqa: PLC0415
    from firmware_py.daemon.sdnotify import Notifier  # noqa: PLC0415
    from firmware_py.daemon.table_config import DEFAULT_PATH, load_table_config, with_game  # noqa: PLC0415
    from firmware_py.daemon.wiring import add_real_hardware  # noqa: PLC0415
    from firmware_py.errors import JournalError  # noqa: PLC0415
    from firmware_py.extensions import attach_extensions  # noqa: PLC0415

    setup_logging(verbose=args.verbose)
    if args.hands < 1:
        print("run: --hands must be at least 1", file=sys.stderr)
        return 2
    headless = args.headless
    config = load_table_config(args.config or DEFAULT_PATH, with_display=not headless)
    if args.game is not None:
        try:
            config = with_game(config, args.game)
        except ConfigError as exc:
            print(f"run: {exc}", file=sys.stderr)
            return 2
    if not headless and not config.screen.enabled:
        headless = True
    if not headless and args.simulate and not has_screen():
        print(f"run: {NO_SCREEN}: running headless", file=sys.stderr)
        headless = True
    if args.windowed and not headless:
        config = dataclasses.replace(config, screen=dataclasses.replace(config.screen, fullscreen=False))

    practice = None
    if args.tracker is not None:
        if not args.simulate:
            print("run: --tracker is for practice with --simulate; a real table configures [tracker] in its "
                  "table file", file=sys.stderr)
            return 2
        practice = _tracker_address(args.tracker)
        if practice is None:
            print(f"run: --tracker {args.tracker!r}: give ADDRESS:PORT, e.g. 127.0.0.1:8080", file=sys.stderr)
            return 2
        # the practice tracker, as if the table file had [tracker]
        config = dataclasses.replace(config, extensions={**config.extensions, "tracker": practice})
    error_rate = args.error_rate if args.error_rate is not None else (0.0 if practice else 0.25)
    plan = _simulation_plan(seed=args.seed, hands=args.hands, error_rate=error_rate) if args.simulate else None
    table_id = config.room.table if config.room is not None else ""  # the journal's writer, named by its lock
    try:
        if plan is not None:
            from firmware_py.simulation.wiring import SIM_JOURNAL, open_simulation_journal  # noqa: PLC0415

            path = Path(args.journal) if args.journal else config.journal_path.with_name(SIM_JOURNAL)
            journal, plan = open_simulation_journal(path, plan, fresh=args.fresh, table=table_id)
            if not headless:
                config = dataclasses.replace(config, screen=dataclasses.replace(config.screen, fullscreen=False))
        else:
            journal = Journal.open(Path(args.journal) if args.journal else config.journal_path, table=table_id)
    except JournalError as exc:
        print(f"run: {exc}", file=sys.stderr)
        return 3

    clock = _sim_clock() if plan is not None else SessionClock()
    daemon = Daemon(config, journal=journal, clock=clock, notifier=Notifier(), acks=open_acks(args.acks))
    port = DaemonPort(daemon, simulated=plan is not None)
    dealer = None
    if plan is not None:
        speed = args.speed if args.speed is not None else (None if headless else 1.0)
        try:
            dealer = _add_simulated_table(port, config, plan, clock=clock, speed=speed, practice=practice is not None)
        except ConfigError as exc:
            journal.close()
            print(f"run: {exc}", file=sys.stderr)
            return 2
    else:
        add_real_hardware(port, config)
    try:
        attached = attach_extensions(port)
    except JournalError as exc:
        journal.close()
        print(f"run: {exc}", file=sys.stderr)
        return 3
    if practice is not None and "tracker" in attached:
        from firmware_py.daemon.tracker import ActionTracker, tell_on_console  # noqa: PLC0415

        tracker = attached["tracker"]
        if isinstance(tracker, ActionTracker):  # no venue screen headless: the console tells where and the code
            tell_on_console(tracker)
    status = connect_room(attached.get("room"))
    if status:
        journal.close()
        return status
    if not headless:
        from firmware_py.daemon.screen import DisplayComponent  # noqa: PLC0415

        display = DisplayComponent(config.screen, faults=daemon.faults, clock=daemon.clock,
                                   on_closed=lambda: daemon.stop("the window was closed"))
        daemon.display = display
        daemon.on_snapshot.append(display.post)

    def on_signal(number: int, _frame: object) -> None:
        daemon.stop(f"signal {signal.Signals(number).name}")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    started = time.monotonic()
    try:
        status = daemon.run()
    finally:
        if plan is not None and daemon.stop_reason == "the simulated session is over":
            try:
                journal.set_meta("simulation_done", True)
            except JournalError as exc:
                print(f"run: {exc}", file=sys.stderr)
        journal.close()
    if plan is not None and dealer is not None:
        _simulation_summary(daemon, plan, elapsed=time.monotonic() - started)
    return status


def _simulation_plan(*, seed: int, hands: int, error_rate: float) -> SimulationPlan:
    from firmware_py.simulation.wiring import SimulationPlan  # noqa: PLC0415

    return SimulationPlan(seed=seed, hands=hands, error_rate=error_rate)


def _sim_clock() -> SimClock:
    from firmware_py.simulation.simulated_table import SimClock  # noqa: PLC0415

    return SimClock()


def _add_simulated_table(*args: Any, **kwargs: Any) -> Any:
    from firmware_py.simulation import wiring  # noqa: PLC0415 (looked up when called: a test wraps it)

    return wiring.add_simulated_table(*args, **kwargs)


def _simulation_summary(daemon: Daemon, plan: SimulationPlan, *, elapsed: float) -> None:
    """What happened in the simulated session, a restart's replayed part included: the deals the core saw, less
    those a misdeal or a void ruling ended (never played), and every ruling made."""
    deals = daemon.core.snapshot().hand_number
    hands = deals - daemon.void_deals
    void = f" and {daemon.void_deals} misdealt or void" if daemon.void_deals else ""
    # The pace at the table, in its own (simulated) time as a floor counts it: hands per hour. Per second of
    # the wall clock it read 0.0 at real speed and said nothing of the table headless.
    played_s = daemon.clock()
    rate = f" ({hands * 3600 / played_s:.0f} hands per hour of play)" if played_s > 0 else ""
    print(f"simulated table: {hands} hands played{void} (seed {plan.seed}), {daemon.events_fed} events, "
          f"{daemon.rulings} rulings in {elapsed:.1f} s{rate}; journal {daemon.journal.path}", flush=True)


TABLE_CONNECT_S = 3.0  # at most this much later a table starts when its broker does not answer


def connect_room(publisher: Any) -> int:
    """The table's first connection to the room's broker, before it starts: 0, or the exit status after
    saying why. A certificate (name or CA), a user or a password the broker refuses stops the table at
    once (REFUSED), as any other mistake in its file does. A broker that does not answer does not: the
    table deals on, its journal keeps every event, and the publisher sends them when the broker is back."""
    from firmware_py.commands import REFUSED  # noqa: PLC0415
    from firmware_py.errors import BrokerRefused, BrokerUnreachable, ConfigError  # noqa: PLC0415

    if publisher is None:
        return 0
    try:
        publisher.connect_first(TABLE_CONNECT_S)
    except (BrokerRefused, ConfigError) as exc:
        print(f"run: [room] cannot connect: {exc}", file=sys.stderr)
        return REFUSED
    except BrokerUnreachable as exc:
        print(f"run: [room] {exc}; the table deals on and its journal keeps the events until the broker is back",
              file=sys.stderr)
    return 0
