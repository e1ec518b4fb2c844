"""An independent checker of a tournament's decisions, written from the rule text (shared/seeds), not from
firmware_py/tournament: it keeps its own map of who sits where from the decisions themselves, works out
positions with its own clockwise arithmetic, and checks every move, break, redraw and elimination
against the book of the profile:

- WFP Tournament rules 9, 11, 12, 13, 28; UPT Tournaments 14, 15, 16, 17, 18, 35; RPL Seating 2-3,
  Blinds 2, Tournaments 13, 14, 16, 17, 31.

`check(log, ...)` returns the problems found (empty: every decision follows the book).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def _clockwise(after: int, seats: set[int] | list[int]) -> list[int]:
    """Seats in clockwise order starting with the first one after `after` (seats 1..10 round a table)."""
    return sorted(seats, key=lambda s: (s - after - 1) % 10)


def _next_bb_anchor(view: Any) -> int:
    """The seat after which the big blind is due next: the last big blind, or (before the first hand after a
    draw) the small blind's seat, i.e. the first seat after the button (the button itself heads-up)."""
    if view.last_big_blind is not None:
        return int(view.last_big_blind)
    seats = [s for s, _ in view.seats]
    if len(seats) <= 2:
        return int(view.button)
    return _clockwise(view.button, seats)[0]


@dataclass
class Room:
    seats: dict[str, dict[int, str]] = field(default_factory=dict)  # table -> seat -> player
    out: list[tuple[str, int]] = field(default_factory=list)  # (player, place)


def check(log: Sequence[Any], *, profile: str, capacity: int, entrants: int, starting_tables: int,
          break_order: Sequence[str]) -> list[str]:
    problems: list[str] = []
    room = Room()
    fail = problems.append
    within = {"wfp": 1, "wfp-dealer": 1, "rpl": 1}
    placed: dict[str, int] = {}
    last_place = entrants + 1
    for n, d in enumerate(log):
        kind = d.kind
        if kind == "seated" and d.why == "late":
            # a late entry (UPT Tournaments 6, RPL Tournaments 5): a seat at a table with the fewest players among
            # those with an open seat, so the tables stay balanced
            open_counts = {t: len(s) for t, s in room.seats.items() if len(s) < capacity}
            if open_counts and len(room.seats.get(d.table, {})) != min(open_counts.values()):
                fail(f"#{n} late entry {d.player} drawn to {d.table} ({len(room.seats.get(d.table, {}))} players), "
                     f"not a table with the fewest ({open_counts})")
        if kind == "seated":
            table = room.seats.setdefault(d.table, {})
            if d.seat in table:
                fail(f"#{n} {d.player} drawn to {d.table} seat {d.seat}, which is taken")
            if not 1 <= d.seat <= capacity:
                fail(f"#{n} seat {d.seat} is not a seat of a {capacity}-seat table")
            for t in room.seats.values():
                for p in list(t.values()):
                    if p == d.player:
                        fail(f"#{n} {d.player} drawn while still seated")
            table[d.seat] = d.player
        elif kind == "eliminated":
            seats = room.seats.get(d.table, {})
            if seats.get(d.seat) != d.player:
                fail(f"#{n} {d.player} eliminated at {d.table} seat {d.seat} but sits elsewhere")
            in_play = sum(len(t) for t in room.seats.values())
            # places: the next ones down; same hand: the larger starting stack finishes higher (WFP 28,
            # UPT 35, RPL 31); equal stacks share.
            group = [(d.player, d.start_stack), *d.others]
            better = sum(1 for _, s in group if s > d.start_stack)
            expected = (in_play + sum(1 for p, _ in d.others if p in placed) - len(group) + 1) + better
            if d.place != expected:
                fail(f"#{n} {d.player} placed {d.place}, expected {expected} (start {d.start_stack}, same hand "
                     f"{list(d.others)})")
            equal = [p for p, s in d.others if s == d.start_stack]
            if equal and (d.shared is None or d.shared[1] - d.shared[0] != len(equal)):
                fail(f"#{n} {d.player} had the same starting stack as {equal} but shares {d.shared}")
            # the position of the seat (RPL 13): 0 is due for the next big blind
            order = _clockwise(_next_bb_anchor(d.before), [s for s, _ in d.before.seats])
            if order.index(d.seat) != d.position:
                fail(f"#{n} {d.player} position {d.position}, the table says {order.index(d.seat)}")
            placed[d.player] = d.place
            last_place = min(last_place, d.place)
            seats.pop(d.seat, None)
        elif kind == "moved":
            views = {v.table: v for v in d.before}
            for t, v in views.items():
                if dict(v.seats) != room.seats.get(t, {}):
                    fail(f"#{n} the director's view of {t} differs from the decisions so far")
            counts = {t: len(room.seats.get(t, {})) for t in views}
            spread = (2 if len(counts) > 6 else 1) if profile == "upt" else within[profile]
            if max(counts.values()) - min(counts.values()) <= spread:
                fail(f"#{n} a move with tables at {counts}: within {spread} already (UPT 17 / WFP 13 / RPL 13)")
            if counts[d.from_table] != max(counts.values()):
                fail(f"#{n} moved from {d.from_table} ({counts[d.from_table]}), not from a largest table")
            if counts[d.to_table] != min(counts.values()):
                fail(f"#{n} moved to {d.to_table} ({counts[d.to_table]}), not to a smallest table")
            donor, receiver = views[d.from_table], views[d.to_table]
            donor_order = _clockwise(_next_bb_anchor(donor), [s for s, _ in donor.seats])
            empty = set(range(1, capacity + 1)) - {s for s, _ in receiver.seats}
            if profile in ("wfp", "wfp-dealer", "upt"):
                # WFP 11 / UPT 15: the player due for the big blind, to the earliest open seat due for it
                if d.from_seat != donor_order[0]:
                    fail(f"#{n} moved seat {d.from_seat} of {d.from_table}; due for the big blind: {donor_order[0]}")
                earliest = _clockwise(_next_bb_anchor(receiver), empty)[0]
                if d.to_seat != earliest:
                    fail(f"#{n} given seat {d.to_seat} at {d.to_table}; earliest due for the big blind: {earliest}")
            else:
                # RPL 13: the same position as the player eliminated there; Blinds 2: takes that position
                vacated = [e for e in log[:n] if e.kind == "eliminated" and e.table == d.to_table
                           and e.seat == d.to_seat]
                if not vacated:
                    fail(f"#{n} RPL move to {d.to_table} seat {d.to_seat}: no one was eliminated from that seat")
                else:
                    want = vacated[-1].position
                    got = donor_order.index(d.from_seat)
                    if got != min(want, len(donor_order) - 1):
                        fail(f"#{n} RPL mover in position {got} at {d.from_table}; the eliminated was in {want}")
            if profile == "upt":
                # UPT 16: waits only in the small blind or button position
                anchor = _next_bb_anchor(receiver)
                occupied = {s for s, _ in receiver.seats} | {d.to_seat}
                next_bb = _clockwise(anchor, occupied)[0]
                button = receiver.button
                in_sb_or_button = d.to_seat != next_bb and (
                    d.to_seat == button or 0 < (d.to_seat - button) % 10 < (next_bb - button) % 10)
                if d.waits != in_sb_or_button:
                    fail(f"#{n} UPT 16: waits={d.waits} at seat {d.to_seat} (button {button}, next BB {next_bb})")
            elif d.waits:
                fail(f"#{n} WFP 12 / RPL 16: a moved player is dealt in at once")
            player = room.seats[d.from_table].pop(d.from_seat, None)
            if player != d.player:
                fail(f"#{n} {d.player} is not at {d.from_table} seat {d.from_seat}")
            if d.to_seat in room.seats[d.to_table]:
                fail(f"#{n} {d.to_table} seat {d.to_seat} is taken")
            room.seats[d.to_table][d.to_seat] = d.player
        elif kind == "broken":
            tables = [v.table for v in d.before]
            first = next(t for t in break_order if t in tables)
            if d.table != first:
                fail(f"#{n} broke {d.table}; the pre-set order (WFP 9, UPT 14) says {first}")
            players = sum(len(room.seats.get(t, {})) for t in tables)
            if profile == "rpl" and len(tables) in (3, 2):
                at = {3: 20, 2: 9}[len(tables)]
                if players > at:
                    fail(f"#{n} RPL 14: broke {len(tables)} tables to {len(tables) - 1} at {players} players (at {at})")
            elif players > (len(tables) - 1) * capacity:
                fail(f"#{n} broke a table with {players} players: they do not fit {len(tables) - 1} tables")
            redraw_due = (profile == "rpl") or (profile == "upt" and (len(tables) - 1 in (2, 1) or (
                len(tables) - 1 == 3 and starting_tables > 5)))
            if d.redraw != redraw_due:
                fail(f"#{n} breaking to {len(tables) - 1} tables: redraw {d.redraw}, the book says {redraw_due} "
                     "(UPT 18, RPL Seating 2)")
            leaving = room.seats.pop(d.table, {})
            if d.redraw:
                room.seats = {t: {} for t in room.seats}
            pending_break = set(leaving.values())
            # every player of the broken table must be drawn next, to an empty seat, keeping the balance
            rest = log[n + 1:]
            drawn = [e for e in rest[: len(leaving) + 2 * len(tables) + 200] if e.kind == "seated"]
            if not d.redraw:
                got = {e.player for e in drawn[: len(leaving)]}
                if got != pending_break:
                    fail(f"#{n} the players of {d.table} were not all drawn to empty seats")
        elif kind == "redrawn":
            pass
        elif kind == "raced":
            # WFP 6, UPT 11: a player may not be eliminated by the chip-change process; the race changes chips,
            # never who sits where
            seats = room.seats.get(d.table, {})
            if {seat for seat, _b, _a in d.changes} != set(seats):
                fail(f"#{n} the race at {d.table} changed seats {d.changes}, the table has {sorted(seats)}")
            if any(after <= 0 for _s, _b, after in d.changes):
                fail(f"#{n} a player left with no chip by the race at {d.table} (WFP 6, UPT 11)")
            # A seat loses at most its odd chips (less than one new chip). WFP 6: "the maximum is one chip going
            # to any player"; UPT 11 has no such sentence (each card races: at most one chip a card, one card an
            # odd chip); RPL 10: "chipped up to the next amount" (no race, never a loss).
            most = {"upt": d.to * (d.to // d.chip), "rpl": d.to - 1}.get(profile, d.to)
            least = 0 if profile == "rpl" else -d.to + 1
            for seat, before, after in d.changes:
                if not least <= after - before <= most:
                    fail(f"#{n} the race at {d.table} seat {seat}: {before} to {after} (the {profile} book allows "
                         f"{least:+} to {most:+})")
        elif kind == "withdrawn":  # a late entry undone: its seat opens
            if room.seats.get(d.table, {}).get(d.seat) != d.player:
                fail(f"#{n} {d.player} withdrawn from {d.table} seat {d.seat}, where it does not sit")
            room.seats.get(d.table, {}).pop(d.seat, None)
        elif kind == "finished":
            left = [p for t in room.seats.values() for p in t.values()]
            if left != [d.winner]:
                fail(f"#{n} finished with {left} still seated, winner {d.winner}")
        # after every decision batch the tables must end balanced; checked by `check_balanced` at the end
    return problems


def balanced(views: Sequence[Any], profile: str) -> bool:
    counts = [len(v.seats) for v in views]
    if len(counts) < 2:
        return True
    spread = (2 if len(counts) > 6 else 1) if profile == "upt" else 1
    return max(counts) - min(counts) <= spread


def check_chips(log: Sequence[Any], entries: Sequence[Any], *, first_field: int, stack: int,
                chips_in_play: int) -> list[str]:
    """The room's chips from the director's books alone: every entry's starting stack (the draw's field, the late
    entries and re-entries), every rebuy and add-on, and what the color-up races moved; nothing else makes chips.
    `entries` are the state's actions (EntryJson as JSON or structs)."""

    def get(e: Any, key: str) -> Any:
        return e[key] if isinstance(e, dict) else getattr(e, key)

    live = [e for e in entries if not get(e, "undone") and not get(e, "alternate")]
    late = sum(1 for e in live if get(e, "kind") in ("entry", "re-entry"))
    bought = sum(get(e, "chips") for e in live if get(e, "kind") in ("rebuy", "add-on"))
    raced = sum(after - before for d in log if d.kind == "raced" for _s, before, after in d.changes)
    expected = (first_field + late) * stack + bought + raced
    if chips_in_play != expected:
        return [f"{chips_in_play:,} chips in play, the books say {expected:,} = ({first_field} + {late} entries) x "
                f"{stack:,} + {bought:,} rebuys and add-ons {raced:+,} races"]
    return []


def check_places(places: Sequence[tuple[int, tuple[int, int] | None]], entrants: int) -> list[str]:
    """Every entry has its own place, 1..entrants (equal stacks out on one hand share a range)."""
    groups: dict[tuple[int, int], int] = {}
    for place, shared in places:
        key = shared if shared else (place, place)
        groups[key] = groups.get(key, 0) + 1
    bad = [g for g, count in groups.items() if g[1] - g[0] + 1 != count]
    if bad:
        return [f"shared places {bad} do not have as many players as places"]
    taken = sorted(p for first, last in groups for p in range(first, last + 1))
    if taken != list(range(1, entrants + 1)):
        return [f"the places {sorted(taken)} are not 1..{entrants}"]
    return []


def check_money(money: Any, entries: Sequence[Any], *, first_field: int, buy_in: int, fee: int, rake_percent: float,
                guarantee: int, unit: int, places: Sequence[tuple[int, int]], bounty: int = 0) -> list[str]:
    """The money from the books alone (the state's `money`, its actions, each place's prize): what the players paid
    (the draw's field and every entry at buy-in + fee, every rebuy and add-on at its price), the house's fees and
    rake, the overlay up to the guarantee; collected + overlay == prize pool + fees + rake, and the prizes paid add
    up to the prize pool, each a multiple of the unit but first place's."""

    def get(e: Any, key: str) -> Any:
        return e[key] if isinstance(e, dict) else getattr(e, key)

    problems: list[str] = []
    live = [e for e in entries if not get(e, "undone") and not get(e, "alternate")]
    entered = first_field + sum(1 for e in live if get(e, "kind") in ("entry", "re-entry"))
    bought = sum(get(e, "paid") for e in live if get(e, "kind") in ("rebuy", "add-on"))
    buy_ins = entered * buy_in + bought
    fees = entered * fee
    bounties = entered * bounty
    rake = int(buy_ins * rake_percent // 100)
    overlay = max(0, guarantee - (buy_ins - rake))
    prize_pool = buy_ins - rake + overlay
    paid_in = sum(get(e, "paid") for e in live) + first_field * (buy_in + fee + bounty)
    if paid_in != buy_ins + fees + bounties:
        problems.append(f"the entries paid {paid_in:,}, buy-ins, fees and bounties are {buy_ins + fees + bounties:,}")
    got = (get(money, "collected"), get(money, "fees"), get(money, "rake"), get(money, "overlay"),
           get(money, "prize_pool"))
    if got != (buy_ins + fees + bounties, fees, rake, overlay, prize_pool):
        problems.append(f"the money says (collected, fees, rake, overlay, prize pool) {got}, the books "
                        f"{(buy_ins + fees + bounties, fees, rake, overlay, prize_pool)}")
    if buy_ins + fees + bounties + overlay != prize_pool + fees + rake + bounties:
        problems.append("collected + overlay is not prize pool + fees + rake")
    prizes = [prize for _place, prize in sorted(places) if prize]
    if sum(prizes) != prize_pool:
        problems.append(f"the places are paid {sum(prizes):,}, the prize pool is {prize_pool:,}")
    if any(p % unit for p in prizes[1:]):
        problems.append(f"prizes {prizes} not in units of {unit} below first place")
    return problems


def check_bounties(knockouts: Sequence[Any], bounties: Sequence[Any], *, entries: int, bounty: int,
                   progressive: bool, winner: str) -> list[str]:
    """The bounties replayed from the knockouts alone: each entry starts with `bounty` on its head; a knockout pays
    the whole head of the player out to its eliminators (progressive: half, the odd half-chip to the cash, in cash
    and half onto their heads; a split shared equally, the odd amount to the first); the winner collects its own
    head. Every bounty paid is accounted for: won + on heads == entries x bounty."""

    def get(e: Any, key: str) -> Any:
        return e[key] if isinstance(e, dict) else getattr(e, key)

    problems: list[str] = []
    heads: dict[str, int] = {}
    won: dict[str, int] = {}
    for k in knockouts:
        out = get(k, "player")
        value = heads.pop(out, bounty)
        by, cash, head = list(get(k, "by")), list(get(k, "cash")), list(get(k, "head"))
        if sum(cash) + sum(head) != value:
            problems.append(f"{out}'s bounty of {value} paid as {cash} + {head}")
        expect_cash = value - value // 2 if progressive else value
        if sum(cash) != expect_cash:
            problems.append(f"{out}'s bounty: {sum(cash)} in cash, {expect_cash} by the rule")
        if max(cash) - min(cash) > (sum(cash) % len(by)):
            problems.append(f"{out}'s bounty split unevenly: {cash}")
        for pid, c, h in zip(by, cash, head, strict=True):
            won[pid] = won.get(pid, 0) + c
            heads[pid] = heads.get(pid, bounty) + h
    total_won = sum(get(b, "won") for b in bounties)
    on_heads = sum(get(b, "head") for b in bounties)
    if total_won + on_heads != entries * bounty:
        problems.append(f"bounties won {total_won} + on heads {on_heads} != {entries} x {bounty}")
    stated = {get(b, "player"): get(b, "won") for b in bounties}
    won[winner] = won.get(winner, 0) + heads.get(winner, bounty)
    for pid, amount in won.items():
        if stated.get(pid, 0) != amount:
            problems.append(f"{pid} won {stated.get(pid, 0)} in bounties, the knockouts say {amount}")
    return problems
