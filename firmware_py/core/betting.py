"""Betting rounds: a player's action in turn and out of turn, its chips (wagers, the minimum bet and raise), and
the table's chip events (stacks, blind levels).

A handler: route.py calls it; the round's close, the next street and the showdown are phase changes in
transitions.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from firmware_py.core import transitions
from firmware_py.core.chips import HandChips, Problem, Stakes, Wager
from firmware_py.core.events import ALLIN, AMOUNT_ACTIONS, BET, CHECK, FOLD, RAISE, ButtonName, Level, Stacks
from firmware_py.core.game import Structure
from firmware_py.core.hand import Declared, Hand, Taken
from firmware_py.core.phase import Phase
from firmware_py.core.profiles import Rule
from firmware_py.core.rulings import PREFLOP, NoticeKind, Ruling, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import Cause, RuleKey

BET_OR_RAISE: Final = (BET, RAISE)  # asked at every press: the enums' members as module constants (phase.py says why)
BET_OR_RAISE_WORDS: Final = ("bet", "raise")


def action(table: TableState, hand: Hand, name: ButtonName, seat: int | None, amount: int | None = None) -> None:
    """A player's press in an open betting round (route.py has dealt with a press at any other time)."""
    betting = hand.betting
    actor = seat if seat is not None else betting.to_act
    if actor is None or actor not in hand.positions.deal_order or actor in betting.folded or actor in betting.dead:
        table.refuse(f"{name}: seat {actor} cannot act now")
        return
    if actor in hand.dealt.jokers:
        table.ruling(RulingKind.DEAD_HAND, RuleKey.JOKER_ACTED, cause=Cause.JOKER, seat=actor,
                     uid=hand.dealt.jokers[actor])
        betting.dead.add(actor)
        transitions.after_action(table, hand)
        return
    if betting.to_act is not None and actor != betting.to_act:
        _out_of_turn(table, hand, actor, name, amount)
        return
    if _take(table, hand, actor, name, amount) and betting.declared:  # seats that acted out of turn: theirs now?
        _declared_turn(table, hand)
        table.out_refused = None  # the press was taken: a held action not taken is that seat's notice, not its answer


def _take(table: TableState, hand: Hand, actor: int, name: ButtonName, amount: int | None, *,
          in_turn: bool = True) -> bool:
    """The seat to act acts: its chips, the turn, the round's close. False when the press is not taken.

    `in_turn` False: an action the house takes out of turn at once (a bet posted, a fold mucked): its chips
    and its place among the round's actions, but the turn stays with the seat the action was on."""
    betting = hand.betting
    if name is FOLD and in_turn and hand.street is PREFLOP and actor == hand.positions.big_blind \
            and _big_blind_fold_returned(table, hand, actor):
        return False
    if betting.posted and name is CHECK and in_turn and actor not in betting.acted \
            and _check_facing_posted(table, hand, actor):
        return False
    if actor in betting.no_raise and _raises(table, actor, name):
        # The refusal the book names (a check out of turn may not bet or raise; a call may not become a raise).
        rule = table.rule(RuleKey.OUT_OF_TURN_NO_RAISE)
        did = betting.no_raise[actor]
        table.emit(Ruling(t=table.t, ruling=RulingKind.RAISE_NOT_ALLOWED, cause=Cause.OUT_OF_TURN, seat=actor,
                          amount=amount, rule=rule.cite,
                          remedy=rule.text(seat=actor, declared="checked" if did == "check" else "called")))
        return False
    # The action in chips (none when the table does not count them); an illegal amount gets a ruling
    # (brought up) or a notice (not taken) from `_wager_problem`.
    chips = table.chips.hand
    wager: Wager | None = None
    if chips is not None and actor in chips.behind:
        opening = chips.current == 0
        wager = chips.act(actor, name, amount)  # a ButtonName is its word: act compares it, keeps its own words
        if wager.problem is not None:  # (rare: the common case is taken as keyed)
            _wager_problem(table, chips, actor, name, wager, opening=opening)
            if not wager.taken:
                return False
    if betting.no_raise:
        betting.no_raise.pop(actor, None)
    if in_turn and hand.clock is not None and hand.clock.seat == actor:
        hand.clock = None
    word = _word(name, wager)
    if word == "fold":
        betting.folded.add(actor)
    elif wager.raises if wager is not None else name in AMOUNT_ACTIONS:
        betting.acted = set()
    if (wager.allin if wager is not None else name is ALLIN):
        betting.allin.add(actor)
    betting.acted.add(actor)
    betting.round_actions += 1
    betting.taken.append(Taken(hand.street, actor, name, word))  # (street, seat, name, word): see events.py
    if hand.street is PREFLOP:
        betting.preflop_actions += 1
        if in_turn and betting.window_open:  # (count_for_window's first test: the window closes early in the hand)
            assert table.profile is not None  # (the books count players who "have acted in turn")
            hand.count_for_window(actor, name, table.profile.window)
    if not in_turn:
        transitions.after_action(table, hand)  # a fold out of turn may leave one hand
        return True
    betting.to_act = hand.next_to_act(actor)
    # With a seat to act the hand is contested and the round open (next_to_act answers None otherwise).
    if betting.to_act is None and not transitions.uncontested(table, hand):
        transitions.close_round(table, hand)  # everyone has acted since the last bet: the round is done
    return True


def _check_facing_posted(table: TableState, hand: Hand, seat: int) -> bool:
    """A check by a seat facing a bet posted out of turn: refused, a ruling with the rule's cite (UPT's Out Of
    Turn Bet gives the skipped player three options: call, fold or raise)."""
    chips = table.chips.hand
    if chips is not None and seat in chips.behind and not chips.to_call(seat):
        return False
    rule = table.rule(RuleKey.OUT_OF_TURN_BET)
    bettor = max(hand.betting.posted)  # (one a round, in practice)
    table.emit(Ruling(t=table.t, ruling=RulingKind.ACTION_NOT_ALLOWED, cause=Cause.OUT_OF_TURN, seat=seat,
                      rule=rule.cite, remedy=rule.text_of("skipped_remedy", seat=seat, waiting=bettor)))
    return True


def _big_blind_fold_returned(table: TableState, hand: Hand, seat: int) -> bool:
    """The big blind folds in turn when it could check: a ruling, and the fold not taken, where the book gives
    the cards back (WFP dealers' Mucked Cards / Unintentional Folds); False where the fold is taken."""
    rule = table.rule(RuleKey.BIG_BLIND_FOLD)
    if rule.procedure != "returned":
        return False
    chips = table.chips.hand
    if chips is not None and seat in chips.behind:
        if chips.to_call(seat):
            return False
    elif any(t.word in BET_OR_RAISE_WORDS for t in hand.betting.taken[hand.betting.round_start:]):
        return False
    table.emit(Ruling(t=table.t, ruling=RulingKind.FOLD_RETURNED, seat=seat, rule=rule.cite,
                      remedy=rule.text(seat=seat)))
    return True


def _word(name: ButtonName, wager: Wager | None) -> str:
    """What an action was, for the out-of-turn rules: fold, check, call, bet or raise."""
    if wager is None:
        return "raise" if name is ALLIN else str(name)
    if wager.name == "allin":
        return "raise" if wager.raises else ("call" if wager.put else "check")
    return wager.name


def _raises(table: TableState, seat: int, name: ButtonName) -> bool:
    if name in BET_OR_RAISE:
        return True
    chips = table.chips.hand
    if name is not ALLIN or chips is None or seat not in chips.behind:
        return name is ALLIN
    return chips.street_bet[seat] + chips.behind[seat] > chips.current


def _out_of_turn(table: TableState, hand: Hand, actor: int, name: ButtonName, amount: int | None) -> None:
    """A press for a seat the action has not reached: a ruling, and the profile's procedure for what was done.

    A bet or raise (`[rules.out_of_turn_bet]`) is held for the seat's turn or posted at once; a fold
    (`[rules.out_of_turn_fold]`) held or mucked at once; anything else held (`[rules.out_of_turn]`)."""
    betting = hand.betting
    waiting = betting.to_act
    if actor in betting.allin:
        table.refuse(f"{name}: seat {actor} is all in; the action is on seat {waiting}")
        return
    if actor in betting.acted:
        table.refuse(f"{name}: seat {actor} has acted; the action is on seat {waiting}")
        return
    if actor in betting.declared:
        table.refuse(f"{name}: seat {actor} already acted out of turn "
                     f"({betting.declared[actor].label()}); press not taken")
        return
    declared = Declared(seat=actor, name=name, amount=amount, since=len(betting.taken))
    if name is FOLD:
        rule = table.rule(RuleKey.OUT_OF_TURN_FOLD)
        if rule.procedure == "mucked":
            _fold_out_of_turn(table, hand, actor, waiting, rule)
            return
    elif _raises(table, actor, name):
        rule = table.rule(RuleKey.OUT_OF_TURN_BET)
        if rule.procedure == "posted":
            _post_out_of_turn(table, hand, declared, waiting, rule)
            return
    else:
        rule = table.rule(RuleKey.OUT_OF_TURN)
    betting.declared[actor] = declared
    table.emit(Ruling(t=table.t, ruling=RulingKind.ACTION_OUT_OF_TURN, cause=Cause.OUT_OF_TURN, seat=actor,
                      amount=amount, rule=rule.cite,
                      remedy=rule.text(seat=actor, waiting=waiting, declared=declared.what())))


def _post_out_of_turn(table: TableState, hand: Hand, declared: Declared, waiting: int | None, rule: Rule) -> None:
    """A bet or raise out of turn that goes in at once (UPT's Out Of Turn Bet: the minimum; WFP dealers' Act in
    Turn: as made). The action moves back to the skipped seat, which faces it: call, fold or raise."""
    seat, name, amount = declared.seat, declared.name, declared.amount
    if rule.word("posts") == "minimum":
        name, amount = (RAISE if name is ALLIN else name), None  # the minimum bet or raise, whatever was said
    chips = table.chips.hand
    if not _take(table, hand, seat, name, amount, in_turn=False):
        table.notice(NoticeKind.IGNORED, f"seat {seat}'s {declared.label()} cannot be posted as it stands "
                     f"({rule.cite}); press not taken")
        return
    hand.betting.posted.add(seat)
    posted = chips.street_bet[seat] if chips is not None and seat in chips.street_bet else None
    table.emit(Ruling(t=table.t, ruling=RulingKind.ACTION_OUT_OF_TURN, cause=Cause.OUT_OF_TURN, seat=seat,
                      amount=posted if posted is not None else declared.amount, rule=rule.cite,
                      remedy=rule.text(seat=seat, waiting=waiting, declared=declared.what(),
                                       amount=f"{posted:,}" if posted is not None else "the minimum")))


def _fold_out_of_turn(table: TableState, hand: Hand, seat: int, waiting: int | None, rule: Rule) -> None:
    """A fold out of turn mucked at once (WFP dealers' Act in Turn); a blind's before anyone acted is returned."""
    positions, betting = hand.positions, hand.betting
    blind = seat in (positions.small_blind, positions.big_blind)
    if blind and hand.street is PREFLOP and betting.round_actions == 0 and rule.word("blinds") == "returned":
        table.emit(Ruling(t=table.t, ruling=RulingKind.ACTION_OUT_OF_TURN, cause=Cause.OUT_OF_TURN, seat=seat,
                          rule=rule.cite, remedy=rule.text_of("blinds_remedy", seat=seat, waiting=waiting)))
        return
    table.emit(Ruling(t=table.t, ruling=RulingKind.ACTION_OUT_OF_TURN, cause=Cause.OUT_OF_TURN, seat=seat,
                      rule=rule.cite, remedy=rule.text(seat=seat, waiting=waiting, declared="fold")))
    _take(table, hand, seat, FOLD, None, in_turn=False)


def _declared_turn(table: TableState, hand: Hand) -> None:
    """The turn has reached seats that acted out of turn: each action stands, or the action changed."""
    betting = hand.betting
    if not betting.declared:  # the common case: nobody acted out of turn
        return
    rule = table.rule(RuleKey.OUT_OF_TURN)
    while hand.phase is Phase.BETTING and betting.to_act is not None and betting.to_act in betting.declared:
        seat = betting.to_act
        declared = betting.declared.pop(seat)
        changed_by = rule.word("changed_by").split()
        if any(t.word in changed_by for t in betting.taken[declared.since:] if t.seat != seat):
            did = _word(declared.name, None)
            restricted = did in rule.word("no_raise_after").split()
            if restricted:
                betting.no_raise[seat] = did
            table.notice(NoticeKind.IGNORED, f"seat {seat}'s {declared.label()} is not binding: the action changed "
                         f"({rule.cite}); seat {seat} acts now" + (", and may not bet or raise" if restricted else ""))
            return
        amount = declared.amount
        if declared.name in BET_OR_RAISE and table.rule(RuleKey.OUT_OF_TURN_BET).word("posts") == "minimum":
            amount = None  # the house puts in the minimum bet or raise, whatever was said
        chips = table.chips.hand
        if not _take(table, hand, seat, declared.name, amount):
            table.notice(NoticeKind.IGNORED, f"seat {seat}'s {declared.label()} cannot be taken as it stands: "
                         f"seat {seat} acts now ({rule.cite})")
            return
        taken = chips.last.get(seat) if chips is not None else None
        table.notice(NoticeKind.CONFIRMED, f"seat {seat}'s {declared.label()} stands ({rule.cite})"
                     + (f": {taken}" if taken else ""))


def chip_event(table: TableState, event: Stacks | Level) -> None:
    if isinstance(event, Level):
        odd = table.chips.not_in_chips([("small blind", event.small), ("big blind", event.big), ("ante", event.ante),
                                        ("big-blind ante", event.bb_ante)])
        if odd:  # a blind or ante of a chip that does not exist: the level in force stays
            table.notice(NoticeKind.IGNORED, f"level: {', '.join(odd)} {'is' if len(odd) == 1 else 'are'} not made "
                         f"of the chips in play (the smallest is {table.chips.unit:,}): not taken")
            return
        table.chips.level = Stakes(small=event.small, big=event.big, ante=event.ante, bb_ante=event.bb_ante)
        return
    odd = table.chips.not_in_chips((f"seat {seat}'s", chips) for seat, chips in event.stacks)
    if odd:  # "a stack of 13 at 25/50 is a chip that does not exist": those seats keep what they had
        table.notice(NoticeKind.IGNORED, f"stacks: {', '.join(odd)} {'is' if len(odd) == 1 else 'are'} not made of "
                     f"the chips in play (the smallest is {table.chips.unit:,}): not taken")
        unit = table.chips.unit
        event = replace(event, stacks=tuple((seat, chips) for seat, chips in event.stacks if chips % unit == 0))
        if not event.stacks:
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


def _wager_problem(table: TableState, chips: HandChips, seat: int, name: ButtonName, wager: Wager, *,
                   opening: bool) -> None:
    """An amount `chips.act` corrected or refused: a ruling (brought up) or a notice (not taken). `opening`:
    no bet was made before it this round."""
    if wager.problem is Problem.UNDER_MINIMUM:
        key, cause = ((RuleKey.MIN_BET, Cause.UNDER_MIN_BET) if opening
                      else (RuleKey.MIN_RAISE, Cause.UNDER_MIN_RAISE))
        table.emit(Ruling(t=table.t, ruling=RulingKind.BET_TOO_SMALL, cause=cause, seat=seat,
                          amount=wager.keyed, rule=table.rule(key).cite,
                          remedy=table.rule(key).text(seat=seat, amount=f"{wager.keyed:,}",
                                                      minimum=f"{wager.to:,}")))
    elif wager.problem is Problem.NOT_REOPENED:
        rule = table.rule(RuleKey.LIMIT_ALLIN if chips.limits.structure is Structure.FIXED_LIMIT
                          else RuleKey.RAISE_NOT_REOPENED)
        table.emit(Ruling(t=table.t, ruling=RulingKind.RAISE_NOT_ALLOWED, cause=Cause.NOT_REOPENED, seat=seat,
                          amount=wager.keyed, rule=rule.cite,
                          remedy=rule.text(seat=seat, minimum=f"{wager.minimum or 0:,}")))
    elif wager.problem is Problem.OVER_LIMIT and chips.limits.structure is Structure.POT_LIMIT:
        rule = table.rule(RuleKey.POT_LIMIT)
        table.emit(Ruling(t=table.t, ruling=RulingKind.BET_TOO_LARGE, cause=Cause.OVER_POT_LIMIT, seat=seat,
                          amount=wager.keyed, rule=rule.cite,
                          remedy=rule.text(seat=seat, amount=f"{wager.keyed or 0:,}",
                                           maximum=f"{wager.minimum or 0:,}")))
    elif wager.problem is Problem.OVER_LIMIT:
        table.refuse(f"{name}: seat {seat}'s {wager.keyed or 0:,} is over the fixed limit: "
                     f"a raise is to {wager.minimum or 0:,}; press not taken, press raise")
    elif wager.problem is Problem.CAPPED:
        rule = table.rule(RuleKey.LIMIT_RAISES)
        table.emit(Ruling(t=table.t, ruling=RulingKind.RAISE_NOT_ALLOWED, cause=Cause.RAISES_CAPPED, seat=seat,
                          amount=wager.keyed, rule=rule.cite,
                          remedy=rule.text(seat=seat, maximum=rule.number("raises"))))
    elif wager.problem is Problem.FIXED_SIZE:
        table.notice(NoticeKind.CONFIRMED, f"{name} {wager.keyed or 0:,}: the game is fixed limit; "
                     f"seat {seat}'s {wager.name} is to {wager.to:,}")
    elif wager.problem is Problem.OVER_STACK:
        table.refuse(f"{name} {wager.keyed:,}: seat {seat} has only {wager.minimum:,} "
                     "in all; press not taken, key the amount again (or allin)")
    elif wager.problem is Problem.NOT_ABOVE_BET:
        table.refuse(f"{name} {wager.keyed:,} is not above the bet of {wager.minimum:,}: "
                     "press not taken; press call, or key a larger amount")
    elif wager.problem is Problem.NOT_IN_CHIPS:
        table.notice(NoticeKind.IGNORED, f"{name} {wager.keyed or 0:,}: no chips in play make it up (the smallest "
                     f"is {wager.minimum or 0:,}); press not taken, key the amount again")
    elif wager.problem is Problem.CHECK_FACING_BET:
        table.refuse(f"check: seat {seat} faces a bet of {wager.minimum:,}; "
                     "press not taken, press call or fold")
