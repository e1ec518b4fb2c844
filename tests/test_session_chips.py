"""The chips fields of the exchange format: parsed, written back, and bad values named with their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.core import Button, ButtonName, Level, Stacks
from firmware_py.errors import SessionError
from firmware_py.session import SessionReader, event_to_json

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("line", [
    {"t": 1.0, "kind": "button", "name": "raise", "amount": 600},
    {"t": 1.0, "kind": "stacks", "stacks": {"1": 10000, "3": 0}},
    {"t": 1.0, "kind": "level", "small": 50, "big": 100, "ante": 10},
    {"t": 1.0, "kind": "level", "small": 100, "big": 200, "ante": 0, "bb_ante": 200},
    {"t": 1.0, "kind": "race", "chip": 25, "to": 100, "odd": {"1": 3, "4": 1}},
    {"t": 1.0, "kind": "race", "chip": 25, "to": 100},
])
def test_chips_lines_read_and_write_back_the_same(line: dict[str, object]) -> None:
    event = SessionReader().parse_object(line)
    assert event_to_json(event) == line


def test_a_button_without_amount_is_written_as_before() -> None:
    assert event_to_json(Button(t=2.0, name=ButtonName.CALL)) == {"t": 2.0, "kind": "button", "name": "call"}
    assert SessionReader().parse_object({"t": 1, "kind": "stacks", "stacks": {"2": 5}}) == \
        Stacks(t=1.0, stacks=((2, 5),))
    assert SessionReader().parse_object({"t": 1, "kind": "level", "small": 5, "big": 10}) == \
        Level(t=1.0, small=5, big=10, ante=0)


SETUP = ('{"t": 0, "kind": "setup", "profile": "robert", "seats": [1, 2], "button": 1, '
         '"decks": ["config/decks/test-red.json"], "in_play": "test-red"')


def test_a_setup_names_the_chips_in_play_and_writes_them_back() -> None:
    """`denominations`: the chips in play, smallest first (Ties: "An odd chip will be broken down to the smallest
    unit used in the game"); a setup without them is written as before."""
    event = SessionReader(source="s.jsonl", base_dir=ROOT).parse_line(SETUP + ', "denominations": [100, 25]}', 1)
    assert event is not None and event.denominations == (25, 100)
    assert event_to_json(event)["denominations"] == [25, 100]
    plain = SessionReader(source="s.jsonl", base_dir=ROOT).parse_line(SETUP + "}", 1)
    assert plain is not None and plain.denominations == () and "denominations" not in event_to_json(plain)


@pytest.mark.parametrize(("text", "message"), [
    ('{"t": 1, "kind": "button", "name": "call", "amount": 50}',
     "'amount' goes with bet, raise or allin, not with call"),
    ('{"t": 1, "kind": "button", "name": "raise", "amount": "600"}', "'amount' must be a whole number of chips"),
    ('{"t": 1, "kind": "button", "name": "bet", "amount": 0}', "at least 1, not 0"),
    ('{"t": 1, "kind": "stacks", "stacks": {"11": 5}}', "'stacks' must hold seat numbers 1..10, not 11"),
    ('{"t": 1, "kind": "stacks", "stacks": {"one": 5}}', "'stacks' key 'one' is not a seat number"),
    ('{"t": 1, "kind": "stacks", "stacks": {"1": -5}}', "'stacks[1]' must be a whole number of chips"),
    ('{"t": 1, "kind": "stacks", "stacks": []}', "'stacks' must be an object of seat number to chips"),
    ('{"t": 1, "kind": "level", "small": 100, "big": 50}', "the small blind 100 is more than the big blind 50"),
    ('{"t": 1, "kind": "levle", "small": 1, "big": 2}', "did you mean 'level'"),
    ('{"t": 1, "kind": "level", "small": 1, "big": 2, "ante": 1, "bb_ante": 2}', "not both: keep one"),
    ('{"t": 1, "kind": "level", "small": 1, "big": 2, "bb_ante": -2}', "'bb_ante' must be a whole number of chips"),
    ('{"t": 1, "kind": "race", "chip": 25, "to": 110}', "'to' (110) must be a multiple of 'chip' (25)"),
    ('{"t": 1, "kind": "race", "chip": 25}', "'to' must be a whole number of chips"),
    ('{"t": 1, "kind": "race", "chip": 25, "to": 100, "odd": {"12": 1}}', "'odd' must hold seat numbers 1..10"),
    ('{"t": 1, "kind": "race", "chip": 25, "to": 100, "odd": [1]}', "'odd' must be an object of seat number"),
    (SETUP + ', "denominations": [25, 10]}',
     "'denominations' [25, 10]: the 25 chip is not a whole number of the smallest, 10"),
    (SETUP + ', "denominations": [25, 25]}', "'denominations' [25, 25]: a chip is named twice"),
    (SETUP + ', "denominations": []}', "'denominations' must be a list of the chip values in play"),
    (SETUP + ', "denominations": [0, 25]}', "'denominations[0]' must be a whole number of chips, at least 1"),
])
def test_a_bad_chips_line_names_the_line_and_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(SessionError, match="line 7") as caught:
        SessionReader(source="s.jsonl", base_dir=ROOT).parse_line(text, 7)
    assert message in str(caught.value)
