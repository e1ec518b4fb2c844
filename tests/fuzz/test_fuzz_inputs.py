"""Fuzzing the input edges: session lines, serial lines and config files end in a result or a clear error.

"Clear error" means the project's own exception, with a message; never a KeyError, TypeError or
IndexError escaping from inside the parser.
"""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from firmware_py.core.profiles import ProfileError, build_profiles
from firmware_py.errors import ConfigError, DeckFileError, ProtocolError, SessionError
from firmware_py.profiles import load_profiles
from firmware_py.session import SessionReader, event_to_json, load_deck, read_session
from hardware.hardware_config import HardwareConfig, SerialBoardConfig, load_hardware_config, parse_hardware_config
from hardware.protocol import Hello, PortFailure, Scan, decode, encode
from hardware.serial_board import SerialBoardReader

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "config" / "decks"
RED = load_deck(DECKS / "test-red.json")
RED_UIDS = sorted(RED.cards)

json_scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=12)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)

FIELDS = ("t", "kind", "antenna", "uid", "name", "seat", "status", "profile", "seats", "button", "decks", "in_play")
field_values = (json_values | st.sampled_from(["setup", "read", "gone", "button", "seat", "shoe", "board1", "seat3",
                                                "call", "new_hand", "in", "out", "robert", "test-red.json",
                                                "test-red", *RED_UIDS[:3]])
                | st.integers(0, 12) | st.lists(st.integers(0, 12), max_size=5))
event_like = st.dictionaries(st.sampled_from(FIELDS), field_values, max_size=8)


def _reader() -> SessionReader:
    return SessionReader(source="fuzz.jsonl", base_dir=DECKS)


@given(st.text(max_size=200))
def test_session_reader_any_text_line_is_an_event_or_a_session_error(text: str) -> None:
    try:
        _reader().parse_line(text, 1)
    except SessionError as exc:
        assert "fuzz.jsonl, line 1" in str(exc)


@given(st.lists(event_like, min_size=1, max_size=6))
def test_session_reader_event_shaped_objects_are_events_or_session_errors(objects: list[dict[str, Any]]) -> None:
    reader = _reader()
    for number, obj in enumerate(objects, start=1):
        try:
            event = reader.parse_line(json.dumps(obj), number)
        except SessionError as exc:
            assert exc.line == number and exc.reason
            continue
        if event is not None and not hasattr(event, "decks"):
            # What was read writes back to the same event.
            assert _reader().parse_object(event_to_json(event)) == event


@given(st.binary(max_size=400))
def test_read_session_any_file_is_events_or_a_session_error(tmp_path_factory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("s") / "session.jsonl"
    path.write_bytes(data)
    try:
        list(read_session(path))
    except SessionError as exc:
        assert str(path) in str(exc)


@given(json_values)
def test_deck_registry_any_json_is_a_deck_or_a_deck_file_error(tmp_path_factory, value: Any) -> None:
    path = tmp_path_factory.mktemp("d") / "deck.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    try:
        load_deck(path)
    except DeckFileError as exc:
        assert str(path) in str(exc)


# -- the serial protocol --------------------------------------------------------------------------

@given(st.binary(max_size=300))
def test_serial_decode_any_bytes_is_a_message_or_a_protocol_error(line: bytes) -> None:
    try:
        decode(line)
    except ProtocolError as exc:
        assert str(exc)


uids = st.sampled_from(RED_UIDS) | st.binary(min_size=4, max_size=4).map(lambda b: b.hex().upper())
messages = (st.builds(Scan, seq=st.integers(0, 65535), port=st.integers(0, 15),
                      uids=st.lists(uids, max_size=8).map(tuple))
            | st.builds(Hello, seq=st.integers(0, 65535), board=st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True),
                        firmware=st.from_regex(r"[0-9.]{1,8}", fullmatch=True), ports=st.integers(1, 16))
            | st.builds(PortFailure, seq=st.integers(0, 65535), port=st.integers(0, 15),
                        code=st.from_regex(r"[A-Z_]{1,10}", fullmatch=True)))


@given(messages)
def test_serial_encode_then_decode_gives_the_message_back(message: Scan | Hello | PortFailure) -> None:
    assert decode(encode(message)) == message


@given(messages, st.integers(0, 40), st.integers(0, 7))
def test_serial_one_flipped_bit_is_caught(message: Scan | Hello | PortFailure, index: int, bit: int) -> None:
    line = bytearray(encode(message))
    index %= len(line) - 1  # not the newline
    line[index] ^= 1 << bit
    try:
        decoded = decode(bytes(line))
    except ProtocolError:
        return
    # A flip that keeps the line valid can only be a case change in the hex checksum.
    assert decoded == message


@given(st.lists(st.binary(max_size=120) | messages.map(encode), max_size=12))
def test_serial_board_reader_survives_any_byte_stream(chunks: list[bytes]) -> None:
    class Sink:
        def __init__(self) -> None:
            self.items: list[object] = []

        def put(self, item: object) -> None:
            self.items.append(item)

    sink = Sink()
    reader = SerialBoardReader(SerialBoardConfig(name="b", port="loop://", antennas=("board1", "board2", "board3")),
                               queue=sink, clock=lambda: 0.0)
    for now, chunk in enumerate(chunks):
        reader.feed(chunk, now=float(now))
    assert reader.lines_ok + reader.lines_bad >= 0


# -- configuration ---------------------------------------------------------------------------------

toml_keys = st.sampled_from(["presence", "reader", "serial", "panel", "antenna", "bus", "device", "reset_pin",
                             "spi_hz", "debounce_s", "removal_delay_s", "poll_interval_s", "port", "baudrate",
                             "antennas", "name", "buttons", "pin", "buzzer_pin", "board1", "shoe", "bogus"])
toml_scalars = (st.booleans() | st.integers(-5, 30_000_000) | st.floats(allow_nan=False, allow_infinity=True)
                | st.sampled_from(["shoe", "board1", "seat3", "muck", "/dev/ttyUSB0", "call", "x"]))
toml_values = st.recursive(toml_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(toml_keys, inner, max_size=4), max_leaves=16)


@given(st.dictionaries(toml_keys, toml_values, max_size=5))
def test_hardware_config_any_document_is_a_config_or_a_config_error(document: dict[str, Any]) -> None:
    try:
        config = parse_hardware_config(document, source="fuzz.toml")
    except ConfigError as exc:
        assert "fuzz.toml" in str(exc)
    else:
        assert isinstance(config, HardwareConfig)


@given(st.text(max_size=300))
def test_hardware_config_any_text_is_a_config_or_a_config_error(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("h") / "hardware.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_hardware_config(path)
    except ConfigError as exc:
        assert str(path) in str(exc)


PROFILE_FILES = {p.stem: tomllib.loads(p.read_text(encoding="utf-8"))
                 for p in sorted((ROOT / "config" / "profiles").glob("*.toml"))}


def _mutate(document: dict[str, Any], path: list[str], value: Any, delete: bool) -> None:
    node: Any = document
    for key in path[:-1]:
        if not isinstance(node, dict) or key not in node:
            return
        node = node[key]
    if not isinstance(node, dict):
        return
    if delete:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value


def _paths(document: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    if isinstance(document, dict):
        for key, value in document.items():
            out.append((*prefix, key))
            out.extend(_paths(value, (*prefix, key)))
    return out


@given(st.sampled_from(sorted(PROFILE_FILES)), st.data(), toml_values, st.booleans())
def test_profile_loader_a_mutated_profile_builds_or_names_the_file_and_key(name: str, data: st.DataObject,
                                                                          value: Any, delete: bool) -> None:
    raw = copy.deepcopy(PROFILE_FILES)
    document = raw[name]
    path = list(data.draw(st.sampled_from(_paths(document)) | st.tuples(toml_keys), label="path"))
    _mutate(document, path, value, delete)
    try:
        profiles = build_profiles({stem: (f"{stem}.toml", doc) for stem, doc in raw.items()})
    except ProfileError as exc:
        assert ".toml" in str(exc)
    else:
        assert set(profiles) == set(PROFILE_FILES)


@given(st.sampled_from(sorted(PROFILE_FILES)), st.integers(0, 10_000), st.text(max_size=6), st.integers(0, 6))
def test_profile_loader_a_damaged_file_loads_or_raises_a_config_error(tmp_path_factory, name: str, at: int,
                                                                      insert: str, cut: int) -> None:
    folder = tmp_path_factory.mktemp("p")
    for path in (ROOT / "config" / "profiles").glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if path.stem == name:
            at %= len(text)
            text = text[:at] + insert + text[at + cut:]
        (folder / path.name).write_text(text, encoding="utf-8")
    try:
        load_profiles(folder)
    except ConfigError as exc:
        assert str(folder) in str(exc) or ".toml" in str(exc)
