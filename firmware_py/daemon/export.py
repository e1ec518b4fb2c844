"""Exporting a journal: the session in the `table-events.md` format, and the hands in PHH for pokerkit.

When the table counts chips (a `stacks` line; see docs/table-events-chips.md) the PHH carries the
real blinds, antes, starting stacks and every amount, and a hand is written only if pokerkit's
play of it ends with exactly the table's stacks. Without chips the amounts are nominal (blinds 1/2,
200 each, every bet and raise the minimum, all-in the whole stack), and say so in a user field.
Burn cards, which PHH has no action for, go in the `_burns` user field; the seats,
rulings and winners of the hand in `_seats`, `_rulings` and `_winners`; chips a player bought before the
hand (a rebuy or an add-on, part of its starting stack) in `_rebuys` and `_add_ons`. Hands ended by a misdeal
or a void ruling were never played and are left out (counted in the summary).

Every press the core accepted is played through pokerkit in order, and the hand is written only if
pokerkit takes each one as the table did and pays exactly the seats the table ruled the winners;
otherwise the hand is left out with the reason (`NotExportable`), never bent to fit.
"""

from __future__ import annotations

import json
import logging
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.core import Button, ButtonName, Event, Phase, RulingKind, Seat, SeatStatus, Stacks, TableSnapshot
from firmware_py.core.cards import is_unknown
from firmware_py.core.chips import Wager
from firmware_py.core.engine import Outcome, TableCore
from firmware_py.core.game import GAMES, Game, Structure
from firmware_py.core.hand import Taken
from firmware_py.core.profiles import Profile
from firmware_py.daemon.journal import Journal

logger = logging.getLogger(__name__)

BLINDS = (1, 2)
STACK = 200
NOT_PLAYED = frozenset({RulingKind.MISDEAL, RulingKind.VOID_HAND})
STREETS = ("preflop", "flop", "turn", "river")
BOARD_SLICES = {"flop": (0, 3), "turn": (3, 4), "river": (4, 5)}


class NotExportable(ValueError):
    """A hand PHH cannot record exactly as the table played it: the reason says what and where."""


# What a hand's action list holds besides the panel's presses: a seat whose hand the table killed
# (a dead-hand ruling) or who left the table; pokerkit folds it when its turn comes.
KILLED = "killed"


@dataclass(kw_only=True)
class HandRecord:
    """What one hand was, as the core saw it: seats in order of play, cards, actions, rulings."""

    number: int
    t: float
    seats: list[int]  # pokerkit's player order: small blind first, the button last
    hole: dict[int, tuple[str, ...]] = field(default_factory=dict)
    board: tuple[str, ...] = ()
    burns: tuple[str, ...] = ()
    # street, seat, what: a press the core accepted (ButtonName), or KILLED
    actions: list[tuple[str, int, ButtonName | str]] = field(default_factory=list)
    dead: set[int] = field(default_factory=set)
    rulings: list[str] = field(default_factory=list)
    winners: tuple[int, ...] | None = None  # who the table gave the pot to (None: it did not say)
    round_done: bool = False  # the dealer closed a betting round with the panel's round_done
    # Chips, when the table counted them: stacks before antes and blinds, (small, big, ante), each
    # accepted action's chips by its index in `actions`, and the stacks after the pots were pushed.
    stacks: dict[int, int] = field(default_factory=dict)
    blinds: tuple[int, int, int] = (0, 0, 0)
    bb_ante: int = 0  # the level's big-blind ante (then `antes` holds what the big blind posted of it)
    antes: dict[int, int] = field(default_factory=dict)  # the antes each seat posted (short ones as posted)
    dead_small_blind: bool = False
    wagers: dict[int, Wager] = field(default_factory=dict)
    final: dict[int, int] = field(default_factory=dict)
    # Chips players bought since the last hand (a `stacks` line with why rebuy or add_on), by seat: in the
    # starting stacks, and said apart (`_rebuys`, `_add_ons`) so a top-up is not read as a stack won.
    rebuys: dict[int, int] = field(default_factory=dict)
    add_ons: dict[int, int] = field(default_factory=dict)
    odd_chips: bool = False  # a split pot left odd chips, placed by the rulebook's Ties rule
    unit: int = 1  # the smallest chip in play: pots split in it (Ties: "broken down to the smallest unit")
    played: bool = True
    ended: bool = False
    game: str = "holdem"  # the hand's game (core/game.py): it names the PHH variant
    names: dict[int, str] = field(default_factory=dict)  # names typed for seats (`name` events), as the hand had them


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


@dataclass(frozen=True, kw_only=True, slots=True)
class Step:
    """One event through a `HandCutter`: what the core made of it and the hands it ended."""

    outcome: Outcome
    before: TableSnapshot
    after: TableSnapshot
    ended: tuple[HandRecord, ...]


class HandCutter:
    """Plays events through a core and cuts them into hands, one event at a time.

    The export runs it over a whole journal (`hand_records`); the room's publisher runs it live, so
    each hand is handed back the moment it ends (by showdown, misdeal or the next hand's deal).
    """

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.current: HandRecord | None = None
        self._before = core.snapshot()
        self._bought: dict[str, dict[int, int]] = {"rebuy": {}, "add_on": {}}  # since the last deal, by seat

    def feed(self, event: Event) -> Step:
        """Feed the event to the core; raises ValueError where the core refuses it (nothing changes)."""
        core, before = self.core, self._before
        hand_before, taken_before = core.hand_number, len(core.hand_actions())
        wagers_before = len(core.hand_chips.log) if core.hand_chips is not None else 0
        outcome = core.feed(event)
        after = self._before = core.snapshot()
        if isinstance(event, Stacks) and event.why in self._bought:
            bought = self._bought[event.why]
            for seat, amount in event.stacks:
                view = next((v for v in before.seats if v.seat == seat), None)
                added = amount - ((view.stack or 0) if view is not None else 0)
                if added > 0:
                    bought[seat] = bought.get(seat, 0) + added
        ended: list[HandRecord] = []
        current = self.current
        if after.hand_number != before.hand_number and after.phase is Phase.DEALING:
            if current is not None and not current.ended:  # the next hand's deal ends the open one
                current.ended = True
                ended.append(current)
            current = self.current = HandRecord(number=after.hand_number, t=event.t, seats=[], game=after.game,
                                                names=dict(after.names))
            chips = core.hand_chips
            if chips is not None:
                current.stacks = {seat: chips.stacks[seat] for seat in chips.order}
                current.blinds = (chips.level.small, chips.level.big, chips.level.ante)
                current.bb_ante = chips.level.bb_ante
                current.antes = {seat: chips.committed[seat] - chips.street_bet[seat] for seat in chips.order}
                current.dead_small_blind = after.small_blind is None
                current.rebuys = {seat: n for seat, n in self._bought["rebuy"].items() if seat in chips.order}
                current.add_ons = {seat: n for seat, n in self._bought["add_on"].items() if seat in chips.order}
            # Said with the first deal that deals the seat in (a misdeal's redeal does not say them again).
            for kind in self._bought.values():
                for seat in [seat for seat in kind if seat in (current.rebuys | current.add_ons)]:
                    del kind[seat]
        if current is None or current.ended:
            return Step(outcome=outcome, before=before, after=after, ended=tuple(ended))
        street = str(before.street or "preflop")
        if hand_before and core.hand_number == hand_before:
            self._actions(current, core.hand_actions(), taken_before, wagers_before)
        if isinstance(event, Button) and event.name is ButtonName.ROUND_DONE and before.phase is Phase.BETTING:
            current.round_done = True
        for ruling in outcome.rulings:
            current.rulings.append(f"{ruling.ruling}{'(' + ruling.cause + ')' if ruling.cause else ''}")
            if ruling.ruling in NOT_PLAYED and after.phase is Phase.MISDEALT:
                current.played = False
            if ruling.ruling is RulingKind.DEAD_HAND and ruling.seat is not None:
                current.dead.add(ruling.seat)
                current.actions.append((street, ruling.seat, KILLED))
            if ruling.ruling is RulingKind.SHOWDOWN and ruling.winners:
                # a high-low split: the high's winners, then the low's (every seat the pots pay)
                low = tuple(seat for seat in ruling.low_winners or () if seat not in ruling.winners)
                current.winners = tuple(ruling.winners) + low
        if isinstance(event, Seat) and event.status is SeatStatus.OUT and event.seat in {
                v.seat for v in before.seats if v.state in ("active", "allin")}:
            current.actions.append((street, event.seat, KILLED))  # left the table mid-hand: folded
        if after.phase is not Phase.IDLE and after.hand_number == current.number:
            current.seats = _play_order(after) or current.seats
            current.hole = {v.seat: v.cards for v in after.seats if v.cards}
            current.board, current.burns = after.board, after.burns
            current.names = dict(after.names)
            live = [v.seat for v in after.seats if v.seat in current.seats and v.state in ("active", "allin")]
            if after.phase is Phase.SHOWDOWN and current.winners is None and len(live) == 1:
                current.winners = (live[0],)  # uncontested: the last live hand takes the pot
        chips = core.hand_chips
        if current.stacks and chips is not None and chips.settled and after.hand_number == current.number:
            current.final = chips.final_stacks()
            current.odd_chips = any(pot.odd_chips for pot in chips.awarded)
            current.unit = chips.unit
        if after.phase in (Phase.IDLE, Phase.MISDEALT) or after.hand_number != current.number:
            current.ended = True
            ended.append(current)
        return Step(outcome=outcome, before=before, after=after, ended=tuple(ended))


    def _actions(self, current: HandRecord, taken: Sequence[Taken], before: int, wagers_before: int) -> None:
        """The actions the core took with this event, in the order it took them (an action held out
        of turn lands where it was taken), or those an undo took back."""
        if len(taken) < before:  # an undo: the last actions taken go
            for _ in range(before - len(taken)):
                index = max(i for i, (_street, _seat, what) in enumerate(current.actions) if what != KILLED)
                del current.actions[index]
                current.wagers = {i - (i > index): w for i, w in current.wagers.items() if i != index}
            return
        chips = self.core.hand_chips
        fresh = taken[before:]
        wagers = chips.log[wagers_before:] if chips is not None and current.stacks else []
        for index, action in enumerate(fresh):
            current.actions.append((str(action.street), action.seat, action.name))
            if len(wagers) == len(fresh):
                current.wagers[len(current.actions) - 1] = wagers[index]


def hand_records(events: Sequence[Event], profiles: dict[str, Profile]) -> list[HandRecord]:
    """Replay the events and cut them into hands (the last one may still be open)."""
    cutter = HandCutter(TableCore(profiles))
    hands: list[HandRecord] = []
    for event in events:
        try:
            hands.extend(cutter.feed(event).ended)
        except ValueError:
            continue
    if cutter.current is not None and not cutter.current.ended:
        hands.append(cutter.current)
    return hands


def hand_history(record: HandRecord, *, table: str = "", names: Mapping[int, str] | None = None) -> Any:
    """The hand as a pokerkit HandHistory, by playing it through a pokerkit state press by press.

    Raises NotExportable, with the reason, when a press does not fit pokerkit's play exactly (a seat
    acting out of turn, a check facing a bet, the table moving on while pokerkit awaits an action) or
    when pokerkit's payout differs from the winners the table ruled: the hand is then left out, never
    guessed at. `table` names the table and `names` the players by seat (`[display.seat_names]`; a seat
    without one is "Seat N").
    """
    from pokerkit import Automation, HandHistory, Mode  # noqa: PLC0415

    if not record.ended and record.winners is None:  # (a journal that ends at the showdown holds a whole hand)
        raise NotExportable("the hand did not finish: the journal ends during it")
    seats = record.seats
    if len(seats) < 2:
        raise NotExportable("fewer than two seats were dealt in")
    unread = [card for card in (*record.board, *(c for s in seats for c in record.hole.get(s, ()))) if is_unknown(card)]
    if unread:
        raise NotExportable("a card the table could not read (a tag no enrolled deck knows) is in play")
    dealt = GAMES[record.game]
    if dealt.phh_variant is None:
        from pokerkit import HandHistory  # noqa: PLC0415

        raise NotExportable(f"{dealt.title}: pokerkit has no variant for it (its hand histories' games are "
                            f"{', '.join(HandHistory.game_types)}), so PHH cannot record this hand")
    if any(ruling.startswith("short_blind(no_chip_after_ante)") for ruling in record.rulings):
        raise NotExportable("a player eliminated at the deal, its chips dead money in the pot (rpl Tournaments 19): "
                            "PHH has no such forced bet")
    for seat in seats:
        if len(record.hole.get(seat, ())) != dealt.hole_cards:
            raise NotExportable(f"seat {seat} does not hold {dealt.hole_text()} known "
                                f"({' '.join(record.hole.get(seat, ()))})")
    if record.round_done:
        raise NotExportable("the dealer closed a betting round with round_done: the missing actions are unknown")
    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
                   Automation.CARD_BURNING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
                   Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING, Automation.RUNOUT_COUNT_SELECTION)
    # Cash-game mode, as pokerkit reads a PHH file: a fold with nothing to call is allowed (the table
    # allows it too), not turned into a check.
    if record.stacks:
        if record.dead_small_blind:
            raise NotExportable("no small blind this hand (a dead small blind): PHH places blinds by position")
        small, big, ante = record.blinds
        if record.bb_ante:
            # The big-blind ante: pokerkit's per-player antes, the big blind's the ante it posted. pokerkit
            # posts antes before blinds; the table posts the blind first, then the ante from what is left:
            # giving pokerkit the ante as posted keeps the blind whole. Ante trimming off: every ante is dead
            # money in the main pot, as the table counts it. (Heads-up pokerkit reads player i's ante at
            # position 1 - i: the big blind, first in the order, is read at position 1.)
            antes = [record.antes.get(seat, 0) for seat in seats]
            if len(seats) == 2:
                antes.reverse()
            game = _pokerkit_game(dealt, automations, dict(enumerate(antes)), (small, big), Mode.CASH_GAME,
                                  trimming=False, unit=record.unit)
        else:
            game = _pokerkit_game(dealt, automations, ante, (small, big), Mode.CASH_GAME, unit=record.unit)
        starting = tuple(record.stacks[seat] for seat in seats)
    else:
        game = _pokerkit_game(dealt, automations, 0, BLINDS, Mode.CASH_GAME)
        starting = (STACK,) * len(seats)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns of a fold with nothing to call and of unshuffled cards
        state = game(starting, len(seats))
        for seat in seats:
            state.deal_hole("".join(record.hole[seat]))
        _play(state, record)
    if record.winners is None:
        raise NotExportable("the table ruled no winner for this hand")
    if state.status:
        raise NotExportable("pokerkit's hand is not over where the table's ended")
    if record.stacks:
        table_final = [record.final.get(seat) for seat in seats]
        if list(state.stacks) != table_final:
            if record.odd_chips:
                # pokerkit merges pots whose contenders are the same once the losers are out and gives a
                # pot's whole remainder to one winner; the books split every pot apart and give at most
                # one odd chip each, first clockwise from the button (Ties). PHH cannot say which.
                raise NotExportable(f"odd chips: pokerkit splits them otherwise than the rulebook's Ties rule "
                                    f"(pokerkit ends with {list(state.stacks)}, the table with {table_final}, "
                                    f"seats {seats})")
            raise NotExportable(f"stacks differ: pokerkit ends with {list(state.stacks)}, the table with "
                                f"{table_final} (seats {seats})")
    else:
        paid = _paid(state, seats)
        if paid != set(record.winners):
            raise NotExportable(f"pokerkit pays seat(s) {sorted(paid)}, the table ruled seat(s) "
                                f"{sorted(record.winners)}")
    hh = HandHistory.from_game_state(game, state)
    hh.seats = list(seats)
    hh.seat_count = 10
    named = {**(names or {}), **record.names}  # a name typed on the tracker over the table file's
    hh.players = [named.get(s) or f"Seat {s}" for s in seats]
    hh.hand = record.number
    if table:
        hh.table = table
    hh.user_defined_fields.update({
        "_seats": list(seats),
        "_burns": list(record.burns),
        "_rulings": record.rulings,
        "_winners": list(record.winners),
        "_session_t": round(record.t, 3),
        "_chips": ("the table's: blinds, antes, stacks and amounts as the dealer keyed them" if record.stacks else
                   "nominal: the table records no amounts; bets and raises are the minimum, all-in the stack"),
    })
    if record.stacks:
        hh.user_defined_fields["_final_stacks"] = [record.final[seat] for seat in seats]
    if record.stacks and record.unit > 1:
        # PHH has no field for the chips in play: a reader splits pots in this chip (`chip_divmod`, `load_history`)
        hh.user_defined_fields[SMALLEST_CHIP] = record.unit
    for key, bought in (("_rebuys", record.rebuys), ("_add_ons", record.add_ons)):
        if any(bought.get(seat) for seat in seats):  # chips bought before this hand, in the starting stacks
            hh.user_defined_fields[key] = [bought.get(seat, 0) for seat in seats]
    return hh


SMALLEST_CHIP = "_smallest_chip"  # the user-defined PHH field naming the smallest chip in play (pots split in it)


def chip_divmod(unit: int) -> Callable[[int, int], tuple[int, int]]:
    """pokerkit's `divmod` for a pot split in chips of `unit` (Ties: "An odd chip will be broken down to the smallest
    unit used in the game"): each share a whole number of chips, the remainder (the odd chips) to the first winner,
    as pokerkit gives it. The table gives at most one odd chip each; a hand where that differs is not exported.

    >>> chip_divmod(25)(375, 2), chip_divmod(1)(375, 2)
    ((175, 25), (187, 1))
    """

    def split(amount: int, winners: int) -> tuple[int, int]:
        if unit <= 1 or amount % unit:
            return divmod(amount, winners)
        share, odd = divmod(amount // unit, winners)
        return share * unit, odd * unit

    return split


def load_history(text: str) -> Any:
    """A PHH hand as pokerkit reads it, its pots split in the smallest chip the file names (`_smallest_chip`)."""
    from pokerkit import HandHistory  # noqa: PLC0415

    history = HandHistory.loads(text)
    unit = history.user_defined_fields.get(SMALLEST_CHIP, 1)
    if isinstance(unit, int) and unit > 1:
        history.divmod = chip_divmod(unit)
    return history


def _pokerkit_game(dealt: Game, automations: tuple[Any, ...], ante: Any, blinds: tuple[int, int], mode: Any, *,
                   trimming: bool = True, unit: int = 1) -> Any:
    """pokerkit's game for the table's (`phh_variant`): its blinds, antes and, at fixed limit, the small and big bet;
    its pots split in the smallest chip in play (`unit`)."""
    from pokerkit import HandHistory  # noqa: PLC0415

    kind: Any = HandHistory.game_types[dealt.phh_variant or ""]  # each variant's own signature: called as Any
    big = blinds[1]
    split = chip_divmod(unit)
    if dealt.betting is Structure.FIXED_LIMIT:
        small_bet, big_bet = dealt.bet_sizes(big_blind=big)[0], dealt.bet_sizes(big_blind=big)[-1]
        return kind(automations, trimming, ante, blinds, small_bet, big_bet, mode=mode, divmod=split)
    return kind(automations, trimming, ante, blinds, big, mode=mode, divmod=split)


def _play(state: Any, record: HandRecord) -> None:
    """Play the record's actions street by street; raise NotExportable where they do not fit."""
    seats = record.seats
    killed: set[int] = set()
    pending = list(enumerate(record.actions))
    for street in STREETS:
        if street != "preflop":
            if not state.status:
                break
            low, high = BOARD_SLICES[street]
            cards = record.board[low:high]
            if not state.can_deal_board():
                if any(a[0] == street for _i, a in pending):
                    raise NotExportable(f"actions on the {street} where pokerkit deals no {street}")
                continue
            if len(cards) != high - low:
                raise NotExportable(f"the {street} was not dealt ({' '.join(cards) or 'no cards'}), yet the hand "
                                    "went on")
            state.deal_board("".join(cards))
        while pending and pending[0][1][0] == street:
            index, (_street, seat, what) = pending.pop(0)
            if what == KILLED:
                killed.add(seat)
            else:
                _fold_killed(state, seats, killed)
                wager = record.wagers.get(index)
                if state.actor_index is None and what == ButtonName.CHECK and wager is not None and not wager.put:
                    continue  # a check with the others all in (a short blind): no action, as in pokerkit
                if state.actor_index is None:
                    raise NotExportable(f"seat {seat} pressed {what} on the {street}, after pokerkit closed the round")
                if seats[state.actor_index] != seat:
                    if what == ButtonName.FOLD:  # a fold the house mucked out of turn: the same chips folded in turn
                        killed.add(seat)
                        continue
                    posted = any(r.startswith("action_out_of_turn") for r in record.rulings)
                    raise NotExportable(f"seat {seat} pressed {what} on the {street} where pokerkit's turn is seat "
                                        f"{seats[state.actor_index]}'s" + (
                                            " (an action out of turn the house took at once: PHH has actions in "
                                            "turn only)" if posted else ""))
                _act(state, ButtonName(what), seat, street, record.wagers.get(index))
            _fold_killed(state, seats, killed)
        if pending and pending[0][1][0] not in STREETS[STREETS.index(street) + 1:]:
            raise NotExportable(f"an action recorded on the {pending[0][1][0]} out of order")
        _fold_killed(state, seats, killed)
        if state.actor_index is not None:
            raise NotExportable(f"the table closed the {street} betting while pokerkit awaits seat "
                                f"{seats[state.actor_index]}")


def _fold_killed(state: Any, seats: list[int], killed: set[int]) -> None:
    while state.actor_index is not None and seats[state.actor_index] in killed:
        state.fold()


def _act(state: Any, name: ButtonName, seat: int, street: str, wager: Wager | None = None) -> None:
    if wager is not None:  # the chips the table took: a bet or raise to its total, else a call or check
        if wager.name == "fold":
            state.fold()
        elif wager.raises:
            if not state.can_complete_bet_or_raise_to(wager.to):
                allowed = (f"its minimum is {state.min_completion_betting_or_raising_to_amount:,}"
                           if state.can_complete_bet_or_raise_to() else "it allows no raise there")
                if str(getattr(state, "betting_structure", "")) == "Fixed-limit":
                    allowed += ("; after a short all-in the books treat half a bet or more as a full bet, reopening "
                                "the betting, and let a player who has not acted complete a smaller one (Betting and "
                                "Raising 6); pokerkit measures a raise from the all-in and reopens nothing")
                raise NotExportable(f"seat {seat}'s {wager.label()} on the {street} is not a bet pokerkit allows "
                                    f"({allowed})")
            state.complete_bet_or_raise_to(wager.to)
        else:
            owed = state.checking_or_calling_amount
            if owed != wager.put:
                # A big blind all in short of the blind: the books have callers call a full big blind
                # (wfp-dealer: Minimum bets and raises); pokerkit's call is the largest bet in front.
                raise NotExportable(f"seat {seat} put in {wager.put:,} to {wager.label()} on the {street} where "
                                    f"pokerkit's call is {owed or 0:,} (a big blind posted short: the table's bet "
                                    "to call is the full big blind, pokerkit's the largest blind posted)")
            state.check_or_call()
        return
    owed = state.checking_or_calling_amount
    if name is ButtonName.FOLD:
        state.fold()
    elif name is ButtonName.CHECK:
        if owed:
            raise NotExportable(f"seat {seat} checked on the {street} facing a bet")
        state.check_or_call()
    elif name is ButtonName.CALL:
        state.check_or_call()
    elif name in (ButtonName.BET, ButtonName.RAISE):
        if not state.can_complete_bet_or_raise_to():
            raise NotExportable(f"seat {seat} pressed {name} on the {street} where no raise is possible "
                                f"(nominal stacks of {STACK})")
        state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
    elif name is ButtonName.ALLIN:
        if state.can_complete_bet_or_raise_to():
            state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
        elif owed and owed >= state.stacks[state.actor_index]:
            state.check_or_call()  # all in by calling a bet as large as the stack
        else:
            raise NotExportable(f"seat {seat} went all in on the {street} where pokerkit allows no all-in")


def _paid(state: Any, seats: list[int]) -> set[int]:
    """The seats pokerkit pushed chips to (the pots they won)."""
    from pokerkit import ChipsPushing  # noqa: PLC0415

    won: set[int] = set()
    for operation in state.operations:
        if isinstance(operation, ChipsPushing):
            won.update(seats[i] for i, amount in enumerate(operation.amounts) if amount > 0)
    return won


@dataclass(frozen=True, kw_only=True, slots=True)
class ExportSummary:
    session: Path
    histories: Path
    events: int
    hands: int
    not_played: int
    skipped: int
    refused: tuple[tuple[int, str], ...] = ()  # hand number, why PHH cannot record it exactly


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


def portable_lines(lines: Sequence[str], *, out_dir: Path, base_dir: Path) -> list[str]:
    """The journal's lines with each setup's deck files copied beside the session (`decks/NAME.json`) and
    named relative to it: the session replays in any folder it is copied to, and names no path of this
    machine. `base_dir`: what a relative deck path in the journal is relative to (the table file's folder)."""
    copied: dict[Path, str] = {}
    out = []
    for line in lines:
        if '"setup"' not in line:
            out.append(line)
            continue
        data = json.loads(line)
        if data.get("kind") != "setup":
            out.append(line)
            continue
        names = []
        for name in data.get("decks", []):
            source = Path(name) if Path(name).is_absolute() else base_dir / name
            source = source.resolve()
            if source not in copied:
                stem, taken = source.stem, set(copied.values())
                shown = f"decks/{stem}.json"
                number = 2
                while shown in taken:  # two decks of one name from two folders: both kept
                    shown, number = f"decks/{stem}-{number}.json", number + 1
                _write_private(out_dir / shown, source.read_bytes())
                copied[source] = shown
            names.append(copied[source])
        data["decks"] = names
        out.append(json.dumps(data, separators=(", ", ": ")))
    return out


def export(journal: Journal, events: Sequence[Event], *, profiles: dict[str, Profile], out_dir: Path,
           table: str = "", names: Mapping[int, str] | None = None, base_dir: Path | None = None) -> ExportSummary:
    """Write `session.jsonl` and `hands.phhs` (mode 0600) into `out_dir`, with the decks the session names in
    `out_dir/decks/` (see `portable_lines`); `table` and `names` as in `hand_history`."""
    from pokerkit import HandHistory  # noqa: PLC0415

    lines = portable_lines([row.line for row in journal.rows()], out_dir=out_dir, base_dir=base_dir or Path.cwd())
    session = out_dir / "session.jsonl"
    _write_private(session, "".join(line + "\n" for line in lines).encode())
    histories, not_played, refused = [], 0, []
    for record in hand_records(events, profiles):
        if not record.played:
            not_played += 1
            continue
        try:
            histories.append(hand_history(record, table=table, names=names))
        except (ValueError, KeyError) as exc:
            refused.append((record.number, str(exc)))
            logger.warning("hand %d left out of the PHH file: %s", record.number, exc)
    phhs = out_dir / "hands.phhs"
    _write_private(phhs, HandHistory.dumps_all(histories).encode())
    return ExportSummary(session=session, histories=phhs, events=len(lines), hands=len(histories),
                         not_played=not_played, skipped=len(refused), refused=tuple(refused))
