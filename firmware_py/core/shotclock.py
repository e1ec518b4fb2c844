"""The shot clock: called on the player to act, its warnings and count as time passes, and what time running
out does to the hand, as the profile's `[clock]` says.

A handler: route.py calls it. Time arrives as events (a `tick` the daemon posts each second, and every press:
the core reads no clock); a warning or count is a notice, time running out a ruling with the book's cite. Where
time running out is an action (a check, a minimum raise), `expire` returns it and route.py gives it to the
betting round.
"""

from __future__ import annotations

import math
from dataclasses import replace

from firmware_py.core import transitions
from firmware_py.core.events import CHECK, RAISE, ButtonName, Level
from firmware_py.core.hand import Hand
from firmware_py.core.phase import BETTING, ClockView
from firmware_py.core.rulings import PREFLOP, NoticeKind, Ruling, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import Cause


def call(table: TableState, hand: Hand, caller: int | None) -> None:
    """`clock` pressed: the clock on the player to act. `caller` is the seat that called it (the WFP dealers'
    "Clock": any player dealt into the hand, even one who has folded); None is the dealer (or the floor)."""
    assert table.profile is not None
    shot = table.profile.clock
    to_act = hand.betting.to_act
    if hand.phase is not BETTING or to_act is None:
        table.refuse("clock pressed with no player to act")
        return
    if caller is not None and caller not in hand.positions.deal_order:
        table.refuse(f"clock: seat {caller} was not dealt into this hand and may not call "
                     f"the clock ({shot.cite}); not taken")
        return
    if caller == to_act:
        table.refuse(f"clock: seat {caller} is the player to act; not taken")
        return
    if hand.clock is not None and hand.clock.seat == to_act:
        table.refuse(f"clock: already running on seat {to_act} "
                     f"({_whole(hand.clock.left(table.t))} s left)")
        return
    hand.clock = ClockView(seat=to_act, started_t=table.t, seconds=shot.seconds,
                           warnings=tuple(float(w) for w in shot.warnings), countdown=shot.countdown,
                           rule=shot.cite, called_by=caller)
    who = "the dealer" if caller is None else f"seat {caller}"
    table.notice(NoticeKind.CLOCK, f"Clock on seat {to_act}, called by {who}: {shot.seconds} seconds "
                 f"to act ({shot.cite})")


def tick(table: TableState, hand: Hand) -> tuple[ButtonName, int] | None:
    """Time passing: the warnings and the count the clock has reached, and its expiry (see `expire`)."""
    clock = hand.clock
    if clock is None:
        return None
    left = clock.left(table.t)
    if left <= 0:
        return expire(table, hand)
    due = [w for w in clock.warnings if left <= w and (clock.said is None or w < clock.said)]
    if left <= clock.countdown:
        count = float(_whole(left))
        if clock.said is None or count < clock.said:
            due.append(count)
    if not due:
        return None
    said = min(due)
    hand.clock = replace(clock, said=said)
    if said <= clock.countdown:
        table.notice(NoticeKind.CLOCK, f"Clock on seat {clock.seat}: {int(said)}")
    else:
        table.notice(NoticeKind.CLOCK, f"Clock on seat {clock.seat}: {int(said)} seconds ({clock.rule})")
    return None


def expired(table: TableState, hand: Hand, seat: int | None) -> bool:
    """Whether the clock on `seat` (the acting seat: None is the one to act) has run out at this event."""
    clock = hand.clock
    actor = seat if seat is not None else hand.betting.to_act
    return clock is not None and clock.seat == actor and clock.left(table.t) <= 0


def said_raise(table: TableState, hand: Hand) -> bool:
    """A raise pressed with no amount by the seat on the clock, where the book says "raise" alone does not stop
    the clock (wfp-dealer: a minimum raise if no amount by the end): held, and True. False: an ordinary press."""
    assert table.profile is not None
    clock = hand.clock
    if (clock is None or clock.seat != hand.betting.to_act or table.chips.hand is None
            or table.profile.clock.raise_without_amount != "minimum"):
        return False
    hand.clock = replace(clock, raise_said=True)
    table.notice(NoticeKind.CLOCK, f"Clock on seat {clock.seat}: \"raise\" said with no amount; the clock runs "
                 f"on, and with no amount by the end it is a minimum raise ({clock.rule})")
    return True


def expire(table: TableState, hand: Hand) -> tuple[ButtonName, int] | None:
    """Time ran out: the hand dead (a ruling, the book's sentence cited), or the action the profile gives it,
    returned for the betting round (a check with no bet to call, a minimum raise where "raise" was said)."""
    assert table.profile is not None
    clock = hand.clock
    if clock is None:
        return None
    hand.clock = None
    shot = table.profile.clock
    seat = clock.seat
    if hand.phase is not BETTING or hand.betting.to_act != seat:
        return None
    when = f"time ran out on seat {seat} ({clock.seconds:g} seconds, called by "
    when += "the dealer)" if clock.called_by is None else f"seat {clock.called_by})"
    chips = table.chips.hand
    if clock.raise_said and chips is not None:
        minimum = min(chips.min_to(), chips.street_bet[seat] + chips.behind[seat])
        table.emit(Ruling(t=table.t, ruling=RulingKind.CLOCK_EXPIRED, cause=Cause.CLOCK_EXPIRED, seat=seat,
                          amount=minimum, rule=clock.rule,
                          remedy=f"{when.capitalize()}: \"raise\" was said with no amount, so it is a minimum "
                                 f"raise, to {minimum:,}."))
        return RAISE, minimum
    facing = facing_bet(table, hand, seat)
    if not facing and shot.not_facing_bet == "check":
        table.emit(Ruling(t=table.t, ruling=RulingKind.CLOCK_EXPIRED, cause=Cause.CLOCK_EXPIRED, seat=seat,
                          rule=f"{shot.expired_cite}; {clock.rule}",
                          remedy=f"{when.capitalize()} with no bet to call: the hand is checked, not dead "
                                 "(the book kills a hand on the clock only when it faces a bet or raise)."))
        return CHECK, 0
    bet = "facing a bet" if facing else "with no bet to call"
    table.emit(Ruling(t=table.t, ruling=RulingKind.DEAD_HAND, cause=Cause.CLOCK_EXPIRED, seat=seat,
                      rule=f"{shot.expired_cite}; {clock.rule}" if shot.expired_cite != clock.rule else clock.rule,
                      remedy=f"{when.capitalize()} {bet}: seat {seat}'s hand is dead, even if the player acts "
                             "now. Take its cards into the muck; its chips stay in the pot."))
    betting = hand.betting
    betting.dead.add(seat)
    if chips is not None:
        chips.fold_out((seat,))
    betting.to_act = hand.next_to_act(seat)
    if betting.to_act is None:
        if not transitions.uncontested(table, hand):
            transitions.close_round(table, hand)
    else:
        transitions.after_action(table, hand)
    return None


def facing_bet(table: TableState, hand: Hand, seat: int) -> bool:
    """Whether the seat has a bet to call: by the chips when the table counts them, else by the presses (a bet or
    raise this round; before the flop the big blind is a bet to every seat but the big blind's)."""
    chips = table.chips.hand
    if chips is not None and seat in chips.street_bet:
        return chips.current > chips.street_bet[seat]
    betting = hand.betting
    raised = any(taken.word in ("bet", "raise") for taken in betting.taken[betting.round_start:])
    if hand.street is PREFLOP:
        return raised or seat != hand.positions.big_blind
    return raised


def _whole(seconds: float) -> int:
    return max(0, math.ceil(seconds))


# -- a house's action clock (the profile's optional [action_clock]) -------------------------------------------

def follow(table: TableState) -> None:
    """After each event: with an action clock, a decision due and no clock on its player, the clock starts."""
    assert table.profile is not None
    house = table.profile.action_clock
    hand = table.hand
    if house is None or hand is None or hand.phase is not BETTING:
        return
    to_act = hand.betting.to_act
    if to_act is None or (hand.clock is not None and hand.clock.seat == to_act):
        return
    left = table.time_banks.setdefault(to_act, house.extensions)
    hand.clock = ClockView(seat=to_act, started_t=table.t, seconds=house.seconds,
                           warnings=tuple(float(w) for w in house.warnings), countdown=house.countdown,
                           rule=house.cite, action=True, extensions_left=left)


def extend(table: TableState, hand: Hand, seat: int | None) -> None:
    """`extend`: the player on the action clock spends a time-extension chip, for the house's extension seconds."""
    assert table.profile is not None
    house = table.profile.action_clock
    clock = hand.clock
    if house is None:
        table.refuse(f"extend: the {table.profile.name} profile runs no action clock; not taken")
        return
    if clock is None or (seat is not None and seat != clock.seat):
        table.refuse(f"extend: no clock runs on seat {seat if seat is not None else '?'}; "
                     "not taken")
        return
    left = table.time_banks.setdefault(clock.seat, house.extensions)
    if left <= 0:
        table.refuse(f"extend: seat {clock.seat} has no time-extension chip left "
                     f"({house.cite}); not taken")
        return
    table.time_banks[clock.seat] = left - 1
    hand.clock = replace(clock, seconds=clock.seconds + house.extension_seconds, said=None,
                         extensions_left=left - 1)
    table.notice(NoticeKind.CLOCK, f"Clock on seat {clock.seat}: a time-extension chip, {house.extension_seconds} "
                 f"seconds more ({_whole(hand.clock.left(table.t))} s left; {left - 1} chip"
                 f"{'' if left - 1 == 1 else 's'} left) ({house.cite})")


def level(table: TableState, event: Level) -> None:
    """A `level`: at a level the house names, every player's time-extension chips are given back."""
    house = table.profile.action_clock if table.profile is not None else None
    if house is None or event.number is None or event.number not in house.reset_levels:
        return
    table.time_banks = {}  # each seat starts again from the house's number of chips
    table.notice(NoticeKind.CLOCK, f"Level {event.number}: every player has {house.extensions} time-extension "
                 f"chips again ({house.cite})")
