"""Issue 39 item 2: re-entries, rebuys and add-ons by the structure's [entries] (windows, limits, chips). A busted
player re-entering is a new entry with a new seat by draw and its own place; a rebuy or add-on goes on the stack
from the table's next deal (a hand dealt before it is taken as played behind); chips in play are always
entries x stack + rebuys + add-ons (no color-up here)."""

from __future__ import annotations

import msgspec
import pytest

from firmware_py.room.tournament_messages import PotJson, SeatStack, TableReport
from tests.tournament.pots import pots_for
from tests.tournament.test_registration import Hands, _director


def _chips_add_up(d: object) -> None:
    from firmware_py.room.director import Director  # noqa: PLC0415

    assert isinstance(d, Director)
    bought = sum(a.chips for a in d.actions if a.kind in ("rebuy", "add-on") and not a.undone)
    assert d.tournament.total_chips() == d.tournament.entrants * d.tournament.stack + bought


def test_a_busted_player_re_enters_as_a_new_entry_with_a_new_seat_by_draw() -> None:
    d = _director(players=10)
    hands = Hands(d)
    loser_seat = sorted(d.tournament.tables["t01"].seats)[0]
    busted = d.tournament.tables["t01"].seats[loser_seat]
    hands.play("t01", losers=[loser_seat])
    assert d.tournament.players[busted].place == 10
    again = d.register("", person=busted)
    assert again.kind == "re-entry" and again.player != busted and again.person == busted and again.paid == 100
    new = d.tournament.players[again.player]
    assert new.name == d.tournament.players[busted].name and new.table is not None and new.chips == 1000
    assert d.tournament.players[busted].place == 11  # the first entry keeps its own place, below the new entry
    state = d.state()
    assert state.entrants == 11 and state.pool == 1100
    assert any(x.kind == "seated" and "(re-entry of P" in x.text for x in state.decisions)
    with pytest.raises(ValueError, match="has an entry in play already"):
        d.register("", person=busted)
    _chips_add_up(d)
    # out again: the structure allows one re-entry
    table = d.tournament.tables[new.table]
    seat = next(s for s, p in table.seats.items() if p == again.player)
    hands.play(new.table, losers=[seat])
    with pytest.raises(ValueError, match="has re-entered 1 time: the structure allows 1"):
        d.register("", person=again.player)
    with pytest.raises(ValueError, match="a re-entry is of a busted entry"):
        d.register("", person=sorted(d.tournament.tables["t02"].seats.values())[0])


def test_a_rebuy_at_or_below_the_starting_stack_within_its_levels_and_limit() -> None:
    d = _director(players=10)
    hands = Hands(d)
    t01 = d.tournament.tables["t01"]
    a, b = sorted(t01.seats)[:2]
    pa, pb = t01.seats[a], t01.seats[b]
    hands.play("t01")
    d.tournament.players[pa].chips, d.tournament.players[pb].chips = 600, 1400  # as a hand would leave them
    rebuy = d.rebuy(pa)
    assert rebuy.kind == "rebuy" and rebuy.chips == 1000 and rebuy.paid == 100
    assert d.tournament.players[pa].chips == 1600 and d.state().pool == 1100
    with pytest.raises(ValueError, match="has 1,600 chips: a rebuy is taken at or below 1,000"):
        d.rebuy(pa)
    with pytest.raises(ValueError, match="a rebuy is for a player in play"):
        d.rebuy("p9999")
    d.sim_t = 31 * 60  # level 3: rebuys end with level 2
    d.tournament.players[pb].chips = 900
    with pytest.raises(ValueError, match="no rebuy now: the structure late-test takes them through level 2"):
        d.rebuy(pb)


def test_the_rebuy_limit() -> None:
    d = _director(players=10)
    pid = d.tournament.tables["t01"].seats[sorted(d.tournament.tables["t01"].seats)[0]]
    player = d.tournament.players[pid]
    for _ in range(2):
        player.chips = 500
        d.rebuy(pid)
        player.chips -= 1000
    with pytest.raises(ValueError, match="has made 2 rebuys: the structure allows 2"):
        d.rebuy(pid)


def test_a_hand_dealt_before_the_rebuy_reached_the_table_is_taken_as_played_behind() -> None:
    d = _director(players=10)
    t01 = d.tournament.tables["t01"]
    seats = sorted(t01.seats)
    pid = t01.seats[seats[0]]
    before = {s: d.tournament.players[p].chips for s, p in t01.seats.items()}
    d.rebuy(pid)  # 1,000 on a 1,000 stack, while the table deals hand 1 from the stacks before it
    end = dict(before)
    end[seats[0]] -= 100
    end[seats[1]] += 100
    d.apply(TableReport(v=1, room="main", table="t01", session="s", seq=1, kind="hand", hand=1, t=30.0, draw=1,
                        button=seats[0], big_blind=seats[2],
                        start=[SeatStack(seat=s, chips=c) for s, c in sorted(before.items())],
                        end=[SeatStack(seat=s, chips=c) for s, c in sorted(end.items())],
                        pots=msgspec.convert(pots_for(before, end), list[PotJson])))
    assert d.tournament.players[pid].chips == 900 + 1000  # the hand's result, then the rebuy's chips
    _chips_add_up(d)
    # the next hand starts from the director's chips, rebuy included: taken as it comes
    hands = Hands(d)
    hands.seq["t01"] = 1
    hands.play("t01")
    assert d.tournament.players[pid].chips == 1900


def test_the_add_on_is_taken_at_the_first_break_once_a_player() -> None:
    d = _director(players=10)
    pid = d.tournament.tables["t01"].seats[sorted(d.tournament.tables["t01"].seats)[0]]
    with pytest.raises(ValueError, match="no add-on now"):
        d.add_on(pid)
    d.sim_t = 21 * 60  # the break after level 2
    assert "the add-on of 2,000 (this break)" in d.state().late
    add_on = d.add_on(pid)
    assert add_on.chips == 2000 and d.tournament.players[pid].chips == 3000
    with pytest.raises(ValueError, match="has made 1 add-on: the structure allows 1"):
        d.add_on(pid)
    _chips_add_up(d)
    d.undo(add_on.n)  # its table has dealt no hand since: taken back, paid back
    assert d.tournament.players[pid].chips == 1000 and d.state().pool == 1000
    d.add_on(pid)
    Hands(d).play(d.tournament.players[pid].table or "")
    last = d.actions[-1]
    with pytest.raises(ValueError, match="has been played with already: it stands"):
        d.undo(last.n)
    _chips_add_up(d)
