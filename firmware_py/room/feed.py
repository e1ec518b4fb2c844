"""The rich broadcast feed (msgspec schema): what the `broadcast` topic carries for the stream graphic.

One `BroadcastFeed` per change of the picture, built at the table from the core's snapshot by
`FeedBuilder` (names, stacks, bets, last actions, button and blinds, who acts, the board, every pot
with its winners, hole cards, hand names, rulings and misdeals, the level and the clocks). Win and
tie chances and the heads-up outs are *not* computed on the table: the production machine fills
`chances` in while the message serves its secure delay (`firmware_py.room.broadcast`), so the Pi
keeps its CPU for the table, and the picture on air never says "computing".

The reveal policy (which hole cards the overlay page may show) is the production room's choice and
is applied there (`reveal`): the topic, readable by production alone, always carries every card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Annotated, Any, Final, Literal

import msgspec

from firmware_py.core.cards import is_joker
from firmware_py.core.events import MAX_SEATS
from firmware_py.core.game import game_named, hand_names
from firmware_py.core.rulings import Ruling, Street
from firmware_py.core.snapshot import IN_HAND, Phase, PlayerState, TableSnapshot
from firmware_py.room.bounds import Card, Chips, Count, Id, Name, SeatNo, Seconds, Seq, Text

SCHEMA_VERSION: Final = 1
FORCED = ("ante ", "small blind ", "big blind ")  # last actions that are not a player's own choice


class Reveal(StrEnum):
    """When the stream shows a player's hole cards (production rooms choose per table)."""

    IMMEDIATELY = "immediately"  # as soon as they are dealt
    FIRST_ACTION = "first_action"  # once the player has acted (check, bet, call, raise, fold)
    SHOWDOWN = "showdown"  # only at the showdown, and only the hands still in
    NEVER = "never"  # never (the board, pot and stacks only)


# Every field bounded as the room's other messages are (`bounds`), unknown fields refused: the feed is
# the broadcast topic's one schema (`messages.SCHEMAS`), checked by every consumer.
Seats = Annotated[tuple[SeatNo, ...], msgspec.Meta(max_length=MAX_SEATS)]
Cards = Annotated[tuple[Card, ...], msgspec.Meta(max_length=52)]
Fraction = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]


class FeedSeat(msgspec.Struct, omit_defaults=True, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: SeatNo
    name: Name
    state: PlayerState  # empty, waiting, active, folded, allin, dead
    cards: Annotated[tuple[Card, ...], msgspec.Meta(max_length=6)]  # hole cards in deal order (on the topic: all;
    # on the page: as revealed); always sent
    hidden: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0  # cards held back by the reveal policy (drawn face down)
    stack: Chips | None = None
    bet: Chips | None = None  # chips in front of the seat this betting round
    action: Name | None = None  # the last action: "raise 600", "call 200", "fold", "big blind 100"
    acted: bool = False  # the player has made a choice this hand (not only posted)
    button: bool = False
    small_blind: bool = False
    big_blind: bool = False
    to_act: bool = False
    hand: Name | None = None  # the best hand with the board: "two pair, jacks and eights"


class FeedPot(msgspec.Struct, omit_defaults=True, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name  # "main pot", "side pot 1"
    amount: Chips
    seats: Seats
    winners: Seats = ()
    shares: Annotated[tuple[tuple[SeatNo, Chips], ...], msgspec.Meta(max_length=MAX_SEATS)] = ()  # (seat, chips
    # won), odd chips included
    low_winners: Seats = ()  # a high-low split game: the low half's (`winners` the high's)


class FeedRuling(msgspec.Struct, omit_defaults=True, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A ruling as the exchange format has it (`table-events.md`), and its title for the banner."""

    t: Seconds
    ruling: Name
    title: Name  # "MISDEAL", "EXPOSED CARD"
    rule: Text = ""
    remedy: Text = ""
    cause: Name | None = None
    card: Card | None = None
    seat: SeatNo | None = None
    street: Name | None = None
    winners: Seats | None = None
    hand: Name | None = None
    low_winners: Seats | None = None  # a high-low split game's showdown: the low's winners and hand
    low_hand: Name | None = None


class FeedResult(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The hand's result: every pot's winners in words, for the result banner."""

    winners: Seats
    hand: Name | None
    lines: Annotated[tuple[Text, ...], msgspec.Meta(max_length=MAX_SEATS)]  # "Cy wins the main pot, 1,100, with
    # straight, ace high", "Dee & Ann split side pot 1, 375"


class FeedLevel(msgspec.Struct, omit_defaults=True, frozen=True, kw_only=True, forbid_unknown_fields=True):
    blinds: Name  # "50/100 ante 10"
    big: Chips = 0  # the big blind in chips (for amounts in big blinds)
    number: Count | None = None  # the level's number in the schedule
    seconds_left: Seconds | None = None  # at the message's `t`; None on the last level


class FeedClock(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: SeatNo
    seconds: Seconds  # the shot clock's length
    seconds_left: Seconds  # at the message's `t`


class SeatChance(msgspec.Struct, omit_defaults=True, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: SeatNo
    win: Fraction  # a high-low split game: to take the whole pot (scoop)
    tie: Fraction  # a high-low split game: to take a part of it (a half, a quarter)
    share: Fraction | None = None  # a high-low split game: the expected share of the pot, split halves included


class FeedChances(msgspec.Struct, omit_defaults=True, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seats: Annotated[tuple[SeatChance, ...], msgspec.Meta(max_length=MAX_SEATS)]
    exact: bool
    runouts: Count = 0
    error: Fraction = 0.0
    outs_seat: SeatNo | None = None  # heads-up on the flop or turn: the player behind, and the cards that put him ahead
    outs: Cards = ()


class BroadcastFeed(msgspec.Struct, omit_defaults=True, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One message on `pokertable/<room>/<table>/broadcast` (schema version 1)."""

    v: Literal[1]  # always sent (omit_defaults would drop a default): a consumer ignores other versions
    room: Id
    table: Id
    seq: Seq
    session: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{0,64}$")]  # always sent, as every room message
    held_s: Annotated[float, msgspec.Meta(ge=0.0, le=86400.0)] = 0.0
    t: Seconds
    profile: Name
    profile_title: Name = ""
    hand: Count
    phase: Phase  # idle, dealing, betting, board, showdown, misdealt
    street: Street | None = None
    board: Annotated[tuple[Card, ...], msgspec.Meta(max_length=5)]  # always sent, as `seats` (consumers of the
    # first schema read them)
    burns: Cards = ()  # dead cards for the chances (never drawn)
    button: SeatNo | None = None
    small_blind: SeatNo | None = None
    big_blind: SeatNo | None = None
    to_act: SeatNo | None = None
    in_play: Name = ""
    game: Name = "holdem"  # the hand's game (core/game.py): its hole cards, and how the chances read hands
    seats: Annotated[tuple[FeedSeat, ...], msgspec.Meta(max_length=MAX_SEATS)]
    pot: Chips | None = None  # None: the table counts no chips
    pots: Annotated[tuple[FeedPot, ...], msgspec.Meta(max_length=MAX_SEATS)] = ()
    level: FeedLevel | None = None
    clock: FeedClock | None = None
    rulings: Annotated[tuple[FeedRuling, ...], msgspec.Meta(max_length=64)] = ()  # the open rulings (the table's
    # banner), oldest first
    showdown: FeedRuling | None = None
    result: FeedResult | None = None
    chances: FeedChances | None = None  # filled in by the production machine during the delay


ENCODER = msgspec.json.Encoder()
DECODER = msgspec.json.Decoder(BroadcastFeed)


def encode(feed: BroadcastFeed) -> bytes:
    return ENCODER.encode(feed)


def decode(payload: bytes | str) -> BroadcastFeed:
    """A broadcast message from its JSON; raises msgspec.ValidationError (or DecodeError) naming the field."""
    return DECODER.decode(payload)


def ruling_title(ruling: str) -> str:
    return ruling.replace("_", " ").upper()


def feed_ruling(ruling: Ruling) -> FeedRuling:
    data = ruling.to_json()
    return FeedRuling(t=ruling.t, ruling=str(ruling.ruling), title=ruling_title(str(ruling.ruling)),
                      rule=ruling.rule, remedy=ruling.remedy, cause=data.get("cause"), card=ruling.card,
                      seat=ruling.seat, street=data.get("street"),
                      winners=tuple(ruling.winners) if ruling.winners is not None else None, hand=ruling.hand,
                      low_winners=tuple(ruling.low_winners) if ruling.low_winners is not None else None,
                      low_hand=ruling.low_hand)


def joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]


def result_of(snapshot: TableSnapshot, name: Callable[[int], str],
              hands: Mapping[int, str]) -> FeedResult | None:
    """Who won what: every pot and its winners (split pots say so), from the showdown ruling and the chips."""
    showdown = snapshot.showdown
    if showdown is None or not showdown.winners:
        return None
    winners = tuple(showdown.winners)
    pots = showdown.pots or (snapshot.chips.pots if snapshot.chips is not None else ())
    lines = []
    for index, pot in enumerate(p for p in pots if p.winners):
        label = "the main pot" if index == 0 else f"side pot {index}"
        who = [name(seat) for seat in pot.winners]
        if pot.low_winners:  # a high-low split: who took each half ("Cy wins the high of the main pot, ...")
            low = [name(seat) for seat in pot.low_winners]
            high_part = "the high" if len(who) == 1 else "split the high"
            low_part = "the low" if len(low) == 1 else "split the low"
            lines.append(f"{joined(who)} {'wins ' if len(who) == 1 else ''}{high_part} of {label}, {pot.amount:,}"
                         f"{f', with {showdown.hand}' if showdown.hand else ''}; {joined(low)} "
                         f"{'wins ' if len(low) == 1 else ''}{low_part}"
                         f"{f', with {showdown.low_hand}' if showdown.low_hand else ''}")
        elif len(who) > 1:
            lines.append(f"{joined(who)} split {label}, {pot.amount:,}")
        else:
            how = f", with {hands[pot.winners[0]]}" if pot.winners[0] in hands else ""
            lines.append(f"{who[0]} wins {label}, {pot.amount:,}{how}")
    if not lines:  # no chips counted: the hand's winners
        who = [name(seat) for seat in winners]
        lines.append(f"{joined(who)} {'split the pot' if len(who) > 1 else 'wins'}"
                     + (f" with {showdown.hand}" if showdown.hand else ""))
    return FeedResult(winners=winners, hand=showdown.hand, lines=tuple(lines))


def best_hands(snapshot: TableSnapshot) -> dict[int, str]:
    """Each dealt seat's best hand with the board, named as the showdown ruling names it."""
    board = [card for card in snapshot.board if not is_joker(card)]
    game = game_named(snapshot.game)  # an unknown game is refused, not named as hold'em's hands
    out = {}
    for seat in snapshot.seats:
        if seat.cards and seat.state in IN_HAND and len(board) >= 3:
            try:
                out[seat.seat] = hand_names(game, seat.cards, board)
            except ValueError:  # a joker or an unknown card: no name
                continue
    return out


class FeedBuilder:
    """Turns the core's snapshots into broadcast messages; remembers who has acted in the hand.

    `names(seat)` gives a player's name; `level_at(t)` the blind schedule's (number, seconds left)
    at session time `t`, or None when the table keeps none.
    """

    def __init__(self, *, room: str, table: str, session: str = "", names: Mapping[int, str] | None = None,
                 level_at: Callable[[float], tuple[int, float | None]] | None = None) -> None:
        self.room, self.table, self.session = room, table, session
        self.names = dict(names or {})
        self.level_at = level_at
        self._hand = -1
        self._acted: set[int] = set()

    def name(self, seat: int) -> str:
        return self.names.get(seat) or f"Seat {seat}"

    def observe(self, snapshot: TableSnapshot) -> None:
        """Every snapshot in order (published or not): who has acted so far this hand."""
        if snapshot.hand_number != self._hand:
            self._hand, self._acted = snapshot.hand_number, set()
        for seat in snapshot.seats:
            action = seat.last_action
            if seat.state in (PlayerState.FOLDED, PlayerState.DEAD) or (
                    action and not action.startswith(FORCED)):
                self._acted.add(seat.seat)

    def acted(self, seat: int) -> bool:
        return seat in self._acted

    def build(self, snapshot: TableSnapshot, *, seq: int, held_s: float = 0.0) -> BroadcastFeed:
        self.observe(snapshot)
        typed = dict(snapshot.names)  # a name typed on the tracker (a `name` event) over the table file's

        def name(seat: int) -> str:
            return typed.get(seat) or self.name(seat)

        idle = snapshot.phase is Phase.IDLE  # between hands: no cards, so no board and no result either
        hands = {} if idle else best_hands(snapshot)
        seats = tuple(FeedSeat(
            seat=v.seat, name=name(v.seat), state=v.state, cards=() if idle else tuple(v.cards),
            stack=v.stack, bet=v.bet or None, action=None if idle else v.last_action, acted=self.acted(v.seat),
            button=v.is_button, small_blind=v.is_small_blind, big_blind=v.is_big_blind, to_act=v.to_act,
            hand=hands.get(v.seat)) for v in snapshot.seats)
        chips = snapshot.chips
        pots: tuple[FeedPot, ...] = ()
        if chips is not None and not idle:
            pots = tuple(FeedPot(name="main pot" if i == 0 else f"side pot {i}", amount=p.amount, seats=p.seats,
                                 winners=p.winners, shares=p.shares, low_winners=p.low_winners)
                         for i, p in enumerate(chips.pots))
        level = None
        if chips is not None:
            number, left = self.level_at(snapshot.t) if self.level_at is not None else (None, None)
            level = FeedLevel(blinds=chips.level, big=chips.big, number=number, seconds_left=left)
        clock = snapshot.clock
        feed_clock = None
        if clock is not None and not idle:
            feed_clock = FeedClock(seat=clock.seat, seconds=clock.seconds,
                                   seconds_left=max(0.0, clock.started_t + clock.seconds - snapshot.t))
        return BroadcastFeed(
            v=SCHEMA_VERSION, room=self.room, table=self.table, seq=seq, session=self.session, held_s=held_s,
            t=snapshot.t,
            profile=snapshot.profile, profile_title=snapshot.profile_title, hand=snapshot.hand_number,
            phase=snapshot.phase, street=snapshot.street,
            board=() if idle else snapshot.board, burns=() if idle else snapshot.burns, button=snapshot.button,
            small_blind=snapshot.small_blind, big_blind=snapshot.big_blind, to_act=snapshot.to_act,
            in_play=snapshot.in_play, game=snapshot.game, seats=seats,
            pot=None if chips is None or idle else chips.pot, pots=pots,
            level=level, clock=feed_clock, rulings=tuple(feed_ruling(r) for r in snapshot.unconfirmed),
            showdown=None if idle or snapshot.showdown is None else feed_ruling(snapshot.showdown),
            result=None if idle else result_of(snapshot, name, hands))


def picture_key(feed: BroadcastFeed) -> tuple[Any, ...]:
    """What the picture shows, without the time and seq: a message is sent only when this changes."""
    return (feed.hand, feed.phase, feed.street, feed.board, feed.seats, feed.pot, feed.pots, feed.level and
            (feed.level.blinds, feed.level.number), feed.clock and feed.clock.seat, feed.rulings, feed.result)


def reveal(feed: BroadcastFeed, policy: Reveal) -> BroadcastFeed:
    """The message as the page may have it under `policy`: held-back cards become a count, never sent."""
    if policy is Reveal.IMMEDIATELY:
        return feed
    showdown = feed.phase == str(Phase.SHOWDOWN) or feed.result is not None

    def shows(seat: FeedSeat) -> bool:
        if policy is Reveal.NEVER:
            return False
        if policy is Reveal.SHOWDOWN:
            return showdown and seat.state in (str(PlayerState.ACTIVE), str(PlayerState.ALLIN))
        return seat.acted or showdown

    seats = tuple(s if not s.cards or shows(s) else msgspec.structs.replace(s, cards=(), hidden=len(s.cards), hand=None)
                  for s in feed.seats)
    chances = feed.chances
    if chances is not None and any(s.hidden for s in seats):
        chances = None  # a chance tells what the hidden cards are worth: none until every live hand shows
    return msgspec.structs.replace(feed, seats=seats, chances=chances, burns=())
