"""The rules core: table events in, rulings and state out. Pure: no I/O, no clock, no randomness.

Feed events in session order; each call returns the rulings (and operator notices) it caused, and
`snapshot()` gives an immutable view of the table for the display and the daemon.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, is_dataclass
from enum import Enum
from typing import Any

from firmware_py.core.board import UNKNOWN_BURN, StreetDeal
from firmware_py.core.cards import UNKNOWN_PREFIX, is_joker, is_unknown
from firmware_py.core.chips import HandChips, Pot, Problem, Stakes, TableChips, Wager
from firmware_py.core.decks import Deck
from firmware_py.core.evaluator import winners as read_winners
from firmware_py.core.events import (
    BOARD_ANTENNAS,
    BURN,
    PLAYER_ACTIONS,
    SHOE,
    Button,
    ButtonName,
    Event,
    Gone,
    Level,
    Read,
    Seat,
    SeatStatus,
    Setup,
    Stacks,
)
from firmware_py.core.hand import CardInfo, Dealt, Hand
from firmware_py.core.profiles import Profile, Rule
from firmware_py.core.rulings import Notice, NoticeKind, Ruling, RulingKind, Street
from firmware_py.core.seating import Positions, between, first_positions, next_positions
from firmware_py.core.snapshot import ChipsView, ClockView, Phase, PlayerState, SeatView, TableSnapshot
from firmware_py.core.vocab import Cause, RuleKey, Where

NEXT_STREET = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}
AGGRESSIVE = frozenset({ButtonName.BET, ButtonName.RAISE, ButtonName.ALLIN})
ORDINAL = ("first", "second")
PREMATURE_RULES = {Street.FLOP: RuleKey.PREMATURE_FLOP, Street.TURN: RuleKey.PREMATURE_TURN,
                   Street.RIVER: RuleKey.PREMATURE_RIVER}
BURN_RULES = {  # (missing, on the flop): the flop's burn may be ruled on apart from the turn's and river's
    (True, True): RuleKey.BURN_MISSING_FLOP, (True, False): RuleKey.BURN_MISSING,
    (False, True): RuleKey.BURN_EXTRA_FLOP, (False, False): RuleKey.BURN_EXTRA,
}
UNDO_HANDS = 3  # hand boundaries whose state is kept: undo reaches back into the last two hands
_NOT_STATE = frozenset({"_profiles", "_log", "_checkpoints", "_out_rulings", "_out_notices"})  # outputs: per feed


_FROZEN_TYPES: dict[type, bool] = {}  # per type: nothing mutates its values in place (tuples: see items)


def _frozen_type(kind: type) -> bool:
    known = _FROZEN_TYPES.get(kind)
    if known is None:
        params = getattr(kind, "__dataclass_params__", None)
        known = _FROZEN_TYPES[kind] = (kind in (type(None), str, int, float, bool, frozenset)
                                       or issubclass(kind, Enum | Profile)
                                       or bool(params is not None and params.frozen))
    return known


def _frozen(value: object) -> bool:
    """True for a value nothing mutates in place: shared, not copied, by a checkpoint."""
    if type(value) is tuple:
        return all(_frozen(item) for item in value)
    return _frozen_type(type(value))


def _clone(value: Any) -> Any:
    """A copy of a piece of core state: containers and the hand's own dataclasses copied, frozen values shared."""
    kind = type(value)
    if kind is not tuple and _frozen_type(kind):
        return value
    if kind is list:
        return [item if _frozen_type(type(item)) else _clone(item) for item in value]
    if kind is set:
        return set(value)  # of seats and UIDs
    if kind is dict:
        return {key: item if _frozen_type(type(item)) else _clone(item) for key, item in value.items()}
    if kind is tuple:
        return value if _frozen(value) else tuple(_clone(item) for item in value)
    if is_dataclass(value) and not isinstance(value, type):  # the hand, a street's deal: field by field
        clone = object.__new__(kind)
        for name in value.__dataclass_fields__:
            item = getattr(value, name)
            object.__setattr__(clone, name, item if _frozen_type(type(item)) else _clone(item))
        return clone
    return copy.deepcopy(value)


@dataclass(frozen=True, kw_only=True, slots=True)
class Outcome:
    """What one event caused: rulings for the dealer, notices for the operator."""

    rulings: tuple[Ruling, ...] = ()
    notices: tuple[Notice, ...] = ()


NOTHING = Outcome()

class TableCore:
    """The table's rules core. Feed it events; read rulings from the outcomes and state from snapshots."""

    def __init__(self, profiles: Mapping[str, Profile]) -> None:
        self._profiles = dict(profiles)
        # Undo replays from the last hand boundary, not from the session's start: the state is kept
        # just after each of the last UNDO_HANDS boundaries, and the log only since the oldest of them.
        self._log: list[Event] = []  # the effective events since the oldest checkpoint
        self._checkpoints: list[tuple[int, dict[str, object]]] = []  # (len(_log) then, the state after it)
        self._reset()

    def _reset(self) -> None:
        self._profile: Profile | None = None
        self._t = 0.0
        self._occupied: set[int] = set()
        self._joined: set[int] = set()
        self._cards: dict[str, CardInfo] = {}
        self._in_play = ""
        self._back = ""
        self._button_seat: int | None = None
        self._previous: Positions | None = None
        self._redeal: Positions | None = None  # positions to reuse after a misdeal
        self._corrected: Positions | None = None  # positions found right after the window closed
        self._hand: Hand | None = None
        self._hand_number = 0
        self._unconfirmed: list[Ruling] = []
        self._notices: list[str] = []
        self._out_rulings: list[Ruling] = []
        self._out_notices: list[Notice] = []
        self._chips = TableChips()  # amounts, once a `stacks` event says how many chips each seat has

    # ----------------------------------------------------------------------------------------
    # Read-only state for the adapters: the display and the daemon read snapshots; these are the rest.

    @property
    def t(self) -> float:
        """The session time of the last event fed (of the press, for an undo)."""
        return self._t

    @property
    def profile(self) -> Profile | None:
        """The profile in force (None before the setup)."""
        return self._profile

    @property
    def hand_number(self) -> int:
        return self._hand_number

    @property
    def unconfirmed(self) -> tuple[Ruling, ...]:
        """Rulings the dealer has not confirmed yet, oldest first."""
        return tuple(self._unconfirmed)

    def card(self, uid: str) -> str | None:
        """The card a tag is in the decks of the setup (None for a tag no deck knows)."""
        info = self._cards.get(uid)
        return info.card if info is not None else None

    @property
    def level(self) -> Stakes | None:
        """The blinds and ante in force, once a `level` event gave them."""
        return self._chips.level

    @property
    def hand_chips(self) -> HandChips | None:
        """The chips of the current hand (None until the table knows stacks). Read it; only `feed` changes it."""
        return self._chips.hand

    @property
    def round_actions(self) -> int:
        """Actions taken in the current hand's betting round (0 with no hand)."""
        return self._hand.betting.round_actions if self._hand is not None else 0

    def live_seats(self) -> tuple[int, ...]:
        """The current hand's seats not folded or dead, in deal order."""
        return tuple(self._hand.live()) if self._hand is not None else ()

    def seats_able_to_act(self) -> tuple[int, ...]:
        """The current hand's live seats not all in, in deal order."""
        return tuple(self._hand.can_act()) if self._hand is not None else ()

    # ----------------------------------------------------------------------------------------
    # Input

    def feed(self, event: Event) -> Outcome:
        """Apply one event and return what it caused."""
        self._out_rulings, self._out_notices = [], []
        self._t = event.t
        if isinstance(event, Button) and event.name is ButtonName.UNDO:
            self._undo(event)
        else:
            self._log.append(event)
            self._apply(event)
            self._after(event)
        if not self._out_rulings and not self._out_notices:
            return NOTHING  # most events: one shared, immutable empty outcome
        return Outcome(rulings=tuple(self._out_rulings), notices=tuple(self._out_notices))

    # -- undo and resume at the cost of one hand -------------------------------------------------

    def _after(self, event: Event) -> None:
        """After a hand boundary (a setup, a new hand) keep the state, and forget the oldest hand kept."""
        if isinstance(event, Setup) or (isinstance(event, Button) and event.name is ButtonName.NEW_HAND):
            self._checkpoints.append((len(self._log), self._state()))
            if len(self._checkpoints) > UNDO_HANDS:
                del self._checkpoints[0]
                cut = self._checkpoints[0][0]
                self._log = self._log[cut:]
                self._checkpoints = [(at - cut, state) for at, state in self._checkpoints]

    def _state(self) -> dict[str, object]:
        """A copy of the table's state (profiles and frozen values shared, never copied)."""
        return self._copy({key: value for key, value in vars(self).items() if key not in _NOT_STATE})

    def _copy(self, state: Mapping[str, object]) -> dict[str, object]:
        return {key: _clone(value) for key, value in state.items()}

    def save(self) -> dict[str, object]:
        """Everything the core holds but its profiles, undo history included: `restore` takes it back."""
        saved = self._state()
        saved["_log"] = list(self._log)
        saved["_checkpoints"] = [(at, self._copy(state)) for at, state in self._checkpoints]
        return saved

    def restore(self, saved: Mapping[str, object]) -> None:
        """Take back a `save()` made by a core with the same profiles (resume without replaying the session)."""
        unknown = set(saved) - set(vars(self))
        if unknown:
            raise ValueError(f"not a saved core state: unknown fields {sorted(unknown)}")
        names = {profile.name for profile in self._profiles.values()}
        profile = saved.get("_profile")
        if profile is not None and getattr(profile, "name", None) not in names:
            raise ValueError("the saved core state is from other profiles")
        for key, value in saved.items():
            setattr(self, key, value)
        for state in [vars(self), *(state for _at, state in self._checkpoints)]:
            kept = state.get("_profile")
            if isinstance(kept, Profile):  # the restored core rules with this core's own profiles
                state["_profile"] = self._profiles[kept.name]

    def _apply(self, event: Event) -> None:
        hand = self._hand
        settles = not (isinstance(event, Gone) or (isinstance(event, Read) and event.antenna != SHOE))
        if hand is not None and hand.board.settle is not None and settles:
            self._judge_burns(hand, hand.board.settle)
        if isinstance(event, Setup):
            self._setup(event)
        elif self._profile is None:
            self._notice(NoticeKind.IGNORED, "no setup yet: the session must start with a setup line")
        elif isinstance(event, Read):
            self._read(event)
        elif isinstance(event, Gone):
            self._gone(event)
        elif isinstance(event, Button):
            self._button(event)
        elif isinstance(event, Stacks | Level):
            self._chip_event(event)
        else:
            self._seat(event)

    def _undo(self, event: Button) -> None:
        for index in range(len(self._log) - 1, -1, -1):
            old = self._log[index]
            if isinstance(old, Button) and old.name is not ButtonName.CONFIRM:
                break
        else:
            self._notice(NoticeKind.IGNORED, "undo: no button press to take back")
            return
        log = self._log[:index] + self._log[index + 1 :]
        kept = [(at, state) for at, state in self._checkpoints if at <= index]
        if kept:  # replay from the last hand boundary before the press, not from the session's start
            start, state = kept[-1]
            self._checkpoints = kept
            for key, value in self._copy(state).items():
                setattr(self, key, value)
        else:  # no boundary before it: the log still starts at the session's start
            start, self._checkpoints = 0, []
            self._reset()
        self._log = log[:start]
        for replayed in log[start:]:
            self._t = replayed.t
            self._log.append(replayed)
            self._apply(replayed)
            self._after(replayed)
        self._t = event.t
        self._out_rulings = []
        self._out_notices = [Notice(t=event.t, notice=NoticeKind.UNDONE,
                                    message=f"took back the {old.name} press at t={old.t:g}")]

    # ----------------------------------------------------------------------------------------
    # Output helpers

    def _rule(self, key: RuleKey) -> Rule:
        assert self._profile is not None
        return self._profile.rule(key)

    def _ruling(self, kind: RulingKind, key: RuleKey, *, cause: Cause | None = None, uid: str | None = None,
                seat: int | None = None, street: Street | None = None,
                fill: Mapping[str, object] | None = None) -> Ruling:
        rule = self._rule(key)
        card = self._cards[uid].card if uid is not None and uid in self._cards else None
        text = rule.text(seat=seat, card=card, street=street, **(fill or {}))
        return self._emit(Ruling(t=self._t, ruling=kind, rule=rule.cite, remedy=text, cause=cause, card=card,
                                 seat=seat, street=street))

    def _emit(self, ruling: Ruling) -> Ruling:
        self._out_rulings.append(ruling)
        self._unconfirmed.append(ruling)
        if self._hand is not None:
            self._hand.rulings.append(ruling)
        return ruling

    def _notice(self, kind: NoticeKind, message: str) -> None:
        self._out_notices.append(Notice(t=self._t, notice=kind, message=message))
        self._notices = [*self._notices[-4:], message]

    # ----------------------------------------------------------------------------------------
    # Setup and seats

    def _setup(self, event: Setup) -> None:
        if event.profile not in self._profiles:
            names = ", ".join(sorted(self._profiles))
            raise ValueError(f"unknown profile {event.profile!r}: the profiles are {names}")
        if event.button not in event.seats:
            raise ValueError(f"the button seat {event.button} is not among the seats {list(event.seats)}")
        self._profile = self._profiles[event.profile]
        self._cards = {}
        decks: dict[str, Deck] = {deck.name: deck for deck in event.decks}
        for deck in event.decks:
            for uid, card in deck.cards.items():
                self._cards.setdefault(uid, CardInfo(card=card, deck=deck.name, back=deck.back))
        self._in_play = event.in_play
        self._back = decks[event.in_play].back
        self._occupied = set(event.seats)
        hand = self._hand
        if hand is not None and hand.phase in (Phase.DEALING, Phase.BETTING, Phase.BOARD):
            if event.button != hand.positions.button:
                self._button_out_of_position(hand, event.button)
            return
        self._button_seat = event.button
        self._previous = None
        self._redeal = None

    def _button_out_of_position(self, hand: Hand, button: int) -> None:
        corrected = first_positions(button, self._occupied)
        rule = self._rule(RuleKey.BUTTON_OUT_OF_POSITION)
        if hand.betting.window_open:
            self._misdeal(hand, RuleKey.BUTTON_OUT_OF_POSITION, Cause.BUTTON_OUT_OF_POSITION, seat=button)
            self._redeal = corrected
            return
        self._emit(Ruling(t=self._t, ruling=RulingKind.MISDEAL_TOO_LATE, cause=Cause.BUTTON_OUT_OF_POSITION,
                          seat=button, rule=f"{rule.source}: {rule.word('too_late_rule')}",
                          remedy=rule.word("too_late_remedy")))
        self._corrected = corrected  # the next hand moves on from the right positions

    def _seat(self, event: Seat) -> None:
        hand = self._hand
        if event.status is SeatStatus.IN:
            if event.seat not in self._occupied:
                self._occupied.add(event.seat)
                self._joined.add(event.seat)
            return
        self._occupied.discard(event.seat)
        self._joined.discard(event.seat)
        if hand is not None and event.seat in hand.seats and event.seat not in hand.betting.folded:
            hand.betting.folded.add(event.seat)
            self._notice(NoticeKind.IGNORED, f"seat {event.seat} left during the hand: folded")
            self._after_action(hand)

    # ----------------------------------------------------------------------------------------
    # The dealer's panel

    def _button(self, event: Button) -> None:
        name, hand = event.name, self._hand
        if name is ButtonName.NEW_HAND:
            self._new_hand()
        elif name is ButtonName.HAND_END:
            self._hand_end()
        elif name is ButtonName.CONFIRM:
            if self._unconfirmed:
                done = self._unconfirmed.pop(0)
                self._notice(NoticeKind.CONFIRMED, f"{done.ruling} ({done.rule})")
        elif hand is None or hand.phase in (Phase.MISDEALT, Phase.IDLE):
            self._notice(NoticeKind.IGNORED, f"{name} pressed with no hand in progress")
        elif name in PLAYER_ACTIONS:
            self._action(hand, name, event.seat, event.amount)
        elif name is ButtonName.ROUND_DONE:
            if hand.phase is Phase.BETTING:
                self._close_round(hand)
            elif hand.phase is Phase.BOARD and hand.board.deal is not None and not hand.board.deal.shoe:
                pass  # the presses already showed the round complete
            else:
                self._notice(NoticeKind.IGNORED, "round_done pressed while no betting round is open")
        elif name is ButtonName.EXPOSED:
            self._exposed_button(hand)
        elif name is ButtonName.BOXED:
            self._boxed_button(hand)
        elif name is ButtonName.MISDEAL:
            if hand.phase is Phase.SHOWDOWN:
                self._notice(NoticeKind.IGNORED, "misdeal pressed after the hand reached showdown")
            elif hand.betting.window_open:
                self._misdeal(hand, RuleKey.DEALER_CALLED, Cause.DEALER_CALLED)
            else:
                self._too_late(hand, Cause.DEALER_CALLED, seat=None)
        elif name is ButtonName.CLOCK:
            assert self._profile is not None
            clock = self._profile.clock
            if hand.betting.to_act is None:
                self._notice(NoticeKind.IGNORED, "clock pressed with no player to act")
            else:
                hand.clock = ClockView(seat=hand.betting.to_act, started_t=self._t, seconds=clock.seconds,
                                       warnings=tuple(float(w) for w in clock.warnings),
                                       countdown=clock.countdown, rule=clock.cite)

    def _new_hand(self) -> None:
        assert self._profile is not None
        hand = self._hand
        if hand is not None and hand.phase in (Phase.BETTING, Phase.BOARD, Phase.SHOWDOWN):
            self._notice(NoticeKind.IGNORED, "new_hand pressed before hand_end: the last hand is ended")
            self._hand_end()
        elif hand is not None and hand.phase is Phase.DEALING:
            self._redeal = hand.positions
        if self._redeal is not None:
            positions = self._redeal
            present = [s for s in positions.deal_order if s in self._occupied]
            if len(present) != len(positions.deal_order):
                positions = first_positions(positions.button if positions.button in self._occupied
                                            else present[-1], set(present))
        elif self._previous is None:
            if self._button_seat is None or self._button_seat not in self._occupied:
                self._button_seat = min(self._occupied) if self._occupied else None
            if self._button_seat is None or len(self._occupied) < 2:
                self._notice(NoticeKind.IGNORED, "new_hand: fewer than two players seated")
                return
            positions = first_positions(self._button_seat, self._occupied)
        else:
            if len(self._occupied) < 2:
                self._notice(NoticeKind.IGNORED, "new_hand: fewer than two players seated")
                return
            positions = next_positions(self._previous, self._occupied, self._profile.blinds)
        positions = self._seat_new_players(positions)
        self._redeal = None
        self._hand_number += 1
        slots: list[str | None] = [None] * (2 * len(positions.deal_order))
        self._hand = Hand(number=self._hand_number, positions=positions,
                          dealt=Dealt(slots=slots, hole={seat: [] for seat in positions.deal_order}))
        self._unconfirmed = []
        message = self._chips.start_hand(positions.deal_order, (positions.small_blind, positions.big_blind),
                                        self._rule(RuleKey.MIN_RAISE).procedure)
        if message:
            self._notice(NoticeKind.IGNORED, message)
        if self._chips.hand is not None:  # a blind or ante that took a whole stack: all in from the start
            self._hand.betting.allin.update(s for s, left in self._chips.hand.behind.items() if left == 0)

    def _seat_new_players(self, positions: Positions) -> Positions:
        """A new player is not dealt in between the button and the big blind, where the profile says so."""
        assert self._profile is not None
        if self._profile.blinds.new_player_between_button_and_blinds or positions.heads_up:
            self._joined.clear()
            return positions
        waiting = {s for s in self._joined if between(s, positions.button, positions.big_blind)}
        self._joined = waiting
        if not waiting:
            return positions
        order = tuple(s for s in positions.deal_order if s not in waiting)
        small = positions.small_blind if positions.small_blind not in waiting else None
        return Positions(button=positions.button, small_blind=small, big_blind=positions.big_blind,
                         deal_order=order)

    def _hand_end(self) -> None:
        hand = self._hand
        if hand is None:
            return
        if hand.phase in (Phase.MISDEALT, Phase.DEALING):
            self._redeal = self._redeal or hand.positions
        else:
            self._previous = self._corrected or hand.positions
            self._corrected = None
        hand.phase = Phase.IDLE
        hand.betting.to_act = None
        hand.clock = None

    # ----------------------------------------------------------------------------------------
    # Misdeals and the window

    def _misdeal(self, hand: Hand, key: RuleKey, cause: Cause, *, seat: int | None = None,
                 uid: str | None = None, fill: Mapping[str, object] | None = None) -> None:
        self._ruling(RulingKind.MISDEAL, key, cause=cause, seat=seat, uid=uid, fill=fill)
        self._refund()
        hand.phase = Phase.MISDEALT
        hand.betting.to_act = None
        hand.clock = None
        self._redeal = self._redeal or hand.positions

    def _too_late(self, hand: Hand, cause: Cause, *, seat: int | None, uid: str | None = None) -> None:
        assert self._profile is not None
        window = self._profile.window
        card = self._cards[uid].card if uid is not None and uid in self._cards else None
        dead_seat = seat if window.too_late_hand_dead else None
        self._emit(Ruling(t=self._t, ruling=RulingKind.MISDEAL_TOO_LATE, cause=cause, seat=dead_seat, card=card,
                          rule=window.cite, remedy=window.too_late_remedy))
        if dead_seat is not None:
            hand.betting.dead.add(dead_seat)
            self._after_action(hand)

    def _misdeal_or_late(self, hand: Hand, key: RuleKey, cause: Cause, *, seat: int | None,
                         uid: str | None = None, fill: Mapping[str, object] | None = None) -> None:
        if hand.betting.window_open:
            self._misdeal(hand, key, cause, seat=seat, uid=uid, fill=fill)
        else:
            self._too_late(hand, cause, seat=seat, uid=uid)

    # ----------------------------------------------------------------------------------------
    # Betting

    def _start_round(self, hand: Hand, street: Street) -> None:
        hand.phase = Phase.BETTING
        hand.street = street
        hand.betting.acted = set()
        hand.betting.round_actions = 0
        hand.betting.round_closed = False
        hand.board.loose = []
        hand.betting.to_act = hand.first_to_act()
        if street is not Street.PREFLOP:
            hand.betting.window_open = False
        if street is not Street.PREFLOP and len(hand.can_act()) <= 1:
            hand.betting.round_closed = True  # no betting possible: everyone else is all in
            hand.betting.to_act = None
            if street is Street.RIVER and len(hand.live()) > 1:
                self._close_round(hand)  # all in and the board complete: the hands are read now

    def _action(self, hand: Hand, name: ButtonName, seat: int | None, amount: int | None = None) -> None:
        if hand.phase is Phase.DEALING and not self._deal_interrupted(hand):
            return
        if hand.phase is Phase.BOARD:
            self._notice(NoticeKind.IGNORED, f"{name} pressed while the {hand.street} was still being dealt")
            deal = hand.board.deal
            if deal is not None:
                self._complete_street(hand, deal)
        if hand.phase is not Phase.BETTING:
            self._notice(NoticeKind.IGNORED, f"{name} pressed with no betting round open")
            return
        actor = seat if seat is not None else hand.betting.to_act
        if actor is None or actor not in hand.seats or actor in hand.betting.folded or actor in hand.betting.dead:
            self._notice(NoticeKind.IGNORED, f"{name}: seat {actor} cannot act now")
            return
        if actor in hand.dealt.jokers:
            self._ruling(RulingKind.DEAD_HAND, RuleKey.JOKER_ACTED, cause=Cause.JOKER, seat=actor,
                         uid=hand.dealt.jokers[actor])
            hand.betting.dead.add(actor)
            self._after_action(hand)
            return
        wager = self._wager(actor, name, amount)
        if wager is not None and not wager.taken:
            return
        if hand.clock is not None and hand.clock.seat == actor:
            hand.clock = None
        if name is ButtonName.FOLD:
            hand.betting.folded.add(actor)
        elif wager.raises if wager is not None else name in AGGRESSIVE:
            hand.betting.acted = set()
        if (wager.allin if wager is not None else name is ButtonName.ALLIN):
            hand.betting.allin.add(actor)
        hand.betting.acted.add(actor)
        hand.betting.round_actions += 1
        if hand.street is Street.PREFLOP:
            hand.betting.preflop_actions += 1
            assert self._profile is not None
            hand.count_for_window(actor, name, self._profile.window)
        hand.betting.to_act = hand.next_to_act(actor)
        self._after_action(hand)

    def _after_action(self, hand: Hand) -> None:
        if self._uncontested(hand):
            return
        if hand.phase is Phase.BETTING and hand.betting.round_actions and hand.round_complete():
            self._close_round(hand)  # everyone has acted since the last bet: the round is done

    def _uncontested(self, hand: Hand) -> bool:
        if hand.phase in (Phase.BETTING, Phase.BOARD, Phase.DEALING) and len(hand.live()) <= 1:
            hand.phase = Phase.SHOWDOWN  # the pot goes to the last hand; there is no showdown to read
            hand.betting.to_act = None
            hand.clock = None
            self._award(hand, None)
        return hand.phase is Phase.SHOWDOWN

    def _close_round(self, hand: Hand) -> None:
        hand.betting.round_closed = True
        if self._chips.hand is not None:
            self._chips.hand.end_round()
        hand.board.last_drawn = None  # a card reshuffled into the stub may be the next one out
        hand.betting.to_act = None
        hand.clock = None
        if hand.street is Street.RIVER:
            self._showdown(hand)
            return
        if hand.street is Street.PREFLOP:
            hand.betting.window_open = False
            self._owed_at_flop(hand)
            if hand.phase is not Phase.BETTING:
                return
        street = NEXT_STREET[hand.street]
        expected, credited = hand.board.burns.take(street)
        deal = StreetDeal(street=street, expected_burns=expected, burns=list(credited))
        deal.shoe.extend(hand.board.loose)  # a burn drawn before the round was declared done
        hand.board.loose = []
        hand.board.deal = deal
        hand.phase = Phase.BOARD
        hand.street = street
        hand.board.premature = None

    def _owed_at_flop(self, hand: Hand) -> None:
        """Seats still short a card when the flop comes: their hands are dead (or a misdeal)."""
        for seat, _replaces in list(hand.dealt.owed):
            if hand.betting.window_open:
                self._misdeal(hand, RuleKey.WRONG_COUNT, Cause.WRONG_COUNT, seat=seat,
                              fill={"detail": f"seat {seat} has the wrong number of cards"})
                return
            self._ruling(RulingKind.DEAD_HAND, RuleKey.WRONG_COUNT_DEAD, cause=Cause.WRONG_COUNT, seat=seat)
            hand.betting.dead.add(seat)
        hand.dealt.owed = []
        self._uncontested(hand)

    # ----------------------------------------------------------------------------------------
    # Chips (only once a `stacks` event gave the seats' chips: see chips.py)

    def _chip_event(self, event: Stacks | Level) -> None:
        if isinstance(event, Level):
            self._chips.level = Stakes(small=event.small, big=event.big, ante=event.ante)
            return
        message = self._chips.set_stacks(event.stacks)
        if message:
            self._notice(NoticeKind.IGNORED, message)

    def _wager(self, seat: int, name: ButtonName, amount: int | None) -> Wager | None:
        """The action in chips; an illegal amount gets a ruling (brought up) or a notice (not taken)."""
        chips = self._chips.hand
        if chips is None or seat not in chips.behind:
            return None
        opening = chips.current == 0
        wager = chips.act(seat, str(name), amount)
        if wager.problem is Problem.UNDER_MINIMUM:
            key, cause = ((RuleKey.MIN_BET, Cause.UNDER_MIN_BET) if opening
                          else (RuleKey.MIN_RAISE, Cause.UNDER_MIN_RAISE))
            self._emit(Ruling(t=self._t, ruling=RulingKind.BET_TOO_SMALL, cause=cause, seat=seat,
                              amount=wager.keyed, rule=self._rule(key).cite,
                              remedy=self._rule(key).text(seat=seat, amount=f"{wager.keyed:,}",
                                                          minimum=f"{wager.to:,}")))
        elif wager.problem is Problem.NOT_REOPENED:
            rule = self._rule(RuleKey.RAISE_NOT_REOPENED)
            self._emit(Ruling(t=self._t, ruling=RulingKind.RAISE_NOT_ALLOWED, cause=Cause.NOT_REOPENED, seat=seat,
                              amount=wager.keyed, rule=rule.cite,
                              remedy=rule.text(seat=seat, minimum=f"{wager.minimum or 0:,}")))
        elif wager.problem is Problem.OVER_STACK:
            self._notice(NoticeKind.IGNORED, f"{name} {wager.keyed:,}: seat {seat} has only {wager.minimum:,} "
                         "in all; press not taken, key the amount again (or allin)")
        elif wager.problem is Problem.NOT_ABOVE_BET:
            self._notice(NoticeKind.IGNORED, f"{name} {wager.keyed:,} is not above the bet of {wager.minimum:,}: "
                         "press not taken; press call, or key a larger amount")
        elif wager.problem is Problem.CHECK_FACING_BET:
            self._notice(NoticeKind.IGNORED, f"check: seat {seat} faces a bet of {wager.minimum:,}; "
                         "press not taken, press call or fold")
        return wager

    def _refund(self) -> None:
        if self._chips.hand is not None and not self._chips.hand.settled:
            self._chips.hand.refund()

    def _award(self, hand: Hand, best: Callable[[Sequence[int]], Sequence[int]] | None) -> tuple[Pot, ...] | None:
        chips = self._chips.hand
        if chips is None or chips.settled:
            return None
        for seat in (*hand.betting.folded, *hand.betting.dead):
            chips.fold_out(seat)

        def read(seats: Sequence[int]) -> Sequence[int]:
            won = best(seats) if best is not None else ()
            return won or seats  # no hand to read (jokers, wrong counts): the pot is split

        return chips.award(read)

    def _pots_text(self, pots: Sequence[Pot]) -> str:
        contested = [pot for pot in pots if len(pot.seats) > 1]
        names = ["main pot", *(f"side pot {n}" for n in range(1, len(contested)))]
        parts = [f"{name} {pot.amount:,} to " + " and ".join(f"seat {s} ({c:,})" for s, c in pot.shares)
                 for name, pot in zip(names, contested, strict=True)]
        parts += [f"{pot.amount:,} not called goes back to seat {pot.seats[0]}" for pot in pots if len(pot.seats) == 1]
        text = "Pots: " + "; ".join(parts) + "."
        if len(contested) > 1:
            text += f" Each pot is split separately ({self._rule(RuleKey.SIDE_POTS).cite})."
        odd = [seat for pot in pots for seat in pot.odd_chips]
        if odd:
            who = ", ".join(f"seat {s}" for s in odd)
            text += f" Odd chip to {who}, first clockwise from the button ({self._rule(RuleKey.ODD_CHIP).cite})."
        return text

    # ----------------------------------------------------------------------------------------
    # Cards

    def _read(self, event: Read) -> None:
        info = self._cards.get(event.uid)
        hand = self._hand
        if info is None or (is_unknown(info.card) and event.antenna == SHOE and hand is not None
                            and event.uid not in hand.where):
            self._unknown_tag(event)
            return
        if hand is None or hand.phase in (Phase.IDLE, Phase.MISDEALT, Phase.SHOWDOWN):
            return  # cards gathered, mucked or shown between hands
        if info.back != self._back:
            self._void(hand, RuleKey.FOREIGN_CARD, Cause.FOREIGN_CARD, event.uid, {"back": info.back})
            return
        known = hand.identity.get(info.card)
        if known is not None and known != event.uid:
            self._void(hand, RuleKey.DUPLICATE_CARD, Cause.DUPLICATE_CARD, event.uid, {})
            return
        hand.identity[info.card] = event.uid
        where = hand.where.get(event.uid)
        if event.antenna == SHOE:
            # A card out of play (a premature or redealt board card) comes out again only after
            # it was mixed back into the stub; any other card already out is a double read.
            # The card just drawn cannot come out again at once: that is the reader seeing it twice.
            if where in (None, Where.VOID) and event.uid != hand.board.last_drawn:
                self._draw(hand, event.uid)
        elif event.antenna in BOARD_ANTENNAS:
            self._board_read(hand, event.uid, where)
        elif event.antenna == BURN:
            if where is None or where == Where.VOID:
                self._draw(hand, event.uid)
        elif event.antenna.startswith("seat"):
            self._seat_read(hand, int(event.antenna[4:]), event.uid, where)

    def _unknown_tag(self, event: Read) -> None:
        """A tag no enrolled deck knows. Out of the shoe during a hand it is a card the table cannot
        see: it takes its place in the count like any card (so the cards after it are not ruled on
        as if it were absent) and the dealer is alarmed at once to look at it (its back decides,
        Irregularities 3). Anywhere else, or between hands, it is a notice for the operator."""
        hand = self._hand
        if event.antenna != SHOE or hand is None or hand.phase in (Phase.IDLE, Phase.MISDEALT, Phase.SHOWDOWN):
            self._notice(NoticeKind.UNKNOWN_TAG,
                         f"unknown tag {event.uid} on antenna {event.antenna}: not in any enrolled deck")
            return
        if event.uid not in self._cards:  # a stand-in card, `?1`, `?2`...: its face is unknown
            unknown = sum(1 for c in self._cards.values() if is_unknown(c.card))
            self._cards[event.uid] = CardInfo(card=f"{UNKNOWN_PREFIX}{unknown + 1}", deck=self._in_play or "",
                                             back=self._back)
        seat: int | None = None
        if hand.phase is Phase.DEALING and hand.seats:
            seat = hand.seats[hand.dealt.next_slot % len(hand.seats)]
        elif hand.phase is Phase.BETTING and hand.street is Street.PREFLOP and hand.dealt.owed:
            seat = hand.dealt.owed[0][0]
        counted = (f"seat {seat}'s hole card" if seat is not None
                   else "the next card out for the board: a burn or, once it lands on the board, a board card")
        self._ruling(RulingKind.UNKNOWN_CARD, RuleKey.UNKNOWN_CARD, cause=Cause.UNKNOWN_TAG, uid=event.uid, seat=seat,
                     fill={"antenna": event.antenna, "uid": event.uid, "counted": counted})
        self._draw(hand, event.uid)
        hand.board.last_drawn = event.uid

    def _void(self, hand: Hand, key: RuleKey, cause: Cause, uid: str, values: Mapping[str, object]) -> None:
        self._ruling(RulingKind.VOID_HAND, key, cause=cause, uid=uid, fill=values)
        self._refund()
        hand.phase = Phase.MISDEALT
        hand.betting.to_act = None
        self._redeal = self._redeal or hand.positions

    def _draw(self, hand: Hand, uid: str) -> None:
        """A card came out of the shoe: a hole card, a replacement, an extra card, a burn or a board card."""
        if hand.where.get(uid) == Where.VOID:
            self._forget_burn(hand, uid)
        hand.board.last_drawn = uid
        card = self._cards[uid].card
        if hand.phase is Phase.DEALING:
            seat = hand.seats[hand.dealt.next_slot % len(hand.seats)]
            hand.dealt.slots[hand.dealt.next_slot] = uid
            hand.dealt.next_slot += 1
            hand.dealt.hole[seat].append(uid)
            hand.where[uid] = Where.HOLE
            if is_joker(card):
                hand.dealt.jokers[seat] = uid
                hand.dealt.owed.append((seat, uid))
                self._ruling(RulingKind.SCRAP_CARD, RuleKey.JOKER, cause=Cause.JOKER, seat=seat, uid=uid)
            if hand.dealt.next_slot == len(hand.dealt.slots):
                self._start_round(hand, Street.PREFLOP)
            return
        if hand.phase is Phase.BETTING and hand.street is Street.PREFLOP and hand.dealt.owed:
            self._deliver_owed(hand, uid)
            return
        if hand.phase is Phase.BETTING and hand.round_complete():
            self._close_round(hand)
        if hand.phase is Phase.BETTING:
            if hand.street is Street.PREFLOP and hand.betting.preflop_actions == 0 and not hand.board.loose:
                self._extra_card(hand, uid)
            else:
                hand.board.loose.append(uid)
                hand.where[uid] = Where.BURN
            return
        if hand.phase is Phase.BOARD and hand.board.deal is not None:
            hand.board.deal.shoe.append(uid)
            hand.where[uid] = Where.BURN  # until it lands on the board

    def _deliver_owed(self, hand: Hand, uid: str) -> None:
        seat, replaces = hand.dealt.owed.pop(0)
        hand.dealt.hole[seat].append(uid)
        hand.where[uid] = Where.HOLE
        if replaces is not None and replaces in hand.dealt.hole[seat]:
            hand.dealt.hole[seat].remove(replaces)
            if hand.dealt.jokers.get(seat) == replaces:
                del hand.dealt.jokers[seat]
                hand.where[replaces] = Where.SCRAP
            else:  # an exposed card: it becomes the burn for the flop
                self._credit_burn(hand, Street.FLOP, replaces)

    def _forget_burn(self, hand: Hand, uid: str) -> None:
        """A card out of play came out of the shoe again: where it goes now is what counts.

        If it is the burn it was credited as, the street counts it from the shoe instead.
        """
        hand.board.burns.forget(uid, hand.board.deal)

    def _credit_burn(self, hand: Hand, street: Street, uid: str) -> None:
        hand.board.burns.credit(street, uid)
        if uid != UNKNOWN_BURN:
            hand.where[uid] = Where.VOID

    def _extra_card(self, hand: Hand, uid: str) -> None:
        hand.dealt.extra.append(uid)
        first = hand.seats[0]
        if len(hand.dealt.extra) == 1:
            self._ruling(RulingKind.EXTRA_CARD, RuleKey.EXTRA_CARD, seat=first, uid=uid)
            self._credit_burn(hand, Street.FLOP, uid)
        else:
            hand.where[uid] = Where.VOID
            self._misdeal_or_late(hand, RuleKey.TWO_EXTRA, Cause.TWO_EXTRA, seat=first, uid=uid)

    def _deal_interrupted(self, hand: Hand) -> bool:
        """A player acted before every seat had two cards; True when the deal can be completed."""
        missing = len(hand.dealt.slots) - hand.dealt.next_slot
        fixable = self._rule(RuleKey.SHORT_CARD).number("fixable_short")
        short = [hand.seats[i % len(hand.seats)] for i in range(hand.dealt.next_slot, len(hand.dealt.slots))]
        if missing <= fixable:
            for seat in short:
                self._ruling(RulingKind.SHORT_CARD, RuleKey.SHORT_CARD, cause=Cause.WRONG_COUNT, seat=seat)
                hand.dealt.owed.append((seat, None))
            hand.dealt.next_slot = len(hand.dealt.slots)
            self._start_round(hand, Street.PREFLOP)
            return True
        seats = ", ".join(str(s) for s in dict.fromkeys(short))
        self._misdeal(hand, RuleKey.WRONG_COUNT, Cause.WRONG_COUNT, seat=short[0],
                      fill={"detail": f"action began with seats {seats} short of cards"})
        return False

    def _exposed_button(self, hand: Hand) -> None:
        uid = hand.board.last_drawn
        if uid is None:
            self._notice(NoticeKind.IGNORED, "exposed pressed before any card was dealt")
            return
        if hand.where.get(uid) == Where.HOLE and hand.street is Street.PREFLOP:
            self._exposed(hand, uid)
        else:
            self._notice(NoticeKind.IGNORED, f"{self._cards[uid].card} exposed while dealing the board: "
                                             "show it to all; it stays where it is")

    def _exposed(self, hand: Hand, uid: str) -> None:
        """A hole card exposed by the dealer (Misdeals 1(a)/(b), Hold'em 1, or the profile's own)."""
        hand.dealt.exposed += 1
        seat = hand.dealt.seat_of(uid)
        slot = hand.dealt.slot_of(uid)
        first_cards = self._rule(RuleKey.EXPOSED_FIRST_CARDS).number("first_cards")
        if slot is not None and slot < first_cards:
            self._misdeal_or_late(hand, RuleKey.EXPOSED_FIRST_CARDS, Cause.EXPOSED_FIRST_CARDS, seat=seat, uid=uid,
                                  fill={"position": ORDINAL[slot]})
        elif hand.dealt.exposed >= 2:
            self._misdeal_or_late(hand, RuleKey.TWO_EXPOSED, Cause.TWO_EXPOSED, seat=seat, uid=uid)
        else:
            self._ruling(RulingKind.EXPOSED_CARD, RuleKey.EXPOSED_CARD, seat=seat, uid=uid)
            if seat is not None:
                hand.dealt.owed.append((seat, uid))

    def _boxed_button(self, hand: Hand) -> None:
        uid = hand.board.last_drawn
        if uid is None:
            self._notice(NoticeKind.IGNORED, "boxed pressed before any card was drawn")
            return
        where = hand.where.get(uid)
        if where == Where.HOLE and hand.street is Street.PREFLOP:
            procedure = self._rule(RuleKey.BOXED_CARD).procedure
            if procedure == "as_exposed":
                self._exposed(hand, uid)
                return
            hand.dealt.boxed += 1
            seat = hand.dealt.seat_of(uid)
            if hand.dealt.boxed >= 2:
                self._misdeal_or_late(hand, RuleKey.TWO_BOXED, Cause.TWO_BOXED, seat=seat, uid=uid)
                return
            self._ruling(RulingKind.BOXED_CARD, RuleKey.BOXED_CARD, seat=seat, uid=uid, street=Street.PREFLOP)
            self._scrap_hole_card(hand, uid, seat)
            return
        street = hand.street
        procedure = self._rule(RuleKey.BOXED_CARD_BOARD).procedure
        self._ruling(RulingKind.BOXED_CARD, RuleKey.BOXED_CARD_BOARD, uid=uid, street=street)
        if procedure == "plays":
            return
        hand.dealt.boxed += 1
        hand.where[uid] = Where.SCRAP
        deal = hand.board.deal
        if deal is not None:
            for cards in (deal.shoe, deal.board):
                if uid in cards:
                    cards.remove(uid)
        if uid in hand.board.loose:
            hand.board.loose.remove(uid)
        if uid in hand.board.cards:
            hand.board.cards.remove(uid)
        if hand.dealt.boxed >= 2 and hand.betting.window_open:
            self._misdeal(hand, RuleKey.TWO_BOXED, Cause.TWO_BOXED, uid=uid)

    def _scrap_hole_card(self, hand: Hand, uid: str, seat: int | None) -> None:
        """Irregularities 7: the boxed card is a scrap of paper; the next card takes its place."""
        hand.where[uid] = Where.SCRAP
        if seat is not None:
            hand.dealt.hole[seat].remove(uid)
        slot = hand.dealt.slot_of(uid)
        if slot is not None and hand.phase is Phase.DEALING and slot == hand.dealt.next_slot - 1:
            hand.dealt.slots[slot] = None
            hand.dealt.next_slot -= 1
        elif seat is not None:
            hand.dealt.owed.insert(0, (seat, None))

    def _board_read(self, hand: Hand, uid: str, where: Where | None) -> None:
        deal = hand.board.deal
        if deal is not None and uid in deal.lifted:
            deal.lifted.remove(uid)  # it flickered, or was put back: nothing changed
            return
        if where in (Where.BOARD, Where.VOID, Where.SCRAP):
            return  # a card that never left, read again
        next_street = len(hand.can_act()) <= 1 and uid in hand.board.loose  # all in: drawn after this street was out
        if deal is not None and deal.lifted and hand.before_action_on(deal) and where != Where.HOLE \
                and not next_street:
            self._replace_lifted(hand, deal, uid)
            return
        if where == Where.HOLE:
            if hand.phase is Phase.DEALING or (hand.street is Street.PREFLOP and hand.betting.preflop_actions == 0):
                hand.board.last_drawn = uid
                self._exposed(hand, uid)
            else:
                self._notice(NoticeKind.IGNORED, f"hole card {self._cards[uid].card} seen on the board antenna")
            return
        if hand.phase is Phase.DEALING:
            self._notice(NoticeKind.IGNORED, f"{self._cards[uid].card} on the board during the deal")
            return
        if where is None:  # (a void card returned above: antennas seeing it again are noise)
            self._draw(hand, uid)  # the shoe missed it: it came out all the same
            where = hand.where.get(uid)
            if hand.phase is Phase.MISDEALT or where not in (Where.BURN, None):
                return
        # All in, no betting: a card with a burn drawn before it is the next street, not an extra card.
        runout = len(hand.can_act()) <= 1 and uid in hand.board.loose and hand.board.loose.index(uid) > 0
        if uid in hand.board.loose:
            hand.board.loose.remove(uid)
        if hand.phase is Phase.BETTING and hand.round_complete():
            if (hand.board.deal is not None and hand.board.deal.street is hand.street
                    and hand.betting.round_actions == 0 and not runout):
                self._extra_board_card(hand, hand.board.deal, uid)
                return
            self._close_round(hand)
        if hand.phase is Phase.SHOWDOWN:
            return
        if hand.phase is Phase.BETTING:
            if (hand.board.deal is not None and hand.board.deal.street is hand.street
                    and hand.betting.round_actions == 0):
                self._extra_board_card(hand, hand.board.deal, uid)
            else:
                self._premature(hand, uid)
            return
        deal = hand.board.deal
        if hand.phase is not Phase.BOARD or deal is None:
            return
        if uid not in deal.shoe:
            deal.shoe.append(uid)
        if is_joker(self._cards[uid].card):
            hand.where[uid] = Where.SCRAP
            deal.shoe.remove(uid)
            self._ruling(RulingKind.SCRAP_CARD, RuleKey.JOKER_BOARD, cause=Cause.JOKER, uid=uid, street=deal.street)
            return
        self._forget_burn(hand, uid)  # a card counted as a burn that lands on the board is a board card
        deal.board.append(uid)
        hand.board.cards.append(uid)
        hand.where[uid] = Where.BOARD
        if len(deal.board) >= deal.needed:
            self._complete_street(hand, deal)

    def _complete_street(self, hand: Hand, deal: StreetDeal) -> None:
        # No betting on this street (all in): the dealer runs the next cards out at once, and a board
        # card read late may come after the next street's burn left the shoe. A card drawn after the
        # street's last board card was drawn is the next street's, not a second burn of this one.
        ahead = deal.drawn_after_board() if len(hand.can_act()) <= 1 else []
        for uid in ahead:
            deal.shoe.remove(uid)
        if len(deal.burn_cards()) < deal.expected_burns:
            self._burn_ruling(hand, deal, missing=True)
        hand.board.settle = deal
        self._start_round(hand, deal.street)
        if ahead and hand.phase is Phase.BETTING:
            hand.board.loose.extend(ahead)

    def _judge_burns(self, hand: Hand, deal: StreetDeal) -> None:
        hand.board.settle = None
        if deal.judged or hand.phase is Phase.MISDEALT:
            return
        deal.judged = True
        burns = deal.burn_cards()
        for uid in burns:
            if hand.where.get(uid) != Where.BOARD:
                hand.board.burns.record(uid)
        if len(burns) < deal.expected_burns and not deal.missing_ruled:
            self._burn_ruling(hand, deal, missing=True)
        elif len(burns) > deal.expected_burns:
            self._burn_ruling(hand, deal, missing=False)

    def _burn_ruling(self, hand: Hand, deal: StreetDeal, *, missing: bool) -> None:
        street = deal.street
        kind = RulingKind.BURN_MISSING if missing else RulingKind.BURN_EXTRA
        key = BURN_RULES[missing, street is Street.FLOP]
        next_street = NEXT_STREET.get(street)
        self._ruling(kind, key, street=street, fill={"next_street": next_street or "next deal"})
        if missing:
            deal.missing_ruled = True
        elif next_street is not None:
            self._credit_burn(hand, next_street, UNKNOWN_BURN)

    def _extra_board_card(self, hand: Hand, deal: StreetDeal, uid: str) -> None:
        """A board card beyond the street's count before anyone acted on it."""
        if deal.street is not Street.FLOP:
            rule = self._rule(RuleKey.TURN_RIVER_TOO_MANY)
            if rule.procedure == "premature":
                self._premature(hand, uid)
                return
            # One of the two goes back on the stub as the next street's burn; the dealer's pick
            # is whichever card leaves the board (its `gone`), else the last one turned.
            deal.extra.append(uid)
            if uid not in deal.shoe:
                deal.shoe.append(uid)
            self._ruling(RulingKind.TOO_MANY_CARDS, RuleKey.TURN_RIVER_TOO_MANY, uid=uid, street=deal.street)
            after = NEXT_STREET.get(deal.street)
            if after is not None:
                self._credit_burn(hand, after, uid)
            return
        deal.extra.append(uid)
        if uid not in deal.shoe:
            deal.shoe.append(uid)
        hand.where[uid] = Where.BOARD
        rule = self._rule(RuleKey.FLOP_TOO_MANY)
        self._ruling(RulingKind.FLOP_TOO_MANY, RuleKey.FLOP_TOO_MANY, uid=uid, street=Street.FLOP)
        if rule.procedure == "next_burn":
            # One card goes on the stub as the turn's burn: the last one turned unless the dealer
            # lifts another off the board (its `gone` tells which).
            self._credit_burn(hand, Street.TURN, uid)
            return
        # Redeal: the flop goes back into the stub; the burn stays; a new flop comes without a burn.
        for card_uid in [*deal.board, *deal.extra]:
            hand.where[card_uid] = Where.VOID  # still on the felt until gathered; may come out again later
            if card_uid in hand.board.cards:
                hand.board.cards.remove(card_uid)
        kept = deal.burn_cards()
        hand.board.settle = None
        hand.board.last_drawn = None  # the flop goes back into the stub: any of it may be the next card out
        hand.board.deal = StreetDeal(street=Street.FLOP, expected_burns=len(kept), burns=kept)
        hand.phase = Phase.BOARD
        hand.street = Street.FLOP
        hand.betting.to_act = None

    def _premature(self, hand: Hand, uid: str) -> None:
        """A board card before the betting round was complete: it does not play (Irr. 15/16)."""
        street = NEXT_STREET.get(hand.street)
        hand.where[uid] = Where.VOID
        if street is None:
            self._notice(NoticeKind.IGNORED, f"{self._cards[uid].card} on the board after the river")
            return
        if hand.board.premature is street:
            # The rest of the same premature street: drawn before it landed, it is no burn.
            expected, credited = hand.board.burns.due[street]
            hand.board.burns.due[street] = (expected, [card for card in credited if card != uid])
            return
        hand.board.premature = street
        rule = self._rule(PREMATURE_RULES[street])
        burns = [card for card in hand.board.loose if card != uid]
        hand.board.loose = []
        hand.board.burns.due[street] = (rule.number("redeal_burns"), burns)
        after = NEXT_STREET.get(street)
        if after is not None:
            hand.board.burns.due[after] = (rule.number("next_street_burns"), [])
        self._ruling(RulingKind.PREMATURE_CARD, PREMATURE_RULES[street], uid=uid, street=street)

    def _replace_lifted(self, hand: Hand, deal: StreetDeal, uid: str) -> None:
        """A board card was taken off before anyone acted and another put in its place.

        That is how a dealer corrects a missing burn (the card becomes the burn and the next card
        replaces it): the lifted card stays out as a burn.
        """
        lifted = deal.lifted.pop(0)
        if uid not in deal.shoe:
            deal.shoe.append(uid)
        deal.board[deal.board.index(lifted)] = uid
        hand.board.cards[hand.board.cards.index(lifted)] = uid
        hand.where[lifted] = Where.BURN
        hand.where[uid] = Where.BOARD
        if deal.judged:
            hand.board.burns.record(lifted)  # judged already: record the new burn here
        if uid in hand.board.loose:
            hand.board.loose.remove(uid)

    def _gone(self, event: Gone) -> None:
        hand = self._hand
        if hand is None or event.antenna not in BOARD_ANTENNAS or hand.phase is not Phase.BETTING:
            return
        deal = hand.board.deal
        if deal is None or not hand.before_action_on(deal):
            return
        if not deal.extra:
            if event.uid in deal.board and event.uid not in deal.lifted:
                deal.lifted.append(event.uid)
            return
        after = NEXT_STREET.get(deal.street)
        if after is None:
            return
        expected, credited = hand.board.burns.due.get(after, (1, []))
        set_aside = [uid for uid in credited if uid in deal.extra]
        if event.uid in deal.board and set_aside:
            # The dealer picked this card for the next burn: the one set aside before plays.
            back_on_board = set_aside[-1]
            deal.board[deal.board.index(event.uid)] = back_on_board
            hand.board.cards[hand.board.cards.index(event.uid)] = back_on_board
            deal.extra[deal.extra.index(back_on_board)] = event.uid
            hand.where[back_on_board] = Where.BOARD
            hand.where[event.uid] = Where.VOID
            hand.board.burns.due[after] = (expected, [event.uid if uid == back_on_board else uid for uid in credited])

    def _seat_read(self, hand: Hand, seat: int, uid: str, where: Where | None) -> None:
        if hand.phase not in (Phase.DEALING, Phase.BETTING) or hand.street is not Street.PREFLOP:
            return
        if seat not in hand.seats:
            self._misdeal_or_late(hand, RuleKey.EMPTY_SEAT_DEALT, Cause.WRONG_COUNT, seat=seat, uid=uid)
            return
        if where != Where.HOLE:
            return
        owner = hand.dealt.seat_of(uid)
        if owner is None or owner == seat:
            return
        if hand.dealt.slot_of(uid) == 0:
            self._misdeal_or_late(hand, RuleKey.FIRST_CARD_WRONG_SEAT, Cause.OUT_OF_SEQUENCE, seat=seat, uid=uid,
                                  fill={"expected": owner})
        else:
            self._misdeal_or_late(hand, RuleKey.OUT_OF_SEQUENCE, Cause.OUT_OF_SEQUENCE, seat=seat, uid=uid,
                                  fill={"detail": f"the card for seat {owner} went to seat {seat}"})

    # ----------------------------------------------------------------------------------------
    # Showdown

    def _showdown(self, hand: Hand) -> None:
        hand.phase = Phase.SHOWDOWN
        board = [self._cards[uid].card for uid in hand.board.cards]
        hands: dict[int, Sequence[str]] = {
            seat: [self._cards[uid].card for uid in hand.dealt.hole[seat]]
            for seat in hand.live()
            if len(hand.dealt.hole[seat]) == 2 and seat not in hand.dealt.jokers
        }
        if len(board) != 5 or len(hands) < 2:
            return
        if any(is_unknown(card) for card in [*board, *(c for cards in hands.values() for c in cards)]):
            return  # a card the table could not read is in play: the dealer reads the hands
        tied, name = read_winners(hands, board)
        who = " and ".join(f"seat {s}" for s in tied)
        summary = f"{who} {'split the pot' if len(tied) > 1 else 'wins'} with {name}"
        rule = self._rule(RuleKey.SHOWDOWN)

        def best(seats: Sequence[int]) -> Sequence[int]:
            readable = {s: hands[s] for s in seats if s in hands}
            return read_winners(readable, board)[0] if readable else ()  # none to read: the pot is split

        pots = self._award(hand, best)
        remedy = rule.text(summary=summary) + (f" {self._pots_text(pots)}" if pots else "")
        hand.showdown = self._emit(Ruling(t=self._t, ruling=RulingKind.SHOWDOWN, rule=rule.cite,
                                          remedy=remedy, winners=tied, hand=name, pots=pots))
        self._unconfirmed.remove(hand.showdown)

    # ----------------------------------------------------------------------------------------
    # State out

    def snapshot(self) -> TableSnapshot:
        """An immutable view of the table now, for the display and the daemon."""
        hand = self._hand
        profile = self._profile
        positions = hand.positions if hand is not None else None
        seats: list[SeatView] = []
        for number in sorted(self._occupied | (set(positions.deal_order) if positions else set())):
            state = PlayerState.WAITING
            cards: tuple[str, ...] = ()
            if hand is not None and number in hand.seats and hand.phase is not Phase.IDLE:
                cards = tuple(self._cards[uid].card for uid in hand.dealt.hole[number])
                if number in hand.betting.dead:
                    state = PlayerState.DEAD
                elif number in hand.betting.folded:
                    state = PlayerState.FOLDED
                elif number in hand.betting.allin:
                    state = PlayerState.ALLIN
                else:
                    state = PlayerState.ACTIVE
            elif number not in self._occupied:
                state = PlayerState.EMPTY
            seats.append(SeatView(
                seat=number, state=state, cards=cards,
                is_button=positions is not None and positions.button == number,
                is_small_blind=positions is not None and positions.small_blind == number,
                is_big_blind=positions is not None and positions.big_blind == number,
                to_act=hand is not None and hand.betting.to_act == number,
                **self._seat_chips(number),
            ))
        phase = hand.phase if hand is not None else Phase.IDLE
        return TableSnapshot(
            t=self._t,
            profile=profile.name if profile else "",
            profile_title=profile.title if profile else "",
            hand_number=self._hand_number,
            phase=phase,
            street=hand.street if hand is not None and phase is not Phase.IDLE else None,
            seats=tuple(seats),
            button=positions.button if positions else self._button_seat,
            small_blind=positions.small_blind if positions else None,
            big_blind=positions.big_blind if positions else None,
            to_act=hand.betting.to_act if hand is not None else None,
            board=tuple(self._cards[uid].card for uid in hand.board.cards) if hand is not None else (),
            burns=tuple(self._cards[uid].card for uid in hand.board.burns.out) if hand is not None else (),
            in_play=self._in_play,
            unconfirmed=tuple(self._unconfirmed),
            hand_rulings=tuple(hand.rulings) if hand is not None else (),
            showdown=hand.showdown if hand is not None else None,
            clock=hand.clock if hand is not None else None,
            notices=tuple(self._notices),
            chips=self._chips_view(hand),
        )

    def _seat_chips(self, seat: int) -> dict[str, Any]:
        chips = self._chips.hand
        if chips is not None and seat in chips.behind:
            return {"stack": chips.behind[seat], "bet": chips.street_bet[seat], "last_action": chips.last.get(seat)}
        if seat in self._chips.stacks:
            return {"stack": self._chips.stacks[seat]}
        return {}

    def _chips_view(self, hand: Hand | None) -> ChipsView | None:
        chips = self._chips.hand
        if chips is None or hand is None:
            return None
        actor = hand.betting.to_act
        live = actor is not None and actor in chips.behind
        return ChipsView(
            pot=chips.pot_total(), pots=chips.awarded or tuple(chips.pots()), level=chips.level.label(),
            to_call=chips.to_call(actor) if live and actor is not None else 0,
            min_raise_to=min(chips.min_to(), chips.street_bet[actor] + chips.behind[actor])
            if live and actor is not None else None,
            may_raise=chips.may_raise(actor) if live and actor is not None else False,
            raised_by=chips.raised_by,
        )
