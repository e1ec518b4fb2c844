"""Chip accounting for one hand: blinds and antes, bets, the minimum bet and raise, pots and side pots.

Pure: the engine calls it at each action press once stacks are known (a `stacks` event); without
stacks the table keeps no amounts and nothing here runs. Amounts are whole chips. A bet, raise or
all-in is a total "to" for the betting round, as in the exchange format.

>>> chips = HandChips(order=(2, 3, 1), stacks={1: 1000, 2: 1000, 3: 300}, blinds=(2, 3),
...                   level=Stakes(small=50, big=100), raise_rule="increment")
>>> chips.pot_total(), chips.behind[3]
(150, 200)
>>> chips.act(1, "raise", 300).to, chips.act(2, "call", None).put, chips.act(3, "allin", None).to
(300, 250, 300)
>>> [(pot.amount, pot.seats) for pot in chips.pots()]
[(900, (2, 3, 1))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from firmware_py.core.game import Structure
from firmware_py.core.pots import Pot

__all__ = ["NO_LIMIT", "RAISE_RULES", "HandChips", "Limits", "Pot", "Problem", "Stakes", "TableChips", "Wager",
           "denominations_problem", "grouped"]

RAISE_RULES: Final = ("increment", "double_faced", "double_full_bet")
# Asked at every bet and raise, as module constants (phase.py); game.py leaves Structure's to its users.
POT_LIMIT: Final = Structure.POT_LIMIT
FIXED_LIMIT: Final = Structure.FIXED_LIMIT


def grouped(chips: int) -> str:
    """An amount as people read it, in groups of three digits: `f"{chips:,}"`.

    Said at every action (the seat's last action) and every blind posted: compiled, the format spec
    costs about ten times `str`, which says the same below a thousand, where most antes, blinds and bets are.

    >>> grouped(600), grouped(1250), grouped(-1250)
    ('600', '1,250', '-1,250')
    """
    return str(chips) if -1000 < chips < 1000 else format(chips, ",")


def denominations_problem(denominations: tuple[int, ...]) -> str:
    """What is wrong with a set of chip denominations ("" when nothing): each a whole number above zero, none
    twice, each a multiple of the smallest (the smallest chip makes up every other, every split is in it).

    >>> denominations_problem((25, 100, 500)), denominations_problem((25, 10))
    ('', 'the 25 chip is not a whole number of the smallest, 10: every chip must be made of the smallest')
    """
    if not denominations:
        return ""
    if any(chip < 1 for chip in denominations):
        return "a chip's value is a whole number above zero"
    if len(set(denominations)) != len(denominations):
        return "a chip is named twice"
    smallest = min(denominations)
    for chip in sorted(denominations):
        if chip % smallest:
            return (f"the {chip:,} chip is not a whole number of the smallest, {smallest:,}: every chip must be made "
                    "of the smallest")
    return ""


class Problem(StrEnum):
    """Why an amount was not taken as keyed."""

    UNDER_MINIMUM = "under_minimum"  # a ruling: the wager is brought up to the minimum
    NOT_REOPENED = "not_reopened"  # a ruling: the seat may only call or fold
    OVER_STACK = "over_stack"  # a notice: the press is not taken
    NOT_ABOVE_BET = "not_above_bet"  # a notice: the press is not taken
    CHECK_FACING_BET = "check_facing_bet"  # a notice: the press is not taken
    OVER_LIMIT = "over_limit"  # over the pot (pot limit) or the fixed size (fixed limit): not taken
    CAPPED = "capped"  # fixed limit: the round's raises are capped; a ruling, not taken
    FIXED_SIZE = "fixed_size"  # fixed limit: an amount keyed other than the fixed size; the fixed size is taken
    NOT_IN_CHIPS = "not_in_chips"  # a notice: an amount no chips in play make up (not a multiple of the smallest)


@dataclass(frozen=True, kw_only=True, slots=True)
class Limits:
    """The game's betting structure, as the chips apply it.

    >>> chips = HandChips(order=(2, 3, 1), stacks={1: 1000, 2: 1000, 3: 1000}, blinds=(2, 3),
    ...                   level=Stakes(small=50, big=100), limits=Limits(structure=Structure.POT_LIMIT))
    >>> chips.max_to(1)  # the call (100) and the pot after it (350): a raise to 350
    350
    """

    structure: Structure = Structure.NO_LIMIT
    sizes: tuple[int, ...] = ()  # fixed limit: the bet of each betting round, in chips
    raise_cap: int = 0  # fixed limit: the raises a round allows after the bet
    cap_heads_up: bool = False  # fixed limit: the cap holds heads-up too (else raising is unlimited there)


NO_LIMIT: Final = Limits()


@dataclass(frozen=True, kw_only=True, slots=True)
class Stakes:
    """The blind level in force: small and big blind, the ante every dealt player posts, and the
    big-blind ante (`bb_ante`): one forced bet the big blind posts for the whole table, dead money.

    A level carries `ante` or `bb_ante`, not both (the session reader and the blind schedule refuse both).
    """

    small: int
    big: int
    ante: int = 0
    bb_ante: int = 0

    def label(self) -> str:
        """'50/100', '50/100 ante 10', '100/200 BB ante 200': the level as the screens show it."""
        return (f"{self.small:,}/{self.big:,}" + (f" ante {self.ante:,}" if self.ante else "")
                + (f" BB ante {self.bb_ante:,}" if self.bb_ante else ""))


# One of the two records made at every press (with hand.py's `Taken`): read-only by its `Final` fields (see the
# note in events.py); the undo checkpoints (engine.py) share it, never copy it, as a frozen one.


@dataclass(kw_only=True, slots=True, unsafe_hash=True)  # unsafe_hash: hashable as a frozen one (the fields are Final)
class Wager:
    """One action as the chips saw it. `taken` False: the press changes nothing (see `problem`)."""

    seat: Final[int]
    name: Final[str]  # fold, check, call, bet, raise, allin: what the action really was
    to: Final[int]  # the seat's total bet this round after the action
    put: Final[int]  # chips put in by this action
    allin: Final[bool]  # False unless given
    raises: Final[bool]  # the bet to call went up: the others must act again (False unless given)
    taken: Final[bool]  # True unless given
    problem: Final[Problem | None]  # None unless given
    keyed: Final[int | None]  # the amount keyed, when it was corrected or refused (None unless given)
    minimum: Final[int | None]  # the minimum that applied (None unless given)

    # A taken action's six fields by position too (`_apply`, at every action: see the note in events.py).
    def __init__(self, seat: int, name: str, to: int, put: int, allin: bool = False,  # noqa: PLR0917 (as said)
                 raises: bool = False, *, taken: bool = True, problem: Problem | None = None,
                 keyed: int | None = None, minimum: int | None = None) -> None:
        self.seat = seat
        self.name = name
        self.to = to
        self.put = put
        self.allin = allin
        self.raises = raises
        self.taken = taken
        self.problem = problem
        self.keyed = keyed
        self.minimum = minimum

    def label(self) -> str:
        """The last action as a player sees it: 'raise 600', 'call 600', 'all in 1,250', 'fold'."""
        if self.name in ("fold", "check"):
            return self.name
        if self.allin:
            return f"all in {grouped(self.to)}"
        return f"{self.name} {grouped(self.to)}"  # the seat's total for the round, as the chips in front of it


@dataclass(kw_only=True, slots=True)
class HandChips:
    """Stacks, bets and pots of one hand. `order` is the deal order: first seat left of the button first."""

    order: tuple[int, ...]
    stacks: Mapping[int, int]
    blinds: tuple[int | None, int | None]  # small blind seat, big blind seat
    level: Stakes
    raise_rule: str = "increment"
    # RPL Tournaments 19: "You must have at least 1 chip after posting ante's to be considered a live person":
    # a seat that cannot post its ante (the big blind: blind and big-blind ante) and keep a chip is out, its
    # chips dead money in the pot (`eliminated`).
    ante_leaves_a_chip: bool = False
    # The smallest chip in play (Ties: "An odd chip will be broken down to the smallest unit used in the game"):
    # pots split in it, an odd chip is one of it. 1 when the table was not told the chips in play.
    unit: int = 1
    # The hand's accounting, set by `__init__` (the forced bets posted) and the actions after it:
    eliminated: list[int] = field(init=False)
    behind: dict[int, int] = field(init=False)  # chips not yet put in
    committed: dict[int, int] = field(init=False)  # chips put in this hand (antes included)
    # Dead money: the big-blind ante, in the main pot whoever is all in for how much (it is not part of the
    # big blind's bet and matches nothing). Antes every player posts stay in `committed` as live money.
    dead: dict[int, int] = field(init=False)
    short: dict[int, str] = field(init=False)  # seats that posted a blind or ante short: what, for the ruling
    street_bet: dict[int, int] = field(init=False)  # chips put in this betting round
    current: int = field(init=False)  # the bet to call this round
    increment: int = field(init=False)  # the last full bet or raise increment (at least the big blind)
    full_bet: int = field(init=False)  # the last bet that was a full bet or raise (partial all-ins do not move it)
    acted_at: dict[int, int] = field(init=False)  # the bet to call when each seat last acted
    pending: int = field(init=False)  # partial all-in raises since the last full one (they add up, No-Limit 4)
    raised_by: int = field(init=False)  # the largest bet or raise increment made this round (the blinds are not one)
    out: set[int] = field(init=False)  # folded or dead: chips stay in, no claim on any pot
    last: dict[int, str] = field(init=False)  # each seat's last action, for the screens
    awarded: tuple[Pot, ...] = field(init=False)
    settled: bool = field(init=False)
    log: list[Wager] = field(init=False)  # every action taken, in order (for the hand history)
    limits: Limits = NO_LIMIT
    round_index: int = field(init=False)  # betting rounds ended so far (0: pre-flop)
    # full bets and raises this round (fixed limit: against the cap; the big blind is the first)
    bets: int = field(init=False)
    capped: bool = field(init=False)  # fixed limit: the cap was reached with three or more not all in (it stays)

    def __init__(self, order: tuple[int, ...], stacks: Mapping[int, int], blinds: tuple[int | None, int | None],
                 level: Stakes, *, raise_rule: str = "increment", limits: Limits = NO_LIMIT,
                 ante_leaves_a_chip: bool = False, unit: int = 1) -> None:
        """The hand's chips with its antes and blinds posted. Written out, not generated: one is made at every
        hand, and mypyc compiles a written `__init__` (see the note in events.py)."""
        if raise_rule not in RAISE_RULES:
            raise ValueError(f"unknown raise rule {raise_rule!r}: one of {', '.join(RAISE_RULES)}")
        self.order, self.stacks, self.blinds, self.level = order, stacks, blinds, level
        self.raise_rule, self.limits, self.ante_leaves_a_chip = raise_rule, limits, ante_leaves_a_chip
        self.unit = unit
        self.eliminated, self.dead, self.short, self.acted_at = [], {}, {}, {}
        self.current = self.increment = self.full_bet = self.pending = self.raised_by = 0
        self.out, self.last, self.awarded, self.settled, self.log = set(), {}, (), False, []
        self.round_index, self.bets, self.capped = 0, 0, False
        behind: dict[int, int] = {}
        committed: dict[int, int] = {}
        street_bet: dict[int, int] = {}
        self.behind, self.committed, self.street_bet = behind, committed, street_bet
        if not order:  # no seats: nothing posted, no bet (the blank that `copy` fills in, field by field)
            return
        for seat in order:  # (one loop, not dict.fromkeys: compiled, that is a call through Python)
            behind[seat] = int(stacks[seat])
            committed[seat] = 0
            street_bet[seat] = 0  # the antes are no bet of the round
        forced: dict[int, list[tuple[str, int, int]]] = {}  # seat -> (what, posted, owed)
        shorted: set[int] = set()  # seats that posted less than they owed: `short` says what for them
        small, big = self.blinds
        if self.ante_leaves_a_chip and (self.level.ante or self.level.bb_ante):
            for seat in self.order:
                owed = self.level.ante + (self.level.big + self.level.bb_ante if seat == big else 0)
                if self.behind[seat] <= owed and (self.level.ante or seat == big):
                    self.dead[seat] = self.behind[seat]
                    self._put(seat, self.behind[seat])
                    self.out.add(seat)
                    self.eliminated.append(seat)
                    self.last[seat] = "out: chips in the pot"
        ante = self.level.ante
        if ante:
            behind, committed, last, eliminated = self.behind, self.committed, self.last, self.eliminated
            full = f"ante {grouped(ante)}"  # what most seats post: said once
            for seat in self.order:  # (`_put` and `min` written out: every seat, every hand)
                if eliminated and seat in eliminated:
                    continue
                put = ante if behind[seat] >= ante else behind[seat]
                behind[seat] -= put
                committed[seat] += put
                last[seat] = full if put == ante else f"ante {grouped(put)}"
                forced[seat] = [("ante", put, ante)]
                if put < ante:
                    shorted.add(seat)
        posts: tuple[tuple[int | None, int, str], ...] = (
            (small, self.level.small, "small blind"), (big, self.level.big, "big blind"))
        for poster, blind, word in posts:
            if poster is not None and poster in self.behind and poster not in self.eliminated:
                put = min(blind, self.behind[poster])
                self._put(poster, put)
                self.street_bet[poster] += put
                self.last[poster] = f"{word} {grouped(put)}"
                forced.setdefault(poster, []).append((word, put, blind))
                if put < blind:
                    shorted.add(poster)
        if self.level.bb_ante and big is not None and big in self.behind and big not in self.eliminated:
            # The big blind first, then the ante from what is left (TDA rules since 2024, the WSOP's): a big
            # blind short of both posts the whole blind and antes less. The ante is dead money.
            put = min(self.level.bb_ante, self.behind[big])
            self._put(big, put)
            self.dead[big] = put
            self.last[big] = f"big blind {grouped(self.street_bet[big])} + ante {grouped(put)}"
            forced.setdefault(big, []).append(("big-blind ante", put, self.level.bb_ante))
            if put < self.level.bb_ante:
                shorted.add(big)
        if shorted:  # (rare) in the order the seats posted
            for seat, posts_made in forced.items():
                if seat in shorted:
                    self.short[seat] = ", ".join(f"{what} {posted:,}" + (f" of {owed:,}" if posted < owed else "")
                                                 for what, posted, owed in posts_made if posted or owed)
        # The minimum bring-in stays the big blind even when the big blind cannot post it in full.
        self.current = self.level.big if big is not None else max(self.street_bet.values(), default=0)
        self.full_bet = self.current
        self.increment = self.fixed_size() or self.level.big
        self.bets = 1 if self.current else 0

    def copy(self) -> HandChips:
        """A copy sharing nothing mutable (an undo checkpoint), written out (compiled, it is some twenty times
        the generic copy's speed). Made from the chips of a hand with no seats, which posts nothing and returns
        early (compiled, `__new__` runs `__init__` too), then every field copied over: a field left out here
        keeps the empty hand's value, and the copy fails to compare equal (tests/rules/test_core_state.py)."""
        new = HandChips((), {}, (None, None), self.level)  # (order, stacks, blinds, level): by position, see events.py
        new.order, new.stacks, new.blinds, new.level = self.order, dict(self.stacks), self.blinds, self.level
        new.raise_rule, new.ante_leaves_a_chip, new.unit = self.raise_rule, self.ante_leaves_a_chip, self.unit
        new.eliminated, new.behind, new.committed = self.eliminated.copy(), self.behind.copy(), self.committed.copy()
        new.dead, new.short, new.street_bet = self.dead.copy(), self.short.copy(), self.street_bet.copy()
        new.current, new.increment, new.full_bet = self.current, self.increment, self.full_bet
        new.acted_at, new.pending, new.raised_by = self.acted_at.copy(), self.pending, self.raised_by
        new.out, new.last, new.awarded, new.settled = self.out.copy(), self.last.copy(), self.awarded, self.settled
        new.log, new.limits, new.round_index = self.log.copy(), self.limits, self.round_index
        new.bets, new.capped = self.bets, self.capped
        return new

    # ------------------------------------------------------------------------------------------
    # Reading

    def pot_total(self) -> int:
        return sum(self.committed.values())

    def to_call(self, seat: int) -> int:
        return max(0, min(self.current - self.street_bet[seat], self.behind[seat]))

    def fixed_size(self) -> int:
        """Fixed limit: the bet of this betting round (0 for the big-bet games)."""
        sizes = self.limits.sizes
        return sizes[min(self.round_index, len(sizes) - 1)] if sizes else 0

    def max_to(self, seat: int) -> int | None:
        """The largest bet or raise (a total for the round) the game allows the seat; None: no limit but the stack.

        Pot limit: the bet faced, called, and the pot after the call. Fixed limit: the fixed size.
        """
        structure = self.limits.structure
        if structure is POT_LIMIT:
            return self.current + self.pot_total() + (self.current - self.street_bet[seat])
        if structure is FIXED_LIMIT:
            return self.min_to()
        return None

    def cap_reached(self) -> bool:
        """Fixed limit: the bet and its raises are capped this round (unlimited heads-up, if the house says so)."""
        limits = self.limits
        if limits.structure is not FIXED_LIMIT or self.bets < 1 + limits.raise_cap:
            return False
        if self.capped or limits.cap_heads_up:
            return True
        return len([seat for seat in self.live() if self.behind[seat] > 0]) > 2

    def min_to(self) -> int:
        """The smallest legal bet or raise (a total for the round), by the profile's raise rule."""
        size = self.fixed_size()
        if size:  # fixed limit: the bet, or the last full bet and one more
            return self.full_bet + size if self.current else size
        if self.current == 0:
            return self.level.big
        if self.raise_rule == "double_faced":
            return 2 * self.current
        if self.raise_rule == "double_full_bet":
            return max(self.full_bet + self.increment, self.current + self.unit)
        return self.current + self.increment

    def may_raise(self, seat: int) -> bool:
        """False when the seat acted and has since faced only all-ins short of a full raise (fixed limit: short
        of half a bet, Robert's Betting and Raising 6: a larger one is a full bet and reopens the betting)."""
        if seat not in self.acted_at:
            return True
        if self.acted_at[seat] == self.current == 0:
            return True
        if self.fixed_size():
            return self.full_bet > self.acted_at[seat]
        return self.current - self.acted_at[seat] >= self.increment

    def live(self) -> list[int]:
        return [seat for seat in self.order if seat not in self.out]


    # ------------------------------------------------------------------------------------------
    # Acting

    def _put(self, seat: int, chips: int) -> None:
        self.behind[seat] -= chips
        self.committed[seat] += chips

    def act(self, seat: int, name: str, amount: int | None) -> Wager:
        """Apply one action press; illegal amounts come back with a `problem`, never an exception."""
        if name == "fold":
            self.out.add(seat)
            self.acted_at[seat] = self.current
            self.last[seat] = "fold"
            self.log.append(Wager(seat, "fold", self.street_bet[seat], 0))  # (seat, name, to, put): see _apply
            return self.log[-1]
        owe = self.current - self.street_bet[seat]
        stack_to = self.street_bet[seat] + self.behind[seat]
        if name == "check":
            if owe > 0 and self.behind[seat] > 0:
                return Wager(seat=seat, name="check", to=self.street_bet[seat], put=0, taken=False,
                             problem=Problem.CHECK_FACING_BET, minimum=self.current)
            return self._apply(seat, "check", self.street_bet[seat])
        if name == "call":
            return self._apply(seat, "call" if owe > 0 else "check", min(self.current, stack_to))
        word = "bet" if self.current == 0 else "raise"
        if amount is not None and amount % self.unit and name != "allin" and self.limits.structure is not FIXED_LIMIT:
            return Wager(seat=seat, name=word, to=self.street_bet[seat], put=0, taken=False,
                         problem=Problem.NOT_IN_CHIPS, keyed=amount, minimum=self.unit)
        limit = self.max_to(seat)
        raising = name != "allin" or stack_to > self.current
        if raising and self.cap_reached():
            return Wager(seat=seat, name=word, to=self.street_bet[seat], put=0, taken=False,
                         problem=Problem.CAPPED, keyed=amount, minimum=self.current)
        if name == "allin":
            if limit is not None and stack_to > limit:
                return Wager(seat=seat, name="allin", to=self.street_bet[seat], put=0, taken=False,
                             problem=Problem.OVER_LIMIT, keyed=stack_to, minimum=limit)
            return self._apply(seat, "allin", stack_to)
        # bet or raise: a total to; none keyed means the minimum
        minimum = self.min_to()
        fixed = self.limits.structure is FIXED_LIMIT
        if (amount is None or fixed) and minimum < stack_to and not self.may_raise(seat):
            return Wager(seat=seat, name=word, to=self.street_bet[seat], put=0, taken=False,
                         problem=Problem.NOT_REOPENED, keyed=amount, minimum=self.current)
        if amount is None:
            return self._apply(seat, word, min(minimum, stack_to))
        if fixed:  # one size: whatever was keyed, the bet is the fixed one
            wager = self._apply(seat, word, min(minimum, stack_to))
            if amount == wager.to:
                return wager
            return Wager(seat=seat, name=wager.name, to=wager.to, put=wager.put, allin=wager.allin,
                         raises=wager.raises, problem=Problem.FIXED_SIZE, keyed=amount, minimum=wager.to)
        if limit is not None and amount > limit and amount <= stack_to:
            return Wager(seat=seat, name=word, to=self.street_bet[seat], put=0, taken=False,
                         problem=Problem.OVER_LIMIT, keyed=amount, minimum=limit)
        if amount > stack_to:
            return Wager(seat=seat, name=word, to=self.street_bet[seat], put=0, taken=False,
                         problem=Problem.OVER_STACK, keyed=amount, minimum=stack_to)
        if amount <= self.current:
            return Wager(seat=seat, name=word, to=self.street_bet[seat], put=0, taken=False,
                         problem=Problem.NOT_ABOVE_BET, keyed=amount, minimum=self.current)
        if not self.may_raise(seat) and amount < stack_to:
            return Wager(seat=seat, name=word, to=self.street_bet[seat], put=0, taken=False,
                         problem=Problem.NOT_REOPENED, keyed=amount, minimum=self.current)
        if amount < minimum and amount < stack_to:
            wager = self._apply(seat, word, min(minimum, stack_to))
            return Wager(seat=seat, name=wager.name, to=wager.to, put=wager.put, allin=wager.allin,
                         raises=wager.raises, problem=Problem.UNDER_MINIMUM, keyed=amount, minimum=minimum)
        return self._apply(seat, word, amount)

    def _apply(self, seat: int, name: str, to: int) -> Wager:
        put = to - self.street_bet[seat]
        behind = self.behind[seat] - put  # `_put`, written out: here at every action
        self.behind[seat] = behind
        self.committed[seat] += put
        self.street_bet[seat] = to
        allin = behind == 0 and put > 0
        raises = to > self.current
        if raises:
            raised_by = to - self.current
            self.raised_by = max(self.raised_by, raised_by)
            size = self.fixed_size()
            # Fixed limit: an all-in of half a bet or more (over the last full bet) is a full bet (Betting and
            # Raising 6): the next raise is a bet more than it, and it reopens the betting.
            full = to >= self.min_to() or (size > 0 and 2 * (to - self.full_bet) >= size)
            if full:
                base = self.full_bet if self.raise_rule == "double_full_bet" else self.current
                self.increment = size or max(to - base, self.level.big)
                self.full_bet = to
                self.pending = 0
                self.bets += 1
                self.capped = self.capped or self.cap_reached()
            else:
                # A short all-in. Several of them reopen the betting once they add up to a full
                # raise (No-Limit 4); pokerkit and the rulebooks measure the next raise from it.
                self.pending += raised_by
                if self.raise_rule == "increment":
                    self.increment = max(self.increment, raised_by)
                if self.pending >= self.increment:
                    self.full_bet, self.pending = to, 0
            self.current = to
            if name in ("call", "check"):
                name = "allin"
        if allin:
            name = "allin"
        self.acted_at[seat] = self.current
        # By position, in field order (see the note in events.py): a wager is made at every action.
        wager = Wager(seat, name, to, put, allin, raises)
        self.last[seat] = wager.label()
        self.log.append(wager)
        return wager

    def end_round(self) -> None:
        """The betting round is over: the next one starts with no bet."""
        street_bet = self.street_bet
        for seat in street_bet:  # in place, not dict.fromkeys: compiled, that is a call through Python
            street_bet[seat] = 0
        self.current = 0
        self.full_bet = 0
        self.pending = 0
        self.acted_at = {}
        self.raised_by = 0
        self.round_index += 1
        self.increment = self.fixed_size() or self.level.big
        self.bets = 0
        self.capped = False

    def fold_out(self, seats: Iterable[int]) -> None:
        """Hands folded, ruled dead or gone: their chips stay in the pot."""
        self.out.update(seats)

    # ------------------------------------------------------------------------------------------
    # Pots

    def pots(self) -> list[Pot]:
        """The main pot and side pots from what each seat put in; a level only one seat reached is returned to it.

        Dead money (the big-blind ante) is in the main pot, whoever is all in for how much: it matches no bet.
        """
        live = self.live()
        behind, dead = self.behind, self.dead
        if live and all(map(behind.__getitem__, live)):  # nobody still in is all in: one pot, every live seat's
            total = sum(self.committed.values())  # (what the levels below come to when no all-in cuts them)
            return [Pot(total, tuple(live))] if total else []
        paid = {seat: chips - dead.get(seat, 0) for seat, chips in self.committed.items()} if dead else self.committed
        # A pot ends where an all-in seat's chips end; the rest of the chips are the last pot (ending at the most
        # any seat paid, the last level). Plain loops, not generators: a pot is counted at every hand's end.
        most = max(paid.values(), default=0)
        ends = {paid[seat] for seat in live if behind[seat] == 0 and paid[seat]}
        ends.add(most)
        ends.discard(0)
        pots: list[Pot] = []
        floor = 0
        for level in sorted(ends):
            amount = 0
            for chips in paid.values():  # what each seat put in above the last level, up to this one
                if chips > floor:
                    amount += min(chips, level) - floor
            if floor == 0:
                amount += sum(dead.values())
            # A seat still in with chips behind can yet match any level: it is in every pot.
            seats = tuple([seat for seat in live if paid[seat] >= level or behind[seat] > 0])
            if amount > 0 and not seats:
                # Chips above every live seat's all in, put in by seats that then folded (a small blind over a
                # big blind all in for less, folding): no one called them, so each gets its own back.
                for seat, chips in paid.items():
                    if chips > floor:
                        pots.append(Pot(min(chips, level) - floor, (seat,)))  # (amount, seats): see events.py
                floor = level
                continue
            floor = level
            if amount <= 0:
                continue
            if pots and pots[-1].seats == seats:
                pots[-1] = Pot(pots[-1].amount + amount, seats)  # (amount, seats), by position: see events.py
            else:
                pots.append(Pot(amount, seats))
        if not pots and self.pot_total():
            pots.append(Pot(amount=self.pot_total(), seats=tuple(live)))
        return pots

    def award(self, best: Callable[[Sequence[int]], Sequence[int]],
              low: Callable[[Sequence[int]], Sequence[int]] | None = None) -> tuple[Pot, ...]:
        """Award every pot to the best of its seats (`best` reads hands); a split is made in the smallest chip.

        Ties (every book): "An odd chip will be broken down to the smallest unit used in the game" (`unit`),
        "No player may receive more than one odd chip", and in a button game the first hand clockwise from
        the button gets it; each pot is split separately (side pots and the main pot are not mixed). A pot of
        375 split two ways with 25 the smallest chip is 200 and 175, the odd 25 to the first winner clockwise.

        >>> chips = HandChips(order=(2, 3, 1), stacks={1: 1000, 2: 1000, 3: 1000}, blinds=(2, 3),
        ...                   level=Stakes(small=25, big=50), unit=25)
        >>> _ = chips.act(1, "raise", 125), chips.act(2, "call", None), chips.act(3, "call", None)
        >>> chips.fold_out([3]); [(pot.shares, pot.odd_chips, pot.chip) for pot in chips.award(list)]
        [(((2, 200), (1, 175)), (2,), 25)]

        A high-low split game (`low` reads the low hands; none qualifying: ()): the pot is halved, "the high hand
        receives the odd chip in a split between the high and the low hands" (Robert's Ties 5(c)), and each half
        is split among its tied hands as above. Here seat 1 has the high, seats 1 and 2 tie for the low: of 150 in
        25 chips, the high half is 75 to seat 1, the low half 75 is 50 and 25, its odd chip to seat 2 (first
        clockwise from the button): seat 1 is quartered on the low and takes 100.

        >>> chips = HandChips(order=(2, 3, 1), stacks={1: 1000, 2: 1000, 3: 1000}, blinds=(2, 3),
        ...                   level=Stakes(small=25, big=50), unit=25)
        >>> _ = chips.act(1, "call", None), chips.act(2, "call", None), chips.act(3, "check", None)
        >>> [(pot.winners, pot.low_winners, pot.shares) for pot in chips.award(lambda s: (1,), lambda s: (1, 2))]
        [((1,), (2, 1), ((2, 50), (1, 100)))]
        """
        awarded: list[Pot] = []
        for pot in self.pots():
            winners = pot.seats if len(pot.seats) == 1 else tuple(best(pot.seats))
            # clockwise from the button (a pot's seats are the hand's: one winner is in the order)
            ordered = [seat for seat in self.order if seat in winners] if len(winners) > 1 else list(winners)
            # A pot no chips in play make up (stacks given before the table knew its chips) splits in single units.
            unit = self.unit if pot.amount % self.unit == 0 else 1
            lows = tuple(low(pot.seats)) if low is not None and len(pot.seats) > 1 else ()
            if not lows:
                share, odd = divmod(pot.amount // unit, len(ordered))
                shares = tuple([(seat, (share + 1 if index < odd else share) * unit)
                                for index, seat in enumerate(ordered)])
                odd_chips = tuple(ordered[:odd])
            else:
                shares, odd_chips = self._split_high_low(pot.amount // unit, unit, ordered, lows)
            for seat, chips in shares:
                self.behind[seat] += chips
            # (amount, seats, winners, shares, odd_chips, chip, low_winners), by position: see events.py
            awarded.append(Pot(pot.amount, pot.seats, tuple(ordered), shares, odd_chips, unit,
                               tuple([seat for seat in self.order if seat in lows])))
        self.awarded = tuple(awarded)
        self.settled = True
        return self.awarded

    def _split_high_low(self, units: int, unit: int, high: Sequence[int],
                        lows: Sequence[int]) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
        """A pot of `units` chips halved between the high hands and the low hands: the odd chip between the halves
        to the high, then each half split among its ties, its odd chip to the first clockwise from the button."""
        low_ordered = [seat for seat in self.order if seat in lows]
        high_units = units - units // 2  # the high half takes the odd chip between the halves
        won: dict[int, int] = {}
        odd_chips: list[int] = []
        for half, seats in ((high_units, high), (units // 2, low_ordered)):
            share, odd = divmod(half, len(seats))
            for index, seat in enumerate(seats):
                won[seat] = won.get(seat, 0) + (share + 1 if index < odd else share) * unit
            odd_chips += [seat for seat in seats[:odd] if seat not in odd_chips]
        ordered = [seat for seat in self.order if seat in won]
        return tuple([(seat, won[seat]) for seat in ordered]), tuple(odd_chips)

    def refund(self) -> None:
        """All action void (a misdeal or a void hand): every chip goes back."""
        for seat, chips in self.committed.items():
            self.behind[seat] += chips
            self.committed[seat] = 0
        self.dead = {}
        self.settled = True

    def final_stacks(self) -> dict[int, int]:
        return dict(self.behind)


@dataclass(kw_only=True, slots=True)
class TableChips:
    """The table's chips across hands: stacks between hands, the blind level, and the hand in play.

    Off until the first `stacks` event: a session without stacks keeps no amounts at all.
    """

    stacks: dict[int, int] = field(default_factory=dict)
    level: Stakes | None = None
    waiting: dict[int, int] = field(default_factory=dict)  # stacks given during a hand: for the next one
    hand: HandChips | None = None
    # The chip denominations in play, smallest first (a setup's `denominations`; a color-up takes one off):
    # () when the table was not told them, every amount then in single units.
    denominations: tuple[int, ...] = ()

    def __init__(self, stacks: dict[int, int] | None = None, level: Stakes | None = None,
                 waiting: dict[int, int] | None = None, hand: HandChips | None = None,
                 denominations: tuple[int, ...] = ()) -> None:
        # copied at every hand's undo checkpoint: written out for mypyc (see the note in events.py)
        self.stacks = {} if stacks is None else stacks
        self.level = level
        self.waiting = {} if waiting is None else waiting
        self.hand = hand
        self.denominations = denominations

    def copy(self) -> TableChips:
        """A copy sharing nothing mutable (an undo checkpoint)."""
        return TableChips(self.stacks.copy(), self.level, self.waiting.copy(),  # by position: see events.py
                          self.hand.copy() if self.hand is not None else None, self.denominations)

    @property
    def unit(self) -> int:
        """The smallest chip in play: every split, odd chip, stack, blind and ante is made of it (1: not told)."""
        return self.denominations[0] if self.denominations else 1

    def not_in_chips(self, amounts: Iterable[tuple[str, int]]) -> list[str]:
        """The amounts (what, chips) that no chips in play make up: not a multiple of the smallest chip.

        >>> TableChips(denominations=(25, 100)).not_in_chips([("seat 3", 13), ("seat 4", 1500)])
        ['seat 3 13']
        """
        unit = self.unit
        return [f"{what} {grouped(chips)}" for what, chips in amounts if chips % unit]

    def color_up(self, chip: int, to: int) -> None:
        """A color-up: `chip` leaves the table, `to` is in play (WFP Tournament Procedures 6: "The lowest
        denomination of chip in play will be removed from the table"); the smallest chip changes with it."""
        if self.denominations:
            self.denominations = tuple(sorted({*self.denominations, to} - {chip}))

    @property
    def on(self) -> bool:
        return bool(self.stacks or self.waiting)

    def set_stacks(self, pairs: Sequence[tuple[int, int]]) -> str | None:
        """New stacks; during a hand they wait for the next one (the message says so)."""
        if self.hand is not None and not self.hand.settled:
            self.waiting.update(pairs)
            return "stacks given during a hand: they apply from the next hand"
        self.finish()  # the last hand's stacks first, then the new ones over them
        self.hand = None
        self.stacks.update(pairs)
        return None

    def stack_now(self, seat: int) -> int | None:
        """A seat's chips behind now: the hand's count while one is dealt (its final count once settled)."""
        if self.hand is not None and seat in self.hand.behind:
            return self.hand.behind[seat]
        return self.stacks.get(seat)

    def broke(self, seats: Iterable[int]) -> list[int]:
        """The seats (of those given) with no chips for the next hand, once stacks are counted."""
        if not self.on:
            return []
        stacks = {**self.stacks, **self.waiting}
        if 0 not in stacks.values():  # (every hand asks: most have nobody broke)
            return []
        return sorted([seat for seat in seats if stacks.get(seat) == 0])

    def start_hand(self, order: Sequence[int], blinds: tuple[int | None, int | None],
                   raise_rule: str, *, limits: Limits = NO_LIMIT,
                   ante_leaves_a_chip: bool = False) -> str | None:
        """Post antes and blinds for a new hand; a message when chips cannot be counted for it.

        `limits` is the game's betting structure, fixed limit's sizes given in big blinds (1, 1, 2, 2).
        """
        message = self.finish()
        self.hand = None
        if not self.on:
            return message
        self.stacks.update(self.waiting)
        self.waiting = {}
        if not self.stacks.keys() >= set(order):  # (rare: asked as one set test, at every hand)
            missing = [seat for seat in order if seat not in self.stacks]
            return f"no stack for seat {', '.join(map(str, missing))}: chips are not counted this hand"
        level = self.level or Stakes(small=0, big=0)
        if limits.structure is FIXED_LIMIT:  # the small bet is the big blind, the big bet twice it
            limits = Limits(structure=limits.structure, sizes=tuple(level.big * n for n in limits.sizes),
                            raise_cap=limits.raise_cap, cap_heads_up=limits.cap_heads_up)
        self.hand = HandChips(order=tuple(order), stacks=self.stacks, blinds=blinds, level=level,
                              raise_rule=raise_rule, limits=limits,
                              ante_leaves_a_chip=ante_leaves_a_chip, unit=self.unit)
        if 0 in self.stacks.values():  # (rare)
            broke = [seat for seat in order if self.stacks[seat] == 0]
            if broke:
                return f"seat {', '.join(map(str, broke))} has no chips: take the seat out or give it a stack"
        return message

    def finish(self) -> str | None:
        """Carry the hand's stacks over; chips of a hand that was never awarded go back."""
        hand = self.hand
        if hand is None:
            return None
        message = None
        if not hand.settled:
            hand.refund()
            message = "the last hand ended with its pot not awarded: every chip went back to its seat"
        self.stacks.update(hand.final_stacks())
        return message
