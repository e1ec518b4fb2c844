"""Seats, the button and the blinds: who is dealt in, in which order, and where the button goes next."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from firmware_py.core.events import MAX_SEATS
from firmware_py.core.profiles import BlindRule


def clockwise_from(seat: int, seats: set[int] | frozenset[int] | tuple[int, ...]) -> list[int]:
    """The occupied seats in clockwise order starting with the first one after `seat`.

    >>> clockwise_from(3, {1, 3, 5, 8})
    [5, 8, 1, 3]
    """
    # The seats in number order, cut after `seat` (asked twice a hand: a sort and a cut, not a pass round
    # all MAX_SEATS seats asking each). Only seats 1 to MAX_SEATS are seats, and a seat beyond them is that
    # seat round the table again.
    ordered = sorted(seats)
    if ordered and (ordered[0] < 1 or ordered[-1] > MAX_SEATS):
        ordered = [s for s in ordered if 1 <= s <= MAX_SEATS]
    cut = bisect_right(ordered, (seat - 1) % MAX_SEATS + 1)
    return ordered[cut:] + ordered[:cut]


@dataclass(frozen=True, kw_only=True, slots=True)
class Positions:
    """The button and blinds of one hand, and the deal order (first card left of the button)."""

    button: int  # may be an empty seat under the dead-button rule
    small_blind: int | None  # None when there is no small blind this hand
    big_blind: int
    deal_order: tuple[int, ...]  # dealt-in seats, first card first, button (or the seat before it) last

    def __init__(self, *, button: int, small_blind: int | None, big_blind: int,
                 deal_order: tuple[int, ...]) -> None:  # made at every hand: for mypyc, see events.py
        object.__setattr__(self, "button", button)
        object.__setattr__(self, "small_blind", small_blind)
        object.__setattr__(self, "big_blind", big_blind)
        object.__setattr__(self, "deal_order", deal_order)

    @property
    def heads_up(self) -> bool:
        return len(self.deal_order) == 2


def first_positions(button: int, seats: set[int]) -> Positions:
    """Positions for the first hand after setup: blinds are the next seats after the button.

    Heads-up the button is the small blind and the big blind gets the first card.
    """
    if len(seats) < 2:
        raise ValueError("a hand needs at least two seated players")
    order = clockwise_from(button, seats)
    if button not in seats:
        raise ValueError(f"the button seat {button} is not occupied")
    if len(seats) == 2:
        other = order[0]
        return Positions(button=button, small_blind=button, big_blind=other, deal_order=(other, button))
    return Positions(button=button, small_blind=order[0], big_blind=order[1], deal_order=tuple(order))


def next_positions(previous: Positions, seats: set[int], rule: BlindRule) -> Positions:
    """Positions for the next hand under the dead-button rule of the profile.

    The big blind goes to the player due for it (the next occupied seat after the last big blind);
    the last big blind becomes the small blind and the last small blind's seat the button, even in
    front of an empty seat. Some profiles keep the button in place when the small blind's player
    has gone. Heads-up, the player who had the big blind most recently gets the button.
    """
    if len(seats) < 2:
        raise ValueError("a hand needs at least two seated players")
    big_blind = clockwise_from(previous.big_blind, seats)[0]
    if len(seats) == 2:
        button = next(seat for seat in seats if seat != big_blind)
        return Positions(button=button, small_blind=button, big_blind=big_blind,
                         deal_order=(big_blind, button))
    small_blind: int | None = previous.big_blind if previous.big_blind in seats else None
    if previous.small_blind is not None and previous.small_blind != previous.button:
        button = previous.small_blind
    else:
        button = previous.button
    if button not in seats and not rule.button_follows_empty_small_blind:
        button = previous.button
    if small_blind is not None and small_blind == button:
        small_blind = None
    # Clockwise from the button, so an occupied button seat is dealt last.
    order = clockwise_from(button, seats)
    return Positions(button=button, small_blind=small_blind, big_blind=big_blind, deal_order=tuple(order))


def between(seat: int, start: int, end: int) -> bool:
    """Whether `seat` lies strictly between `start` and `end` going clockwise."""
    distance = (seat - start) % MAX_SEATS
    return 0 < distance < (end - start) % MAX_SEATS
