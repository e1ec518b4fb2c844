"""Found by the simulated tournament: a big blind all in for less than the small blind, and the small blind
folds. The small blind's chips above the big blind's all in were called by no one: they go back to it
(WFP Tournament 15, UPT Tournaments 19: the short blind gets action on what is left; no pot is left
without a player to take it)."""

from __future__ import annotations

import pytest

from tests.rules.table_driver import Table


@pytest.mark.parametrize("profile", ["wfp", "upt", "rpl"])
def test_wfp_tournament_15_short_big_blind_wins_when_the_small_blind_folds_heads_up(profile: str) -> None:
    t = Table(profile, seats=(1, 4), button=4)
    t.level(1000, 2000)
    t.stacks(s1=500, s4=9000)
    t.new_hand()
    t.deal()
    t.press("fold", 4)
    snap = t.core.snapshot()
    assert snap.seat(1).stack == 1000 and snap.seat(4).stack == 8500
    assert sum(v.stack or 0 for v in snap.seats) == 9500


def test_short_big_blind_wins_when_everyone_folds_three_handed() -> None:
    t = Table("wfp", seats=(1, 2, 3), button=1)
    t.level(1000, 2000)
    t.stacks(s1=9000, s2=9000, s3=400)
    t.new_hand()
    t.deal()
    t.press("fold", 1)
    t.press("fold", 2)
    snap = t.core.snapshot()
    assert snap.seat(3).stack == 800 and snap.seat(2).stack == 8600 and snap.seat(1).stack == 9000
