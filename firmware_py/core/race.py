"""The chip race: odd chips of a denomination colored up, raced for with cards from the shoe. Pure.

WFP Tournament Procedures 6 and UPT Tournaments 11 (the same text but for two sentences): the lowest
denomination leaves the table; chips of it that make up a new chip are changed up directly; for the
odd ones left each player is dealt one card per odd chip, clockwise from the seat left of the dealer
("regardless of the button": seat 1), each player all their cards before the next. A player left with
no chips is given a new chip before anyone else; then the highest card by rank, then suit (spades,
hearts, diamonds, clubs: Ties 1), gets a new chip, the second highest the next, until the odd chips are
exchanged; a remainder of half a new chip or more goes to the highest card left, less goes to nobody.
WFP: "The maximum is one chip going to any player" (a player's other cards are passed over); UPT has no
such sentence: each card races on its own. RPL Tournaments 10 has no race: "Any odd amount chips will be
chipped up to the next amount".

>>> result = rule_race(chip=25, to=100, odd={1: 3, 2: 2, 4: 1}, broke=frozenset(), procedure="race",
...                    one_chip_each=True, cards=((1, "2c"), (1, "Kd"), (1, "5h"), (2, "Ks"), (2, "3d"), (4, "Ah")))
>>> [(award.seat, award.why) for award in result.awards]
[(4, 'card'), (2, 'card')]
>>> result.change  # in chips: seat 1 loses 75, seat 2 wins 100 for 50, seat 4 100 for 25
((1, -75), (2, 50), (4, 75))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from firmware_py.core.cards import RANKS, is_joker, is_unknown
from firmware_py.core.events import SHOE, Button, ButtonName, Race, Read
from firmware_py.core.rulings import NoticeKind, RulingKind
from firmware_py.core.vocab import Cause, RuleKey

if TYPE_CHECKING:
    from firmware_py.core.state import TableState

RACE_PROCEDURES = ("race", "round_up")
SUIT_ORDER = "cdhs"  # clubs lowest, spades highest (Ties 1: spades, hearts, diamonds, clubs)


def card_strength(card: str) -> tuple[int, int]:
    """A race card's place: rank first, then suit. Jokers and unknown cards rank below every card."""
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUIT_ORDER:
        return (-1, -1)
    return (RANKS.index(card[0]), SUIT_ORDER.index(card[1]))


def deal_order(odd: Mapping[int, int]) -> tuple[int, ...]:
    """The seat due each race card: seat 1 (left of the dealer) first, each player all their cards in turn."""
    return tuple(seat for seat in sorted(odd) for _ in range(odd[seat]))


@dataclass(frozen=True, kw_only=True, slots=True)
class Award:
    """One new chip: to `seat`, `why` "no_chips_left" (a player may not be raced out), "card" (its card
    ranked), "half_or_more" (the remainder: half a new chip or more) or "rounded_up" (no race: RPL)."""

    seat: int
    why: str
    card: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class RaceResult:
    chip: int  # the denomination colored up
    to: int  # the new chip's value
    odd: tuple[tuple[int, int], ...]  # (seat, odd chips), by seat
    awards: tuple[Award, ...]  # in the order they are made
    change: tuple[tuple[int, int], ...]  # (seat, chips won less odd chips given up), by seat
    remainder: int = 0  # odd chips' value left after the full new chips (before the half-or-more rule)

    def summary(self) -> str:
        """'seat 4 (A♥ ... ) ...': who gets each chip, as the ruling says it."""
        if not self.awards:
            return "no new chip: the odd chips come off the table"
        parts = []
        for award in self.awards:
            if award.why == "no_chips_left":
                parts.append(f"seat {award.seat}, left without chips (first)")
            elif award.why == "rounded_up":
                parts.append(f"seat {award.seat}")
            elif award.why == "half_or_more":
                parts.append(f"seat {award.seat} with {award.card}, the remainder being half a chip or more")
            else:
                parts.append(f"seat {award.seat} with {award.card}")
        return f"a {self.to:,} chip each to " + "; ".join(parts)


def rule_race(*, chip: int, to: int, odd: Mapping[int, int], cards: Sequence[tuple[int, str]],
              broke: frozenset[int], procedure: str, one_chip_each: bool) -> RaceResult:
    """Who gets each new chip. `cards` are (seat, card) as dealt; `broke` the seats whose only chips are
    their odd ones (given a new chip before anyone else: no player is raced out)."""
    if procedure not in RACE_PROCEDURES:
        raise ValueError(f"unknown chip race procedure {procedure!r}: one of {', '.join(RACE_PROCEDURES)}")
    racing = {seat: count for seat, count in odd.items() if count > 0}
    awards: list[Award] = []
    remainder = 0
    if procedure == "round_up":
        awards = [Award(seat=seat, why="rounded_up") for seat in sorted(racing)]
    else:
        pool = sum(racing.values()) * chip
        for seat in sorted(broke & racing.keys()):
            awards.append(Award(seat=seat, why="no_chips_left"))
            pool -= to
        pool = max(pool, 0)
        full, remainder = divmod(pool, to)
        won = {award.seat for award in awards}
        ranked = sorted(cards, key=lambda dealt: card_strength(dealt[1]), reverse=True)
        half = 2 * remainder >= to and remainder > 0
        for seat, card in ranked:
            if full == 0 and not half:
                break
            if one_chip_each and seat in won:
                continue  # WFP: no player gets more than one chip
            if full:
                awards.append(Award(seat=seat, why="card", card=card))
                full -= 1
            else:
                awards.append(Award(seat=seat, why="half_or_more", card=card))
                half = False
            won.add(seat)
    gained: dict[int, int] = {}
    for award in awards:
        gained[award.seat] = gained.get(award.seat, 0) + to
    change = tuple((seat, gained.get(seat, 0) - racing.get(seat, 0) * chip)
                   for seat in sorted(racing.keys() | gained.keys()))
    return RaceResult(chip=chip, to=to, odd=tuple(sorted(racing.items())), awards=tuple(awards), change=change,
                      remainder=remainder)


@dataclass(kw_only=True, slots=True)
class RaceState:
    """A race being dealt: the seat due each card, the cards out so far (uid, card), the result once ruled."""

    chip: int
    to: int
    odd: dict[int, int]
    broke: frozenset[int]
    order: tuple[int, ...]
    dealt: list[tuple[str, str]] = field(default_factory=list)  # (uid, card), in shoe order
    at_seat: dict[str, int] = field(default_factory=dict)  # uid -> seat antenna that saw it
    result: RaceResult | None = None
    redeals: int = 0

    @property
    def due(self) -> int | None:
        """The seat due the next card (None once every card is out)."""
        return self.order[len(self.dealt)] if len(self.dealt) < len(self.order) else None

    def cards(self) -> tuple[tuple[int, str], ...]:
        return tuple((self.order[index], card) for index, (_uid, card) in enumerate(self.dealt))


@dataclass(frozen=True, kw_only=True, slots=True)
class RaceView:
    """The race as the screens show it: the color-up, each seat's odd chips and cards, then who got a chip."""

    chip: int
    to: int
    odd: tuple[tuple[int, int], ...]  # (seat, odd chips)
    cards: tuple[tuple[int, str], ...]  # (seat, card) as dealt
    due: int | None  # the seat due the next card (None when all are out)
    awards: tuple[Award, ...] = ()  # once ruled
    change: tuple[tuple[int, int], ...] = ()
    done: bool = False

    def won(self, seat: int) -> int:
        """New chips the seat got."""
        return sum(1 for award in self.awards if award.seat == seat)


def view_of(race: RaceState) -> RaceView:
    result = race.result
    return RaceView(chip=race.chip, to=race.to, odd=tuple(sorted(race.odd.items())), cards=race.cards(),
                    due=race.due, awards=result.awards if result is not None else (),
                    change=result.change if result is not None else (), done=result is not None)


# ----------------------------------------------------------------------------------------------
# The table: a `race` event puts it in color-up mode; shoe and seat reads deal the race; the core rules it.


def start(table: TableState, event: Race) -> None:
    """A `race` event between hands (flow.color_up): check it against the table and start dealing (or rule
    at once: no card needed)."""
    if table.race is not None and table.race.result is None:
        table.notice(NoticeKind.IGNORED, f"race: a race for the {table.race.chip:,} chips is being dealt: not taken")
        return
    if event.to <= event.chip or event.to % event.chip:
        table.notice(NoticeKind.IGNORED, f"race: the new chip ({event.to:,}) must be a multiple of the chip colored "
                     f"up ({event.chip:,}): not taken")
        return
    chips = table.chips
    counted = {seat: chips.stack_now(seat) for seat in sorted(table.occupied)} if chips.on else {}
    if event.odd is None:
        if not chips.on:
            table.notice(NoticeKind.IGNORED, "race: name each seat's odd chips (the table does not count chips): "
                         "not taken")
            return
        odd = {seat: (stack % event.to) // event.chip for seat, stack in counted.items() if stack}
    else:
        odd = dict(event.odd)
    problems = [f"seat {seat} is not seated" for seat in odd if seat not in table.occupied]
    ratio = event.to // event.chip
    problems += [f"seat {seat}'s {count} odd chips make up a new chip (change {ratio} up directly)"
                 for seat, count in odd.items() if count >= ratio]
    problems += [f"seat {seat} has {count} odd chips of {event.chip:,} but {counted[seat] or 0:,} in all"
                 for seat, count in odd.items() if seat in counted and count * event.chip > (counted[seat] or 0)]
    if problems:
        table.notice(NoticeKind.IGNORED, f"race: {'; '.join(problems)}: not taken")
        return
    odd = {seat: count for seat, count in sorted(odd.items()) if count}
    broke = frozenset(seat for seat, count in odd.items() if seat in counted and counted[seat] == count * event.chip)
    rule = table.rule(RuleKey.CHIP_RACE)
    order = deal_order(odd) if rule.procedure != "round_up" else ()
    table.race = RaceState(chip=event.chip, to=event.to, odd=odd, broke=broke, order=order)
    if not order:
        _conclude(table, table.race)


def takes(table: TableState, event: Read | Button) -> bool:
    """Whether the race takes this read or press (the hand's rules do not see it)."""
    race = table.race
    if race is None:
        return False
    if isinstance(event, Button):
        if event.name is ButtonName.NEW_HAND:
            if race.result is None:
                table.notice(NoticeKind.IGNORED, f"new_hand: the chip race is being dealt ({len(race.dealt)} of "
                             f"{len(race.order)} cards): finish it, or press misdeal to deal it again")
                return True
            table.race = None  # the race is over: the next hand is dealt
            return False
        if event.name is ButtonName.MISDEAL:
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
    if seat not in race.odd:
        _misdeal(table, race, Cause.RACE_NO_ODD_CHIPS, seat, f"{card} was dealt to seat {seat}, which has no odd chips")
    elif seat != due:
        _misdeal(table, race, Cause.RACE_OUT_OF_SEQUENCE, seat,
                 f"{card} went to seat {seat} where seat {due} was due (clockwise from seat 1, each player all "
                 "their cards before the next)")


def _misdeal(table: TableState, race: RaceState, cause: Cause, seat: int | None, detail: str) -> None:
    """The race is dealt again: its cards back, the chips as they were before it was ruled."""
    if race.result is not None and table.chips.on:
        table.chips.set_stacks(tuple((s, (table.chips.stack_now(s) or 0) - delta) for s, delta in race.result.change))
    race.dealt, race.at_seat, race.result = [], {}, None
    race.redeals += 1
    table.ruling(RulingKind.RACE_MISDEAL, RuleKey.RACE_MISDEAL, cause=cause, seat=seat, fill={"detail": detail})


def _conclude(table: TableState, race: RaceState) -> None:
    rule = table.rule(RuleKey.CHIP_RACE)
    result = rule_race(chip=race.chip, to=race.to, odd=race.odd, cards=race.cards(), broke=race.broke,
                       procedure="round_up" if rule.procedure == "round_up" else "race",
                       one_chip_each=rule.procedure == "one_chip_each")
    race.result = result
    if table.chips.on:
        table.chips.set_stacks(tuple((seat, (table.chips.stack_now(seat) or 0) + delta)
                                     for seat, delta in result.change))
    gone = ", ".join(f"seat {seat} {count}" for seat, count in result.odd) or "none"
    table.ruling(RulingKind.CHIP_RACE, RuleKey.CHIP_RACE,
                 fill={"summary": f"{race.chip:,} chips off the table (odd chips: {gone}); {result.summary()}",
                       "amount": f"{race.chip:,}", "minimum": f"{race.to:,}"})
