"""The chip race at the table: a `race` event puts it in color-up mode; shoe and seat reads deal the race; the
core rules it by the profile (race.py holds the rule itself). flow.py and the engine call it between hands."""

from __future__ import annotations

from firmware_py.core.cards import is_joker, is_unknown
from firmware_py.core.events import MISDEAL, NEW_HAND, SHOE, Button, Race, Read
from firmware_py.core.race import RaceState, odd_chips, race_order, rule_race
from firmware_py.core.rulings import NoticeKind, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import Cause, RuleKey


def start(table: TableState, event: Race) -> None:
    """A `race` event between hands (flow.color_up): check it against the table and start dealing (or rule
    at once: no card needed)."""
    if table.race is not None and table.race.result is None:
        table.refuse(f"race: a race for the {table.race.chip:,} chips is being dealt: not taken")
        return
    if event.to <= event.chip or event.to % event.chip:
        table.refuse(f"race: the new chip ({event.to:,}) must be a multiple of the chip colored "
                     f"up ({event.chip:,}): not taken")
        return
    chips = table.chips
    if chips.denominations and event.chip != chips.unit:  # "The lowest denomination of chip in play will be removed"
        what = "not a chip in play" if event.chip not in chips.denominations else "not the lowest in play"
        table.notice(NoticeKind.IGNORED, f"race: the {event.chip:,} chip is {what} (the chips in play are "
                     f"{', '.join(f'{chip:,}' for chip in chips.denominations)}; the lowest is removed, "
                     f"{table.rule(RuleKey.CHIP_RACE).cite}): not taken")
        return
    counted = {seat: chips.stack_now(seat) for seat in sorted(table.occupied)} if chips.on else {}
    if event.odd is None:
        if not chips.on:
            table.refuse("race: name each seat's odd chips (the table does not count chips): "
                         "not taken")
            return
        odd = odd_chips({seat: stack or 0 for seat, stack in counted.items()}, chip=event.chip, to=event.to)
    else:
        odd = dict(event.odd)
    problems = [f"seat {seat} is not seated" for seat in odd if seat not in table.occupied]
    ratio = event.to // event.chip
    problems += [f"seat {seat}'s {count} odd chips make up a new chip (change {ratio} up directly)"
                 for seat, count in odd.items() if count >= ratio]
    problems += [f"seat {seat} has {count} odd chips of {event.chip:,} but {counted[seat] or 0:,} in all"
                 for seat, count in odd.items() if seat in counted and count * event.chip > (counted[seat] or 0)]
    if problems:
        table.refuse(f"race: {'; '.join(problems)}: not taken")
        return
    odd = {seat: count for seat, count in sorted(odd.items()) if count}
    broke = frozenset(seat for seat, count in odd.items() if seat in counted and counted[seat] == count * event.chip)
    chips.color_up(event.chip, event.to)  # the smallest chip in play is another from now on
    rule = table.rule(RuleKey.CHIP_RACE)
    order = race_order(odd, rule.procedure)
    table.race = RaceState(chip=event.chip, to=event.to, odd=odd, broke=broke, order=order)
    if not order:
        _conclude(table, table.race)


def takes(table: TableState, event: Read | Button) -> bool:
    """Whether the race takes this read or press (the hand's rules do not see it)."""
    race = table.race
    if race is None:
        return False
    if isinstance(event, Button):
        if event.name is NEW_HAND:
            if race.result is None:
                table.refuse(f"new_hand: the chip race is being dealt ({len(race.dealt)} of "
                             f"{len(race.order)} cards): finish it, or press misdeal to deal it again")
                return True
            table.race = None  # the race is over: the next hand is dealt
            return False
        if event.name is MISDEAL:
            _misdeal(table, race, Cause.DEALER_CALLED, None, "the dealer called a misdeal of the race")
            return True
        return False
    if event.antenna == SHOE:
        _shoe(table, race, event.uid)
        return True
    if event.antenna.startswith("seat"):
        _seat(table, race, int(event.antenna[4:]), event.uid)
        return True
    return False


def _shoe(table: TableState, race: RaceState, uid: str) -> None:
    info = table.cards.get(uid)
    if info is None or is_unknown(info.card):
        table.notice(NoticeKind.IGNORED, f"race: a tag no enrolled deck knows ({uid}) came out of the shoe: "
                     "put it aside and deal the next card")
        return
    if is_joker(info.card):
        table.notice(NoticeKind.IGNORED, f"race: {info.card} (a joker) came out of the shoe: put it aside and "
                     "deal the next card")
        return
    if any(uid == dealt for dealt, _card in race.dealt):
        return  # the reader saw the same card twice
    if race.result is not None:
        _misdeal(table, race, Cause.RACE_TOO_MANY, None,
                 f"{info.card} dealt after the race's {len(race.order)} cards (one card per odd chip)")
        return
    race.dealt.append((uid, info.card))
    if race.due is None:
        _conclude(table, race)


def _seat(table: TableState, race: RaceState, seat: int, uid: str) -> None:
    index = next((i for i, (dealt, _card) in enumerate(race.dealt) if dealt == uid), None)
    if index is None or race.at_seat.get(uid) == seat:
        return  # not a race card out of the shoe, or seen there already
    race.at_seat[uid] = seat
    card, due = race.dealt[index][1], race.order[index]
    if seat not in race.order:
        why = "has no odd chips" if seat not in race.odd else "has more than one odd chip and is colored up, not raced"
        _misdeal(table, race, Cause.RACE_NO_ODD_CHIPS, seat, f"{card} was dealt to seat {seat}, which {why}")
    elif seat != due:
        _misdeal(table, race, Cause.RACE_OUT_OF_SEQUENCE, seat,
                 f"{card} went to seat {seat} where seat {due} was due (clockwise from seat 1, each player all "
                 "their cards before the next)")


def _misdeal(table: TableState, race: RaceState, cause: Cause, seat: int | None, detail: str) -> None:
    """The race is dealt again: its cards back, the chips as they were before it was ruled. (A house that
    deals no race, RPL's, keeps its color-up: the card is only gathered.)"""
    if not race.order:
        table.ruling(RulingKind.RACE_MISDEAL, RuleKey.RACE_MISDEAL, cause=cause, seat=seat, fill={"detail": detail})
        return
    if race.result is not None and table.chips.on:
        table.chips.set_stacks(tuple((s, (table.chips.stack_now(s) or 0) - delta) for s, delta in race.result.change))
    race.dealt, race.at_seat, race.result = [], {}, None
    race.redeals += 1
    table.ruling(RulingKind.RACE_MISDEAL, RuleKey.RACE_MISDEAL, cause=cause, seat=seat, fill={"detail": detail})


def _conclude(table: TableState, race: RaceState) -> None:
    rule = table.rule(RuleKey.CHIP_RACE)
    result = rule_race(chip=race.chip, to=race.to, odd=race.odd, cards=race.cards(), broke=race.broke,
                       procedure=rule.procedure if rule.procedure in ("round_up", "nightly") else "race",
                       one_chip_each=rule.procedure in ("one_chip_each", "nightly"))
    race.result = result
    if table.chips.on:
        table.chips.set_stacks(tuple((seat, (table.chips.stack_now(seat) or 0) + delta)
                                     for seat, delta in result.change))
    gone = ", ".join(f"seat {seat} {count}" for seat, count in result.odd) or "none"
    table.ruling(RulingKind.CHIP_RACE, RuleKey.CHIP_RACE,
                 fill={"summary": f"{race.chip:,} chips off the table (odd chips: {gone}); {result.summary()}",
                       "amount": f"{race.chip:,}", "minimum": f"{race.to:,}"})
