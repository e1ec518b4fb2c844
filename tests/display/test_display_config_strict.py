"""The `[display]` table is validated strictly: a quoted number or a true where minutes go is refused,
naming the file, the section, the key and how to write it; every mistake is reported at once."""

from __future__ import annotations

import pytest

from display.display_config import BlindLevel, DisplayConfig
from firmware_py.daemon.table_config import load_table_config
from firmware_py.errors import ConfigError
from tests.daemon.test_config import GOOD, _write


def _levels(**row: object) -> dict[str, object]:
    return {"blind_levels": [{"small": 25, "big": 50, "minutes": 20, **row}]}


@pytest.mark.parametrize(("row", "words"), [
    ({"small": "25"}, ["[display.blind_levels #1] small", "whole number of chips, not '25'",
                       "write small = 25, without quotes"]),
    ({"minutes": True}, ["[display.blind_levels #1] minutes", "number of minutes above 0", "minutes = 20"]),
    ({"ante": 2.5}, ["[display.blind_levels #1] ante", "whole number of chips, not 2.5"]),
    ({"antes": 25}, ["[display.blind_levels #1] antes", "unknown key (did you mean 'ante'?)"]),
])
def test_a_blind_level_of_the_wrong_type_is_refused_with_file_key_and_suggestion(row, words):
    with pytest.raises(ConfigError) as caught:
        DisplayConfig.from_mapping(_levels(**row), source="table.toml")
    message = str(caught.value)
    assert message.startswith("table.toml: ")
    for word in words:
        assert word in message


def test_every_display_mistake_is_reported_at_once():
    data = {"blind_levels": [{"small": "25", "big": 50, "minutes": True}],
            "seat_names": {"1": 7}, "allow_zero_delay": "yes"}
    with pytest.raises(ConfigError) as caught:
        DisplayConfig.from_mapping(data, source="table.toml")
    lines = str(caught.value).splitlines()
    assert len(lines) == 4
    assert all(line.startswith("table.toml: [display") for line in lines)
    assert any("seat_names 1" in line for line in lines) and any("allow_zero_delay" in line for line in lines)


def test_a_good_display_table_still_reads_as_before():
    config = DisplayConfig.from_mapping({"seat_names": {"3": "Ada"}, "broadcast_delay_minutes": 1,
                                         **_levels(ante=5)}, source="table.toml")
    assert config.name(3) == "Ada" and config.broadcast_delay_s == 60
    assert config.blind_levels == (BlindLevel(small=25, big=50, minutes=20.0, ante=5),)


@pytest.mark.parametrize(("change", "words"), [
    (("{ small = 25, big = 50, minutes = 20 }", '{ small = "25", big = 50, minutes = 20 }'),
     ["[display.blind_levels #1] small", "without quotes"]),
    (("{ small = 50, big = 100, minutes = 20 }", "{ small = 50, big = 100, minutes = true }"),
     ["[display.blind_levels #2] minutes", "minutes = 20"]),
])
def test_the_table_file_refuses_a_quoted_blind_and_minutes_true(tmp_path, change, words):
    assert GOOD.replace(*change) != GOOD
    path = _write(tmp_path, GOOD.replace(*change))
    with pytest.raises(ConfigError) as caught:
        load_table_config(path, with_display=True)
    message = str(caught.value)
    assert message.startswith(str(path))
    for word in words:
        assert word in message


def test_blind_levels_take_a_big_blind_ante_and_refuse_it_with_an_ante() -> None:
    config = DisplayConfig.from_mapping({"blind_levels": [{"small": 100, "big": 200, "bb_ante": 200, "minutes": 20}]})
    assert config.level_at(0.0).level.stakes.label() == "100/200 BB ante 200"
    with pytest.raises(ConfigError, match="bb_ante"):
        DisplayConfig.from_mapping({"blind_levels": [{"small": 1, "big": 2, "ante": 1, "bb_ante": 2, "minutes": 5}]})
