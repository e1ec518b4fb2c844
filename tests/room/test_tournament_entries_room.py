"""Issue 39 items 1 and 2 through the room: a simulated tournament on the house-rebuy structure (late registration
and one re-entry through level 4, rebuys through level 3, the add-on at the first break) with the director's desk
acting between hands, the tables and the director on a real Mosquitto. It runs to one winner with the room's chips
checked after every hand by the simulation and by the independent checker (tests/tournament/checker.py): chips in
play = entries x stack + rebuys + add-ons (+ what the color-up races moved), every entry its own place."""

from __future__ import annotations

from typing import Any

from firmware_py.profiles import load_profiles
from firmware_py.room.director import Director
from firmware_py.session import load_deck
from firmware_py.simulation.tournament_sim import simulate_room
from tests.room.conftest import broker_config
from tests.room.services import Mosquitto
from tests.room.test_tournament_room import ROOT, _args
from tests.tournament.checker import check, check_chips, check_money, check_places

HOUSE = str(ROOT / "config/tournament/house-rebuy.toml")


class Desk:
    """The director's desk between hands: two late entries early on, a re-entry of each of the first two players
    out while entries are taken, rebuys for short stacks while they are taken, and every player's add-on at the
    first break."""

    def __init__(self, director: Director) -> None:
        self.d = director
        self.re_entered: set[str] = set()
        self.added: set[str] = set()
        self.tried_late = False

    def __call__(self, hands: int, state: Any) -> int:
        d, t = self.d, self.d.tournament
        before = len(d.actions)
        if hands >= 3 and not self.tried_late:
            self.tried_late = True
            d.register("Late Ada", card="CARD-1")
            d.register("Late Bob")
        if state.late and "late registration" in state.late:
            for p in sorted(t.players.values(), key=lambda p: p.id):
                if p.place is not None and not p.person and p.id not in self.re_entered and len(self.re_entered) < 2:
                    self.re_entered.add(p.id)
                    d.register("", person=p.id)
        if state.late and "rebuys" in state.late:
            for p in t.in_play():
                made = sum(1 for a in d.actions if a.kind == "rebuy" and a.player == p.id)
                if p.chips <= 1500 and made < 1 and hands % 7 == 0:
                    d.rebuy(p.id)
        if state.late and "add-on" in state.late:
            for p in t.in_play():
                if p.id not in self.added:
                    self.added.add(p.id)
                    d.add_on(p.id)
        return len(d.actions) if len(d.actions) != before else 0


def test_a_rebuy_tournament_with_late_entries_re_entries_and_the_add_on_runs_to_its_end_with_every_chip_counted(
        broker: Mosquitto) -> None:
    args = _args(profile="upt", tables="2", players=12, seats=9, seed=6, buy_in=0, structure=HOUSE,
                 money=str(ROOT / "config/tournament/money/nightly.toml"))
    from firmware_py.commands.tournament import build  # noqa: PLC0415

    director = build(args, "main", sim_clock=True)
    desk = Desk(director)
    decks = (load_deck(ROOT / "config/decks/test-red.json"), load_deck(ROOT / "config/decks/test-blue.json"))
    result = simulate_room(director, broker_config(broker), room="main", profile=load_profiles()["upt"],
                           decks=decks, seed=6, max_hands=4000, director_client_id="director.entries",
                           tables_client_id="tables.entries", between=desk)
    t = director.tournament
    state = director.state()
    kinds = [a.kind for a in director.actions]
    assert result.winner and t.finished and director.rejected == 0
    assert kinds.count("entry") == 2 and kinds.count("re-entry") == 2, kinds
    assert kinds.count("rebuy") >= 1 and kinds.count("add-on") >= 5, kinds
    assert state.entrants == 16 and result.chip_checks == result.hands
    assert check(t.log, profile="upt", capacity=9, entrants=16, starting_tables=2, break_order=t.break_order) == []
    assert check_chips(t.log, director.actions, first_field=12, stack=1500, chips_in_play=t.total_chips()) == []
    assert check_places([(p.place or 0, p.shared) for p in t.players.values()], t.entrants) == []
    # the money: 100 + 20 an entry, rebuys and add-ons at 100, a 2,000 guarantee, prizes in units of 5
    assert state.money is not None and state.money.locked
    assert check_money(state.money, director.actions, first_field=12, buy_in=100, fee=20, rake_percent=0,
                       guarantee=2000, unit=5, places=[(p.place, p.prize) for p in state.places]) == []
    assert state.pool == max(2000, 100 * (16 + kinds.count("rebuy") + kinds.count("add-on")))
