"""What a table in a tournament tells the people at it (the venue screen, the table's state topic): the
bubble (hand-for-hand, a hold on the next deal because an all in is called at another table), the players
the director calls to or from this table by name, and who sits where. Built by the table side
(firmware_py/room/tournament_table.py) from the director's state; pure data, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HOLD_CITE = "wfp-dealer, All In / Bubble"
HOLD_SAYS = "with an all in called at one table, the other tables deal no new hand until it is resolved"
HAND_FOR_HAND_SAYS = "each table plays one hand, then waits until every table has finished it"


@dataclass(frozen=True, kw_only=True, slots=True)
class TournamentNotice:
    hand_for_hand: bool = False
    hold: str = ""  # why this table may not deal its next hand now, in plain words ("" : it may)
    hold_rule: str = ""  # the rule it follows, cited
    all_in: tuple[str, ...] = ()  # the tables where an all in is called (this one included)
    calls: tuple[str, ...] = ()  # the director's calls for this table, newest last: moves by name, eliminations
    names: tuple[tuple[int, str], ...] = ()  # seat -> the player's name, as the director has the field
    level: int = 0  # the director's level number (its blinds reach the table as the core's level) ...
    blinds: str = ""  # ... and its blinds, for the next deal ('200/400 ante 50')
    # The director's clock when it sent this: seconds left in the level (or the break), and whether it runs.
    # The venue screen counts down from it by its own clock, as the director's page does.
    remaining_s: float = 0.0
    running: bool = False
    on_break: bool = False

    def seconds_left(self, elapsed: float) -> float:
        """Seconds left in the level or break, `elapsed` seconds after the director's state arrived."""
        return max(0.0, self.remaining_s - (elapsed if self.running else 0.0))

    def name(self, seat: int) -> str | None:
        return next((name for s, name in self.names if s == seat), None)

    def __bool__(self) -> bool:
        return bool(self.hand_for_hand or self.hold or self.calls)

    def to_json(self) -> dict[str, Any]:
        """The table's `state` topic's `tournament` part (no names: the state carries none)."""
        return {"hand_for_hand": self.hand_for_hand, "hold": self.hold, "hold_rule": self.hold_rule,
                "all_in": list(self.all_in), "calls": list(self.calls)}


def hold_words(table: str, *, hold: str, hand_for_hand: bool, all_in: tuple[str, ...]) -> tuple[str, str]:
    """(the hold in plain words, the rule) for `table`, from the director's `hold` for it and the bubble."""
    if not hold:
        return "", ""
    others = [t for t in all_in if t != table]
    if others:
        where = ", ".join(others)
        return (f"all in called at table {where}: do not deal, wait for the result",
                f"{HOLD_CITE}: {HOLD_SAYS}")
    if hand_for_hand:
        return ("hand-for-hand: wait until every table has finished this hand",
                f"{HOLD_CITE}: {HAND_FOR_HAND_SAYS}")
    return hold, ""
