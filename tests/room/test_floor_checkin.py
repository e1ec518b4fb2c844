"""The floor sees a check-in ruling (docs/checkin.md) as any other: the schema takes the new causes and kind, the
tile counts it, and the open ruling names the seat and the rule."""

from __future__ import annotations

from firmware_py.core import Cause, Ruling, RulingKind
from firmware_py.room.floor import FloorModel
from tests.room.samples import message


def _ruling(seq: int, ruling: Ruling) -> dict[str, object]:
    return message("ruling", "t07", seq, session="abc", n=seq, dealer="Ana", ruling=ruling.to_json())


def test_a_player_in_the_wrong_seat_reaches_the_floor_as_a_ruling_with_its_cite() -> None:
    model = FloorModel("main")
    wrong = Ruling(t=9.0, ruling=RulingKind.DEAD_HAND, cause=Cause.WRONG_SEAT, seat=5,
                   rule="wfp: Tournament Procedures 8, 10", remedy="Seat 5's player is not at seat 5 (P5 checked in at "
                   "seat 4): ... The hand at seat 5 is dead.")
    absent = Ruling(t=9.0, ruling=RulingKind.PLAYER_ABSENT, cause=Cause.NOT_CHECKED_IN, seat=3,
                    rule="robert: Misdeals 1(i), (j)", remedy="Seat 3's player is not at the seat: the hand plays.")
    model.feed("pokertable/main/t07/ruling", _ruling(1, wrong), now=0.0)
    model.feed("pokertable/main/t07/ruling", _ruling(2, absent), now=0.0)
    assert model.quarantined == 0
    view = model.table("t07")
    assert view is not None and view.irregularities_seen == 2
    state = message("state", "t07", 3, session="abc", status="preflop",
                    open_rulings=[wrong.to_json()])
    model.feed("pokertable/main/t07/state", state, now=0.0)
    assert model.quarantined == 0
    assert [(r["ruling"], r["cause"], r["rule"]) for r in view.open_rulings] == [
        ("dead_hand", "wrong_seat", "wfp: Tournament Procedures 8, 10")]
