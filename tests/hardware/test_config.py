"""`config/hardware.toml` and its errors: file, section, key and a suggestion."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.core.events import ButtonName
from firmware_py.errors import ConfigError
from hardware.hardware_config import DEFAULT_PATH, load_hardware_config
from tests.config_mistakes import assert_mistakes

GOOD = """
[presence]
debounce_s = 0.05
[presence.shoe]
debounce_s = 0.0
[[reader]]
antenna = "shoe"
bus = 0
device = 0
reset_pin = 25
[panel]
buzzer_pin = 12
[panel.buttons]
fold = 5
misdeal = 23
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "hardware.toml"
    path.write_text(text)
    return path


def test_the_shipped_config_loads():
    config = load_hardware_config(DEFAULT_PATH)
    assert config.reader("shoe") is not None
    assert config.timing_for("shoe").debounce_s == 0.0
    assert config.panel is not None and config.panel.button(ButtonName.MISDEAL).long_press


def test_a_small_config_loads_with_defaults(tmp_path):
    config = load_hardware_config(write(tmp_path, GOOD))
    assert config.readers[0].spi_hz == 1_000_000
    assert config.panel.hold_s == 1.0
    assert config.timing_for("shoe").removal_delay_s == 0.6


@pytest.mark.parametrize(("change", "message"), [
    (("reset_pin = 25", "reset_pn = 25"), r"\[reader shoe\] reset_pn: unknown key \(did you mean 'reset_pin'\?\)"),
    (('antenna = "shoe"', 'antenna = "shoo"'), r"unknown antenna 'shoo' \(did you mean 'shoe'\?\)"),
    (("fold = 5", "flod = 5"), r"\[panel.buttons\] flod: unknown button \(did you mean 'fold'\?\)"),
    (("fold = 5", "fold = 23"), r"\[panel.buttons\] misdeal: GPIO 23 is already used by \[panel.buttons\] fold"),
    (("buzzer_pin = 12", "buzzer_pin = 8"), r"buzzer_pin: GPIO 8 is already used by \[reader shoe\] chip select"),
    (("debounce_s = 0.05", "debounce_s = -1"), r"\[presence\] debounce_s: must be between"),
    (("device = 0", "device = 0\nspi_hz = 20_000_000"), r"spi_hz: must be an SPI clock"),
    (("[presence.shoe]", "[presence.board1]"), r"\[presence.board1\]: no reader senses antenna 'board1'"),
    (("bus = 0", 'bus = "0"'), r"\[reader shoe\] bus: must be an SPI bus number"),
])
def test_a_broken_config_names_file_section_key_and_a_suggestion(tmp_path, change, message):
    path = write(tmp_path, GOOD.replace(*change, 1))
    with pytest.raises(ConfigError, match=message) as info:
        load_hardware_config(path)
    assert str(info.value).startswith(str(path))


def test_two_readers_on_one_chip_select_are_refused(tmp_path):
    text = GOOD + '[[reader]]\nantenna = "burn"\nbus = 0\ndevice = 0\n'
    with pytest.raises(ConfigError, match=r"SPI bus 0 chip select 0 is already \[reader shoe\]"):
        load_hardware_config(write(tmp_path, text))


def test_an_antenna_on_two_sensors_is_refused(tmp_path):
    text = GOOD + '[serial]\nport = "/dev/ttyACM0"\nantennas = ["board1", "shoe"]\n'
    with pytest.raises(ConfigError, match=r"\[serial\] antennas: 'shoe' \(board port 1\) is already sensed"):
        load_hardware_config(write(tmp_path, text))


def test_unreadable_and_invalid_files_say_so(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the hardware config"):
        load_hardware_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_hardware_config(write(tmp_path, "[reader\n"))


def test_an_unknown_top_level_section_is_suggested(tmp_path):
    with pytest.raises(ConfigError, match=r"hardware.toml: readers: unknown key \(did you mean 'reader'\?\)"):
        load_hardware_config(write(tmp_path, GOOD.replace("[[reader]]", "[[readers]]")))


def test_hardware_config_reports_every_bad_value_at_once(tmp_path):
    text = (GOOD.replace("debounce_s = 0.05", 'debounce_s = "0.05"').replace('antenna = "shoe"', 'antenna = "shoo"')
            .replace("buzzer_pin = 12", "buzzer_pin = 12\nhold_s = 99").replace("fold = 5", "flod = 5\nundo = 23"))
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_hardware_config(path)
    assert_mistakes(caught.value, str(path), [
        ("[presence] debounce_s", "write debounce_s = 0.05, without quotes"),
        ("[reader #1] antenna", "did you mean 'shoe'"), ("[panel] hold_s", "between 0.1 and 10"),
        ("[panel.buttons] flod", "did you mean 'fold'"),
        ("[panel.buttons] misdeal", "GPIO 23 is already used by [panel.buttons] undo")])


def test_a_reader_with_a_mistake_is_not_reported_again_as_missing_for_its_antenna(tmp_path):
    # [presence.shoe] names the antenna of the misspelt reader: one mistake, one line
    path = write(tmp_path, GOOD.replace('antenna = "shoe"', 'antenna = "shoo"'))
    with pytest.raises(ConfigError) as caught:
        load_hardware_config(path)
    assert len(str(caught.value).splitlines()) == 1 and "'shoo'" in str(caught.value)


def test_a_hardware_file_with_a_serial_board_and_long_presses_is_still_accepted(tmp_path):
    text = GOOD.replace("buzzer_pin = 12", 'buzzer_pin = 12\nlong_press = ["misdeal"]') + (
        '[serial]\nport = "/dev/ttyACM0"\nbaudrate = 230400\nantennas = ["board1", "board2"]\n')
    config = load_hardware_config(write(tmp_path, text))
    assert config.serial.antennas == ("board1", "board2") and config.serial.baudrate == 230400
    assert config.panel.button("misdeal").long_press and not config.panel.button("fold").long_press
