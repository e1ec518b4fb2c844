"""A confirm names the ruling it confirms (issue 34): two tablets confirming the one ruling shown clear it once;
the second is refused and the next ruling stays shown. A confirm naming none (the dealer's panel, an old
session) confirms the oldest shown, as it always did."""

from __future__ import annotations

import pytest

from firmware_py.core import Button, ButtonName, Verdict
from firmware_py.errors import SessionError
from firmware_py.session import SessionReader, event_to_json
from tests.rules.table_driver import Table


def _two_rulings() -> Table:
    table = Table("robert", seats=(1, 2, 3, 4, 5, 6))
    table.new_hand()
    table.deal()
    table.press("call", seat=6)  # seat 4 is to act: two actions out of turn, two rulings shown
    table.press("call", seat=5)
    assert len(table.core.unconfirmed) == 2
    return table


def test_a_second_confirm_of_the_same_ruling_is_refused_and_the_next_stays_shown() -> None:
    table = _two_rulings()
    first = table.core.snapshot().ruling_number
    assert first == 1
    taken = table.core.feed(Button(t=table.tick(), name=ButtonName.CONFIRM, ruling=first))
    assert taken.verdict is Verdict.TAKEN and table.core.snapshot().ruling_number == 2
    again = table.core.feed(Button(t=table.tick(), name=ButtonName.CONFIRM, ruling=first))
    assert again.verdict is Verdict.REFUSED
    assert again.refused == "confirm: ruling 1 was confirmed already (ruling 2 is shown): not taken"
    assert [r.seat for r in table.core.unconfirmed] == [5]  # seat 5's ruling is still shown
    ahead = table.core.feed(Button(t=table.tick(), name=ButtonName.CONFIRM, ruling=3))
    assert ahead.refused == "confirm: ruling 3 is not the one shown (ruling 2 is): not taken"
    table.core.feed(Button(t=table.tick(), name=ButtonName.CONFIRM, ruling=2))
    last = table.core.feed(Button(t=table.tick(), name=ButtonName.CONFIRM, ruling=2))
    assert last.refused == "confirm: ruling 2 was confirmed already: not taken"


def test_a_confirm_naming_no_ruling_confirms_the_oldest_as_before() -> None:
    table = _two_rulings()
    table.press("confirm")
    table.press("confirm")
    assert table.core.unconfirmed == ()


def test_rulings_are_numbered_across_hands_and_the_showdown_needs_no_confirm() -> None:
    table = _two_rulings()
    table.press("misdeal")  # a third ruling, shown
    assert table.core.snapshot().ruling_number == 1 and len(table.core.unconfirmed) == 3
    table.new_hand()  # the next deal: what was shown is gone; numbers go on
    table.deal()
    table.press("call", seat=6)
    assert table.core.snapshot().ruling_number == 4


def test_a_confirm_line_names_its_ruling_and_the_field_goes_with_confirm_only() -> None:
    reader = SessionReader()
    line = '{"t": 3.0, "kind": "button", "name": "confirm", "hand": 2, "count": 5, "ruling": 7}'
    event = reader.parse_line(line, 1)
    assert isinstance(event, Button) and event.ruling == 7
    assert event_to_json(event) == {"t": 3.0, "kind": "button", "name": "confirm", "hand": 2, "count": 5, "ruling": 7}
    old = reader.parse_line('{"t": 4.0, "kind": "button", "name": "confirm"}', 2)  # a session made before it
    assert isinstance(old, Button) and old.ruling is None and "ruling" not in event_to_json(old)
    with pytest.raises(SessionError, match="'ruling' goes with confirm"):
        reader.parse_line('{"t": 5.0, "kind": "button", "name": "fold", "ruling": 1}', 3)
    assert next(iter(SessionReader().read([line.encode()])))[1].ruling == 7  # the fast path reads it too
