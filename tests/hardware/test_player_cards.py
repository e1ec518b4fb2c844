"""Player cards: enrolled like a deck's cards (the `enroll` command on the emulated table), read back through the
real mfrc522 code against the emulated chip, and the registry file's mistakes named with file, key and a fix."""

from __future__ import annotations

import argparse
import queue
import time
from pathlib import Path

import pytest

from firmware_py.commands import enroll
from firmware_py.core import CheckIn, Read
from firmware_py.errors import ConfigError
from firmware_py.players import PlayerEnrollment, PlayerRegistry, load_players
from firmware_py.session import load_deck
from hardware.emulation.emulated_table import EmulatedTable
from hardware.hardware_config import load_hardware_config
from hardware.rig import start_sensors

ROOT = Path(__file__).resolve().parents[2]
RED = load_deck(ROOT / "config" / "decks" / "test-red.json")
CONFIG = """
[presence]
debounce_s = 0.0
removal_delay_s = 0.3
poll_interval_s = 0.005
[[reader]]
antenna = "shoe"
bus = 0
device = 0
reset_pin = 25
[[reader]]
antenna = "seat4"
bus = 0
device = 1
reset_pin = 24
"""


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    path = tmp_path / "hardware.toml"
    path.write_text(CONFIG)
    return path


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    enroll.add_arguments(parser)
    return parser.parse_args(argv)


def _read_on(config_path: Path, antenna: str, uid: str, timeout_s: float = 10.0) -> Read:
    """Place a tag on an emulated antenna and take the `Read` the real reader stack posts for it."""
    config = load_hardware_config(config_path)
    with EmulatedTable(config) as table:
        events: queue.Queue[object] = queue.Queue()
        sensors = start_sensors(table.config, queue=events, antennas={antenna}, sleep=table.hardware.sleep,
                                open_spi=table.hardware.open_spi, gpio=table.hardware.gpio)
        try:
            table.place(antenna, uid)
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline:
                item = events.get(timeout=max(0.0, deadline - time.monotonic()))
                if isinstance(item, Read):
                    return item
        finally:
            sensors.stop()
    raise AssertionError(f"no read on {antenna}")


@pytest.mark.parametrize(("antenna", "seat"), [("seat4", 4), ("shoe", None)])
def test_player_card_enrolled_then_read_at_a_seat_or_the_shoe_checks_the_player_in(
        config_path: Path, tmp_path: Path, antenna: str, seat: int | None) -> None:
    players = tmp_path / "players.toml"
    args = _args(["--player", "P0012", "--name", "Ann Lee", "--out", str(players), "--config", str(config_path),
                  "--against", str(ROOT / "config" / "decks" / "test-red.json"), "--emulate",
                  "--card-timeout", "10"])
    assert enroll.run(args) == 0
    registry = load_players(players, decks=[RED])
    (player,) = registry.players
    assert (player.player, player.name) == ("P0012", "Ann Lee")
    read = _read_on(config_path, antenna, player.uid)  # the real mfrc522 poll against the emulated chip
    assert read.uid == player.uid
    checkin = registry.translate(read)
    assert isinstance(checkin, CheckIn)
    assert (checkin.player, checkin.name, checkin.seat) == ("P0012", "Ann Lee", seat)


def test_a_card_of_a_deck_is_not_a_player_card() -> None:
    registry = PlayerRegistry(players=())
    uid = next(iter(RED.cards))
    read = Read(t=1.0, antenna="seat4", uid=uid)
    assert registry.translate(read) is read


def test_player_card_enrollment_refuses_a_deck_card_naming_the_deck_and_card(tmp_path: Path) -> None:
    enrollment = PlayerEnrollment(player="P0012", name="Ann Lee", path=tmp_path / "players.toml", decks=[RED])
    uid, card = next(iter(RED.cards.items()))
    outcome = enrollment.offer(uid)
    assert not outcome.accepted
    assert f"is the {card} of deck 'test-red'" in outcome.message and "P0012" in outcome.message
    assert not (tmp_path / "players.toml").exists()


def test_registry_with_a_tag_enrolled_both_as_card_and_player_is_refused_naming_both(tmp_path: Path) -> None:
    uid, card = next(iter(RED.cards.items()))
    path = tmp_path / "players.toml"
    path.write_text(f'[players.P0012]\nname = "Ann Lee"\nuid = "{uid}"\n')
    with pytest.raises(ConfigError) as err:
        load_players(path, decks=[RED])
    message = str(err.value)
    assert str(path) in message and "players.P0012.uid" in message
    assert "player P0012 (Ann Lee)" in message and f"the {card} of deck 'test-red'" in message


def test_registry_mistakes_name_the_file_the_player_and_the_key_with_a_suggestion(tmp_path: Path) -> None:
    path = tmp_path / "players.toml"
    path.write_text('[players.P1]\nnmae = "Ann"\nuid = "04A1B2C3D4E5F6"\n'
                    '[players.P2]\nname = "Bo"\nuid = "not a uid"\n'
                    '[players.P3]\nname = "Cy"\nuid = "04A1B2C3D4E5F6"\n')
    with pytest.raises(ConfigError) as err:
        load_players(path)
    message = str(err.value)
    assert "players.P1" in message and "did you mean 'name'" in message
    assert "players.P2" in message and "uid" in message


def test_registry_refuses_one_tag_for_two_players(tmp_path: Path) -> None:
    path = tmp_path / "players.toml"
    path.write_text('[players.P1]\nname = "Ann"\nuid = "04A1B2C3D4E5F6"\n'
                    '[players.P3]\nname = "Cy"\nuid = "04A1B2C3D4E5F6"\n')
    with pytest.raises(ConfigError, match=r"players\.P3\.uid: tag 04A1B2C3D4E5F6 is also player P1's"):
        load_players(path)


def test_checkin_section_mistakes_name_the_table_file_the_key_and_a_fix(tmp_path: Path) -> None:
    from firmware_py.extensions import Where  # noqa: PLC0415
    from firmware_py.players import parse_checkin_config  # noqa: PLC0415

    where = Where(source=str(tmp_path / "table.toml"), base_dir=tmp_path)
    with pytest.raises(ConfigError) as err:
        parse_checkin_config({"plyers": "players.toml"}, where)
    message = str(err.value)
    assert "table.toml" in message and "[checkin]" in message and "did you mean 'players'" in message
    with pytest.raises(ConfigError, match=r"\[checkin\] players: no player registry at .*missing\.toml; enroll"):
        parse_checkin_config({"players": "missing.toml"}, where)
    (tmp_path / "players.toml").write_text('[players.P1]\nname = "Ann"\nuid = "04A1B2C3D4E5F6"\n')
    config = parse_checkin_config({"players": "players.toml", "shoe": False}, where)
    assert config.players == tmp_path / "players.toml" and config.shoe is False
