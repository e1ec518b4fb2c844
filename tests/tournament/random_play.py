"""Plays a tournament with random chip swings instead of poker (fast, pure): each table's hand moves chips
between two of its players, sometimes all of them; the button and blinds move by the core's dead-button
rule (firmware_py.core.seating). For checking the director's decisions over many tournaments."""

from __future__ import annotations

import random

from firmware_py.core.profiles import BlindRule
from firmware_py.core.seating import Positions, first_positions, next_positions
from firmware_py.tournament import Tournament, book_for


def play(profile: str, *, tables: int, players: int, capacity: int = 9, seed: int = 0,
         max_hands: int = 20000) -> tuple[Tournament, list[int]]:
    ids = [f"t{i:02d}" for i in range(1, tables + 1)]
    t = Tournament(book=book_for(profile), tables=ids, capacity=capacity,
                   entrants=[(f"p{i:03d}", f"Player {i}") for i in range(1, players + 1)], stack=1000, seed=seed)
    rng = random.Random(seed + 1)
    positions: dict[str, Positions | None] = {}
    seen_draw = 0
    totals: list[int] = []
    rule = BlindRule(cite="", heads_up_cite="", button_follows_empty_small_blind=True,
                     new_player_between_button_and_blinds=False)
    for _ in range(max_hands):
        if t.finished:
            break
        # a redraw or a break resets the table's positions (a new start at the button drawn)
        for d in t.log[seen_draw:]:
            if d.kind in ("button",):
                positions[d.table] = None
        seen_draw = len(t.log)
        table = rng.choice(list(t.tables.values()))
        seats = set(table.seats)
        if len(seats) < 2:
            continue
        previous = positions.get(table.id)
        pos = first_positions(table.button or min(seats), seats) if previous is None \
            else next_positions(previous, seats, rule)
        positions[table.id] = pos
        start = {s: t.players[table.seats[s]].chips for s in seats}
        end = dict(start)
        a, b = rng.sample(sorted(seats), 2)
        amount = start[a] if rng.random() < 0.3 else rng.randint(1, start[a])
        amount = min(amount, start[a])
        if rng.random() < 0.5 and start[b] <= start[a]:
            amount = start[b]
            end[b] -= amount
            end[a] += amount
        else:
            end[a] -= amount
            end[b] += amount
        t.hand_done(table.id, hand=table.hands + 1, start=start, end=end, button=pos.button,
                    big_blind=pos.big_blind)
        totals.append(t.total_chips())
    return t, totals
