"""The table's flow: the setup, seats taken and left, the dealer's table buttons, and hands started and ended.

A handler: route.py calls it; it changes the hand's phase through transitions.py.
"""

from __future__ import annotations

from firmware_py.core import transitions
from firmware_py.core.chips import NO_LIMIT, Limits, denominations_problem
from firmware_py.core.decks import Deck
from firmware_py.core.events import Name, Seat, SeatStatus, Setup
from firmware_py.core.game import GAMES, Structure
from firmware_py.core.hand import CardInfo, Dealt, Hand
from firmware_py.core.phase import BETTING, BOARD, DEALING, IDLE, IN_PLAY, MISDEALT, SHOWDOWN
from firmware_py.core.rulings import PREFLOP, NoticeKind, Ruling, RulingKind
from firmware_py.core.seating import Positions, between, first_positions, next_positions
from firmware_py.core.state import TableState
from firmware_py.core.vocab import Cause, RuleKey


def setup(table: TableState, event: Setup) -> None:
    if event.profile not in table.profiles:
        names = ", ".join(sorted(table.profiles))
        raise ValueError(f"unknown profile {event.profile!r}: the profiles are {names}")
    if event.button not in event.seats:
        raise ValueError(f"the button seat {event.button} is not among the seats {list(event.seats)}")
    profile = table.profiles[event.profile]
    game = GAMES.get(event.game)
    if game is None or game.name not in profile.games:
        raise ValueError(f"the game {event.game!r} is not one the {profile.name} profile deals: "
                         f"its games are {', '.join(profile.games)}")
    problem = denominations_problem(event.denominations)
    if problem:
        raise ValueError(f"denominations {list(event.denominations)}: {problem}")
    table.profile = profile
    table.chips.denominations = tuple(sorted(event.denominations))
    odd = table.chips.not_in_chips((f"seat {seat}'s", chips) for seat, chips in sorted(table.chips.stacks.items()))
    if odd:
        table.notice(NoticeKind.IGNORED, f"setup: {', '.join(odd)}: not made of the chips in play (the smallest is "
                     f"{table.chips.unit:,}); correct the stacks")
    table.game = game  # from the next hand: one being dealt goes on as the game it began
    table.cards = {}
    decks: dict[str, Deck] = {deck.name: deck for deck in event.decks}
    for deck in event.decks:
        for uid, card in deck.cards.items():
            table.cards.setdefault(uid, CardInfo(card=card, deck=deck.name, back=deck.back))
    table.in_play = event.in_play
    table.back = decks[event.in_play].back
    table.occupied = set(event.seats)
    hand = table.hand
    if hand is not None and hand.phase in IN_PLAY:
        if event.button != hand.positions.button:
            button_out_of_position(table, hand, event.button)
        return
    table.button_seat = event.button
    table.previous = None
    table.redeal = None


def button_out_of_position(table: TableState, hand: Hand, button: int) -> None:
    """A setup during the hand moved the button: a misdeal while the window is open, else the profile's remedy."""
    corrected = first_positions(button, table.occupied)
    rule = table.rule(RuleKey.BUTTON_OUT_OF_POSITION)
    if hand.betting.window_open:
        transitions.misdeal(table, hand, RuleKey.BUTTON_OUT_OF_POSITION, Cause.BUTTON_OUT_OF_POSITION, seat=button)
        table.redeal = corrected
        return
    table.emit(Ruling(t=table.t, ruling=RulingKind.MISDEAL_TOO_LATE, cause=Cause.BUTTON_OUT_OF_POSITION,
                      seat=button, rule=f"{rule.source}: {rule.word('too_late_rule')}",
                      remedy=rule.word("too_late_remedy")))
    table.corrected = corrected  # the next hand moves on from the right positions


def seat_change(table: TableState, event: Seat) -> None:
    hand = table.hand
    if event.status is SeatStatus.IN:
        if event.seat not in table.occupied:
            table.occupied.add(event.seat)
            (table.moved if event.moved else table.joined).add(event.seat)
        return
    table.occupied.discard(event.seat)
    table.joined.discard(event.seat)
    table.moved.discard(event.seat)
    in_hand = hand is not None and hand.phase in IN_PLAY and event.seat in hand.seats
    if hand is not None and in_hand and event.seat not in hand.betting.folded:
        hand.betting.folded.add(event.seat)
        table.notice(NoticeKind.IGNORED, f"seat {event.seat} left during the hand: folded")
        transitions.after_action(table, hand)


def name(table: TableState, event: Name) -> None:
    """A player's name for the seat (an empty one: the seat's default again); in and between hands alike."""
    if event.name:
        table.names[event.seat] = event.name
        table.notice(NoticeKind.CORRECTED, f"name changed: seat {event.seat} is {event.name}")
    elif table.names.pop(event.seat, None) is not None:
        table.notice(NoticeKind.CORRECTED, f"name changed: seat {event.seat} has its default name again")


def confirm(table: TableState, number: int | None = None) -> None:
    """The dealer confirms the oldest ruling shown; a confirm naming a ruling (`number`) confirms that one only
    if it is the one shown: a second confirm of the same ruling (two tablets) is refused, never taken for the
    next ruling."""
    oldest = table.oldest_open
    if number is not None and number != oldest:
        if oldest is None or number < oldest:
            table.refuse(f"confirm: ruling {number} was confirmed already" + (
                f" (ruling {oldest} is shown): not taken" if oldest is not None else ": not taken"))
        else:
            table.refuse(f"confirm: ruling {number} is not the one shown (ruling {oldest} is): not taken")
        return
    if table.unconfirmed:
        done = table.unconfirmed.pop(0)
        table.notice(NoticeKind.CONFIRMED, f"{done.ruling} ({done.rule})")


def round_done(table: TableState, hand: Hand) -> None:
    """The dealer says the betting round is complete."""
    if hand.phase is BETTING:
        transitions.close_round(table, hand)
    elif hand.phase is BOARD and hand.board.deal is not None and not hand.board.deal.shoe:
        pass  # the presses already showed the round complete
    else:
        table.refuse("round_done pressed while no betting round is open")


def misdeal_called(table: TableState, hand: Hand) -> None:
    """The dealer calls a misdeal: one while the window is open, the profile's remedy once it closed."""
    if hand.phase is SHOWDOWN:
        table.refuse("misdeal pressed after the hand reached showdown")
    elif hand.betting.window_open:
        transitions.misdeal(table, hand, RuleKey.DEALER_CALLED, Cause.DEALER_CALLED)
    else:
        transitions.too_late(table, hand, Cause.DEALER_CALLED, seat=None)


def new_hand(table: TableState) -> None:
    assert table.profile is not None
    table.notices = []  # what the screens say is of this hand (and of this press): the last hand's is gone
    hand = table.hand
    if hand is not None and hand.phase in (BETTING, BOARD, SHOWDOWN):
        table.notice(NoticeKind.IGNORED, "new_hand pressed before hand_end: the last hand is ended")
        hand_end(table)
    elif hand is not None and hand.phase is DEALING:
        table.redeal = hand.positions
    settled = table.chips.finish()  # the last hand's stacks first: who has chips for this one
    broke = table.chips.broke(table.occupied)
    if broke:
        table.notice(NoticeKind.IGNORED, f"seat {', '.join(map(str, broke))} has no chips: not dealt in "
                     "(give the seat a stack, or take it out)")
    seated = table.occupied - set(broke)  # a seat with no chips is never dealt in
    if table.redeal is not None:
        positions = table.redeal
        present = [s for s in positions.deal_order if s in seated]
        if len(present) != len(positions.deal_order):
            positions = first_positions(positions.button if positions.button in table.occupied
                                        else present[-1], set(present))
    elif table.previous is None:
        if table.button_seat is None or table.button_seat not in seated:
            table.button_seat = min(seated) if seated else None
        if table.button_seat is None or len(seated) < 2:
            table.refuse("new_hand: fewer than two players seated with chips")
            return
        positions = first_positions(table.button_seat, seated)
    else:
        if len(seated) < 2:
            table.refuse("new_hand: fewer than two players seated with chips")
            return
        positions = next_positions(table.previous, seated, table.profile.blinds)
    positions = _seat_new_players(table, positions)
    if len(positions.deal_order) > table.game.max_players:
        table.refuse(f"new_hand: {table.game.title} deals at most {table.game.max_players} "
                     f"players from one deck ({table.game.hole_text()} each, the board and its burns); "
                     f"{len(positions.deal_order)} are seated: take seats out, or set up another game")
        return
    table.redeal = None
    table.corrections = []
    table.hand_number += 1
    slots: list[str | None] = [None] * (table.game.hole_cards * len(positions.deal_order))
    # (number, positions, game, phase, street, where, identity, dealt): by position, see events.py
    table.hand = Hand(table.hand_number, positions, table.game, DEALING, PREFLOP, None, None,
                      Dealt(slots, 0, {seat: [] for seat in positions.deal_order}))
    table.unconfirmed = []
    leaves_a_chip = table.rule(RuleKey.SHORT_BLIND).procedure == "ante_leaves_a_chip"  # RPL Tournaments 19
    message = table.chips.start_hand(positions.deal_order, (positions.small_blind, positions.big_blind),
                                     table.rule(RuleKey.MIN_RAISE).procedure, limits=_limits(table),
                                     ante_leaves_a_chip=leaves_a_chip)
    for said in (settled, message):
        if said:
            table.notice(NoticeKind.IGNORED, said)
    if table.chips.hand is not None:  # a blind or ante that took a whole stack: all in from the start
        behind = table.chips.hand.behind
        if 0 in behind.values():  # (rare)
            table.hand.betting.allin.update(s for s, left in behind.items() if left == 0)
        for seat, posted in table.chips.hand.short.items():  # (WFP Tournament 15, UPT 19: action on what is left)
            table.ruling(RulingKind.SHORT_BLIND, RuleKey.SHORT_BLIND, seat=seat,
                         fill={"detail": posted, "amount": f"{table.chips.hand.committed[seat]:,}"})
        for seat in table.chips.hand.eliminated:  # (RPL Tournaments 19: no chip left after the ante)
            table.hand.betting.dead.add(seat)
            table.ruling(RulingKind.SHORT_BLIND, RuleKey.SHORT_BLIND, cause=Cause.NO_CHIP_AFTER_ANTE, seat=seat,
                         fill={"detail": "not enough to post the ante and keep a chip: eliminated",
                               "amount": f"{table.chips.hand.committed[seat]:,}"})


def _limits(table: TableState) -> Limits:
    """The game's betting structure for the chips: fixed limit's sizes in big blinds and the house's raise cap."""
    game = table.game
    if game.betting is Structure.NO_LIMIT:
        return NO_LIMIT
    cap = table.rule(RuleKey.LIMIT_RAISES)
    return Limits(structure=game.betting, sizes=game.limit_bets, raise_cap=cap.number("raises"),
                  cap_heads_up=cap.word("heads_up") == "capped")


def _seat_new_players(table: TableState, positions: Positions) -> Positions:
    """New players, and players moved here from another table, wait where the profile says they may
    not be dealt in (new: between the button and the big blind, Rules for Using Blinds 4; moved: by
    `[blinds] moved_player_waits`); heads-up, everyone is dealt in."""
    assert table.profile is not None
    blinds = table.profile.blinds
    if positions.heads_up:
        table.joined.clear()
        table.moved.clear()
        return positions
    if not table.joined and not table.moved:  # (most hands: nobody new at the table)
        return positions
    button, small, big = positions.button, positions.small_blind, positions.big_blind

    def new_waits(seat: int) -> bool:
        return not blinds.new_player_between_button_and_blinds and between(seat, button, big)

    def moved_waits(seat: int) -> bool:
        rule = blinds.moved_player_waits
        if rule == "as_new_player":
            return new_waits(seat)
        if rule == "small_blind_or_button":
            return seat in (small, button)
        if rule == "between_button_and_small_blind":
            return small is not None and between(seat, button, small)
        return False  # never

    table.joined = {s for s in table.joined if new_waits(s)}
    table.moved = {s for s in table.moved if moved_waits(s)}
    waiting = table.joined | table.moved
    if not waiting:
        return positions
    order = tuple(s for s in positions.deal_order if s not in waiting)
    return Positions(button=button, small_blind=small if small not in waiting else None, big_blind=big,
                     deal_order=order)


def hand_end(table: TableState) -> None:
    hand = table.hand
    if hand is None:
        return
    if hand.phase in (MISDEALT, DEALING):
        table.redeal = table.redeal or hand.positions
    else:
        table.previous = table.corrected or hand.positions
        table.corrected = None
    hand.phase = IDLE
    hand.betting.to_act = None
    hand.clock = None
