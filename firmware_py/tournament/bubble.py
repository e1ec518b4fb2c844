"""The bubble: hand-for-hand play and the "All in called" hold across tables (wfp-dealer "All In / Bubble").

Pure state the director keeps: `may_deal(table)` says whether a table may start its next deal and, when
not, why (with the rule). Hand-for-hand: once the director starts it, each table plays one hand and waits
until every table in play has finished its hand. The hold: when an all in is called at one table, the
other tables do not deal a new hand until that table says the hand is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from firmware_py.tournament.books import Cite

HOLD_RULE = Cite(profile="wfp-dealer", section="All In / Bubble", rule="",
                 says="When the tournament is on the bubble (one player left before final table), and an all in has "
                      "been called, the dealer should announce \"All in called\" and the other dealer should "
                      "acknowledge it, and not deal any new hands until the first dealer confirms that the all in "
                      "player survived.")


@dataclass(kw_only=True)
class Bubble:
    hand_for_hand: bool = False
    all_in: dict[str, int] = field(default_factory=dict)  # table -> hand number with an all in called
    done: set[str] = field(default_factory=set)  # tables that finished this hand-for-hand round
    rounds: int = 0

    def start(self) -> None:
        self.hand_for_hand, self.done = True, set()

    def stop(self) -> None:
        self.hand_for_hand, self.done = False, set()
        self.all_in.clear()

    def all_in_called(self, table: str, hand: int) -> None:
        if self.hand_for_hand:
            self.all_in[table] = hand

    def hand_over(self, table: str, tables: Iterable[str]) -> None:
        """`table` finished its hand; `tables`: the tables in play now."""
        self.all_in.pop(table, None)
        if not self.hand_for_hand:
            return
        in_play = set(tables)
        self.done.add(table)
        self.done &= in_play
        for gone in set(self.all_in) - in_play:
            del self.all_in[gone]
        if self.done >= in_play:
            self.done = set()
            self.rounds += 1

    def may_deal(self, table: str) -> tuple[bool, str]:
        """Whether `table` may deal its next hand; why not (citing the rule)."""
        others = sorted(t for t in self.all_in if t != table)
        if others:
            return False, f"all in called at {', '.join(others)}: hold the next deal ({HOLD_RULE})"
        if self.hand_for_hand and table in self.done:
            return False, "hand-for-hand: wait until every table has finished this hand"
        return True, ""
