"""Players checked in by card across the room (docs/checkin.md), through a real Mosquitto (plain, and the room's as
shipped: TLS, passwords, the ACL, the client-id plugin): two tables' real table sides (`TournamentTable`, each on
its own connection as its user) follow the director; a player drawn to t01 checks in at t02; t02 reports it, the
director's state says where the card was read, and t01's deal rules the player's seat as the wrong table."""

from __future__ import annotations

import queue
import random
import time

from firmware_py.core import Button, ButtonName, Cause, CheckIn, Read, RulingKind, Seat, SeatStatus
from firmware_py.core.engine import TableCore
from firmware_py.profiles import load_profiles
from firmware_py.room.director import Director
from firmware_py.room.room_config import RoomConfig
from firmware_py.room.tournament_table import TournamentTable
from firmware_py.session import load_deck
from firmware_py.simulation.dealer import DealerBot
from firmware_py.tournament import Tournament, book_for, parse_structure
from tests.room.conftest import ROOT
from tests.room.services import Mosquitto
from tests.room.test_tournament_daemon import STRUCTURE, Room, tournament_broker, user_config

__all__ = ["tournament_broker"]  # the fixture, used here as there

WAIT_S = 60.0


class Side:
    """One table's side as its daemon runs it: the events its TournamentTable posts go into its core on this (the
    main) thread, and each new snapshot goes back to it."""

    def __init__(self, broker: Mosquitto, table: str, core: TableCore) -> None:
        self.core = core
        self.inbox: queue.Queue[object] = queue.Queue()
        self.notices: list[str] = []
        config = RoomConfig(room="main", table=table, broker=user_config(broker, table), tournament=True)
        self.side = TournamentTable(config, post=self.inbox.put, session=f"{table}-test", checks_in=True)

    def feed(self, event: object) -> list:  # type: ignore[type-arg]
        outcome = self.core.feed(event)  # type: ignore[arg-type]
        self.notices += [n.message for n in outcome.notices]
        return list(outcome.rulings)

    def pump(self) -> None:
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            for event in item if isinstance(item, tuple) else (item,):
                self.feed(event)
        self.side.on_snapshot(self.core.snapshot())


def _until(what: str, sides: list[Side], predicate: object) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        for side in sides:
            side.pump()
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_card_read_at_another_table_reaches_the_drawn_table_through_the_director_and_is_ruled_wrong_table(
        tournament_broker: Mosquitto) -> None:
    broker = tournament_broker
    structure = parse_structure(STRUCTURE, "test-turbo")
    tournament = Tournament(book=book_for("wfp"), tables=["t01", "t02"], capacity=9,
                            entrants=[(f"p{i:02d}", f"Player {i}") for i in range(1, 15)],
                            stack=structure.starting_stack, seed=3)
    director = Director(room="main", tournament=tournament, structure=structure, sim_clock=True)
    room = Room(broker, director)
    deck = load_deck(ROOT / "config/decks/test-red.json")
    sides: dict[str, Side] = {}
    for table in tournament.tables.values():
        bot = DealerBot(rng=random.Random(1), deck=deck, profile=load_profiles()["wfp"],
                        seats=tuple(sorted(table.seats)), button=table.button or 1, stack=1, rebuy=False)
        assert isinstance(bot._core, TableCore)
        sides[table.id] = Side(broker, table.id, bot._core)
    room.start()
    for side in sides.values():
        side.side.start()
    try:
        both = list(sides.values())
        _until("both tables drawn", both, lambda: all(s.core.snapshot().not_checked_in for s in both))
        t01, t02 = sides["t01"], sides["t02"]
        seats1 = dict(tournament.tables["t01"].seats)
        lost_seat, lost = min(seats1.items())
        for seat, player in seats1.items():
            if player != lost:
                t01.feed(CheckIn(t=1.0, player=player, name=player.upper(), seat=seat))
        free = next(s for s in range(1, 10) if s not in tournament.tables["t02"].seats)
        t02.feed(Seat(t=1.0, seat=free, status=SeatStatus.IN))
        t02.feed(CheckIn(t=1.0, player=lost, name=lost.upper(), seat=free))  # the player sat at the wrong table
        _until("t01 told the player checked in at t02", both,
               lambda: any(f"checked in at table t02 seat {free}" in n for n in t01.notices))
        assert [(c.player, c.table, c.seat) for c in director.state().checked_in if c.player == lost] == [
            (lost, "t02", free)]
        t01.feed(Button(t=2.0, name=ButtonName.NEW_HAND))
        rulings = []
        for uid in list(deck.cards)[:2 * len(seats1)]:
            rulings += t01.feed(Read(t=3.0, antenna="shoe", uid=uid))
        assert [(r.ruling, r.seat, r.cause, r.rule) for r in rulings] == [
            (RulingKind.DEAD_HAND, lost_seat, Cause.WRONG_TABLE, "wfp: Tournament Procedures 8, 10")]
        assert f"{lost} checked in at table t02 seat {free}" in rulings[0].remedy
    finally:
        for side in sides.values():
            side.side.stop()
        room.stop()

