"""The tournament across the room: the field, the seat draw, eliminations and places, balancing,
breaking tables and redraws, each decision citing the book's rule.

Pure: the director's station feeds it what the tables report (`hand_done`) and publishes what it
decides. The draws (seats, button, the players of a broken table) come from `random.Random(seed)`:
the same seed and the same reports give the same tournament.

The positions are the core's (firmware_py.core.seating): the player due for the big blind at a table
is the next occupied seat clockwise after the last big blind; the earliest open seat due for the big
blind is the first empty seat clockwise after it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from firmware_py.core.seating import between, clockwise_from
from firmware_py.tournament.books import Book, Breaking, Cite, DealtIn, Mover, Target


@dataclass(kw_only=True)
class Player:
    id: str
    name: str
    chips: int
    table: str | None = None
    seat: int | None = None
    place: int | None = None  # set when eliminated (or 1 for the winner)
    shared: tuple[int, int] | None = None  # (first, last) place when shared with players of equal stacks
    card: str = ""  # the player card's id (check-in), if any
    person: str = ""  # the first entry's id of the same person (a re-entry), or ""
    seated_at: int = 0  # the hands its table had played when the player last sat there (undo: none since)


@dataclass(kw_only=True)
class Table:
    id: str
    capacity: int
    seats: dict[int, str] = field(default_factory=dict)  # seat -> player id
    button: int | None = None
    last_big_blind: int | None = None  # of the last hand played here since the draw
    vacated: list[tuple[int, int]] = field(default_factory=list)  # (seat, its position) of eliminated players
    hands: int = 0

    def anchor(self) -> int | None:
        """The seat after which the big blind is next due: the last big blind (before the first hand after a
        draw: the seat before the first big blind, i.e. the small blind's, or the button heads-up)."""
        if self.last_big_blind is not None:
            return self.last_big_blind
        if self.button is None or not self.seats:
            return None
        if len(self.seats) <= 2:
            return self.button
        return clockwise_from(self.button, set(self.seats))[0]

    def due_for_big_blind(self) -> list[int]:
        """The occupied seats in the order the big blind reaches them, the one due next first."""
        anchor = self.anchor()
        occupied = set(self.seats)
        if anchor is None:
            return sorted(occupied)
        return clockwise_from(anchor, occupied)

    def open_seats_due(self) -> list[int]:
        """The empty seats in the order the big blind would reach them."""
        anchor = self.anchor()
        empty = set(range(1, self.capacity + 1)) - set(self.seats)
        if anchor is None:
            return sorted(empty)
        return clockwise_from(anchor, empty)


@dataclass(frozen=True, kw_only=True, slots=True)
class TableView:
    """One table as a decision found it (what the checker reads)."""

    table: str
    seats: tuple[tuple[int, str], ...]
    button: int | None
    last_big_blind: int | None
    anchor: int | None
    capacity: int

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "seats": [list(s) for s in self.seats], "button": self.button,
                "last_big_blind": self.last_big_blind, "anchor": self.anchor, "capacity": self.capacity}


def _view(table: Table) -> TableView:
    return TableView(table=table.id, seats=tuple(sorted(table.seats.items())), button=table.button,
                     last_big_blind=table.last_big_blind, anchor=table.anchor(), capacity=table.capacity)


@dataclass(frozen=True, kw_only=True, slots=True)
class Seated:
    """A player drawn to a seat (the first draw, a broken table's players, a redraw)."""

    kind: str = "seated"
    player: str
    table: str
    seat: int
    why: str  # draw, break, redraw
    cite: Cite


@dataclass(frozen=True, kw_only=True, slots=True)
class ButtonPlaced:
    kind: str = "button"
    table: str
    seat: int
    cite: Cite


@dataclass(frozen=True, kw_only=True, slots=True)
class Eliminated:
    kind: str = "eliminated"
    player: str
    table: str
    seat: int
    hand: int
    place: int
    shared: tuple[int, int] | None
    start_stack: int
    others: tuple[tuple[str, int], ...]  # the other players out on the same hand: (player, start stack)
    position: int  # 0: the seat was due for the next big blind, 1: the one after, ...
    cite: Cite
    before: TableView  # the table after the hand, before the player left


@dataclass(frozen=True, kw_only=True, slots=True)
class Moved:
    """A player moved to balance tables."""

    kind: str = "moved"
    player: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int
    dealt_in: str  # what the receiving table does with the player
    waits: bool  # the player waits for the button to pass (UPT 16)
    position: int | None  # RPL: the position taken over (0: due for the big blind next)
    cites: tuple[Cite, ...]
    before: tuple[TableView, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Broken:
    kind: str = "broken"
    table: str
    players: int
    remaining: int
    redraw: bool  # its players (and everyone) draw again instead of filling empty seats
    cite: Cite
    before: tuple[TableView, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Redrawn:
    kind: str = "redrawn"
    tables: tuple[str, ...]
    players: int
    cite: Cite
    before: tuple[TableView, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Finished:
    kind: str = "finished"
    winner: str
    cite: Cite


@dataclass(frozen=True, kw_only=True, slots=True)
class Raced:
    """A table's chip race at a color-up: each seat's chips before and after (the race rounds them)."""

    kind: str = "raced"
    table: str
    chip: int
    to: int
    changes: tuple[tuple[int, int, int], ...]  # (seat, before, after)
    cite: Cite


@dataclass(frozen=True, kw_only=True, slots=True)
class Withdrawn:
    """A late entry taken back (the director's undo) before its table dealt it a hand: its seat is open again."""

    kind: str = "withdrawn"
    player: str
    table: str
    seat: int


Decision = Seated | ButtonPlaced | Eliminated | Moved | Broken | Redrawn | Finished | Raced | Withdrawn


class NoSeat(ValueError):
    """Every seat of every table in play is taken: the entrant waits as an alternate."""


def decision_json(decision: Decision) -> dict[str, Any]:
    """A decision as plain JSON data (the director's messages and page)."""
    out: dict[str, Any] = {}
    for name in decision.__slots__:
        value = getattr(decision, name)
        if isinstance(value, Cite):
            out[name] = value.to_json()
        elif name == "cites":
            out[name] = [c.to_json() for c in value]
        elif isinstance(value, TableView):
            out[name] = value.to_json()
        elif name == "before":
            out[name] = [v.to_json() for v in value]
        elif isinstance(value, tuple):
            out[name] = [list(v) if isinstance(v, tuple) else v for v in value]
        else:
            out[name] = value
    return out


class Tournament:
    """One tournament: the field, the tables in play and the decisions so far (`log`)."""

    def __init__(self, *, book: Book, tables: Sequence[str], capacity: int, entrants: Sequence[tuple[str, str]],
                 stack: int, seed: int, break_order: Sequence[str] | None = None) -> None:
        if not 2 <= capacity <= 10:
            raise ValueError(f"{capacity} seats a table: a table seats 2 to 10")
        if len(set(tables)) != len(tables) or not tables:
            raise ValueError("the tables must be named, each once")
        ids = [pid for pid, _ in entrants]
        if len(set(ids)) != len(ids):
            raise ValueError("two entrants have the same id")
        if len(entrants) < 2:
            raise ValueError("a tournament needs two entrants at least")
        if len(entrants) > capacity * len(tables):
            raise ValueError(f"{len(entrants)} entrants do not fit {len(tables)} tables of {capacity} seats")
        if stack <= 0:
            raise ValueError("the starting stack must be above zero")
        self.book, self.capacity, self.stack = book, capacity, stack
        self.rng = random.Random(seed)
        self.players = {pid: Player(id=pid, name=name, chips=stack) for pid, name in entrants}
        self.entrants = len(entrants)
        self.starting_tables = len(tables)
        order = list(break_order) if break_order is not None else list(reversed(tables))
        if sorted(order) != sorted(tables):
            raise ValueError("the breaking order must name every table once")
        self.break_order = order  # WFP 9, UPT 14: tables are broken in a pre-set order
        self.tables: dict[str, Table] = {}
        self.log: list[Decision] = []
        self.finished = False
        # Only as many tables as the field needs are opened; the rest (last in the breaking order first) stay shut.
        needed = math.ceil(len(entrants) / capacity)
        for table in tables:
            if table not in order[: len(tables) - needed]:
                self.tables[table] = Table(id=table, capacity=capacity)
        self.log.extend(self._draw(list(self.players), why="draw", cite=book.initial_seating))

    # -- reading ------------------------------------------------------------------------------

    def remaining(self) -> list[Player]:
        return [p for p in self.players.values() if p.place is None or (self.finished and p.place == 1)]

    def in_play(self) -> list[Player]:
        return [p for p in self.players.values() if p.table is not None]

    def views(self) -> tuple[TableView, ...]:
        return tuple(_view(t) for t in self.tables.values())

    def total_chips(self) -> int:
        return sum(p.chips for p in self.in_play())

    def places(self) -> list[Player]:
        return sorted((p for p in self.players.values() if p.place is not None), key=lambda p: p.place or 0)

    # -- the table's report of a hand ------------------------------------------------------------

    def hand_done(self, table_id: str, *, hand: int, start: Mapping[int, int], end: Mapping[int, int],
                  button: int, big_blind: int | None) -> list[Decision]:
        """A table finished a hand: each seat's chips when it began and now, its button and big blind.
        Returns the decisions it leads to (eliminations, then breaking, redraws and moves)."""
        table = self.tables.get(table_id)
        if table is None:
            raise ValueError(f"table {table_id!r} is not in play")
        unknown = sorted(set(end) - set(table.seats))
        if unknown:
            raise ValueError(f"table {table_id} reports seats {unknown} where the director has no player")
        missing = sorted(set(table.seats) - set(end))
        if missing:
            raise ValueError(f"table {table_id} does not report seats {missing}")
        table.hands += 1
        table.button = button
        if big_blind is not None:
            table.last_big_blind = big_blind
        for seat, chips in end.items():
            if chips < 0:
                raise ValueError(f"table {table_id} seat {seat}: {chips} chips")
            self.players[table.seats[seat]].chips = chips
        out: list[Decision] = []
        busted = [seat for seat, chips in end.items() if chips == 0]
        if busted:
            out.extend(self._eliminate(table, busted, start, hand))
        if not self.finished:
            out.extend(self.rebalance())
        self.log.extend(out)
        return out

    def race_done(self, table_id: str, *, chip: int, to: int, start: Mapping[int, int],
                  end: Mapping[int, int]) -> list[Decision]:
        """A table ran its chip race at a color-up: its stacks after it (the race may change the room's total:
        odd chips are rounded). No one is eliminated by it (WFP 6, UPT 11)."""
        table = self.tables.get(table_id)
        if table is None:
            raise ValueError(f"table {table_id!r} is not in play")
        if set(end) != set(table.seats):
            raise ValueError(f"table {table_id} raced seats {sorted(end)}, the director has {sorted(table.seats)}")
        if any(chips <= 0 for chips in end.values()):
            raise ValueError(f"table {table_id}: a player left with no chip by the race (the book forbids it)")
        changes = tuple((seat, start.get(seat, 0), end[seat]) for seat in sorted(end))
        for seat, chips in end.items():
            self.players[table.seats[seat]].chips = chips
        decision = Raced(table=table_id, chip=chip, to=to, changes=changes, cite=self.book.race_rule)
        self.log.append(decision)
        return [decision]

    def _eliminate(self, table: Table, busted: list[int], start: Mapping[int, int], hand: int) -> list[Decision]:
        book = self.book
        left_before = len(self.in_play())
        order = table.due_for_big_blind()
        positions = {seat: order.index(seat) for seat in busted}
        view = _view(table)
        ranked = sorted(busted, key=lambda s: (-start.get(s, 0), s))
        out: list[Decision] = []
        place = left_before - len(busted) + 1  # the best of them
        i = 0
        while i < len(ranked):
            group = [s for s in ranked if start.get(s, 0) == start.get(ranked[i], 0)]
            first, last = place, place + len(group) - 1
            for seat in group:
                pid = table.seats[seat]
                player = self.players[pid]
                player.place = first
                player.shared = (first, last) if len(group) > 1 else None
                others = tuple((table.seats[s], start.get(s, 0)) for s in ranked if s != seat)
                out.append(Eliminated(player=pid, table=table.id, seat=seat, hand=hand, place=first,
                                      shared=player.shared, start_stack=start.get(seat, 0), others=others,
                                      position=positions[seat], before=view,
                                      cite=book.equal_stacks_rule if len(group) > 1
                                      else book.places_rule if len(busted) > 1 else book.out_rule))
            place += len(group)
            i += len(group)
        for seat in busted:
            pid = table.seats.pop(seat)
            self.players[pid].table, self.players[pid].seat = None, None
            table.vacated.append((seat, positions[seat]))
        left = self.in_play()
        if len(left) == 1:
            winner = left[0]
            winner.place = 1
            self.finished = True
            out.append(Finished(winner=winner.id, cite=book.winner_rule))
        return out

    # -- entries after the draw: late registrations, re-entries, alternates, chips bought ----------------------

    def open_seats(self) -> int:
        return sum(t.capacity - len(t.seats) for t in self.tables.values())

    def enter(self, pid: str, name: str, *, card: str = "", person: str = "") -> list[Decision]:
        """A new entry after the draw (a late registration, a re-entry, an alternate's turn): a starting stack in
        a seat drawn among the open seats of the tables with the fewest players, so the tables stay balanced
        (then balanced by the book if they are not). NoSeat when every seat is taken. The places already decided
        move down one: the new entry is still in."""
        if self.finished:
            raise ValueError("the tournament is over: no entry is taken")
        if pid in self.players:
            raise ValueError(f"an entry {pid!r} exists already")
        open_tables = [t for t in self.tables.values() if len(t.seats) < t.capacity]
        if not open_tables:
            raise NoSeat(f"every seat of the {len(self.tables)} tables in play is taken")
        fewest = min(len(t.seats) for t in open_tables)
        choices = [(t.id, seat) for t in open_tables if len(t.seats) == fewest
                   for seat in range(1, t.capacity + 1) if seat not in t.seats]
        table_id, seat = self.rng.choice(choices)
        self._shift_places(+1)
        self.players[pid] = Player(id=pid, name=name, chips=self.stack, card=card, person=person)
        self.entrants += 1
        self._sit(pid, table_id, seat)
        out: list[Decision] = [Seated(player=pid, table=table_id, seat=seat, why="late",
                                      cite=self.book.late_entry_rule)]
        out.extend(self.rebalance())
        self.log.extend(out)
        return out

    def withdraw(self, pid: str) -> list[Decision]:
        """A late entry undone: allowed while its table has dealt no hand since it sat (its chips untouched)."""
        player = self.players.get(pid)
        if player is None:
            raise ValueError(f"no entry {pid!r}")
        if player.table is None or player.seat is None:
            raise ValueError(f"{player.name} is not seated (out, or never seated)")
        table = self.tables[player.table]
        if table.hands != player.seated_at or player.chips != self.stack:
            raise ValueError(f"{player.name} has been dealt in at {table.id} already: the entry stands")
        del table.seats[player.seat]
        decision = Withdrawn(player=pid, table=table.id, seat=player.seat)
        del self.players[pid]
        self.entrants -= 1
        self._shift_places(-1)
        self.log.append(decision)
        return [decision]

    def add_chips(self, pid: str, chips: int) -> None:
        """A rebuy or an add-on: chips bought, on the player's stack from its table's next deal."""
        player = self.players[pid]
        if player.table is None:
            raise ValueError(f"{player.name} is not in play")
        if chips <= 0:
            raise ValueError("chips bought must be above zero")
        player.chips += chips

    def _shift_places(self, by: int) -> None:
        for player in self.players.values():
            if player.place is not None:
                player.place += by
                if player.shared is not None:
                    player.shared = (player.shared[0] + by, player.shared[1] + by)

    # -- balancing, breaking, redraws ------------------------------------------------------------

    def tables_wanted(self) -> int:
        """How many tables the field should be on now, by the book."""
        n, players = len(self.tables), len(self.in_play())
        for tables, at in self.book.thresholds:
            if n == tables:
                return tables - 1 if players <= at else tables
        return max(1, min(n, math.ceil(players / self.capacity)))

    def rebalance(self) -> list[Decision]:
        """Break tables, redraw and move players until the tables are as the book wants them."""
        out: list[Decision] = []
        while len(self.tables) > self.tables_wanted():
            out.extend(self._break())
        out.extend(self._balance())
        return out

    def _redraw_due(self, tables: int) -> bool:
        book = self.book
        if tables not in book.redraw_at:
            return False
        return not (tables == 3 and self.starting_tables <= book.redraw_three_optional_up_to)

    def _break(self) -> list[Decision]:
        book = self.book
        before = self.views()
        victim = next(t for t in self.break_order if t in self.tables)
        table = self.tables.pop(victim)
        leaving = [table.seats[s] for s in sorted(table.seats)]
        for pid in leaving:
            self.players[pid].table, self.players[pid].seat = None, None
        redraw = book.breaking is Breaking.REDRAW_ALL or self._redraw_due(len(self.tables))
        out: list[Decision] = [Broken(table=victim, players=len(leaving), remaining=len(self.in_play()) + len(leaving),
                                      redraw=redraw, cite=book.breaking_rule, before=before)]
        if redraw:
            cite = book.breaking_rule if book.breaking is Breaking.REDRAW_ALL else book.redraw_rule
            assert cite is not None
            everyone = [p.id for p in self.in_play()] + leaving
            for table_left in self.tables.values():
                table_left.seats.clear()
                table_left.vacated.clear()
                table_left.last_big_blind = None
            for pid in everyone:
                self.players[pid].table, self.players[pid].seat = None, None
            out.append(Redrawn(tables=tuple(self.tables), players=len(everyone), cite=cite, before=before))
            out.extend(self._draw(everyone, why="redraw", cite=cite))
        else:
            out.extend(self._to_empty_seats(leaving))
        return out

    def _to_empty_seats(self, leaving: list[str]) -> list[Decision]:
        """A broken table's players, in a random order, each drawn to a random empty seat among the tables
        with the fewest players (so the draw itself keeps the tables balanced)."""
        out: list[Decision] = []
        order = list(leaving)
        self.rng.shuffle(order)
        for pid in order:
            fewest = min(len(t.seats) for t in self.tables.values() if len(t.seats) < t.capacity)
            choices = [(t.id, s) for t in self.tables.values() if len(t.seats) == fewest
                       for s in range(1, t.capacity + 1) if s not in t.seats]
            table_id, seat = self.rng.choice(choices)
            self._sit(pid, table_id, seat)
            out.append(Seated(player=pid, table=table_id, seat=seat, why="break", cite=self.book.breaking_rule))
        return out

    def _draw(self, pids: list[str], *, why: str, cite: Cite) -> list[Decision]:
        """Every player in `pids` draws a table and seat (a full draw: the tables are empty), as evenly as the
        tables allow; each table's button is then placed as the book says."""
        order = list(pids)
        self.rng.shuffle(order)
        tables = list(self.tables.values())
        counts = [len(order) // len(tables) + (1 if i < len(order) % len(tables) else 0) for i in range(len(tables))]
        self.rng.shuffle(counts)
        out: list[Decision] = []
        at = 0
        for table, count in zip(tables, counts, strict=True):
            seats = sorted(self.rng.sample(range(1, table.capacity + 1), count))
            for seat in seats:
                pid = order[at]
                at += 1
                self._sit(pid, table.id, seat)
                out.append(Seated(player=pid, table=table.id, seat=seat, why=why, cite=cite))
            table.last_big_blind = None
            table.vacated.clear()
            if table.seats:
                occupied = sorted(table.seats)
                table.button = occupied[0] if self.book.button_at_seat_one else self.rng.choice(occupied)
                out.append(ButtonPlaced(table=table.id, seat=table.button, cite=self.book.button_draw))
        return out

    def _sit(self, pid: str, table_id: str, seat: int) -> None:
        table = self.tables[table_id]
        if seat in table.seats:
            raise AssertionError(f"{table_id} seat {seat} is taken")
        table.seats[seat] = pid
        self.players[pid].table, self.players[pid].seat = table_id, seat
        self.players[pid].seated_at = table.hands

    def _balance(self) -> list[Decision]:
        book = self.book
        out: list[Decision] = []
        for _ in range(self.entrants):
            if len(self.tables) < 2:
                break
            ordered = list(self.tables.values())
            most = max(len(t.seats) for t in ordered)
            fewest = min(len(t.seats) for t in ordered)
            if most - fewest <= book.spread(len(ordered)):
                break
            donor = next(t for t in ordered if len(t.seats) == most)
            short = [t for t in ordered if len(t.seats) == fewest]
            receiver = next((t for t in short if t.vacated), short[0])
            out.append(self._move(donor, receiver))
        return out

    def _move(self, donor: Table, receiver: Table) -> Moved:
        book = self.book
        before = self.views()
        position: int | None = None
        cites: list[Cite] = [book.spread_rule]
        seat_to: int | None = None
        if book.mover is Mover.SAME_POSITION and receiver.vacated:
            vacated_seat, position = receiver.vacated.pop()
            order = donor.due_for_big_blind()
            from_seat = order[min(position, len(order) - 1)]
            cites.append(book.mover_rule)
            if book.target is Target.VACATED_SEAT and vacated_seat not in receiver.seats:
                seat_to = vacated_seat
                cites.append(book.target_rule)
        else:
            from_seat = donor.due_for_big_blind()[0]
            cites.append(book.mover_rule)
        if seat_to is None:
            seat_to = receiver.open_seats_due()[0]
            cites.append(book.target_rule)
        pid = donor.seats.pop(from_seat)
        waits = False
        if book.dealt_in is DealtIn.NOT_SMALL_BLIND_OR_BUTTON and receiver.button is not None:
            anchor = receiver.anchor()
            next_big = clockwise_from(anchor, set(receiver.seats) | {seat_to})[0] if anchor is not None else None
            waits = next_big is not None and seat_to != next_big and (
                seat_to == receiver.button or between(seat_to, receiver.button, next_big))
            dealt = ("waits in the small blind or button seat until the button passes" if waits
                     else "dealt in at once")
        else:
            dealt = "dealt in at once, taking the seat's obligations (blind or button)"
        cites.append(book.dealt_in_rule)
        self._sit(pid, receiver.id, seat_to)
        return Moved(player=pid, from_table=donor.id, from_seat=from_seat, to_table=receiver.id, to_seat=seat_to,
                     dealt_in=dealt, waits=waits, position=position,
                     cites=tuple(dict.fromkeys(cites)),  # once each: WFP 11 says both who moves and where
                     before=before)
