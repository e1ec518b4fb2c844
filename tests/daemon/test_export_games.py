"""The other games' hands in PHH: pokerkit replays Pot-Limit Omaha ('PO') and fixed-limit hold'em ('FT') to
the table's stacks; five-card Omaha, which pokerkit cannot express, is refused by name."""

from __future__ import annotations

import pytest

from firmware_py.core.game import GAMES
from firmware_py.daemon.export import NotExportable, hand_history, hand_records
from firmware_py.profiles import load_profiles
from firmware_py.simulation.export_check import check_events, run, session_events
from tests.sessions.make_sessions import record

PROFILES = load_profiles()


def test_two_hundred_simulated_plo_hands_replay_in_pokerkit_to_the_table_stacks() -> None:
    """Issue 21's measure: `python -m firmware_py.simulation.export_check --game omaha --hands 50 --stack 10000`."""
    result = run(50, seed=0, error_rate=0.3, stack=10000, game="omaha")
    assert result.mismatches == []
    assert result.exported >= 200 and result.replayed_right == result.exported
    assert sum(result.refused.values()) == 0


@pytest.mark.parametrize("game", ["omaha", "limit_holdem"])
@pytest.mark.parametrize("profile", ["robert", "upt", "wfp-dealer"])
def test_simulated_hands_of_each_game_end_with_the_table_stacks_in_pokerkit(profile: str, game: str) -> None:
    events = session_events(profile, (1, 2, 3, 4, 5, 6), 20, seed=3, error_rate=0.2, profiles=PROFILES,
                            stack=5000, game=game)
    result = check_events(events, PROFILES)
    assert result.mismatches == [] and result.exported >= 10


@pytest.mark.parametrize(("session", "variant"), [("omaha_betting_robert", "PO"),
                                                  ("limit_holdem_betting_upt", "FT")])
def test_the_example_sessions_export_with_the_games_variant(session: str, variant: str) -> None:
    from pathlib import Path  # noqa: PLC0415

    from firmware_py.session import read_session  # noqa: PLC0415

    lines, _expected, _kinds = record(session)
    path = Path(__file__).resolve().parents[1] / "sessions" / f"{session}.jsonl"
    assert path.read_text() == lines
    events = [event for _line, event in read_session(path)]
    played = [r for r in hand_records(events, PROFILES) if r.played]
    history = hand_history(played[0])
    assert history.variant == variant
    assert len(history.actions[0].split()[-1]) == 2 * GAMES[played[0].game].hole_cards  # d dh p1 AcKd...


def test_five_card_omaha_is_refused_for_export_by_name() -> None:
    events = session_events("robert", (1, 2, 3, 4), 3, seed=1, error_rate=0.0, profiles=PROFILES, stack=5000,
                            game="omaha5")
    played = [r for r in hand_records(events, PROFILES) if r.played]
    assert played
    with pytest.raises(NotExportable, match="Five-Card Pot-Limit Omaha: pokerkit has no variant"):
        hand_history(played[0])


@pytest.mark.parametrize(("short", "raises"), [(50, ("call", "raise")), (20, ("raise",))])
def test_a_fixed_limit_raise_the_books_allow_after_a_short_allin_is_refused_for_export_saying_why(
        short: int, raises: tuple[str, ...]) -> None:
    """Robert's Betting and Raising 6 (tests/rules/test_games.py): all in for half a bet more is a full bet, and
    reopens the betting; less may be completed by a player who has not acted. pokerkit does neither, so such a
    hand is refused, by name, not exported wrong; the same hand without the raise exports."""
    from tests.rules.test_games import _limit_flop  # noqa: PLC0415

    for raised in (raises, ()):
        t = _limit_flop("robert", short=short)
        t.act(*raised)
        for street in (None, t.turn, t.river):
            if street is not None:
                street()
            while t.core.snapshot().to_act is not None:
                t.act("call")  # a call, or a check where nothing is owed
        t.new_hand()  # the hand is over: the next one starts
        played = [r for r in hand_records(t.fed, PROFILES) if r.played and r.ended]  # type: ignore[arg-type]
        assert len(played) == 1
        if raised:
            with pytest.raises(NotExportable, match="half a bet or more as a full bet"):
                hand_history(played[0])
        else:
            assert hand_history(played[0]).variant == "FT"
