"""The screens players look at (issue 39 item 6): the room's clock screen (a TV by HDMI, or any browser) and a
player's read-only view on a phone. Both read `public_state`: what a card room posts on its walls (level, time,
blinds, next level, break, players left, average stack, prize pool and payouts, who sits where) and nothing else of
the director's state (no refused reports, no chip counts by player: a table's stacks are the tables', and the screens
show nothing from the tables beyond who sits where, which the director decides between hands).

They are served by the director's page (`/screen`: static/screen.html, `/player`: static/player.html, both with
static/screens.js and screens.css; `/public`, `/public/events`: server-sent events, the state on each change and a
ping every 2 s), open without pairing: read-only, and only what this function gives. A screen that hears nothing for STALE_S says so in large type and stops
its clock where it was (it does not guess); it reconnects by itself.
"""

from __future__ import annotations

from typing import Any

from firmware_py.room.tournament_messages import DirectorState


def public_state(state: DirectorState) -> dict[str, Any]:
    level = state.level
    chips = state.chips_in_play
    seats = {s.player: [t.table, s.seat, s.name] for t in state.tables for s in t.seats}
    return {
        "title": state.title, "structure": state.structure, "over": state.over, "winner": state.winner,
        "level": {"number": level.number, "small": level.small, "big": level.big, "ante": level.ante,
                  "bb_ante": level.bb_ante},
        "next_level": None if state.next_level is None else {
            "number": state.next_level.number, "small": state.next_level.small, "big": state.next_level.big,
            "ante": state.next_level.ante, "bb_ante": state.next_level.bb_ante},
        "on_break": state.on_break, "remaining_s": state.remaining_s, "running": state.running,
        "remaining": state.remaining, "entrants": state.entrants,
        "average": chips // state.remaining if state.remaining else 0,
        "pool": state.pool, "payouts": state.payouts, "late": state.late,
        "overlay": state.money.overlay if state.money else 0,
        "deal": bool(state.deal),
        "places": [{"place": p.place, "name": p.name, "prize": p.prize} for p in state.places[:20]],
        "seats": seats,
    }

