"""`tournament --room ROOM`: the director's station. Holds the structure, the field and its seat draw, the
tables in play and the clock; takes in the tables' reports (stacks after each hand, all ins called) and
decides eliminations and places, moves, breaks and redraws by the profile's book, each citing its rule;
publishes its state (retained) for the tables, the floor and the broadcast; serves the director's page.

`tournament --simulate` also deals the tables: N simulated tables (the dealer bot into the rules core),
through the same broker (with no `--broker`, a Mosquitto of its own on loopback), from the first hand to the
winner.

The director is journaled (`--journal`, default state/director-<room>.sqlite3): started again, it resumes
the tournament where it was; `--fresh` moves a journal aside and starts a new one.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from firmware_py.commands.room_command import RoomCommand, add_room_arguments

HELP = "run a tournament across the room from the director's station: structure, draw, clock, balancing, places"
ROOT = Path(__file__).resolve().parents[2]
DEFAULT_STRUCTURE = ROOT / "config" / "tournament" / "wfp-nightly.toml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_room_arguments(parser, user="director", client_id_help="the broker session (default director.<room>.<host>)",
                       room_help="the room id (the second level of the topics); with --simulate, main when not given",
                       room_required=False)
    parser.add_argument("--profile", default="wfp", help="the house rules whose tournament book decides moves, "
                        "breaks and places: wfp, wfp-dealer, upt or rpl (default wfp)")
    parser.add_argument("--structure", default=str(DEFAULT_STRUCTURE), metavar="FILE.toml",
                        help="levels, breaks and color-ups (default config/tournament/wfp-nightly.toml)")
    parser.add_argument("--tables", default="5", metavar="N|t01,t02,...",
                        help="the tables: a count (t01..tNN) or their ids in order; the last breaks first")
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help="the field: N entrants named Player 1..N (default: every seat of every table)")
    parser.add_argument("--entrants", metavar="FILE", help="the field registered before the event, one a line: the "
                        "name, then optionally a tab and the player card's id (instead of --players)")
    parser.add_argument("--seats", type=int, default=9, help="seats a table (2..10, default 9)")
    parser.add_argument("--seed", type=int, default=0, help="the seat draw's seed (the same seed, the same draw)")
    parser.add_argument("--payouts", default="50,30,20", metavar="P1,P2,...",
                        help="the payout table in percent of the prize pool, first place first")
    parser.add_argument("--buy-in", type=int, default=0, help="each entrant's share of the prize pool")
    parser.add_argument("--money", metavar="FILE.toml", help="the event's money: buy-in and fee, rake, guarantee, "
                        "rounding unit and payout table by entries (config/tournament/money/nightly.toml; "
                        "instead of --buy-in and --payouts)")
    parser.add_argument("--listen", default="127.0.0.1:8095", metavar="HOST:PORT",
                        help="the director's page (port 0: any free port; default 127.0.0.1:8095)")
    parser.add_argument("--page-name", action="append", metavar="NAME",
                        help="a name the page is also reached at (e.g. director.local; repeat for more): "
                        "its addresses are accepted anyway, any other name is refused (DNS rebinding)")
    parser.add_argument("--no-page", action="store_true", help="no web page (a simulation in CI)")
    parser.add_argument("--simulate", action="store_true",
                        help="deal the tables too: simulated tables through the broker, to one winner")
    parser.add_argument("--max-hands", type=int, default=20000, help="with --simulate: stop after this many hands")
    parser.add_argument("--speed", type=float, default=0.0, metavar="X",
                        help="with --simulate: the tables play X times real time (e.g. 60: a two-minute hand in two "
                        "seconds), so the page can be watched; default 0: as fast as they can")
    parser.add_argument("--journal", metavar="FILE", help="the director's journal: every report and decision, so a "
                        "restarted director resumes where it was (default $STATE_DIRECTORY or ./state, "
                        "director-<room>.sqlite3; with --simulate none unless given)")
    parser.add_argument("--fresh", action="store_true",
                        help="start a new tournament: an existing journal is moved aside (FILE.<time>.sqlite3)")
    parser.set_defaults(broker=None)  # --simulate without --broker: a Mosquitto of its own on loopback


def _tables(text: str) -> list[str]:
    from firmware_py.room.room_config import check_id  # noqa: PLC0415

    if text.isdigit():
        count = int(text)
        if not 1 <= count <= 99:
            raise ValueError(f"--tables {text}: 1 to 99 tables")
        return [f"t{i:02d}" for i in range(1, count + 1)]
    return [check_id(t.strip(), "--tables") for t in text.split(",") if t.strip()]


def begin_from(args: argparse.Namespace, room: str, *, sim_clock: bool = False) -> dict[str, Any]:
    """The journal's `begin` event for these options (ValueError naming the option)."""
    from firmware_py.room.director import begin_event  # noqa: PLC0415
    from firmware_py.tournament import book_for, parse_structure  # noqa: PLC0415

    book_for(args.profile)
    path = Path(args.structure)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"--structure {path}: cannot read it ({exc.strerror}); the shipped ones are in "
                         f"{DEFAULT_STRUCTURE.parent}") from None
    parse_structure(text, str(path))
    tables = _tables(args.tables)
    if args.entrants:
        try:
            names = [line.strip() for line in Path(args.entrants).read_text(encoding="utf-8").splitlines()
                     if line.strip()]
        except OSError as exc:
            raise ValueError(f"--entrants {args.entrants}: cannot read it ({exc.strerror})") from None
    else:
        count = args.players if args.players is not None else args.seats * len(tables)
        names = [f"Player {i}" for i in range(1, count + 1)]
    entrants = [(f"p{i:04d}", *(part.strip()[:200] for part in name.split("\t", 1)))
                for i, name in enumerate(names, start=1)]
    try:
        percents = [float(p) for p in args.payouts.split(",") if p.strip()]
    except ValueError:
        raise ValueError(f"--payouts {args.payouts!r}: percentages separated by commas, e.g. 50,30,20") from None
    if args.buy_in < 0:
        raise ValueError(f"--buy-in {args.buy_in}: an amount of 0 or more")
    begin = begin_event(room=room, profile=args.profile, structure_text=text, structure_source=str(path),
                        tables=tables, seats=args.seats, entrants=entrants, seed=args.seed, percents=percents,
                        buy_in=args.buy_in, sim_clock=sim_clock)
    if getattr(args, "money", None):
        begin.update(money_files(args.money))
        begin["buy_in"], begin["percents"] = 0, []
    return begin


PAYOUTS = ROOT / "config/tournament/payouts"


def money_files(path_text: str) -> dict[str, Any]:
    """The money file and the payout table it names, read and checked (ValueError naming the file and key): the
    texts the journal's `begin` keeps."""
    from firmware_py.tournament.money import parse_money, parse_payout_table, payouts_name  # noqa: PLC0415

    path = Path(path_text)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"--money {path}: cannot read it ({exc.strerror}); an example is "
                         f"{ROOT / 'config/tournament/money/nightly.toml'}") from None
    name = payouts_name(text, str(path))
    table_path = (path.parent / name) if name.endswith(".toml") else PAYOUTS / f"{name}.toml"
    try:
        table_text = table_path.read_text(encoding="utf-8")
    except OSError as exc:
        shipped = ", ".join(sorted(p.stem for p in PAYOUTS.glob("*.toml")))
        raise ValueError(f"{path}: [money] payouts = {name!r}: cannot read {table_path} ({exc.strerror}); the "
                         f"shipped tables: {shipped}, or a file name ending in .toml next to {path.name}") from None
    parse_money(text, str(path), parse_payout_table(table_text, str(table_path)))
    return {"money": text, "money_source": str(path), "payouts_text": table_text, "payouts_source": str(table_path)}


def build(args: argparse.Namespace, room: str, *, sim_clock: bool = False, journal: Any = None) -> Any:
    """The Director for these options (ValueError naming the option); with `journal`, its `begin` written."""
    from firmware_py.room.director import director_from, start  # noqa: PLC0415

    begin = begin_from(args, room, sim_clock=sim_clock)
    if journal is not None:
        return start(begin, journal)
    return director_from(begin)


def open_director(args: argparse.Namespace, room: str, *, sim_clock: bool) -> tuple[Any, str]:
    """The director: resumed from its journal, or a new tournament (written to a new journal); what happened."""
    import time  # noqa: PLC0415

    from firmware_py.daemon.journal import Journal  # noqa: PLC0415
    from firmware_py.errors import JournalError  # noqa: PLC0415
    from firmware_py.room.director import resume  # noqa: PLC0415

    path = Path(args.journal) if args.journal else None
    if path is None and not args.simulate:  # systemd's StateDirectory= as the appliance, else ./state (as a table)
        state = os.environ.get("STATE_DIRECTORY")
        path = (Path(state.split(":")[0]) if state else Path("state")) / f"director-{room}.sqlite3"
    if path is None:
        return build(args, room, sim_clock=sim_clock), "no journal (give --journal FILE to keep one)"
    said = ""
    if path.exists() and args.fresh:
        aside = path.with_name(f"{path.stem}.{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}")
        for suffix in ("", "-wal", "-shm", "-ack"):
            old = path.with_name(path.name + suffix)
            if old.exists():
                old.rename(aside.with_name(aside.name + suffix))
        said = f"the former journal moved to {aside}; "
    try:
        journal = Journal.open(path)
    except JournalError as exc:
        raise ValueError(f"--journal {path}: {exc}") from None
    try:
        if journal.count():
            if args.simulate:
                raise ValueError(f"--journal {path} holds a tournament, and a simulated room's tables do not resume: "
                                 "give --fresh to start a new one")
            if journal.meta("journal") != "director":
                raise ValueError(f"--journal {path}: not a director's journal (a table's?); give another file")
            director = resume(journal)
            t = director.tournament
            status = "over: start a new one with --fresh" if director.over else "resumed"
            return director, (f"{said}the tournament in {path} {status} ({director.replayed} events: "
                              f"{len(t.in_play())} of {t.entrants} players left, level "
                              f"{director.structure.at(director.elapsed()).level.number}); its field, structure "
                              "and seed are the journal's, not these options'")
        return build(args, room, sim_clock=sim_clock, journal=journal), f"{said}a new tournament, journaled in {path}"
    except Exception:
        journal.close()
        raise


def run(args: argparse.Namespace) -> int:
    command = RoomCommand(args, "tournament")
    if args.room is None:
        if not args.simulate:
            return command.usage("--room is required: the room id the tables and the floor use (e.g. --room main)")
        args.room = "main"  # the simulated room needs nothing given: `tournament --simulate` runs as it is
    embedded = None
    if args.broker is None:
        if args.simulate:  # the README's main command needs nothing running: a broker of its own
            from firmware_py.room.embedded_broker import BrokerMissing, EmbeddedBroker  # noqa: PLC0415

            try:
                embedded = EmbeddedBroker().start()
            except BrokerMissing as exc:
                print(f"tournament: {exc}", file=sys.stderr)
                return 1
            args.broker = f"127.0.0.1:{embedded.port}"
            args.tls, args.user = False, None
            print(f"tournament: no --broker given: {embedded.name} of its own on {args.broker} ({embedded.notes})",
                  flush=True)
        else:
            args.broker = "localhost"
    try:
        return _run(command, args)
    finally:
        if embedded is not None:
            embedded.stop()


def _run(command: RoomCommand, args: argparse.Namespace) -> int:
    try:
        room, broker = command.room(), command.broker()
        if args.speed < 0:
            raise ValueError(f"--speed {args.speed}: 0 (as fast as they can) or more")
        director, said = open_director(args, room, sim_clock=args.simulate)
        host, _, port_text = args.listen.rpartition(":")
        port = int(port_text)
    except ValueError as exc:
        return command.usage(exc)
    print(f"tournament: {said}", flush=True)
    server = None
    if not args.no_page:
        from firmware_py.room.director_page import director_app  # noqa: PLC0415
        from firmware_py.web.pairing import shown_code  # noqa: PLC0415
        from firmware_py.web.server import WebServer  # noqa: PLC0415

        page = director_app(director, hosts=args.page_name or ())
        try:
            server = WebServer(page, host=host or "127.0.0.1", port=port, name="tournament page").start()
        except OSError as exc:
            print(f"tournament: {exc}", file=sys.stderr)
            return 1
        # no venue screen: the console (and the journal under systemd) shows the code, and each new one
        page.pairing.listeners.append(
            lambda code: print(f"tournament: next pairing code {shown_code(code)}", flush=True))
        print(f"tournament: the director's page is on {server.url}/ (any address of this machine with "
              f"--listen 0.0.0.0); pair a browser with the code {shown_code(page.pairing.code)}", flush=True)
        print(f"tournament: the room's clock screen is on {server.url}/screen and the players' view on "
              f"{server.url}/player (read-only, open without pairing)", flush=True)
    try:
        if args.simulate:
            status = simulate(args, room, broker, director)
            if server is not None and status == 0 and args.seconds is None:
                keep_page(command, server.url)
            return status
        return serve(command, room, broker, director)
    finally:
        if server is not None:
            page.closing = True
            server.stop()
        if director.journal is not None:
            director.journal.close()


def keep_page(command: RoomCommand, url: str) -> None:
    """After a simulation: the page stays up (it shows the end) until Ctrl-C or SIGTERM."""
    import signal  # noqa: PLC0415

    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: command.stop.set())
    print(f"tournament: the page stays on {url}/ until you stop this command (Ctrl-C)", flush=True)
    command.stop.wait()


def serve(command: RoomCommand, room: str, broker: Any, director: Any) -> int:
    """The director's station on the broker until stopped: reports in, its state out (again every second, so
    the clock's remaining time and a level change reach the room without a report)."""
    from firmware_py.room.messages import topic  # noqa: PLC0415
    from firmware_py.room.tournament_messages import DirectorState, director_topic, encode, report_topic  # noqa: PLC0415
    from firmware_py.simulation.tournament_sim import no_delay  # noqa: PLC0415

    # the tables' reports, and their jackpot hands (docs/jackpots.md) for the page
    subscriber = command.subscriber(broker, [report_topic(room, "+"), topic(room, "+", "jackpot")], parts=(room,),
                                    on_message=director.feed)

    def publish(state: DirectorState) -> None:
        subscriber.client.publish(director_topic(room), encode(state, DirectorState), qos=1, retain=True)

    def each_turn() -> None:
        director.tick()

    def main(_room: RoomCommand) -> int:
        no_delay(subscriber.client)
        director.on_change = publish
        publish(director.state())
        while command.running():
            command.stop.wait(1.0)
            each_turn()
            if director.failed:
                print(f"tournament: {director.failed}: stopped (restarted, the director resumes from what its "
                      "journal holds)", file=sys.stderr, flush=True)
                return 1
        return 0

    return command.run(subscriber, main=main)


def simulate(args: argparse.Namespace, room: str, broker: Any, director: Any) -> int:
    from firmware_py.profiles import load_profiles  # noqa: PLC0415
    from firmware_py.session import load_deck  # noqa: PLC0415
    from firmware_py.simulation.tournament_sim import simulate_room  # noqa: PLC0415

    profile = load_profiles()[args.profile]
    decks = (load_deck(ROOT / "config/decks/test-red.json"), load_deck(ROOT / "config/decks/test-blue.json"))
    client = args.client_id or f"director.{room}.sim"
    try:
        result = simulate_room(director, broker, room=room, profile=profile, decks=decks, seed=args.seed,
                               max_hands=args.max_hands, director_client_id=client,
                               tables_client_id=f"tables.{room}.sim", speed=args.speed,
                               log=lambda line: print(f"tournament: {line}", flush=True))
    except Exception as exc:  # the broker, or a simulated table that lost its chips: say which, one line
        print(f"tournament: the simulation stopped: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    t = director.tournament
    kinds: dict[str, int] = {}
    for d in t.log:
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
    print(f"tournament: {result.hands} hands in {result.seconds:.1f} s ({result.sim_minutes:.0f} simulated "
          f"minutes), winner {result.winner or 'none'}; room chips checked after each of them; "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())), flush=True)
    return 0 if result.winner else 1
