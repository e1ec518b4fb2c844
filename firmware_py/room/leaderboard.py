"""The room's chip counts (issue 38 item 6): every player's stack, ranked, as the director's state holds it.

One source, one function: the director's state (`tournament_messages.DirectorState`, as plain JSON data) has each
table's seats with the player's name and chips, and the last hand it took in from that table. Those chips move only
when the director takes a table's report of a hand in (`Director._take`: `check_hand`, `check_pots`); a refused
report is never applied, so it never moves a count here. The director's state is made from its journal, so the
leaderboard states only what the journal holds: each row says which table's hand it is as of.

The floor (`display/floor.py`), the director's page (`static/director.js`, from `/state`) and the broadcast (on the
delay: the state in force after the secure delay, `broadcast.ProductionRoom.page`) all draw `leaderboard(state)`.

>>> state = {"level": {"big": 200}, "chips_in_play": 9000, "tables": [
...     {"table": "t01", "hand": 12, "seats": [{"seat": 2, "player": "p1", "name": "Ada", "chips": 4000},
...                                           {"seat": 5, "player": "p2", "name": "Cy", "chips": 2000}]},
...     {"table": "t02", "hand": 9, "seats": [{"seat": 1, "player": "p3", "name": "Bo", "chips": 3000}]}]}
>>> [(r["rank"], r["name"], r["chips"], r["bb"], r["where"]) for r in leaderboard(state)["rows"]]
[(1, 'Ada', 4000, 20.0, 't01 seat 2'), (2, 'Bo', 3000, 15.0, 't02 seat 1'), (3, 'Cy', 2000, 10.0, 't01 seat 5')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TOP = 10  # rows the screens show (the floor's panel, the overlay); the director's page shows every player


def leaderboard(state: Mapping[str, Any], *, top: int | None = None) -> dict[str, Any]:
    """Every seated player with chips, largest stack first (equal stacks share a rank, then by name), with big
    blinds at the current level, the average stack and each table's last hand taken in (`as_of`)."""
    rows: list[dict[str, Any]] = []
    as_of: dict[str, int] = {}
    for table in state.get("tables") or []:
        as_of[str(table["table"])] = int(table.get("hand", 0))
        for seat in table.get("seats") or []:
            chips = int(seat["chips"])
            if chips <= 0:
                continue
            rows.append({"player": str(seat.get("player", "")), "name": str(seat["name"]), "chips": chips,
                         "table": str(table["table"]), "seat": int(seat["seat"]), "hand": int(table.get("hand", 0)),
                         "where": f"{table['table']} seat {seat['seat']}"})
    rows.sort(key=lambda r: (-r["chips"], r["name"], r["table"], r["seat"]))
    big = int((state.get("level") or {}).get("big", 0))
    rank, previous = 0, None
    for index, row in enumerate(rows, start=1):
        if row["chips"] != previous:
            rank, previous = index, row["chips"]
        row["rank"] = rank
        row["bb"] = round(row["chips"] / big, 1) if big > 0 else None
    total = sum(r["chips"] for r in rows)
    return {"players": len(rows), "chips": total, "average": total // len(rows) if rows else 0,
            "big_blind": big, "as_of": as_of, "rows": rows if top is None else rows[:top]}


def chips_text(chips: int, bb: float | None) -> str:
    """'12,400 (62 BB)': the count, and in big blinds when there is a level."""
    if bb is None:
        return f"{chips:,}"
    return f"{chips:,} ({bb:,.0f} BB)" if bb >= 10 else f"{chips:,} ({bb:,.1f} BB)"
