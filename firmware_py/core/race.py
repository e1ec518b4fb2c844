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
chipped up to the next amount". WFP's EXCEPTION for regular nightly games (procedure "nightly"): players with
more than one odd chip are colored up to one new chip each, and only those with one odd chip race, as above.

>>> result = rule_race(chip=25, to=100, odd={1: 3, 2: 2, 4: 1}, broke=frozenset(), procedure="race",
...                    one_chip_each=True, cards=((1, "2c"), (1, "Kd"), (1, "5h"), (2, "Ks"), (2, "3d"), (4, "Ah")))
>>> [(award.seat, award.why) for award in result.awards]
[(4, 'card'), (2, 'half_or_more')]
>>> result.change  # 150 in odd chips: one 100 chip to the ace; the 50 left is half a chip: the next card wins one
((1, -75), (2, 50), (4, 75))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from firmware_py.core.cards import RANKS

RACE_PROCEDURES = ("race", "round_up", "nightly")
SUIT_ORDER = "cdhs"  # clubs lowest, spades highest (Ties 1: spades, hearts, diamonds, clubs)


def card_strength(card: str) -> tuple[int, int]:
    """A race card's place: rank first, then suit. Jokers and unknown cards rank below every card."""
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUIT_ORDER:
        return (-1, -1)
    return (RANKS.index(card[0]), SUIT_ORDER.index(card[1]))


def odd_chips(stacks: Mapping[int, int], *, chip: int, to: int) -> dict[int, int]:
    """Each seat's odd chips of `chip` once those making up a `to` chip are changed up directly, from stacks in
    chips (every higher denomination a multiple of `to`): what a `race` event without `odd` races.

    >>> odd_chips({1: 1075, 2: 2050, 3: 1000, 4: 0}, chip=25, to=100)
    {1: 3, 2: 2}
    """
    return {seat: (stack % to) // chip for seat, stack in sorted(stacks.items()) if (stack % to) // chip}


def deal_order(odd: Mapping[int, int]) -> tuple[int, ...]:
    """The seat due each race card: seat 1 (left of the dealer) first, each player all their cards in turn."""
    return tuple(seat for seat in sorted(odd) for _ in range(odd[seat]))


def race_order(odd: Mapping[int, int], procedure: str) -> tuple[int, ...]:
    """The seat due each race card under a profile's chip-race procedure (profiles.PROCEDURES): none when
    the odd chips are rounded up (RPL); under WFP's nightly exception only the players with one odd chip race.

    >>> race_order({1: 3, 2: 1, 4: 1}, "nightly"), race_order({1: 3, 2: 1}, "one_chip_each")
    ((2, 4), (1, 1, 1, 2))
    """
    if procedure == "round_up":
        return ()
    if procedure == "nightly":
        return deal_order({seat: count for seat, count in odd.items() if count == 1})
    return deal_order(odd)


@dataclass(frozen=True, kw_only=True, slots=True)
class Award:
    """One new chip: to `seat`, `why` "no_chips_left" (a player may not be raced out), "card" (its card
    ranked), "half_or_more" (the remainder: half a new chip or more), "rounded_up" (no race: RPL) or
    "colored_up" (WFP's nightly games: more than one odd chip, changed for one new chip without a race)."""

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
            elif award.why == "colored_up":
                parts.append(f"seat {award.seat}, more than one odd chip (colored up)")
            elif award.why == "half_or_more":
                parts.append(f"seat {award.seat} with {award.card}, the remainder being half a chip or more")
            else:
                parts.append(f"seat {award.seat} with {award.card}")
        return f"a {self.to:,} chip each to " + "; ".join(parts)


def rule_race(*, chip: int, to: int, odd: Mapping[int, int], cards: Sequence[tuple[int, str]],
              broke: frozenset[int], procedure: str, one_chip_each: bool) -> RaceResult:
    """Who gets each new chip. `cards` are (seat, card) as dealt; `broke` the seats whose only chips are
    their odd ones (given a new chip before anyone else: no player is raced out). "nightly" (WFP's exception
    for its regular nightly games) colors up every player with more than one odd chip to one new chip, then
    races the single odd chips as "race" does, no player winning more than one chip.

    >>> nightly = rule_race(chip=25, to=100, odd={1: 3, 2: 1, 3: 1, 5: 2}, broke=frozenset(), procedure="nightly",
    ...                     one_chip_each=True, cards=((2, "9c"), (3, "Js")))
    >>> [(award.seat, award.why) for award in nightly.awards], nightly.change  # 50 raced: half a chip, to the jack
    ([(1, 'colored_up'), (5, 'colored_up'), (3, 'half_or_more')], ((1, 25), (2, -25), (3, 75), (5, 50)))
    """
    if procedure not in RACE_PROCEDURES:
        raise ValueError(f"unknown chip race procedure {procedure!r}: one of {', '.join(RACE_PROCEDURES)}")
    racing = {seat: count for seat, count in odd.items() if count > 0}
    awards: list[Award] = []
    remainder = 0
    if procedure == "round_up":
        awards = [Award(seat=seat, why="rounded_up") for seat in sorted(racing)]
    else:
        raced = racing
        if procedure == "nightly":
            awards = [Award(seat=seat, why="colored_up") for seat, count in sorted(racing.items()) if count > 1]
            raced = {seat: count for seat, count in racing.items() if count == 1}
        pool = sum(raced.values()) * chip
        for seat in sorted(seat for seat in raced if seat in broke):
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
