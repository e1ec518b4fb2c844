"""Betting rounds and chips: actions, the round's close and the next street, wagers, pots and the showdown."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_py.core import misdeals, shoe, streets
from firmware_py.core.board import NEXT_STREET, StreetDeal
from firmware_py.core.cards import is_unknown
from firmware_py.core.chips import Pot, Problem, Stakes, Wager
from firmware_py.core.evaluator import best_of, describe, hand_ranks
from firmware_py.core.events import ButtonName, Level, Stacks
from firmware_py.core.hand import Declared, Hand, Taken
from firmware_py.core.rulings import NoticeKind, Ruling, RulingKind, Street
from firmware_py.core.snapshot import IN_PLAY, Phase
from firmware_py.core.state import TableState
from firmware_py.core.vocab import Cause, RuleKey

AGGRESSIVE = frozenset({ButtonName.BET, ButtonName.RAISE, ButtonName.ALLIN})


def start_round(table: TableState, hand: Hand, street: Street) -> None:
    hand.phase = Phase.BETTING
    hand.street = street
    hand.betting.acted = set()
    hand.betting.round_actions = 0
    hand.betting.round_closed = False
    hand.betting.declared = {}
    hand.betting.no_raise = set()
    hand.betting.round_start = len(hand.betting.taken)
    hand.board.loose = []
    hand.betting.to_act = hand.first_to_act()
    if street is not Street.PREFLOP:
        hand.betting.window_open = False
    if street is not Street.PREFLOP and len(hand.can_act()) <= 1:
        hand.betting.round_closed = True  # no betting possible: everyone else is all in
        hand.betting.to_act = None
        if street is Street.RIVER and len(hand.live()) > 1:
            close_round(table, hand)  # all in and the board complete: the hands are read now


def action(table: TableState, hand: Hand, name: ButtonName, seat: int | None, amount: int | None = None) -> None:
    phase = hand.phase
    if phase is not Phase.BETTING:  # (one test for the common press: see IN_PLAY in snapshot.py)
        if phase is Phase.DEALING and not shoe.deal_interrupted(table, hand):
            return
        if phase is Phase.BOARD:
            table.notice(NoticeKind.IGNORED, f"{name} pressed while the {hand.street} was still being dealt")
            deal = hand.board.deal
            if deal is not None:
                streets.complete_street(table, hand, deal)
        if hand.phase is not Phase.BETTING:
            table.notice(NoticeKind.IGNORED, f"{name} pressed with no betting round open")
            return
    betting = hand.betting
    actor = seat if seat is not None else betting.to_act
    if actor is None or actor not in hand.positions.deal_order or actor in betting.folded or actor in betting.dead:
        table.notice(NoticeKind.IGNORED, f"{name}: seat {actor} cannot act now")
        return
    if actor in hand.dealt.jokers:
        table.ruling(RulingKind.DEAD_HAND, RuleKey.JOKER_ACTED, cause=Cause.JOKER, seat=actor,
                     uid=hand.dealt.jokers[actor])
        betting.dead.add(actor)
        after_action(table, hand)
        return
    if betting.to_act is not None and actor != betting.to_act:
        _out_of_turn(table, hand, actor, name, amount)
        return
    if _take(table, hand, actor, name, amount):
        _declared_turn(table, hand)


def _take(table: TableState, hand: Hand, actor: int, name: ButtonName, amount: int | None) -> bool:
    """The seat to act acts: its chips, the turn, the round's close. False when the press is not taken."""
    betting = hand.betting
    if actor in betting.no_raise and _raises(table, actor, name):
        rule = table.rule(RuleKey.OUT_OF_TURN)
        table.notice(NoticeKind.IGNORED, f"{name}: seat {actor} acted out of turn and may not bet or raise now "
                     f"({rule.cite}); press not taken, press call, check or fold")
        return False
    wager = _wager(table, actor, name, amount)
    if wager is not None and not wager.taken:
        return False
    betting.no_raise.discard(actor)
    if hand.clock is not None and hand.clock.seat == actor:
        hand.clock = None
    if name is ButtonName.FOLD:
        betting.folded.add(actor)
    elif wager.raises if wager is not None else name in AGGRESSIVE:
        betting.acted = set()
    if (wager.allin if wager is not None else name is ButtonName.ALLIN):
        betting.allin.add(actor)
    betting.acted.add(actor)
    betting.round_actions += 1
    betting.taken.append(Taken(street=hand.street, seat=actor, name=name, word=_word(name, wager)))
    if hand.street is Street.PREFLOP:
        betting.preflop_actions += 1
        assert table.profile is not None
        hand.count_for_window(actor, name, table.profile.window)
    complete = hand.round_complete()  # asked once: nothing below changes it until the round closes
    betting.to_act = None if complete else hand.next_waiting(actor)
    if not _uncontested(table, hand) and complete:
        close_round(table, hand)  # everyone has acted since the last bet: the round is done
    return True


def _word(name: ButtonName, wager: Wager | None) -> str:
    """What an action was, for the out-of-turn rules: fold, check, call, bet or raise."""
    if wager is None:
        return "raise" if name is ButtonName.ALLIN else str(name)
    if wager.name == "allin":
        return "raise" if wager.raises else ("call" if wager.put else "check")
    return wager.name


def _raises(table: TableState, seat: int, name: ButtonName) -> bool:
    if name in (ButtonName.BET, ButtonName.RAISE):
        return True
    chips = table.chips.hand
    if name is not ButtonName.ALLIN or chips is None or seat not in chips.behind:
        return name is ButtonName.ALLIN
    return chips.street_bet[seat] + chips.behind[seat] > chips.current


def _out_of_turn(table: TableState, hand: Hand, actor: int, name: ButtonName, amount: int | None) -> None:
    """A press for a seat the action has not reached: a ruling, and the action held for the seat's turn."""
    betting = hand.betting
    waiting = betting.to_act
    if actor in betting.allin:
        table.notice(NoticeKind.IGNORED, f"{name}: seat {actor} is all in; the action is on seat {waiting}")
        return
    if actor in betting.acted:
        table.notice(NoticeKind.IGNORED, f"{name}: seat {actor} has acted; the action is on seat {waiting}")
        return
    if actor in betting.declared:
        table.notice(NoticeKind.IGNORED, f"{name}: seat {actor} already acted out of turn "
                     f"({betting.declared[actor].label()}); press not taken")
        return
    declared = Declared(seat=actor, name=name, amount=amount, since=len(betting.taken))
    betting.declared[actor] = declared
    rule = table.rule(RuleKey.OUT_OF_TURN)
    table.emit(Ruling(t=table.t, ruling=RulingKind.ACTION_OUT_OF_TURN, cause=Cause.OUT_OF_TURN, seat=actor,
                      amount=amount, rule=rule.cite,
                      remedy=rule.text(seat=actor, waiting=waiting, declared=declared.what())))


def _declared_turn(table: TableState, hand: Hand) -> None:
    """The turn has reached seats that acted out of turn: each action stands, or the action changed."""
    betting = hand.betting
    rule = table.rule(RuleKey.OUT_OF_TURN)
    while hand.phase is Phase.BETTING and betting.to_act is not None and betting.to_act in betting.declared:
        seat = betting.to_act
        declared = betting.declared.pop(seat)
        changed_by = rule.word("changed_by").split()
        stands = str(declared.name) in rule.word("always_binding").split()
        if not stands and any(t.word in changed_by for t in betting.taken[declared.since:] if t.seat != seat):
            restricted = str(declared.name) in rule.word("no_raise_after").split()
            if restricted:
                betting.no_raise.add(seat)
            table.notice(NoticeKind.IGNORED, f"seat {seat}'s {declared.label()} is not binding: the action changed "
                         f"({rule.cite}); seat {seat} acts now" + (", and may not bet or raise" if restricted else ""))
            return
        amount = declared.amount
        if declared.name in (ButtonName.BET, ButtonName.RAISE) and rule.word("bet_posts") == "minimum":
            amount = None  # the house posts the minimum bet or raise, whatever was said
        chips = table.chips.hand
        if not _take(table, hand, seat, declared.name, amount):
            table.notice(NoticeKind.IGNORED, f"seat {seat}'s {declared.label()} cannot be taken as it stands: "
                         f"seat {seat} acts now ({rule.cite})")
            return
        taken = chips.last.get(seat) if chips is not None else None
        table.notice(NoticeKind.CONFIRMED, f"seat {seat}'s {declared.label()} stands ({rule.cite})"
                     + (f": {taken}" if taken else ""))


def after_action(table: TableState, hand: Hand) -> None:
    if _uncontested(table, hand):
        return
    if hand.phase is Phase.BETTING and hand.betting.round_actions and hand.round_complete():
        close_round(table, hand)  # everyone has acted since the last bet: the round is done


def _uncontested(table: TableState, hand: Hand) -> bool:
    if hand.phase in IN_PLAY and len(hand.live()) <= 1:
        hand.phase = Phase.SHOWDOWN  # the pot goes to the last hand; there is no showdown to read
        hand.betting.to_act = None
        hand.clock = None
        _award(table, hand, None)
    return hand.phase is Phase.SHOWDOWN


def close_round(table: TableState, hand: Hand) -> None:
    hand.betting.round_closed = True
    if table.chips.hand is not None:
        table.chips.hand.end_round()
    hand.board.last_drawn = None  # a card reshuffled into the stub may be the next one out
    hand.betting.to_act = None
    hand.clock = None
    if hand.street is Street.RIVER:
        _showdown(table, hand)
        return
    if hand.street is Street.PREFLOP:
        hand.betting.window_open = False
        _owed_at_flop(table, hand)
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


def _owed_at_flop(table: TableState, hand: Hand) -> None:
    """Seats still short a card when the flop comes: their hands are dead (or a misdeal)."""
    for seat, _replaces in list(hand.dealt.owed):
        if hand.betting.window_open:
            misdeals.misdeal(table, hand, RuleKey.WRONG_COUNT, Cause.WRONG_COUNT, seat=seat,
                             fill={"detail": f"seat {seat} has the wrong number of cards"})
            return
        table.ruling(RulingKind.DEAD_HAND, RuleKey.WRONG_COUNT_DEAD, cause=Cause.WRONG_COUNT, seat=seat)
        hand.betting.dead.add(seat)
    hand.dealt.owed = []
    _uncontested(table, hand)


def chip_event(table: TableState, event: Stacks | Level) -> None:
    if isinstance(event, Level):
        table.chips.level = Stakes(small=event.small, big=event.big, ante=event.ante, bb_ante=event.bb_ante)
        return
    before = {seat: table.chips.stack_now(seat) for seat, _chips in event.stacks}
    message = table.chips.set_stacks(event.stacks)
    if message:
        table.notice(NoticeKind.IGNORED, message)
    if event.why is not None:  # an operator's change: said on the venue screen, as the journal has it
        when = " from the next hand" if message else ""
        if event.why == "moved":  # the tournament director's move: the venue screen calls the player to the seat
            seats = ", ".join(f"seat {seat} ({chips:,})" for seat, chips in event.stacks)
            table.notice(NoticeKind.CORRECTED, f"moved here from another table: {seats}{when}")
            return
        changes = ", ".join(f"seat {seat} {before[seat] or 0:,} to {chips:,}" for seat, chips in event.stacks)
        table.notice(NoticeKind.CORRECTED, f"{event.why.replace('_', '-')}: {changes}{when}")


def _wager(table: TableState, seat: int, name: ButtonName, amount: int | None) -> Wager | None:
    """The action in chips; an illegal amount gets a ruling (brought up) or a notice (not taken)."""
    chips = table.chips.hand
    if chips is None or seat not in chips.behind:
        return None
    opening = chips.current == 0
    wager = chips.act(seat, str(name), amount)
    if wager.problem is Problem.UNDER_MINIMUM:
        key, cause = ((RuleKey.MIN_BET, Cause.UNDER_MIN_BET) if opening
                      else (RuleKey.MIN_RAISE, Cause.UNDER_MIN_RAISE))
        table.emit(Ruling(t=table.t, ruling=RulingKind.BET_TOO_SMALL, cause=cause, seat=seat,
                          amount=wager.keyed, rule=table.rule(key).cite,
                          remedy=table.rule(key).text(seat=seat, amount=f"{wager.keyed:,}",
                                                      minimum=f"{wager.to:,}")))
    elif wager.problem is Problem.NOT_REOPENED:
        rule = table.rule(RuleKey.RAISE_NOT_REOPENED)
        table.emit(Ruling(t=table.t, ruling=RulingKind.RAISE_NOT_ALLOWED, cause=Cause.NOT_REOPENED, seat=seat,
                          amount=wager.keyed, rule=rule.cite,
                          remedy=rule.text(seat=seat, minimum=f"{wager.minimum or 0:,}")))
    elif wager.problem is Problem.OVER_STACK:
        table.notice(NoticeKind.IGNORED, f"{name} {wager.keyed:,}: seat {seat} has only {wager.minimum:,} "
                     "in all; press not taken, key the amount again (or allin)")
    elif wager.problem is Problem.NOT_ABOVE_BET:
        table.notice(NoticeKind.IGNORED, f"{name} {wager.keyed:,} is not above the bet of {wager.minimum:,}: "
                     "press not taken; press call, or key a larger amount")
    elif wager.problem is Problem.CHECK_FACING_BET:
        table.notice(NoticeKind.IGNORED, f"check: seat {seat} faces a bet of {wager.minimum:,}; "
                     "press not taken, press call or fold")
    return wager


def _award(table: TableState, hand: Hand,
           best: Callable[[Sequence[int]], Sequence[int]] | None) -> tuple[Pot, ...] | None:
    chips = table.chips.hand
    if chips is None or chips.settled:
        return None
    for seat in (*hand.betting.folded, *hand.betting.dead):
        chips.fold_out(seat)

    def read(seats: Sequence[int]) -> Sequence[int]:
        won = best(seats) if best is not None else ()
        return won or seats  # no hand to read (jokers, wrong counts): the pot is split

    return chips.award(read)


def _pots_text(table: TableState, pots: Sequence[Pot]) -> str:
    contested = [pot for pot in pots if len(pot.seats) > 1]
    names = ["main pot", *(f"side pot {n}" for n in range(1, len(contested)))]
    parts = [f"{name} {pot.amount:,} to " + " and ".join(f"seat {s} ({c:,})" for s, c in pot.shares)
             for name, pot in zip(names, contested, strict=True)]
    parts += [f"{pot.amount:,} not called goes back to seat {pot.seats[0]}" for pot in pots if len(pot.seats) == 1]
    text = "Pots: " + "; ".join(parts) + "."
    if len(contested) > 1:
        text += f" Each pot is split separately ({table.rule(RuleKey.SIDE_POTS).cite})."
    odd = [seat for pot in pots for seat in pot.odd_chips]
    if odd:
        who = ", ".join(f"seat {s}" for s in odd)
        text += f" Odd chip to {who}, first clockwise from the button ({table.rule(RuleKey.ODD_CHIP).cite})."
    return text


def _showdown(table: TableState, hand: Hand) -> None:
    hand.phase = Phase.SHOWDOWN
    board = [table.cards[uid].card for uid in hand.board.cards]
    hands: dict[int, Sequence[str]] = {
        seat: [table.cards[uid].card for uid in hand.dealt.hole[seat]]
        for seat in hand.live()
        if len(hand.dealt.hole[seat]) == 2 and seat not in hand.dealt.jokers
    }
    if len(board) != 5 or len(hands) < 2:
        return
    if any(is_unknown(card) for card in [*board, *(c for cards in hands.values() for c in cards)]):
        return  # a card the table could not read is in play: the dealer reads the hands
    ranks = hand_ranks(hands, board)  # each hand read once, for the showdown and for every pot
    tied = best_of(ranks, ranks)
    name = describe([*hands[tied[0]], *board])
    who = " and ".join(f"seat {s}" for s in tied)
    summary = f"{who} {'split the pot' if len(tied) > 1 else 'wins'} with {name}"
    rule = table.rule(RuleKey.SHOWDOWN)

    def best(seats: Sequence[int]) -> Sequence[int]:
        return best_of(ranks, seats)  # none to read: (), and the pot is split

    pots = _award(table, hand, best)
    remedy = rule.text(summary=summary) + (f" {_pots_text(table, pots)}" if pots else "")
    hand.showdown = table.emit(Ruling(t=table.t, ruling=RulingKind.SHOWDOWN, rule=rule.cite,
                                      remedy=remedy, winners=tied, hand=name, pots=pots))
    table.unconfirmed.remove(hand.showdown)
