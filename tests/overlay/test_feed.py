"""The broadcast feed's schema and builder, the reveal policies, and the production side's delay, chances
and control, without a browser or a broker."""

from __future__ import annotations

import msgspec
import pytest

from firmware_py.room.bounds import CHANCES_GRACE_S
from firmware_py.room.broadcast import ChancesAhead, ControlError, DelayedFeed, Production, heads_up_outs
from firmware_py.room.feed import Reveal, decode, encode, reveal
from tests.overlay.hand import NAMES, hand_messages

TOPIC = "pokertable/main/t01/broadcast"


def step_where(predicate):
    return next(step for step in hand_messages() if predicate(step))


def test_the_feed_round_trips_through_its_one_schema_and_names_every_field_the_graphic_needs() -> None:
    for step in hand_messages():
        assert decode(encode(step.feed)) == step.feed
    showdown = hand_messages()[-1].feed
    assert [s.name for s in showdown.seats] == list(NAMES.values())
    assert showdown.pot == 1475 and [p.amount for p in showdown.pots] == [1100, 375]
    assert showdown.pots[1].winners == (4, 1) and showdown.result is not None
    assert showdown.result.lines == ("Cy Young wins the main pot, 1,100, with straight, ace high",
                                     "Dee Dee Ramone & Ada Lovelace split side pot 1, 375")
    assert showdown.level is not None and showdown.level.blinds == "50/100" and showdown.level.big == 100


def test_a_message_that_breaks_the_schema_is_quarantined_and_the_next_good_one_still_goes_on_air() -> None:
    feed = DelayedFeed(delay_s=1.0, room="main", table="t01")
    good = msgspec.to_builtins(hand_messages()[5].feed)
    assert not feed.offer(TOPIC, {**good, "seats": "everyone"}, 0.0)
    assert not feed.offer(TOPIC, {**good, "v": 2}, 0.0)
    assert not feed.offer(TOPIC, {**good, "table": "t02"}, 0.0)
    assert feed.offer(TOPIC, good, 0.5)
    assert feed.rejected == 3 and feed.on_air(1.5).seq == good["seq"]


def test_nothing_is_on_air_before_the_whole_delay_from_arrival() -> None:
    feed = DelayedFeed(delay_s=30.0, room="main", table="t01")
    step = hand_messages()[10]
    feed.push(step.feed, 100.0)
    for now in (100.0, 110.0, 129.99):
        assert feed.on_air(now) is None and feed.feed(now)["on_air"] is None
    assert feed.on_air(130.0).seq == step.seq


def test_a_longer_delay_holds_the_picture_and_never_shows_an_older_one() -> None:
    steps = hand_messages()
    feed = DelayedFeed(delay_s=10.0, room="main", table="t01")
    for step in steps:
        feed.push(step.feed, step.t)
    shown = feed.on_air(20.0)  # everything up to t=10 is on air
    feed.set_delay(15.0)
    assert feed.on_air(20.5).seq == shown.seq  # held, not rewound to t=5.5
    assert feed.on_air(25.5).seq == shown.seq
    later = feed.on_air(28.0)  # t=13 has now served the new delay
    assert later.seq > shown.seq and later.t <= 28.0 - 15.0


def test_a_message_goes_on_air_only_once_its_chances_are_ready() -> None:
    class Slow(ChancesAhead):
        def __init__(self) -> None:
            super().__init__(background=False)
            self.hold = True

        def ready(self, key):
            return key is None or (not self.hold and super().ready(key))

    chances = Slow()
    feed = DelayedFeed(delay_s=5.0, room="main", table="t01", chances=chances)
    dealing = step_where(lambda s: s.snapshot.phase == "dealing")
    dealt = step_where(lambda s: s.snapshot.phase == "betting")
    feed.push(dealing.feed, 0.0)
    feed.push(dealt.feed, 1.0)
    assert feed.on_air(6.3).seq == dealing.seq  # the dealt hands wait for their chances: late, never "computing"
    chances.hold = False
    shown = feed.on_air(6.3)
    assert shown.seq == dealt.seq and shown.chances is not None and len(shown.chances.seats) == 4
    assert feed.late == 0


def test_a_message_waits_for_its_chances_at_most_the_grace_then_goes_on_air_without_them() -> None:
    """Issue 34: the picture is never more than CHANCES_GRACE_S late, whatever the chances worker is doing."""
    class Stuck(ChancesAhead):
        def ready(self, key):
            return key is None

    feed = DelayedFeed(delay_s=5.0, room="main", table="t01", chances=Stuck(background=False))
    dealing = step_where(lambda s: s.snapshot.phase == "dealing")
    dealt = step_where(lambda s: s.snapshot.phase == "betting")
    feed.push(dealing.feed, 0.0)
    feed.push(dealt.feed, 1.0)
    assert feed.on_air(6.0 + CHANCES_GRACE_S - 0.01).seq == dealing.seq
    shown = feed.on_air(6.0 + CHANCES_GRACE_S)
    assert shown.seq == dealt.seq and feed.late == 1


def test_heads_up_outs_are_the_cards_that_put_the_player_behind_ahead() -> None:
    live = ((1, ("Ah", "Kh")), (2, ("Qs", "Qd")))
    seat, outs = heads_up_outs(live, ("2h", "7h", "9c"), frozenset())
    assert seat == 1
    hearts = {f"{r}h" for r in "345689TJQ" if f"{r}h" not in ("7h", "2h")}
    assert hearts <= set(outs) and {"As", "Ks", "Ac", "Kd"} <= set(outs)  # a flush, or a higher pair
    assert "3c" not in outs and len(outs) == 15


@pytest.mark.parametrize("policy, hidden_before_action, hidden_at_showdown", [
    (Reveal.IMMEDIATELY, False, set()),
    (Reveal.FIRST_ACTION, True, set()),
    (Reveal.SHOWDOWN, True, {2}),  # the folded player's cards are never shown
    (Reveal.NEVER, True, {1, 2, 3, 4}),
])
def test_reveal_policies_hold_cards_back_from_the_page(policy: Reveal, hidden_before_action: bool,
                                                       hidden_at_showdown: set[int]) -> None:
    steps = hand_messages()
    dealt = step_where(lambda s: s.snapshot.phase == "betting")  # before anyone acted
    page = reveal(dealt.feed, policy)
    assert all(bool(s.hidden) == hidden_before_action for s in page.seats if s.state == "active")
    assert (page.chances is None) or not hidden_before_action
    text = encode(page).decode()
    for seat in page.seats:
        if seat.hidden:
            assert seat.cards == () and not any(f'"{card}"' in text for card in dealt.feed.seats[seat.seat - 1].cards)
    acted = reveal(step_where(lambda s: s.t == 6.5).feed, policy)  # seat 4 raised, seat 1 called
    if policy is Reveal.FIRST_ACTION:
        assert {s.seat for s in acted.seats if s.cards} == {1, 4}
    final = reveal(steps[-1].feed, policy)
    assert {s.seat for s in final.seats if s.hidden} == hidden_at_showdown


def test_the_producers_changes_are_checked_and_the_newest_wins_between_instances() -> None:
    primary = Production(room="main", feature="t01", delay_s=60.0)
    standby = Production(room="main", feature="t01", delay_s=60.0, instance="standby")
    primary.on_control = lambda control: standby.offer("pokertable/main/production/control",
                                                       msgspec.to_builtins(control), 0.0)
    for table in ("t01", "t02"):  # heard of: a table the producer names must exist
        primary.table(table).push(hand_messages(table=table)[0].feed, 0.0)
    primary.change(feature="t02", reveal={"t02": "showdown"}, chips="bb", delay_s=90)
    assert standby.control.feature == "t02" and standby.control.policy("t02") is Reveal.SHOWDOWN
    assert standby.control.chips == "bb" and standby.control.delay_s == 90
    stale = {**msgspec.to_builtins(primary.control), "feature": "t01", "stamp": 1.0}
    standby.offer("pokertable/main/production/control", stale, 0.0)
    assert standby.control.feature == "t02"
    for bad, message in (({"delay_s": 0}, "0 only for a private game"), ({"reveal": {"t01": "later"}}, "later"),
                         ({"chips": "euros"}, "one of amounts, bb"), ({"feature": "t/01"}, "letters, digits"),
                         ({"volume": 11}, "unknown")):
        with pytest.raises(ControlError, match=message):
            primary.change(**bad)
    assert primary.control.feature == "t02"
