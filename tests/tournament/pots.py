"""Pots for a test's hand report: the simplest pots that explain its stacks (what a table's core would rule for
a hand where the losers' chips went to the gainers): one pot of everything lost and a chip from each gainer
(a seat that may win a pot has put chips in it), the gainers its winners."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def pots_for(start: Mapping[int, int], end: Mapping[int, int]) -> list[dict[str, Any]]:
    lost = {s: start[s] - end[s] for s in start if end.get(s, 0) < start[s]}
    gained = {s: end[s] - start[s] for s in start if end.get(s, 0) > start[s]}
    if not lost and not gained:
        return []
    amount = sum(lost.values()) + len(gained)
    return [{"amount": amount, "seats": sorted({*lost, *gained}), "winners": sorted(gained),
             "shares": [{"seat": s, "chips": c + 1} for s, c in sorted(gained.items())]}]
