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

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"amount": self.amount, "seats": list(self.seats)}
        if self.winners:
            out["winners"] = list(self.winners)
            out["shares"] = {str(seat): chips for seat, chips in self.shares}
        if self.odd_chips:
            out["odd_chips"] = list(self.odd_chips)
        return out
