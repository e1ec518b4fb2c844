"""Deals: the players left agree to split the prize money still to be paid, and may leave an amount to be played
for (the winner takes it). Pure: stacks and prizes in, each player's share out, exact (fractions), then rounded to the
house's unit with what the rounding leaves to the biggest stack (so the shares add up to the money split).

- ICM (the Independent Chip Model, Malmuth-Harville): a player finishes first with the chance of its share of the
  chips; given who finished above, next with its share of the chips left; a player's equity is each place's prize
  times the chance of finishing there. `icm` runs Harville's recursion over who is left (each subset once).
- chip-chop: each player is sure of the smallest prize still to be paid; the rest is shared by chips.
- custom: the amounts the players name, adding up to the money split.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

METHODS = ("icm", "chip-chop", "custom")


def icm(stacks: Sequence[int], prizes: Sequence[int | Fraction]) -> list[Fraction]:
    """Each player's ICM equity (Malmuth-Harville) with `stacks` for `prizes` (first place first; places past the
    last prize pay 0). Exact fractions; every stack above zero."""
    n = len(stacks)
    if n == 0 or any(s <= 0 for s in stacks):
        raise ValueError(f"stacks {list(stacks)}: every player left has chips")
    paid = [Fraction(p) for p in prizes[:n]] + [Fraction(0)] * max(0, n - len(prizes))
    memo: dict[int, list[Fraction]] = {}

    def rest(mask: int, place: int) -> list[Fraction]:
        """The equities of the players in `mask` for the prizes from `place` on (the others finished above)."""
        if mask in memo:
            return memo[mask]
        out = [Fraction(0)] * n
        members = [i for i in range(n) if mask >> i & 1]
        total = sum(stacks[i] for i in members)
        if place >= n or all(p == 0 for p in paid[place:]):
            memo[mask] = out
            return out
        for j in members:
            chance = Fraction(stacks[j], total)
            out[j] += chance * paid[place]
            below = rest(mask & ~(1 << j), place + 1)
            for i in members:
                if i != j:
                    out[i] += chance * below[i]
        memo[mask] = out
        return out

    return rest((1 << n) - 1, 0)


def chip_chop(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player the smallest prize still to be paid (place n of n players left), the rest by chips."""
    n = len(stacks)
    if n == 0 or any(s <= 0 for s in stacks):
        raise ValueError(f"stacks {list(stacks)}: every player left has chips")
    paid = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    floor = paid[n - 1]
    rest = sum(paid) - n * floor
    total = sum(stacks)
    return [floor + Fraction(rest * s, total) for s in stacks]


def rounded(shares: Sequence[Fraction], stacks: Sequence[int], total: int, unit: int) -> list[int]:
    """Shares rounded down to `unit`; what is left of `total` goes to the biggest stack (the first of equal ones)."""
    out = [int(s // unit) * unit for s in shares]
    biggest = max(range(len(stacks)), key=lambda i: (stacks[i], -i))
    out[biggest] += total - sum(out)
    return out


@dataclass(frozen=True, kw_only=True, slots=True)
class Deal:
    method: str
    players: tuple[str, ...]
    stacks: tuple[int, ...]
    prizes: tuple[int, ...]  # the prizes still to be paid, first place first, before the deal
    play_for: int  # left out of the split: the winner of what is played on takes it
    shares: tuple[int, ...]  # each player's share (rounded), adding up to sum(prizes) - play_for
    exact: tuple[Fraction, ...]


def make_deal(method: str, *, players: Sequence[str], stacks: Sequence[int], prizes: Sequence[int],
              play_for: int = 0, unit: int = 1, custom: Mapping[str, int] | None = None) -> Deal:
    """The deal the players left agree on: the prizes of their places (first first) less `play_for`, split by the
    method (ValueError saying what does not fit)."""
    n = len(players)
    if n < 2 or len(stacks) != n:
        raise ValueError("a deal is among two players or more, each with its stack")
    paid = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    money = sum(paid)
    if not 0 <= play_for <= paid[0] - (paid[1] if n > 1 else 0):
        raise ValueError(f"{play_for:,} to play for: at most what first place pays more than second "
                         f"({paid[0] - paid[1]:,})")
    split = money - play_for
    if method == "custom":
        amounts = dict(custom or {})
        if sorted(amounts) != sorted(players) or any(v < 0 for v in amounts.values()):
            raise ValueError(f"a custom deal names an amount of 0 or more for each of {list(players)}")
        if sum(amounts.values()) != split:
            raise ValueError(f"the amounts add up to {sum(amounts.values()):,}; the money split is {split:,}")
        exact = [Fraction(amounts[p]) for p in players]
        shares = [amounts[p] for p in players]
    else:
        # the amount played for comes off first place: the split is of the prizes less it
        less = [paid[0] - play_for, *paid[1:]]
        if method == "icm":
            exact = icm(stacks, less)
        elif method == "chip-chop":
            exact = chip_chop(stacks, less)
        else:
            raise ValueError(f"a deal by {method!r}: one of {', '.join(METHODS)}")
        shares = rounded(exact, stacks, split, unit)
    return Deal(method=method, players=tuple(players), stacks=tuple(stacks), prizes=tuple(paid), play_for=play_for,
                shares=tuple(shares), exact=tuple(exact))
