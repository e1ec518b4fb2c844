"""One source for a player's name at a tournament table: the names the director has (the entrants', and a name typed
on the director's page at registration) are journaled by the table as `name` events, so the table's snapshot (the
venue screen, the tracker, the broadcast feed) and the hand histories exported from its events name the same
players; a player who leaves takes the name along, and a name longer than a seat box holds is shortened the same
everywhere.

The table is the simulated room's (firmware_py/simulation/tournament_sim.py: the dealer bot into the rules core,
seated by the table side a real table runs, `TableFollower`), fed the director's state directly: no broker."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec

from firmware_py.commands.tournament import ROOT, build
from firmware_py.core import Name
from firmware_py.core.events import NAME_MAX
from firmware_py.daemon.export import hand_history, hand_records
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck
from firmware_py.simulation.tournament_sim import SimTable
from tests.room.test_tournament_room import _args


def _table(director: Any, table: str) -> Any:
    return next(t for t in director.state().tables if t.table == table)


def test_the_director_s_names_typed_at_registration_are_journaled_by_the_table_and_name_its_hand_histories() -> None:
    profiles = load_profiles()
    director = build(_args(tables="2", players=12, seats=9, seed=5, buy_in=20,
                           structure=str(ROOT / "config/tournament/house-rebuy.toml")), "main", sim_clock=True)
    typed = "Ada Augusta King, Countess of Lovelace"  # typed on the director's page: longer than a seat box
    entry = director.register(typed, card="CARD-7")
    where = next(t.table for t in director.state().tables for s in t.seats if s.player == entry.player)
    decks = (load_deck(ROOT / "config/decks/test-red.json"), load_deck(ROOT / "config/decks/test-blue.json"))
    sim = SimTable(id=where, room="main", profile=profiles["wfp"], decks=decks, rng=random.Random(3))
    sim.sync(_table(director, where), director.state())
    core = sim.bot._core if sim.bot is not None else None
    assert core is not None
    wanted = {s.seat: s.name for s in _table(director, where).seats}
    names = dict(core.snapshot().names)
    seat = next(s.seat for s in _table(director, where).seats if s.player == entry.player)
    shown = names.pop(seat)
    assert len(shown) == NAME_MAX and shown.endswith("\u2026") and typed.startswith(shown[:-1])
    assert names == {s: n for s, n in wanted.items() if s != seat}  # the entrants' names, seat by seat
    journaled = [e for e in sim.sessions[-1] if isinstance(e, Name)]
    assert {e.seat for e in journaled} == set(wanted)  # each a `name` event in the table's journal

    # a hand played: its history names the director's players, the typed one too
    report = sim.play()
    director.feed(f"pokertable/main/{where}/tournament", _encode(report))
    record = next(r for r in hand_records(sim.sessions[-1], profiles) if r.played)
    phh = hand_history(record, table=where).dumps()
    players = re.search(r"players = \[(.*)\]", phh)
    assert players is not None and repr(shown) in players.group(1), phh
    assert all(repr(n) in players.group(1) for n in names.values())

    # the player leaves the table (the director's seat emptied, as a bust-out or a move does): the seat gets its
    # default name back, journaled too
    table = _table(director, where)
    emptied = msgspec.structs.replace(table, seats=[s for s in table.seats if s.player != entry.player])
    state = director.state()
    sim.sync(emptied, msgspec.structs.replace(state, tables=[emptied if t.table == where else t for t in state.tables]))
    assert seat not in dict(core.snapshot().names)
    assert any(isinstance(e, Name) and e.seat == seat and not e.name for e in sim.sessions[-1][-3:])


def _encode(report: Any) -> bytes:
    from firmware_py.room.tournament_messages import TableReport, encode  # noqa: PLC0415

    return encode(report, TableReport)
