"""The simulated table resumes where it stopped: after a SIGKILL the dealer carries on from the act after
the last one journaled, with the board's cards still lying there, and the session's rulings are those of
an unkilled run. The 200-kill measure: bench/sim_kills.py."""

from __future__ import annotations

import subprocess

from bench.sim_kills import ROOT, _command, _env, killed_session, rulings_of
from firmware_py.core import Gone, Read
from firmware_py.simulation.simulated_table import Act, align, expected_keys, lying_cards

BOARD = frozenset({"board1", "board2", "board3"})


def _acts() -> list[Act]:
    return [Act(t=1.0, hand=1, kind="read", antenna="shoe", uid="A1"),
            Act(t=2.0, hand=1, kind="read", antenna="board3", uid="A1"),
            Act(t=3.0, hand=1, kind="press", button="check"),
            Act(t=4.0, hand=1, kind="read", antenna="board3", uid="A1"),  # put back where it lies: silent
            Act(t=5.0, hand=1, kind="press", button="check"),
            Act(t=6.0, hand=1, kind="clear"),
            Act(t=7.0, hand=2, kind="read", antenna="board3", uid="A1")]  # after the clear: read again


def test_a_card_put_back_where_it_lies_is_expected_to_record_nothing():
    keys = expected_keys(_acts(), BOARD)
    assert keys[3] is None and keys[1] == ("read", "board3", "A1") and keys[6] == ("read", "board3", "A1")


def test_align_carries_on_past_a_silent_act():
    from firmware_py.core import Button, ButtonName  # noqa: PLC0415

    journaled = [Read(t=1.0, antenna="shoe", uid="A1"), Read(t=2.0, antenna="board3", uid="A1"),
                 Button(t=3.0, name=ButtonName.CHECK), Button(t=5.0, name=ButtonName.CHECK)]
    assert align(_acts(), journaled, stays=BOARD) == (5, 0)


def test_the_cards_lying_on_the_board_come_from_the_journal():
    journaled = [Read(t=1.0, antenna="board1", uid="A"), Read(t=2.0, antenna="board2", uid="B"),
                 Gone(t=3.0, antenna="board1", uid="A"), Read(t=4.0, antenna="shoe", uid="C")]
    assert lying_cards(journaled, BOARD) == {"board2": ["B"]}


def test_seed_5_killed_in_hand_3_around_a_silent_act_rules_as_the_unkilled_run(tmp_path):
    reference = tmp_path / "reference.sqlite3"
    subprocess.run(_command(reference, 5, 4), cwd=ROOT, env=_env(), capture_output=True, check=True, timeout=120)
    # Events 131 and 136: the card lands on board3, then is put back there (hand 3, premature flop redealt).
    got = killed_session(tmp_path, 5, 4, [133, 150])
    assert got == rulings_of(reference)
