"""Players checked in by their card: the director's draw says which player belongs at each seat, a player card
read at a seat (or at the shoe's reader between hands) checks the player in by name, and a deal to a seat whose
drawn player is not at it (not checked in, or checked in at another seat or table) is ruled as the profile's book
says of a player not at the seat when dealt (docs/checkin.md).

A handler: route.py calls it. `[rules.absent] procedure` is the book's: `dead_when_dealt` (WFP Tournament
Procedures 8, UPT Tournaments 13: "A player must be at the table by the time all players have their complete
starting hands in order to have a live hand for that deal"), `dead_at_turn` (RPL Tournaments 12: "by the time the
action is to them"; the WFP dealers' Be at Your Seat: "not at their seat when it is their turn to act, the hand is
dead - even if the player is the big blind"), `not_entitled` (Robert's Misdeals 1(i), (j): a player must be present
or have posted a blind or ante to be entitled to a hand, and cards dealt to a player not entitled are a misdeal).
The check-ins and the draw arrive as events (`checkin`, `draw`) and are journaled like any other.
"""

from __future__ import annotations

from firmware_py.core import transitions
from firmware_py.core.events import NAME_MAX, CheckIn, Draw
from firmware_py.core.hand import Hand
from firmware_py.core.phase import BETTING, BOARD, DEALING
from firmware_py.core.rulings import NoticeKind, Ruling, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import Cause, RuleKey

HERE = ""  # a place's table: this one
AT_TURN = "dead_at_turn"  # the procedure asked after every event


def draw(table: TableState, event: Draw) -> None:
    """The director's draw for the table: who belongs at each seat, from now on."""
    table.draw = dict(event.seats)
    if event.seats:
        drawn = ", ".join(f"seat {seat} {player}" for seat, player in event.seats)
        table.notice(NoticeKind.CHECKIN, f"draw: {drawn}")
    else:
        table.notice(NoticeKind.CHECKIN, "draw: none (no seat is checked at the deal)")


def check_in(table: TableState, event: CheckIn) -> None:
    """A player card read: the player sits at the seat (its name on every screen, as a `name` event gives it)."""
    player, name = event.player, event.name or event.player
    if event.table:  # checked in at another table, as the room tells it: at no seat here
        _leave(table, player)
        table.present[player] = (event.table, event.seat or 0)
        where = f"table {event.table}" + (f" seat {event.seat}" if event.seat else "")
        table.notice(NoticeKind.CHECKIN, f"check-in: {name} ({player}) checked in at {where}")
        return
    seat = event.seat
    if seat is None:  # at the shoe's reader: the seat the draw gives, and only between hands
        hand = table.hand
        if hand is not None and hand.phase in (DEALING, BETTING, BOARD):
            table.refuse(f"check-in: {name}'s card ({player}) read at the shoe during hand {table.hand_number}: "
                         "check in at the seat, or at the shoe between hands; not taken")
            return
        seat = next((s for s, p in sorted(table.draw.items()) if p == player), None)
        if seat is None:
            table.refuse(f"check-in: {name} ({player}) is not in this table's draw: read the card at the seat "
                         "the player takes, or ask the director where the player belongs; not taken")
            return
    if seat not in table.occupied:
        table.refuse(f"check-in: seat {seat} is empty at this table (seat it first); {name} ({player}) not taken")
        return
    _leave(table, player)
    for other, (where, at) in list(table.present.items()):  # whoever was checked in at the seat has left it
        if where == HERE and at == seat:
            del table.present[other]
    table.present[player] = (HERE, seat)
    table.names[seat] = name[:NAME_MAX]
    drawn = table.draw.get(seat)
    told = f"check-in: seat {seat} is {name} ({player})"
    if drawn is not None and drawn != player:
        mine = _drawn_seat(table, player)
        told += f"; the draw has {drawn} at seat {seat}" + (f" and {player} at seat {mine}" if mine else "")
    table.notice(NoticeKind.CHECKIN, told)


def _leave(table: TableState, player: str) -> None:
    """The player leaves the seat it had checked in at here (its name there goes with it)."""
    place = table.present.pop(player, None)
    if place is not None and place[0] == HERE and place[1] in table.names:
        del table.names[place[1]]


def _drawn_seat(table: TableState, player: str) -> int | None:
    return next((s for s, p in sorted(table.draw.items()) if p == player), None)


def why_absent(table: TableState, seat: int) -> tuple[Cause, str] | None:
    """Why the seat's drawn player is not at it (the cause and the words), or None: at it, or the seat has no draw."""
    player = table.draw.get(seat)
    if player is None:
        return None
    place = table.present.get(player)
    if place == (HERE, seat):
        return None
    if place is None:
        cause, detail = Cause.NOT_CHECKED_IN, f"{player} has not checked in"
    elif place[0] != HERE:
        at = f" seat {place[1]}" if place[1] else ""
        cause, detail = Cause.WRONG_TABLE, f"{player} checked in at table {place[0]}{at}"
    else:
        cause, detail = Cause.WRONG_SEAT, f"{player} checked in at seat {place[1]}"
    for other in _sitting(table, seat):
        mine = _drawn_seat(table, other)
        belongs = f"is drawn to seat {mine}" if mine is not None else "is not in this table's draw"
        detail += f"; {table.names.get(seat, other)} ({other}), checked in here, {belongs}"
    return cause, detail


def _sitting(table: TableState, seat: int) -> list[str]:
    """The players checked in at the seat (one at most: a check-in there sends the one before away)."""
    return [p for p, (where, at) in sorted(table.present.items()) if where == HERE and at == seat]


def judge_deal(table: TableState, hand: Hand) -> None:
    """Once every player has a complete starting hand (the first betting round open): each seat dealt in whose drawn
    player is not at it is ruled as the profile says (dead now, dead at its turn, or a misdeal if not entitled)."""
    table.judged = hand.number
    rule = table.rule(RuleKey.ABSENT)
    procedure = rule.procedure
    if procedure == AT_TURN:
        at_turn(table, hand)
        return
    absent: list[tuple[int, Cause, str]] = []
    for seat in hand.positions.deal_order:
        if seat in hand.betting.folded or seat in hand.betting.dead:
            continue
        why = why_absent(table, seat)
        if why is not None:
            absent.append((seat, *why))
    if procedure == "not_entitled":  # Robert's: any seat not entitled is a misdeal; one that posted plays
        chips = table.chips.hand

        def posted(seat: int) -> bool:
            if chips is not None:
                return chips.committed.get(seat, 0) > 0
            return seat in (hand.positions.small_blind, hand.positions.big_blind)

        for seat, cause, detail in absent:
            if not posted(seat):
                transitions.misdeal(table, hand, RuleKey.ABSENT, cause, seat=seat, fill={"detail": detail})
                return
        for seat, cause, detail in absent:  # Misdeals 1(j): a player who posted a blind or ante is entitled
            table.emit(Ruling(t=table.t, ruling=RulingKind.PLAYER_ABSENT, cause=cause, seat=seat, rule=rule.cite,
                              remedy=rule.text_of("entitled_remedy", seat=seat, detail=detail)))
        return
    for seat, cause, detail in absent:
        if hand.phase is BETTING:
            _dead(table, hand, seat, cause, detail)


def at_turn(table: TableState, hand: Hand) -> None:
    """dead_at_turn: the action reaches a seat whose drawn player is not at it: the hand is dead (each in turn)."""
    while hand.phase is BETTING and hand.betting.to_act is not None:
        seat = hand.betting.to_act
        why = why_absent(table, seat)
        if why is None:
            return
        _dead(table, hand, seat, *why)


def _dead(table: TableState, hand: Hand, seat: int, cause: Cause, detail: str) -> None:
    rule = table.rule(RuleKey.ABSENT)
    if cause is Cause.NOT_CHECKED_IN and not _sitting(table, seat):  # away; else another player sits in the seat
        cite, remedy = rule.cite, rule.text(seat=seat, detail=detail)
    else:
        cite = f"{rule.source}: {rule.word('wrong_seat_rule')}"
        remedy = rule.text_of("wrong_seat_remedy", seat=seat, detail=detail)
    table.emit(Ruling(t=table.t, ruling=RulingKind.DEAD_HAND, cause=cause, seat=seat, rule=cite, remedy=remedy))
    betting = hand.betting
    betting.dead.add(seat)
    if table.chips.hand is not None:
        table.chips.hand.fold_out((seat,))
    if betting.to_act == seat:
        betting.to_act = hand.next_to_act(seat)
        if betting.to_act is None:
            if not transitions.uncontested(table, hand):
                transitions.close_round(table, hand)
            return
    transitions.after_action(table, hand)
