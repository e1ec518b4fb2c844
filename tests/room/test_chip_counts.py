"""The room's chip counts (issue 38 item 6) and jackpot hands told to the floor and the director: the leaderboard
made from the director's state alone (a refused report never moves it), the floor's model of both, the director
taking a table's jackpot message in (journaled, with the player in that seat), and the floor's picture at 720p.

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/room/test_chip_counts.py` keeps the floor's picture."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec
import pygame
import pytest

from display.floor import render_floor
from display.render import init_headless
from firmware_py.commands.tournament import build
from firmware_py.room.director import Director, Refused, journal_events, resume
from firmware_py.room.floor import JACKPOT_S, FloorModel
from firmware_py.room.leaderboard import leaderboard
from firmware_py.room.messages import BadMessage, decode
from firmware_py.room.tournament_messages import DirectorState, TableReport, director_topic, encode
from tests.room.samples import message, room_of
from tests.room.test_tournament_room import _args
from tests.tournament.pots import pots_for

JACKPOT_TOPIC = "pokertable/main/t01/jackpot"


def jackpot(seq: int = 50, *, n: int = 0, table: str = "t01", session: str = "st01", seat: int = 2,
            **fields: Any) -> dict[str, Any]:
    """A table's jackpot message as its publisher writes it (firmware_py.jackpots.room_message)."""
    return {"v": 1, "room": "main", "table": table, "session": session, "seq": seq, "n": n, "dealer": "Dana",
            "hand": 7, "t": 412.5, "wall": 1795457012.5, "jackpot": "Bad beat", "kind": "bad_beat", "seat": seat,
            "winners": [3], "held": "full house, aces full of kings",
            "rule": "house (jackpots.toml): Bad Beat Jackpot 1: aces full or better beaten, both hole cards playing",
            "remedy": f"Bad beat: seat {seat}'s full house, aces full of kings (As Ad) lost to seat 3's four of a "
                      "kind, nines (9h 9d) on Ac Kh Kd 9s 9c (both hole cards play); 4 players dealt in, a pot of "
                      "9,200. "
                      "Hold the cards where they lie and call the floor; the evidence packet goes to surveillance.",
            "packet": f"jackpot-hand7-seq120-bad-beat-seat{seat}.jsonl", **fields}


def director() -> Director:
    return build(_args(tables="2", players=12, seats=9, seed=3, buy_in=0), "main")


def books(d: Director, table: str = "t01") -> dict[int, int]:
    return {seat: d.tournament.players[pid].chips for seat, pid in d.tournament.tables[table].seats.items()}


def report(d: Director, end: dict[int, int], *, hand: int, seq: int, session: str = "t01-run1",
           pots: list[dict[str, Any]] | None = None) -> TableReport:
    start = books(d)
    seats = sorted(start)
    return msgspec.convert({
        "v": 1, "room": "main", "table": "t01", "session": session, "seq": seq, "kind": "hand", "hand": hand,
        "t": 60.0 * hand, "draw": d.draws["t01"], "button": seats[0], "big_blind": seats[2],
        "start": [{"seat": s, "chips": c} for s, c in sorted(start.items())],
        "end": [{"seat": s, "chips": c} for s, c in sorted(end.items())],
        "pots": pots_for(start, end) if pots is None else pots}, TableReport)


def board_of(d: Director) -> dict[str, Any]:
    return leaderboard(msgspec.to_builtins(d.state()))


# -- the leaderboard ---------------------------------------------------------------------------------------

def test_the_leaderboard_ranks_every_stack_largest_first_equal_stacks_sharing_a_rank() -> None:
    state = {"level": {"big": 400}, "tables": [
        {"table": "t02", "hand": 4, "seats": [{"seat": 1, "player": "p3", "name": "Bo", "chips": 3000},
                                             {"seat": 4, "player": "p4", "name": "Di", "chips": 0}]},
        {"table": "t01", "hand": 9, "seats": [{"seat": 2, "player": "p1", "name": "Ada", "chips": 3000},
                                             {"seat": 5, "player": "p2", "name": "Cy", "chips": 6000}]}]}
    board = leaderboard(state)
    assert [(r["rank"], r["name"], r["where"], r["bb"]) for r in board["rows"]] == [
        (1, "Cy", "t01 seat 5", 15.0), (2, "Ada", "t01 seat 2", 7.5), (2, "Bo", "t02 seat 1", 7.5)]
    assert board["players"] == 3 and board["average"] == 4000  # a seat at 0 is out, not on the board
    assert board["as_of"] == {"t02": 4, "t01": 9}  # each table's last hand the director took in
    assert [r["name"] for r in leaderboard(state, top=1)["rows"]] == ["Cy"]


def test_a_hand_taken_in_moves_the_leaderboard_and_a_refused_report_does_not() -> None:
    d = director()
    before = board_of(d)
    assert len({r["chips"] for r in before["rows"]}) == 1  # the draw: every stack the starting stack
    stacks = books(d)
    seats = sorted(stacks)
    won = {**stacks, seats[0]: stacks[seats[0]] + 500, seats[1]: stacks[seats[1]] - 500}
    d.apply(report(d, won, hand=1, seq=1))
    after = board_of(d)
    leader = after["rows"][0]
    assert (leader["table"], leader["seat"], leader["chips"], leader["hand"]) == ("t01", seats[0], won[seats[0]], 1)
    assert after["rows"][-1]["chips"] == won[seats[1]]
    # a forged report (five players at 0, nobody gaining): refused, never applied, the leaderboard unmoved
    forged = {s: (0 if i < 5 else c) for i, (s, c) in enumerate(sorted(books(d).items()))}
    with pytest.raises(Refused):
        d.apply(report(d, forged, hand=2, seq=2, pots=[]))
    assert d.state().refused[-1].table == "t01"
    assert board_of(d) == after
    # a stack beyond the chips in play, the pots made to match: refused too
    huge = {**books(d), seats[2]: 10**12}
    with pytest.raises(Refused):
        d.apply(report(d, huge, hand=2, seq=2))
    assert board_of(d) == after


def test_the_leaderboard_is_the_journals_a_resumed_director_shows_the_same(tmp_path: Path) -> None:
    from firmware_py.daemon.journal import Journal  # noqa: PLC0415

    args = _args(tables="2", players=12, seats=9, seed=3, buy_in=0)
    with Journal.open(tmp_path / "director.sqlite3") as journal:
        d = build(args, "main", journal=journal)
        stacks = books(d)
        seats = sorted(stacks)
        d.apply(report(d, {**stacks, seats[3]: stacks[seats[3]] + 900, seats[4]: stacks[seats[4]] - 900},
                       hand=1, seq=1))
        forged = {s: (0 if i < 5 else c) for i, (s, c) in enumerate(sorted(books(d).items()))}
        with pytest.raises(Refused):
            d.apply(report(d, forged, hand=2, seq=2, pots=[]))
        d.feed(JACKPOT_TOPIC, json.dumps(jackpot(seat=seats[3])).encode())
        shown = board_of(d)
        assert shown["rows"][0]["chips"] == stacks[seats[3]] + 900
        kinds = [e["kind"] for e in journal_events(journal)]
        assert kinds.count("report") == 1 and "refused" in kinds and "jackpot" in kinds
        again = resume(journal)
        assert board_of(again) == shown  # the screens state what the journal holds
        assert [(j.jackpot, j.seat) for j in again.state().jackpots] == [("Bad beat", seats[3])]


# -- jackpots: the director ------------------------------------------------------------------------------

def test_the_director_takes_a_jackpot_in_with_the_player_it_seats_there_once() -> None:
    d = director()
    seat = min(books(d))
    name = d.tournament.players[d.tournament.tables["t01"].seats[seat]].name
    seq_before = d.version
    d.feed(JACKPOT_TOPIC, json.dumps(jackpot(seat=seat)).encode())
    d.feed(JACKPOT_TOPIC, json.dumps(jackpot(seat=seat)).encode())  # QoS 1 delivers it again: passed over
    jackpots = d.state().jackpots
    assert len(jackpots) == 1 and d.version > seq_before
    assert (jackpots[0].table, jackpots[0].seat, jackpots[0].player, jackpots[0].hand) == ("t01", seat, name, 7)
    assert jackpots[0].rule.startswith("house (jackpots.toml): Bad Beat Jackpot 1")
    # it reaches every reader of the director's state through its one schema
    state = msgspec.json.decode(encode(d.state(), DirectorState), type=DirectorState)
    assert state.jackpots[0].packet == "jackpot-hand7-seq120-bad-beat-seat2.jsonl"


def test_a_jackpot_message_that_breaks_its_schema_is_refused_and_shown_never_listed() -> None:
    d = director()
    d.feed(JACKPOT_TOPIC, json.dumps(jackpot(kind="biggest_pot")).encode())
    d.feed(JACKPOT_TOPIC, json.dumps(jackpot(table="t02")).encode())  # t01's topic, t02's body
    state = d.state()
    assert state.jackpots == []
    assert [r.kind for r in state.refused] == ["jackpot", "jackpot"]
    assert "biggest_pot" in state.refused[0].reason and "t02" in state.refused[1].reason


# -- the floor ---------------------------------------------------------------------------------------------

def test_the_floor_shows_a_jackpot_on_its_tables_tile_once_and_for_a_while() -> None:
    model = FloorModel("main")
    model.feed("pokertable/main/t01/status", message("status", "t01", 0, session="st01"), now=0.0)
    model.feed(JACKPOT_TOPIC, jackpot(), now=10.0)
    model.feed(JACKPOT_TOPIC, json.dumps(jackpot()).encode(), now=11.0)  # delivered again
    view = model.table("t01")
    assert view is not None
    assert model.duplicates == 1 and len(model.latest_jackpots()) == 1
    shown = view.jackpot_now(11.0)
    assert shown is not None and (shown["jackpot"], shown["seat"], shown["hand"]) == ("Bad beat", 2, 7)
    assert view.jackpot_now(10.0 + JACKPOT_S) is None  # the tile clears; the side's list keeps it
    model.feed(JACKPOT_TOPIC, jackpot(seq=80, seat=4), now=20.0)
    assert [j["seat"] for j in model.latest_jackpots()] == [2, 4]


def test_a_bad_jackpot_message_is_quarantined_on_its_tile() -> None:
    model = FloorModel("main")
    model.feed(JACKPOT_TOPIC, jackpot(seat=11), now=5.0)  # seats are 1-10
    view = model.table("t01")
    assert view is not None and view.status(6.0) == "bad_message" and "jackpot:" in view.bad_reason
    assert model.quarantined == 1 and model.latest_jackpots() == [] and view.jackpot is None
    with pytest.raises(BadMessage):
        decode(JACKPOT_TOPIC, json.dumps(jackpot(winners=[])).encode())  # a jackpot names who won the pot


def test_the_floors_leaderboard_is_the_directors_state_and_none_without_one() -> None:
    model = FloorModel("main")
    assert model.leaderboard() is None
    d = director()
    stacks = books(d)
    seats = sorted(stacks)
    d.apply(report(d, {**stacks, seats[0]: stacks[seats[0]] + 700, seats[1]: stacks[seats[1]] - 700}, hand=1, seq=1))
    model.feed(director_topic("main"), encode(d.state(), DirectorState), now=1.0)
    board = model.leaderboard(top=3)
    assert board is not None and board == leaderboard(msgspec.to_builtins(d.state()), top=3)
    assert board["rows"][0]["chips"] == stacks[seats[0]] + 700


def _tournament_floor() -> tuple[FloorModel, Director]:
    d = build(_args(tables="3", players=24, seats=9, seed=3, buy_in=20), "main")
    for number, table in enumerate(d.tournament.tables, start=1):
        start = {seat: d.tournament.players[pid].chips for seat, pid in d.tournament.tables[table].seats.items()}
        seats = sorted(start)
        swing = 400 * number
        winner, loser = seats[number], seats[number + 1]
        end = {**start, winner: start[winner] + swing, loser: start[loser] - swing}
        d.apply(msgspec.convert({
            "v": 1, "room": "main", "table": table, "session": f"{table}-run1", "seq": 1, "kind": "hand",
            "hand": 1, "t": 60.0, "draw": d.draws[table], "button": seats[0], "big_blind": seats[2],
            "start": [{"seat": s, "chips": c} for s, c in sorted(start.items())],
            "end": [{"seat": s, "chips": c} for s, c in sorted(end.items())], "pots": pots_for(start, end)},
            TableReport))
    model = room_of(3, now=1000.0)
    model.feed(director_topic("main"), encode(d.state(), DirectorState), now=1000.0)
    seat = min(books(d))
    model.feed(JACKPOT_TOPIC, jackpot(seat=seat), now=1000.0)
    return model, d


def test_the_floor_at_720p_shows_the_chip_leaders_and_the_jackpot_legibly(tmp_path: Path) -> None:
    from tests.display.pictures import recorded_text  # noqa: PLC0415

    init_headless()
    model, _director = _tournament_floor()
    surface = pygame.Surface((1280, 720))
    with recorded_text() as drawn:
        render_floor(surface, model, now=1000.5, title="Room main", clock_text="21:14:05")
    folder = Path(os.environ.get("POKERTABLE_SCREENSHOTS") or tmp_path)
    pygame.image.save(surface, str(folder / "floor-chip-counts-1280x720.png"))
    texts = [d.text for d in drawn]
    board = model.leaderboard()
    assert board is not None
    leader = board["rows"][0]
    assert "Chip counts" in texts and leader["name"] in texts and f"{leader['chips']:,}" in texts
    assert "JACKPOT seat " + str(model.latest_jackpots()[0]["seat"]) in texts
    assert any(t.startswith("t01 hand 7: JACKPOT Bad beat") for t in texts)
    small = [d.size for d in drawn if d.text in (leader["name"], f"{leader['chips']:,}")]
    assert min(small) >= 13  # theme.READABLE_PX: legible at 720p
