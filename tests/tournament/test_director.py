"""The director's model (firmware_py/room/director.py) survives any message and takes in a table's report once."""

from __future__ import annotations

import json

from firmware_py.room.director import Director
from firmware_py.room.tournament_messages import report_topic
from firmware_py.tournament import Tournament, book_for, parse_structure
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
                       "start": start, "end": end}).encode()


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
