"""Undo and resume cost the current hand, not the session: the core keeps its state after each of the last
hand boundaries and replays from there; the outcome is the old full replay's, and memory stays flat."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_py.core import Button, ButtonName, Event, Setup, TableSnapshot
from firmware_py.core.engine import UNDO_HANDS, TableCore
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck
from firmware_py.simulation.dealer import DealerBot
from firmware_py.simulation.harness import DECKS

PROFILES = load_profiles()
RED = load_deck(DECKS / "test-red.json")
SEATS = (1, 2, 3, 4, 5, 6)


def _session(hands: int, seed: int = 4, error_rate: float = 0.3) -> list[Event]:
    bot = DealerBot(rng=random.Random(seed), deck=RED, profile=PROFILES["robert"], seats=SEATS, button=1,
                    error_rate=error_rate)
    events: list[Event] = [Setup(t=0.0, profile="robert", seats=SEATS, button=1, decks=(RED,), in_play=RED.name)]
    for hand in bot.session(hands, t=1.0):
        events.extend(hand.events)
    return events


SESSION = _session(12)


def _without_corrections(snapshot: TableSnapshot) -> TableSnapshot:
    """The one trace an undo leaves in the state: the venue screen's line saying what was taken back."""
    return dataclasses.replace(snapshot, corrections=())


def _reference(events: list[Event]) -> TableSnapshot:
    """The old undo: take the last press (not a confirm) out of everything since the start, replay it all."""
    effective: list[Event] = []
    for event in events:
        if isinstance(event, Button) and event.name is ButtonName.UNDO:
            for index in range(len(effective) - 1, -1, -1):
                old = effective[index]
                if isinstance(old, Button) and old.name is not ButtonName.CONFIRM:
                    del effective[index]
                    break
        else:
            effective.append(event)
    core = TableCore(PROFILES)
    for event in effective:
        core.feed(event)
    return dataclasses.replace(core.snapshot(), t=events[-1].t, corrections=())  # the clock of the last press


def _with_undos(points: list[int], doubles: list[bool]) -> list[Event]:
    events = list(SESSION)
    for point, double in sorted(zip(points, doubles, strict=True), reverse=True):
        at = max(1, point % len(events))
        t = events[at - 1].t
        events[at:at] = [Button(t=t, name=ButtonName.UNDO)] * (2 if double else 1)
    return events


@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=6), st.data())
@settings(max_examples=40, deadline=None)
def test_undo_from_the_last_hand_boundary_is_the_full_replay(points: list[int], data: st.DataObject) -> None:
    doubles = data.draw(st.lists(st.booleans(), min_size=len(points), max_size=len(points)))
    events = _with_undos(points, doubles)
    core = TableCore(PROFILES)
    for event in events:
        core.feed(event)
    assert _without_corrections(core.snapshot()) == _reference(events)


def test_undo_of_a_new_hand_press_goes_back_into_the_previous_hand() -> None:
    new_hands = [i for i, e in enumerate(SESSION) if isinstance(e, Button) and e.name is ButtonName.NEW_HAND]
    events = [*SESSION[: new_hands[5] + 1], Button(t=SESSION[new_hands[5]].t, name=ButtonName.UNDO)]
    core = TableCore(PROFILES)
    outcomes = [core.feed(event) for event in events]
    assert "took back the new_hand press" in outcomes[-1].notices[0].message
    assert _without_corrections(core.snapshot()) == _reference(events)


def test_the_undo_history_is_the_last_hands_only() -> None:
    core = TableCore(PROFILES)
    sizes = []
    for event in _session(60):
        core.feed(event)
        sizes.append(len(core._log))
    assert len(core._checkpoints) == UNDO_HANDS
    assert max(sizes[len(sizes) // 2:]) < 3 * max(sizes[: len(sizes) // 4])  # flat, not growing with the session


def test_a_saved_core_restored_carries_on_as_the_original() -> None:
    first, rest = SESSION[:300], SESSION[300:]
    original = TableCore(PROFILES)
    for event in first:
        original.feed(event)
    restored = TableCore(PROFILES)
    restored.restore(pickle.loads(pickle.dumps(original.save())))
    assert restored.snapshot() == original.snapshot()
    for event in [*rest[:40], Button(t=rest[39].t, name=ButtonName.UNDO), *rest[40:]]:
        assert restored.feed(event) == original.feed(event)
    assert restored.snapshot() == original.snapshot()


def test_a_save_of_another_state_layout_is_refused_and_the_core_left_as_it_was() -> None:
    core = TableCore(PROFILES)
    for event in SESSION[:100]:
        core.feed(event)
    before = core.snapshot()
    old_layout = {f"_{key}": value for key, value in core.save().items()}  # the attribute names before the split
    with pytest.raises(ValueError, match="unknown fields"):
        core.restore(old_layout)
    assert core.snapshot() == before  # the daemon replays the journal instead


def test_undo_after_an_unknown_card_is_the_full_replay() -> None:
    from pathlib import Path  # noqa: PLC0415

    from firmware_py.session import read_session  # noqa: PLC0415

    session = Path(__file__).resolve().parents[1] / "sessions" / "unknown_card_rpl.jsonl"
    base = [event for _line, event in read_session(session)]
    second_hand = [*base[1:], Button(t=base[-1].t + 1, name=ButtonName.NEW_HAND)]  # the unknown tag's card is kept
    cuts = [base[:at] for at in range(3, len(base) + 1)] + [[*base, *second_hand[:at]]
                                                            for at in range(3, len(second_hand) + 1)]
    for at, cut in enumerate(cuts):
        events = [*cut, Button(t=cut[-1].t, name=ButtonName.UNDO)]
        core = TableCore(PROFILES)
        for event in events:
            core.feed(event)
        assert _without_corrections(core.snapshot()) == _reference(events), at
