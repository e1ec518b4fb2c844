"""The director's model (firmware_py/room/director.py) survives any message and takes in a table's report once."""

from __future__ import annotations

import json

from firmware_py.room.director import Director
from firmware_py.room.tournament_messages import report_topic
from firmware_py.tournament import Tournament, book_for, parse_structure
from tests.tournament.pots import pots_for
from tests.tournament.test_tournament_books import ROOT


def _director() -> Director:
    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    t = Tournament(book=book_for("upt"), tables=["t01", "t02"], capacity=9,
                   entrants=[(f"p{i}", f"P{i}") for i in range(12)], stack=1500, seed=1)
    return Director(room="main", tournament=t, structure=structure, payouts=[60, 40], sim_clock=True)


def _report(director: Director, seq: int, *, bust: bool = False) -> bytes:
    table = director.tournament.tables["t01"]
    seats = sorted(table.seats)
    start = [{"seat": s, "chips": director.tournament.players[table.seats[s]].chips} for s in seats]
    end = [dict(x) for x in start]
    if bust:
        end[1]["chips"] += end[0]["chips"]
        end[0]["chips"] = 0
    return json.dumps({"v": 1, "room": "main", "table": "t01", "session": "s", "seq": seq, "kind": "hand",
                       "hand": seq, "t": 60.0 * seq, "draw": 1, "button": seats[0], "big_blind": seats[2],
                       "start": start, "end": end,
                       "pots": pots_for({x["seat"]: x["chips"] for x in start}, {x["seat"]: x["chips"] for x in end})
                       }).encode()


def test_the_director_survives_any_message_and_counts_it() -> None:
    director = _director()
    topic = report_topic("main", "t01")
    for payload in (b"", b"{}", b"\x00", b'{"v": 1}', b"[" * 50_000):
        director.feed(topic, payload)
    bad_seats = json.loads(_report(director, 1))
    bad_seats["end"].append({"seat": 10, "chips": 5})
    bad_seats["start"].append({"seat": 10, "chips": 5})
    director.feed(topic, json.dumps(bad_seats).encode())  # a seat the director has no player in
    assert director.rejected == 6
    assert director.tournament.tables["t01"].hands == 0


def test_a_report_is_taken_in_once_and_an_elimination_places_the_player() -> None:
    director = _director()
    topic = report_topic("main", "t01")
    payload = _report(director, 1, bust=True)
    director.feed(topic, payload)
    director.feed(topic, payload)  # a resend (QoS 1): nothing more
    state = director.state()
    assert state.remaining == 11 and [p.place for p in state.places] == [12]
    assert any(d.kind == "eliminated" and "12th place" in d.text for d in state.decisions)
    assert next(t for t in state.tables if t.table == "t01").acked == 1


def _heads_up(*, payouts: list[int] | None = None) -> Director:
    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    t = Tournament(book=book_for("wfp"), tables=["t01"], capacity=9, entrants=[("p0", "Ada"), ("p1", "Bo"),
                                                                               ("p2", "Cy")], stack=1500, seed=1)
    return Director(room="main", tournament=t, structure=structure, payouts=payouts or [], sim_clock=False,
                    wall=lambda: 1000.0)


def _bust(director: Director, seq: int, losers: list[int], *, hand: int | None = None) -> None:
    table = director.tournament.tables["t01"]
    seats = sorted(table.seats)
    start = {s: director.tournament.players[table.seats[s]].chips for s in seats}
    end = dict(start)
    winner = max((s for s in seats if s not in losers), key=lambda s: start[s])  # the big stack covers them
    for s in losers:
        end[winner] += end[s]
        end[s] = 0
    director.feed(report_topic("main", "t01"), json.dumps({
        "v": 1, "room": "main", "table": "t01", "session": "s", "seq": seq, "kind": "hand", "hand": hand or seq,
        "t": 60.0 * seq, "draw": 1, "button": seats[0], "big_blind": seats[-1],
        "start": [{"seat": s, "chips": c} for s, c in start.items()],
        "end": [{"seat": s, "chips": c} for s, c in end.items()], "pots": pots_for(start, end)}).encode())


def _short(director: Director) -> list[int]:
    """The seat with the fewest chips (it can lose them all to a bigger stack)."""
    t = director.tournament
    return [min(t.tables["t01"].seats, key=lambda s: (t.players[t.tables["t01"].seats[s]].chips, s))]


def test_the_end_of_the_tournament_stops_the_clock_and_hand_for_hand_and_the_tables() -> None:
    director = _heads_up()
    director.start_clock()
    director.hand_for_hand(True)
    assert director.state().running and director.state().hand_for_hand
    _bust(director, 1, _short(director))
    _bust(director, 2, _short(director))
    state = director.state()
    assert state.winner and state.over and not state.running and not state.hand_for_hand
    assert all(t.hold == "" for t in state.tables)
    assert state.decisions[-1].kind == "over" and "every table stops dealing" in state.decisions[-1].text
    frozen = state.remaining_s
    director.wall = lambda: 5000.0  # time passes: the clock of a finished tournament does not move
    director.start_clock()
    director.hand_for_hand(True)
    later = director.state()
    assert later.remaining_s == frozen and not later.running and not later.hand_for_hand
    _bust(director, 3, [])
    assert director.state().refused[-1].reason.endswith("the tournament is over (every table stops dealing)")


def test_places_cite_the_rule_that_decided_them() -> None:
    director = _heads_up(payouts=[300, 150])
    seats = sorted(director.tournament.tables["t01"].seats)
    _bust(director, 1, [seats[0]])  # out alone: the order of elimination (the book is silent)
    _bust(director, 2, _short(director))
    places = {p.place: p for p in director.state().places}
    assert "WFP Tournament Rules 16" in places[3].rule and "order of elimination" in places[3].rule
    assert "WFP Tournament Rules 28" in places[1].rule and "last player with chips" in places[1].rule
    # two out on one hand with different stacks: the same-hand rule (WFP 28)
    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    t = Tournament(book=book_for("wfp"), tables=["t01"], capacity=9,
                   entrants=[(f"p{i}", f"P{i}") for i in range(4)], stack=1500, seed=1)
    two = Director(room="main", tournament=t, structure=structure, sim_clock=True)
    s = sorted(t.tables["t01"].seats)
    t.players[t.tables["t01"].seats[s[0]]].chips = 1000
    t.players[t.tables["t01"].seats[s[3]]].chips = 2000
    _bust(two, 1, [s[0], s[1]])
    rules = [p.rule for p in two.state().places]
    assert len(rules) == 2 and all("WFP Tournament Rules 28" in r for r in rules)
    assert [d.cites[0].says[:30] for d in two.state().decisions if d.kind == "eliminated"] == [
        "If multiple players go broke o"] * 2


def test_no_prize_pool_configured_means_no_payouts_not_zeros() -> None:
    director = _heads_up()
    _bust(director, 1, _short(director))
    state = director.state()
    assert state.payouts == [] and state.pool == 0 and all(p.prize == 0 for p in state.places)


def test_an_all_in_with_one_table_left_holds_nobody_and_is_not_announced() -> None:
    director = _heads_up()
    director.hand_for_hand(True)
    director.feed(report_topic("main", "t01"), json.dumps({
        "v": 1, "room": "main", "table": "t01", "session": "s", "seq": 1, "kind": "all_in", "hand": 1, "t": 5.0,
        "draw": 1}).encode())
    assert not [d for d in director.state().decisions if d.kind == "all_in"]


def test_the_journal_replays_every_kind_of_event_to_the_same_state(tmp_path: object) -> None:
    from pathlib import Path  # noqa: PLC0415

    import msgspec  # noqa: PLC0415

    from firmware_py.daemon.journal import Journal  # noqa: PLC0415
    from firmware_py.room.director import begin_event, resume, start  # noqa: PLC0415

    path = Path(str(tmp_path)) / "director.sqlite3"
    now = [1000.0]
    begin = begin_event(room="main", profile="upt", structure_text=(ROOT / "config/tournament/wfp-nightly.toml")
                        .read_text(), structure_source="nightly", tables=["t01"], seats=9,
                        entrants=[(f"p{i}", f"P{i}") for i in range(4)], seed=2, percents=[60, 40], buy_in=10)
    with Journal.open(path) as journal:
        director = start(begin, journal)
        director.wall = lambda: now[0]
        director.start_clock()
        now[0] += 20 * 60  # into level 2: a tick
        director.tick()
        director.hand_for_hand(True)
        _bust(director, 1, _short(director))
        _bust(director, 1, [])  # a copy: passed over
        director.feed(report_topic("main", "t01"), b'{"v": 1}')  # refused by the schema
        now[0] += 30
        director.pause_clock()
        _bust(director, 2, _short(director))
        _bust(director, 3, _short(director))
        before = director.state()
        assert before.over and before.refused_total == 1 and before.level.number == 2
    with Journal.open(path) as journal:
        again = resume(journal)
        again.wall = lambda: now[0] + 3600  # an hour later: a finished tournament's clock does not move
        after = again.state()
        assert again.mismatches == 0 and again.replayed == journal.count() - 1
    strip = {"seq", "session"}
    assert {k: v for k, v in msgspec.to_builtins(after).items() if k not in strip} == {
        k: v for k, v in msgspec.to_builtins(before).items() if k not in strip}


def test_the_directors_doctests_tell_their_story() -> None:
    import doctest  # noqa: PLC0415

    import firmware_py.room.director as module  # noqa: PLC0415

    assert doctest.testmod(module).failed == 0
