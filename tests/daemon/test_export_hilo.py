"""Omaha Hi-Lo's hands in PHH: pokerkit replays fixed-limit Omaha Hi-Lo ('FO/8') to the table's stacks, its split
pots included; the pot-limit game, which pokerkit's hand histories cannot express, is refused by name."""

from __future__ import annotations

import pytest

from firmware_py.core.engine import TableCore
from firmware_py.core.rulings import RulingKind
from firmware_py.daemon.export import NotExportable, hand_history, hand_records
from firmware_py.profiles import load_profiles
from firmware_py.simulation.export_check import check_events, session_events

PROFILES = load_profiles()


@pytest.mark.parametrize("profile", ["robert", "rpl", "wfp"])
def test_simulated_fixed_limit_omaha_hilo_hands_end_with_the_table_stacks_in_pokerkit(profile: str) -> None:
    events = session_events(profile, (1, 2, 3, 4, 5, 6), 20, seed=5, error_rate=0.1, profiles=PROFILES,
                            stack=5000, game="limit_omaha_hilo")
    core = TableCore(PROFILES)
    split = [ruling for event in events for ruling in core.feed(event).rulings
             if ruling.ruling is RulingKind.SHOWDOWN and ruling.low_winners]
    assert split, "no hand split high and low: the check would not cover the low"
    result = check_events(events, PROFILES)
    assert result.mismatches == [] and result.exported >= 15 and result.replayed_right == result.exported
    assert sum(result.refused.values()) == 0


def test_a_low_winner_is_among_the_exported_hands_winners() -> None:
    events = session_events("robert", (1, 2, 3, 4, 5, 6), 20, seed=5, error_rate=0.0, profiles=PROFILES,
                            stack=5000, game="limit_omaha_hilo")
    core = TableCore(PROFILES)
    lows = [set(r.low_winners) - set(r.winners or ()) for e in events for r in core.feed(e).rulings
            if r.ruling is RulingKind.SHOWDOWN and r.low_winners]
    assert any(lows), "no hand where the low went to another seat than the high"
    records = [r for r in hand_records(events, PROFILES) if r.played and r.winners]
    histories = [hand_history(r) for r in records]
    assert all(h.variant == "FO/8" for h in histories)
    assert any(set(h.user_defined_fields["_winners"]) >= low for h in histories for low in lows if low)


def test_pot_limit_omaha_hilo_is_refused_for_export_by_name() -> None:
    events = session_events("robert", (1, 2, 3, 4), 3, seed=1, error_rate=0.0, profiles=PROFILES, stack=5000,
                            game="omaha_hilo")
    played = [r for r in hand_records(events, PROFILES) if r.played]
    assert played
    with pytest.raises(NotExportable, match=r"Pot-Limit Omaha Hi-Lo: pokerkit has no variant for it \(its hand "
                                            r"histories' games are FT, NT, NS, PO, FO/8, "):
        hand_history(played[0])
