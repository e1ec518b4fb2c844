"""A simulated tournament through a real Mosquitto: the director (firmware_py.room.director, as the
`tournament` command runs it) and simulated tables (the dealer bot into the rules core), from the first
hand to one winner; every decision checked by the independent checker (tests/tournament/checker.py),
the room's chips checked at every hand (the run raises ChipsNotConserved otherwise)."""

from __future__ import annotations

import argparse
import time

import pytest

from firmware_py.commands.tournament import ROOT, build
from firmware_py.profiles import load_profiles
from firmware_py.room.subscriber import RoomSubscriber
from firmware_py.room.tournament_messages import DirectorState, director_topic, encode, report_topic
from firmware_py.session import load_deck
from firmware_py.simulation.tournament_sim import run_tables
from tests.room.conftest import broker_config
from tests.room.services import Mosquitto
from tests.tournament.checker import check


def _args(**overrides: object) -> argparse.Namespace:
    values: dict[str, object] = {"profile": "wfp", "structure": str(ROOT / "config/tournament/wfp-nightly.toml"),
                                 "tables": "3", "players": 24, "entrants": None, "seats": 9, "seed": 0,
                                 "payouts": "50,30,20", "buy_in": 20}
    values.update(overrides)
    return argparse.Namespace(**values)


def simulate_room(broker: Mosquitto, args: argparse.Namespace, room: str = "main") -> tuple[object, object]:
    config = broker_config(broker)
    director = build(args, room, sim_clock=True)
    subscriber = RoomSubscriber(config, [report_topic(room, "+")], client_id="director.test",
                                on_message=director.feed)

    def publish(state: DirectorState) -> None:
        subscriber.client.publish(director_topic(room), encode(state, DirectorState), qos=1, retain=True)

    director.on_change = publish
    subscriber.start(deadline=time.monotonic() + 10)
    try:
        publish(director.state())
        profiles = load_profiles()
        decks = (load_deck(ROOT / "config/decks/test-red.json"), load_deck(ROOT / "config/decks/test-blue.json"))
        result = run_tables(config, room=room, profile=profiles[args.profile], decks=decks,
                            tables=list(director.tournament.tables), seed=args.seed,
                            entrants=director.tournament.entrants, max_hands=3000, client_id="tables.test")
    finally:
        subscriber.stop()
    return director, result


@pytest.mark.parametrize(("profile", "tables", "players", "seats"), [
    ("wfp", "3", 24, 9), ("upt", "3", 22, 9), ("rpl", "3", 25, 10)])
def test_simulated_tournament_runs_to_one_winner_by_the_book(broker: Mosquitto, profile: str, tables: str,
                                                            players: int, seats: int) -> None:
    args = _args(profile=profile, tables=tables, players=players, seats=seats, seed=4)
    director, result = simulate_room(broker, args)
    t = director.tournament  # type: ignore[attr-defined]
    assert result.winner and t.finished  # type: ignore[attr-defined]
    assert result.chip_checks == result.hands > players // 2  # type: ignore[attr-defined]
    problems = check(t.log, profile=profile, capacity=seats, entrants=players, starting_tables=int(tables),
                     break_order=t.break_order)
    assert problems == []
    kinds = {d.kind for d in t.log}
    assert {"eliminated", "broken", "finished"} <= kinds
    assert director.rejected == 0  # type: ignore[attr-defined]
    state = director.state()  # type: ignore[attr-defined]
    assert [p.place for p in state.places][:3] == [1, 2, 3]
    assert state.places[0].prize == players * 20 // 2 + (players * 20) % 2
