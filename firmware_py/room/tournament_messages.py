"""The tournament's messages in the room (issue 20), each with one msgspec schema.

    pokertable/<room>/<table>/tournament      QoS 1   a table's report: stacks after each hand, an all in called
    pokertable/<room>/director/tournament     retained, QoS 1   the director's state: level, clock, tables and
                                                       seats, moves, holds, places and payouts

The director's state is declarative: each table reads its own seats (who sits where with how many
chips, and the draw it belongs to) and the level for its next deal, and makes its table so. A consumer
that gets something else (a bad payload, another room's, an older seq) keeps what it had:
`decode_report` and `decode_director` raise `BadMessage` saying why.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from firmware_py.core.events import MAX_SEATS
from firmware_py.room.bounds import Chips, Count, Id, Name, SeatNo, Seconds, Seq, Text
from firmware_py.room.messages import ROOT, BadMessage

DIRECTOR = "director"  # the director's topic level (a reserved id: never a table's)
KIND = "tournament"
MAX_TOURNAMENT_BYTES = 256 * 1024
MAX_PLAYERS = 1000


def report_topic(room: str, table: str) -> str:
    return f"{ROOT}/{room}/{table}/{KIND}"


def director_topic(room: str) -> str:
    return f"{ROOT}/{room}/{DIRECTOR}/{KIND}"


class _Struct(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class SeatStack(_Struct):
    seat: SeatNo
    chips: Chips


class PotShare(_Struct):
    seat: SeatNo
    chips: Chips


class PotJson(_Struct):
    """A pot as the table's core ruled it (firmware_py.core.pots.Pot): its chips, the seats that could win it,
    who did and each winner's share (odd chips included)."""

    amount: Chips
    seats: Annotated[list[SeatNo], msgspec.Meta(max_length=MAX_SEATS)]
    winners: Annotated[list[SeatNo], msgspec.Meta(max_length=MAX_SEATS)] = []
    shares: Annotated[list[PotShare], msgspec.Meta(max_length=MAX_SEATS)] = []
    low_winners: Annotated[list[SeatNo], msgspec.Meta(max_length=MAX_SEATS)] = []  # a high-low split: the low's


class SeatPlayer(_Struct):
    """A player checked in by card at a seat (docs/checkin.md): the player card's id."""

    seat: SeatNo
    player: Name


class CheckedIn(_Struct):
    """Where a player's card was last read at a seat, as its table reported it (docs/checkin.md)."""

    player: Name  # the player card's id
    table: Id
    seat: SeatNo


class TableReport(_Struct):
    """A table's word to the director: `hand` finished (stacks before and after, the button and big blind it
    was dealt with, and its pots as the core ruled them), or an all in called in `hand` (the bubble's hold).
    `pots` is None in a report of a table older than the pots (the director takes it only if no stack moved)."""

    v: Literal[1]
    room: Id
    table: Id
    session: Id  # the table's session: `seq` counts within it
    seq: Seq  # the table's report count
    # race: the color-up's chip race (`race` says which), stacks before/after; checkin: the players checked in by
    # card at the table now (`checked_in`, every one: it replaces the table's last), docs/checkin.md
    kind: Literal["hand", "all_in", "race", "checkin"]
    hand: Count
    t: Seconds  # the table's session time
    draw: Count  # the director's draw number the table is seated by
    button: SeatNo | None = None
    big_blind: SeatNo | None = None
    start: Annotated[list[SeatStack], msgspec.Meta(max_length=MAX_SEATS)] = []
    end: Annotated[list[SeatStack], msgspec.Meta(max_length=MAX_SEATS)] = []
    race: Count = 0  # with kind race: the director's race number it ran
    pots: Annotated[list[PotJson], msgspec.Meta(max_length=2 * MAX_SEATS)] | None = None  # with kind hand
    checked_in: Annotated[list[SeatPlayer], msgspec.Meta(max_length=MAX_SEATS)] = []  # with kind checkin


class RaceJson(_Struct):
    """The latest color-up: each table runs its chip race once, before its next deal (WFP 6, UPT 11, RPL 10)."""

    n: Count  # counts the color-ups so far
    chip: Chips  # the denomination leaving the tables
    to: Chips  # the chip its odd chips race for


class LevelJson(_Struct):
    number: Count
    small: Chips
    big: Chips
    ante: Chips = 0
    bb_ante: Chips = 0


class SeatJson(_Struct):
    seat: SeatNo
    player: Id
    name: Name
    chips: Chips
    moved: bool = False  # sat here by a move (balancing): the table deals the player in by its profile
    card: Name = ""  # the player card's id (a table with player cards checks in by it: docs/checkin.md), if any


class TableJson(_Struct):
    table: Id
    draw: Count  # counts the draws (first seating, redraws) of this table: a new one means a new start
    button: SeatNo | None
    seats: Annotated[list[SeatJson], msgspec.Meta(max_length=MAX_SEATS)]
    acked: Seq  # the last report of this table the director has taken in ...
    session: Name = ""  # ... of this session of the table
    hold: Text = ""  # why the table may not deal its next hand now (the bubble), or ""
    hand: Count = 0  # the last hand the director took in from this table in this draw (whatever its session)


class CiteJson(_Struct):
    profile: Name
    section: Name
    rule: Name
    says: Text
    note: Text = ""


class DecisionJson(_Struct):
    n: Count
    kind: Name
    text: Text  # what the director's page, the floor and the venue screen say
    tables: Annotated[list[Id], msgspec.Meta(max_length=64)]
    player: Name = ""
    cites: Annotated[list[CiteJson], msgspec.Meta(max_length=8)] = []


class PlaceJson(_Struct):
    place: Count
    player: Id
    name: Name
    shared: Annotated[list[Count], msgspec.Meta(max_length=2)] | None = None
    prize: Chips = 0
    bounty: Chips = 0  # bounties the entry collected
    rule: Text = ""  # the rule that decided the place ("wfp Section 2 WFP Tournament Rules 28"), with its note


class EntryJson(_Struct):
    """One of the director's actions on the field and the money, numbered (the number undoes it): an entry after
    the draw (a late registration, a re-entry: a new entry of a busted player, a new seat by draw), a rebuy or an
    add-on, with what was paid and the chips it brought."""

    n: Count
    kind: Name  # entry, re-entry, rebuy, add-on
    player: Id  # the entry (its own place in the places)
    name: Name
    card: Name = ""  # the player card's id, if any
    person: Name = ""  # a re-entry: the first entry of the same player
    paid: Chips = 0
    chips: Chips = 0  # the chips it brought: an entry's starting stack, a rebuy's or add-on's chips
    table: Name = ""  # a rebuy or add-on: the table and its hand count when bought (its undo: no hand since)
    hand: Count = 0
    alternate: bool = False  # waiting for a seat (every seat taken): seated when one opens, in order
    undone: bool = False


class MoneyJson(_Struct):
    """Where the money went (firmware_py.tournament.money.Pool): collected + overlay == prize pool + fees + rake."""

    collected: Chips
    fees: Chips
    rake: Chips
    overlay: Chips  # what the house adds to meet the guarantee
    guarantee: Chips
    prize_pool: Chips
    unit: Chips  # prizes are rounded to it
    table: Text  # the payout table and the row used
    locked: bool = False  # the money is reached: the prizes no longer change
    bounties: Chips = 0  # the entries' bounties (to eliminators, or on heads still in)
    bounty: Chips = 0  # each entry's bounty
    progressive: bool = False  # progressive knockout: half in cash, half onto the eliminator's head


class KnockoutJson(_Struct):
    """Who knocked out whom, from the table's own ruling of the pot, and the bounty each eliminator took."""

    n: Count  # the decision
    player: Id  # out
    by: Annotated[list[Id], msgspec.Meta(max_length=MAX_SEATS)]  # the winners of the pot (a split: several)
    cash: Annotated[list[Chips], msgspec.Meta(max_length=MAX_SEATS)]
    head: Annotated[list[Chips], msgspec.Meta(max_length=MAX_SEATS)]  # progressive: onto each eliminator's head
    table: Name
    hand: Count
    pot: Count  # the pot's index in the report (0: the main pot)


class BountyJson(_Struct):
    player: Id
    name: Name
    head: Chips  # the bounty on the player's head now
    won: Chips  # bounties collected


class DealShareJson(_Struct):
    player: Id
    name: Name
    chips: Chips  # the stack when the deal was made
    share: Chips  # the money the deal gives the player (the winner takes `play_for` besides)
    agreed: bool = True


class DealJson(_Struct):
    """A deal the players left agreed on (ICM, chip-chop or custom), each player's agreement and share; what is
    left (`play_for`) is played for."""

    n: Count  # the director's decision that recorded it
    method: Name
    split: Chips  # the money shared by the deal
    play_for: Chips
    shares: Annotated[list[DealShareJson], msgspec.Meta(max_length=MAX_SEATS * 4)]


class RefusedJson(_Struct):
    """A table's report the director refused: never applied, shown with the reason."""

    n: Count  # counts the refused reports of this tournament
    table: Name
    kind: Name  # the report's kind, or "message" for one that did not pass the schema
    reason: Text
    hand: Count = 0
    seq: Seq = 0
    session: Name = ""


class JackpotJson(_Struct):
    """A jackpot hand a table told the room of as it ended (its `jackpot` message, docs/jackpots.md), with the
    player the director has in that seat: the director's page lists the latest."""

    table: Id
    hand: Count
    jackpot: Name
    kind: Name  # bad_beat or high_hand
    seat: SeatNo
    player: Name = ""  # the name the director has in that seat ("" if none)
    held: Name = ""
    winners: Annotated[list[SeatNo], msgspec.Meta(max_length=MAX_SEATS)] = []
    rule: Text = ""
    remedy: Text = ""
    packet: Name = ""
    session: Name = ""
    seq: Seq = 0
    n: Count = 0


class DirectorState(_Struct):
    v: Literal[1]
    room: Id
    seq: Seq  # counts within the director's run (`session`): a restarted director counts again from 1
    profile: Name
    title: Name
    structure: Name
    level: LevelJson
    next_level: LevelJson | None
    on_break: bool
    remaining_s: Seconds
    running: bool
    entrants: Count
    remaining: Count
    chips_in_play: Chips
    tables: Annotated[list[TableJson], msgspec.Meta(max_length=256)]
    decisions: Annotated[list[DecisionJson], msgspec.Meta(max_length=200)]  # the latest, newest last
    places: Annotated[list[PlaceJson], msgspec.Meta(max_length=MAX_PLAYERS)]
    payouts: Annotated[list[Chips], msgspec.Meta(max_length=MAX_PLAYERS)]
    hand_for_hand: bool
    all_in: Annotated[list[Id], msgspec.Meta(max_length=256)]
    winner: Name = ""
    color_up: Text = ""  # the color-up the tables are to race for now, if any
    race: RaceJson | None = None
    session: Name = ""  # the director's run: a reader takes a new run's state whatever its seq
    tournament: Name = ""  # the tournament (its journal): the same across the director's runs, decisions count on
    over: bool = False  # won: the clock is stopped, hand-for-hand is off, every table stops dealing
    pool: Chips = 0  # the prize pool (0: none configured, `--buy-in`; the places have no prizes)
    refused: Annotated[list[RefusedJson], msgspec.Meta(max_length=64)] = []  # the latest refused reports, newest last
    refused_total: Count = 0
    # The chips in play now by the structure (its denominations less those the color-ups passed removed), smallest
    # first; [] when the structure names none. A table set up by the director deals with them.
    denominations: Annotated[list[Chips], msgspec.Meta(max_length=20)] = []
    entries: Annotated[list[EntryJson], msgspec.Meta(max_length=4 * MAX_PLAYERS)] = []  # the actions, in order
    alternates: Annotated[list[Name], msgspec.Meta(max_length=MAX_PLAYERS)] = []  # waiting for a seat, in order
    money: MoneyJson | None = None  # with a money file: the prize pool's account
    deal: DealJson | None = None  # a deal the players left made
    knockouts: Annotated[list[KnockoutJson], msgspec.Meta(max_length=200)] = []  # the latest
    bounties: Annotated[list[BountyJson], msgspec.Meta(max_length=MAX_PLAYERS)] = []
    late: Text = ""  # what entries the structure takes now ("" : none), e.g. "late registration through level 4"
    jackpots: Annotated[list[JackpotJson], msgspec.Meta(max_length=64)] = []  # the latest jackpot hands, newest last
    # Players checked in by card, where the tables last reported them (docs/checkin.md): a table tells its core a
    # player it has drawn checked in at another table
    checked_in: Annotated[list[CheckedIn], msgspec.Meta(max_length=MAX_PLAYERS)] = []


def newer(state: DirectorState, than: DirectorState | None) -> bool:
    """Whether `state` replaces `than`: a later seq of the same run, or another run of the director."""
    return than is None or state.session != than.session or state.seq > than.seq


_REPORT = msgspec.json.Decoder(TableReport)
_DIRECTOR = msgspec.json.Decoder(DirectorState)
_ENCODER = msgspec.json.Encoder()


def _decode(decoder: Any, payload: bytes) -> Any:
    if len(payload) > MAX_TOURNAMENT_BYTES:
        raise BadMessage(f"{len(payload)} bytes: more than {MAX_TOURNAMENT_BYTES}")
    try:
        return decoder.decode(payload)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise BadMessage(str(exc)[:500]) from None
    except RecursionError:
        raise BadMessage("nested too deep") from None


def decode_report(topic: str, payload: bytes) -> TableReport:
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] != KIND or parts[2] == DIRECTOR:
        raise BadMessage(f"not a table's tournament topic: {topic[:200]!r}")
    report: TableReport = _decode(_REPORT, payload)
    if (report.room, report.table) != (parts[1], parts[2]):
        raise BadMessage(f"the topic is {parts[1]}/{parts[2]} but the report says {report.room}/{report.table}")
    return report


def decode_director(topic: str, payload: bytes) -> DirectorState:
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[2] != DIRECTOR or parts[3] != KIND:
        raise BadMessage(f"not the director's topic: {topic[:200]!r}")
    state: DirectorState = _decode(_DIRECTOR, payload)
    if state.room != parts[1]:
        raise BadMessage(f"the topic's room is {parts[1]} but the state says {state.room}")
    return state


def encode(message: msgspec.Struct | dict[str, Any], schema: type[Any]) -> bytes:
    """A message through its schema (BadMessage if we would send what our consumers refuse)."""
    try:
        return _ENCODER.encode(msgspec.convert(message, schema) if isinstance(message, dict) else message)
    except msgspec.ValidationError as exc:
        raise BadMessage(f"{schema.__name__}: {exc}") from None
