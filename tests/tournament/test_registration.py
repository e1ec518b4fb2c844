"""Issue 39 item 1: registration. Entrants registered after the draw get a starting stack in a seat drawn among
the open seats of the tables with the fewest players (UPT Tournaments 6, RPL Tournaments 5: a starting stack placed
for a late entrant), through the level the structure names; with every seat taken they wait as alternates and are
seated in order as seats open; each registration (with its payment and its seat) is a journaled director event, and
undone while its table has dealt it no hand. A resumed director has the same field, seats, alternates and pool."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from firmware_py.room.director import Director, begin_event, resume, start
from firmware_py.room.tournament_messages import report_topic
from firmware_py.tournament import StructureError, Tournament, book_for, parse_structure
from tests.tournament.pots import pots_for

STRUCTURE = """
[structure]
name = "late-test"
starting_stack = 1000

[[steps]]
small = 10
big = 20
minutes = 10

[[steps]]
small = 20
big = 40
minutes = 10

[[steps]]
break_minutes = 10

[[steps]]
small = 30
big = 60
minutes = 10

[[steps]]
small = 50
big = 100
minutes = 10

[entries]
late_registration_until_level = 2
re_entries = 1
rebuys = 2
rebuy_chips = 1000
rebuy_until_level = 2
add_ons = 1
add_on_chips = 2000
"""


def _director(*, players: int = 10, tables: int = 2, seats: int = 6, buy_in: int = 100) -> Director:
    structure = parse_structure(STRUCTURE, "late-test")
    t = Tournament(book=book_for("upt"), tables=[f"t{i:02d}" for i in range(1, tables + 1)], capacity=seats,
                   entrants=[(f"p{i:04d}", f"P{i}") for i in range(1, players + 1)], stack=1000, seed=3)
    return Director(room="main", tournament=t, structure=structure, sim_clock=True, percents=[60, 40],
                    buy_in=buy_in, pool=buy_in * players, payouts=[])


class Hands:
    """Hand reports from each table with pots that explain them (a loser's chips to the table's biggest stack)."""

    def __init__(self, director: Director) -> None:
        self.director, self.seq = director, {}

    def play(self, table: str, losers: list[int] = ()) -> None:  # type: ignore[assignment]
        d = self.director
        t = d.tournament.tables[table]
        seats = sorted(t.seats)
        start = {s: d.tournament.players[t.seats[s]].chips for s in seats}
        end = dict(start)
        winner = max((s for s in seats if s not in losers), key=lambda s: start[s])
        for s in losers:
            end[winner] += end[s]
            end[s] = 0
        self.seq[table] = n = self.seq.get(table, 0) + 1
        d.feed(report_topic("main", table), json.dumps({
            "v": 1, "room": "main", "table": table, "session": "s", "seq": n, "kind": "hand", "hand": n,
            "t": 30.0 * n, "draw": d.draws[table], "button": seats[0], "big_blind": seats[-1],
            "start": [{"seat": s, "chips": c} for s, c in start.items()],
            "end": [{"seat": s, "chips": c} for s, c in end.items()], "pots": pots_for(start, end)}).encode())
        assert d.acked.get(table) == n, d.refused[-1:] if d.refused else "not taken"


def test_a_late_entry_draws_a_seat_at_a_table_with_the_fewest_players_upt_15_6() -> None:
    d = _director(players=11)  # 6 and 5 on two tables of 6
    Hands(d).play("t01")  # the event has started
    short = min(d.tournament.tables.values(), key=lambda t: len(t.seats)).id
    entry = d.register("Ada Late", card="CARD-77")
    player = d.tournament.players[entry.player]
    assert entry.kind == "entry" and entry.paid == 100 and not entry.alternate
    assert player.table == short and player.chips == 1000 and player.card == "CARD-77"
    state = d.state()
    assert state.entrants == 12 and state.remaining == 12 and state.chips_in_play == 12_000
    assert state.pool == 1200 and state.payouts == [720, 480]
    seated = [x for x in state.decisions if x.kind == "seated"][-1]
    assert seated.text.startswith(f"Ada Late draws {short} seat {player.seat} with 1,000 chips")
    assert seated.cites[0].profile == "upt" and seated.cites[0].rule == "6"
    assert next(s for t in state.tables for s in t.seats if s.player == entry.player).moved  # dealt in as moved
    assert "late registration through level 2" in state.late


def test_the_places_already_decided_move_down_with_a_late_entry() -> None:
    d = _director(players=10)
    hands = Hands(d)
    table = d.tournament.tables["t01"]
    hands.play("t01", losers=[sorted(table.seats)[0]])
    out = next(p for p in d.tournament.players.values() if p.place is not None)
    assert out.place == 10
    d.register("Late")
    assert out.place == 11  # ten still in with the late entry: the first one out is 11th of 11
    hands.play("t02", losers=[sorted(d.tournament.tables["t02"].seats)[0]])
    assert sorted(p.place for p in d.tournament.players.values() if p.place) == [10, 11]


def test_late_registration_closes_after_the_level_the_structure_names() -> None:
    d = _director()
    Hands(d).play("t01")
    d.sim_t = 25 * 60  # level 2 ended at 20 minutes: the break after it is still level 2's
    assert d.state().on_break and d.register("On the break").kind == "entry"
    d.sim_t = 31 * 60  # level 3
    with pytest.raises(ValueError, match="no late registration now: the structure late-test takes them through "
                                         "level 2 and the clock is at level 3"):
        d.register("Too late")
    assert d.tournament.entrants == 11 and "late registration" not in d.state().late


def test_with_every_seat_taken_an_entrant_waits_as_alternate_and_takes_the_first_seat_that_opens() -> None:
    d = _director(players=12)  # two full tables of 6
    hands = Hands(d)
    hands.play("t01")
    first, second = d.register("Alt One"), d.register("Alt Two")
    assert first.alternate and second.alternate and d.state().alternates == ["Alt One", "Alt Two"]
    assert d.state().pool == 1200  # an alternate pays when seated
    loser = sorted(d.tournament.tables["t02"].seats)[0]
    hands.play("t02", losers=[loser])
    state = d.state()
    assert state.alternates == ["Alt Two"]
    alt = d.tournament.players[first.player]
    assert alt.table == "t02" and alt.seat == loser and state.pool == 1300
    assert any(x.text.startswith(f"Alternate Alt One draws t02 seat {loser}") for x in state.decisions)
    assert next(e for e in state.entries if e.n == first.n).alternate is False


def test_a_registration_is_undone_before_its_table_deals_it_a_hand_and_stands_after() -> None:
    d = _director(players=11)
    hands = Hands(d)
    hands.play("t01")
    entry = d.register("Oops")
    table = d.tournament.players[entry.player].table
    assert table is not None
    d.undo(entry.n)
    state = d.state()
    assert entry.player not in d.tournament.players and state.entrants == 11 and state.pool == 1100
    assert [e.undone for e in state.entries] == [True]
    assert any(x.kind == "undo" and "Undone: entry 1 of Oops (100 paid back)" in x.text for x in state.decisions)
    with pytest.raises(ValueError, match="undone already"):
        d.undo(entry.n)
    kept = d.register("Kept")
    where = d.tournament.players[kept.player].table
    assert where is not None
    hands.play(where)  # dealt a hand
    with pytest.raises(ValueError, match=r"has been dealt in at .* already: the entry stands"):
        d.undo(kept.n)
    assert d.tournament.players[kept.player].table == where


def test_an_alternate_undone_leaves_the_waiting_list() -> None:
    d = _director(players=12)
    Hands(d).play("t01")
    alt = d.register("Waiting")
    d.undo(alt.n)
    assert d.state().alternates == [] and d.state().pool == 1200


def test_the_entries_section_is_checked_naming_the_file_and_key() -> None:
    bad = STRUCTURE.replace("late_registration_until_level = 2", "late_registration_until_levle = 2")
    with pytest.raises(StructureError, match=r"late-test: \[entries\] unknown key 'late_registration_until_levle' "
                                             r"\(did you mean 'late_registration_until_level'\?\)"):
        parse_structure(bad, "late-test")
    with pytest.raises(StructureError, match="late_registration_until_level = 9: the structure has 4 levels"):
        parse_structure(STRUCTURE.replace("late_registration_until_level = 2", "late_registration_until_level = 9"),
                        "late-test")
    freezeout = parse_structure(STRUCTURE.split("[entries]", maxsplit=1)[0], "late-test")
    d = _director()
    d.structure = freezeout
    Hands(d).play("t01")
    with pytest.raises(ValueError, match="the structure late-test allows none"):
        d.register("Late")


def test_registrations_alternates_and_undos_are_journaled_and_resumed(tmp_path: Path) -> None:
    from firmware_py.daemon.journal import Journal  # noqa: PLC0415

    begin = begin_event(room="main", profile="upt", structure_text=STRUCTURE, structure_source="late-test",
                        tables=["t01", "t02"], seats=6, entrants=[(f"p{i:04d}", f"P{i}") for i in range(1, 12)],
                        seed=3, percents=[60, 40], buy_in=100, sim_clock=True)
    path = tmp_path / "director.sqlite3"
    with Journal.open(path) as journal:
        d = start(begin, journal)
        hands = Hands(d)
        hands.play("t01")
        a = d.register("Ada", card="C1")
        b = d.register("Bob")  # the last seat? 11 + 1 = 12: Bob waits
        assert not a.alternate and b.alternate
        c = d.register("Cy")
        d.undo(c.n)
        loser = sorted(d.tournament.tables["t01"].seats)[0]
        hands.play("t01", losers=[loser])  # Bob takes the seat
        before = d.state()
        assert d.tournament.players[b.player].table is not None
    with Journal.open(path) as journal:
        again = resume(journal)
        after = again.state()
        assert again.mismatches == 0
        assert again.register("Dee").player == "p0015"  # entry ids are never reused (Cy's p0014 was undone)
    strip = {"seq", "session"}
    assert {k: v for k, v in msgspec.to_builtins(after).items() if k not in strip} == {
        k: v for k, v in msgspec.to_builtins(before).items() if k not in strip}
