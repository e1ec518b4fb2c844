"""The core's state is its own: callers read snapshots and a few read-only accessors, and only `feed` changes it."""

from __future__ import annotations

import pytest

from tests.rules.table_driver import Table


def test_the_core_keeps_no_public_state() -> None:
    t = Table("robert")
    t.new_hand()
    t.deal()
    assert [name for name in vars(t.core) if not name.startswith("_")] == []


def test_the_accessors_read_the_hand_and_cannot_be_written() -> None:
    t = Table("robert")
    t.new_hand()
    t.deal()
    core = t.core
    assert core.hand_number == 1 and core.profile is not None and core.profile.name == "robert"
    assert core.live_seats() == core.seats_able_to_act() == (2, 3, 4, 1)  # deal order: left of the button first
    t.act("fold")  # seat 4, first after the big blind
    assert core.live_seats() == (2, 3, 1) and core.round_actions == 1
    assert core.card(t.uid("As")) == "As" and core.card("no such tag") is None
    for name in ("t", "profile", "hand_number", "unconfirmed", "level", "hand_chips", "round_actions"):
        with pytest.raises(AttributeError):
            setattr(core, name, None)
