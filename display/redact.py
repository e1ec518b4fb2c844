"""Copies of snapshots with the hole cards taken out, for every picture that players can see.

Rulings about a card that lies face down (an extra card, which becomes the burn) lose its name too.
"""

from __future__ import annotations

import dataclasses

from firmware_py.core.snapshot import TableSnapshot

HIDDEN = "??"  # stands for a card dealt face down; it has no rank or suit to draw


def hide_hole_cards(snapshot: TableSnapshot) -> TableSnapshot:
    """The snapshot with every seat's cards replaced by HIDDEN, keeping how many were dealt.

    >>> from firmware_py.core.snapshot import Phase, PlayerState, SeatView
    >>> snap = TableSnapshot(t=1, profile="robert", profile_title="Robert", hand_number=1,
    ...     phase=Phase.BETTING, street=None, button=1, small_blind=2, big_blind=1, to_act=1,
    ...     seats=(SeatView(seat=1, state=PlayerState.ACTIVE, cards=("As", "Kd")),),
    ...     board=(), burns=(), in_play="red")
    >>> hide_hole_cards(snap).seat(1).cards
    ('??', '??')
    """
    seats = tuple(dataclasses.replace(seat, cards=(HIDDEN,) * len(seat.cards))
                  for seat in snapshot.seats)
    return dataclasses.replace(snapshot, seats=seats, burns=(HIDDEN,) * len(snapshot.burns),
                               unconfirmed=tuple(r.public() for r in snapshot.unconfirmed),
                               hand_rulings=tuple(r.public() for r in snapshot.hand_rulings))
