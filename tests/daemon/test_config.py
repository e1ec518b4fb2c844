"""A broken table config stops the daemon before it touches anything, naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.daemon.table_config import load_table_config
from firmware_py.errors import ConfigError
from tests.config_mistakes import assert_mistakes
from tests.daemon.conftest import ROOT, run_daemon

GOOD = (ROOT / "config" / "table.toml").read_text()


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    # Paths in the file are relative to it: point them at the repository's config.
    text = text.replace('"decks/', f'"{ROOT}/config/decks/').replace('"hardware.toml"',
                                                                      f'"{ROOT}/config/hardware.toml"')
    text = text.replace('profiles = "profiles"', f'profiles = "{ROOT}/config/profiles"')
    path.write_text(text)
    return path


def test_the_shipped_table_config_is_valid():
    config = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    assert config.game.profile in config.profiles and config.game.button in config.game.seats


def test_daemon_with_an_unknown_key_exits_naming_file_key_and_suggestion(tmp_path):
    path = _write(tmp_path, GOOD.replace("seats = [", "seets = ["))
    journal = tmp_path / "journal.sqlite3"
    result = run_daemon("--config", str(path), "--journal", str(journal), "--headless", timeout=30)
    assert result.returncode == 2
    assert str(path) in result.stderr and "seets" in result.stderr and "did you mean 'seats'" in result.stderr
    assert not journal.exists()  # nothing was touched


@pytest.mark.parametrize(("change", "words"), [
    (('profile = "robert"', 'profile = "robrt"'), ["[table] profile", "did you mean 'robert'"]),
    (("button = 1 ", "button = 9 "), ["[table] button", "not one of the occupied seats"]),
    (('view = "venue"', 'veiw = "venue"'), ["[display] veiw", "did you mean 'view'"]),
    (('in_play = "test-red"', 'in_play = "test-rde"'), ["[table] in_play", "did you mean 'test-red'"]),
    (("[display]", "[dispaly]"), ["[dispaly]", "did you mean 'display'"]),
    (("size = [800, 480]", "size = [800]"), ["[display] size"]),
    (('"decks/test-blue.json"', '"decks/nope.json"'), ["[table] decks", "nope.json"]),
])
def test_each_bad_value_names_the_file_and_the_key(tmp_path, change, words):
    path = _write(tmp_path, GOOD.replace(*change))
    assert GOOD.replace(*change) != GOOD
    with pytest.raises(ConfigError) as caught:
        load_table_config(path, with_display=True)
    message = str(caught.value)
    assert str(path) in message
    for word in words:
        assert word in message


def test_a_broken_hardware_file_is_named_by_its_own_path(tmp_path):
    hardware = tmp_path / "hardware.toml"
    text = (ROOT / "config" / "hardware.toml").read_text()
    hardware.write_text(text.replace("debounce_s = 0.03", "debounnce_s = 0.03"))
    path = _write(tmp_path, GOOD.replace('hardware = "hardware.toml"', f'hardware = "{hardware}"'))
    with pytest.raises(ConfigError, match=r"hardware\.toml.*debounnce_s.*did you mean 'debounce_s'"):
        load_table_config(path, with_display=False)


def test_table_config_reports_every_bad_value_at_once(tmp_path):
    text = (GOOD.replace('profile = "robert"', 'profile = "robrt"').replace("button = 1 ", "button = 9 ")
            .replace('view = "venue"', 'view = "venu"').replace("size = [800, 480]", 'size = "800x480"')
            + '\n[chips]\nstarting_stack = "1500"\n')
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_table_config(path, with_display=True)
    assert_mistakes(caught.value, str(path), [
        ("[table] profile", "did you mean 'robert'"), ("[table] button", "occupied seats [1, 2, 3, 4, 5, 6]"),
        ("[display] view", "did you mean 'venue'"), ("[display] size", "e.g. size = [800, 480]"),
        ("[chips] starting_stack", "write starting_stack = 1500, without quotes")])


def test_table_config_names_a_wrong_key_once_not_the_keys_that_depend_on_it(tmp_path):
    # one seat only: the button cannot be checked against it, and is not reported as a second mistake
    path = _write(tmp_path, GOOD.replace("seats = [1, 2, 3, 4, 5, 6]", "seats = [1]"))
    with pytest.raises(ConfigError) as caught:
        load_table_config(path, with_display=False)
    assert str(caught.value).splitlines() == [
        f"{path}: [table] seats: must list at least two occupied seats, e.g. [1, 2, 3], not [1]"]


def test_table_config_with_every_section_right_is_still_accepted(tmp_path):
    text = GOOD + '\n[journal]\npath = "state/j.sqlite3"\n\n[chips]\nstarting_stack = 1500\n'
    config = load_table_config(_write(tmp_path, text), with_display=True)
    assert config.starting_stack == 1500 and config.schedule.blind_levels[2].ante == 25
    assert config.journal_path == tmp_path / "state" / "j.sqlite3" and config.screen.view == "venue"


def test_table_game_names_the_game_dealt(tmp_path):
    path = _write(tmp_path, GOOD.replace('# game = "omaha"', 'game = "omaha"'))
    assert load_table_config(path, with_display=False).game.game == "omaha"
    assert load_table_config(_write(tmp_path, GOOD), with_display=False).game.game == "holdem"


def test_an_unknown_table_game_names_the_key_and_a_suggestion(tmp_path):
    path = _write(tmp_path, GOOD.replace('# game = "omaha"', 'game = "omah"'))
    with pytest.raises(ConfigError) as caught:
        load_table_config(path, with_display=False)
    assert str(path) in str(caught.value) and "[table] game" in str(caught.value)
    assert "did you mean 'omaha'" in str(caught.value)


def test_the_chips_in_play_reach_the_core_with_the_setup(tmp_path):
    """`[chips] denominations`: the table splits every pot in the smallest (Ties: "An odd chip will be broken down
    to the smallest unit used in the game"); the setup line carries them."""
    text = GOOD + '\n[chips]\nstarting_stack = 1500\ndenominations = [100, 25, 500, 1000]\n'
    config = load_table_config(_write(tmp_path, text), with_display=False)
    assert config.game.denominations == (25, 100, 500, 1000)
    assert load_table_config(_write(tmp_path, GOOD), with_display=False).game.denominations == ()


@pytest.mark.parametrize(("chips", "words"), [
    ("starting_stack = 1513\ndenominations = [25, 100]",
     ["[chips] starting_stack", "1,513 is no whole number of the smallest chip in play, 25", "starting_stack = 1500"]),
    ("starting_stack = 1500\ndenominations = [25, 10]",
     ["[chips] denominations", "the 25 chip is not a whole number of the smallest, 10"]),
    ('starting_stack = 1500\ndenominations = ["25", 100]',
     ["[chips] denominations", "each a whole number above zero", "e.g. denominations = [25, 100, 500, 1000, 5000]"]),
    ("starting_stack = 1500\ndenominations = [50, 100]",  # the shipped schedule's first level is 25/50
     ["[display] blind_levels level 1: small 25 is no whole number of the smallest chip in play, 50"]),
    ("starting_stack = 1500\ndenomination = [25, 100]", ["[chips] denomination", "did you mean 'denominations'"]),
])
def test_chips_in_play_that_cannot_make_a_stack_or_a_blind_name_the_file_and_the_key(tmp_path, chips, words):
    path = _write(tmp_path, GOOD + f"\n[chips]\n{chips}\n")
    with pytest.raises(ConfigError) as caught:
        load_table_config(path, with_display=False)
    message = str(caught.value)
    assert str(path) in message
    for word in words:
        assert word in message, message
