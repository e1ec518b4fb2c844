"""The table side of a tournament (firmware_py/room/tournament_table.py): tables made of the rules core
(the dealer bot dealing), each following the director's state through its TableFollower (seats out and
in, moved players, stacks, the level from the next deal) and reporting each hand; the director decides.
No broker here (tests/room/test_tournament_room.py has one): the follower's events go into the core
as the daemon's queue would put them, and every decision is checked by the independent checker."""

from __future__ import annotations

import random
from pathlib import Path

from firmware_py.core import Seat
from firmware_py.profiles import load_profiles
from firmware_py.room.director import Director
from firmware_py.room.tournament_table import TableFollower
from firmware_py.session import load_deck
from firmware_py.simulation.dealer import DealerBot
from firmware_py.tournament import Tournament, book_for, parse_structure
from tests.tournament.checker import check
from tests.tournament.test_tournament_books import ROOT


def test_tables_following_the_director_play_to_one_winner_by_the_book() -> None:
    profile = "upt"
    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    t = Tournament(book=book_for(profile), tables=["t01", "t02", "t03"], capacity=9,
                   entrants=[(f"p{i}", f"P{i}") for i in range(24)], stack=structure.starting_stack, seed=11)
    director = Director(room="main", tournament=t, structure=structure, sim_clock=True)
    profiles = load_profiles()
    deck = load_deck(ROOT / "config/decks/test-red.json")
    rng = random.Random(3)
    bots: dict[str, DealerBot] = {}
    followers: dict[str, TableFollower] = {}
    for table in t.tables.values():
        bot = DealerBot(rng=random.Random(rng.random()), deck=deck, profile=profiles[profile],
                        seats=tuple(sorted(table.seats)), button=table.button or 1, stack=1, rebuy=False,
                        allin_rate=0.003, fold_rate=0.7, fold_heads_up=True)
        bots[table.id] = bot
        # This room deals no chip races (tests/room/test_tournament_daemon.py has a daemon table run one).
        followers[table.id] = TableFollower(room="main", table=table.id, session="s1", starts_races=False)

    def feed(table: str, events: list[object]) -> None:
        """The daemon's queue: each batch of events, then the snapshot the follower sees (which may ask more)."""
        core = bots[table]._core
        assert core is not None
        for _ in range(3):
            if not events:
                return
            for event in events:
                core.feed(event)  # type: ignore[arg-type]
            bots[table].seats = tuple(v.seat for v in core.snapshot().seats if v.state != "empty")
            events = list(followers[table].snapshot(core.snapshot())[0])
        raise AssertionError(f"{table}: the follower keeps asking for {events}")

    def broadcast() -> None:
        state = director.state()
        for table, follower in followers.items():
            feed(table, follower.director(state))

    for table, bot in bots.items():
        assert bot._core is not None
        followers[table].snapshot(bot._core.snapshot())
    broadcast()
    total = 24 * structure.starting_stack
    hands = 0
    levels: set[int] = set()
    while not t.finished and hands < 5000:
        playing = [x for x in t.tables if len(t.tables[x].seats) >= 2]
        table = playing[hands % len(playing)]
        bot = bots[table]
        assert bot._core is not None
        level = bot._core.level
        assert level is not None  # the follower's level event
        bot.level = (level.small, level.big, level.ante)  # the bot deals at the table's level, not its own
        bot.bb_ante = level.bb_ante
        hand = bot.hand(t=bot._core.t + 1.0)
        assert not any(isinstance(e, Seat) for e in hand.events)
        levels.add(bot._core.level.big if bot._core.level else 0)
        events, reports = followers[table].snapshot(bot._core.snapshot())
        assert len(reports) == 1
        director.apply(reports[0])
        feed(table, events)
        broadcast()
        hands += 1
        assert t.total_chips() == total
        for x in t.tables.values():  # each table's stacks are the director's
            core = bots[x.id]._core
            assert core is not None
            stacks = {v.seat: v.stack for v in core.snapshot().seats if v.state != "empty"}
            assert stacks == {s: t.players[p].chips for s, p in x.seats.items()}, (x.id, hands)
    assert t.finished
    assert check(t.log, profile=profile, capacity=9, entrants=24, starting_tables=3, break_order=t.break_order) == []
    assert len(levels) > 2  # the level came from the director, from the next deal
    kinds = {d.kind for d in t.log}
    assert {"moved", "broken", "redrawn"} <= kinds or {"broken", "redrawn"} <= kinds


def test_a_moved_player_is_called_on_the_venue_screen_and_journaled_as_moved() -> None:
    from firmware_py.core import Seat as SeatEvent  # noqa: PLC0415
    from firmware_py.core import SeatStatus, Setup, Stacks  # noqa: PLC0415
    from firmware_py.core.engine import TableCore  # noqa: PLC0415

    profiles = load_profiles()
    deck = load_deck(ROOT / "config/decks/test-red.json")
    core = TableCore(profiles)
    core.feed(Setup(t=0.0, profile="upt", seats=(1, 2, 3), button=1, decks=(deck,), in_play=deck.name))
    core.feed(Stacks(t=0.0, stacks=((1, 1000), (2, 1000), (3, 1000))))
    core.feed(SeatEvent(t=1.0, seat=7, status=SeatStatus.IN, moved=True))
    core.feed(Stacks(t=1.0, stacks=((7, 4200),), why="moved"))
    snap = core.snapshot()
    assert snap.corrections[-1] == "moved here from another table: seat 7 (4,200)"
    assert snap.seat(7).stack == 4200
    # the venue screen says it (a picture for docs/tournament.md with POKERTABLE_SCREENSHOTS set)
    import os  # noqa: PLC0415

    from display.app import View  # noqa: PLC0415
    from display.display_config import DisplayConfig  # noqa: PLC0415
    from display.render import init_headless, render_view, save_png  # noqa: PLC0415

    init_headless()
    surface = render_view(View.VENUE, [(snap.t, snap)], at=snap.t, size=(800, 480), config=DisplayConfig())
    folder = os.environ.get("POKERTABLE_SCREENSHOTS")
    if folder:
        save_png(surface, Path(folder) / "venue-moved-player-800x480.png")


def test_the_big_blind_ante_level_reaches_the_table_from_the_next_deal() -> None:
    from firmware_py.core import Level  # noqa: PLC0415

    structure = parse_structure((ROOT / "config/tournament/bb-ante.toml").read_text(), "bb-ante")
    t = Tournament(book=book_for("wfp"), tables=["t01"], capacity=9, entrants=[(f"p{i}", f"P{i}") for i in range(6)],
                   stack=structure.starting_stack, seed=2)
    director = Director(room="main", tournament=t, structure=structure, sim_clock=True)
    director.sim_t = 41 * 60.0  # level 3: 75/150 with a big-blind ante of 150
    bot = DealerBot(rng=random.Random(1), deck=load_deck(ROOT / "config/decks/test-red.json"),
                    profile=load_profiles()["wfp"], seats=tuple(sorted(t.tables["t01"].seats)),
                    button=t.tables["t01"].button or 1, stack=1, rebuy=False)
    assert bot._core is not None
    follower = TableFollower(room="main", table="t01", session="s")
    follower.snapshot(bot._core.snapshot())
    events = follower.director(director.state())
    assert Level(t=0.0, small=75, big=150, ante=0, bb_ante=150) in events
    for event in events:
        bot._core.feed(event)
    level = bot._core.level
    assert level is not None and level.bb_ante == 150


def test_a_table_set_up_by_the_director_deals_with_the_structures_chips_in_play() -> None:
    """The director's chip set (the structure's `denominations`, less the chips each color-up passed removed: WFP
    Tournament Procedures 6) reaches a table it sets up, so every pot there splits in the smallest chip."""
    from firmware_py.core import Race, Setup  # noqa: PLC0415

    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    deck = load_deck(ROOT / "config/decks/test-red.json")
    for minutes, chips in ((1, (25, 100, 500, 1000, 5000)), (31, (100, 500, 1000, 5000))):
        t = Tournament(book=book_for("wfp"), tables=["t01"], capacity=9,
                       entrants=[(f"p{i}", f"P{i}") for i in range(6)], stack=structure.starting_stack, seed=2)
        director = Director(room="main", tournament=t, structure=structure, sim_clock=True)
        director.sim_t = minutes * 60.0
        state = director.state()
        assert tuple(state.denominations) == chips
        bot = DealerBot(rng=random.Random(1), deck=deck, profile=load_profiles()["wfp"],
                        seats=tuple(sorted(t.tables["t01"].seats)), button=t.tables["t01"].button or 1, stack=1,
                        rebuy=False)
        assert bot._core is not None
        own = Setup(t=0.0, profile="wfp", seats=(1, 2), button=1, decks=(deck,), in_play=deck.name)
        follower = TableFollower(room="main", table="t01", session="s", setup=own)
        follower.snapshot(bot._core.snapshot())
        events = follower.director(state)
        (setup,) = [event for event in events if isinstance(event, Setup)]
        assert setup.denominations == chips and not [event for event in events if isinstance(event, Race)]
        for event in events:
            bot._core.feed(event)
        assert bot._core.denominations == chips


def test_a_table_with_player_cards_takes_the_directors_seats_as_its_draw_and_rules_a_player_in_the_wrong_seat(
) -> None:
    """[checkin] (docs/checkin.md): the follower posts the director's seats as the core's `draw`; a player whose card
    is read at another seat than the draw's is ruled at the deal as the book says (WFP Tournament Procedures 8, 10).
    Without player cards no draw is posted (every seat would be absent)."""
    from firmware_py.core import CheckIn, Draw, RulingKind  # noqa: PLC0415
    from firmware_py.core.engine import TableCore  # noqa: PLC0415

    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    t = Tournament(book=book_for("wfp"), tables=["t01"], capacity=9, entrants=[(f"p{i}", f"P{i}") for i in range(4)],
                   stack=structure.starting_stack, seed=2)
    director = Director(room="main", tournament=t, structure=structure, sim_clock=True)
    seats = dict(t.tables["t01"].seats)
    bot = DealerBot(rng=random.Random(1), deck=load_deck(ROOT / "config/decks/test-red.json"),
                    profile=load_profiles()["wfp"], seats=tuple(sorted(seats)),
                    button=t.tables["t01"].button or 1, stack=1, rebuy=False)
    core = bot._core
    assert isinstance(core, TableCore)
    plain = TableFollower(room="main", table="t01", session="s")
    plain.snapshot(core.snapshot())
    assert not [e for e in plain.director(director.state()) if isinstance(e, Draw)]
    follower = TableFollower(room="main", table="t01", session="s", checks_in=True)
    follower.snapshot(core.snapshot())
    events = follower.director(director.state())
    (draw,) = [e for e in events if isinstance(e, Draw)]
    assert dict(draw.seats) == seats  # the director's ids, seat by seat
    for event in events:
        core.feed(event)
    follower.snapshot(core.snapshot())
    assert not [e for e in follower.director(director.state()) if isinstance(e, Draw)]  # posted once
    order = sorted(dict(draw.seats))
    first, second = order[0], order[1]
    for seat, player in draw.seats:  # every player checks in at the drawn seat, but the first two swap seats
        at = second if seat == first else first if seat == second else seat
        core.feed(CheckIn(t=1.0, player=player, name=player.upper(), seat=at))
    from firmware_py.core import Button, ButtonName, Read  # noqa: PLC0415

    core.feed(Button(t=2.0, name=ButtonName.NEW_HAND))
    rulings = []
    uids = iter(load_deck(ROOT / "config/decks/test-red.json").cards)
    for _ in range(2 * len(order)):
        rulings += core.feed(Read(t=3.0, antenna="shoe", uid=next(uids))).rulings
    assert sorted((r.ruling, r.seat, r.cause) for r in rulings) == [
        (RulingKind.DEAD_HAND, first, "wrong_seat"), (RulingKind.DEAD_HAND, second, "wrong_seat")]
    assert all(r.rule == "wfp: Tournament Procedures 8, 10" for r in rulings)


def test_the_draw_is_by_the_player_card_the_director_registered_for_the_entry() -> None:
    """An entry registered with its player card (the director's Registration panel, `card`): the table's draw names
    the card's id, the id the player registry holds, so that card read at the seat checks the player in."""
    from firmware_py.core import Draw  # noqa: PLC0415

    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    t = Tournament(book=book_for("wfp"), tables=["t01"], capacity=9, entrants=[(f"p{i}", f"P{i}") for i in range(4)],
                   stack=structure.starting_stack, seed=2)
    director = Director(room="main", tournament=t, structure=structure, sim_clock=True)
    entry = director.register("Ann Lee", card="CARD-0012")
    seat = next(s.seat for table in director.state().tables for s in table.seats if s.player == entry.player)
    assert next(s.card for table in director.state().tables for s in table.seats if s.seat == seat) == "CARD-0012"
    bot = DealerBot(rng=random.Random(1), deck=load_deck(ROOT / "config/decks/test-red.json"),
                    profile=load_profiles()["wfp"], seats=tuple(sorted(t.tables["t01"].seats)),
                    button=t.tables["t01"].button or 1, stack=1, rebuy=False)
    assert bot._core is not None
    follower = TableFollower(room="main", table="t01", session="s", checks_in=True)
    follower.snapshot(bot._core.snapshot())
    (draw,) = [e for e in follower.director(director.state()) if isinstance(e, Draw)]
    assert dict(draw.seats)[seat] == "CARD-0012"
    assert sorted(player for _s, player in draw.seats if player != "CARD-0012") == ["p0", "p1", "p2", "p3"]


def test_a_player_drawn_to_one_table_whose_card_is_read_at_another_is_ruled_at_the_wrong_table() -> None:
    """The wrong table (docs/checkin.md): t02 reports the players checked in there, the director tells the room
    where each card was read, and t01, which drew the player, rules its seat's hand with "checked in at table t02"
    (WFP Tournament Procedures 8, 10). The player then checks in at t01: its report moves the player back."""
    from firmware_py.core import Button, ButtonName, Cause, CheckIn, Read, SeatStatus  # noqa: PLC0415
    from firmware_py.core.engine import TableCore  # noqa: PLC0415

    structure = parse_structure((ROOT / "config/tournament/wfp-nightly.toml").read_text(), "nightly")
    t = Tournament(book=book_for("wfp"), tables=["t01", "t02"], capacity=9,
                   entrants=[(f"p{i}", f"P{i}") for i in range(14)], stack=structure.starting_stack, seed=2)
    director = Director(room="main", tournament=t, structure=structure, sim_clock=True)
    deck = load_deck(ROOT / "config/decks/test-red.json")
    cores: dict[str, TableCore] = {}
    followers: dict[str, TableFollower] = {}
    for table in t.tables.values():
        bot = DealerBot(rng=random.Random(1), deck=deck, profile=load_profiles()["wfp"],
                        seats=tuple(sorted(table.seats)), button=table.button or 1, stack=1, rebuy=False)
        assert isinstance(bot._core, TableCore)
        cores[table.id] = bot._core
        followers[table.id] = TableFollower(room="main", table=table.id, session="s", checks_in=True)

    def sync() -> None:
        for _ in range(3):
            for name, follower in followers.items():
                events, reports = follower.snapshot(cores[name].snapshot())
                for event in [*events, *follower.director(director.state())]:
                    cores[name].feed(event)
                for report in reports:
                    director.apply(report)

    sync()
    seats1 = dict(t.tables["t01"].seats)
    seats2 = dict(t.tables["t02"].seats)
    lost_seat, lost = min(seats1.items())  # this player sits down at t02, on a seat of its own choosing
    for seat, player in seats1.items():
        if player != lost:
            cores["t01"].feed(CheckIn(t=1.0, player=player, name=player.upper(), seat=seat))
    free = next(s for s in range(1, 10) if s not in seats2)
    cores["t02"].feed(Seat(t=1.0, seat=free, status=SeatStatus.IN))
    cores["t02"].feed(CheckIn(t=1.0, player=lost, name=lost.upper(), seat=free))
    sync()
    assert [(c.player, c.table, c.seat) for c in director.state().checked_in if c.player == lost] == [
        (lost, "t02", free)]
    assert cores["t01"].snapshot().not_checked_in == (lost_seat,)
    cores["t01"].feed(Button(t=2.0, name=ButtonName.NEW_HAND))
    rulings = []
    for uid in list(deck.cards)[:2 * len(seats1)]:
        rulings += cores["t01"].feed(Read(t=3.0, antenna="shoe", uid=uid)).rulings
    assert [(r.seat, r.cause, r.rule) for r in rulings] == [
        (lost_seat, Cause.WRONG_TABLE, "wfp: Tournament Procedures 8, 10")]
    assert f"{lost} checked in at table t02 seat {free}" in rulings[0].remedy
    while cores["t01"].snapshot().to_act is not None:  # folded round to the big blind: the hand is over
        cores["t01"].feed(Button(t=4.0, name=ButtonName.FOLD))
    cores["t01"].feed(Button(t=4.0, name=ButtonName.HAND_END))
    cores["t01"].feed(CheckIn(t=5.0, player=lost, name=lost.upper(), seat=lost_seat))  # the floor brings the player
    sync()
    assert [(c.table, c.seat) for c in director.state().checked_in if c.player == lost] == [("t01", lost_seat)]
    assert cores["t01"].snapshot().not_checked_in == ()
