"""No traceback from any file: bad bytes, deep nesting, huge numbers and out-of-range values in every loader
end in the loader's own error naming the file (and key). The 10,000-file measure: bench/bad_files.py."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import bad_files
from firmware_py.daemon.table_config import load_table_config
from firmware_py.errors import ConfigError, DeckFileError, ProtocolError, SessionError
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck, read_session
from hardware.hardware_config import load_hardware_config
from hardware.protocol import checksum, decode

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "config"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    shutil.copytree(CONFIG, tmp_path / "config")
    return tmp_path / "config"


def _replace(path: Path, old: str, new: str | bytes) -> None:
    data = path.read_bytes()
    new_bytes = new if isinstance(new, bytes) else new.encode()
    assert old.encode() in data
    path.write_bytes(data.replace(old.encode(), new_bytes, 1))


LOADERS = {
    "table.toml": (lambda c: load_table_config(c / "table.toml", with_display=False), ConfigError),
    "hardware.toml": (lambda c: load_hardware_config(c / "hardware.toml"), ConfigError),
    "profiles/robert.toml": (lambda c: load_profiles(c / "profiles"), ConfigError),
    "decks/test-red.json": (lambda c: load_deck(c / "decks" / "test-red.json"), DeckFileError),
}


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_byte_that_is_not_utf8_names_the_file_and_line(config: Path, name: str) -> None:
    path = config / name
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2] + b"\xff"
    path.write_bytes(b"\n".join(lines))
    load, error = LOADERS[name]
    with pytest.raises(error, match=r"line 3, column \d+: byte 0xff is not UTF-8"):
        load(config)


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_nesting_a_thousand_deep_is_a_clear_error(config: Path, name: str) -> None:
    path = config / name
    if name.endswith(".json"):
        _replace(path, '"back": "red"', '"back": ' + "[" * 1000 + "]" * 1000)
    else:
        path.write_bytes(path.read_bytes() + b"\nnested = " + b"[" * 1000 + b"]" * 1000 + b"\n")
    load, error = LOADERS[name]
    with pytest.raises(error, match="nest"):
        load(config)


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_number_of_5000_digits_is_a_clear_error(config: Path, name: str) -> None:
    path = config / name
    if name.endswith(".json"):
        _replace(path, '"back": "red"', '"back": ' + "7" * 5000)
    else:
        path.write_bytes(path.read_bytes() + b"\nhuge = " + b"7" * 5000 + b"\n")
    load, error = LOADERS[name]
    with pytest.raises(error, match="digit"):
        load(config)


@pytest.mark.parametrize("t", ["1e400", "1" + "0" * 400, "7" * 5000, "-1", "NaN", "Infinity"])
def test_a_session_time_out_of_range_is_a_session_error(tmp_path: Path, t: str) -> None:
    shutil.copytree(CONFIG / "decks", tmp_path / "decks")
    session = tmp_path / "s.jsonl"
    session.write_text('{"t": 0, "kind": "setup", "profile": "robert", "seats": [1, 2], "button": 1, '
                       '"decks": ["decks/test-red.json"], "in_play": "test-red"}\n'
                       f'{{"t": {t}, "kind": "button", "name": "new_hand"}}\n')
    with pytest.raises(SessionError, match="line 2"):
        list(read_session(session))


@pytest.mark.parametrize("deep", ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000])
def test_a_session_value_nested_a_thousand_deep_is_a_session_error(tmp_path: Path, deep: str) -> None:
    """The schema's decoder raised RecursionError for it, past the reader (bench/bad_files.py: 1 traceback)."""
    shutil.copytree(CONFIG / "decks", tmp_path / "decks")
    session = tmp_path / "s.jsonl"
    session.write_text(f'{{"t": {deep}, "kind": "setup", "profile": "robert", "seats": [1, 2], "button": 1, '
                       '"decks": ["decks/test-red.json"], "in_play": "test-red"}\n')
    with pytest.raises(SessionError, match="line 1"):
        list(read_session(session))


def test_a_session_with_a_byte_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_bytes(b'{"t": 1, "kind": "button", "name": "check"}\n{"t": 2, "kind": "button", "name": "\xe9"}\n')
    with pytest.raises(SessionError, match=r"line 2: .*byte 0xe9 is not UTF-8"):
        list(read_session(session))


@pytest.mark.parametrize("key", ["profile", "profiles", "hardware", "in_play"])
def test_a_300_character_name_is_a_config_error(config: Path, key: str) -> None:
    table = config / "table.toml"
    lines = [f'{key} = "{"x" * 300}"' if line.startswith(f"{key} =") else line
             for line in table.read_text().splitlines()]
    table.write_text("\n".join(lines) + "\n")
    with pytest.raises(ConfigError, match=key if key != "hardware" else "hardware config"):
        load_table_config(table, with_display=False)


@pytest.mark.parametrize(("old", "new", "key"), [
    ("first_cards = 2", "first_cards = -1", "rules.exposed_first_cards.first_cards"),
    ("first_cards = 2", "first_cards = 3", "rules.exposed_first_cards.first_cards"),
    ("seconds = 60", "seconds = 0", "clock.seconds"),
    ("actions_needed = 2", "actions_needed = 0", "misdeal_window.actions_needed"),
    ("redeal_burns = 1", "redeal_burns = -4", "rules.premature_flop.redeal_burns"),
])
def test_profile_numbers_out_of_range_name_the_file_and_key(config: Path, old: str, new: str, key: str) -> None:
    _replace(config / "profiles" / "robert.toml", old, new)
    with pytest.raises(ConfigError, match=rf"robert\.toml: {key}.*must be from"):
        load_profiles(config / "profiles")


def test_poll_interval_of_zero_is_refused(config: Path) -> None:
    hardware = config / "hardware.toml"
    _replace(hardware, "poll_interval_s = 0.01", "poll_interval_s = 0")
    with pytest.raises(ConfigError, match=r"\[presence\] poll_interval_s: must be between 0.001 and 1"):
        load_hardware_config(hardware)


@pytest.mark.parametrize("uid", ["1A:2B:3C", "1A 2B 3C", "12-34-56", "0x1A2B3C"])
def test_serial_a_three_byte_card_id_is_refused(uid: str) -> None:
    body = f"S,7,1,{uid}".encode()
    with pytest.raises(ProtocolError, match="not 8, 14 or 20 hex digits"):
        decode(b"$" + body + b"*" + checksum(body).encode() + b"\n")


@given(st.sampled_from(sorted(LOADERS)), st.integers(0, 10**6), st.binary(min_size=1, max_size=4))
@settings(max_examples=60, deadline=None)
def test_any_bytes_inserted_in_any_config_file_load_or_raise_its_own_error(tmp_path_factory, name: str,
                                                                          at: int, junk: bytes) -> None:
    config = tmp_path_factory.mktemp("c") / "config"
    shutil.copytree(CONFIG, config)
    path = config / name
    data = path.read_bytes()
    at %= len(data)
    path.write_bytes(data[:at] + junk + data[at:])
    load, error = LOADERS[name]
    try:
        load(config)
    except error as exc:
        assert str(exc)


def test_generated_bad_files_through_every_loader_end_in_no_traceback() -> None:
    outcomes = bad_files.run(350, seed=3)
    tracebacks = [verdict for _loader, verdict in outcomes if verdict.split(":", 1)[0] in ("traceback",
                                                                                          "unclear_error")]
    assert tracebacks == []
    assert {loader for loader, _verdict in outcomes} == {"table", "hardware", "profile", "deck", "session",
                                                         "enrollment", "serial"}


def test_the_cli_prints_a_message_not_a_traceback_for_a_bad_table_file(config: Path) -> None:
    (config / "table.toml").write_bytes((config / "table.toml").read_bytes() + b"\n\xff\n")
    result = subprocess.run([sys.executable, "-m", "firmware_py", "export", "--config", str(config / "table.toml"),
                             "--out", str(config / "out")], cwd=ROOT, capture_output=True, text=True, check=False,
                            timeout=60)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "is not UTF-8" in result.stderr


@pytest.mark.parametrize("value", ["1e12", "-5", "true"])
def test_a_broadcast_delay_out_of_range_is_a_config_error(config: Path, value: str) -> None:
    _replace(config / "table.toml", "broadcast_delay_s = 120", f"broadcast_delay_s = {value}")
    with pytest.raises(ConfigError, match=r"\[display\] broadcast_delay_s: must be"):
        load_table_config(config / "table.toml", with_display=False)
