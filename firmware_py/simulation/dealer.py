"""A simulated dealer: shuffles, deals, presses the panel's buttons, and makes rulebook errors at set rates.

Seeded and reproducible: every choice comes from the `random.Random` passed in. It produces the
table's input events (what the shoe, board antennas and panel would send) and, for each error it
made on purpose, what the rules core is expected to rule, so a harness can score the core.

>>> import random
>>> from firmware_py.session import load_deck
>>> from firmware_py.profiles import load_profiles
>>> bot = DealerBot(rng=random.Random(1), deck=load_deck("config/decks/test-red.json"),
...                 profile=load_profiles()["robert"], seats=(1, 2, 3, 4), button=1)
>>> hand = bot.hand(t=0.0)
>>> hand.events[0].name, len([e for e in hand.events if isinstance(e, Read)]) >= 8
(<ButtonName.NEW_HAND: 'new_hand'>, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from firmware_py.core import (
    Button,
    ButtonName,
    Deck,
    Event,
    Gone,
    Level,
    Phase,
    Race,
    Read,
    RuleKey,
    RulingKind,
    Seat,
    SeatStatus,
    Setup,
    Stacks,
)
from firmware_py.core.cards import FULL_DECK
from firmware_py.core.engine import TableCore
from firmware_py.core.events import AMOUNT_ACTIONS
from firmware_py.core.game import HOLDEM, Game, Structure
from firmware_py.core.profiles import Profile
from firmware_py.core.race import race_order


class DealerMistake(StrEnum):
    """Errors the simulated dealer can make, each a rulebook irregularity."""

    EXPOSED_FIRST = "exposed_first"  # flips the first card of the deal
    EXPOSED_LATER = "exposed_later"  # flips a later hole card
    BOXED = "boxed"  # a face-up card in the deck while dealing hole cards
    EXTRA_CARD = "extra_card"  # deals the first player a third card
    PREMATURE_FLOP = "premature_flop"  # burns and turns the flop before the blinds act
    FLOP_TOO_MANY = "flop_too_many"  # four cards on the flop
    NO_BURN = "no_burn"  # forgets the burn before the turn
    DOUBLE_BURN = "double_burn"  # burns two before the river
    DEALER_MISDEAL = "dealer_misdeal"  # presses misdeal before action
    FOREIGN_CARD = "foreign_card"  # a card from the other deck comes out of the shoe


# The ruling each error must draw (in every profile), or per-profile where the books differ.
EXPECTED: dict[DealerMistake, RulingKind] = {
    DealerMistake.EXPOSED_FIRST: RulingKind.MISDEAL,
    DealerMistake.EXPOSED_LATER: RulingKind.EXPOSED_CARD,
    DealerMistake.BOXED: RulingKind.BOXED_CARD,
    DealerMistake.EXTRA_CARD: RulingKind.EXTRA_CARD,
    DealerMistake.PREMATURE_FLOP: RulingKind.PREMATURE_CARD,
    DealerMistake.FLOP_TOO_MANY: RulingKind.FLOP_TOO_MANY,
    DealerMistake.NO_BURN: RulingKind.BURN_MISSING,
    DealerMistake.DOUBLE_BURN: RulingKind.BURN_EXTRA,
    DealerMistake.DEALER_MISDEAL: RulingKind.MISDEAL,
    DealerMistake.FOREIGN_CARD: RulingKind.VOID_HAND,
}
PROFILE_EXPECTED: dict[tuple[str, DealerMistake], RulingKind] = {
    ("wfp-dealer", DealerMistake.BOXED): RulingKind.EXPOSED_CARD,  # a face-up card while dealing is exposed
}
MAX_RAISES = 3  # bets and raises per round: 9 seats x (1 + 3) actions stay within the 40-action guard
REBUY_BIG_BLINDS = 10  # with chips: a seat under this many big blinds tops up to the starting stack
CHIP = 25  # the smallest chip in play: bets are whole numbers of it
ALLIN_RATE = 0.04  # with chips: how often a player who may bet or raise shoves instead


def expected_ruling(profile: str, error: DealerMistake) -> RulingKind:
    return PROFILE_EXPECTED.get((profile, error), EXPECTED[error])


@dataclass(frozen=True, kw_only=True)
class ScriptedHand:
    events: tuple[Event, ...]
    error: DealerMistake | None  # the error made on purpose in this hand, if any
    t_end: float


@dataclass(frozen=True, kw_only=True)
class ScriptedRace:
    """A chip race the bot dealt (`DealerBot.race`): its events, the odd chips raced, whether it was misdealt first."""

    events: tuple[Event, ...]
    t_end: float
    odd: dict[int, int]
    misdealt: bool = False


@dataclass(kw_only=True)
class DealerBot:
    """Deals hands of hold'em as input events. One error at most per hand, at `error_rate`."""

    rng: random.Random
    deck: Deck
    profile: Profile  # the bot follows the remedies of the house rules in force
    seats: tuple[int, ...]
    button: int
    error_rate: float = 0.0
    errors: Sequence[DealerMistake] = tuple(DealerMistake)
    other_deck: Deck | None = None  # source of foreign cards
    seconds_per_card: float = 0.4
    seconds_per_action: float = 2.0
    # Chips: each seat's starting stack (0: the bot keys no amounts) and the blind level (small, big, ante).
    stack: int = 0
    level: tuple[int, int, int] = (50, 100, 0)
    game: Game = HOLDEM  # the game dealt: its hole cards, and its betting structure for the amounts
    bb_ante: int = 0  # the big-blind ante of `level` (a schedule's levels carry their own)
    short_stacks: float = 0.0  # with chips: the share of hands before which one seat is cut below the forced bets
    schedule: Any = None  # the table's blind levels (`level_at(t)`, display_config.DisplayConfig): they replace `level`
    allin_rate: float = ALLIN_RATE  # with chips: how often a player who may bet or raise shoves
    fold_rate: float = 0.45  # with chips: how often a player facing a bet folds (with more than two in the hand) ...
    fold_heads_up: bool = False  # ... and heads-up too (a tournament's players fold to a shove)
    rebuy: bool = True  # with chips: a short seat tops up to `stack` (a cash game); False in a tournament
    denominations: tuple[int, ...] = ()  # the chips in play its table's setup names (every stack then made of them)
    _uids: dict[str, str] = field(default_factory=dict)
    _core: TableCore | None = None  # with chips: the table as the dealer sees it (the screen's pot and stacks)

    def __post_init__(self) -> None:
        self._uids = {card: uid for uid, card in self.deck.cards.items()}
        missing = [card for card in FULL_DECK if card not in self._uids]
        if missing:
            raise ValueError(f"deck {self.deck.name} lacks {len(missing)} cards, e.g. {missing[0]}")
        if self.stack:
            decks = (self.deck, *((self.other_deck,) if self.other_deck is not None else ()))
            self._core = TableCore({self.profile.name: self.profile})
            self._core.feed(Setup(t=0.0, profile=self.profile.name, seats=tuple(sorted(self.seats)),
                                  button=self.button, decks=decks, in_play=self.deck.name, game=self.game.name,
                                  denominations=self.denominations))

    # -- one hand ---------------------------------------------------------------------------

    def hand(self, *, t: float) -> ScriptedHand:
        """Script one hand starting at session time `t`; the bot keeps track of the button."""
        error: DealerMistake | None = None
        errors = [e for e in self.errors if e is not DealerMistake.FOREIGN_CARD or self.other_deck is not None]
        if len(self.seats) == 2:  # heads-up the blinds act first: there is no one to act before a premature flop
            errors = [e for e in errors if e is not DealerMistake.PREMATURE_FLOP]
        if errors and self.rng.random() < self.error_rate:
            error = self.rng.choice(errors)
        script = _Script(bot=self, t=t)
        if self._core is not None:
            script.chips_before_hand()
        ended_normally = script.play(error)
        if ended_normally:
            self.button = _next_seat(self.button, self.seats)
        return ScriptedHand(events=tuple(script.events), error=error, t_end=script.t)

    def follow(self, table: Any) -> list[str]:
        """Between hands: the bot takes the table's seats and stacks (a `TableSnapshot` of the table's own core)
        as its own, as a dealer goes by the venue screen, not by memory. Returns what differed, in words.

        Its next deal then goes to the seats the table deals in (a seat the table found without chips is
        not dealt), and its rebuys are for the seats the table has short. A difference is a fault of the
        simulation (a card no sensor saw, a press lost), or, in practice, the operator's own hands."""
        core = self._core
        if core is None:
            return []
        mine = {view.seat: view.stack for view in core.snapshot().seats if view.state != "empty"}
        theirs = {view.seat: view.stack for view in table.seats if view.state != "empty"}
        differ: list[str] = []
        t = core.t
        for seat in sorted(set(mine) - set(theirs)):
            core.feed(Seat(t=t, seat=seat, status=SeatStatus.OUT))
            differ.append(f"seat {seat} is empty")
        for seat in sorted(set(theirs) - set(mine)):
            core.feed(Seat(t=t, seat=seat, status=SeatStatus.IN))
            differ.append(f"seat {seat} is taken")
        stacks = tuple((seat, stack) for seat, stack in sorted(theirs.items())
                       if stack is not None and mine.get(seat) != stack)
        if stacks:
            core.feed(Stacks(t=t, stacks=stacks))
            differ.extend(f"seat {seat} has {stack:,}, not {mine.get(seat) or 0:,}" for seat, stack in stacks)
        mine_button = core.snapshot().button
        if table.button is not None and mine_button is not None and table.button != mine_button:
            differ.append(f"the button is at seat {table.button}, not {mine_button}")
        self.seats = tuple(sorted(theirs)) or self.seats
        return differ

    def race(self, *, t: float, chip: int, to: int, odd: Mapping[int, int] | None = None,
             misdeal: bool = False) -> ScriptedRace:
        """A color-up between hands with a chip race from the shoe (core/race.py): the `race` event, then one
        card per odd chip from seat 1, each seat all its cards in turn, and a confirm of the ruling.

        `odd` is each seat's odd chips of `chip`; without it the table takes them from its counted stacks (the
        bot must then count chips: `stack`). With `misdeal` the dealer first puts a card before the wrong seat
        (its seat antenna sees it): the race_misdeal ruling, a confirm, and the race dealt again.
        """
        script = _Script(bot=self, t=t)
        script.emit(Race(t=script.tick(0.5), chip=chip, to=to,
                         odd=tuple(sorted(odd.items())) if odd is not None else None))
        if odd is None:
            if self._core is None:
                raise ValueError("race: name each seat's odd chips (the bot counts no chips: stack=0)")
            seen = self._core.snapshot().race
            if seen is None:
                raise ValueError(f"race: the table did not take the race ({self._core.snapshot().notices[-1:]})")
            odd = dict(seen.odd)
        return self._race_cards(script, dict(odd), misdeal=misdeal)

    def deal_race(self, *, t: float) -> ScriptedRace | None:
        """The cards of a race the table has started itself (a tournament table at the director's color-up:
        firmware_py/room/tournament_table.py posts the `race` event), as `race` deals them; None when the
        bot's view of the table has no race waiting for its cards."""
        seen = self._core.snapshot().race if self._core is not None else None
        if seen is None or seen.done:
            return None
        return self._race_cards(_Script(bot=self, t=t), dict(seen.odd), misdeal=False)

    def _race_cards(self, script: _Script, odd: dict[int, int], *, misdeal: bool) -> ScriptedRace:
        order = race_order(odd, self.profile.rule(RuleKey.CHIP_RACE).procedure)
        misdealt = False
        if misdeal and len(set(order)) > 1:
            script.stub = list(FULL_DECK)
            self.rng.shuffle(script.stub)
            wrong = next(seat for seat in sorted(self.seats) if seat != order[0])
            card = script.draw()  # seat 1's first card, put before another seat
            script.emit(Read(t=script.tick(0.2), antenna=f"seat{wrong}", uid=self._uids[card]))
            script.press("confirm")
            misdealt = True
        script.stub = list(FULL_DECK)
        self.rng.shuffle(script.stub)
        for _seat in order:
            script.draw()
        script.press("confirm")  # the chip_race ruling (RPL's color-up is ruled at the race event)
        return ScriptedRace(events=tuple(script.events), t_end=script.t, odd=dict(odd), misdealt=misdealt)

    def session(self, hands: int, *, t: float = 0.0) -> list[ScriptedHand]:
        out = []
        for _ in range(hands):
            hand = self.hand(t=t)
            out.append(hand)
            t = hand.t_end + 5.0
        return out


def _next_seat(seat: int, seats: Sequence[int]) -> int:
    ordered = sorted(seats)
    later = [s for s in ordered if s > seat]
    return later[0] if later else ordered[0]


@dataclass(kw_only=True)
class _Script:
    bot: DealerBot
    t: float
    events: list[Event] = field(default_factory=list)
    stub: list[str] = field(default_factory=list)

    def tick(self, seconds: float) -> float:
        self.t = round(self.t + seconds, 3)
        return self.t

    def emit(self, event: Event) -> None:
        """Record an event; with chips the bot's own view of the table follows it."""
        self.events.append(event)
        if self.bot._core is not None:
            self.bot._core.feed(event)

    def press(self, name: str) -> None:
        self.emit(Button(t=self.tick(self.bot.seconds_per_action), name=ButtonName(name)))

    def draw(self) -> str:
        card = self.stub.pop()
        self.emit(Read(t=self.tick(self.bot.seconds_per_card), antenna="shoe", uid=self.bot._uids[card]))
        return card

    def land(self, card: str, position: int) -> None:
        self.emit(Read(t=self.tick(0.2), antenna=f"board{position}", uid=self.bot._uids[card]))

    def lift(self, cards: Sequence[str], first_position: int = 1) -> None:
        """The dealer takes cards off the board (a remedy): their antennas report them gone."""
        for i, card in enumerate(cards, start=first_position):
            self.emit(Gone(t=self.tick(0.3), antenna=f"board{i}", uid=self.bot._uids[card]))

    def chips_before_hand(self) -> None:
        """The blind level when it changes (the first hand's too); the starting stack again for a seat that is
        nearly out."""
        core, bot = self.bot._core, self.bot
        assert core is not None
        small, big, ante = bot.level
        bb_ante = bot.bb_ante
        if bot.schedule is not None:
            now = bot.schedule.level_at(self.t).level
            small, big, ante, bb_ante = now.small, now.big, now.ante, now.bb_ante
        if core.level is None or (core.level.small, core.level.big, core.level.ante, core.level.bb_ante) != (
                small, big, ante, bb_ante):
            self.emit(Level(t=self.tick(0.1), small=small, big=big, ante=ante, bb_ante=bb_ante))
        stacks = {view.seat: view.stack for view in core.snapshot().seats}
        if not bot.rebuy:  # a tournament: no one buys in again, and the stacks are the table's own
            return
        # With `short_stacks` players play down to their last chip (a broke seat buys in again) and now
        # and then one is cut to less than the forced bets: short blinds and antes (WFP 15, UPT 19).
        floor = 1 if bot.short_stacks else REBUY_BIG_BLINDS * (big + ante + bb_ante)
        seated = {view.seat for view in core.snapshot().seats if view.state != "empty"}
        # The first stacks of the session are the players' buy-ins; a short seat's top-up later is a rebuy
        # (journaled and shown as one, and exported as the chips the player added).
        fresh = [(seat, bot.stack) for seat in sorted(seated) if stacks.get(seat) is None]
        short = [(seat, bot.stack) for seat in sorted(seated) if (stack := stacks.get(seat)) is not None
                 and stack < floor]
        if fresh:
            self.emit(Stacks(t=self.tick(0.1), stacks=tuple(fresh)))
        if bot.short_stacks and bot.rng.random() < bot.short_stacks and seated:
            # A cut is the floor's correction (WFP 15, UPT 19: short blinds and antes), not a rebuy.
            seat = bot.rng.choice(sorted(seated))
            cut = bot.rng.randint(1, small + big + bb_ante + ante)
            if bot.denominations:  # a stack is made of the chips in play: no chip of 13 at a table of 25s
                cut = max(bot.denominations[0], cut - cut % bot.denominations[0])
            short = [pair for pair in short if pair[0] != seat]
            self.emit(Stacks(t=self.tick(0.1), stacks=((seat, cut),), why="correction"))
        if short:
            self.emit(Stacks(t=self.tick(0.1), stacks=tuple(short), why="rebuy"))

    def play(self, error: DealerMistake | None) -> bool:
        """Play one hand; False when it ended in a misdeal or void hand (the button stays)."""
        bot, rng = self.bot, self.bot.rng
        self.stub = list(FULL_DECK)
        rng.shuffle(self.stub)
        self.press("new_hand")
        # Every seat dealt in gets cards, a hand dead at the deal too (RPL Tournaments 19: no chip after the ante).
        dealt = bot._core.dealt_seats() if bot._core is not None else ()
        # With chips the table's own positions (the dead button, players waiting to be dealt in) say who is dealt.
        order = list(dealt) if dealt else _deal_order(bot.button, bot.seats)
        n = len(order)
        boxed_is_exposed = bot.profile.rule(RuleKey.BOXED_CARD).procedure == "as_exposed"
        cards = bot.game.hole_cards * n
        for index in range(cards):
            if error is DealerMistake.FOREIGN_CARD and index == 2 and bot.other_deck is not None:
                uid = next(iter(bot.other_deck.cards))
                self.emit(Read(t=self.tick(bot.seconds_per_card), antenna="shoe", uid=uid))
                if bot._core is None or bot._core.snapshot().phase is not Phase.MISDEALT:
                    self.press("misdeal")  # the dealer gathers the cards (unless the table already voided it)
                self.press("hand_end")
                return False
            self.draw()
            if index == 0 and error is DealerMistake.EXPOSED_FIRST:
                self.press("exposed")
                self.press("confirm")
                return False
            if index == max(2, cards - 2) and error is DealerMistake.EXPOSED_LATER:
                self.press("exposed")
                self.press("confirm")
            if index == max(2, cards - 3) and error is DealerMistake.BOXED:
                self.press("boxed")
                self.press("confirm")
                if not boxed_is_exposed:
                    self.draw()  # a scrap of paper: the next card takes its place
        flop_burns = 1
        if error is DealerMistake.EXPOSED_LATER or (error is DealerMistake.BOXED and boxed_is_exposed):
            self.draw()  # the replacement for the exposed card
            flop_burns = 0  # the exposed card is the flop's burn
        if error is DealerMistake.EXTRA_CARD:
            self.draw()
            self.press("confirm")
        if error is DealerMistake.DEALER_MISDEAL:
            self.press("misdeal")
            self.press("confirm")
            return False
        live = list(order)
        # Pre-flop: first to act is left of the big blind (heads-up: the button).
        first = 1 if n == 2 else 2 % n
        if error is DealerMistake.PREMATURE_FLOP and n > 2:
            self.emit(Button(t=self.tick(bot.seconds_per_action), name=ButtonName.CALL,
                             seat=order[first]))  # one player acts, then the dealer jumps the gun
            self.draw()  # the burn, which stays
            flop = [self.draw() for _ in range(3)]
            for i, card in enumerate(flop, start=1):
                self.land(card, i)
            self.press("confirm")
            self.lift(flop)
            self.stub.extend(flop)  # the premature flop is shuffled back into the stub
            rng.shuffle(self.stub)
            live = self._betting(order, live, start=(first + 1) % n, preflop=True, stop_before=order[first])
            if len(live) < 2:
                self.press("hand_end")
                return True
            rule = bot.profile.rule(RuleKey.PREMATURE_FLOP)
            for _ in range(rule.number("redeal_burns") - 1):  # the burn already out counts
                self.draw()
            flop = [self.draw() for _ in range(3)]
            return self._postflop(order, live, flop_dealt=flop, error=None,
                                  turn_burns=rule.number("next_street_burns"))
        live = self._betting(order, live, start=first, preflop=True)
        if len(live) < 2:
            self.press("hand_end")
            return True
        if error is DealerMistake.EXTRA_CARD:
            flop = [self.draw() for _ in range(3)]  # the extra card was this street's burn
            return self._postflop(order, live, flop_dealt=flop, error=None)
        return self._postflop(order, live, flop_dealt=None, error=error, flop_burns=flop_burns)

    def _postflop(self, order: list[int], live: list[int], *, flop_dealt: list[str] | None,
                  error: DealerMistake | None, turn_burns: int = 1, flop_burns: int = 1) -> bool:
        for street, count, position in (("flop", 3, 1), ("turn", 1, 4), ("river", 1, 5)):
            if street == "flop" and flop_dealt is not None:
                for i, card in enumerate(flop_dealt, start=1):
                    self.land(card, i)
            else:
                burns = {"flop": flop_burns, "turn": turn_burns}.get(street, 1)
                if street == "turn" and error is DealerMistake.NO_BURN:
                    burns = 0
                if street == "river" and error is DealerMistake.DOUBLE_BURN:
                    burns = 2
                for _ in range(burns):
                    self.draw()
                cards = [self.draw() for _ in range(count)]
                if street == "flop" and error is DealerMistake.FLOP_TOO_MANY:
                    extra = self.draw()
                    for i, card in enumerate([*cards, extra], start=1):
                        self.land(card, i)
                    self.press("confirm")
                    if self.bot.profile.rule(RuleKey.FLOP_TOO_MANY).procedure == "redeal":
                        self.lift([*cards, extra])
                        self.stub.extend([*cards, extra])  # mixed into the stub; the burn stays
                        self.bot.rng.shuffle(self.stub)
                        cards = [self.draw() for _ in range(3)]
                        for i, card in enumerate(cards, start=1):
                            self.land(card, i)
                    else:
                        self.lift([extra], 4)
                        turn_burns = 0  # the extra card went on the stub as the turn's burn
                    live = self._betting(order, live, start=0, preflop=False)
                    if len(live) < 2:
                        break
                    continue
                for i, card in enumerate(cards, start=position):
                    self.land(card, i)
                if error in (DealerMistake.NO_BURN, DealerMistake.DOUBLE_BURN) and (
                        (street == "turn" and error is DealerMistake.NO_BURN)
                        or (street == "river" and error is DealerMistake.DOUBLE_BURN)):
                    self.press("confirm")
            live = self._betting(order, live, start=0, preflop=False)
            if len(live) < 2:
                break
        self.press("hand_end")
        return True

    def _betting(self, order: list[int], live: list[int], *, start: int, preflop: bool,
                 stop_before: int | None = None) -> list[int]:
        """Press actions until everyone has acted since the last raise; return the seats still in."""
        if self.bot._core is not None:
            return self._betting_chips()
        rng = self.bot.rng
        live = list(live)
        pending = [order[(start + i) % len(order)] for i in range(len(order))]
        if stop_before is not None:
            pending = pending[: pending.index(stop_before)]
        pending = [s for s in pending if s in live]
        raised = False
        raises = 0
        guard = 0
        big_blind = order[1] if len(order) > 2 else order[0]  # the deal order: small blind, big blind, ...
        returned = self.bot.profile.rule(RuleKey.BIG_BLIND_FOLD).procedure == "returned"
        while pending and len(live) > 1 and guard < 40:
            guard += 1
            seat = pending.pop(0)
            if seat not in live:
                continue
            if not preflop and not raised:
                name = rng.choices(("check", "bet"), weights=(0.8, 0.2))[0]
            elif raises >= MAX_RAISES:  # a capped round, so that every round ends within the guard
                name = rng.choices(("call", "fold", "raise"), weights=(0.6, 0.3, 0.0))[0]
            else:
                name = rng.choices(("call", "fold", "raise"), weights=(0.6, 0.3, 0.1))[0]
            if name == "fold" and (len(live) == 2 or (preflop and not raised and seat == big_blind and returned)):
                name = "call"  # (the big blind's fold at its option is given back where the book says so)
            self.emit(Button(t=self.tick(self.bot.seconds_per_action), name=ButtonName(name), seat=seat))
            if name == "fold":
                live.remove(seat)
            elif name in ("bet", "raise"):
                raised = True
                raises += 1
                idx = order.index(seat)
                pending = [order[(idx + i) % len(order)] for i in range(1, len(order))]
                pending = [s for s in pending if s in live]
        return live


    def _betting_chips(self) -> list[int]:
        """With chips: act for the seat the table says is to act, with amounts, until the round is over.

        Bets and raises are legal by the profile in force and by the standard rule alike (at least
        double the bet faced), so every hand replays in pokerkit; now and then a player shoves. The
        bot reads its core's hand and chips directly (what the venue screen shows), not snapshots.
        """
        core, rng = self.bot._core, self.bot.rng
        assert core is not None
        raises = 0
        for _ in range(60):
            view, chips = core.snapshot(), core.hand_chips
            if chips is None or view.phase is not Phase.BETTING or view.to_act is None:
                break
            seat = view.to_act
            stack, bet = chips.behind[seat], chips.street_bet[seat]
            to_call, current, minimum = chips.to_call(seat), chips.current, min(chips.min_to(), bet + stack)
            live = core.live_seats()
            others = [s for s in core.seats_able_to_act() if s != seat]
            coverable = any(chips.behind[s] + chips.street_bet[s] > current for s in others)
            may_raise = (chips.may_raise(seat) and stack > to_call and coverable and raises < MAX_RAISES
                         and (to_call == 0 or to_call >= chips.raised_by))
            name, amount = "call" if to_call else "check", None
            roll = rng.random()
            limit, fixed = chips.max_to(seat), chips.limits.structure is Structure.FIXED_LIMIT
            if limit is not None and (limit < bet + stack or limit < max(minimum, 2 * current)):
                may_raise = may_raise and limit >= max(minimum, 2 * current)  # the standard rule's raise fits
            if may_raise and roll < self.bot.allin_rate and (limit is None or bet + stack <= limit):
                name = "allin"
            elif may_raise and roll < (0.25 if to_call == 0 else 0.12):
                low = max(minimum, 2 * current, to_call + bet + 1)
                amount = rng.randrange(low, max(low, 3 * max(current, minimum)) + 1)
                chip = self.bot.denominations[0] if self.bot.denominations else CHIP
                amount = -(-amount // chip) * chip  # in whole chips of the smallest denomination
                name = "bet" if current == 0 else "raise"
                if limit is not None:  # pot limit: at most the pot; fixed limit: the one size (keyed as none)
                    amount = None if fixed else min(amount, limit)
                if amount is not None and amount >= bet + stack:
                    name, amount = "allin", None
            elif to_call and roll < self.bot.fold_rate and (len(live) > 2 or self.bot.fold_heads_up):
                name = "fold"
            if name in AMOUNT_ACTIONS:
                raises += 1
            self.emit(Button(t=self.tick(self.bot.seconds_per_action), name=ButtonName(name), seat=seat,
                             amount=amount))
        return list(core.live_seats())

def _deal_order(button: int, seats: Sequence[int]) -> list[int]:
    ordered = sorted(seats)
    after = [s for s in ordered if s > button] + [s for s in ordered if s <= button]
    if len(ordered) == 2:
        other = next(s for s in ordered if s != button)
        return [other, button]
    return after

