"""The `name` event (docs/table-events-chips.md): the core keeps a player's name in its snapshot, through
an undo, said as a correction; the exchange format reads and writes it, and a bad one is refused naming
what is wrong."""

from __future__ import annotations

import json

import pytest

from firmware_py.core import Name
from firmware_py.errors import SessionError
from firmware_py.session import SessionReader, event_to_json
from tests.rules.table_driver import Table


def test_a_name_event_is_kept_in_the_snapshot_through_an_undo_and_an_empty_one_clears_it() -> None:
    t = Table("robert")
    t._feed(Name(t=t.tick(), seat=3, name="Gus"))
    t.clean_preflop()
    t._feed(Name(t=t.tick(), seat=2, name="Bo"))  # in a hand too
    assert t.core.snapshot().names == ((2, "Bo"), (3, "Gus"))
    t.press("call")
    t.press("undo")  # the replay keeps the names the log holds
    assert t.core.snapshot().names == ((2, "Bo"), (3, "Gus"))
    assert t._feed(Name(t=t.tick(), seat=3, name="")) == []  # no ruling: said as a correction, as a rebuy is
    assert t.core.snapshot().names == ((2, "Bo"),)
    assert t.core.snapshot().corrections[-1] == "name changed: seat 3 has its default name again"
    assert "name changed: seat 2 is Bo" in t.notices


def test_a_name_line_round_trips_through_the_exchange_format() -> None:
    reader = SessionReader()
    line = json.dumps(event_to_json(Name(t=2.0, seat=7, name="Gus")))
    assert line == '{"t": 2.0, "kind": "name", "seat": 7, "name": "Gus"}'
    assert reader.parse_line(line, 1) == Name(t=2.0, seat=7, name="Gus")
    assert reader.parse_line('{"t": 3, "kind": "name", "seat": 7, "name": " Ann "}', 2) == Name(t=3.0, seat=7,
                                                                                                   name="Ann")


@pytest.mark.parametrize(("line", "message"), [
    ('{"t": 1, "kind": "name", "seat": 7}', "'name' must be text of at most 24 characters"),
    ('{"t": 1, "kind": "name", "seat": 7, "name": "' + "x" * 25 + '"}', "at most 24 characters"),
    ('{"t": 1, "kind": "name", "seat": 11, "name": "Gus"}', "seat"),
])
def test_a_bad_name_line_is_refused_saying_what_is_wrong(line: str, message: str) -> None:
    with pytest.raises(SessionError, match=message):
        SessionReader().parse_line(line, 4)
