"""Exporting a journal: the session in the `table-events.md` format, and the hands in PHH for pokerkit.

The table records cards, order of action and rulings, not chips: the PHH amounts are nominal
(blinds 1/2, 200 each, every bet and raise the minimum, all-in the whole stack), and say so in a
user field. Burn cards, which PHH has no action for, go in the `_burns` user field; the seats and
rulings of the hand in `_seats` and `_rulings`. Hands ended by a misdeal or a void ruling were
never played and are left out (counted in the summary).
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.core import Button, ButtonName, Event, Phase, RulingKind, TableSnapshot
from firmware_py.core.engine import TableCore
from firmware_py.core.profiles import Profile
from firmware_py.daemon.journal import Journal

logger = logging.getLogger(__name__)

BLINDS = (1, 2)
STACK = 200
NOT_PLAYED = frozenset({RulingKind.MISDEAL, RulingKind.VOID_HAND})
STREETS = ("preflop", "flop", "turn", "river")
BOARD_SLICES = {"flop": (0, 3), "turn": (3, 4), "river": (4, 5)}


@dataclass(kw_only=True)
class HandRecord:
    """What one hand was, as the core saw it: seats in order of play, cards, actions, rulings."""

    number: int
    t: float
    seats: list[int]  # pokerkit's player order: small blind first, the button last
    hole: dict[int, tuple[str, ...]] = field(default_factory=dict)
    board: tuple[str, ...] = ()
    burns: tuple[str, ...] = ()
    actions: list[tuple[str, int, ButtonName]] = field(default_factory=list)  # street, seat, button
    dead: set[int] = field(default_factory=set)
    rulings: list[str] = field(default_factory=list)
    played: bool = True
    ended: bool = False


def _play_order(snapshot: TableSnapshot) -> list[int]:
    dealt = [v.seat for v in snapshot.seats if v.cards or v.state not in ("empty", "waiting")]
    sb = snapshot.small_blind
    if sb is None or sb not in dealt:
        return dealt
    start = dealt.index(sb)
    order = dealt[start:] + dealt[:start]
    if len(order) == 2 and snapshot.big_blind in order:  # pokerkit heads-up: big blind first, button last
        order = [snapshot.big_blind, sb]
    return order


def hand_records(events: Sequence[Event], profiles: dict[str, Profile]) -> list[HandRecord]:
    """Replay the events and cut them into hands."""
    core = TableCore(profiles)
    hands: list[HandRecord] = []
    current: HandRecord | None = None
    before = core.snapshot()
    for event in events:
        try:
            outcome = core.feed(event)
        except ValueError:
            continue
        after = core.snapshot()
        if after.hand_number != before.hand_number and after.phase is Phase.DEALING:
            current = HandRecord(number=after.hand_number, t=event.t, seats=[])
            hands.append(current)
        if current is not None and not current.ended:
            if (isinstance(event, Button) and event.name in (ButtonName.FOLD, ButtonName.CHECK, ButtonName.CALL,
                                                             ButtonName.BET, ButtonName.RAISE, ButtonName.ALLIN)):
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
        before = after
    return hands


def hand_history(record: HandRecord, *, table: str = "") -> Any:
    """The hand as a pokerkit HandHistory, by playing it through a pokerkit state."""
    from pokerkit import Automation, HandHistory, NoLimitTexasHoldem  # noqa: PLC0415

    seats = record.seats
    if len(seats) < 2 or any(len(record.hole.get(s, ())) != 2 for s in seats):
        raise ValueError("not every seat has two known hole cards")
    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
                   Automation.CARD_BURNING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
                   Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING, Automation.RUNOUT_COUNT_SELECTION)
    game = NoLimitTexasHoldem(automations, True, 0, BLINDS, BLINDS[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns when a dealt card was not in its own shuffled deck
        state = game((STACK,) * len(seats), len(seats))
        for seat in seats:
            state.deal_hole("".join(record.hole[seat]))
        for street in STREETS:
            if street != "preflop":
                low, high = BOARD_SLICES[street]
                cards = record.board[low:high]
                if not state.can_deal_board() or len(cards) != high - low:
                    break
                state.deal_board("".join(cards))
            for act_street, seat, name in record.actions:
                if act_street != street or state.actor_index is None:
                    continue
                if seats[state.actor_index] != seat and seat in seats:
                    continue  # a press pokerkit's order does not expect (the core ruled on it)
                _act(state, name)
            while state.actor_index is not None:
                actor = seats[state.actor_index]
                if actor in record.dead and state.can_fold():
                    state.fold()
                else:
                    state.check_or_call()
    hh = HandHistory.from_game_state(game, state)
    hh.seats = list(seats)
    hh.seat_count = 10
    hh.players = [f"Seat {s}" for s in seats]
    hh.hand = record.number
    if table:
        hh.table = table
    hh.user_defined_fields.update({
        "_seats": list(seats),
        "_burns": list(record.burns),
        "_rulings": record.rulings,
        "_session_t": round(record.t, 3),
        "_chips": "nominal: the table records no amounts; bets and raises are the minimum, all-in the stack",
    })
    return hh


def _act(state: Any, name: ButtonName) -> None:
    if name is ButtonName.FOLD and state.can_fold():
        state.fold()
    elif name in (ButtonName.BET, ButtonName.RAISE) and state.can_complete_bet_or_raise_to():
        state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
    elif name is ButtonName.ALLIN and state.can_complete_bet_or_raise_to():
        state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
    else:
        state.check_or_call()


@dataclass(frozen=True, kw_only=True, slots=True)
class ExportSummary:
    session: Path
    histories: Path
    events: int
    hands: int
    not_played: int
    skipped: int


def _write_private(path: Path, data: bytes) -> None:
    """Write `data` to a new file readable by its owner only (hole cards are in it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def export(journal: Journal, events: Sequence[Event], *, profiles: dict[str, Profile], out_dir: Path,
           table: str = "") -> ExportSummary:
    """Write `session.jsonl` and `hands.phhs` (mode 0600) into `out_dir`."""
    from pokerkit import HandHistory  # noqa: PLC0415

    lines = [row.line for row in journal.rows()]
    session = out_dir / "session.jsonl"
    _write_private(session, "".join(line + "\n" for line in lines).encode())
    histories, not_played, skipped = [], 0, 0
    for record in hand_records(events, profiles):
        if not record.played:
            not_played += 1
            continue
        try:
            histories.append(hand_history(record, table=table))
        except (ValueError, KeyError) as exc:
            skipped += 1
            logger.warning("hand %d left out of the PHH file: %s", record.number, exc)
    phhs = out_dir / "hands.phhs"
    _write_private(phhs, HandHistory.dumps_all(histories).encode())
    return ExportSummary(session=session, histories=phhs, events=len(lines), hands=len(histories),
                         not_played=not_played, skipped=skipped)
