"""The payout table: each place's prize from the prize pool, with places shared by players eliminated on
the same hand with equal starting stacks (UPT Tournaments 35: equal prize money, the non-divisible rest to
the best hand on that deal)."""

from __future__ import annotations

from collections.abc import Sequence


def prizes(pool: int, percents: Sequence[float]) -> list[int]:
    """Each paid place's prize (place 1 first), rounded down; the rounding's rest goes to the winner."""
    if pool < 0:
        raise ValueError("the prize pool is negative")
    if any(p < 0 for p in percents) or sum(percents) > 100.0 + 1e-9:
        raise ValueError(f"payout percentages {list(percents)} must be at least 0 and add up to 100 at most")
    out = [int(pool * p // 100) for p in percents]
    if out and sum(percents) > 100.0 - 1e-9:
        out[0] += pool - sum(out)
    return out


def shared_prizes(table: Sequence[int], first: int, last: int) -> list[int]:
    """The prizes of places `first`..`last` shared equally; the rest of the division to the first listed
    (the best hand on that deal)."""
    paid = [table[p - 1] if p - 1 < len(table) else 0 for p in range(first, last + 1)]
    each, rest = divmod(sum(paid), len(paid))
    return [each + (rest if i == 0 else 0) for i in range(len(paid))]
