"""Cutting a live event stream into hands, one event at a time, for the room's `hand` messages.

`firmware_py.daemon.export.hand_records` does the same over a whole journal at once; this does it
incrementally (the publisher must not replay the session for every hand) and hands back each
`HandRecord` the moment it ends, for `export.hand_history` to turn into PHH. A test checks that
both cut a session into the same hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.core import Button, ButtonName, Event, Phase, RulingKind, TableSnapshot
from firmware_py.core.engine import Outcome
from firmware_py.daemon.export import NOT_PLAYED, HandRecord, _play_order

ACTIONS = frozenset({ButtonName.FOLD, ButtonName.CHECK, ButtonName.CALL, ButtonName.BET, ButtonName.RAISE,
                     ButtonName.ALLIN})


@dataclass(frozen=True, kw_only=True, slots=True)
class FinishedHand:
    record: HandRecord
    seq: int  # the journal seq of the event that ended it


class HandTracker:
    """Feed it (seq, event, outcome, before, after) for every event the core accepted."""

    def __init__(self) -> None:
        self.current: HandRecord | None = None

    def feed(self, seq: int, event: Event, outcome: Outcome, before: TableSnapshot,
             after: TableSnapshot) -> list[FinishedHand]:
        finished: list[FinishedHand] = []
        if after.hand_number != before.hand_number and after.phase is Phase.DEALING:
            if self.current is not None and not self.current.ended:  # a new hand ends the open one
                self.current.ended = True
                finished.append(FinishedHand(record=self.current, seq=seq))
            self.current = HandRecord(number=after.hand_number, t=event.t, seats=[])
        current = self.current
        if current is None or current.ended:
            return finished
        if isinstance(event, Button) and event.name in ACTIONS:
            actor = event.seat or before.to_act
            if actor is not None:
                current.actions.append((str(before.street or "preflop"), actor, event.name))
        for ruling in outcome.rulings:
            current.rulings.append(f"{ruling.ruling}{'(' + ruling.cause + ')' if ruling.cause else ''}")
            if ruling.ruling in NOT_PLAYED and after.phase is Phase.MISDEALT:
                current.played = False
            if ruling.ruling is RulingKind.DEAD_HAND and ruling.seat is not None:
                current.dead.add(ruling.seat)
        if after.phase is not Phase.IDLE and after.hand_number == current.number:
            current.seats = _play_order(after) or current.seats
            current.hole = {v.seat: v.cards for v in after.seats if v.cards}
            current.board, current.burns = after.board, after.burns
        if after.phase in (Phase.IDLE, Phase.MISDEALT) or after.hand_number != current.number:
            current.ended = True
            finished.append(FinishedHand(record=current, seq=seq))
        return finished
