"""The session reader's schema path (msgspec, session_schema.py) reads every line as the hand-written path does.

The reader decodes a line against the schema first and reads it the hand-written way only when the schema
refuses it; so the schema may refuse more than the hand-written checks (that line is then read the same,
only slower), never less, and must never read a line differently. These tests generate lines, good and
bad, and read each both ways: the same event (same types, same values), or both refuse; and the reader as
a whole gives the same events and the same error, word for word, as the hand-written path alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.core import ANTENNAS, ButtonName, Event, SeatStatus
from firmware_py.core.events import STACK_REASONS
from firmware_py.core.game import DEFAULT, GAMES
from firmware_py.errors import SessionError
from firmware_py.session import SessionReader, event_to_json, load_deck
from firmware_py.session_schema import Antenna, GameName, SetupLine, StackReason

ROOT = Path(__file__).resolve().parents[1]
DECKS = ROOT / "config" / "decks"
SESSIONS = ROOT / "tests" / "sessions"
UIDS = sorted(load_deck(DECKS / "test-red.json").cards)[:3]

Outcome = tuple[str, str]  # ("event", the event's type and repr) or ("error", the SessionError's words)


def _reader() -> SessionReader:
    return SessionReader(source="s.jsonl", base_dir=DECKS)


def _form(event: Event) -> str:
    """The event's type and repr: the repr tells 1 from 1.0 and True, -0.0 from 0.0, an enum from its value."""
    return f"{type(event).__name__}: {event!r}"


def _by_hand(data: bytes) -> Outcome | None:
    """One line read the hand-written way only (None: a blank line)."""
    try:
        event = _reader()._read_by_hand(data, 1)
    except SessionError as exc:
        return "error", str(exc)
    return None if event is None else ("event", _form(event))


def _by_reader(data: bytes) -> Outcome | None:
    """One line read as the reader reads a file: the schema, else the hand-written path."""
    try:
        events = list(_reader().read([data]))
    except SessionError as exc:
        return "error", str(exc)
    return ("event", _form(events[0][1])) if events else None


def _check_one_line(data: bytes) -> None:
    hand = _by_hand(data)
    fast = _reader()._schema_event(data)
    if fast is not None:
        assert hand == ("event", _form(fast)), data
    assert _by_reader(data) == hand, data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    # The same line as text (the daemon's journal and the room's publisher read lines as str).
    fast_text = _reader()._schema_event(text)
    if fast_text is not None:
        assert hand == ("event", _form(fast_text)), text
    try:
        event = _reader().parse_line(text, 1)
        by_line = None if event is None else ("event", _form(event))
    except SessionError as exc:
        by_line = "error", str(exc)
    assert by_line == hand, text


# -- generated lines ------------------------------------------------------------------------------

SEAT_KEYS = ["1", "2", "6", "10", "0", "11", "01", " 1", "1 ", "+1", "1_0", "\u0661", "one", "-1", "1.0", ""]
ODD_STRINGS = ["", "shoe", "SHOE", "board6", "seat0", "seat11", "seat01", "04ab", "04:AB", "04 AB", "04-ab", "0",
               "04AB\n", "4AB", "04AB ", "fold", "call", "raise", "in", "out", "rebuy", "holdem", "omaha",
               "test-red", "test-red.json", "nope.json", "robert", "\ud800", "\x7f", "\u00e9", "1", "01"]
odd = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.integers(-2**70, 2**70),
    st.sampled_from([0.0, -0.0, 1.0, 2.5, 1e9, 1e9 + 1, 1e15, 10**15, 10**15 + 1, 2**63, 2**64, 10**400,
                     float("nan"), float("inf"), -float("inf"), 1e-400]),
    st.floats(), st.text(max_size=6), st.sampled_from(ODD_STRINGS),
    st.lists(st.integers(-1, 12), max_size=4), st.lists(st.sampled_from(ODD_STRINGS), max_size=3),
    st.dictionaries(st.sampled_from(SEAT_KEYS), st.integers(-2, 10**16) | st.sampled_from([1.0, None, True]),
                    max_size=3),
)
# A tag's uid as readers write it, or as a person might (lower case, separators): the reader normalises it.
uids = st.sampled_from(UIDS) | st.sampled_from(UIDS).map(str.lower) \
    | st.sampled_from(UIDS).map(lambda uid: ":".join(uid[i:i + 2] for i in range(0, len(uid), 2)))
times = st.floats(0, 1e9) | st.integers(0, 10**9) | st.sampled_from([0, 0.0, -0.0, 1e9, 1.5e-7, 123456.789])
seats = st.integers(1, 10)
chips = st.integers(0, 10**6)
by_seat = st.dictionaries(st.sampled_from(["1", "2", "3", "6", "10"]), chips, min_size=1, max_size=4)
GOOD: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "read": {"antenna": st.sampled_from(sorted(ANTENNAS)), "uid": uids},
    "gone": {"antenna": st.sampled_from(sorted(ANTENNAS)), "uid": uids},
    "button": {"name": st.sampled_from([b.value for b in ButtonName]), "seat": seats, "amount": chips,
               "hand": chips, "count": chips},
    "seat": {"seat": seats, "status": st.sampled_from(["in", "out"]), "moved": st.booleans()},
    "stacks": {"stacks": by_seat, "why": st.sampled_from(STACK_REASONS)},
    "level": {"small": chips, "big": chips, "ante": chips, "bb_ante": chips, "number": st.integers(0, 10_001)},
    "tick": {},
    "race": {"chip": st.sampled_from([1, 5, 25, 100]), "to": st.sampled_from([2, 25, 100, 110, 500]),
             "odd": st.dictionaries(st.sampled_from(["1", "2", "10"]), st.integers(0, 5), max_size=3)},
    "setup": {"profile": st.sampled_from(["robert", "wfp", "roberts"]),
              "seats": st.lists(seats, min_size=1, max_size=6),
              "button": seats, "decks": st.lists(st.sampled_from(["test-red.json", "test-blue.json", "nope.json"]),
                                                min_size=1, max_size=2),
              "in_play": st.sampled_from(["test-red", "test-blue", "test-rd"]), "game": st.sampled_from(sorted(GAMES)),
              "denominations": st.lists(st.sampled_from([0, 1, 5, 10, 25, 100, 500]), max_size=4)},
}
EXTRA = ["x", "seq", "note", "Kind", "t ", "antenna", "uid", "name", "seat", "amount", "stacks", "odd"]


@st.composite
def lines(draw: st.DrawFn) -> bytes:
    """A line of a session: mostly the table's own, with a field missing, wrong, repeated or extra, in any
    JSON spelling, now and then with a byte changed."""
    kind = draw(st.sampled_from(sorted(GOOD)))
    pairs: list[tuple[str, Any]] = []
    if draw(st.integers(0, 9)):
        pairs.append(("t", draw(times if draw(st.integers(0, 5)) else odd)))
    if draw(st.integers(0, 9)):
        pairs.append(("kind", kind if draw(st.integers(0, 9)) else draw(st.sampled_from([*GOOD, "levle", "", 1, None])
                                                                        | odd)))
    for field, good in GOOD[kind].items():
        choice = draw(st.integers(0, 9))
        if choice <= 6:
            pairs.append((field, draw(good)))
        elif choice == 7:
            pairs.append((field, draw(odd)))
    pairs = draw(st.permutations(pairs))
    if not draw(st.integers(0, 5)):  # a field again (the standard library keeps the last) or one no reader knows
        pairs.insert(draw(st.integers(0, len(pairs))), (draw(st.sampled_from(["t", "kind", *GOOD[kind], *EXTRA])),
                                                        draw(odd | st.sampled_from([kind, *GOOD]))))
    ascii_only = draw(st.booleans())
    space = draw(st.sampled_from(["", " ", "\t"]))
    text = "{" + f",{space}".join(f"{json.dumps(key, ensure_ascii=ascii_only)}:{space}"
                                  f"{json.dumps(value, ensure_ascii=ascii_only)}" for key, value in pairs) + "}"
    data = (draw(st.sampled_from(["", " "])) + text + draw(st.sampled_from(["\n", "", " \n", "\r\n"]))).encode(
        "utf-8", "surrogatepass")
    if not draw(st.integers(0, 7)):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xe9", b"\xc3", b"\x00", b"\n", b" ", b"}", b'"', b"0",
                                                 b"-", b"e5", b"\xef\xbb\xbf"])) + data[at + 1:]
    return data


# Lines as the table writes them (event_to_json), for files of mostly good lines.
table_lines = (
    st.builds(dict, t=times, kind=st.just("button"), name=st.sampled_from([b.value for b in ButtonName]),
              seat=seats, hand=chips, count=chips)
    | st.builds(dict, t=times, kind=st.sampled_from(["read", "gone"]), antenna=st.sampled_from(sorted(ANTENNAS)),
                uid=uids)
    | st.builds(dict, t=times, kind=st.just("stacks"), stacks=by_seat, why=st.sampled_from(STACK_REASONS))
    | st.builds(dict, t=times, kind=st.just("seat"), seat=seats, status=st.sampled_from(["in", "out"]),
                moved=st.booleans())
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines())
def test_the_schema_never_takes_a_line_the_hand_written_path_refuses_nor_reads_one_differently(data: bytes) -> None:
    _check_one_line(data)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(*[table_lines.map(lambda line: json.dumps(line).encode())] * 3, lines()), min_size=1,
                max_size=8))
def test_a_file_of_generated_lines_reads_to_the_same_events_and_error_as_the_hand_written_path(
        tmp_path_factory: pytest.TempPathFactory, data: list[bytes]) -> None:
    """Mostly the table's own lines, so that times go backwards too: the schema's events pass the same
    monotonic check."""
    blob = b"".join(line if line.endswith(b"\n") else line + b"\n" for line in data)
    hand, reader = [], _reader()
    try:
        for number, line in enumerate(blob.splitlines(keepends=True), start=1):
            event = reader._read_by_hand(line, number)
            if event is not None:
                hand.append((number, _form(event)))
        hand_error = None
    except SessionError as exc:
        hand_error = str(exc)
    both, read_error = [], None
    try:
        for number, event in _reader().read(blob.splitlines(keepends=True)):
            both.append((number, _form(event)))
    except SessionError as exc:
        read_error = str(exc)
    assert (both, read_error) == (hand, hand_error)
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        return
    # Line by line as text, as the daemon's journal and the room's publisher read them.
    by_line, line_error, reader = [], None, _reader()
    try:
        for number, line in enumerate(blob.splitlines(keepends=True), start=1):
            event = reader.parse_line(line.decode("utf-8"), number)
            if event is not None:
                by_line.append((number, _form(event)))
    except SessionError as exc:
        line_error = str(exc)
    assert text and (by_line, line_error) == (hand, hand_error)


@pytest.mark.parametrize("text", [
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04ab"}',  # normalised by hand
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04:AB"}',
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "zz"}',
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04AB", "x": 1}',  # a field no reader knows
    b'{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04AB", "x": "\xe9"}',  # not UTF-8
    b'{"t": 1, "kind": "read", "antenna": "sh\xe9oe", "uid": "04AB"}',
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04AB", "x": ' + "7" * 5000 + "}",
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04AB", "x": NaN}',
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04AB", "x": "\\ud800"}',
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04AB", "antenna": "bord1"}',
    '{"t": 1, "kind": "read", "antenna": "shoe", "uid": "04AB", "kind": "gone"}',
    '{"t": 1, "kind": "gone", "antenna": "shoe", "uid": "04AB", "kind": "read"}',
    '{"t": 1e-400, "kind": "read", "antenna": "shoe", "uid": "04AB"}',
    '{"t": -0.0, "kind": "read", "antenna": "shoe", "uid": "04AB"}',
    '{"t": 1000000000.0000001, "kind": "read", "antenna": "shoe", "uid": "04AB"}',
    '{"t": 0.1000000000000000055511151231257827, "kind": "read", "antenna": "shoe", "uid": "04AB"}',
    '{"t": true, "kind": "button", "name": "call"}',
    '{"t": 1, "kind": "button", "name": "call", "seat": null, "amount": null}',
    '{"t": 1, "kind": "button", "name": "call", "amount": 50}',
    '{"t": 1, "kind": "button", "name": "raise", "amount": 50.0}',
    '{"t": 1, "kind": "button", "name": "raise", "amount": ' + "9" * 30 + "}",
    '{"t": 1, "kind": "button", "name": "raise", "amount": ' + "9" * 5000 + "}",
    '{"t": 1, "kind": "button", "name": "fold", "seat": true}',
    '{"t": 1, "kind": "button", "name": "fold", "hand": -1, "count": 0}',
    '{"t": 1, "kind": "seat", "seat": 3, "status": "in", "moved": null}',
    '{"t": 1, "kind": "seat", "seat": 3, "status": "IN"}',
    '{"t": 1, "kind": "stacks", "stacks": {"1": 5, "01": 6}}',
    '{"t": 1, "kind": "stacks", "stacks": {"1": 5, "1": 6}}',
    '{"t": 1, "kind": "stacks", "stacks": {"\\u0031": 5, "+2": 1, " 3": 0}}',
    '{"t": 1, "kind": "stacks", "stacks": {}}',
    '{"t": 1, "kind": "stacks", "stacks": {"1": 5}, "why": null}',
    '{"t": 1, "kind": "level", "small": 100, "big": 50}',
    '{"t": 1, "kind": "level", "small": 1, "big": 2, "ante": 1, "bb_ante": 2}',
    '{"t": 1, "kind": "level", "small": 1, "big": 2, "ante": null}',
    '{"t": 1, "kind": "race", "chip": 25, "to": 25}',
    '{"t": 1, "kind": "race", "chip": 25, "to": 110}',
    '{"t": 1, "kind": "race", "chip": 25, "to": 100, "odd": {}}',
    '{"t": 1, "kind": "race", "chip": 25, "to": 100, "odd": null}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [2, 1, 2], "button": 1, "decks": ["test-red.json"], '
    '"in_play": "test-red"}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, "decks": ["nope.json"], '
    '"in_play": "test-red"}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, "decks": ["test-red.json"], '
    '"in_play": "test-blue"}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, "decks": ["test-red.json"], '
    '"in_play": "test-red", "game": null}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, '
    '"decks": ["test-red.json", "test-blue.json"], "in_play": "test-blue", "game": "omaha"}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, "decks": ["test-red.json"], '
    '"in_play": "test-red", "denominations": [100, 25, 500]}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, "decks": ["test-red.json"], '
    '"in_play": "test-red", "denominations": [25, 10]}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, "decks": ["test-red.json"], '
    '"in_play": "test-red", "denominations": [25, 25]}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, "decks": ["test-red.json"], '
    '"in_play": "test-red", "denominations": []}',
    '{"t": 0, "kind": "setup", "profile": "robert", "seats": [3, 1], "button": 1, "decks": ["test-red.json"], '
    '"in_play": "test-red", "denominations": null}',
    "\ufeff" + '{"t": 1, "kind": "button", "name": "call"}',
    '{"t": 1, "kind": "button", "name": "call"} x',
    "", "   ", "\x0c", "[1, 2]", "null",
])
def test_lines_at_the_edge_of_the_schema_read_as_by_hand(text: str | bytes) -> None:
    _check_one_line((text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")) + b"\n")


def test_every_line_of_the_example_sessions_takes_the_schema_path() -> None:
    """The lines the table writes are what the schema is for: none of them should need the slow path."""
    read = 0
    for path in sorted(SESSIONS.glob("*.jsonl")):
        if path.name.endswith(".expected.jsonl"):
            continue
        reader = SessionReader(source=str(path), base_dir=path.parent)
        for data in path.read_bytes().splitlines(keepends=True):
            if data.strip():
                event = reader._schema_event(data)
                assert event is not None, (path.name, data)
                assert _by_hand_in(path, data) == ("event", _form(event))
                read += 1
    assert read > 1000


def _by_hand_in(path: Path, data: bytes) -> Outcome | None:
    try:
        event = SessionReader(source=str(path), base_dir=path.parent)._read_by_hand(data, 1)
    except SessionError as exc:
        return "error", str(exc)
    return None if event is None else ("event", _form(event))


@given(table_lines)
def test_what_the_table_writes_takes_the_schema_path_and_reads_back_the_same(line: dict[str, Any]) -> None:
    event = _reader().parse_object(line)
    written = json.dumps(event_to_json(event)).encode()
    fast = _reader()._schema_event(written)
    assert fast is not None and _form(fast) == _form(event)


def test_the_schema_names_the_same_antennas_buttons_reasons_and_games_as_the_core() -> None:
    assert set(get_args(Antenna)) == ANTENNAS
    assert set(get_args(StackReason)) == set(STACK_REASONS)
    assert set(get_args(GameName)) == set(GAMES)
    fields = SetupLine.__struct_fields__
    assert SetupLine.__struct_defaults__[fields.index("game") - len(fields)] == DEFAULT
    assert {b.value for b in ButtonName} >= {"new_hand", "fold", "allin", "hand_end"}
    assert {s.value for s in SeatStatus} == {"in", "out"}
