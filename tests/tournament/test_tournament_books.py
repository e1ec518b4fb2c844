"""The director's decisions by book (firmware_py/tournament), checked by the independent checker."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from firmware_py.tournament import (
    Moved,
    StructureError,
    Tournament,
    book_for,
    parse_structure,
    prizes,
    shared_prizes,
)
from firmware_py.tournament.bubble import Bubble
from firmware_py.tournament.structure import Level
from tests.tournament.checker import balanced, check
from tests.tournament.random_play import play

ROOT = Path(__file__).resolve().parents[2]
RUNS = [("wfp", 5, 45, 9), ("wfp-dealer", 4, 30, 9), ("upt", 3, 24, 9), ("upt", 8, 70, 9), ("rpl", 3, 25, 10),
        ("rpl", 5, 45, 10)]


@pytest.mark.parametrize(("profile", "tables", "players", "capacity"), RUNS)
@pytest.mark.parametrize("seed", range(3))
def test_every_decision_follows_the_book(profile: str, tables: int, players: int, capacity: int, seed: int) -> None:
    t, totals = play(profile, tables=tables, players=players, capacity=capacity, seed=seed)
    assert t.finished
    assert set(totals) == {players * 1000}  # chips conserved at every hand
    assert check(t.log, profile=profile, capacity=capacity, entrants=players, starting_tables=tables,
                 break_order=t.break_order) == []
    places = sorted(p.place for p in t.players.values() if p.place is not None)
    assert len(places) == players and places[0] == 1
    assert any(d.kind == "moved" for d in t.log) and any(d.kind == "broken" for d in t.log)


def test_the_checker_catches_a_wrong_mover() -> None:
    t, _ = play("upt", tables=3, players=24, seed=1)
    log = list(t.log)
    index = next(i for i, d in enumerate(log) if isinstance(d, Moved))
    move = log[index]
    donor = next(v for v in move.before if v.table == move.from_table)
    other = next(s for s, _ in donor.seats if s != move.from_seat)
    player = dict(donor.seats)[other]
    log[index] = dataclasses.replace(move, from_seat=other, player=player)
    assert any("due for the big blind" in p for p in check(log, profile="upt", capacity=9, entrants=24,
                                                              starting_tables=3, break_order=t.break_order))


def test_the_checker_catches_a_table_broken_out_of_order() -> None:
    t, _ = play("wfp", tables=5, players=45, seed=2)
    log = list(t.log)
    assert check(log, profile="wfp", capacity=9, entrants=45, starting_tables=5,
                 break_order=list(reversed(t.break_order)))


def _table_of(t: Tournament, table: str) -> dict[int, str]:
    return dict(t.tables[table].seats)


def _report(t: Tournament, table: str, *, bust: list[int], button: int, big_blind: int,
            stacks: dict[int, int] | None = None) -> list[object]:
    seats = t.tables[table].seats
    start = {s: t.players[p].chips for s, p in seats.items()}
    if stacks:
        start.update(stacks)
    end = dict(start)
    winner = next(s for s in seats if s not in bust)
    for s in bust:
        end[winner] += end[s]
        end[s] = 0
    return list(t.hand_done(table, hand=t.tables[table].hands + 1, start=start, end=end, button=button,
                            big_blind=big_blind))


def _two_tables(profile: str, capacity: int = 9) -> Tournament:
    return Tournament(book=book_for(profile), tables=["t01", "t02"], capacity=capacity,
                      entrants=[(f"p{i}", f"P{i}") for i in range(16)], stack=1000, seed=3)


def test_wfp_tournament_11_player_due_for_the_big_blind_moves_to_earliest_seat_due() -> None:
    t = _two_tables("wfp")
    a, b = t.tables["t01"], t.tables["t02"]
    assert len(a.seats) == len(b.seats) == 8
    # t02 loses two players: 8 against 6, the player due for t01's big blind moves
    bust = sorted(b.seats)[:2]
    a_seats = sorted(a.seats)
    _report(t, "t01", bust=[], button=a_seats[0], big_blind=a_seats[2])
    due = a_seats[3]
    decisions = _report(t, "t02", bust=bust, button=sorted(b.seats)[2], big_blind=sorted(b.seats)[4])
    moves = [d for d in decisions if isinstance(d, Moved)]
    assert len(moves) == 1 and moves[0].from_seat == due and moves[0].from_table == "t01"
    assert str(moves[0].cites[1]) == "wfp Section 2 WFP Tournament Rules 11"
    assert not moves[0].waits


def test_upt_tournaments_17_within_two_players_with_more_than_six_tables() -> None:
    assert book_for("upt").spread(7) == 2 and book_for("upt").spread(6) == 1
    assert book_for("wfp").spread(8) == 1


def test_rpl_tournaments_14_thresholds_twenty_and_nine() -> None:
    t = Tournament(book=book_for("rpl"), tables=["a", "b", "c"], capacity=10,
                   entrants=[(f"p{i}", f"P{i}") for i in range(21)], stack=100, seed=0)
    assert t.tables_wanted() == 3
    table = next(iter(t.tables.values()))
    seats = sorted(table.seats)
    decisions = _report(t, table.id, bust=[seats[0]], button=seats[1], big_blind=seats[3])
    kinds = [d.kind for d in decisions]
    assert kinds[:3] == ["eliminated", "broken", "redrawn"]
    assert len(t.tables) == 2 and sum(len(x.seats) for x in t.tables.values()) == 20


def test_upt_tournaments_18_redraw_at_three_optional_with_five_starting_tables() -> None:
    book = book_for("upt")
    assert book.redraw_at == (3, 2, 1) and book.redraw_three_optional_up_to == 5


def test_wfp_tournament_28_two_out_in_one_hand_placed_by_starting_stacks() -> None:
    t = _two_tables("wfp")
    seats = sorted(t.tables["t01"].seats)
    decisions = _report(t, "t01", bust=seats[:2], button=seats[2], big_blind=seats[4],
                        stacks={seats[0]: 300, seats[1]: 700})
    out = {d.seat: d.place for d in decisions if d.kind == "eliminated"}
    assert out == {seats[1]: 15, seats[0]: 16}


def test_upt_tournaments_35_equal_stacks_share_the_places() -> None:
    t = _two_tables("upt")
    seats = sorted(t.tables["t01"].seats)
    decisions = _report(t, "t01", bust=seats[:2], button=seats[2], big_blind=seats[4],
                        stacks={seats[0]: 500, seats[1]: 500})
    shared = {d.shared for d in decisions if d.kind == "eliminated"}
    assert shared == {(15, 16)}
    assert shared_prizes([500, 300, 200], 2, 3) == [250, 250]
    assert shared_prizes([500, 301, 200], 2, 3) == [251, 250]


def test_payout_table_rest_to_the_winner() -> None:
    assert prizes(1001, [50, 30, 20]) == [501, 300, 200]
    with pytest.raises(ValueError, match="add up to 100"):
        prizes(100, [60, 50])


def test_wfp_dealer_all_in_bubble_other_tables_hold_the_next_deal() -> None:
    bubble = Bubble()
    bubble.start()
    bubble.all_in_called("t01", 40)
    ok, why = bubble.may_deal("t02")
    assert not ok and "All In / Bubble" in why
    bubble.hand_over("t01", ["t01", "t02"])
    assert bubble.may_deal("t02") == (True, "")
    assert not bubble.may_deal("t01")[0]  # hand-for-hand: t01 waits for t02 to finish its hand
    bubble.hand_over("t02", ["t01", "t02"])
    assert bubble.may_deal("t01") == (True, "") and bubble.rounds == 1


def test_the_shipped_structures_parse() -> None:
    for path in sorted((ROOT / "config/tournament").glob("*.toml")):
        structure = parse_structure(path.read_text(), str(path))
        assert structure.levels
    nightly = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "n")
    clock = nightly.at(30 * 60 + 1)
    assert clock.level.small == 100 and len(clock.color_ups) == 1  # the color-up at half an hour (wfp-dealer)


def test_wfp_tournament_procedures_6_each_color_up_removes_the_lowest_chip_in_play() -> None:
    """"The lowest denomination of chip in play will be removed from the table when it is no longer needed in the
    blind or ante structure": the nightly schedule's chips, level by level."""
    nightly = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "n")
    assert nightly.denominations == (25, 100, 500, 1000, 5000)
    by_level = {step.label(): nightly.chips_at(index) for index, step in enumerate(nightly.steps)
                if isinstance(step, Level)}
    assert by_level["50/100"] == (25, 100, 500, 1000, 5000) and by_level["100/200"] == (100, 500, 1000, 5000)
    assert by_level["500/1,000"] == (500, 1000, 5000) and by_level["5,000/10,000"] == (5000,)


@pytest.mark.parametrize(("text", "message"), [
    ("[structure]\nname='x'\nstarting_stack=100\n[[steps]]\nsmal=1\n", "did you mean 'small'"),
    ("[structure]\nname='x'\nstarting_stack=100\n[[steps]]\nsmall=1\nbig=2\nminutes=5\nante=1\nbb_ante=2\n",
     "not both"),
    ("[structure]\nname='x'\nstarting_stack=100\n[[steps]]\ncolor_up=25\nto=60\n", "multiple"),
    # chips that exist: a stack of 13 at 25/50, a blind of a chip colored up, a color-up of another chip than the lowest
    ("[structure]\nname='x'\nstarting_stack=1513\ndenominations=[25, 100]\n[[steps]]\nsmall=25\nbig=50\nminutes=5\n",
     r"starting_stack: 1,513 is no whole number of the smallest chip in play, 25.*starting_stack = 1500"),
    ("[structure]\nname='x'\nstarting_stack=1500\ndenominations=[25, 100]\n[[steps]]\nsmall=25\nbig=50\nminutes=5\n"
     "[[steps]]\ncolor_up=25\nto=100\n[[steps]]\nsmall=50\nbig=100\nminutes=5\n",
     r"number 3: small = 50 is no whole number of the smallest chip in play then, 100"),
    ("[structure]\nname='x'\nstarting_stack=1500\ndenominations=[25, 100, 500]\n[[steps]]\nsmall=25\nbig=50\n"
     "minutes=5\n[[steps]]\ncolor_up=100\nto=500\n", r"number 2 color_up: 100 is not the lowest chip in play"),
    ("[structure]\nname='x'\nstarting_stack=1500\ndenominations=[25, 10]\n[[steps]]\nsmall=25\nbig=50\nminutes=5\n",
     "the 25 chip is not a whole number of the smallest, 10"),
    # a late entry's stack and a rebuy's chips made of the chips in play when they are taken (after the color-up)
    ("[structure]\nname='x'\nstarting_stack=1550\ndenominations=[25, 100]\n[[steps]]\nsmall=25\nbig=50\nminutes=5\n"
     "[[steps]]\ncolor_up=25\nto=100\n[[steps]]\nsmall=100\nbig=200\nminutes=5\n[entries]\n"
     "late_registration_until_level=2\n",
     r"starting_stack = 1550: a late entry is paid in chips.*smallest chip in play then, 100 \(e.g. 1500\)"),
    ("[structure]\nname='x'\nstarting_stack=1500\ndenominations=[25, 100]\n[[steps]]\nsmall=25\nbig=50\nminutes=5\n"
     "[[steps]]\ncolor_up=25\nto=100\n[[steps]]\nsmall=100\nbig=200\nminutes=5\n[entries]\nrebuys=1\n"
     "rebuy_chips=1525\nrebuy_until_level=2\n",
     r"\[entries\] rebuy_chips = 1525: a rebuy is paid in chips.*smallest chip in play then, 100"),
    ("[structure]\nname='x'\nstarting_stack=1500\ndenomination=[25]\n[[steps]]\nsmall=25\nbig=50\nminutes=5\n",
     "did you mean 'denominations'"),
])
def test_structure_errors_name_the_file_step_and_key(text: str, message: str) -> None:
    with pytest.raises(StructureError, match=message) as caught:
        parse_structure(text, "mine.toml")
    assert "mine.toml" in str(caught.value)


def test_tables_stay_balanced_after_every_report() -> None:
    for profile in ("wfp", "upt", "rpl"):
        t, _ = play(profile, tables=4, players=36, capacity=10 if profile == "rpl" else 9, seed=7)
        assert balanced(t.views(), profile)
