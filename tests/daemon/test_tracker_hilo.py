"""Fixed-limit Omaha Hi-Lo played from the tracker's page endpoints through the real daemon: the page offers the
game's fixed sizes, and at the showdown its state names the high and the low winners of the pot."""

from __future__ import annotations

from pathlib import Path

from tests.daemon.test_tracker import _press, _state
from tests.tracker_table import TrackerTable

BOARD = ["Kd", "7c", "4s", "2h", "Qs"]
HANDS = {1: ["Ks", "Kh", "Jd", "Tc"], 2: ["Ac", "3d", "Jh", "Ts"], 3: ["9c", "9d", "8h", "6h"],
         4: ["Qc", "Qh", "5c", "5d"]}


def test_a_fixed_limit_omaha_hilo_hand_pressed_on_the_tracker_splits_the_pot_high_and_low(tmp_path: Path) -> None:
    table = TrackerTable(tmp_path, game="limit_omaha_hilo", profile="robert").start()
    try:
        cookie = table.pair()
        table.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
        burns = ["8c", "8d", "8s"]
        table.arrange([*(HANDS[seat][n] for n in range(4) for seat in (2, 3, 4, 1)),
                       burns[0], *BOARD[:3], burns[1], BOARD[3], burns[2], BOARD[4]])
        table.new_hand()
        state = _state(table, cookie)
        level = table.settle().chips
        assert level is not None and state["legal"]["limit"] == "Fixed-Limit Omaha Hi-Lo"
        for name in ("call", "call", "call", "check"):  # seats 4, 1, 2; the big blind (3) checks
            body = _press(table, cookie, name)[1]
            assert body["verdict"] == "taken", body
        for count, first in ((3, 1), (1, 4), (1, 5)):
            table.street(count, first)
            for _seat in range(4):  # the river's last check: the showdown, ruled
                assert _press(table, cookie, "check")[1]["verdict"] in ("taken", "ruled")
        snapshot = table.settle()
        assert snapshot.showdown is not None
        assert snapshot.showdown.winners == (1,) and snapshot.showdown.low_winners == (2,)
        remedy = snapshot.showdown.remedy
        assert "seat 1 wins the high half" in remedy and "seat 2 wins the low half with 7-4-3-2-A low" in remedy
        pots = _state(table, cookie)["pots"]
        assert [(pot["winners"], pot["low_winners"]) for pot in pots] == [([1], [2])]
    finally:
        table.stop()
