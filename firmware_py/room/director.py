"""The director's station's model: the pure tournament (firmware_py.tournament) fed by the tables' reports,
with the clock, the bubble and the payouts, turned into the retained state the room reads
(tournament_messages.DirectorState). Thread-safe: the broker's thread feeds it, the page reads it.

The director believes no report it cannot explain (`check_report`): a report's starting stacks must be the
director's, its chips conserved and every gain within what the pots could give (no player wins from another
more than the smaller of their two stacks), every stack within the chips in play, its hand after the last one
taken from that table (whatever its session id); a report refused is never applied, and shown with its
reason (the state's `refused`).

Every input is an event in the director's journal (SQLite, firmware_py/daemon/journal.py: one JSON line a
row, checksummed and chained), written before the room hears of it: `begin` (the field, structure, seed and
payouts), `report` (taken in, with the decisions it led to: number, kind, text), `refused`, `clock`,
`bubble` and `tick` (the clock reaching a new step), and the desk's actions: `register` (a late entry or a
re-entry, with its payment; seated by draw or an alternate), `rebuy`, `add_on`, `undo` and `deal`.
`Director.resume` replays them: the same players, level, clock, places, money, bounties and deal. A new kind adds
its own `kind` and `_on_<kind>`.

The money (a money file: firmware_py/tournament/money.py): buy-in, fee, rake, guarantee and overlay, the payout
table's row by entries, prizes rounded to the house's unit and locked in the money; bounties and progressive
knockouts paid from the tables' own rulings of the pots (`_knockouts`); deals (firmware_py/tournament/deals.py).

The clock runs on the wall (`time.time`, paused and resumed from the page: it goes on while the director
is down, as the tables play on) or, for a simulated room, on the tables' own session time (`sim_clock`).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from firmware_py.room.messages import BadMessage, JackpotMessage, decode
from firmware_py.room.tournament_messages import (
    BountyJson,
    CheckedIn,
    CiteJson,
    DealJson,
    DealShareJson,
    DecisionJson,
    DirectorState,
    EntryJson,
    JackpotJson,
    KnockoutJson,
    LevelJson,
    MoneyJson,
    PlaceJson,
    PotJson,
    RaceJson,
    RefusedJson,
    SeatJson,
    TableJson,
    TableReport,
    decode_report,
    director_topic,
)
from firmware_py.tournament import (
    Broken,
    Bubble,
    ButtonPlaced,
    Decision,
    Eliminated,
    Finished,
    Level,
    Moved,
    Raced,
    Redrawn,
    Seated,
    Structure,
    Tournament,
    book_for,
    parse_structure,
    prizes,
    shared_prizes,
)
from firmware_py.tournament.deals import make_deal
from firmware_py.tournament.money import Money, Pool, knockout, parse_money, parse_payout_table, pool

logger = logging.getLogger(__name__)
KEEP_DECISIONS = 200
KEEP_REFUSED = 20  # refused reports in the state (the journal keeps them all, up to JOURNAL_REFUSED a table)
JOURNAL_REFUSED = 200  # refused reports journaled per table: a table flooding bad ones fills no disk
REFUSED_SAY_S = 0.5  # a flood of refused reports is published at most this often (the next tick says the rest)
KEEP_JACKPOTS = 20  # jackpot hands in the state (the journal keeps them all)
JOURNAL_KIND = "director"  # the journal's meta "journal": what kind of journal a file is


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _level(level: Level | None) -> LevelJson | None:
    if level is None:
        return None
    return LevelJson(number=level.number, small=level.small, big=level.big, ante=level.ante, bb_ante=level.bb_ante)


def _line(event: Mapping[str, Any]) -> str:
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False)


class Refused(ValueError):
    """A report the director's books cannot explain: never applied (the message says why)."""


def _pot_name(index: int) -> str:
    return "the main pot" if index == 0 else f"side pot {index}"


def check_pots(*, table: str, start: Mapping[int, int], end: Mapping[int, int],
               pots: Sequence[PotJson] | None) -> None:
    """Every stack change explained by the pots as the table's core ruled them (Refused saying why): each pot's
    seats at the table, its winners among the seats that could win it, its shares adding up to it; each seat's
    change its shares in less what it put in (never less than nothing, never more than its stack); a seat that
    could win a pot put chips in; the pots hold what the seats put in. A report without pots (a table older than
    them) is taken only if no stack moved.

    >>> from firmware_py.room.tournament_messages import PotShare
    >>> pot = PotJson(amount=100, seats=[1, 2], winners=[2], shares=[PotShare(seat=2, chips=100)])
    >>> check_pots(table="t01", start={1: 500, 2: 500}, end={1: 300, 2: 700}, pots=[pot])
    Traceback (most recent call last):
    ...
    firmware_py.room.director.Refused: t01: seat 2 went from 500 to 700, the pots give it 100: 100 chips unexplained
    """
    if pots is None:
        moved = [s for s in sorted(start) if start[s] != end.get(s)]
        if moved:
            raise Refused(f"{table}: a hand's report that moves the chips of seat {moved[0]} without its pots (the "
                          "director takes a change only as the pots explain it)")
        return
    won = dict.fromkeys(start, 0)
    eligible: dict[int, list[str]] = {}
    for index, pot in enumerate(pots):
        name = _pot_name(index)
        strangers = sorted(set(pot.seats) - set(start))
        if strangers or not pot.seats:
            raise Refused(f"{table}: {name} of {pot.amount:,} names seats {sorted(pot.seats)}, not the hand's "
                          f"{sorted(start)}")
        wrong = sorted((set(pot.winners) | set(pot.low_winners)) - set(pot.seats))
        if wrong:
            raise Refused(f"{table}: {name} was awarded to seat {wrong[0]}, which could not win it (its seats: "
                          f"{sorted(pot.seats)})")
        paid = 0
        for share in pot.shares:
            if share.seat not in pot.winners and share.seat not in pot.low_winners:  # high, or a split's low
                raise Refused(f"{table}: {name} pays seat {share.seat} a share, not one of its winners "
                              f"{sorted({*pot.winners, *pot.low_winners})}")
            won[share.seat] += share.chips
            paid += share.chips
        if paid != pot.amount:
            raise Refused(f"{table}: {name} of {pot.amount:,} chips was paid out as {paid:,}")
        for seat in pot.seats:
            eligible.setdefault(seat, []).append(name)
    for seat in sorted(start):
        put_in = start[seat] - end[seat] + won[seat]
        if put_in < 0:
            raise Refused(f"{table}: seat {seat} went from {start[seat]:,} to {end[seat]:,}, the pots give it "
                          f"{won[seat]:,}: {-put_in:,} chips unexplained")
        if put_in > start[seat]:
            raise Refused(f"{table}: seat {seat} would have put {put_in:,} chips in the pots from a stack of "
                          f"{start[seat]:,} ({start[seat]:,} to {end[seat]:,}, {won[seat]:,} won)")
        if put_in == 0 and seat in eligible and any(p.amount for p in pots):
            raise Refused(f"{table}: seat {seat} could win {eligible[seat][0]} but put nothing in")
    put = sum(start[s] - end[s] + won[s] for s in start)
    held = sum(p.amount for p in pots)
    if put != held:
        raise Refused(f"{table}: the seats put {put:,} chips in, the pots hold {held:,}")


def check_hand(*, table: str, books: Mapping[int, int], start: Mapping[int, int], end: Mapping[int, int],
               in_play: int, pots: Sequence[PotJson] | None = None) -> None:
    """A hand's report against the director's books (Refused saying why): the same seats, starting stacks equal
    to the director's, every stack within the chips in play, the chips conserved (the pots move chips, they make
    none), no player winning from another more than the smaller of their two stacks (a side pot holds of each
    player at most what the smallest of them put in), and every change explained by the pots (`check_pots`).

    >>> check_hand(table="t01", books={1: 500, 2: 500}, start={1: 500, 2: 500}, end={1: 0, 2: 900}, in_play=1000)
    Traceback (most recent call last):
    ...
    firmware_py.room.director.Refused: t01: 1,000 chips at the start, 900 at the end: the pots do not explain 100 chips
    """
    if set(start) != set(books) or set(end) != set(books):
        raise Refused(f"{table}: the report has seats {sorted(set(start) | set(end))}, the director seats "
                      f"{sorted(books)} there")
    wrong = [f"seat {s}: {start[s]:,} (the director has {books[s]:,})" for s in sorted(books) if start[s] != books[s]]
    if wrong:
        raise Refused(f"{table}: starting stacks that are not the director's: {'; '.join(wrong)}")
    over = [f"seat {s}: {c:,}" for s, c in sorted(end.items()) if c > in_play]
    if over:
        raise Refused(f"{table}: a stack above the {in_play:,} chips in play: {'; '.join(over)}")
    before, after = sum(start.values()), sum(end.values())
    if before != after:
        raise Refused(f"{table}: {before:,} chips at the start, {after:,} at the end: the pots do not explain "
                      f"{abs(before - after):,} chips")
    for seat, chips in sorted(end.items()):
        gain = chips - start[seat]
        most = sum(min(start[seat], start[o]) for o in start if o != seat)
        if gain > most:
            raise Refused(f"{table}: seat {seat} won {gain:,} chips, more than its {start[seat]:,} could win from "
                          f"the others ({most:,} at most)")
    check_pots(table=table, start=start, end=end, pots=pots)


class Director:
    def __init__(self, *, room: str, tournament: Tournament, structure: Structure, payouts: Sequence[int] = (),
                 sim_clock: bool = False, on_change: Callable[[DirectorState], None] | None = None,
                 journal: Any = None, tournament_id: str = "", pool: int = 0,
                 wall: Callable[[], float] = time.time, percents: Sequence[float] = (), buy_in: int = 0,
                 money: Money | None = None) -> None:
        self.room, self.tournament, self.structure = room, tournament, structure
        self.payouts = list(payouts)
        self.pool = pool
        self.percents = list(percents)  # the payout table (percent of the pool): the prizes follow the pool
        self.buy_in = buy_in
        # With a money file: buy-in and fee, rake, guarantee, the payout table by entries, the unit; the prizes are
        # locked (`locked`: the entries the table's row was read for) when the players left reach the places paid.
        self.money = money
        self.purse: Pool | None = None
        self.locked = 0
        self.deal: DealJson | None = None
        # Bounties (a money file's `bounty`): on each entry's head, won by eliminators (from the table's pots)
        self.heads: dict[str, int] = dict.fromkeys(tournament.players, money.bounty) if money and money.bounty else {}
        self.bounty_won: dict[str, int] = {}
        self.knockouts: list[KnockoutJson] = []
        # Entries after the draw (late registrations, re-entries), rebuys and add-ons: each an action of the
        # director, numbered, journaled and undoable (`undo`); alternates wait for a seat in the order they came.
        self.actions: list[EntryJson] = []
        self.alternates: list[str] = []  # entry ids waiting for a seat
        self.waiting: dict[str, tuple[str, str, str]] = {}  # alternate id -> (name, card, person)
        self.next_entry = len(tournament.players)
        self.first_field = tournament.entrants  # the entrants of the draw (each paid the buy-in)
        self.pending: dict[str, int] = {}  # chips bought since the player's table last reported (played behind)
        self.lock = threading.RLock()
        self.seq = 0
        self.bubble = Bubble()
        self.sim_clock = sim_clock
        self.sim_t = 0.0
        self.wall = wall
        self.elapsed_before = 0.0
        self.started_at: float | None = None  # the wall time the clock last started (None: stopped)
        self.acked: dict[str, int] = {}
        self.sessions: dict[str, str] = {}
        self.last_hand: dict[str, int] = {}  # the last hand taken from each table in its current draw (any session)
        self.raced: dict[str, int] = {}  # the latest color-up each table has raced for
        self.draws: dict[str, int] = dict.fromkeys(tournament.tables, 1)
        self.moved: set[str] = set()
        # Players checked in by card: card id -> (table, seat), as each table last reported its check-ins
        # (docs/checkin.md); rebuilt by the journal's reports when the director resumes
        self.checked_in: dict[str, tuple[str, int]] = {}
        self.decisions: list[DecisionJson] = []
        self.refused: list[RefusedJson] = []
        self.refused_total = 0
        self.refused_by_table: dict[str, int] = {}
        self.jackpots: list[JackpotJson] = []  # the latest jackpot hands the tables told (journaled), newest last
        self._jackpots_seen: set[tuple[str, str, int, int]] = set()  # (table, session, seq, n)
        self.rejected = 0
        self.on_change = on_change
        self.counted = 0
        self.version = 0  # counts changes (the page's stream sends the state when it moves)
        self.session = f"d{time.time_ns():x}"  # this run of the director (its states' seq counts within it)
        self.tournament_id = tournament_id or self.session
        self.journal = journal
        self.replaying = False
        self.replayed = 0  # events replayed from the journal on resume
        self.mismatches = 0  # journaled decisions a replay did not make again (other code)
        self.failed = ""  # the journal could not be written: the director stops
        self._at: float | None = None  # the clock's elapsed time, while an event is replayed
        self._refused_said = -1e9  # when a refusal was last published
        self._counted_before = 0  # the decision count before the report being taken (its decisions follow it)
        self._elapsed_taken = 0.0  # the clock when that report was taken (journaled with it)
        self._clock_seen = structure.at(0.0)
        self.color_up = ""
        self.race: tuple[int, int, int] | None = None  # (n, chip, to) of the latest color-up
        self._describe(tournament.log)
        if money is not None:
            self._money()

    # -- the journal -------------------------------------------------------------------------------

    def _record(self, event: dict[str, Any]) -> None:
        """One event, durable before the room hears of what it did (a failed write stops the director: what it
        has decided and not written would be lost on a restart)."""
        if self.journal is None or self.replaying:
            return
        try:
            self.journal.append_lines([_line(event)])
        except Exception as exc:
            self.failed = f"the journal {getattr(self.journal, 'path', '')} cannot be written: {exc}"
            logger.critical("tournament: %s", self.failed)
            raise

    def replay(self, events: Iterator[dict[str, Any]]) -> None:
        """The journal's events after `begin`, applied again in order (Director.resume)."""
        with self.lock:
            self.replaying = True
            try:
                for event in events:
                    self._at = float(event.get("elapsed", 0.0))
                    handler = getattr(self, f"_on_{event.get('kind')}", None)
                    if handler is None:
                        raise ValueError(f"the journal has an event this director does not know: {event.get('kind')!r}")
                    handler(event)
                    self.replayed += 1
            finally:
                self.replaying = False
                self._at = None
        self._changed()

    # -- the clock ---------------------------------------------------------------------------------

    def elapsed(self) -> float:
        if self._at is not None:
            return self._at
        if self.sim_clock:
            return self.sim_t
        running = max(0.0, self.wall() - self.started_at) if self.started_at is not None else 0.0
        return self.elapsed_before + running

    @property
    def over(self) -> bool:
        return self.tournament.finished

    def start_clock(self) -> None:
        self._clock(True)

    def pause_clock(self) -> None:
        self._clock(False)

    def _clock(self, run: bool) -> None:
        with self.lock:
            if self.over or (self.started_at is not None) == run:
                return
            event = {"kind": "clock", "run": run, "at": self.wall(), "elapsed": self.elapsed()}
            self._on_clock(event)
            self._record(event)
        self._changed()

    def _on_clock(self, event: Mapping[str, Any]) -> None:
        self.elapsed_before = float(event["elapsed"])
        self.started_at = float(event["at"]) if event["run"] else None

    def tick(self) -> None:
        """Each second on the wall clock: a level change or color-up the clock reached is noted (and journaled),
        and the room gets the state again (its remaining time)."""
        with self.lock:
            elapsed = self.elapsed()
            if not self.over and self.structure.at(elapsed).step != self._clock_seen.step:
                event = {"kind": "tick", "elapsed": elapsed}
                self._at = elapsed  # as the replay will read it
                try:
                    self._on_tick(event)
                finally:
                    self._at = None
                self._record(event)
        self._changed()

    def _on_tick(self, _event: Mapping[str, Any]) -> None:
        self._tick_clock()

    def hand_for_hand(self, on: bool) -> None:
        with self.lock:
            if self.over:
                return
            event = {"kind": "bubble", "on": on, "elapsed": self.elapsed()}
            self._on_bubble(event)
            self._record(event)
        self._changed()

    def _on_bubble(self, event: Mapping[str, Any]) -> None:
        on = bool(event["on"])
        if on:
            self.bubble.start()
        else:
            self.bubble.stop()
        self._note("bubble", "Hand-for-hand " + ("started: each table plays one hand, then waits for the others"
                                                 if on else "ended"), [], [])

    # -- entries: late registration, re-entries, alternates, rebuys and add-ons (every one an undoable action) -----

    def register(self, name: str, *, card: str = "", person: str = "") -> EntryJson:
        """A new entry (`person`: a busted entry of the same player re-entering): seated by draw, or an alternate
        when every seat is taken; journaled with its payment. Refused (ValueError) outside the structure's window."""
        name = " ".join(str(name).split())[:200]
        if not name and person in self.tournament.players:
            name = self.tournament.players[person].name
        if not name:
            raise ValueError("an entry needs the player's name")
        with self.lock:
            event = {"kind": "register", "elapsed": self.elapsed(), "entry": f"p{self.next_entry + 1:04d}",
                     "name": name, "card": str(card).strip()[:64], "person": str(person)[:64],
                     "paid": self._price("entry")}
            entry = self._action(event)
        self._changed()
        return entry

    def rebuy(self, player: str) -> EntryJson:
        return self._buy("rebuy", player)

    def add_on(self, player: str) -> EntryJson:
        return self._buy("add_on", player)

    def _buy(self, kind: str, player: str) -> EntryJson:
        with self.lock:
            entry = self._action({"kind": kind, "elapsed": self.elapsed(), "entry": str(player)[:64],
                                  "paid": self._price("add-on" if kind == "add_on" else kind)})
        self._changed()
        return entry

    def undo(self, n: int) -> EntryJson:
        """Take back action `n` (an entry not yet dealt a hand, an alternate, a rebuy or add-on its table has not
        dealt with yet): its seat opens, its payment is returned. ValueError saying why not."""
        with self.lock:
            entry = self._action({"kind": "undo", "elapsed": self.elapsed(), "n": int(n)})
        self._changed()
        return entry

    def _action(self, event: dict[str, Any]) -> EntryJson:
        """Check and apply an action, then journal it (with the decisions it led to); ValueError: not applied."""
        frozen = self._at is None
        if frozen:
            self._at = self.elapsed()
        self._counted_before = self.counted
        try:
            entry: EntryJson = getattr(self, f"_on_{event['kind']}")(event)
        finally:
            if frozen:
                self._at = None
        self._record({**event, "decided": [[d.n, d.kind, d.text] for d in self.decisions
                                           if d.n > self._counted_before]})
        return entry

    def _window(self, what: str, is_open: bool, until: int) -> None:
        if self.over:
            raise ValueError(f"the tournament is over: no {what}")
        if not is_open:
            level = self.structure.at(self.elapsed()).level.number
            raise ValueError(f"no {what} now: the structure {self.structure.name} takes them through level {until} "
                             f"and the clock is at level {level}" if until else
                             f"no {what}: the structure {self.structure.name} allows none")

    def _on_register(self, event: Mapping[str, Any]) -> EntryJson:
        t = self.tournament
        if self.locked:
            raise ValueError("the money is reached: the prizes are locked, no entry is taken")
        entries = self.structure.entries
        clock = self.structure.at(self.elapsed())
        started = any(table.hands for table in t.tables.values())
        person = str(event.get("person", ""))
        if person:
            self._window("re-entry", self.structure.late_open(clock), entries.late_registration_until_level)
            first = t.players.get(person)
            if first is None or first.place is None or first.table is not None:
                raise ValueError(f"{person}: a re-entry is of a busted entry of this tournament")
            root = first.person or first.id
            live = [p for p in t.players.values() if (p.person or p.id) == root and p.table is not None]
            if live or any(self.waiting.get(a, ("", "", ""))[2] == root for a in self.alternates):
                raise ValueError(f"{first.name} has an entry in play already")
            made = sum(1 for a in self.actions if a.kind == "re-entry" and a.person == root and not a.undone)
            if made >= entries.re_entries:
                raise ValueError(f"{first.name} has re-entered {made} time{'s' if made != 1 else ''}: the structure "
                                 f"allows {entries.re_entries}")
            person = root
        elif started:
            self._window("late registration", self.structure.late_open(clock), entries.late_registration_until_level)
        pid, name, card = str(event["entry"]), str(event["name"]), str(event.get("card", ""))
        if card and any(p.card == card and p.table is not None and (p.person or p.id) != (person or pid)
                        for p in t.players.values()):
            raise ValueError(f"player card {card} is already in play for another entry")
        self.next_entry = max(self.next_entry + 1, int(pid[1:]) if pid[1:].isdigit() else 0)
        kind = "re-entry" if person else "entry"
        entry = EntryJson(n=len(self.actions) + 1, kind=kind, player=pid, name=name, card=card, person=person,
                          paid=int(event.get("paid", 0)), chips=t.stack)
        self.actions.append(entry)
        words = f"{name}{' (re-entry of ' + t.players[person].name + ')' if person else ''}"
        if self.alternates or not t.open_seats():
            self.alternates.append(pid)
            self.waiting[pid] = (name, card, person)
            entry.alternate = True
            self._money()
            self._note("alternate", f"{words} registers as alternate {len(self.alternates)}: every seat is taken",
                       [], [], pid)
            self._seat_alternates()
            return entry
        self._money()
        self._enter(pid, name, card, person, words)
        return entry

    def _enter(self, pid: str, name: str, card: str, person: str, words: str) -> None:
        decisions = self.tournament.enter(pid, name, card=card, person=person)
        if self.money is not None and self.money.bounty:
            self.heads[pid] = self.money.bounty
        seated = decisions[0]
        assert isinstance(seated, Seated)
        self.moved.add(pid)  # dealt in as a moved player is, by the table's book
        self._note("seated", f"{words} draws {seated.table} seat {seated.seat} with "
                             f"{self.tournament.stack:,} chips", [seated.table], [seated.cite], pid)
        self._describe(decisions[1:])

    def _seat_alternates(self) -> None:
        """Alternates take the seats open now, in the order they registered (while entries are taken)."""
        t = self.tournament
        clock = self.structure.at(self.elapsed())
        started = any(table.hands for table in t.tables.values())
        while self.alternates and t.open_seats() and not self.over and (
                not started or self.structure.late_open(clock)):
            pid = self.alternates.pop(0)
            name, card, person = self.waiting.pop(pid)
            for entry in self.actions:
                if entry.player == pid:
                    entry.alternate = False
            self._money()
            self._enter(pid, name, card, person, f"Alternate {name}")

    def _knockouts(self, report: TableReport, seated: Mapping[int, str], decisions: Sequence[Decision]) -> None:
        """Each player eliminated: its bounty to who knocked it out, from the table's own ruling of the pot (the
        winners of the last pot it could win: its last chips), shared like that pot when split; progressive: half
        in cash, half onto the eliminator's head. The winner collects its own head."""
        money = self.money
        if money is None or not money.bounty:
            return
        pots = report.pots or []
        for d in decisions:
            if not isinstance(d, Eliminated):
                continue
            value = self.heads.pop(d.player, 0)
            ruling = [(i, p) for i, p in enumerate(pots) if d.seat in p.seats and p.amount and p.winners
                      and d.seat not in p.winners and d.seat not in p.low_winners]
            if not ruling or not value:
                continue
            index, pot = ruling[-1]
            order = [share.seat for share in pot.shares] or list(pot.winners)  # the core's order (odd chips first)
            by = [seated[s] for s in order if s in seated]
            cash, head = knockout(value, len(by), progressive=money.progressive)
            for pid, c, h in zip(by, cash, head, strict=True):
                self.bounty_won[pid] = self.bounty_won.get(pid, 0) + c
                self.heads[pid] = self.heads.get(pid, 0) + h
            names = " and ".join(self._name(pid) for pid in by)
            how = (f"{value:,}: " + ", ".join(f"{self._name(pid)} {c:,} cash" + (f" and {h:,} onto the head" if h
                                                                                   else "")
                                              for pid, c, h in zip(by, cash, head, strict=True)))
            self._note("knockout", f"{names} knocked out {self._name(d.player)} ({d.table} hand {d.hand}, "
                                   f"{_pot_name(index)} as the table ruled it): bounty {how}", [d.table],
                       [self.tournament.book.odd_chip_rule] if len(by) > 1 else [], d.player)
            self.knockouts.append(KnockoutJson(n=self.counted, player=d.player, by=by, cash=cash, head=head,
                                               table=d.table, hand=d.hand, pot=index))
        for d in decisions:
            if isinstance(d, Finished) and self.heads.get(d.winner):
                own = self.heads.pop(d.winner)
                self.bounty_won[d.winner] = self.bounty_won.get(d.winner, 0) + own
                self._note("knockout", f"{self._name(d.winner)} wins and collects the bounty on its own head: "
                                       f"{own:,}", [], [], d.winner)

    def _lock(self) -> None:
        """In the money (the players left no more than the places paid): the prizes are locked."""
        left = len(self.tournament.in_play())
        if self.money is None or self.locked or not self.payouts or left > len(self.payouts):
            return
        self.locked = self.tournament.entrants
        self._money()
        self._note("money", f"In the money: {left} players left, {len(self.payouts)} places paid; the prizes are "
                            f"locked: " + ", ".join(f"{i}. {v:,}" for i, v in enumerate(self.payouts, 1)), [], [])

    def _on_rebuy(self, event: Mapping[str, Any]) -> EntryJson:
        return self._bought(event, "rebuy")

    def _on_add_on(self, event: Mapping[str, Any]) -> EntryJson:
        return self._bought(event, "add-on")

    def _bought(self, event: Mapping[str, Any], kind: str) -> EntryJson:
        t, entries = self.tournament, self.structure.entries
        clock = self.structure.at(self.elapsed())
        pid = str(event["entry"])
        player = t.players.get(pid)
        if player is None or player.table is None:
            raise ValueError(f"{pid}: a {kind} is for a player in play")
        made = sum(1 for a in self.actions if a.kind == kind and a.player == pid and not a.undone)
        if kind == "rebuy":
            self._window("rebuy", self.structure.rebuy_open(clock), entries.rebuy_until_level)
            limit, chips = entries.rebuys, entries.rebuy_chips
            most = entries.rebuy_at_or_below or t.stack
            if player.chips > most:
                raise ValueError(f"{player.name} has {player.chips:,} chips: a rebuy is taken at or below {most:,}")
        else:
            first = self.structure.first_break()
            self._window("add-on", first is not None and clock.on_break is not None and clock.step == first,
                         0 if first is None else clock.level.number)
            limit, chips = entries.add_ons, entries.add_on_chips
        if made >= limit:
            raise ValueError(f"{player.name} has made {made} {kind}{'s' if made != 1 else ''}: the structure allows "
                             f"{limit}")
        t.add_chips(pid, chips)
        self.pending[pid] = self.pending.get(pid, 0) + chips
        entry = EntryJson(n=len(self.actions) + 1, kind=kind, player=pid, name=player.name, card=player.card,
                          paid=int(event.get("paid", 0)), chips=chips, table=player.table, hand=t.tables[
                              player.table].hands)
        self.actions.append(entry)
        self._money()
        self._note(kind, f"{player.name} at {player.table} seat {player.seat}: {kind} of {chips:,} chips, "
                         f"{player.chips:,} from the next deal", [player.table], [], pid)
        return entry

    def _on_undo(self, event: Mapping[str, Any]) -> EntryJson:
        n = int(event["n"])
        if not 1 <= n <= len(self.actions):
            raise ValueError(f"no action {n} to undo (there are {len(self.actions)})")
        entry = self.actions[n - 1]
        if entry.undone:
            raise ValueError(f"action {n} ({entry.kind} of {entry.name}) is undone already")
        t = self.tournament
        if entry.kind in ("rebuy", "add-on"):
            player = t.players[entry.player]
            if player.table != entry.table or t.tables[player.table].hands != entry.hand:
                raise ValueError(f"the {entry.kind} of {entry.name} has been played with already: it stands")
            player.chips -= entry.chips
            self.pending[entry.player] = self.pending.get(entry.player, 0) - entry.chips
        elif entry.player in self.waiting:
            self.alternates.remove(entry.player)
            del self.waiting[entry.player]
        else:
            decisions = t.withdraw(entry.player)  # ValueError once dealt a hand
            self.moved.discard(entry.player)
            self.heads.pop(entry.player, None)
            self._describe(decisions)
        entry.undone = True
        self._money()
        self._note("undo", f"Undone: {entry.kind} {n} of {entry.name} ({entry.paid:,} paid back)",
                   [entry.table] if entry.table else [], [], entry.player)
        if entry.kind in ("entry", "re-entry"):
            self._seat_alternates()
        return entry

    def _price(self, kind: str) -> int:
        money = self.money
        if money is None:
            return self.buy_in
        if kind == "rebuy":
            return money.rebuy_price or money.buy_in
        if kind == "add-on":
            return money.add_on_price or money.buy_in
        return money.buy_in + money.fee + money.bounty

    # -- a deal among the players left ---------------------------------------------------------------------------

    def make_deal(self, method: str, *, agreed: Sequence[str], play_for: int = 0,
                  custom: Mapping[str, int] | None = None) -> DealJson:
        """The players left agree to split the prizes of their places (ICM, chip-chop, custom), leaving `play_for` to
        be played for; every player left must agree (ValueError saying who has not). Journaled."""
        with self.lock:
            event = {"kind": "deal", "elapsed": self.elapsed(), "method": str(method)[:32],
                     "agreed": [str(p)[:64] for p in agreed], "play_for": int(play_for),
                     "custom": {str(k)[:64]: int(v) for k, v in (custom or {}).items()}}
            frozen = self._at is None
            if frozen:
                self._at = self.elapsed()
            self._counted_before = self.counted
            try:
                deal = self._on_deal(event)
            finally:
                if frozen:
                    self._at = None
            self._record({**event, "decided": [[d.n, d.kind, d.text] for d in self.decisions
                                               if d.n > self._counted_before]})
        self._changed()
        return deal

    def deal_preview(self, method: str, *, play_for: int = 0, custom: Mapping[str, int] | None = None) -> DealJson:
        """What a deal would give each player left (nothing recorded): the players look before they agree."""
        with self.lock:
            left = sorted(self.tournament.in_play(), key=lambda p: (-p.chips, p.id))
            if not self.payouts:
                raise ValueError("no prizes to deal: the tournament has no prize pool")
            unit = self.money.unit if self.money is not None else 1
            made = make_deal(str(method), players=[p.id for p in left], stacks=[p.chips for p in left],
                             prizes=self.payouts[:len(left)], play_for=int(play_for), unit=unit,
                             custom=custom or None)
            return DealJson(n=0, method=made.method, split=sum(made.shares), play_for=made.play_for,
                            shares=[DealShareJson(player=p.id, name=p.name[:200], chips=p.chips, share=share,
                                                  agreed=False)
                                    for p, share in zip(left, made.shares, strict=True)])

    def _on_deal(self, event: Mapping[str, Any]) -> DealJson:
        t = self.tournament
        if self.over:
            raise ValueError("the tournament is over: no deal")
        if self.deal is not None:
            raise ValueError("a deal has been made already")
        left = sorted(t.in_play(), key=lambda p: (-p.chips, p.id))
        missing = [p.name for p in left if p.id not in set(event["agreed"])]
        if missing:
            raise ValueError(f"a deal needs every player left to agree: not {', '.join(missing)}")
        strangers = sorted(set(event["agreed"]) - {p.id for p in left})
        if strangers:
            raise ValueError(f"{', '.join(strangers)}: not players left in the tournament")
        if not self.payouts:
            raise ValueError("no prizes to deal: the tournament has no prize pool")
        unit = self.money.unit if self.money is not None else 1
        made = make_deal(str(event["method"]), players=[p.id for p in left], stacks=[p.chips for p in left],
                         prizes=self.payouts[:len(left)], play_for=int(event.get("play_for", 0)), unit=unit,
                         custom=event.get("custom") or None)
        self._note("deal", f"Deal ({made.method}) agreed by all {len(left)} players left: " + "; ".join(
            f"{p.name} {share:,}" for p, share in zip(left, made.shares, strict=True))
            + (f"; {made.play_for:,} played for" if made.play_for else "; the places are played out"), [], [])
        self.deal = DealJson(n=self.counted, method=made.method, split=sum(made.shares), play_for=made.play_for,
                             shares=[DealShareJson(player=p.id, name=p.name[:200], chips=p.chips, share=share)
                                     for p, share in zip(left, made.shares, strict=True)])
        return self.deal

    def _prize(self, pid: str, first: int, last: int) -> int:
        """A place's prize: by the payouts, or by the deal for the players who made it (the winner takes what was
        played for besides)."""
        deal = self.deal
        if deal is not None:
            share = next((s.share for s in deal.shares if s.player == pid), None)
            if share is not None:
                return share + (deal.play_for if first == 1 else 0)
        return shared_prizes(self.payouts, first, last)[0] if self.payouts and first <= len(self.payouts) else 0

    def _money(self) -> None:
        """The prize pool from what the entries, rebuys and add-ons paid; the prizes from the payout table."""
        if self.money is not None:
            live = [a for a in self.actions if not a.undone and not a.alternate]
            self.purse = pool(self.money, entries=self.tournament.entrants,
                              rebuys=sum(1 for a in live if a.kind == "rebuy"),
                              add_ons=sum(1 for a in live if a.kind == "add-on"),
                              table_entries=self.locked or None)
            self.pool, self.payouts = self.purse.prize_pool, list(self.purse.prizes)
            return
        self.pool = self.buy_in * self.first_field + sum(a.paid for a in self.actions
                                                         if not a.undone and not a.alternate)
        self.payouts = prizes(self.pool, self.percents) if self.pool and self.percents else self.payouts

    # -- the tables' reports -------------------------------------------------------------------------

    def feed(self, topic: str, payload: bytes, _now: float = 0.0) -> None:
        """From the broker's thread: a table's report (anything else is counted and logged, never fatal)."""
        if topic == director_topic(self.room) or topic.endswith("/status"):
            return  # our own retained state, and the tables' status the subscriber watches
        if topic.endswith("/jackpot"):
            try:
                self._jackpot(topic, payload)
            except Exception:  # (the journal failing is said by `failed`): never stop the broker's thread
                self.rejected += 1
                logger.exception("tournament: a jackpot message on %s could not be taken in", topic[:200])
            return
        try:
            report = decode_report(topic, payload)
        except BadMessage as exc:
            self.rejected += 1
            logger.warning("tournament: refused a message on %s: %s", topic[:200], exc)
            parts = topic.split("/")
            self._refuse({"table": parts[2] if len(parts) == 4 else topic[:64], "kind": "message"},
                         f"not a report the schema takes: {exc}")
            return
        try:
            self.apply(report)
        except Refused:
            self.rejected += 1
        except Exception:  # any other report the director cannot apply must not stop the broker's thread
            self.rejected += 1
            logger.exception("tournament: %s's report %d could not be applied", report.table, report.seq)

    def apply(self, report: TableReport) -> list[Decision]:
        """Take a report in (the decisions it leads to), or refuse it (Refused, shown and journaled)."""
        with self.lock:
            frozen = self._at is None  # one clock reading for the whole report, as its replay will have it
            if frozen:
                self._at = self.elapsed()
            try:
                decisions = self._take(report)
            except Refused as exc:
                self._refuse(msgspec.to_builtins(report), str(exc))
                raise
            finally:
                if frozen:
                    self._at = None
            if decisions is None:
                return []  # a copy of a report taken in already
            self._record({"kind": "report", "elapsed": self._elapsed_taken, "report": msgspec.to_builtins(report),
                          "decided": [[d.n, d.kind, d.text] for d in self.decisions if d.n > self._counted_before]})
        self._changed()
        return decisions

    def _on_report(self, event: Mapping[str, Any]) -> None:
        report = msgspec.convert(event["report"], TableReport)
        try:
            self._take(report)
        except Refused as exc:  # the journal took it in: other code would now decide otherwise
            self.mismatches += 1
            logger.warning("tournament: the journal's report %s/%d is refused on replay: %s", report.table,
                           report.seq, exc)
            return
        made = [[d.n, d.kind, d.text] for d in self.decisions if d.n > self._counted_before]
        if made != [list(d) for d in event.get("decided", made)]:
            self.mismatches += 1
            logger.warning("tournament: replaying %s's report %d made decisions %s, the journal says %s",
                           report.table, report.seq, made, event.get("decided"))

    def _refuse(self, report: Mapping[str, Any], reason: str) -> None:
        with self.lock:
            table = str(report.get("table", ""))[:64]
            event = {"kind": "refused", "elapsed": self.elapsed(), "table": table,
                     "report_kind": str(report.get("kind", "")), "hand": report.get("hand", 0),
                     "seq": report.get("seq", 0), "session": str(report.get("session", ""))[:64],
                     "reason": reason[:1000]}
            logger.warning("tournament: refused %s's report %s (hand %s): %s", table, event["seq"], event["hand"],
                           reason)
            self._on_refused(event)
            if self.refused_by_table.get(table, 0) <= JOURNAL_REFUSED:
                self._record(event)
            now = time.monotonic()
            if now - self._refused_said < REFUSED_SAY_S:
                self.version += 1  # a flood: the page sees it, the room at the next second's state
                return
            self._refused_said = now
        self._changed()

    def _on_refused(self, event: Mapping[str, Any]) -> None:
        self.refused_total += 1
        table = str(event["table"])
        self.refused_by_table[table] = self.refused_by_table.get(table, 0) + 1
        hand, seq = event.get("hand", 0), event.get("seq", 0)
        self.refused.append(RefusedJson(
            n=self.refused_total, table=table[:64], kind=str(event.get("report_kind", ""))[:64],
            hand=hand if isinstance(hand, int) and 0 <= hand <= 10**9 else 0,
            seq=seq if isinstance(seq, int) and 0 <= seq < 2**53 else 0, session=str(event.get("session", ""))[:64],
            reason=str(event["reason"])[:1000]))
        del self.refused[:-KEEP_REFUSED]

    def _jackpot(self, topic: str, payload: bytes) -> None:
        """A table's jackpot hand (docs/jackpots.md): journaled, then on the page with the player in that seat; one that
        fails its schema is refused as any message is (shown with the reason), a copy is passed over."""
        try:
            message = decode(topic, payload)
            if not isinstance(message, JackpotMessage) or message.room != self.room:
                raise BadMessage(f"not a jackpot message of room {self.room}")
        except BadMessage as exc:
            self.rejected += 1
            parts = topic.split("/")
            self._refuse({"table": parts[2] if len(parts) == 4 else topic[:64], "kind": "jackpot"},
                         f"not a jackpot message the schema takes: {exc}")
            return
        with self.lock:
            if (message.table, message.session, message.seq, message.n) in self._jackpots_seen:
                return
            table = self.tournament.tables.get(message.table)
            pid = table.seats.get(message.seat) if table is not None else None
            player = self.tournament.players[pid].name[:200] if pid is not None else ""
            event = {"kind": "jackpot", "elapsed": self.elapsed(), "table": message.table, "player": player,
                     "message": msgspec.to_builtins(message)}
            self._record(event)
            self._on_jackpot(event)
            logger.warning("tournament: JACKPOT at %s hand %d: %s, seat %d (%s)", message.table, message.hand,
                           message.jackpot, message.seat, player or "nobody the director seats there")
        self._changed()

    def _on_jackpot(self, event: Mapping[str, Any]) -> None:
        m = event["message"]
        self._jackpots_seen.add((str(m["table"]), str(m["session"]), int(m["seq"]), int(m["n"])))
        self.jackpots.append(JackpotJson(
            table=m["table"], hand=m["hand"], jackpot=m["jackpot"], kind=m["kind"], seat=m["seat"],
            player=str(event.get("player", ""))[:200], held=m["held"], winners=list(m["winners"]), rule=m["rule"],
            remedy=m["remedy"], packet=m.get("packet", ""), session=m["session"], seq=m["seq"], n=m["n"]))
        del self.jackpots[:-KEEP_JACKPOTS]

    def _take(self, report: TableReport) -> list[Decision] | None:
        """The report checked against the books and applied; None for a copy (taken in before); Refused."""
        t = self.tournament
        self._counted_before = self.counted
        self._elapsed_taken = self.elapsed()
        if self.over:
            raise Refused(f"{report.table}: the tournament is over (every table stops dealing)")
        if report.table not in t.tables:
            raise Refused(f"{report.table} is not a table in play (broken, or not one of this tournament's)")
        known = self.sessions.get(report.table)
        if known == report.session and report.seq <= self.acked.get(report.table, 0):
            return None
        if report.draw != self.draws.get(report.table):
            if known not in (None, report.session):
                raise Refused(f"{report.table}: a report of draw {report.draw} under a new session; the table's "
                              f"draw is {self.draws.get(report.table)}")
            self._ack(report)  # a hand of a seating that is no more: nothing to take in
            return []
        last = self.last_hand.get(report.table, 0)
        table = t.tables[report.table]
        books = {seat: t.players[pid].chips for seat, pid in table.seats.items()}
        start = {s.seat: s.chips for s in report.start}
        end = {s.seat: s.chips for s in report.end}
        decisions: list[Decision] = []
        if report.kind == "race":
            decisions = self._race(report, books, start, end)
        elif report.kind == "checkin":  # every player checked in at the table now: replaces its last word
            self._ack(report)
            for player in [p for p, (at, _s) in self.checked_in.items() if at == report.table]:
                del self.checked_in[player]
            for seat_player in report.checked_in:
                self.checked_in[seat_player.player] = (report.table, seat_player.seat)
        elif report.kind == "all_in":
            if report.hand <= last:
                raise Refused(f"{report.table}: an all in called in hand {report.hand}, which the table reported "
                              f"over (its last hand taken in is {last})")
            self._ack(report)
            self.bubble.all_in_called(report.table, report.hand)
            if self.bubble.hand_for_hand and len(t.tables) > 1:
                self._note("all_in", f"All in called at {report.table}: the other tables hold their next deal",
                           [report.table], [])
        else:
            if report.button is None:
                raise Refused(f"{report.table}: a hand's report without its button")
            if report.hand <= last:
                raise Refused(f"{report.table}: hand {report.hand} again: the director took in hand {last} from this "
                              f"table already (session {report.session}: a report replayed?)")
            # chips bought (a rebuy, an add-on) while the table dealt this hand: played behind, on from the next
            behind = {s: self.pending.get(pid, 0) for s, pid in table.seats.items() if self.pending.get(pid, 0)}
            behind = {s: c for s, c in behind.items() if start.get(s) == books[s] - c}
            check_hand(table=report.table, books={s: c - behind.get(s, 0) for s, c in books.items()}, start=start,
                       end=end, in_play=t.total_chips(), pots=report.pots)
            end = {s: c + behind.get(s, 0) for s, c in end.items()}
            for pid in table.seats.values():
                self.pending.pop(pid, None)
            self._ack(report)
            self.last_hand[report.table] = report.hand
            self.sim_t = max(self.sim_t, report.t)
            seated = dict(table.seats)  # seat -> player as the hand was dealt (the knockouts' eliminators)
            decisions = t.hand_done(report.table, hand=report.hand, start=start, end=end, button=report.button,
                                    big_blind=report.big_blind)
            self.bubble.hand_over(report.table, t.tables)
            dealt = {t.players[pid].id for s, pid in t.tables[report.table].seats.items()
                     if s in start} if report.table in t.tables else set()
            self.moved -= dealt - {d.player for d in decisions if isinstance(d, Moved | Seated)}
            self._describe(decisions)
            self._knockouts(report, seated, decisions)
            self._seat_alternates()
            self._lock()
        self._tick_clock()
        return decisions

    def _race(self, report: TableReport, books: Mapping[int, int], start: Mapping[int, int],
              end: Mapping[int, int]) -> list[Decision]:
        if self.race is None or report.race != self.race[0]:
            raise Refused(f"{report.table}: a race report for color-up {report.race}; the latest is "
                          f"{self.race[0] if self.race else 'none'}")
        if self.raced.get(report.table, 0) >= report.race:
            raise Refused(f"{report.table}: color-up {report.race} was raced for here already")
        _n, chip, to = self.race
        if set(start) != set(books) or set(end) != set(books) or any(start[s] != books[s] for s in books):
            raise Refused(f"{report.table}: a race from stacks {dict(sorted(start.items()))}, the director has "
                          f"{dict(sorted(books.items()))}")
        # A race takes a player's odd chips (worth less than one new chip) and gives at most one new chip, its
        # rounding at most one more: no stack moves by more than that, none is left without a chip (WFP 6).
        wrong = [s for s in sorted(end) if not -to <= end[s] - start[s] <= 2 * to or end[s] <= 0]
        if wrong:
            raise Refused(f"{report.table}: the race moved seat {wrong[0]} by {end[wrong[0]] - start[wrong[0]]:+,} "
                          f"chips to {end[wrong[0]]:,}; a race takes odd chips worth less than one {to:,} chip and "
                          "gives one chip, and leaves everyone a chip")
        self._ack(report)
        self.raced[report.table] = report.race
        self.sim_t = max(self.sim_t, report.t)
        decisions = self.tournament.race_done(report.table, chip=chip, to=to, start=start, end=end)
        self._describe(decisions)
        return decisions

    def _ack(self, report: TableReport) -> None:
        self.sessions[report.table] = report.session
        self.acked[report.table] = report.seq

    def _tick_clock(self) -> None:
        clock = self.structure.at(self.elapsed())
        passed = self.structure.color_ups_between(self._clock_seen, clock)
        for color_up in passed:
            self.color_up = color_up.label()
            self.race = ((self.race[0] if self.race else 0) + 1, color_up.remove, color_up.to)
            self._note("color_up", f"Color-up after this level: {color_up.remove:,} chips off, their odd chips race "
                                   f"for {color_up.to:,} (WFP Tournament 6, UPT Tournaments 11: one card per odd "
                                   "chip, highest card by suit first)", list(self.tournament.tables), [])
        if clock.step != self._clock_seen.step and clock.on_break is None and not passed:
            self.color_up = ""
        if clock.level.number != self._clock_seen.level.number:
            self._note("level", f"Level {clock.level.number}: {clock.level.label()} from each table's next deal",
                       list(self.tournament.tables), [self.tournament.book.levels])
        self._clock_seen = clock

    # -- what the decisions say ------------------------------------------------------------------------

    def _note(self, kind: str, text: str, tables: list[str], cites: Sequence[Any], player: str = "") -> None:
        self.counted += 1
        self.decisions.append(DecisionJson(n=self.counted, kind=kind, text=text, tables=tables, player=player,
                                           cites=[CiteJson(**c.to_json()) for c in cites]))
        del self.decisions[:-KEEP_DECISIONS]

    def _name(self, pid: str) -> str:
        return self.tournament.players[pid].name

    def _describe(self, decisions: Sequence[Decision]) -> None:
        redrawn: set[str] = set()
        origins: dict[str, tuple[str, int]] = {}  # a broken table's players: where each sat (its draw's call)
        for d in decisions:
            if isinstance(d, Eliminated):
                shared = f" (shares {d.shared[0]}-{d.shared[1]})" if d.shared else ""
                self.moved.discard(d.player)
                self._note("eliminated", f"{self._name(d.player)} out at {d.table} seat {d.seat} in hand {d.hand}: "
                                         f"{_ordinal(d.place)} place{shared}", [d.table], [d.cite], d.player)
            elif isinstance(d, Moved):
                self.moved.add(d.player)
                self._note("moved", f"Move {self._name(d.player)} from {d.from_table} seat {d.from_seat} to "
                                    f"{d.to_table} seat {d.to_seat}: {d.dealt_in}", [d.from_table, d.to_table],
                           d.cites, d.player)
            elif isinstance(d, Broken):
                how = "every player draws a new table and seat" if d.redraw else "its players draw empty seats"
                self._note("broken", f"Break table {d.table} ({d.players} players): {how}", [d.table], [d.cite])
                for view in d.before:
                    if view.table == d.table:
                        origins.update({pid: (view.table, seat) for seat, pid in view.seats})
                self.draws.pop(d.table, None)
            elif isinstance(d, Redrawn):
                redrawn.update(d.tables)
                self._note("redrawn", f"Redraw for seats: {d.players} players on {len(d.tables)} table"
                                      f"{'s' if len(d.tables) > 1 else ''}", list(d.tables), [d.cite])
            elif isinstance(d, Seated) and d.why == "break":
                self.moved.add(d.player)
                origin = origins.get(d.player)
                came = f" from {origin[0]} seat {origin[1]}" if origin else ""
                self._note("seated", f"{self._name(d.player)}{came} draws {d.table} seat {d.seat}",
                           [*([origin[0]] if origin else []), d.table], [d.cite], d.player)
            elif isinstance(d, Seated):
                self.moved.discard(d.player)
            elif isinstance(d, ButtonPlaced) and redrawn:
                self._note("button", f"Button at {d.table} seat {d.seat}", [d.table], [d.cite])
            elif isinstance(d, Raced):
                moved_chips = sum(after - before for _s, before, after in d.changes)
                self._note("raced", f"Chip race at {d.table}: {d.chip:,} chips off for {d.to:,}; "
                                    f"{moved_chips:+,} chips in play", [d.table], [d.cite])
            elif isinstance(d, Finished):
                self._note("finished", f"{self._name(d.winner)} wins the tournament", [], [d.cite], d.winner)
                self._end()
        for table in redrawn:
            self.draws[table] = self.draws.get(table, 0) + 1
            self.acked[table] = self.acked.get(table, 0)
            self.last_hand.pop(table, None)  # a redrawn table starts again (a simulated one counts hands from 1)

    def _end(self) -> None:
        """The winner: the clock stops where it is, hand-for-hand ends, and every table stops dealing."""
        self.elapsed_before = self.elapsed()
        self.started_at = None
        was = self.bubble.hand_for_hand
        self.bubble.stop()
        self._note("over", "The tournament is over: the clock is stopped, " + ("hand-for-hand ended, " if was else "")
                   + "every table stops dealing", list(self.tournament.tables), [])

    # -- the state the room reads --------------------------------------------------------------------

    def state(self) -> DirectorState:
        with self.lock:
            t = self.tournament
            clock = self.structure.at(self.elapsed())
            tables = []
            for table in t.tables.values():
                seats = [SeatJson(seat=s, player=pid, name=t.players[pid].name[:200], chips=t.players[pid].chips,
                                  moved=pid in self.moved, card=t.players[pid].card[:200])
                         for s, pid in sorted(table.seats.items())]
                hold = "" if self.over else self.bubble.may_deal(table.id)[1]
                tables.append(TableJson(table=table.id, draw=self.draws.get(table.id, 1), button=table.button,
                                        seats=seats, acked=self.acked.get(table.id, 0), hold=hold,
                                        session=self.sessions.get(table.id, ""), hand=self.last_hand.get(table.id, 0)))
            rules = {d.player: d.cite for d in t.log if isinstance(d, Eliminated)}
            rules.update({d.winner: d.cite for d in t.log if isinstance(d, Finished)})
            places = []
            for p in t.places():
                assert p.place is not None
                first, last = p.shared if p.shared else (p.place, p.place)
                prize = self._prize(p.id, first, last)
                cite = rules.get(p.id)
                rule = f"{cite}" + (f" ({cite.note})" if cite is not None and cite.note else "") if cite else ""
                places.append(PlaceJson(place=p.place, player=p.id, name=p.name[:200],
                                        shared=list(p.shared) if p.shared else None, prize=prize, rule=rule[:4000],
                                        bounty=self.bounty_won.get(p.id, 0)))
            winner = next((t.players[d.winner].name for d in t.log if isinstance(d, Finished)), "")
            self.seq += 1
            return DirectorState(
                v=1, room=self.room, seq=self.seq, profile=t.book.profile, title=t.book.title,
                structure=self.structure.name, level=_level(clock.level) or LevelJson(number=0, small=0, big=0),
                next_level=_level(clock.next_level), on_break=clock.on_break is not None,
                remaining_s=clock.remaining_s,
                running=not self.over and (self.sim_clock or self.started_at is not None),
                entrants=t.entrants, remaining=len(t.in_play()), chips_in_play=t.total_chips(), tables=tables,
                decisions=list(self.decisions[-60:]), places=places, payouts=self.payouts,
                hand_for_hand=self.bubble.hand_for_hand, all_in=sorted(self.bubble.all_in), winner=winner,
                color_up=self.color_up,
                race=RaceJson(n=self.race[0], chip=self.race[1], to=self.race[2]) if self.race else None,
                session=self.session, tournament=self.tournament_id, over=self.over, pool=self.pool,
                refused=list(self.refused), refused_total=self.refused_total,
                denominations=list(self.structure.chips_at(clock.step)), entries=list(self.actions),
                alternates=[self.waiting[a][0] for a in self.alternates], late=self._late_words(clock),
                money=self._money_json(), deal=self.deal, knockouts=list(self.knockouts[-200:]),
                bounties=[BountyJson(player=pid, name=t.players[pid].name[:200], head=self.heads.get(pid, 0),
                                     won=self.bounty_won.get(pid, 0))
                          for pid in sorted(set(self.heads) | set(self.bounty_won)) if pid in t.players][:1000],
                jackpots=list(self.jackpots),
                checked_in=[CheckedIn(player=player, table=at, seat=seat)
                            for player, (at, seat) in sorted(self.checked_in.items())][:1000])

    def _money_json(self) -> MoneyJson | None:
        purse, money = self.purse, self.money
        if purse is None or money is None:
            return None
        return MoneyJson(collected=purse.collected, fees=purse.fees, rake=purse.rake, overlay=purse.overlay,
                         bounties=purse.bounties, bounty=money.bounty, progressive=money.progressive,
                         guarantee=money.guarantee, prize_pool=purse.prize_pool, unit=money.unit,
                         table=purse.table[:4000], locked=bool(self.locked))

    def _late_words(self, clock: Any) -> str:
        entries = self.structure.entries
        if self.over:
            return ""
        words = []
        if self.structure.late_open(clock):
            words.append(f"late registration through level {entries.late_registration_until_level}"
                         + (f", {entries.re_entries} re-entr{'y' if entries.re_entries == 1 else 'ies'} a player"
                            if entries.re_entries else ""))
        if entries.rebuys and self.structure.rebuy_open(clock):
            words.append(f"rebuys of {entries.rebuy_chips:,} through level {entries.rebuy_until_level}")
        if entries.add_ons and clock.on_break is not None and clock.step == self.structure.first_break():
            words.append(f"the add-on of {entries.add_on_chips:,} (this break)")
        return "; ".join(words)

    def results(self, *, cards: bool = True) -> dict[str, Any]:
        """The results as the export has them (JSON; `results_csv` the same places as CSV): each entry's place,
        prize, bounties, rebuys and add-ons, the entry it re-entered for, its deal share; the money and the deal.
        `cards=False` (the page's public results): each player card's id left empty."""
        with self.lock:
            state = self.state()
            t = self.tournament
            bought: dict[str, dict[str, int]] = {}
            for a in self.actions:
                if not a.undone and a.kind in ("rebuy", "add-on"):
                    bought.setdefault(a.player, {}).setdefault(a.kind, 0)
                    bought[a.player][a.kind] += 1
            shares = {s.player: s.share for s in self.deal.shares} if self.deal else {}
            rows = []
            for p in state.places:
                player = t.players.get(p.player)
                rows.append({"place": p.place, "shared": p.shared, "entry": p.player, "name": p.name,
                             "card": player.card if player and cards else "",
                             "re_entry_of": player.person if player else "",
                             "prize": p.prize, "bounties": p.bounty, "deal_share": shares.get(p.player),
                             "rebuys": bought.get(p.player, {}).get("rebuy", 0),
                             "add_ons": bought.get(p.player, {}).get("add-on", 0), "rule": p.rule})
            return {"tournament": self.tournament_id, "room": self.room, "title": state.title,
                    "structure": state.structure, "over": state.over, "winner": state.winner,
                    "entries": state.entrants, "re_entries": sum(1 for a in self.actions
                                                                if a.kind == "re-entry" and not a.undone),
                    "pool": state.pool, "payouts": state.payouts,
                    "money": msgspec.to_builtins(state.money) if state.money else None,
                    "deal": msgspec.to_builtins(state.deal) if state.deal else None, "places": rows}

    def results_csv(self, *, cards: bool = True) -> str:
        import csv  # noqa: PLC0415
        import io  # noqa: PLC0415

        out = io.StringIO()
        fields = ["place", "shared", "entry", "name", "card", "re_entry_of", "prize", "bounties", "deal_share",
                  "rebuys", "add_ons", "rule"]
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for row in self.results(cards=cards)["places"]:
            shared = row["shared"]
            cells = {**row, "shared": f"{shared[0]}-{shared[1]}" if shared else "",
                     "deal_share": "" if row["deal_share"] is None else row["deal_share"]}
            # a spreadsheet must not read a name as a formula
            writer.writerow({k: ("'" + v if isinstance(v, str) and v[:1] in "=+-@\t\r" else v)
                             for k, v in cells.items()})
        return out.getvalue()

    def _changed(self) -> None:
        self.version += 1
        if self.on_change is not None:
            try:
                self.on_change(self.state())
            except Exception:  # a listener's bug must not stop the director
                logger.exception("tournament: publishing the state failed")


# -- making a director: from the options (a new journal) or from its journal ----------------------------------

def begin_event(*, room: str, profile: str, structure_text: str, structure_source: str, tables: Sequence[str],
                seats: int, entrants: Sequence[tuple[str, ...]], seed: int, percents: Sequence[float],
                buy_in: int, sim_clock: bool = False) -> dict[str, Any]:
    """The journal's first event: everything the tournament is made from (its field, structure, seed, payouts)."""
    return {"kind": "begin", "v": 1, "room": room, "profile": profile, "structure": structure_text,
            "structure_source": structure_source, "tables": list(tables), "seats": seats,
            "entrants": [list(e) for e in entrants], "seed": seed, "percents": list(percents), "buy_in": buy_in,
            "sim_clock": sim_clock, "tournament": f"t{time.time_ns():x}", "at": time.time()}


def director_from(begin: Mapping[str, Any], *, journal: Any = None,
                  wall: Callable[[], float] = time.time) -> Director:
    """The director a `begin` event describes (ValueError naming what is wrong)."""
    structure = parse_structure(str(begin["structure"]), str(begin.get("structure_source", "the journal")))
    field = [[str(x) for x in e] for e in begin["entrants"]]  # [id, name] or [id, name, player card]
    entrants = [(e[0], e[1]) for e in field]
    tournament = Tournament(book=book_for(str(begin["profile"])), tables=list(begin["tables"]),
                            capacity=int(begin["seats"]), entrants=entrants, stack=structure.starting_stack,
                            seed=int(begin["seed"]))
    for e in field:
        if len(e) > 2:
            tournament.players[e[0]].card = e[2][:64]
    buy_in = int(begin.get("buy_in", 0))
    money = None
    if begin.get("money"):
        table = parse_payout_table(str(begin["payouts_text"]), str(begin.get("payouts_source", "the journal")))
        money = parse_money(str(begin["money"]), str(begin.get("money_source", "the journal")), table)
    purse = buy_in * len(entrants)
    payouts = prizes(purse, [float(p) for p in begin.get("percents", [])]) if purse else []
    return Director(room=str(begin["room"]), tournament=tournament, structure=structure, payouts=payouts,
                    sim_clock=bool(begin.get("sim_clock", False)), journal=journal,
                    tournament_id=str(begin.get("tournament", "")), pool=purse, wall=wall,
                    percents=[float(p) for p in begin.get("percents", [])], buy_in=buy_in, money=money)


def start(begin: dict[str, Any], journal: Any) -> Director:
    """A new tournament in an empty journal: its `begin` event first."""
    journal.set_meta("journal", JOURNAL_KIND)
    director = director_from(begin, journal=journal)
    journal.append_lines([_line(begin)])
    return director


def journal_events(journal: Any) -> Iterator[dict[str, Any]]:
    for row in journal.rows():
        event = json.loads(row.line)
        if not isinstance(event, dict):
            raise ValueError(f"{journal.path}: event #{row.seq} is not a director's event")
        yield event


def resume(journal: Any) -> Director:
    """The director as its journal left it: `begin`, then every event replayed."""
    events = journal_events(journal)
    begin = next(events, None)
    if begin is None or begin.get("kind") != "begin":
        raise ValueError(f"{journal.path}: not a director's journal (its first event is not a tournament's begin)")
    director = director_from(begin, journal=journal)
    director.replay(events)
    return director
