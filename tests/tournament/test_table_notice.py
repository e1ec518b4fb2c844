"""What a table in a tournament is told (firmware_py/room/tournament_table.py, TournamentNotice): the bubble's
hold and hand-for-hand (wfp-dealer "All In / Bubble"), the director's calls for the table by the player's
name, the names by seat; and the all in called the table reports during hand-for-hand. Rules cores and the
real director, no broker (tests/room/test_tournament_daemon.py runs the daemon against one)."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec

from firmware_py.core import Button, ButtonName
from firmware_py.core.engine import TableCore
from firmware_py.profiles import load_profiles
from firmware_py.room.director import Director
from firmware_py.room.tournament_messages import DecisionJson, DirectorState, PotJson, SeatStack, TableReport
from firmware_py.room.tournament_table import TableFollower, all_in_called
from firmware_py.session import load_deck
from firmware_py.simulation.dealer import DealerBot
from firmware_py.tournament import Tournament, book_for, parse_structure
from tests.tournament.pots import pots_for

ROOT = Path(__file__).resolve().parents[2]


class Table:
    """A table of the room: the dealer bot's core, followed by its TableFollower as the daemon's queue would."""

    def __init__(self, director: Director, table: str, *, allin_rate: float = 0.003, seed: int = 1) -> None:
        t = director.tournament
        self.id = table
        self.bot = DealerBot(rng=random.Random(seed), deck=load_deck(ROOT / "config/decks/test-red.json"),
                             profile=load_profiles()[t.book.profile], seats=tuple(sorted(t.tables[table].seats)),
                             button=t.tables[table].button or 1, stack=1, rebuy=False, allin_rate=allin_rate,
                             fold_rate=0.0)
        self.follower = TableFollower(room="main", table=table, session="s1")
        assert self.bot._core is not None
        self.core: TableCore = self.bot._core
        self.follower.snapshot(self.core.snapshot())

    def follow(self, state: DirectorState) -> None:
        self.feed(self.follower.director(state))

    def feed(self, events: list[object]) -> None:
        for _ in range(3):
            if not events:
                return
            for event in events:
                self.core.feed(event)  # type: ignore[arg-type]
            self.bot.seats = tuple(v.seat for v in self.core.snapshot().seats if v.state != "empty")
            events = list(self.follower.snapshot(self.core.snapshot())[0])
        raise AssertionError(f"{self.id}: the follower keeps asking for {events}")

    def play(self) -> list[TableReport]:
        """One hand, the follower seeing the table after each event (as the daemon's snapshots); its reports."""
        level = self.core.level
        assert level is not None
        self.bot.level = (level.small, level.big, level.ante)
        start = self.core.t + 1.0
        # the bot scripts the hand into its own core; a second core is fed event by event for the follower
        shadow = TableCore(load_profiles())
        shadow.restore(self.core.save())
        hand = self.bot.hand(t=start)
        reports: list[TableReport] = []
        for event in hand.events:
            shadow.feed(event)
            reports.extend(self.follower.snapshot(shadow.snapshot())[1])
        return reports


def room(*, tables: int = 2, players: int = 12) -> Director:
    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    t = Tournament(book=book_for("wfp"), tables=[f"t{i:02d}" for i in range(1, tables + 1)], capacity=9,
                   entrants=[(f"p{i}", f"Player {i}") for i in range(players)], stack=structure.starting_stack, seed=5)
    return Director(room="main", tournament=t, structure=structure, sim_clock=True)


def test_wfp_dealer_all_in_bubble_holds_the_other_table_until_it_is_resolved() -> None:
    director = room()
    t01, t02 = Table(director, "t01"), Table(director, "t02", allin_rate=1.0, seed=2)
    director.hand_for_hand(True)
    for table in (t01, t02):
        table.follow(director.state())
    assert t01.follower.notice.hand_for_hand and not t01.follower.notice.hold
    reports = t02.play()  # every player shoves: an all in is called, then the hand is over
    assert [r.kind for r in reports] == ["all_in", "hand"]
    director.apply(reports[0])
    state = director.state()
    t01.follow(state)
    t02.follow(state)
    notice = t01.follower.notice
    assert notice.hold == "all in called at table t02: do not deal, wait for the result"
    assert notice.hold_rule.startswith("wfp-dealer, All In / Bubble")
    assert notice.to_json()["all_in"] == ["t02"]
    assert not t02.follower.notice.hold  # the table with the all in plays its hand out
    # the hand is over and the all in player survived (the director's chips as they were: nobody busts here,
    # where the bot's shoving table would break)
    chips = [SeatStack(seat=s.seat, chips=s.chips) for s in next(x for x in state.tables if x.table == "t02").seats]
    director.apply(msgspec.structs.replace(reports[1], start=chips, end=chips, pots=[]))  # the hold is released
    state = director.state()
    t01.follow(state)
    assert t01.follower.notice.hold == ""
    assert t01.follower.notice.hand_for_hand
    t02.follow(state)  # t02 has played its hand-for-hand hand: it waits for t01
    assert t02.follower.notice.hold == "hand-for-hand: wait until every table has finished this hand"
    director.hand_for_hand(False)
    t01.follow(director.state())
    assert not t01.follower.notice


def test_no_all_in_report_outside_hand_for_hand() -> None:
    director = room()
    t02 = Table(director, "t02", allin_rate=1.0, seed=2)
    t02.follow(director.state())
    assert [r.kind for r in t02.play()] == ["hand"]


def test_an_all_in_is_called_once_the_betting_on_it_is_closed() -> None:
    director = room(tables=1, players=3)
    table = Table(director, "t01", allin_rate=1.0, seed=4)
    table.follow(director.state())
    shadow = TableCore(load_profiles())
    shadow.restore(table.core.save())
    level = table.core.level
    assert level is not None
    table.bot.level = (level.small, level.big, level.ante)
    called_at = []
    for i, event in enumerate(table.bot.hand(t=table.core.t + 1.0).events):
        shadow.feed(event)
        if all_in_called(shadow.snapshot()):
            called_at.append((i, event))
    assert called_at, "every player shoved: an all in stood against another hand"
    first = called_at[0][1]
    assert isinstance(first, Button) and first.name in (ButtonName.CALL, ButtonName.ALLIN)  # the call closes it


def test_a_moved_player_is_called_by_name_at_both_tables_until_each_has_dealt_again() -> None:
    director = room()
    t01, t02 = Table(director, "t01"), Table(director, "t02")
    state = director.state()
    src = next(x for x in state.tables if x.table == "t01")
    mover = src.seats[0]
    dest = next(x for x in state.tables if x.table == "t02")
    free = min(set(range(1, 10)) - {s.seat for s in dest.seats})
    text = f"Move {mover.name} from t01 seat {mover.seat} to t02 seat {free}: dealt in at once"
    moved = msgspec.structs.replace(
        state, seq=state.seq + 1, decisions=[*state.decisions, DecisionJson(
            n=99, kind="moved", text=text, tables=["t01", "t02"], player=mover.player)],
        tables=[msgspec.structs.replace(src, seats=src.seats[1:]),
                msgspec.structs.replace(dest, seats=sorted([*dest.seats, msgspec.structs.replace(
                    mover, seat=free, moved=True)], key=lambda s: s.seat))])
    t01.follow(moved)
    t02.follow(moved)
    for table in (t01, t02):
        assert table.follower.notice.calls == (text,)
    assert t02.follower.notice.name(free) == mover.name  # the venue screen names the seat's player
    assert t01.follower.notice.name(mover.seat) is None
    assert mover.seat not in {v.seat for v in t01.core.snapshot().seats}
    t02.play()  # the player has sat down and been dealt in: the call is done
    assert t02.follower.notice.calls == ()
    assert t01.follower.notice.calls == (text,)  # still called at t01 until it deals again


def test_the_table_side_does_not_ask_again_for_what_the_table_did_not_take() -> None:
    director = room()
    table = Table(director, "t01")
    events = table.follower.director(director.state())
    assert events  # the first state: the table's seats, stacks and level
    # the table did not take them (here: they never reached the core); the follower must not go on asking,
    # which in the daemon made a journal of 50,000 identical stacks lines in two minutes
    asks = [table.follower.snapshot(table.core.snapshot())[0] for _ in range(20)]
    assert sum(1 for a in asks if a) <= 1 and asks[-1] == []
    table.feed(events)  # taken: the table is as the director says
    assert table.follower.snapshot(table.core.snapshot())[0] == []


def test_a_new_run_of_the_director_is_called_from_its_first_decision() -> None:
    director = room()
    table = Table(director, "t01")
    state = director.state()
    table.follow(msgspec.structs.replace(state, decisions=[DecisionJson(
        n=40, kind="eliminated", text="Player 1 out at t01 seat 1 in hand 9: 18th place", tables=["t01"])]))
    assert len(table.follower.notice.calls) == 1
    # the same tournament resumed by a restarted director (its journal): the decisions count on, nothing again
    resumed = msgspec.structs.replace(state, session="resumed-run", seq=1, decisions=[DecisionJson(
        n=40, kind="eliminated", text="Player 1 out at t01 seat 1 in hand 9: 18th place", tables=["t01"])])
    table.follow(resumed)
    assert table.follower.notice.calls == ("Player 1 out at t01 seat 1 in hand 9: 18th place",)
    again = msgspec.structs.replace(state, session="another-run", tournament="another", seq=1, decisions=[DecisionJson(
        n=1, kind="eliminated", text="Player 2 out at t01 seat 2 in hand 1: 18th place", tables=["t01"])])
    table.follow(again)
    assert table.follower.notice.calls == ("Player 2 out at t01 seat 2 in hand 1: 18th place",)


def test_wfp_3_a_fresh_table_and_a_redraw_take_the_directors_drawn_button() -> None:
    from firmware_py.core import Setup  # noqa: PLC0415

    director = room()
    table = Table(director, "t01")
    assert table.core.snapshot().hand_number == 0
    deck = load_deck(ROOT / "config/decks/test-red.json")
    template = Setup(t=0.0, profile="wfp", seats=tuple(range(1, 10)), button=1, decks=(deck,), in_play=deck.name)
    table.follower.setup = template
    state = director.state()
    entry = next(x for x in state.tables if x.table == "t01")
    events = table.follower.director(state)
    setup = events[0]
    assert isinstance(setup, Setup) and setup.seats == tuple(s.seat for s in entry.seats)
    assert setup.button == entry.button  # the button the director drew, not the table file's seat 1
    table.feed(events)
    snap = table.core.snapshot()
    assert snap.button == entry.button
    assert {v.seat: v.stack for v in snap.seats if v.state != "empty"} == {s.seat: s.chips for s in entry.seats}
    table.play()
    # a redraw: a new draw number, the players on other seats, another button
    seats = [msgspec.structs.replace(s, seat=10 - s.seat) for s in entry.seats]
    button = min(s.seat for s in seats)
    redrawn = msgspec.structs.replace(state, seq=state.seq + 5, tables=[msgspec.structs.replace(
        entry, draw=entry.draw + 1, button=button, seats=sorted(seats, key=lambda s: s.seat),
        acked=table.follower.seq, session="s1")])
    events = table.follower.director(redrawn)
    assert isinstance(events[0], Setup) and events[0].button == button
    table.feed(events)
    assert table.core.snapshot().button == button


def test_a_table_restarted_mid_tournament_keeps_its_button() -> None:
    from firmware_py.core import Setup  # noqa: PLC0415

    director = room()
    table = Table(director, "t01")
    table.follow(director.state())
    table.play()
    deck = load_deck(ROOT / "config/decks/test-red.json")
    restarted = TableFollower(room="main", table="t01", session="s2", setup=Setup(
        t=0.0, profile="wfp", seats=tuple(range(1, 10)), button=1, decks=(deck,), in_play=deck.name))
    restarted.snapshot(table.core.snapshot())  # a daemon started again: hands already dealt in its session
    events = restarted.director(director.state())
    assert not any(isinstance(e, Setup) for e in events)


def test_a_restarted_table_reports_as_a_new_session_so_the_director_takes_its_reports() -> None:
    from firmware_py.room.room_config import BrokerConfig, RoomConfig  # noqa: PLC0415
    from firmware_py.room.tournament_table import TournamentTable  # noqa: PLC0415

    config = RoomConfig(room="main", table="t01", broker=BrokerConfig(host="127.0.0.1", port=1883), tournament=True)
    first = TournamentTable(config, post=lambda _e: None, session="journal1")
    again = TournamentTable(config, post=lambda _e: None, session="journal1")  # the same journal after a restart
    assert first.follower.session != again.follower.session
    assert first.follower.session.startswith("journal1-")
    director = room()
    table = Table(director, "t01")
    table.follow(director.state())
    report = table.play()[-1]
    director.apply(msgspec.structs.replace(report, session=first.follower.session, seq=5))
    # the restarted table counts from 1: the director takes its report (it dropped it as a copy before)
    state = director.state()
    entry = next(x for x in state.tables if x.table == "t01")
    chips = [SeatStack(seat=s.seat, chips=s.chips) for s in entry.seats]
    later = msgspec.structs.replace(report, session=again.follower.session, seq=1, hand=2, start=chips, end=chips,
                                   pots=[])
    director.apply(later)
    entry = next(x for x in director.state().tables if x.table == "t01")
    assert (entry.session, entry.acked) == (again.follower.session, 1)


def test_wfp_9_a_broken_tables_players_are_called_by_name_from_their_seat_to_the_new_one() -> None:
    director = room(players=12)  # 6 and 6 on two tables of 9: three out and t02 breaks
    state = director.state()
    t02 = next(x for x in state.tables if x.table == "t02")
    seats = [s.seat for s in t02.seats]
    start = [SeatStack(seat=s.seat, chips=s.chips) for s in t02.seats]
    busted = seats[:3]
    winner = seats[3]
    end = [SeatStack(seat=s.seat, chips=0 if s.seat in busted else s.chips + (3 * s.chips if s.seat == winner else 0))
           for s in t02.seats]
    director.apply(TableReport(v=1, room="main", table="t02", session="s", seq=1, kind="hand", hand=1, t=30.0,
                               draw=t02.draw, button=seats[0], big_blind=seats[2], start=start, end=end,
                               pots=msgspec.convert(pots_for({x.seat: x.chips for x in start},
                                                             {x.seat: x.chips for x in end}), list[PotJson])))
    seated = [d for d in director.decisions if d.kind == "seated"]
    assert len(seated) == 3, [d.text for d in director.decisions]
    before = {s.player: s.seat for s in t02.seats}
    for d in seated:
        name = next(s.name for s in t02.seats if s.player == d.player)
        assert d.text.startswith(f"{name} from t02 seat {before[d.player]} draws t01 seat ")
        assert d.tables == ["t02", "t01"]  # called at the broken table and at the new one
    t01 = Table(director, "t01")
    t01.follow(director.state())
    assert {d.text for d in seated} <= set(t01.follower.notice.calls)


def test_a_hand_not_reported_before_a_restart_is_reported_after_it() -> None:
    director = room()
    table = Table(director, "t01")
    table.follow(director.state())
    for report in table.play():  # hand 1: reported and taken in
        director.apply(report)
    table.follow(director.state())
    lost = table.play()  # hand 2: the daemon goes down before its report leaves
    assert [r.kind for r in lost] == ["hand"]
    played = {v.seat: v.stack for v in table.core.snapshot().seats if v.state != "empty"}
    restarted = TableFollower(room="main", table="t01", session="s1-again")
    restarted.snapshot(table.core.snapshot())  # the journal replayed: hand 2 is over at the table
    events = restarted.director(director.state())
    assert events == []  # the director's (older) chips are not put back on the table ...
    _events, reports = restarted.snapshot(table.core.snapshot())
    assert [r.kind for r in reports] == ["hand"]  # ... the lost hand is reported instead
    catch_up = reports[0]
    assert catch_up.hand == 2 and {s.seat: s.chips for s in catch_up.end} == played
    director.apply(catch_up)
    state = director.state()
    entry = next(x for x in state.tables if x.table == "t01")
    chips = {s.seat: s.chips for s in entry.seats}
    assert all(chips[s] == c for s, c in played.items() if c)  # the director has the hand's stacks
    busted = [s for s, c in played.items() if c == 0]
    out = [d for d in director.decisions if d.kind == "eliminated" and "hand 2" in d.text]
    assert len(out) == len(busted)  # and its eliminations


def test_a_table_stops_dealing_at_the_win_before_it_looks_at_whether_it_may_deal() -> None:
    from firmware_py.room.room_config import BrokerConfig, RoomConfig  # noqa: PLC0415
    from firmware_py.room.tournament_table import TournamentTable  # noqa: PLC0415

    director = room(tables=1, players=3)
    table = Table(director, "t01", allin_rate=1.0, seed=4)
    table.follow(director.state())
    for _ in range(300):
        if director.over:
            break
        for report in table.play():
            director.apply(report)
        table.follow(director.state())
    state = director.state()
    assert state.over and state.winner and not state.running
    config = RoomConfig(room="main", table="t01", broker=BrokerConfig(host="127.0.0.1", port=1883), tournament=True)
    daemon_side = TournamentTable(config, post=lambda _e: None, session="s1")
    daemon_side.follower = table.follower  # the table side as the daemon has it after the last hand
    why = daemon_side.wait_to_deal(table.core.hand_number, stopped=lambda: False, poll_s=0.01)
    assert why == f"the tournament is over: won by {state.winner}"
    # the people at the table are told: the venue screen's hold strip
    assert table.follower.notice.hold == f"the tournament is over ({state.winner} wins): deal no more"
