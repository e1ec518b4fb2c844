"""The showdown ruling and the broadcast name every hand class the same way (one evaluator names both)."""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind
from firmware_py.odds.chances import best_hands
from tests.rules.table_driver import Table

LOSER = ["Kc", "7h"]  # seat 1: king high or a pair of the board's, never better than the winner below

CASES = [  # seat 2's hole cards, the board, and the name both must give
    (["Ah", "9d"], ["2s", "5c", "8h", "Jd", "3c"], "high card, ace"),
    (["Ah", "Ad"], ["2s", "5c", "8h", "Jd", "3c"], "pair of aces"),
    (["Jh", "8d"], ["2s", "5c", "8h", "Jd", "3c"], "two pair, jacks and eights"),
    (["8d", "8c"], ["2s", "5c", "8h", "Jd", "3c"], "three of a kind, eights"),
    (["4d", "6h"], ["2s", "5c", "8h", "Jd", "3c"], "straight, six high"),
    (["As", "9s"], ["2s", "5s", "8h", "Js", "3c"], "flush, ace high"),
    (["5h", "5d"], ["2s", "5c", "8h", "8d", "3c"], "full house, fives full of eights"),
    (["8s", "8c"], ["2s", "5c", "8h", "8d", "3c"], "four of a kind, eights"),
    (["6s", "9d"], ["2s", "5s", "8h", "4s", "3s"], "straight flush, six high"),
    (["As", "Ks"], ["Ts", "Js", "Qs", "2c", "3d"], "royal flush"),
]


@pytest.mark.parametrize(("hole", "board", "name"), CASES, ids=[case[2] for case in CASES])
def test_the_showdown_2_ruling_and_broadcast_name_the_hand_alike(hole: list[str], board: list[str],
                                                                    name: str) -> None:
    table = Table("robert", seats=(1, 2), button=1)
    table.reserved.update(hole + board + LOSER)
    table.new_hand()
    table.deal([hole[0], LOSER[0], hole[1], LOSER[1]])  # heads-up: the big blind (seat 2) first
    table.act("call", "check")
    table.flop(board[:3])
    table.act("check", "check")
    table.turn(board[3])
    table.act("check", "check")
    table.river(board[4])
    [ruling] = table.act("check", "check")
    assert ruling.ruling is RulingKind.SHOWDOWN and ruling.winners == (2,)
    assert ruling.hand == name
    assert best_hands(table.core.snapshot())[2] == ruling.hand  # what the broadcast panel prints
