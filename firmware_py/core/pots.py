"""A pot as awarded: the record the chips (chips.py), the showdown's ruling (rulings.py) and the views share.

Its own module, below both: the ruling names the pots it awarded without importing the chips' accounting.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class Pot:
    """A pot (the main pot first, then side pots): its chips, the seats that may win it, and who did."""

    amount: int
    seats: tuple[int, ...]
    winners: tuple[int, ...] = ()
    shares: tuple[tuple[int, int], ...] = ()  # (seat, chips), odd chips included
    odd_chips: tuple[int, ...] = ()  # seats that got one odd chip each
    chip: int = 1  # the chip it was split in, an odd chip's value: the smallest chip in play (1: single units)
    # A high-low split game: the seats that won the low half (`winners` won the high); () when no low qualified
    # (the high takes the whole pot) or the game is not split.
    low_winners: tuple[int, ...] = ()

    def __init__(self, amount: int, seats: tuple[int, ...], winners: tuple[int, ...] = (),  # noqa: PLR0917
                 shares: tuple[tuple[int, int], ...] = (), odd_chips: tuple[int, ...] = (), chip: int = 1,
                 low_winners: tuple[int, ...] = ()) -> None:
        # written out for mypyc (pots are made at every showdown): see the note in events.py
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "shares", shares)
        object.__setattr__(self, "odd_chips", odd_chips)
        object.__setattr__(self, "chip", chip)
        object.__setattr__(self, "low_winners", low_winners)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"amount": self.amount, "seats": list(self.seats)}
        if self.winners:
            out["winners"] = list(self.winners)
            out["shares"] = {str(seat): chips for seat, chips in self.shares}
        if self.low_winners:
            out["low_winners"] = list(self.low_winners)
        if self.odd_chips:
            out["odd_chips"] = list(self.odd_chips)
        if self.winners and self.chip > 1:  # (sessions without chips in play stay as they were)
            out["chip"] = self.chip
        return out
