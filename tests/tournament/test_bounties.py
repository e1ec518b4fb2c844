"""Issue 39 item 5: bounties and progressive knockouts. Who knocked out whom comes from the table's own ruling of the
pot in its report (the winners of the last pot the player out could win: its last chips), never from typing; two
players splitting that pot split the bounty (equally, the odd amount to the first winner in the core's order, as
the pot's odd chips go: the books are silent on bounties, the house follows the pot); progressive: half in cash,
half onto the eliminator's head; the winner collects its own head."""

from __future__ import annotations

from typing import Any

import msgspec

from firmware_py.commands.tournament import ROOT, begin_from
from firmware_py.room.director import Director, director_from
from firmware_py.room.tournament_messages import PotJson, SeatStack, TableReport
from firmware_py.tournament.money import knockout
from tests.room.test_tournament_room import _args


def _director(money: str = "nightly-pko") -> Director:
    args = _args(profile="upt", tables="1", players=4, seats=6, seed=3,
                 money=str(ROOT / f"config/tournament/money/{money}.toml"))
    return director_from(begin_from(args, "main", sim_clock=True))


def _hand(d: Director, n: int, end: dict[int, int], pots: list[dict[str, Any]]) -> None:
    table = d.tournament.tables["t01"]
    start = {s: d.tournament.players[p].chips for s, p in table.seats.items()}
    seats = sorted(start)
    d.apply(TableReport(v=1, room="main", table="t01", session="s", seq=n, kind="hand", hand=n, t=30.0 * n, draw=1,
                        button=seats[0], big_blind=seats[-1],
                        start=[SeatStack(seat=s, chips=c) for s, c in sorted(start.items())],
                        end=[SeatStack(seat=s, chips=end.get(s, c)) for s, c in sorted(start.items())],
                        pots=msgspec.convert(pots, list[PotJson])))


def test_a_progressive_bounty_goes_half_to_the_eliminator_and_half_onto_its_head() -> None:
    assert knockout(20, 1, progressive=True) == ([10], [10])
    assert knockout(25, 2, progressive=True) == ([7, 6], [6, 6])
    assert knockout(25, 2, progressive=False) == ([13, 12], [0, 0])
    d = _director()
    a, b, _c, _e = sorted(d.tournament.tables["t01"].seats)
    pa, pb = d.tournament.tables["t01"].seats[a], d.tournament.tables["t01"].seats[b]
    # seat a all in for 1,500, called by seat b, who wins the pot: b knocked a out (the table's ruling says so)
    _hand(d, 1, {a: 0, b: 3000}, [{"amount": 3000, "seats": [a, b], "winners": [b],
                                   "shares": [{"seat": b, "chips": 3000}]}])
    state = d.state()
    k = state.knockouts[-1]
    assert (k.player, k.by, k.cash, k.head, k.pot) == (pa, [pb], [10], [10], 0)
    assert {x.player: (x.head, x.won) for x in state.bounties}[pb] == (30, 10)
    assert any(x.kind == "knockout" and "knocked out" in x.text and "the main pot as the table ruled it" in x.text
               for x in state.decisions)
    assert next(p for p in state.places if p.player == pa).bounty == 0


def test_two_players_splitting_the_pot_that_knocked_a_player_out_split_its_bounty() -> None:
    d = _director("nightly-pko")
    a, b, c, _e = sorted(d.tournament.tables["t01"].seats)
    seats = dict(d.tournament.tables["t01"].seats)
    # a short all in for 1,500 against b and c, who split the main pot (the core lists c first: clockwise order)
    _hand(d, 1, {a: 0, b: 2250, c: 2250}, [{"amount": 4500, "seats": [a, b, c], "winners": [c, b],
                                            "shares": [{"seat": c, "chips": 2250}, {"seat": b, "chips": 2250}]}])
    k = d.state().knockouts[-1]
    assert k.by == [seats[c], seats[b]] and k.cash == [5, 5] and k.head == [5, 5]
    said = next(x for x in d.state().decisions if x.kind == "knockout")
    assert [(c.profile, c.section, c.rule) for c in said.cites] == [("robert", "Ties", "5(a)")]  # UPT's source
    assert "split its bounty as they split the pot" in said.cites[0].note


def test_one_pot_knocking_out_three_pays_each_bounty_to_its_winner_who_collects_its_own_at_the_win() -> None:
    d = _director("nightly-pko")
    a, b, c, e = sorted(d.tournament.tables["t01"].seats)
    seats = dict(d.tournament.tables["t01"].seats)
    # a, b and c all in for 1,500 each against e, who wins the pot: e knocked out all three, and wins
    pots = [{"amount": 6000, "seats": [a, b, c, e], "winners": [e], "shares": [{"seat": e, "chips": 6000}]}]
    _hand(d, 1, {a: 0, b: 0, c: 0, e: 6000}, pots)
    state = d.state()
    assert state.over and {k.player for k in state.knockouts} == {seats[a], seats[b], seats[c]}
    assert all(k.by == [seats[e]] for k in state.knockouts)
    won = {x.player: x.won for x in state.bounties}
    assert won[seats[e]] == 20 * 4 and sum(x.head for x in state.bounties) == 0  # the winner's own head too
