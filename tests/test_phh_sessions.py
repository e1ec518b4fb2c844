"""The public hands dealt again as sessions (bench/phh_sessions.py): the table must play them as pokerkit did.

The replay benchmark measures the rules core on these sessions against pokerkit playing the PHH
itself; the comparison only holds if the table, given the same cards and keyed amounts, rules on
nothing and ends each hand with the stacks the hand history says.
"""

from __future__ import annotations

import pytest

from bench.phh_sessions import PUBLIC_PHH, convert, load_hands, phh_files, why_not
from firmware_py.core import Stacks
from firmware_py.core.engine import TableCore
from firmware_py.profiles import load_profiles
from firmware_py.session import SessionReader

pytestmark = pytest.mark.skipif(not PUBLIC_PHH.is_dir(), reason=f"no public hand histories at {PUBLIC_PHH}")


def test_public_hands_dealt_again_end_with_the_stacks_pokerkit_gives():
    converted = convert(load_hands(phh_files([PUBLIC_PHH])))
    assert converted.hands >= 400  # the Pluribus sessions (the WSOP hands, at other table sizes: below)
    assert all("ante" in reason or "players at a" in reason for _source, reason in converted.skipped)
    core = TableCore(load_profiles())
    reader = SessionReader()
    histories = iter(converted.histories)
    checked, odd_chip_splits = 0, 0
    kinds: set[str] = set()

    def check_last_hand() -> None:
        nonlocal checked, odd_chip_splits
        chips = core.hand_chips
        assert chips is not None and chips.settled
        expected = sorted(next(histories).finishing_stacks)
        got = sorted(chips.final_stacks().values())
        if got != expected:  # PHH splits an odd chip in halves; the table gives it to one winner
            assert sum(got) == sum(expected) and max(abs(a - b) for a, b in zip(got, expected, strict=True)) <= 1
            odd_chip_splits += 1
        checked += 1

    for line, obj in enumerate(converted.lines, start=1):
        event = reader.parse_object(obj)
        if isinstance(event, Stacks) and core.hand_number:
            check_last_hand()
        outcome = core.feed(event)
        kinds |= {str(ruling.ruling) for ruling in outcome.rulings}
        assert not outcome.notices, (line, obj, outcome.notices)
    check_last_hand()
    assert checked == converted.hands and odd_chip_splits <= 2
    assert kinds <= {"showdown"}


def test_public_big_blind_ante_hands_dealt_again_end_with_the_stacks_pokerkit_gives():
    """The WSOP hands play a big-blind ante (pokerkit's ante of the big blind's position, untrimmed): the
    table posts it as a level's bb_ante and ends every hand with the hand history's stacks."""
    groups: dict[int, list] = {}
    for source, history in load_hands(phh_files([PUBLIC_PHH / "wsop"])):
        if why_not(history) is None:
            groups.setdefault(len(history.starting_stacks), []).append((source, history))
    checked = 0
    for hands in groups.values():
        converted = convert(hands)
        assert any(line.get("bb_ante") for line in converted.lines)
        core = TableCore(load_profiles())
        reader = SessionReader()
        histories = iter(converted.histories)

        for obj in [*converted.lines, None]:  # (None: the last hand's end)
            event = reader.parse_object(obj) if obj is not None else None
            if (event is None or isinstance(event, Stacks)) and core.hand_number:
                chips = core.hand_chips
                assert chips is not None and chips.settled and chips.dead  # the big blind's ante, dead money
                assert sorted(chips.final_stacks().values()) == sorted(next(histories).finishing_stacks)
                checked += 1
            if event is not None:
                outcome = core.feed(event)
                assert {str(ruling.ruling) for ruling in outcome.rulings} <= {"showdown"} and not outcome.notices
    assert checked >= 10
