"""A table in a tournament (`[room] tournament = true`): it follows the director and reports to it.

- The level for the next deal comes from the director's state (WFP Tournament 5: a new level applies
  from the next deal): a `level` event between hands.
- The seats too: a player the director has moved or eliminated leaves (`seat` out), a player moved here
  sits down (`seat` in, `moved`: the core deals the player in as the profile says, e.g. UPT 16) with the
  chips the director has for them (`stacks`). All of it goes through the daemon's queue, so it is
  journaled like any other event: a move is on the record at both tables.
- After each hand the table reports its stacks before and after, its button and big blind; during
  hand-for-hand it reports an all in called as soon as the betting closes on one (the director then holds
  the other tables' next deal: wfp-dealer "All In / Bubble").
- What the people at the table must know (`TournamentNotice`): hand-for-hand, a hold on the next deal
  and why, the director's calls for this table by the player's name, and the players' names by seat. The
  venue screen shows it, the table's `state` topic carries it.

`TableFollower` is the logic (no I/O: snapshots and director states in, events and reports out);
`TournamentTable` the daemon component around it (its own broker connection, the daemon's queue).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from firmware_py.core import CheckIn, Draw, Level, Name, Race, Seat, SeatStatus, Setup, Stacks
from firmware_py.core.chips import Stakes
from firmware_py.core.events import NAME_MAX, PLAYER_ID_PATTERN
from firmware_py.core.phase import Phase
from firmware_py.core.snapshot import LIVE, PlayerState, TableSnapshot
from firmware_py.ports import Shown
from firmware_py.room.messages import BadMessage
from firmware_py.room.room_config import RoomConfig
from firmware_py.room.tournament_messages import (
    DirectorState,
    PotJson,
    PotShare,
    SeatJson,
    SeatPlayer,
    SeatStack,
    TableJson,
    TableReport,
    decode_director,
    director_topic,
    encode,
    newer,
    report_topic,
)
from firmware_py.tournament.notice import TournamentNotice, hold_words

if TYPE_CHECKING:
    from firmware_py.ports import TablePort

logger = logging.getLogger(__name__)
Event = Setup | Seat | Stacks | Level | Race | Name | Draw | CheckIn
CALLED_KINDS = frozenset({"moved", "seated", "eliminated", "broken", "redrawn", "button"})  # shown at the table
MAX_CALLS = 6


def all_in_called(snap: TableSnapshot) -> bool:
    """An all in stands against another live hand and the betting on it is closed: the all in was called."""
    if snap.phase not in (Phase.BETTING, Phase.BOARD, Phase.SHOWDOWN):
        return False
    live = [v for v in snap.seats if v.state in LIVE]
    if len(live) < 2 or not any(v.state is PlayerState.ALLIN for v in live):
        return False
    return snap.phase is not Phase.BETTING or snap.to_act is None


def seat_name(name: str) -> str:
    """The director's name for a player as the table journals it (a `name` event holds NAME_MAX characters, what
    the venue screen's seat box and the tracker's field show): longer ones shortened, with an ellipsis."""
    name = " ".join(name.split())
    return name if len(name) <= NAME_MAX else name[:NAME_MAX - 1].rstrip() + "\u2026"


def pots_of(snap: TableSnapshot) -> list[PotJson]:
    """The hand's pots as the core ruled them (main pot first; a last one-seat pot is chips nobody could match,
    going back): what the director checks every stack change against. None of a hand with no chips view."""
    if snap.chips is None:
        return []
    return [PotJson(amount=pot.amount, seats=list(pot.seats), winners=list(pot.winners),
                    shares=[PotShare(seat=seat, chips=chips) for seat, chips in pot.shares],
                    low_winners=list(pot.low_winners))
            for pot in snap.chips.pots]


class TableFollower:
    """What the table does for the director, between hands; what it tells the director after each hand."""

    def __init__(self, *, room: str, table: str, session: str, setup: Setup | None = None,
                 starts_races: bool = True, checks_in: bool = False) -> None:
        self.room, self.table, self.session = room, table, session
        # Players checked in by card ([checkin], docs/checkin.md): the director's seats go to the core as its
        # `draw`, so a deal to a seat whose drawn player is not at it is ruled. Off without player cards: a table
        # that cannot check anyone in would find every seat's player absent.
        self.checks_in = checks_in
        self.drawn: tuple[tuple[int, str], ...] | None = None  # the draw last posted
        self.told_in: tuple[tuple[int, str], ...] | None = None  # the check-ins here last reported to the director
        self.elsewhere: dict[str, tuple[str, int]] = {}  # drawn here, checked in at another table: told the core
        # At the director's color-up the table starts the chip race itself (a `race` event before its next deal,
        # reported once ruled); the simulated room (simulation/tournament_sim.py) deals its races its own way.
        self.starts_races = starts_races
        # The table's own setup (profile, decks, game): with it, a fresh table and a redraw are seated by a new
        # setup with the director's seats and drawn button (WFP 3, UPT 8, RPL 7), not by its dead-button rule.
        self.setup = setup
        self.entry: TableJson | None = None
        self.level: tuple[int, int, int, int] | None = None
        self.wanted_level: tuple[int, int, int, int] | None = None
        self.players: dict[int, str] = {}  # seat -> player, as the table was last made
        self.draw: int | None = None
        self.seq = 0
        self.reported = -1  # the last hand number reported (-1: none seen yet)
        self.start: dict[int, int] = {}
        self.last: TableSnapshot | None = None
        self.waiting = False  # events posted and not yet seen in a snapshot
        self.state: DirectorState | None = None
        self.names: dict[int, str] = {}  # seat -> the player's name, as the table was last made
        self.calls: dict[int, str] = {}  # the director's decisions for this table (n -> text) still to be shown
        self.seen_n = 0  # the newest decision number seen
        self.applied_n = 0  # the newest decision number when the table was last made as the director says
        self.dealt = -1  # the last hand number seen being dealt
        self.all_in_hand = -1  # the hand an all in called was reported for
        self.notice = TournamentNotice()
        self._asked: set[Any] = set()  # (the table as it was, the events asked of it) since the last deal
        self.outbox: list[TableReport] = []  # reports made outside a snapshot (a restart's catch-up)
        # The chip race at a color-up (WFP 6, UPT 11, RPL 10): the director's latest color-up this table has run
        # (or that came before it was made), and the one it is running: (n, the stacks before it).
        self.raced = 0
        self.racing: tuple[int, dict[int, int]] | None = None
        # The director takes a table's hands in order whatever the table's session (a replayed report is refused):
        # a table that counts from 0 again (a new core, a new journal) numbers its reports after the director's
        # last hand of it (`TableJson.hand`).
        self.offset = 0

    def race_report(self, *, race: int, t: float, start: dict[int, int], end: dict[int, int]) -> TableReport:
        """The report of a chip race the table ran at the director's color-up number `race`."""
        self.seq += 1
        self.start = dict(end)
        return TableReport(v=1, room=self.room, table=self.table, session=self.session, seq=self.seq, kind="race",
                           hand=self.reported + self.offset if self.reported > 0 else 0, t=t, draw=self.draw or 0,
                           race=race,
                           start=[SeatStack(seat=s, chips=c) for s, c in sorted(start.items())],
                           end=[SeatStack(seat=s, chips=c) for s, c in sorted(end.items())])

    def restart(self) -> None:
        """The table started again (a new setup, seated by the director's draw): its seats are the draw's.
        The report count goes on (the director counts reports per session)."""
        self.players, self.draw, self.reported, self.start = {}, None, -1, {}
        self.last, self.waiting, self.level, self.drawn = None, False, None, None
        self.told_in, self.elsewhere = None, {}
        self.names, self.dealt, self.all_in_hand = {}, -1, -1

    def director(self, state: DirectorState) -> list[Event]:
        """A new director's state; the events to post now if the table is between hands."""
        self.entry = next((t for t in state.tables if t.table == self.table), None)
        if self.state is not None and state.session != self.state.session and (
                not state.tournament or state.tournament != self.state.tournament):
            # another tournament: its decisions count anew (a director resumed from its journal counts on)
            self.calls, self.seen_n, self.applied_n = {}, 0, 0
        self.state = state
        level = state.level
        self.wanted_level = (level.small, level.big, level.ante, level.bb_ante)
        for decision in state.decisions:
            if decision.n > self.seen_n and decision.kind in CALLED_KINDS and self.table in decision.tables:
                self.calls[decision.n] = decision.text
        self.seen_n = max([self.seen_n, *(d.n for d in state.decisions)])
        if self.draw is None and self.entry is not None:  # not made yet: the names the director has now
            self.names = {s.seat: s.name for s in self.entry.seats}
        events = self._sync()
        self._notify()
        return events

    def _notify(self) -> None:
        """The notice as the director's state and the table stand now."""
        state, entry = self.state, self.entry
        if state is None:
            return
        all_in = tuple(state.all_in)
        hold, rule = hold_words(self.table, hold=entry.hold if entry is not None else "",
                                hand_for_hand=state.hand_for_hand, all_in=all_in)
        if state.over:  # the winner: the table deals no more (the venue screen shows it as the hold)
            hold = f"the tournament is over ({state.winner} wins): deal no more" if state.winner else \
                "the tournament is over: deal no more"
            rule = state.decisions[-1].text if state.decisions else ""
        calls = tuple(text for _n, text in sorted(self.calls.items())[-MAX_CALLS:])
        self.notice = TournamentNotice(hand_for_hand=state.hand_for_hand, hold=hold, hold_rule=rule, all_in=all_in,
                                       calls=calls, names=tuple(sorted(self.names.items())),
                                       level=state.level.number, blinds=Stakes(
                                           small=state.level.small, big=state.level.big, ante=state.level.ante,
                                           bb_ante=state.level.bb_ante).label(),
                                       remaining_s=state.remaining_s, running=state.running, on_break=state.on_break)

    def all_in_report(self, snap: TableSnapshot) -> TableReport | None:
        """During hand-for-hand, an all in called in this hand (once a hand): the director holds the others."""
        state = self.state
        if (state is None or not state.hand_for_hand or snap.hand_number == self.all_in_hand
                or not all_in_called(snap)):
            return None
        self.all_in_hand = snap.hand_number
        self.seq += 1
        return TableReport(v=1, room=self.room, table=self.table, session=self.session, seq=self.seq, kind="all_in",
                           hand=snap.hand_number + self.offset, t=snap.t, draw=self.draw or 0)

    def snapshot(self, snap: TableSnapshot) -> tuple[list[Event], list[TableReport]]:
        """A new snapshot of the table: the report of a hand just over, and the events to post."""
        self.last = snap
        self.waiting = False
        reports: list[TableReport] = []
        if self.reported < 0:
            self.reported = snap.hand_number  # hands before we were following are not ours to report
        if snap.phase is not Phase.IDLE and snap.hand_number > self.dealt:
            self.dealt = snap.hand_number  # a new deal: the calls the table has carried out are done
            self._asked = set()
            done = [n for n in self.calls if n <= self.applied_n]
            for n in done:
                del self.calls[n]
            self._notify()
        all_in = self.all_in_report(snap)
        if all_in is not None:
            reports.append(all_in)
        race = self._race_over(snap)
        if race is not None:
            reports.append(race)
        checked = self._checkin_report(snap)
        if checked is not None:
            reports.append(checked)
        if snap.phase is Phase.IDLE:
            stacks = {v.seat: v.stack for v in snap.seats if v.stack is not None and v.state is not PlayerState.EMPTY}
            if snap.hand_number > self.reported and self.start and snap.button is not None:
                self.reported = snap.hand_number
                self.seq += 1
                seats = sorted(set(self.start) & set(stacks))
                reports.append(TableReport(
                    v=1, room=self.room, table=self.table, session=self.session, seq=self.seq, kind="hand",
                    hand=snap.hand_number + self.offset, t=snap.t, draw=self.draw or 0, button=snap.button,
                    big_blind=snap.big_blind, start=[SeatStack(seat=s, chips=self.start[s]) for s in seats],
                    end=[SeatStack(seat=s, chips=stacks[s]) for s in seats], pots=pots_of(snap)))
            self.start = {s: c for s, c in stacks.items() if s in self.players}
        events = self._sync()
        if events:
            self._notify()
        reports.extend(self.outbox)
        self.outbox.clear()
        return events, reports

    def _checkin_report(self, snap: TableSnapshot) -> TableReport | None:
        """With player cards: the players checked in here, to the director when they change (every one: the report
        replaces the table's last), so another table that drew one of them is told where the player is."""
        if not self.checks_in or self.draw is None or snap.checked_in == self.told_in:
            return None
        self.told_in = snap.checked_in
        self.seq += 1
        return TableReport(v=1, room=self.room, table=self.table, session=self.session, seq=self.seq, kind="checkin",
                           hand=max(0, snap.hand_number + self.offset), t=snap.t, draw=self.draw,
                           checked_in=[SeatPlayer(seat=seat, player=player) for seat, player in snap.checked_in])

    def _checked_in_elsewhere(self, t: float, wanted: dict[int, SeatJson]) -> list[Event]:
        """Players drawn here whose cards the director has at another table: a `checkin` with that table for each
        new place, so a deal to their seats here is ruled with where they are (docs/checkin.md)."""
        state = self.state
        if state is None or not self.drawn:
            return []
        places = {c.player: (c.table, c.seat) for c in state.checked_in}
        events: list[Event] = []
        elsewhere: dict[str, tuple[str, int]] = {}
        for seat, player in self.drawn:
            place = places.get(player)
            if place is None or place[0] == self.table:
                continue
            elsewhere[player] = place
            if self.elsewhere.get(player) != place:
                name = wanted[seat].name[:NAME_MAX] if seat in wanted else player
                events.append(CheckIn(t=t, player=player, name=name, seat=place[1], table=place[0]))
        self.elsewhere = elsewhere
        return events

    def _race_over(self, snap: TableSnapshot) -> TableReport | None:
        """The race this table started, once the core has ruled it: its report (the stacks before and after);
        dropped with a warning if the table deals on without it (the core did not take the `race` event: its
        notice says why)."""
        if self.racing is None:
            return None
        n, start = self.racing
        if snap.race is None and snap.phase is Phase.IDLE:
            return None  # not taken in yet (a snapshot of an event queued before it), or refused: the deal tells
        if snap.race is None or snap.phase is not Phase.IDLE:
            logger.warning("tournament: the table did not run the chip race of color-up %d (%s)", n,
                           snap.notices[-1:] if snap.notices else "no notice")
            self.raced, self.racing = n, None
            return None
        if not snap.race.done:
            return None
        end = {v.seat: v.stack for v in snap.seats if v.stack is not None and v.state is not PlayerState.EMPTY}
        self.raced, self.racing = n, None
        return self.race_report(race=n, t=snap.t, start={s: c for s, c in start.items() if s in end}, end=end)

    def _catch_up(self, snap: TableSnapshot, wanted: dict[int, SeatJson]) -> TableReport | None:
        """Restarted in the middle of a tournament with stacks that are not the director's: a hand finished before
        the restart was never reported (the daemon went down between its end and the report). Reported now, as the
        table's hand (the director's chips before, the table's after), when the same seats hold the same chips in
        all; else the table is made as the director says, and the log says what was lost."""
        stacks = {v.seat: v.stack for v in snap.seats if v.state is not PlayerState.EMPTY}
        director = {s: v.chips for s, v in wanted.items()}
        if stacks == director or snap.button is None:
            return None
        if set(stacks) != set(director) or sum(c or 0 for c in stacks.values()) != sum(director.values()):
            logger.warning("tournament: after the restart the table's stacks %s are not the director's %s, and they "
                           "cannot be a hand it missed: the director's are taken", stacks, director)
            return None
        self.seq += 1
        self.reported = snap.hand_number
        self.start = {s: c for s, c in stacks.items() if c is not None}
        logger.warning("tournament: hand %d was not reported before the restart: reported now", snap.hand_number)
        return TableReport(v=1, room=self.room, table=self.table, session=self.session, seq=self.seq, kind="hand",
                           hand=snap.hand_number, t=snap.t, draw=self.entry.draw if self.entry else 0,
                           button=snap.button, big_blind=snap.big_blind,
                           start=[SeatStack(seat=s, chips=c) for s, c in sorted(director.items())],
                           end=[SeatStack(seat=s, chips=self.start[s]) for s in sorted(director)],
                           pots=pots_of(snap))

    def _reseat(self, snap: TableSnapshot, wanted: dict[int, SeatJson], occupied: set[int], *,
                redraw: bool) -> list[Event]:
        """Players out and in, seat by seat (a moved player dealt in as the profile says), and their chips."""
        t = snap.t
        events: list[Event] = []
        if self.draw is None:  # the first state: the table was set up from the draw, its players are the draw's
            self.players = {s: wanted[s].player for s in occupied if s in wanted}
        leaving = sorted(s for s in occupied if redraw or s not in wanted or self.players.get(s) != wanted[s].player)
        for seat in leaving:
            events.append(Seat(t=t, seat=seat, status=SeatStatus.OUT))
        staying = occupied - set(leaving)
        arriving = sorted(s for s in wanted if s not in staying)
        for seat in arriving:
            events.append(Seat(t=t, seat=seat, status=SeatStatus.IN, moved=wanted[seat].moved and not redraw))
        stacks = {v.seat: v.stack for v in snap.seats if v.state is not PlayerState.EMPTY}
        moved = [(s, wanted[s].chips) for s in arriving if wanted[s].moved and not redraw]
        if moved:  # journaled with why "moved": the venue screen calls the player to the seat
            events.append(Stacks(t=t, stacks=tuple(moved), why="moved"))
        fix = [(s, wanted[s].chips) for s in sorted(wanted) if (s in arriving or stacks.get(s) != wanted[s].chips)
               and (s, wanted[s].chips) not in moved]
        if fix:
            events.append(Stacks(t=t, stacks=tuple(fix)))
        return events

    def _drawn(self, wanted: dict[int, SeatJson]) -> tuple[tuple[int, str], ...]:
        """The director's seats as the core's draw, by the player card's id the director registered (else the entry's
        id); an id a player card cannot carry leaves its seat unchecked."""
        drawn = []
        for seat in sorted(wanted):
            player = wanted[seat].card or wanted[seat].player
            if re.match(PLAYER_ID_PATTERN, player) is None:
                logger.warning("tournament: player id %r (seat %d) cannot be a player card's: seat not checked",
                               player, seat)
                continue
            drawn.append((seat, player))
        return tuple(drawn)

    @staticmethod
    def _names(snap: TableSnapshot, wanted: dict[int, SeatJson]) -> list[Event]:
        """The director's players by name, journaled as `name` events (the name typed at registration on the
        director's page, or the entrants file's): one source for a player, so the venue screen, the tracker, the
        broadcast, the floor and the hand histories, live or exported from the journal, all read the same name.
        A seat the director has emptied gets its default back (its player's name leaves with the player)."""
        have = dict(snap.names)
        events: list[Event] = []
        for seat in sorted(set(have) | set(wanted)):
            name = seat_name(wanted[seat].name) if seat in wanted else ""
            if have.get(seat, "") != name:
                events.append(Name(t=snap.t, seat=seat, name=name))
        return events

    def _sync(self) -> list[Event]:
        snap = self.last
        if snap is None or snap.phase is not Phase.IDLE or self.waiting or self.entry is None:
            return []
        if self.seq and (self.entry.session != self.session or self.entry.acked < self.seq):
            return []  # the director has not taken in our last hand yet: its seats are older than ours
        t = snap.t
        events: list[Event] = []
        wanted = {s.seat: s for s in self.entry.seats}
        redraw = self.draw is not None and self.entry.draw != self.draw
        occupied = {v.seat for v in snap.seats if v.state is not PlayerState.EMPTY}
        fresh = self.draw is None and snap.hand_number == 0  # not a restart in the middle of the tournament
        if self.draw is None or redraw:
            self.offset = max(0, self.entry.hand - snap.hand_number)
        if self.draw is None and not fresh and self.entry.session != self.session:
            catch_up = self._catch_up(snap, wanted)
            if catch_up is not None:  # the director first takes in what the table played while it could not report
                self.outbox.append(catch_up)
                self.players = {s: v.player for s, v in wanted.items()}
                self.names = {s: v.name for s, v in wanted.items()}
                self.draw = self.entry.draw
                return []
        if self.setup is not None and (fresh or redraw) and wanted:
            seats = tuple(sorted(wanted))
            button = self.entry.button if self.entry.button in wanted else seats[0]
            # the director's chips in play when its structure names them (a color-up already passed: without it)
            chips = tuple(self.state.denominations) if self.state is not None and self.state.denominations else None
            events.append(dataclasses.replace(self.setup, t=t, seats=seats, button=button,
                                              denominations=chips if chips is not None else self.setup.denominations))
            events.append(Stacks(t=t, stacks=tuple((s, wanted[s].chips) for s in seats)))
        else:
            events.extend(self._reseat(snap, wanted, occupied, redraw=redraw))
        if self.wanted_level is not None and self.wanted_level != self.level:
            small, big, ante, bb_ante = self.wanted_level
            events.append(Level(t=t, small=small, big=big, ante=ante, bb_ante=bb_ante))
            self.level = self.wanted_level
        race = self.state.race if self.state is not None else None
        if self.starts_races and race is not None and race.n > self.raced and self.racing is None:
            if self.draw is None or fresh or redraw:
                self.raced = race.n  # made after that color-up: the director's chips are already colored up
            else:  # the table runs the race before its next deal: the screen shows it, the dealer deals it
                events.append(Race(t=t, chip=race.chip, to=race.to))
                self.racing = (race.n, {s: wanted[s].chips for s in wanted})
                if self.setup is not None and self.setup.denominations:  # a later redraw's setup: without the chip
                    chips = tuple(sorted({*self.setup.denominations, race.to} - {race.chip}))
                    self.setup = dataclasses.replace(self.setup, denominations=chips)
        if self.checks_in:
            drawn = self._drawn(wanted)
            if drawn != self.drawn:
                events.append(Draw(t=t, seats=drawn))
                self.drawn = drawn
            events.extend(self._checked_in_elsewhere(t, wanted))
        events.extend(self._names(snap, wanted))
        self.players = {s: v.player for s, v in wanted.items()}
        self.names = {s: v.name for s, v in wanted.items()}
        self.applied_n = self.seen_n
        self.draw = self.entry.draw
        picture = tuple((v.seat, v.state is PlayerState.EMPTY, v.stack) for v in snap.seats)
        asked = (picture, tuple(("setup", e.seats, e.button) if isinstance(e, Setup) else dataclasses.replace(e, t=0.0)
                                for e in events))
        if events and asked in self._asked:
            # The same table was asked the same before and did not take it (the core keeps stacks given before a
            # hand's chips are settled for the next hand): asking again would only fill the journal, hundreds a
            # second.
            logger.warning("tournament: the table did not take %s; not asked again before the next deal", events)
            return []
        if events:
            self._asked.add(asked)
            self.waiting = True
        return events


class TournamentTable:
    """The daemon component: the broker connection (the director's state in, the reports out), the daemon's
    queue (the events), and what the table is told (`notice`: the venue screen, the `state` topic, the log).

    `wait_to_deal` is the dealer's side of the hold: a simulated table's dealer bot asks it before each deal,
    as a dealer looks at the screen."""

    name = "tournament"

    def __init__(self, config: RoomConfig, *, post: Callable[[object], None], session: str,
                 client_factory: Callable[[], Any] | None = None, setup: Setup | None = None,
                 checks_in: bool = False) -> None:
        self.config, self.post = config, post
        # Each run of the daemon reports as its own session: the director counts reports per session, and a
        # restarted table counting from 1 again in the journal's session had every report dropped as a copy.
        session = f"{session}-{uuid.uuid4().hex[:8]}"
        self.follower = TableFollower(room=config.room, table=config.table, session=session, setup=setup,
                                      checks_in=checks_in)
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)  # a new state or snapshot: `wait_to_deal` looks again
        self._client_factory = client_factory
        self._client: Any = None
        self.refused = 0
        self.on_notice: list[Callable[[TournamentNotice], None]] = []  # the screen, the publisher
        self.notice_version = 0
        self._notice = TournamentNotice()
        self._posted: list[Event] = []  # every event posted since `take_posted` (the simulated dealer's view)
        self._unacked: list[TableReport] = []  # sent, not yet taken in by the director: sent again on reconnect

    def start(self) -> None:
        from firmware_py.room.mqtt import KEEPALIVE_S, make_client  # noqa: PLC0415

        cfg = self.config
        user = cfg.broker.username or cfg.table
        self._client = (self._client_factory() if self._client_factory
                        else make_client(cfg.broker, client_id=f"{user}.{cfg.room}.tournament"))
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self._client.connect_async(cfg.broker.host, cfg.broker.port, keepalive=KEEPALIVE_S)
        self._client.loop_start()

    def stop(self) -> None:
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        with self.changed:
            self.changed.notify_all()

    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if reason.is_failure:
            return
        client.subscribe(director_topic(self.config.room), qos=1)
        with self.lock:
            again = list(self._unacked)
        for report in again:  # a report lost with the connection would hold the table for ever
            self._publish(report)

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        try:
            state = decode_director(message.topic, message.payload)
        except BadMessage as exc:
            self.refused += 1
            logger.warning("tournament: the director's state refused: %s", exc)
            return
        try:
            with self.lock:
                if not newer(state, self.follower.state):
                    return  # a copy again, or an older state that crossed a newer one
                events = self.follower.director(state)
                reports = list(self.follower.outbox)
                self.follower.outbox.clear()
                self._unacked.extend(reports)
                entry = self.follower.entry
                if entry is not None and entry.session == self.follower.session:
                    self._unacked = [r for r in self._unacked if r.seq > entry.acked]
                self._posted.extend(events)
                self.changed.notify_all()
        except Exception:  # a state the schema passes but this table cannot follow: counted, logged, kept going
            self.refused += 1
            logger.exception("tournament: the director's state %d could not be followed", state.seq)
            return
        if events:  # one item: the daemon journals and feeds them in one commit, so one snapshot shows them all
            self.post(tuple(events))
        for report in reports:
            self._publish(report)
        self._tell()

    def on_snapshot(self, snap: TableSnapshot) -> None:
        """The daemon's snapshot listener (its main loop): quick."""
        with self.lock:
            events, reports = self.follower.snapshot(snap)
            self._posted.extend(events)
            self._unacked.extend(reports)
            self.changed.notify_all()
        if events:
            self.post(tuple(events))
        for report in reports:
            self._publish(report)
        self._tell()

    def _publish(self, report: TableReport) -> None:
        if self._client is not None:
            self._client.publish(report_topic(self.config.room, self.config.table), encode(report, TableReport), qos=1)
        if report.kind == "all_in":
            logger.info("tournament: all in called in hand %d: reported, the other tables hold their next deal",
                        report.hand)

    # -- what the table is told ----------------------------------------------------------------------------

    @property
    def notice(self) -> TournamentNotice:
        return self._notice

    def _tell(self) -> None:
        """The listeners hear the notice when it changes; the log says when a hold or hand-for-hand starts or ends."""
        with self.lock:
            notice, before = self.follower.notice, self._notice
            if notice == before:
                return
            self._notice = notice
            if notice.to_json() != before.to_json():  # the state topic's part (not the level's clock, which ticks)
                self.notice_version += 1
        if notice.hand_for_hand != before.hand_for_hand:
            logger.info("tournament: hand-for-hand %s", "started" if notice.hand_for_hand else "ended")
        if notice.hold != before.hold:
            if notice.hold:
                logger.info("tournament: HOLD: %s (%s)", notice.hold, notice.hold_rule)
            else:
                logger.info("tournament: the hold is released: the next hand may be dealt")
        for call in notice.calls:
            if call not in before.calls:
                logger.info("tournament: %s", call)
        for listener in self.on_notice:
            try:
                listener(notice)
            except Exception:
                logger.exception("tournament: a notice listener failed")

    # -- the dealer's side ---------------------------------------------------------------------------------

    def may_deal(self, hands: int) -> tuple[bool, str]:
        """Whether the next deal may start now, the table having dealt `hands`; why not. Call with the lock."""
        f = self.follower
        snap, entry = f.last, f.entry
        if f.state is None or entry is None:
            return False, "waiting for the director's state"
        if snap is None or snap.hand_number < hands or f.draw is None:
            return False, "waiting for the table to take the director's seats"
        if snap.phase not in (Phase.IDLE, Phase.MISDEALT):
            return False, f"hand {snap.hand_number} is still being played"
        if snap.phase is Phase.IDLE:
            if f.waiting:
                return False, "making the table as the director says"
            if f.seq and (entry.session != f.session or entry.acked < f.seq):
                return False, f"waiting for the director to take in hand {snap.hand_number}"
        if f.notice.hold:
            return False, f"HOLD: {f.notice.hold}"
        return True, ""

    def done(self) -> str:
        """Why this table deals no more (the tournament is won, the table broken or down to one player), or ""."""
        f = self.follower
        state = f.state
        if state is None:
            return ""
        if state.winner or state.over:
            return f"the tournament is over: won by {state.winner}" if state.winner else "the tournament is over"
        if f.entry is None:
            return "the director has no seats for this table (broken)"
        if len(f.entry.seats) < 2 and not f.waiting:
            return "fewer than two players at this table"
        return ""

    def wait_to_deal(self, hands: int, *, stopped: Callable[[], bool], poll_s: float = 0.5) -> str:
        """Block until the next deal may start ("") or this table deals no more (why); `stopped` ends the wait."""
        said = ""
        with self.changed:
            while not stopped():
                # the end first: at the win the winner's table may otherwise look ready to deal again
                finished = self.done()
                if finished and (self.follower.last is None or self.follower.last.phase is Phase.IDLE):
                    return finished
                ready, why = self.may_deal(hands)
                if ready:
                    return ""
                if why != said:
                    logger.info("tournament: the dealer waits: %s", why)
                    said = why
                self.changed.wait(poll_s)
        return "stopped"

    def take_posted(self) -> list[Event]:
        """The events posted to the daemon's queue since the last call (the simulated dealer keeps its own view)."""
        with self.lock:
            posted, self._posted = self._posted, []
        return posted


def attach_tournament_table(port: TablePort, config: RoomConfig, publisher: Any = None, *,
                            checks_in: bool = False) -> TournamentTable:
    """The table side of a tournament (`[room] tournament = true`), attached through the table's port as an
    extension is: the director keeps the table's seats, button, chips and levels from now on; what the director
    says goes to the venue screen, and to the room publisher's `state` topic and hand histories (`publisher`);
    a simulated dealer waits at it before each deal (it is offered as the "deal gate"). `checks_in`: the
    director's seats are the core's draw, checked against the player cards read (docs/checkin.md)."""
    table = TournamentTable(config, post=port.post, session=publisher.session if publisher is not None else "",
                            setup=port.config.setup(t=0.0), checks_in=checks_in)
    port.hand_over_table("the tournament's director")
    port.on_snapshot(table.on_snapshot)
    port.add_component(table)
    port.offer("deal gate", table)  # firmware_py.simulation.wiring.DEAL_GATE
    if publisher is not None:
        publisher.tournament = table  # the state topic carries what the table is told
        table.on_notice.append(publisher.wake)
    table.on_notice.append(lambda notice: port.show(Shown.TOURNAMENT, notice))
    if publisher is not None:
        table.on_notice.append(lambda notice: publisher.rename(dict(notice.names)))  # the feed's and PHH's names
    return table
