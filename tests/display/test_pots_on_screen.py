"""The pots on both screens are the core's pots: chips nobody called go back (no side pot), every
pot's winner is named, and between hands no one is labelled "sitting out"."""

from __future__ import annotations

from dataclasses import replace

from display.display_config import DisplayConfig
from display.venue import absence, pot_text, seat_label
from display.widgets import result_line
from firmware_py.core import RulingKind
from firmware_py.core.chips import Pot
from firmware_py.core.rulings import Ruling
from firmware_py.core.snapshot import PlayerState, SeatView
from tests.rules.table_driver import Table


def _seat_4_raises(seat_1: str) -> Table:
    """Seat 4 raises to 8,000; seat 1 does `seat_1`; seat 2 is all in for 3,000; seat 3 folds."""
    t = Table("robert")
    t.level(100, 200)
    t.stacks(s1=10000, s2=3000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.bet("raise", 8000)  # seat 4
    t.press(seat_1)  # seat 1
    t.bet("allin")  # seat 2
    t.press("fold")  # seat 3
    return t


def _uncalled_raise() -> Table:
    """5,000 of seat 4's raise is called by no one."""
    return _seat_4_raises("fold")


def test_uncalled_chips_are_returned_not_shown_as_a_side_pot() -> None:
    snapshot = _uncalled_raise().core.snapshot()
    assert snapshot.chips is not None and snapshot.chips.pot == 11200
    assert snapshot.chips.uncalled == 5000 and snapshot.chips.uncalled_seat == 4
    assert [pot.amount for pot in snapshot.chips.contested()] == [6200]
    assert pot_text(snapshot) == "POT 6,200  · 5,000 back to seat 4"  # was "POT 11,200  (6,200 + 5,000)"


def test_a_real_side_pot_is_still_shown() -> None:
    t = _seat_4_raises("call")
    assert pot_text(t.core.snapshot()) == "POT 19,200  (9,200 + 10,000)"


def test_broadcast_result_names_every_pots_winner() -> None:
    config = DisplayConfig(seat_names={2: "Ann", 4: "Bob"}, broadcast_delay_s=60)
    result = Ruling(t=1.0, ruling=RulingKind.SHOWDOWN, rule="robert: The Showdown", remedy="", winners=(2,),
                    pots=(Pot(amount=9200, seats=(1, 2, 4), winners=(2,)),
                          Pot(amount=10000, seats=(1, 4), winners=(4,)),
                          Pot(amount=500, seats=(4,), winners=(4,))))
    assert result_line(result, config) == "Main Ann · Side Bob"  # was "Ann wins"
    one = Ruling(t=1.0, ruling=RulingKind.SHOWDOWN, rule="x", remedy="", winners=(4,),
                 pots=(Pot(amount=9200, seats=(2, 4), winners=(4,)), Pot(amount=500, seats=(4,), winners=(4,))))
    assert result_line(one, config) == "Bob wins"


def test_venue_labels_no_one_sitting_out_between_hands() -> None:
    seated = SeatView(seat=3, state=PlayerState.WAITING, stack=5000)
    assert seat_label(seated, between_hands=True) == ""  # was "sitting out" for every player
    assert seat_label(seated, between_hands=False) == "sitting out"  # not dealt into the hand in play
    assert seat_label(SeatView(seat=3, state=PlayerState.WAITING, stack=0), between_hands=True) == "no chips"


def test_venue_labels_a_drawn_seat_whose_player_card_was_not_read_not_checked_in() -> None:
    """docs/checkin.md: between hands the seat the draw gives an absent player says so; in a hand the seat's own
    state (its hand dead by the book, or folded) says more and goes first."""
    seated = SeatView(seat=4, state=PlayerState.WAITING, stack=5000)
    assert seat_label(seated, between_hands=True, absent="not checked in") == "not checked in"
    assert seat_label(SeatView(seat=4, state=PlayerState.ACTIVE, stack=5000), between_hands=False,
                      absent="not checked in") == "not checked in"
    assert seat_label(SeatView(seat=4, state=PlayerState.DEAD, stack=5000), between_hands=False,
                      absent="not checked in") == "DEAD HAND"
    wrong = replace(_uncalled_raise().core.snapshot(), not_checked_in=(4,), checked_in=((4, "P5"),))
    assert absence(wrong, 4) == "wrong player" and absence(replace(wrong, checked_in=()), 4) == "not checked in"
    assert absence(wrong, 3) == ""


def test_corrections_are_shown_on_the_venue_screen_until_the_next_hand() -> None:
    from firmware_py.core import Stacks  # noqa: PLC0415

    t = _uncalled_raise()
    t.press("undo")  # seat 3's fold taken back
    assert t.core.snapshot().corrections[-1].startswith("undo: took back the fold press")
    t.press("fold")  # seat 3 folds again: seat 4's raise is uncalled but by seat 2's all-in
    t = Table("robert")
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.act("fold", "fold", "fold")  # the big blind takes the blinds
    t.press("hand_end")
    t._feed(Stacks(t=t.tick(), stacks=((1, 12000),), why="rebuy"))
    assert t.core.snapshot().corrections[-1] == "rebuy: seat 1 10,000 to 12,000"
    t.new_hand()
    assert t.core.snapshot().corrections == ()
