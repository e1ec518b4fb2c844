"""The chip counts through the room as shipped (TLS, passwords, config/room/acl, the client-id plugin): t01 reports
with its own password, the director publishes its state, the floor (as `floor`) reads it. A refused report never
moves the floor's counts; a hand taken in moves them."""

from __future__ import annotations

import time
from typing import Any

from tests.room.test_tournament_reports import Room, room, room_broker  # noqa: F401  (the fixtures)


def _floor_board(room: Room, *, until: Any, what: str) -> dict[str, Any]:  # noqa: F811
    deadline = time.monotonic() + 15
    while True:
        room.floor_state()
        board = room.floor.leaderboard()
        if board is not None and until(board):
            return board
        assert time.monotonic() < deadline, f"the floor never showed {what}: {board}"
        time.sleep(0.05)


def test_the_floors_chip_counts_move_with_a_hand_taken_in_never_with_a_refused_one(room: Room) -> None:  # noqa: F811
    books = room.books()
    seats = sorted(books)
    assert room.director.on_change is not None
    room.director.on_change(room.director.state())  # the state as the command publishes it at start
    start = _floor_board(room, until=lambda b: b["players"] == 12, what="the draw's stacks")
    assert {r["chips"] for r in start["rows"]} == {books[seats[0]]}
    forged = {s: (0 if i < 5 else c) for i, (s, c) in enumerate(sorted(books.items()))}  # five at 0, nobody gaining
    room.send(room.report(end=forged, hand=1, pots=[]))
    assert room.director.refused_total == 1
    time.sleep(0.5)
    refused = _floor_board(room, until=lambda b: True, what="a state")
    assert room.floor.tournament is not None and room.floor.tournament["refused"]  # the refusal reached the floor
    assert refused["rows"] == start["rows"]  # and the counts did not move
    won = {**books, seats[1]: books[seats[1]] + 800, seats[2]: books[seats[2]] - 800}
    room.send(room.report(end=won, hand=1))
    moved = _floor_board(room, until=lambda b: b["rows"][0]["chips"] == books[seats[1]] + 800, what="the hand")
    assert (moved["rows"][0]["table"], moved["rows"][0]["seat"]) == ("t01", seats[1])
    assert moved["rows"][-1]["chips"] == books[seats[2]] - 800 and moved["as_of"]["t01"] == 1
