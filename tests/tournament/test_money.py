"""Issue 39 item 3: the prize pool and payouts. Each entry pays buy-in and fee, the house takes its fees and rake,
adds the overlay when the guarantee is not met; the payout table's row follows the number of entries (the shipped
standard table, a house's own file), prizes are rounded down to the house's unit with the rest to first place, and
are locked when the money is reached. Money is conserved: collected + overlay == prize pool + fees + rake."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.commands.tournament import ROOT, money_files
from firmware_py.room.director import director_from
from firmware_py.tournament.money import (
    Money,
    MoneyError,
    parse_money,
    parse_payout_table,
    pool,
    round_prizes,
)
from tests.room.test_tournament_room import _args
from tests.tournament.test_registration import Hands

STANDARD = parse_payout_table((ROOT / "config/tournament/payouts/standard.toml").read_text(), "standard.toml")
NIGHTLY = ROOT / "config/tournament/money/nightly.toml"


def _money(**kw: object) -> Money:
    values: dict[str, object] = {"buy_in": 100, "fee": 20, "guarantee": 2000, "unit": 5, "table": STANDARD}
    values.update(kw)
    return Money(**values)  # type: ignore[arg-type]


def test_a_guarantee_not_met_is_made_up_by_the_overlay_and_the_money_adds_up() -> None:
    p = pool(_money(), entries=12)
    assert (p.collected, p.fees, p.rake, p.overlay, p.prize_pool) == (1440, 240, 0, 800, 2000)
    assert p.prizes == (1000, 600, 400) and p.conserved()
    met = pool(_money(), entries=30, rebuys=4, add_ons=10)
    assert met.overlay == 0 and met.prize_pool == 4400 and met.collected == 4400 + 600 and met.conserved()


def test_the_rake_comes_off_every_buy_in_rebuy_and_add_on() -> None:
    p = pool(_money(rake_percent=10, guarantee=0, rebuy_price=50), entries=20, rebuys=4, add_ons=2)
    assert p.rake == (2000 + 200 + 200) // 10 and p.prize_pool == 2400 - 240 and p.conserved()


def test_prizes_are_rounded_down_to_the_unit_and_the_rest_goes_to_first_place() -> None:
    assert round_prizes(1234, [50, 30, 20], 5) == (619, 370, 245)
    assert round_prizes(1234, [50, 30, 20], 1) == (618, 370, 246)
    prizes = pool(_money(guarantee=0, unit=25), entries=47).prizes
    assert all(v % 25 == 0 for v in prizes[1:]) and sum(prizes) == 4700 and len(prizes) == 7


def test_the_payout_row_follows_the_number_of_entries() -> None:
    assert STANDARD.percents(5) == (100.0,) and STANDARD.percents(10) == (65.0, 35.0)
    assert len(STANDARD.percents(11)) == 3 and len(STANDARD.percents(1000)) == 16
    for low, high, percents in STANDARD.rows:
        assert abs(sum(percents) - 100) < 1e-9 and len(percents) <= low <= high
    house = parse_payout_table((ROOT / "config/tournament/payouts/house-top3.toml").read_text(), "house-top3.toml")
    assert house.percents(40) == (50.0, 30.0, 20.0)


@pytest.mark.parametrize(("text", "words"), [
    ('[payouts]\nname = "x"\n[[payouts.rows]]\nentries = [2, 9]\npercents = [60, 30]\n',
     "x.toml: [[payouts.rows]] number 1 percents: they add up to 90, not 100"),
    ('[payouts]\nname = "x"\n[[payouts.rows]]\nentries = [2, 9]\npercents = [100]\n'
     '[[payouts.rows]]\nentries = [11, 20]\npercents = [60, 40]\n',
     "x.toml: [[payouts.rows]] number 2 entries: [11, 20] must start at 10"),
    ('[payouts]\nname = "x"\n[[payouts.rows]]\nentires = [2, 9]\npercents = [100]\n',
     "unknown key 'entires' (did you mean 'entries'?)"),
    ('[payouts]\nname = "x"\n[[payouts.rows]]\nentries = [2, 9]\npercents = [30, 70]\n',
     "a place pays less than the place below it"),
])
def test_a_payout_table_that_cannot_be_used_is_refused_naming_the_file_and_key(text: str, words: str) -> None:
    with pytest.raises(MoneyError) as refused:
        parse_payout_table(text, "x.toml")
    assert words in str(refused.value)


def test_a_money_file_names_its_key_and_its_payout_table(tmp_path: Path) -> None:
    with pytest.raises(MoneyError, match=r"m.toml: \[money\] unknown key 'garantee' \(did you mean 'guarantee'\?\)"):
        parse_money("[money]\nbuy_in = 10\ngarantee = 5\n", "m.toml", STANDARD)
    bad = tmp_path / "m.toml"
    bad.write_text('[money]\nbuy_in = 10\npayouts = "nosuch"\n')
    with pytest.raises(ValueError, match=r"payouts = 'nosuch': cannot read .* the shipped tables: house-top3, "
                                         r"standard"):
        money_files(str(bad))
    own = tmp_path / "own.toml"
    own.write_text('[payouts]\nname = "own"\n[[payouts.rows]]\nentries = [2, 1000]\npercents = [70, 30]\n')
    good = tmp_path / "g.toml"
    good.write_text('[money]\nbuy_in = 10\npayouts = "own.toml"\n')
    assert money_files(str(good))["payouts_source"] == str(own)


def _director() -> object:
    from firmware_py.commands.tournament import begin_from  # noqa: PLC0415

    args = _args(profile="upt", tables="2", players=10, seats=6, seed=3, money=str(NIGHTLY),
                 structure=str(ROOT / "config/tournament/house-rebuy.toml"))
    return director_from(begin_from(args, "main", sim_clock=True))


def test_the_director_pays_entries_rebuys_and_add_ons_into_the_pool_and_shows_each_places_prize() -> None:
    from firmware_py.room.director import Director  # noqa: PLC0415

    d = _director()
    assert isinstance(d, Director)
    state = d.state()
    assert state.money is not None and state.money.overlay == 1000 and state.pool == 2000
    assert state.payouts == [1300, 700]  # 10 entries: 65/35 of the guaranteed 2,000
    Hands(d).play("t01")
    entry = d.register("Late")
    assert entry.paid == 120  # buy-in and fee
    pid = next(iter(d.tournament.tables["t01"].seats.values()))
    assert d.rebuy(pid).paid == 100
    money = d.state().money
    assert money is not None
    assert (money.collected, money.fees, money.overlay, money.prize_pool) == (1420, 220, 800, 2000)
    assert money.collected + money.overlay == money.prize_pool + money.fees + money.rake
    assert d.state().payouts == [1000, 600, 400]  # 11 entries: the next row


def test_the_prizes_are_locked_when_the_money_is_reached() -> None:
    from firmware_py.room.director import Director  # noqa: PLC0415

    d = _director()
    assert isinstance(d, Director)
    hands = Hands(d)
    while len(d.tournament.in_play()) > 2:
        table = max(d.tournament.tables.values(), key=lambda t: len(t.seats))
        hands.seq.setdefault(table.id, d.acked.get(table.id, 0))
        chips = d.tournament.players
        hands.play(table.id, losers=[min(table.seats, key=lambda s: chips[table.seats[s]].chips)])
    state = d.state()
    assert state.money is not None and state.money.locked
    assert any(x.kind == "money" and x.text.startswith("In the money: 2 players left, 2 places paid; the prizes are "
                                                         "locked: 1. 1,300, 2. 700") for x in state.decisions)
    with pytest.raises(ValueError, match="the money is reached"):
        d.register("Too late")
    places = {p.place: p.prize for p in state.places}
    assert places[3] == 0 and places.get(10) == 0


def test_the_floor_shows_the_prize_pool_and_each_paid_places_prize() -> None:
    import msgspec  # noqa: PLC0415

    from display.floor import prize_line  # noqa: PLC0415
    from firmware_py.room.director import Director  # noqa: PLC0415

    d = _director()
    assert isinstance(d, Director)
    state = msgspec.to_builtins(d.state())
    assert prize_line(state) == "Prize pool 2,000 (overlay 1,000): 1. 1,300  2. 700"
    assert prize_line({**state, "payouts": []}) == ""
