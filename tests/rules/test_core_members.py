"""The enum members the core asks at every event are also module constants (phase.py says why): each
constant is its member, and every member of those enums has one."""

from __future__ import annotations

from enum import Enum
from types import ModuleType

import pytest

from firmware_py.core import events, game, phase, rulings, vocab

BOUND: list[tuple[ModuleType, type[Enum]]] = [
    (phase, phase.Phase), (vocab, vocab.Where), (rulings, rulings.Street), (events, events.ButtonName),
    (game, game.HandRule),
]


@pytest.mark.parametrize(("module", "enum"), BOUND, ids=lambda value: getattr(value, "__name__", ""))
def test_every_member_is_a_module_constant_of_its_enums_module(module: ModuleType, enum: type[Enum]) -> None:
    for member in enum:
        assert vars(module).get(member.name) is member, f"{module.__name__}.{member.name} is not {member!r}"

