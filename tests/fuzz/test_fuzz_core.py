"""Fuzzing the rules core: after any event sequence the table's state is a possible one.

Sequences are dealer-bot hands (with its rulebook errors) cut, repeated, swapped and salted with
arbitrary events, so they reach deep into hands as well as into nonsense. After every event:
every card shown is a real card, no card is in two places (two seats, a seat and the board, the
board and the burns), and no more than the 52 cards of the deck are out (the rest is the stub).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from firmware_py.core import (
    ANTENNAS,
    FULL_DECK,
    JOKERS,
    Button,
    ButtonName,
    Event,
    Gone,
    Read,
    Seat,
    SeatStatus,
    Setup,
    TableSnapshot,
)
from firmware_py.core.engine import TableCore
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck
from firmware_py.simulation.dealer import DealerBot
from firmware_py.simulation.harness import DECKS, PROFILES, TABLE_SEATS

ALL_PROFILES = load_profiles()
RED = load_deck(DECKS / "test-red.json")
BLUE = load_deck(DECKS / "test-blue.json")
RED_UIDS = sorted(RED.cards)
CARDS = set(FULL_DECK) | set(JOKERS)

uids = st.sampled_from(RED_UIDS) | st.sampled_from(sorted(BLUE.cards)[:4]) | st.just("0400000000DEAD")
antennas = st.sampled_from(sorted(ANTENNAS))
seats = st.none() | st.integers(1, 10)
loose_events = st.one_of(
    st.builds(lambda n, s: Button(t=0.0, name=n, seat=s), st.sampled_from(list(ButtonName)), seats),
    st.builds(lambda a, u: Read(t=0.0, antenna=a, uid=u), antennas, uids),
    st.builds(lambda a, u: Gone(t=0.0, antenna=a, uid=u), antennas, uids),
    st.builds(lambda s, v: Seat(t=0.0, seat=s, status=v), st.integers(1, 10), st.sampled_from(list(SeatStatus))),
)
edits = st.lists(st.tuples(st.sampled_from(["drop", "repeat", "swap", "insert"]), st.integers(0, 10_000),
                           loose_events), max_size=12)


def check(snapshot: TableSnapshot) -> None:
    places: list[str] = [card for seat in snapshot.seats for card in seat.cards]
    places += list(snapshot.board) + list(snapshot.burns)
    assert set(places) <= CARDS, places
    twice = [card for card, n in Counter(places).items() if n > 1]
    assert not twice, f"in two places: {twice} (seats {[s.cards for s in snapshot.seats]}, board "\
                      f"{snapshot.board}, burns {snapshot.burns})"
    real = [card for card in places if card not in JOKERS]
    assert len(real) <= len(FULL_DECK)  # the rest of the 52 is the stub


def play(profile: str, table: tuple[int, ...], events: list[Event]) -> None:
    core = TableCore(ALL_PROFILES)
    core.feed(Setup(t=0.0, profile=profile, seats=table, button=table[0], decks=(RED, BLUE), in_play=RED.name))
    check(core.snapshot())
    for t, event in enumerate(events, start=1):
        core.feed(dataclasses.replace(event, t=float(t)))
        check(core.snapshot())


@given(profile=st.sampled_from(PROFILES), table=st.sampled_from(TABLE_SEATS), seed=st.integers(0, 2**32),
       hands=st.integers(1, 3), error_rate=st.sampled_from([0.0, 0.5, 1.0]), changes=edits)
def test_state_invariants_hold_after_dealer_hands_with_any_edits(*, profile: str, table: tuple[int, ...], seed: int,
                                                                 hands: int, error_rate: float,
                                                                 changes: list[tuple[str, int, Event]]) -> None:
    bot = DealerBot(rng=random.Random(seed), deck=RED, profile=ALL_PROFILES[profile], seats=table, button=table[0],
                    error_rate=error_rate, other_deck=BLUE)
    events: list[Event] = [e for hand in bot.session(hands) for e in hand.events]
    for op, where, extra in changes:
        at = where % (len(events) + 1)
        if op == "insert" or not events:
            events.insert(at, extra)
        elif op == "drop":
            events.pop(at % len(events))
        elif op == "repeat":
            events.insert(at, events[at % len(events)])
        elif at + 1 < len(events):
            events[at], events[at + 1] = events[at + 1], events[at]
    play(profile, table, events)


@given(profile=st.sampled_from(PROFILES), table=st.sampled_from(TABLE_SEATS),
       events=st.lists(loose_events, max_size=60))
def test_state_invariants_hold_after_arbitrary_events(profile: str, table: tuple[int, ...],
                                                      events: list[Event]) -> None:
    play(profile, table, events)
