"""The money of a tournament: what each entry pays (buy-in and fee), the house's rake, the guarantee and its overlay,
the payout table by the number of entries, and the prizes rounded to the house's unit.

Data, as files (config/tournament/payouts/*.toml, a money file); this module reads none: the caller passes the TOML
text and the file's name for the messages (MoneyError names the file, the key and what to write).

    [money]                          # a money file (the `tournament --money FILE` option)
    buy_in = 100                     # to the prize pool, each entry (and each rebuy and add-on unless priced)
    fee = 20                         # to the house, each entry
    rake_percent = 0                 # of every buy-in, rebuy and add-on, to the house
    guarantee = 5000                 # the prize pool at least: the house adds the overlay when it falls short
    unit = 5                         # prizes are rounded down to this unit; the rest goes to first place
    rebuy_price = 100                # (default: the buy-in)
    add_on_price = 100               # (default: the buy-in)
    bounty = 20                      # besides the buy-in, each entry: the bounty on the entrant's head
    progressive = true               # progressive knockout: half to the eliminator, half onto its own head
    payouts = "standard"             # a file in config/tournament/payouts/ (or a path)

    [payouts]                        # a payout table file
    name = "standard"
    source = "..."
    [[payouts.rows]]
    entries = [2, 7]                 # from 2 to 7 entries
    percents = [65, 35]              # first place first; they add up to 100

The books say: UPT Tournaments 35 and RPL 31 (equal stacks out on one hand share their places' prizes); the money
itself is the house's.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class MoneyError(ValueError):
    """A money or payout file that cannot be used: names the file, the key and a suggestion."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PayoutTable:
    name: str
    source: str
    rows: tuple[tuple[int, int, tuple[float, ...]], ...]  # (fewest entries, most entries, percents)

    def percents(self, entries: int) -> tuple[float, ...]:
        for low, high, percents in self.rows:
            if low <= entries <= high:
                return percents
        raise MoneyError(f"the payout table {self.name} has no row for {entries} entries (its rows cover "
                         f"{self.rows[0][0]}..{self.rows[-1][1]})")


@dataclass(frozen=True, kw_only=True, slots=True)
class Money:
    buy_in: int
    fee: int = 0
    rake_percent: float = 0.0
    guarantee: int = 0
    unit: int = 1
    rebuy_price: int = 0  # 0: the buy-in
    add_on_price: int = 0  # 0: the buy-in
    bounty: int = 0  # each entry's bounty (paid besides the buy-in), 0: none
    progressive: bool = False  # progressive knockout: half the bounty in cash, half onto the eliminator's head
    table: PayoutTable


@dataclass(frozen=True, kw_only=True, slots=True)
class Pool:
    """Where the money went: collected from the players, to the house (fees, rake), from the house (overlay), to
    the bounties, and the prize pool with each paid place's prize. collected + overlay == prize_pool + fees + rake +
    bounties."""

    collected: int
    fees: int
    rake: int
    overlay: int
    prize_pool: int
    prizes: tuple[int, ...]
    table: str  # the payout table and the row it used
    bounties: int = 0  # the entries' bounties (paid to eliminators, or on heads still in)

    def conserved(self) -> bool:
        return self.collected + self.overlay == self.prize_pool + self.fees + self.rake + self.bounties and sum(
            self.prizes) == self.prize_pool


def _suggest(key: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (keys: {', '.join(known)})"


def _toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MoneyError(f"{source}: not TOML: {exc}") from None


def _whole(value: Any, where: str, *, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise MoneyError(f"{where}: {value!r} must be a whole number of at least {least}")
    return value


def parse_payout_table(text: str, source: str) -> PayoutTable:
    data = _toml(text, source)
    head = data.get("payouts")
    if not isinstance(head, dict) or set(data) != {"payouts"}:
        raise MoneyError(f"{source}: a payout table is one [payouts] section with name, source and [[payouts.rows]]")
    for key in head:
        if key not in ("name", "source", "rows"):
            raise MoneyError(f"{source}: [payouts] unknown key {key!r}{_suggest(key, ['name', 'source', 'rows'])}")
    rows_raw = head.get("rows")
    if not isinstance(rows_raw, list) or not rows_raw:
        raise MoneyError(f"{source}: no [[payouts.rows]] (entries = [2, 7], percents = [65, 35])")
    rows: list[tuple[int, int, tuple[float, ...]]] = []
    for index, row in enumerate(rows_raw, start=1):
        where = f"{source}: [[payouts.rows]] number {index}"
        if not isinstance(row, dict):
            raise MoneyError(f"{where}: must be a table of keys")
        for key in row:
            if key not in ("entries", "percents"):
                raise MoneyError(f"{where}: unknown key {key!r}{_suggest(key, ['entries', 'percents'])}")
        span = row.get("entries")
        if not (isinstance(span, list) and len(span) == 2):
            raise MoneyError(f"{where} entries: {span!r} must be [fewest, most], e.g. entries = [2, 7]")
        low, high = _whole(span[0], f"{where} entries", least=2), _whole(span[1], f"{where} entries", least=2)
        if high < low:
            raise MoneyError(f"{where} entries: {span!r}: the most is below the fewest")
        if rows and low != rows[-1][1] + 1:
            raise MoneyError(f"{where} entries: {span!r} must start at {rows[-1][1] + 1}, after the row before")
        percents = row.get("percents")
        if (not isinstance(percents, list) or not percents
                or any(isinstance(p, bool) or not isinstance(p, int | float) or p <= 0 for p in percents)):
            raise MoneyError(f"{where} percents: {percents!r} must be percentages above 0, first place first")
        if abs(sum(percents) - 100.0) > 1e-6:
            raise MoneyError(f"{where} percents: they add up to {sum(percents):g}, not 100")
        if list(percents) != sorted(percents, reverse=True):
            raise MoneyError(f"{where} percents: a place pays less than the place below it")
        if len(percents) > low:
            raise MoneyError(f"{where}: {len(percents)} places paid with {low} entries")
        rows.append((low, high, tuple(float(p) for p in percents)))
    name = head.get("name")
    if not isinstance(name, str) or not name:
        raise MoneyError(f"{source}: [payouts] name must be a text")
    return PayoutTable(name=name, source=str(head.get("source", "")), rows=tuple(rows))


MONEY_KEYS = ("buy_in", "fee", "rake_percent", "guarantee", "unit", "rebuy_price", "add_on_price", "bounty",
              "progressive", "payouts")


def parse_money(text: str, source: str, table: PayoutTable) -> Money:
    """The money file's [money] section (its `payouts` file already read by the caller into `table`)."""
    data = _toml(text, source)
    head = data.get("money")
    if not isinstance(head, dict) or set(data) != {"money"}:
        raise MoneyError(f"{source}: a money file is one [money] section (buy_in, fee, guarantee, unit, payouts)")
    for key in head:
        if key not in MONEY_KEYS:
            raise MoneyError(f"{source}: [money] unknown key {key!r}{_suggest(key, MONEY_KEYS)}")
    rake = head.get("rake_percent", 0)
    if isinstance(rake, bool) or not isinstance(rake, int | float) or not 0 <= rake < 100:
        raise MoneyError(f"{source}: [money] rake_percent: {rake!r} must be a percentage from 0 to below 100")
    return Money(buy_in=_whole(head.get("buy_in"), f"{source}: [money] buy_in", least=1),
                 fee=_whole(head.get("fee", 0), f"{source}: [money] fee"), rake_percent=float(rake),
                 guarantee=_whole(head.get("guarantee", 0), f"{source}: [money] guarantee"),
                 unit=_whole(head.get("unit", 1), f"{source}: [money] unit", least=1),
                 rebuy_price=_whole(head.get("rebuy_price", 0), f"{source}: [money] rebuy_price"),
                 add_on_price=_whole(head.get("add_on_price", 0), f"{source}: [money] add_on_price"),
                 bounty=_whole(head.get("bounty", 0), f"{source}: [money] bounty"),
                 progressive=_flag(head.get("progressive", False), f"{source}: [money] progressive"), table=table)


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise MoneyError(f"{where}: {value!r} must be true or false")
    return value


def payouts_name(text: str, source: str) -> str:
    """The payout table a money file names (its `payouts` key), for the caller to read."""
    head = _toml(text, source).get("money")
    name = head.get("payouts") if isinstance(head, dict) else None
    if not isinstance(name, str) or not name:
        raise MoneyError(f"{source}: [money] payouts must name a payout table, e.g. payouts = \"standard\"")
    return name


def round_prizes(prize_pool: int, percents: Sequence[float], unit: int) -> tuple[int, ...]:
    """Each paid place's prize: its percentage of the pool rounded down to `unit`; what the rounding leaves goes to
    first place (the prizes add up to the pool)."""
    prizes = [int(prize_pool * p / 100 // unit) * unit for p in percents]
    if prizes:
        prizes[0] += prize_pool - sum(prizes)
    return tuple(prizes)


def pool(money: Money, *, entries: int, rebuys: int = 0, add_ons: int = 0,
         table_entries: int | None = None) -> Pool:
    """The prize pool of `entries` entries (each paying buy-in and fee), `rebuys` and `add_ons`: the rake off every
    buy-in, the overlay when the guarantee is not met, the prizes by the payout table's row for `table_entries`
    (default: the entries; a locked table keeps the row it had)."""
    rebuy = money.rebuy_price or money.buy_in
    add_on = money.add_on_price or money.buy_in
    buy_ins = entries * money.buy_in + rebuys * rebuy + add_ons * add_on
    fees = entries * money.fee
    bounties = entries * money.bounty
    rake = int(buy_ins * money.rake_percent // 100)
    net = buy_ins - rake
    overlay = max(0, money.guarantee - net)
    prize_pool = net + overlay
    count = entries if table_entries is None else table_entries
    percents = money.table.percents(count) if count >= 2 else (100.0,)
    return Pool(collected=buy_ins + fees + bounties, bounties=bounties, fees=fees, rake=rake, overlay=overlay,
                prize_pool=prize_pool,
                prizes=round_prizes(prize_pool, percents, money.unit),
                table=f"{money.table.name}, {count} entries: " + ", ".join(f"{p:g}%" for p in percents))


def money_json(money: Money) -> Mapping[str, Any]:
    return {"buy_in": money.buy_in, "fee": money.fee, "rake_percent": money.rake_percent,
            "guarantee": money.guarantee, "unit": money.unit, "bounty": money.bounty, "progressive": money.progressive}


def knockout(value: int, winners: int, *, progressive: bool) -> tuple[list[int], list[int]]:
    """A bounty of `value` to `winners` eliminators (a split pot: shared equally, the odd amount to the first listed,
    as the pot's odd chips go): each one's cash and (progressive) what goes onto its own head."""
    cash = value - value // 2 if progressive else value
    head = value - cash

    def split(amount: int) -> list[int]:
        each, odd = divmod(amount, winners)
        return [each + (odd if i == 0 else 0) for i in range(winners)]
    return split(cash), split(head)
