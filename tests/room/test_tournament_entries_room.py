"""Issue 39 items 1 to 4 through the room: a simulated tournament on the house-rebuy structure (late registration
and one re-entry through level 4, rebuys through level 3, the add-on at the first break) with the director's desk
acting between hands, the tables and the director on a real Mosquitto. It runs to one winner with the room's chips
checked after every hand by the simulation and by the independent checker (tests/tournament/checker.py): chips in
play = entries x stack + rebuys + add-ons (+ what the color-up races moved), every entry its own place; a 2,000
guarantee and its money conserved (collected + overlay = prize pool + fees + rake); a three-handed ICM deal agreed by
the three players left with 100 played for, equal to an independent brute-force ICM; and the director resumed from
its journal to the same state."""

from __future__ import annotations

import csv
import io
from typing import Any

import msgspec

from firmware_py.profiles import load_profiles
from firmware_py.room.director import Director
from firmware_py.session import load_deck
from firmware_py.simulation.tournament_sim import simulate_room
from tests.room.conftest import broker_config
from tests.room.services import Mosquitto
from tests.room.test_tournament_room import ROOT, _args
from tests.tournament.checker import check, check_bounties, check_chips, check_money, check_places
from tests.tournament.test_deals import brute_force_icm

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
        self.dealt: list[tuple[str, int]] = []  # (player, chips) when the deal was made

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
        left = t.in_play()
        if len(left) == 3 and d.deal is None:  # the three players left agree on an ICM deal, 100 played for
            self.dealt = [(p.id, p.chips) for p in sorted(left, key=lambda p: (-p.chips, p.id))]
            d.make_deal("icm", agreed=[p.id for p in left], play_for=100)
        return len(d.actions) if len(d.actions) != before else 0


def test_a_rebuy_tournament_with_late_entries_re_entries_the_add_on_a_guarantee_and_an_icm_deal_runs_to_its_end(
        broker: Mosquitto, tmp_path: Any) -> None:
    from firmware_py.daemon.journal import Journal  # noqa: PLC0415
    from firmware_py.room.director import resume  # noqa: PLC0415

    args = _args(profile="upt", tables="2", players=12, seats=9, seed=6, buy_in=0, structure=HOUSE,
                 money=str(ROOT / "config/tournament/money/nightly-pko.toml"))
    from firmware_py.commands.tournament import build  # noqa: PLC0415

    journal = Journal.open(tmp_path / "director.sqlite3")
    director = build(args, "main", sim_clock=True, journal=journal)
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
    # the money: 100 + 20 + a 20 bounty an entry, rebuys and add-ons at 100, a 2,000 guarantee, prizes in units of 5
    assert state.money is not None and state.money.locked
    assert check_money(state.money, director.actions, first_field=12, buy_in=100, fee=20, rake_percent=0,
                       guarantee=2000, unit=5, places=[(p.place, p.prize) for p in state.places], bounty=20) == []
    # progressive knockouts from the tables' own rulings of the pots: every entry but the winner knocked out by
    # someone, every bounty accounted for
    assert len(director.knockouts) == 15
    assert check_bounties(director.knockouts, state.bounties, entries=16, bounty=20, progressive=True,
                          winner=next(p.player for p in state.places if p.place == 1)) == []
    assert all(s.head == 0 for s in state.bounties)  # all won at the end
    assert state.pool == max(2000, 100 * (16 + kinds.count("rebuy") + kinds.count("add-on")))
    # the deal: ICM of the three stacks for the prizes of 1st to 3rd less the 100 played for, by an independent
    # brute force over every finishing order; the winner takes the 100 besides
    deal = state.deal
    assert deal is not None and deal.method == "icm" and deal.play_for == 100 and len(deal.shares) == 3
    assert [(s.player, s.chips) for s in deal.shares] == desk.dealt and all(s.agreed for s in deal.shares)
    top = list(state.payouts[:3])
    exact = brute_force_icm([c for _p, c in desk.dealt], [top[0] - 100, *top[1:]])
    floors = [int(x // 5) * 5 for x in exact]  # rounded down to the unit, the rest to the biggest stack (listed first)
    floors[0] += sum(top) - 100 - sum(floors)
    assert [s.share for s in deal.shares] == floors
    prize = {p.player: p.prize for p in state.places}
    winner = next(p.player for p in state.places if p.place == 1)
    for s in deal.shares:
        assert prize[s.player] == s.share + (100 if s.player == winner else 0)
    # the results as exported (JSON and CSV): every entry placed once, the prizes the pool, the bounties, the deal
    results = director.results()
    assert len(results["places"]) == 16 and results["re_entries"] == 2 and results["deal"]["method"] == "icm"
    assert sum(r["prize"] for r in results["places"]) == results["pool"] == state.pool
    assert sum(r["bounties"] for r in results["places"]) == 16 * 20
    assert sum(r["rebuys"] for r in results["places"]) == kinds.count("rebuy")
    assert sum(r["add_ons"] for r in results["places"]) == kinds.count("add-on")
    rows = list(csv.DictReader(io.StringIO(director.results_csv())))
    assert [int(r["place"]) for r in rows] == [r["place"] for r in results["places"]]
    assert sum(int(r["prize"]) for r in rows) == state.pool and rows[0]["deal_share"] != ""
    # the public results (the page's /results.* unpaired): the same places, no player card's id
    assert any(r["card"] == "CARD-1" for r in results["places"])
    public = director.results(cards=False)
    assert [r["card"] for r in public["places"]] == [""] * 16
    assert [{**r, "card": ""} for r in results["places"]] == public["places"]
    assert "CARD-1" not in director.results_csv(cards=False) and "CARD-1" in director.results_csv()
    # the director resumed from its journal: the same event (field, actions, money, deal, places)
    journal.close()
    with Journal.open(tmp_path / "director.sqlite3") as again:
        resumed = resume(again)
        assert resumed.mismatches == 0
        strip = {"seq", "session"}
        after = {k: v for k, v in msgspec.to_builtins(resumed.state()).items() if k not in strip}
        assert after == {k: v for k, v in msgspec.to_builtins(director.state()).items() if k not in strip}
