"""`enroll`: scan a new deck card by card on one antenna and write its deck registry file."""

from __future__ import annotations

import argparse
import queue
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from firmware_py.config_toolkit import did_you_mean
from firmware_py.core.cards import JOKERS
from firmware_py.core.events import Read
from firmware_py.errors import ConfigError, DeckFileError
from firmware_py.extensions import EXTENSIONS, ConfigFile
from firmware_py.players import DEFAULT_PATH as PLAYERS_PATH
from firmware_py.players import PlayerEnrollment
from firmware_py.session import load_deck
from hardware.emulation.emulated_table import EmulatedTable
from hardware.enrollment import Enrollment
from hardware.hardware_config import DEFAULT_PATH, HardwareConfig, load_hardware_config
from hardware.reader_health import ReaderFault, ReaderRecovered
from hardware.rig import start_sensors

HELP = ("enroll a new deck: scan its 54 cards (the jokers X1 and X2 last) one by one on one antenna into a deck file; "
        "or, with --player, a player's card into the player registry")
DECKS_DIR = Path("config/decks")
FAULT_TIMEOUT_S = 30.0  # a reader fault that lasts this long is not a loose card: stop and say what to do


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", help="the deck's name, e.g. casino-red")
    parser.add_argument("--back", help="the colour of its backs, e.g. red")
    parser.add_argument("--player", help="enroll a player card instead: the player's id, e.g. P0012 "
                        "(written to config/players.toml, or --out; docs/checkin.md)")
    parser.add_argument("--name", help="with --player: the player's name, as the screens show it")
    parser.add_argument("--out", type=Path, help="registry file to write (default: config/decks/DECK.json); "
                        "if it exists, the enrollment resumes")
    parser.add_argument("--antenna", default="shoe", help="the antenna to scan on (default: shoe)")
    parser.add_argument("--config", type=Path, default=DEFAULT_PATH, help="hardware config file")
    parser.add_argument("--against", type=Path, nargs="*", default=None,
                        help="registries whose UIDs are refused (default: every other *.json beside --out)")
    parser.add_argument("--card-timeout", type=float, default=None, metavar="SECONDS",
                        help="give up when no card comes for this long (default: wait)")
    parser.add_argument("--fault-timeout", type=float, default=FAULT_TIMEOUT_S, metavar="SECONDS",
                        help=f"give up when the reader stays faulty this long (default: {FAULT_TIMEOUT_S:g})")
    parser.add_argument("--emulate", action="store_true",
                        help="run on emulated hardware with a simulated operator (no Pi needed)")


def run(args: argparse.Namespace) -> int:
    if args.player is not None or args.name is not None:
        return run_player(args)
    if not args.deck or not args.back:
        print("enroll: --deck and --back are required to enroll a deck (or --player and --name for a player card)",
              file=sys.stderr)
        return 2
    config = load_hardware_config(args.config, extensions=EXTENSIONS.reader(ConfigFile.HARDWARE))  # [keypad] too
    if args.antenna not in config.antennas:
        hint = did_you_mean(args.antenna, config.antennas)
        print(f"enroll: --antenna {args.antenna!r} is not in {config.source}{hint}; configured antennas: "
              f"{', '.join(config.antennas)}", file=sys.stderr)
        return 2
    out: Path = args.out or DECKS_DIR / f"{args.deck}.json"
    others = args.against if args.against is not None else sorted(out.parent.glob("*.json"))
    try:
        enrollment = Enrollment.open(deck=args.deck, back=args.back, path=out, others=others)
    except DeckFileError as exc:
        print(f"enroll: {exc}", file=sys.stderr)
        return 2
    if enrollment.expected is None:
        print(f"{out}: deck {args.deck!r} is already complete ({enrollment.progress[0]} cards)")
        return 0
    return _with_hardware(config, enrollment, args)


def run_player(args: argparse.Namespace) -> int:
    """`enroll --player ID --name NAME`: one player card, read on one antenna, into the player registry."""
    if not args.player or not args.name:
        print("enroll: a player card needs both --player ID and --name NAME", file=sys.stderr)
        return 2
    config = load_hardware_config(args.config, extensions=EXTENSIONS.reader(ConfigFile.HARDWARE))
    if args.antenna not in config.antennas:
        hint = did_you_mean(args.antenna, config.antennas)
        print(f"enroll: --antenna {args.antenna!r} is not in {config.source}{hint}", file=sys.stderr)
        return 2
    out: Path = args.out or PLAYERS_PATH
    against = args.against if args.against is not None else sorted(DECKS_DIR.glob("*.json"))
    try:
        enrollment = PlayerEnrollment(player=args.player, name=args.name, path=out,
                                      decks=[load_deck(path) for path in against])
    except (ConfigError, DeckFileError) as exc:
        print(f"enroll: {exc}", file=sys.stderr)
        return 2
    return _with_hardware(config, enrollment, args)


def run_player_enrollment(enrollment: PlayerEnrollment, events: queue.Queue[object], *, antenna: str, out: TextIO,
                          on_prompt: Callable[[str], None] | None = None,
                          card_timeout_s: float | None = None) -> int:
    """Wait for the player's card on `antenna`; a deck's card or another player's is refused, saying whose."""
    print(f"Enrolling player {enrollment.player} ({enrollment.name}) on antenna {antenna!r} into {enrollment.path}: "
          f"place the player's card on the {antenna} antenna", file=out, flush=True)
    if on_prompt is not None:
        on_prompt(enrollment.player)
    while enrollment.done is None:
        try:
            item = events.get(timeout=card_timeout_s)
        except queue.Empty:
            print(f"no card read on {antenna} for {card_timeout_s:g} s: nothing enrolled", file=out)
            return 1
        if isinstance(item, ReaderFault):
            print(f"  reader fault: {item.message} (no Pi here? use --emulate)", file=out, flush=True)
        elif isinstance(item, Read) and item.antenna == antenna:
            outcome = enrollment.offer(item.uid)
            print(f"  {outcome.message}" if outcome.accepted else f"  refused: {outcome.message}", file=out,
                  flush=True)
    return 0


def _with_hardware(config: HardwareConfig, enrollment: Enrollment | PlayerEnrollment,
                   args: argparse.Namespace) -> int:
    table = None
    on_prompt: Callable[[str], None] | None = None
    if args.emulate:
        table = EmulatedTable(config)
        config = table.config
        # a player's card: a tag of its own (seeded by the id), not the first card of every emulated deck
        seed = int.from_bytes(args.player.encode(), "big") % 2**32 if isinstance(enrollment, PlayerEnrollment) else 1
        on_prompt = SimulatedOperator(table, args.antenna, seed=seed)
    events: queue.Queue[object] = queue.Queue()
    sensors = None
    try:
        hardware = table.hardware if table else None
        sensors = start_sensors(config, queue=events, antennas={args.antenna},
                                sleep=hardware.sleep if hardware else _sleep,
                                open_spi=hardware.open_spi if hardware else None,
                                gpio=hardware.gpio if hardware else None)
        if isinstance(enrollment, PlayerEnrollment):
            return run_player_enrollment(enrollment, events, antenna=args.antenna, out=sys.stdout,
                                         on_prompt=on_prompt, card_timeout_s=args.card_timeout)
        return run_enrollment(enrollment, events, antenna=args.antenna, out=sys.stdout, on_prompt=on_prompt,
                              card_timeout_s=args.card_timeout, fault_timeout_s=args.fault_timeout)
    except KeyboardInterrupt:
        if isinstance(enrollment, PlayerEnrollment):
            print("\ninterrupted: nothing enrolled")
            return 130
        done, total = enrollment.progress
        print(f"\ninterrupted: {done}/{total} cards are saved in {enrollment.path}; run the same command "
              "again to resume")
        return 130
    finally:
        if sensors is not None:
            sensors.stop()
        if table is not None:
            table.close()


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def run_enrollment(enrollment: Enrollment, events: queue.Queue[object], *, antenna: str, out: TextIO,
                   on_prompt: Callable[[str], None] | None = None, card_timeout_s: float | None = None,
                   fault_timeout_s: float | None = FAULT_TIMEOUT_S,
                   clock: Callable[[], float] = time.monotonic) -> int:
    """Prompt for each card, take reads of `antenna` from `events`, and report each outcome.

    A reader fault is reported once; if the reader has not come back after `fault_timeout_s`, the
    enrollment stops (what is scanned is saved) and says what to check, `--emulate` without a Pi.
    """
    done, total = enrollment.progress
    print(f"Enrolling deck {enrollment.deck!r} ({enrollment.back} backs) on antenna {antenna!r} into "
          f"{enrollment.path}: {done}/{total} done.", file=out)
    faulted_since: float | None = None
    while (card := enrollment.expected) is not None:
        done, total = enrollment.progress
        print(f"[{done + 1:2}/{total}] next: {_spoken(card)} - place it on the {antenna} antenna", file=out,
              flush=True)
        if on_prompt is not None:
            on_prompt(card)
        waited_from = clock()
        while enrollment.expected == card:
            timeouts = []
            if card_timeout_s is not None:
                timeouts.append(waited_from + card_timeout_s - clock())
            if faulted_since is not None and fault_timeout_s is not None:
                timeouts.append(faulted_since + fault_timeout_s - clock())
            try:
                item = events.get(timeout=max(0.0, min(timeouts)) if timeouts else None)
            except queue.Empty:
                if faulted_since is not None and fault_timeout_s is not None \
                        and clock() >= faulted_since + fault_timeout_s:
                    print(f"the reader did not come back in {fault_timeout_s:g} s; {done}/{total} saved in "
                          f"{enrollment.path}. Check its wiring and SPI (`python -m firmware_py doctor --tags`); "
                          "without a Pi, use --emulate", file=out)
                    return 1
                print(f"no card read on {antenna} for {card_timeout_s:g} s; {done}/{total} saved in "
                      f"{enrollment.path}: run the same command again to resume", file=out)
                return 1
            if isinstance(item, ReaderFault):
                if faulted_since is None:
                    faulted_since = clock()
                    limit = f"up to {fault_timeout_s:g} s" if fault_timeout_s is not None else "until it does"
                    print(f"  reader fault: {item.message}\n  waiting {limit} for it to come back "
                          "(no Pi here? use --emulate; Ctrl-C stops, the cards scanned are saved)", file=out,
                          flush=True)
            elif isinstance(item, ReaderRecovered):
                faulted_since = None
                print(f"  reader {item.reader} is back", file=out)
            elif isinstance(item, Read) and item.antenna == antenna:
                outcome = enrollment.offer(item.uid)
                print(f"  {outcome.message}" if outcome.accepted else f"  refused: {outcome.message}", file=out,
                      flush=True)
    print(f"Deck {enrollment.deck!r} complete: {enrollment.progress[0]} cards written to {enrollment.path}",
          file=out)
    return 0


def _spoken(card: str) -> str:
    """The card as the prompt names it: the jokers' codes say which joker they are."""
    if card in JOKERS:
        return f"{card} ({('the first', 'the second')[JOKERS.index(card)]} joker)"
    return card


class SimulatedOperator:
    """For `--emulate`: takes the previous card off the antenna and puts a fresh tag for the next one."""

    def __init__(self, table: object, antenna: str, *, seed: int = 1) -> None:
        self.table = table
        self.antenna = antenna
        self.rng = random.Random(seed)
        self.previous: str | None = None

    def __call__(self, card: str) -> None:
        if self.previous is not None:
            self.table.remove(self.antenna, self.previous)  # type: ignore[attr-defined]
        uid = "04" + "".join(f"{self.rng.randrange(256):02X}" for _ in range(6))
        self.table.place(self.antenna, uid)  # type: ignore[attr-defined]
        self.previous = uid
