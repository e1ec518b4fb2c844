"""Immutable views of the table that the display and the daemon read (never the core itself), and how they are drawn."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from firmware_py.core.chips import HandChips
from firmware_py.core.phase import HAND_OVER, IDLE, IN_PLAY, NO_HAND, ClockView, Phase
from firmware_py.core.pots import Pot
from firmware_py.core.race import RaceView, view_of
from firmware_py.core.rulings import Ruling, Street

if TYPE_CHECKING:
    from firmware_py.core.hand import Hand
    from firmware_py.core.state import TableState

__all__ = [  # the phase's names too: the adapters read them here with the views
    "HAND_OVER", "IN_HAND", "IN_PLAY", "LIVE", "NO_HAND", "OUT_OF_HAND", "ChipsView", "ClockView", "Phase",
    "PlayerState", "SeatView", "TableSnapshot", "snapshot_of",
]


class PlayerState(StrEnum):
    EMPTY = "empty"  # no player in the seat
    WAITING = "waiting"  # seated but not dealt into this hand
    ACTIVE = "active"
    FOLDED = "folded"
    ALLIN = "allin"
    DEAD = "dead"  # hand ruled dead


LIVE = frozenset({PlayerState.ACTIVE, PlayerState.ALLIN})  # holding cards that can still win
OUT_OF_HAND = frozenset({PlayerState.FOLDED, PlayerState.DEAD})  # dealt in, their cards dead
IN_HAND = LIVE | OUT_OF_HAND  # dealt into this hand


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatView:
    seat: int
    state: PlayerState
    cards: tuple[str, ...] = ()  # hole cards in deal order; only the broadcast view may show faces
    is_button: bool = False
    is_small_blind: bool = False
    is_big_blind: bool = False
    to_act: bool = False
    stack: int | None = None  # chips behind (None: the table does not count chips)
    bet: int | None = None  # chips put in this betting round
    last_action: str | None = None  # e.g. "raise 600", "call 200", "fold"
    declared: str | None = None  # an action out of turn held for the seat's turn, e.g. "bet 400 out of turn"


@dataclass(frozen=True, kw_only=True, slots=True)
class ChipsView:
    """The chips of the hand: the pot (bets of this round included), its pots, and what the seat to act faces."""

    pot: int
    pots: tuple[Pot, ...]  # main pot first, then side pots; winners filled in once awarded
    level: str  # e.g. "50/100 ante 10"
    big: int = 0  # the big blind of the level in force, in chips (amounts in big blinds on the stream)
    to_call: int = 0
    min_raise_to: int | None = None  # the smallest legal bet or raise for the seat to act
    max_raise_to: int | None = None  # the largest (pot limit: the pot; fixed limit: the fixed size); None: the stack
    may_raise: bool = True
    raised_by: int = 0  # the largest bet or raise increment of this round so far
    uncalled: int = 0  # chips of one seat nobody else could match: returned to it, part of no pot
    uncalled_seat: int | None = None

    def contested(self) -> tuple[Pot, ...]:
        """The pots at stake as a screen shows them, main pot first: the uncalled chips are no side pot."""
        return self.pots[:-1] if self.uncalled else self.pots


@dataclass(frozen=True, kw_only=True, slots=True)
class TableSnapshot:
    t: float
    profile: str
    profile_title: str
    hand_number: int
    phase: Phase
    street: Street | None
    seats: tuple[SeatView, ...]
    button: int | None
    small_blind: int | None
    big_blind: int | None
    to_act: int | None
    board: tuple[str, ...]
    burns: tuple[str, ...]
    in_play: str
    unconfirmed: tuple[Ruling, ...] = ()  # rulings shown until the dealer presses confirm
    ruling_number: int | None = None  # the number of unconfirmed[0], the ruling shown: a confirm names it
    hand_rulings: tuple[Ruling, ...] = ()  # every ruling of this hand, oldest first
    showdown: Ruling | None = None
    clock: ClockView | None = None
    notices: tuple[str, ...] = field(default_factory=tuple)
    chips: ChipsView | None = None  # pot, side pots and the minimum raise, when the table counts chips
    actions: int = 0  # actions taken in this hand: a press made against another count is stale
    corrections: tuple[str, ...] = ()  # the operator's corrections (undo, stacks) since the hand began
    game: str = "holdem"  # the hand's game (the next hand's between hands): a name in core/game.py's GAMES
    race: RaceView | None = None  # a chip race being dealt, or its result until the next hand (race.py)
    names: tuple[tuple[int, str], ...] = ()  # (seat, name) the operator gave (`name` events), by seat
    # (seat, player id) of the players checked in at this table by card (docs/checkin.md), by seat; and the seats
    # whose drawn player is not checked in at them (the director's draw known): the floor and the director see them
    checked_in: tuple[tuple[int, str], ...] = ()
    not_checked_in: tuple[int, ...] = ()

    def seat(self, number: int) -> SeatView:
        for view in self.seats:
            if view.seat == number:
                return view
        raise KeyError(number)


def snapshot_of(table: TableState) -> TableSnapshot:
    """An immutable view of the table now, for the display and the daemon."""
    hand = table.hand
    profile = table.profile
    positions = hand.positions if hand is not None else None
    seats: list[SeatView] = []
    for number in sorted(table.occupied | (set(positions.deal_order) if positions else set())):
        state = PlayerState.WAITING
        cards: tuple[str, ...] = ()
        if hand is not None and number in hand.seats and hand.phase is not IDLE:
            cards = tuple(table.cards[uid].card for uid in hand.dealt.hole[number])
            if number in hand.betting.dead:
                state = PlayerState.DEAD
            elif number in hand.betting.folded:
                state = PlayerState.FOLDED
            elif number in hand.betting.allin:
                state = PlayerState.ALLIN
            else:
                state = PlayerState.ACTIVE
        elif number not in table.occupied:
            state = PlayerState.EMPTY
        seats.append(SeatView(
            seat=number, state=state, cards=cards,
            is_button=positions is not None and positions.button == number,
            is_small_blind=positions is not None and positions.small_blind == number,
            is_big_blind=positions is not None and positions.big_blind == number,
            to_act=hand is not None and hand.betting.to_act == number,
            declared=hand.betting.declared[number].label()
            if hand is not None and number in hand.betting.declared else None,
            **_seat_chips(table, number),
        ))
    phase = hand.phase if hand is not None else IDLE
    return TableSnapshot(
        t=table.t,
        profile=profile.name if profile else "",
        profile_title=profile.title if profile else "",
        hand_number=table.hand_number,
        phase=phase,
        street=hand.street if hand is not None and phase is not IDLE else None,
        seats=tuple(seats),
        button=positions.button if positions else table.button_seat,
        small_blind=positions.small_blind if positions else None,
        big_blind=positions.big_blind if positions else None,
        to_act=hand.betting.to_act if hand is not None else None,
        board=tuple(table.cards[uid].card for uid in hand.board.cards) if hand is not None else (),
        burns=tuple(table.cards[uid].card for uid in hand.board.burns.out) if hand is not None else (),
        in_play=table.in_play,
        unconfirmed=tuple(table.unconfirmed),
        ruling_number=table.oldest_open,
        hand_rulings=tuple(hand.rulings) if hand is not None else (),
        showdown=hand.showdown if hand is not None else None,
        clock=hand.clock if hand is not None else None,
        notices=tuple(table.notices),
        chips=_chips_view(table, hand),
        actions=len(hand.betting.taken) if hand is not None else 0,
        corrections=tuple(table.corrections),
        game=hand.game.name if hand is not None and phase is not IDLE else table.game.name,
        race=view_of(table.race) if table.race is not None else None,
        names=tuple(sorted(table.names.items())),
        checked_in=_checked_in(table) if table.present else (),
        not_checked_in=_not_checked_in(table) if table.draw else (),
    )


def _checked_in(table: TableState) -> tuple[tuple[int, str], ...]:
    """(seat, player) checked in here (a place's table "" is this one: checkin.py)."""
    return tuple(sorted((seat, player) for player, (where, seat) in table.present.items() if where == ""))


def _not_checked_in(table: TableState) -> tuple[int, ...]:
    """The drawn seats whose player is not checked in at them."""
    return tuple(seat for seat, player in sorted(table.draw.items()) if table.present.get(player) != ("", seat))


def _seat_chips(table: TableState, seat: int) -> dict[str, Any]:
    chips = table.chips.hand
    if chips is not None and seat in chips.behind:
        return {"stack": chips.behind[seat], "bet": chips.street_bet[seat], "last_action": chips.last.get(seat)}
    if seat in table.chips.stacks:
        return {"stack": table.chips.stacks[seat]}
    return {}


def _max_to(chips: HandChips, seat: int) -> int | None:
    limit = chips.max_to(seat)
    return None if limit is None else min(limit, chips.street_bet[seat] + chips.behind[seat])


def _chips_view(table: TableState, hand: Hand | None) -> ChipsView | None:
    chips = table.chips.hand
    if chips is None or hand is None:
        return None
    actor = hand.betting.to_act
    live = actor is not None and actor in chips.behind
    pots = chips.awarded or tuple(chips.pots())
    # A last pot only one seat may win, after others: chips nobody could match, going back (as the ruling says).
    back = pots[-1] if len(pots) > 1 and len(pots[-1].seats) == 1 else None
    return ChipsView(
        uncalled=back.amount if back is not None else 0, uncalled_seat=back.seats[0] if back is not None else None,
        pot=chips.pot_total(), pots=pots, level=chips.level.label(), big=chips.level.big,
        to_call=chips.to_call(actor) if live and actor is not None else 0,
        min_raise_to=min(chips.min_to(), chips.street_bet[actor] + chips.behind[actor])
        if live and actor is not None else None,
        max_raise_to=_max_to(chips, actor) if live and actor is not None else None,
        # (a seat that checked or called out of turn and was freed may not bet or raise: the books' refusal)
        may_raise=chips.may_raise(actor) and not chips.cap_reached() and actor not in hand.betting.no_raise
        if live and actor is not None else False,
        raised_by=chips.raised_by,
    )
