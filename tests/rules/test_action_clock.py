"""A house's action clock (a profile's optional `[action_clock]`): a clock on every decision, time-extension chips
per player, given back at the levels the house names. No book here has one: a house profile inheriting from its
book adds it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from firmware_py.core import Cause, Level, RulingKind
from firmware_py.errors import ConfigError
from firmware_py.profiles import load_profiles
from tests.rules.table_driver import ROOT, Table

HOUSE = """profile = "house"
title = "A house with an action clock"
parent = "wfp-dealer"

[action_clock]
rule = "House Rules: Action Clock"
seconds = 30
warnings = [10]
countdown = 5
extensions = 2
extension_seconds = 30
reset_levels = [4, 8]
"""


@pytest.fixture(scope="module")
def profiles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("profiles")
    for path in (ROOT / "config" / "profiles").glob("*.toml"):
        shutil.copy(path, folder)
    (folder / "house.toml").write_text(HOUSE)
    return load_profiles(folder)  # type: ignore[return-value]


def _dealt(profiles: dict[str, object]) -> Table:
    t = Table("house", profiles=profiles)
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    return t


def test_the_shipped_books_run_no_action_clock() -> None:
    assert all(profile.action_clock is None for profile in load_profiles().values())


def test_house_action_clock_starts_on_every_decision_with_the_players_extension_chips(profiles) -> None:
    t = _dealt(profiles)
    clock = t.core.snapshot().clock
    assert clock is not None and clock.action and (clock.seat, clock.seconds, clock.extensions_left) == (4, 30, 2)
    assert clock.rule == "house: House Rules: Action Clock"
    t.act("call")
    clock = t.core.snapshot().clock
    assert clock is not None and clock.seat == 1 and clock.started_t == t.t  # the next decision's own clock


def test_house_action_clock_runs_out_as_the_book_says_dead_facing_a_bet(profiles) -> None:
    t = _dealt(profiles)
    rulings = t.wait(31)
    assert [(r.ruling, r.cause, r.seat) for r in rulings] == [(RulingKind.DEAD_HAND, Cause.CLOCK_EXPIRED, 4)]
    clock = t.core.snapshot().clock
    assert clock is not None and clock.seat == 1 and clock.action  # and on to the next player's decision


def test_house_time_extension_chip_adds_its_seconds_and_runs_out(profiles) -> None:
    t = _dealt(profiles)
    t.wait(20)
    t.press("extend")
    clock = t.core.snapshot().clock
    assert clock is not None and clock.seconds == 60 and clock.extensions_left == 1
    assert t.wait(20) == []  # past the 30 seconds: extended
    t.press("extend")
    t.press("extend")  # none left
    assert any("no time-extension chip left" in n for n in t.notices)
    assert t.core.snapshot().clock.extensions_left == 0  # type: ignore[union-attr]


def test_house_extension_chips_are_given_back_at_the_levels_the_house_names(profiles) -> None:
    t = _dealt(profiles)
    t.press("extend")
    t.press("extend")
    t.act("call")
    assert t.core.snapshot().clock.extensions_left == 2  # type: ignore[union-attr]  (seat 1's own chips)
    t._feed(Level(t=t.tick(), small=200, big=400, number=3))
    t.act("fold", "fold", "fold")  # seat 1, 2, 3: hand over
    t.press("hand_end")
    t.fresh_deck()
    t.new_hand()
    t.deal()
    snap = t.core.snapshot()
    assert snap.clock is not None and snap.clock.seat == 1  # seat 4 spent both
    t._feed(Level(t=t.tick(), small=300, big=600, number=4))  # a reset level
    t.act("fold", "fold", "fold")
    t.press("hand_end")
    t.fresh_deck()
    t.new_hand()
    t.deal()
    for _ in range(3):
        clock = t.core.snapshot().clock
        assert clock is not None
        if clock.seat == 4:
            break
        t.act("fold")
    clock = t.core.snapshot().clock
    assert clock is not None and clock.seat == 4 and clock.extensions_left == 2


def test_a_house_action_clock_missing_a_key_names_the_file_and_key(tmp_path: Path) -> None:
    for path in (ROOT / "config" / "profiles").glob("*.toml"):
        shutil.copy(path, tmp_path)
    (tmp_path / "house.toml").write_text(HOUSE.replace("extensions = 2\n", ""))
    with pytest.raises(ConfigError, match=r"house.toml: action_clock.extensions: missing"):
        load_profiles(tmp_path)
