"""The one config toolkit: "did you mean", sections that track the keys read, all unknown keys at once."""

from __future__ import annotations

import pytest

from firmware_py.config_toolkit import Section, did_you_mean
from firmware_py.errors import ConfigError


def test_did_you_mean_suggests_the_closest_known_word_or_nothing():
    assert did_you_mean("seets", ["button", "seats"]) == " (did you mean 'seats'?)"
    assert did_you_mean("zzzz", ["button", "seats"]) == ""


def test_a_section_refuses_every_key_it_never_read_naming_file_section_and_key():
    section = Section("hw.toml", "panel", {"hold_s": 1.0, "hodl_s": 2, "beeps": 1})
    assert section.number("hold_s", 0.5) == 1.0
    with pytest.raises(ConfigError) as caught:
        section.finish(extra=("beep_s",))
    assert str(caught.value).splitlines() == [
        "hw.toml: [panel] hodl_s: unknown key (did you mean 'hold_s'?)",
        "hw.toml: [panel] beeps: unknown key (did you mean 'beep_s'?)",
    ]


def test_a_section_with_known_keys_refuses_the_others_at_once():
    with pytest.raises(ConfigError, match=r"^t.toml: \[room\] brokr: unknown key \(did you mean 'broker'\?\)$"):
        Section("t.toml", "room", {"brokr": "x"}, ("broker", "room"))
    with pytest.raises(ConfigError, match=r"\[room\]: must be a table"):
        Section("t.toml", "room", 3, ("broker",))
