"""The `[room]` section reports every mistake at once, each naming the file and the key, with how to write it."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.errors import ConfigError
from firmware_py.room.messages import parse_topic
from firmware_py.room.room_config import check_table_id, parse_room
from tests.config_mistakes import assert_mistakes


def test_room_config_reports_every_bad_value_at_once(tmp_path: Path) -> None:
    room = {"room": "main/1", "table": "t1", "port": "1883", "tls": "yes", "heartbeat_s": 0.1, "dealer": 7,
            "brokr": "pi"}
    with pytest.raises(ConfigError) as caught:
        parse_room("table.toml", room, base_dir=tmp_path)
    assert_mistakes(caught.value, "table.toml", [
        ("[room] brokr", "did you mean 'broker'"), ("[room] room", "letters, digits, '-' and '_'"),
        ("[room] tls", "must be true or false, not 'yes' (e.g. tls = false)"),
        ("[room] port", "write port = 1883, without quotes"), ("[room] dealer", 'e.g. dealer = "Ada"'),
        ("[room] heartbeat_s", "at least 0.5, not 0.1 (e.g. heartbeat_s = 5.0)")])


def test_room_config_with_a_wrong_tls_does_not_also_blame_the_files_that_need_it(tmp_path: Path) -> None:
    (tmp_path / "ca.crt").write_text("x")
    with pytest.raises(ConfigError) as caught:
        parse_room("table.toml", {"room": "main", "table": "t1", "tls": 1, "ca_file": "ca.crt"}, base_dir=tmp_path)
    assert str(caught.value).splitlines() == [
        "table.toml: [room] tls: must be true or false, not 1 (e.g. tls = false)"]


def test_room_config_with_every_key_right_is_still_accepted(tmp_path: Path) -> None:
    for name in ("ca.crt", "t1.crt", "t1.key"):
        (tmp_path / name).write_text("x")
    config = parse_room("table.toml", {"room": "main", "table": "t1", "tls": True, "ca_file": "ca.crt",
                                       "cert_file": "t1.crt", "key_file": "t1.key", "dealer": "Ada",
                                       "heartbeat_s": 2}, base_dir=tmp_path)
    assert config.broker.port == 8883 and config.broker.username == "t1" and config.broker.tls
    assert config.heartbeat_s == 2.0 and config.dealer == "Ada" and config.broker.key_file == tmp_path / "t1.key"


def test_room_tournament_key_turns_the_table_side_on(tmp_path: Path) -> None:
    assert parse_room("table.toml", {"room": "main", "table": "t1"}, base_dir=tmp_path).tournament is False
    assert parse_room("table.toml", {"room": "main", "table": "t1", "tournament": True},
                      base_dir=tmp_path).tournament is True
    with pytest.raises(ConfigError, match="tournament"):
        parse_room("table.toml", {"room": "main", "table": "t1", "tournament": "yes"}, base_dir=tmp_path)
    with pytest.raises(ConfigError, match="reserved"):
        parse_room("table.toml", {"room": "main", "table": "director"}, base_dir=tmp_path)


@pytest.mark.parametrize("table", ["director", "floor", "collector", "production", "zone-a", "zone-east"])
def test_a_table_id_can_never_be_one_of_the_rooms_own_ids(tmp_path: Path, table: str) -> None:
    """Issue 34: a `+` in a reader's subscription must never take a reserved id for a table."""
    with pytest.raises(ConfigError, match="reserved for the room's own clients"):
        parse_room("table.toml", {"room": "main", "table": table}, base_dir=tmp_path)
    with pytest.raises(ValueError, match="reserved"):
        check_table_id(table, "--table")
    assert parse_topic(f"pokertable/main/{table}/state") is None  # every consumer quarantines it
    assert parse_topic("pokertable/main/t01/state") == ("main", "t01", "state")
