"""Presence: debounce and removal delay turn raw polls into one arrival and one departure."""

from __future__ import annotations

from firmware_py.core.events import Gone, Read
from hardware.hardware_config import PresenceTiming
from hardware.presence import Presence

BOARD = PresenceTiming(debounce_s=0.05, removal_delay_s=0.6)


def feed(presence: Presence, polls: list[tuple[float, list[str]]]) -> list[Read | Gone]:
    events: list[Read | Gone] = []
    for t, uids in polls:
        events += presence.update(uids, t)
    return events


def test_a_flickering_tag_is_one_arrival():
    presence = Presence("board1", BOARD)
    polls = [(i * 0.01, ["04AB"] if i % 3 else []) for i in range(200)]  # missing one poll in three
    events = feed(presence, polls)
    assert [type(e) for e in events] == [Read]


def test_a_tag_seen_once_at_the_edge_of_an_antenna_is_no_arrival():
    presence = Presence("board2", BOARD)
    events = feed(presence, [(0.0, ["04AB"]), (0.1, []), (0.2, []), (0.3, ["04AB"]), (0.4, [])])
    assert events == []


def test_a_tag_unseen_for_the_removal_delay_is_gone_once():
    presence = Presence("board3", BOARD)
    polls = [(t / 100, ["04AB"]) for t in range(10)] + [(t / 100, []) for t in range(10, 200)]
    events = feed(presence, polls)
    assert events == [Read(t=0.05, antenna="board3", uid="04AB"), Gone(t=0.69, antenna="board3", uid="04AB")]


def test_the_shoe_reports_its_first_read_and_never_gone():
    presence = Presence("shoe", PresenceTiming(debounce_s=0.0, removal_delay_s=0.3))
    events = feed(presence, [(0.0, ["04AB"]), (0.01, []), (1.0, []), (5.0, ["04AB"])])
    assert events == [Read(t=0.0, antenna="shoe", uid="04AB"), Read(t=5.0, antenna="shoe", uid="04AB")]


def test_a_reader_fault_does_not_make_cards_go():
    presence = Presence("board4", BOARD)
    feed(presence, [(0.0, ["04AB"]), (0.05, ["04AB"])])
    presence.resume(10.0)  # the reader was down from 0.05 to 10.0
    assert feed(presence, [(10.0, ["04AB"]), (10.5, ["04AB"])]) == []
    assert presence.present == ("04AB",)


def test_two_cards_on_one_antenna_come_and_go_separately():
    presence = Presence("muck", PresenceTiming(debounce_s=0.0, removal_delay_s=0.2))
    events = feed(presence, [(0.0, ["A1A1A1A1"]), (0.1, ["A1A1A1A1", "B2B2B2B2"]), (0.2, ["B2B2B2B2"]),
                             (0.5, ["B2B2B2B2"])])
    assert events == [Read(t=0.0, antenna="muck", uid="A1A1A1A1"), Read(t=0.1, antenna="muck", uid="B2B2B2B2"),
                      Gone(t=0.5, antenna="muck", uid="A1A1A1A1")]
